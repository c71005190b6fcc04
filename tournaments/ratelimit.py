"""Fixed-window attempt counters in the shared cache (Redis in production).

Used where guessing must not pay: logins and table codes. A client gets ``limit`` failed
attempts per ``period`` seconds; after that it is told when to try again.
"""

import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest


@dataclass(frozen=True)
class Window:
    key: str
    limit: int
    period: int

    @property
    def retry_after(self) -> int:
        return self.period - int(time.time()) % self.period


def client_ip(request: HttpRequest) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is set by clients too, so trusting it would let anyone
    # reset their counter. Behind a proxy, set REMOTE_ADDR from the proxy (gunicorn --forwarded-allow-ips).
    return request.META.get("REMOTE_ADDR", "unknown")


def window(scope: str, ident: str, *, limit: int, period: int = 60) -> Window:
    slot = int(time.time()) // period
    return Window(key=f"rl:{scope}:{ident}:{slot}", limit=limit, period=period)


def is_blocked(w: Window) -> bool:
    return (cache.get(w.key) or 0) >= w.limit


def register_failure(w: Window) -> int:
    cache.add(w.key, 0, timeout=w.period + 5)
    try:
        return cache.incr(w.key)
    except ValueError:  # expired between add and incr
        cache.set(w.key, 1, timeout=w.period + 5)
        return 1
