"""DRF's view of the one attempt counter (``tournaments.ratelimit``): the request budget of
``POST verify``. Table codes and passwords are counted in their views, where the outcome of an
attempt is known (a right secret gives its unit back)."""

from rest_framework.throttling import BaseThrottle

from api.principals import principal
from tournaments import ratelimit


class VerifyThrottle(BaseThrottle):
    """``POST verify``: per account, per table token, or per address for anonymous callers."""

    limit = ratelimit.VERIFY
    _wait: int | None = None

    def allow_request(self, request, view) -> bool:
        user = request.user
        ident = (
            principal(request) if user and user.is_authenticated else ratelimit.client_ip(request)
        )
        counted = ratelimit.count(limit=self.limit, ident=ident)
        self._wait = counted.retry_after if counted.over else None
        return not counted.over

    def wait(self) -> int | None:
        return self._wait
