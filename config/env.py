"""Small typed readers for configuration held in environment variables."""

import math
import os
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no or on/off"
    )


def _number(name: str, kind: type, what: str) -> tuple[str, float] | None:
    """The variable's text and value as ``kind``; None when it is unset or empty."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = kind(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} is not {what}") from exc
    if not math.isfinite(value):
        raise ImproperlyConfigured(f"{name}={raw!r} is not {what}")
    return raw, value


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    found = _number(name, int, "an integer")
    if found is None:
        return default
    raw, value = found
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} is below its minimum of {minimum}")
    return int(value)


def env_float(name: str, default: float, *, minimum: float = 0.0, positive: bool = False) -> float:
    """A number of seconds (or the like) of the environment: at least ``minimum``, and more than
    0 when ``positive``."""
    found = _number(name, float, "a number")
    if found is None:
        return default
    raw, value = found
    if positive and value <= 0:
        raise ImproperlyConfigured(f"{name}={raw!r} must be more than 0")
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} is below {minimum:g}")
    return value


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(url: str) -> dict[str, object]:
    """Turn ``postgres://user:pass@host:port/name`` or ``sqlite:///path`` into a DATABASES entry."""
    parsed = urlparse(url)
    scheme = parsed.scheme
    if scheme == "sqlite":
        path = unquote(parsed.path)
        if path.startswith("//"):  # sqlite:////abs/path
            path = path[1:]
        elif path.startswith("/") and not url.startswith("sqlite:////"):
            path = path[1:] or ":memory:"
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": path or ":memory:"}
    if scheme in {"postgres", "postgresql", "pgsql"}:
        options = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parsed.path.lstrip("/")),
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(parsed.port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {scheme!r} is not supported: use postgres://… or sqlite:///…"
    )


def redis_cache(url: str, timeout: float) -> dict[str, object]:
    """The CACHES entry of the Redis at ``url``: a call that waits more than ``timeout`` seconds
    to connect, or for an answer, fails (a Redis that hangs must not hold a request)."""
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "botifarra",
        "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
    }
