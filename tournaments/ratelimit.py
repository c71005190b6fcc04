"""Fixed-window attempt counters in the shared cache (Redis in production).

Used where guessing must not pay: logins and table codes. A client gets ``limit`` failed
attempts per ``period`` seconds; after that it is told when to try again.
"""

import logging
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

log = logging.getLogger(__name__)


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


def _slot(period: int) -> int:
    return int(time.time()) // period


def window(scope: str, ident: str, *, limit: int, period: int = 60) -> Window:
    return Window(key=f"rl:{scope}:{ident}:{_slot(period)}", limit=limit, period=period)


# When the cache (Redis) is down the counters are skipped, with a warning: people must still be
# able to log in and join their table mid-event, and a few minutes without a counter do not make
# a password or a code (one of 32^6) guessable.


def failures(w: Window) -> int:
    try:
        return int(cache.get(w.key) or 0)
    except Exception:  # noqa: BLE001
        log.warning("attempt counter %s unavailable", w.key, exc_info=True)
        return 0


def is_blocked(w: Window) -> bool:
    return failures(w) >= w.limit


def register_failure(w: Window) -> int:
    try:
        cache.add(w.key, 0, timeout=w.period + 5)
        try:
            return int(cache.incr(w.key))
        except ValueError:  # expired between add and incr
            cache.set(w.key, 1, timeout=w.period + 5)
            return 1
    except Exception:  # noqa: BLE001
        log.warning("attempt counter %s unavailable", w.key, exc_info=True)
        return 0
