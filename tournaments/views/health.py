from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from tournaments import redis_outage

# A file every page links to: if its address cannot be made, no page can be rendered.
STATIC_PROBE = "css/site.css"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # noqa: BLE001 - any failure means "not answering"
        return False


def _redis_ok() -> bool:
    """Does Redis answer? Asked whatever ``redis_outage`` says; an answer ends this process's
    pause (a monitor polling /healthz brings a process back to Redis as soon as it is)."""
    import redis

    try:
        # As long as the site's own calls may wait (REDIS_SOCKET_TIMEOUT), and at least 1 s.
        wait = max(settings.REDIS_SOCKET_TIMEOUT, 1.0)
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=wait, socket_timeout=wait
        )
        answered = bool(client.ping())
    except Exception:  # noqa: BLE001
        return False
    if answered:
        redis_outage.reset()
    return answered


def _static_problem() -> str | None:
    """Why pages cannot link their static files, or None. With the production storage (a
    manifest of hashed names), every page is a 500 until ``collectstatic`` has written it."""
    try:
        staticfiles_storage.url(STATIC_PROBE)
    except Exception as exc:  # noqa: BLE001 - ValueError from the manifest, OSError reading it
        return f"{exc} — run `python manage.py collectstatic --no-input` and restart"
    return None


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": "ok" if _database_ok() else "down"}
    if settings.REDIS_URL:
        checks["redis"] = "ok" if _redis_ok() else "down"
    else:
        checks["redis"] = "not configured"
    static_problem = _static_problem()
    checks["static"] = "ok" if static_problem is None else "missing"
    down = [name for name, state in checks.items() if state in ("down", "missing")]
    body: dict[str, object] = {"status": "ok" if not down else "down", "checks": checks}
    if down:
        body["down"] = down
    if static_problem is not None:
        body["problems"] = {"static": static_problem}
    return JsonResponse(body, status=503 if down else 200)
