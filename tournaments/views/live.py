"""Pages that keep themselves up to date: a fragment polled with conditional requests.

The page's script (``static/js/live.js``) asks for the fragment with the ETag it last got; the
view answers ``304 Not Modified`` from one cheap query (the version) while nothing changed, and
renders only when something did. A console open on 200 tables costs one small query a second.
"""

import hashlib
import logging
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.translation import get_language

log = logging.getLogger(__name__)

SHARED_SECONDS = 120
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
    etag = f'"{version}"'
    token = ""
    if csrf:  # a copy kept by the browser holds a token of its CSRF secret: not another's
        token = get_token(request)  # the secret: the cookie's, or a new one the answer sets
        secret = hashlib.sha256(request.META["CSRF_COOKIE"].encode()).hexdigest()[:8]
        etag = f'"{version}-{secret}"'
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
    return response


# A rendering shared through the cache is only a saving: with the cache down, each is rendered.
def _cached(key: str) -> bytes | None:
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down
        log.warning("cache down: a shared page is rendered for each request", exc_info=True)
        return None


def _keep(key: str, content: bytes) -> None:
    try:
        cache.set(key, content, SHARED_SECONDS)
    except Exception:  # noqa: BLE001 - the cache is down
        pass
