"""Redis not answering, as this process sees it: one pause shared by every use of Redis on a
request's path (the cache, the task queue, the attempt counters).

Each call to Redis has a short timeout (``settings.REDIS_SOCKET_TIMEOUT``: the cache's, the
counters' client; the broker's own in ``CELERY_BROKER_TRANSPORT_OPTIONS``). After one fails,
callers skip Redis for ``PAUSE_S`` and take their way round (the database counts attempts, a
page renders without the cache, standings say they may be out of date): a Redis that is down,
or worse hangs without refusing connections, costs a process one timeout per pause, not one
per call and per request.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings

log = logging.getLogger(__name__)

PAUSE_S = 10.0

_paused_until = 0.0


def available() -> bool:
    """Should this process try Redis now? False for ``PAUSE_S`` after a failure. (Without
    ``REDIS_URL`` the cache is the process's memory and tasks run in-process: never paused.)"""
    return time.monotonic() >= _paused_until


def failed(what: str) -> None:
    """A call to Redis (``what`` did it) failed: skip Redis for ``PAUSE_S``. Call it from the
    ``except`` block that caught the failure (its traceback is logged). Without ``REDIS_URL``
    nothing is paused: what failed was not Redis (a task run in-process raised), and the log
    says so with the task's traceback."""
    global _paused_until
    if not settings.REDIS_URL:
        log.warning("%s failed", what, exc_info=True)
        return
    _paused_until = time.monotonic() + PAUSE_S
    log.warning(
        "%s: Redis does not answer; not tried again for %.0f s", what, PAUSE_S, exc_info=True
    )


def reset() -> None:
    """Try Redis again at the next call (Redis is known to be back: tests, an operator)."""
    global _paused_until
    _paused_until = 0.0
