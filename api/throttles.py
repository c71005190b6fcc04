"""Throttles that count failed attempts per client, so a table code or a password cannot be
guessed by trying, while a room full of tables behind one router can still all log in."""

import logging

from rest_framework.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)


class FailedAttemptThrottle(SimpleRateThrottle):
    """Refuses a client that failed ``rate`` times recently; only ``failed()`` counts.

    The client is its address; ``X-Forwarded-For`` is trusted only as far as the setting
    ``NUM_PROXIES`` says (0 by default: otherwise a guesser could send a new address each time).
    """

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # noqa: BLE001 - see tournaments/ratelimit.py: skip the counter
            log.warning("attempt counter %s unavailable", self.scope, exc_info=True)
            self.key = None
            return True

    def throttle_success(self) -> bool:
        return True  # a request is not an attempt until it fails

    def failed(self) -> None:
        """Count one failed attempt by the client of the request last checked."""
        if self.key is None:
            return
        try:
            self.history = [
                t for t in self.cache.get(self.key, []) if t > self.timer() - self.duration
            ]
            self.history.insert(0, self.timer())
            self.cache.set(self.key, self.history, self.duration)
        except Exception:  # noqa: BLE001
            log.warning("attempt counter %s unavailable", self.scope, exc_info=True)


class TableCodeThrottle(FailedAttemptThrottle):
    scope = "table_code"


class LoginThrottle(FailedAttemptThrottle):
    scope = "login"


class VerifyThrottle(SimpleRateThrottle):
    """``POST verify``: per account, per table token, or per address for anonymous callers."""

    scope = "verify"

    def get_cache_key(self, request, view) -> str:
        from api.idempotency import principal

        user = request.user
        ident = principal(request) if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
