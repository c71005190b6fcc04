"""Pages that keep themselves up to date: a fragment polled with conditional requests.

The page's script (``static/js/live.js``) asks for the fragment with the ETag it last got; the
view answers ``304 Not Modified`` from one cheap query (the version) while nothing changed, and
renders only when something did. A console open on 200 tables costs one small query a second.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified


def live_response(
    request: HttpRequest, version: str, render: Callable[[], HttpResponse]
) -> HttpResponse:
    etag = f'"{version}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
