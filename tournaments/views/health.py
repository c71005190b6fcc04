from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # noqa: BLE001 - any failure means "not answering"
        return False


def _redis_ok() -> bool:
    import redis

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
        return bool(client.ping())
    except Exception:  # noqa: BLE001
        return False


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": "ok" if _database_ok() else "down"}
    if settings.REDIS_URL:
        checks["redis"] = "ok" if _redis_ok() else "down"
    else:
        checks["redis"] = "not configured"
    down = [name for name, state in checks.items() if state == "down"]
    body = {"status": "ok" if not down else "down", "checks": checks}
    if down:
        body["down"] = down
    return JsonResponse(body, status=503 if down else 200)
