"""Pages that keep themselves up to date: a fragment polled with conditional requests.

The page's script (``static/js/live.js``) asks for the fragment with the ETag it last got; the
view answers ``304 Not Modified`` from one cheap query (the version) while nothing changed, and
renders only when something did. A console open on 200 tables costs one small query a second.
"""

from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language

SHARED_SECONDS = 120


def live_response(
    request: HttpRequest,
    version: str,
    render: Callable[[], HttpResponse],
    *,
    shared: str = "",
) -> HttpResponse:
    """``shared``: a key naming who may share a rendering (e.g. the round and whether the
    viewer organises it): the consoles open on one round render each version once between
    them. Only for fragments without per-user content (no CSRF token, no name of the viewer).
    """
    etag = f'"{version}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    elif shared:
        key = f"live:{shared}:{get_language()}:{version}"
        content = cache.get(key)
        if content is None:
            content = render().content
            cache.set(key, content, SHARED_SECONDS)
        response = HttpResponse(content)
    else:
        response = render()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
