"""Pages that keep themselves up to date: a fragment polled with conditional requests.

The page's script (``static/js/live.js``) asks for the fragment with the ETag it last got; the
view answers ``304 Not Modified`` from one cheap query (the version) while nothing changed, and
renders only when something did. A console open on 200 tables costs one small query a second.
"""

import hashlib
import threading
import time
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from tournaments import clock, redis_outage

SHARED_SECONDS = 60
# Where a shared rendering holds the viewer's CSRF token (``{% csrf_token %}`` in the page
# header's language form): never a real token, which is letters and digits only.
CSRF_SLOT = "csrf-slot-of-a-shared-page"


def live_response(
    request: HttpRequest,
    version: str,
    render: Callable[[], HttpResponse],
    *,
    shared: str = "",
    csrf: bool = False,
) -> HttpResponse:
    """``shared``: a key naming who may share a rendering (e.g. the round and whether the
    viewer organises it): the consoles open on one round render each version once between
    them. Only for pages without per-user content (no name of the viewer); ``csrf``: the
    rendering holds ``CSRF_SLOT`` for the token (the caller renders with
    ``csrf_token=CSRF_SLOT``) and each viewer gets their own.
    """
    # The language too: a reader who switches it must not be told "not modified" and keep the
    # copy in the language they left.
    etag = f'"{version}-{get_language()}"'
    token = ""
    if csrf:  # a copy kept by the browser holds a token of its CSRF secret: not another's
        token = get_token(request)  # the secret: the cookie's, or a new one the answer sets
        secret = hashlib.sha256(request.META["CSRF_COOKIE"].encode()).hexdigest()[:8]
        etag = f'"{version}-{get_language()}-{secret}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    elif shared:
        key = f"live:{shared}:{get_language()}:{version}"
        content = _cached(key)
        if content is None:
            content = render().content
            _keep(key, content)
        if csrf:
            content = content.replace(CSRF_SLOT.encode(), token.encode())
        response = HttpResponse(content)
    else:
        response = render()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return clock.stamped(response)


# A shared rendering is kept in the cache for every process, and in this process for the next
# requests it answers (no cache round trip); either copy lives at most SHARED_SECONDS, so what
# a version does not cover (a pair renamed) shows within twice that. Only a saving: with the
# cache down, each request renders.
_LOCAL: dict[str, tuple[float, bytes]] = {}
_LOCAL_MAX = 64
_LOCAL_LOCK = threading.Lock()


def _cached(key: str) -> bytes | None:
    now = time.monotonic()
    with _LOCAL_LOCK:
        held = _LOCAL.get(key)
    if held is not None and held[0] > now:
        return held[1]
    if not redis_outage.available():
        return None
    try:
        content = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down
        redis_outage.failed("shared pages (rendered for each request meanwhile)")
        return None
    if content is not None:
        _hold(key, content, now)
    return content


def _keep(key: str, content: bytes) -> None:
    _hold(key, content, time.monotonic())
    if not redis_outage.available():
        return
    try:
        cache.set(key, content, SHARED_SECONDS)
    except Exception:  # noqa: BLE001 - the cache is down
        redis_outage.failed("shared pages (rendered for each request meanwhile)")


def _hold(key: str, content: bytes, now: float) -> None:
    with _LOCAL_LOCK:
        for old in [k for k, (until, _c) in _LOCAL.items() if until <= now]:
            del _LOCAL[old]
        while len(_LOCAL) >= _LOCAL_MAX:
            del _LOCAL[next(iter(_LOCAL))]  # the oldest
        _LOCAL[key] = (now + SHARED_SECONDS, content)
