"""The project's own 404 and 403 pages, also with DEBUG on (the demo runs with DEBUG=1), and
its page for a form refused by the CSRF check (``CSRF_FAILURE_VIEW``).

Django answers a missing page with its technical 404 page when DEBUG is on, and logs every
PermissionDenied with its traceback; a refusal is a normal answer, not a failure. This
middleware, last in MIDDLEWARE so that CommonMiddleware still adds a missing slash first,
renders templates/404.html and 403.html instead; a 403 is then logged as one line by Django's
request logger ("Forbidden: /path"), without a traceback.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults


class ProjectErrorPagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG:
            # An address no URL names fails before any view runs, where process_exception
            # cannot see it.
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404:
                return defaults.page_not_found(request, Http404())
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, PermissionDenied):
            return defaults.permission_denied(request, exception)
        if settings.DEBUG and isinstance(exception, Http404):
            return defaults.page_not_found(request, exception)
        return None


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by the CSRF check, in the site's layout and the reader's language
    (Django's own page is English-titled and bare). ``reason`` goes to the log only.

    Its language switch goes back to the page the form came from (this site's, by its
    Referer), else home: the refused address may take only a POST."""
    referer = request.META.get("HTTP_REFERER", "")
    safe = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return render(request, "403_csrf.html", {"language_next": referer if safe else "/"}, status=403)
