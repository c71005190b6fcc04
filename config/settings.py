"""Settings for Botifarra Duplicate, read from the environment.

With no environment at all a newcomer gets a working development site: SQLite in the project
folder, Celery tasks run in-process, a local-memory cache. A deployment sets DATABASE_URL,
REDIS_URL, SECRET_KEY, ALLOWED_HOSTS and DEBUG=0 (see docs/deploy.md).
"""

import hashlib
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import (
    database_from_url,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_str,
    redis_cache,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment, or set DEBUG=1 for development."
        )
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS:
    # Started anyway, the site would answer every request (its health check too) with a 400.
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set: give the site's host names, comma-separated "
        "(e.g. ALLOWED_HOSTS=botifarra.example), or set DEBUG=1 for development."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Empty: the address each request came in on (tournaments/site.py).
SITE_URL = env_str("SITE_URL", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
    "api",
]

MIDDLEWARE = [
    "config.proxies.TrustedProxyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CSRF: its process_view is the first to read a body (tournaments/body_limits.py).
    "tournaments.body_limits.BodyLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.error_pages.ProjectErrorPagesMiddleware",
]

CSRF_FAILURE_VIEW = "config.error_pages.csrf_failure"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several tables submit at once even in the demo: wait for the write lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    # The tests' database is a file (in memory where /dev/shm is), not SQLite's shared in-memory
    # one: there the live server's threads share one connection, and a request that writes a
    # table another thread is reading fails at once ("database table is locked") instead of
    # waiting as it does here (the browser tests). One file a process: two test runs of one
    # checkout at once (a developer's and an editor's) do not delete each other's database.
    _shm = Path("/dev/shm")
    _checkout = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:8]
    DATABASES["default"]["TEST"] = {
        "NAME": str(
            (_shm if _shm.is_dir() else BASE_DIR)
            / f"botifarra-test-{_checkout}-{os.getpid()}.sqlite3"
        )
    }
# The hot path's statements (tournaments.prepared) are prepared by name in the server's session.
DATABASE_SESSION_STATEMENTS = True
if env_bool("DATABASE_TRANSACTION_POOLER", default=False):
    # Behind PgBouncer in transaction mode a cursor cannot outlive its transaction, and the next
    # transaction may run on a server session that has not prepared the project's reads.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASE_SESSION_STATEMENTS = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
# Seconds a call to Redis may wait (to connect, then for each answer) before it counts as
# failed: a Redis that hangs instead of refusing must not hold a request for redis-py's own
# default (or forever, before redis-py 8). After a failure the process leaves Redis alone for a
# while (tournaments.redis_outage).
REDIS_SOCKET_TIMEOUT = env_float("REDIS_SOCKET_TIMEOUT", 0.5, positive=True)
if REDIS_URL:
    CACHES = {"default": redis_cache(REDIS_URL, REDIS_SOCKET_TIMEOUT)}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:event_list"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = env_str("LANGUAGE_CODE", "ca")
LANGUAGES = [("ca", _("Catalan")), ("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Madrid")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# WhiteNoise reads DEBUG when its middleware starts; tests turn DEBUG off after these settings
# are read, and without this it would scan every collected file for each test client.
WHITENOISE_AUTOREFRESH = DEBUG
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = BASE_DIR / "media"
MEDIA_URL = "/media/"

# Celery: with no REDIS_URL every task runs in-process, at once, so the demo needs no services.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600),
    # Queuing a task from a request gives up on a broker that does not answer, instead of
    # waiting for redis-py's default. The worker's BRPOP is answered within kombu's brpop_timeout
    # (1 s), so its connection needs more than that.
    "socket_connect_timeout": max(REDIS_SOCKET_TIMEOUT, 1.0),
    "socket_timeout": max(4 * REDIS_SOCKET_TIMEOUT, 2.0),
}
# One retry (a connection the broker dropped, e.g. after its restart), not Celery's three.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = TIME_ZONE
# The perfect-play analysis (minutes of CPU per event) has its own queue and its own worker
# (`celery -A config worker -Q analysis`), so it never delays standings or PDFs.
CELERY_TASK_ROUTES = {"tournaments.tasks_analysis.*": {"queue": "analysis"}}
# Analyse boards when they are dealt and play records when a round closes. Never in-process:
# with tasks in-process (no REDIS_URL) it is skipped, and `manage.py analyse_event` does it.
ANALYSIS_AUTO = env_bool("ANALYSIS_AUTO", default=True)

# After an outage of Redis or of the workers, stale standings are recomputed within a minute
# (run `celery -A config beat`, the `beat` service of docker/compose.yaml).
CELERY_BEAT_SCHEDULE = {
    "catch-up-standings": {
        "task": "tournaments.tasks.catch_up_standings",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    "catch-up-webhooks": {
        "task": "tournaments.tasks.catch_up_webhooks",
        "schedule": 300.0,
        "options": {"expires": 290},
    },
}

# Standings: results arriving within this window share one recomputation; a lock on each event
# lives at most this long (keep it above the longest recomputation; see tournaments/tasks.py).
STANDINGS_COALESCE_SECONDS = env_float("STANDINGS_COALESCE_SECONDS", 2.0)
STANDINGS_LOCK_TIMEOUT = env_int("STANDINGS_LOCK_TIMEOUT", 300)

# Webhooks (docs/api.md, "Webhooks"): loopback and private addresses are refused unless allowed
# (allowed by default with DEBUG: tests and a laptop post to 127.0.0.1).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", default=DEBUG)
WEBHOOKS_PER_EVENT = env_int("WEBHOOKS_PER_EVENT", 5, minimum=1)
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 6, minimum=1)
WEBHOOK_TIMEOUT_SECONDS = env_float("WEBHOOK_TIMEOUT_SECONDS", 5.0, positive=True)
WEBHOOK_RETRY_BASE_SECONDS = env_float("WEBHOOK_RETRY_BASE_SECONDS", 60.0, positive=True)

# Every route has its own, smaller body limit (tournaments/body_limits.py); this global one is
# the largest of them (the CSV import's confirmation), for anything read outside a route.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2048 * 1024

# A table token works while its round is open, and at most this long after it was issued.
TABLE_TOKEN_HOURS = env_int("TABLE_TOKEN_HOURS", 12, minimum=1)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TableTokenAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.ApiSchema",
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StorableJSONParser"],
    # JSON only: the API's pages for people are /api/docs/ (its schema documents JSON); no
    # browsable HTML answers, for ?format=api or a browser's Accept: text/html.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,  # the default limit; api/pagination.py has the maximum
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.NamedFormatNegotiation",
    # Throttles read the client address that config.proxies leaves in REMOTE_ADDR.
    "NUM_PROXIES": 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Botifarra Duplicate API",
    "DESCRIPTION": "Events, boards and results of Botifarra duplicate tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # tournaments/converters.py: the ids and numbers in paths.
    "PATH_CONVERTER_OVERRIDES": {
        "num": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
    },
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.models.Event.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "ResultStatusEnum": "tournaments.models.BoardResult.Status",
        "DisputeStatusEnum": "tournaments.models.Dispute.Status",
        "PairEnum": "api.serializers.SIDES",
        "UnlockReasonEnum": "tournaments.models.BoardUnlock.Reason",
        "DisputeReasonEnum": "tournaments.models.Dispute.Reason",
        "AdjustedEnum": "tournaments.models.BoardResult.Adjusted",
        "RulingKindEnum": "tournaments.models.Ruling.Kind",
        "WebhookKindEnum": "api.webhooks.KIND_CHOICES",
        "WebhookDeliveryStatusEnum": "tournaments.models.WebhookDelivery.Status",
        "WebhookErrorEnum": "api.webhooks.ERROR_CHOICES",
    },
}

# Security: strict by default once DEBUG is off.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# How many reverse proxies stand between the clients and the web processes. X-Forwarded-For and
# X-Forwarded-Proto are believed only from them (config/proxies.py); 0 trusts neither, because
# any client can send them. NUM_PROXIES is the old name of this setting.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", env_int("NUM_PROXIES", 0, minimum=0), minimum=0)
SECURE_PROXY_SSL_HEADER = None  # config.proxies sets the scheme, from trusted proxies only
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Every HTML page (config/csp.py): our own scripts and styles only, nothing inline; images from
# us or data: URLs; no plug-ins, no framing, forms post to us only.
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # In-process tasks (no REDIS_URL) would log every run on the console.
        "celery.app.trace": {"level": "INFO" if REDIS_URL else "WARNING"},
    },
}

# E-mail (registration confirmations): the console in development and the demo; an SMTP server
# when EMAIL_HOST is set (docs/deploy.md).
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
# Seconds an SMTP server may keep a connection waiting: without a bound, one that accepts and
# never answers would hold a worker process (and the standings queued behind its e-mails).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "botifarra@localhost")
