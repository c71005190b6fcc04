"""The Content-Security-Policy header of every HTML page (``settings.CONTENT_SECURITY_POLICY``).

Scripts and styles come from our own static files only: no inline ``<script>``, no ``on…=``
handler attributes, no ``style=`` attributes or ``<style>`` elements in a page (a test reads
every template for them). Pages that need data give it in ``data-`` attributes or in a
``<script type="application/json">`` block, which a browser never runs.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy(directives: dict[str, str]) -> str:
    """``{"default-src": "'self'"}`` → ``"default-src 'self'"``.

    >>> policy({"default-src": "'self'", "object-src": "'none'"})
    "default-src 'self'; object-src 'none'"
    """
    return "; ".join(f"{name} {value}".strip() for name, value in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = policy(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        content_type = response.get("Content-Type", "")
        if not content_type.startswith("text/html") or HEADER in response:
            return response
        if settings.DEBUG and response.status_code >= 400:
            return response  # Django's own debug pages (development only) are inline-styled
        response[HEADER] = self.header
        return response
