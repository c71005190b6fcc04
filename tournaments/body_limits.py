"""The largest request body each route accepts, refused (413) before anything reads it; and no
NUL character in the path or a query parameter (400 naming it).

Django's own ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is one figure for the whole site (2.5 MB by default)
and is checked only when a view reads the body: a 2 MB play record reached the engine, and a
0.6 MB one of 200,000 cards made a 12.5 MB answer. Here every route has a limit sized for what it
legitimately receives (docs/operations.md shows the table); the middleware compares it with the
request's ``Content-Length`` before the CSRF check, the parsers and the view.

PostgreSQL's text columns cannot hold a NUL character: a link's token that carried one reached
the database and failed there (a 500; SQLite stores it). What the path and the query string carry
is checked here, once for every view; JSON bodies by their reader (``tournaments.jsonio``); forms
by Django's form fields, and the few reasons read without a form by the services
(``services.stated_reason``), so that the page comes back with what was typed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import ResolverMatch
from django.utils.translation import gettext as _

from tournaments.jsonio import nul_message

KB = 1024

# Codes and logins: a few short fields.
CODES_AND_LOGINS = 4 * KB
# Play records, results, rulings, the referee's page: a play record with its hands is about
# 1 KB; 64 KB leaves room for notes and a pretty-printed paste.
DEFAULT = 64 * KB
# The CSV import: a file of at most 512 KB (tournaments.forms.MAX_CSV_BYTES) or as much pasted,
# and the confirmation step that posts the text back form-encoded (up to 3 bytes per byte).
CSV_UPLOAD = 1536 * KB
CSV_CONFIRM = 2048 * KB
# An event archive posted to the API's import (larger ones: ``manage.py import_event FILE``).
ARCHIVE = 2048 * KB
# Django's admin: change lists post one field per selected row.
ADMIN = 256 * KB

API_JSON_MAX_BYTES = DEFAULT

BY_VIEW: dict[str, int] = {
    "login": CODES_AND_LOGINS,
    "admin:login": CODES_AND_LOGINS,
    "api:auth_token": CODES_AND_LOGINS,
    "api:table_token": CODES_AND_LOGINS,
    "table:enter": CODES_AND_LOGINS,
    "tournaments:entries_import": CSV_UPLOAD,
    "tournaments:entries_import_confirm": CSV_CONFIRM,
    "api:pairs_import": CSV_UPLOAD,  # the same file as JSON text
    "api:event_import": ARCHIVE,
}
BY_NAMESPACE: dict[str, int] = {"admin": ADMIN}

# The global backstop, for anything that reads a body outside a resolved route.
LARGEST = max([DEFAULT, *BY_VIEW.values(), *BY_NAMESPACE.values()])


def limit_for(match: ResolverMatch | None) -> int:
    """The body limit, in bytes, of the route ``match`` resolved to."""
    if match is None:
        return DEFAULT
    if match.view_name in BY_VIEW:
        return BY_VIEW[match.view_name]
    for namespace in match.namespaces:
        if namespace in BY_NAMESPACE:
            return BY_NAMESPACE[namespace]
    return DEFAULT


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads such a body as empty, so there is nothing to limit


def refused_request(request: HttpRequest, status: int, message: str, field: str) -> HttpResponse:
    """A refusal in the shape the caller reads: the API's errors, the table's problems, or a
    page."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": message, "errors": [{"field": field, "message": message}]}, status=status
        )
    wants_json = "json" in request.headers.get("Content-Type", "") or "json" in request.headers.get(
        "Accept", ""
    )
    if wants_json:
        path = "" if field == "body" else field
        return JsonResponse(
            {"error": message, "problems": [{"path": path, "message": message}]}, status=status
        )
    title = _("Too large") if status == 413 else _("Bad request")
    return render(request, "refused.html", {"title": title, "message": message}, status=status)


def too_large_response(request: HttpRequest, limit: int) -> HttpResponse:
    message = _("This request is too large: at most %(kb)s KB here. Nothing was stored.") % {
        "kb": limit // KB
    }
    return refused_request(request, 413, message, "body")


def nul_field(request: HttpRequest, view_kwargs: dict[str, object]) -> str | None:
    """The first path argument or query parameter (by name) that carries a NUL character."""
    for name, value in view_kwargs.items():
        if isinstance(value, str) and "\x00" in value:
            return name
    if "%00" in request.META.get("QUERY_STRING", ""):
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in v for v in values):
                return name.replace("\x00", "") or "query"
    return None


class BodyLimitMiddleware:
    """Refuse a body larger than its route's limit (placed before ``CsrfViewMiddleware``, whose
    ``process_view`` is the first to read the body), and a NUL in the path or the query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: object, view_args: object, view_kwargs: object
    ) -> HttpResponse | None:
        limit = limit_for(request.resolver_match)
        if _declared_length(request) > limit:
            return too_large_response(request, limit)
        field = nul_field(request, view_kwargs)  # type: ignore[arg-type]
        if field is not None:
            return refused_request(request, 400, nul_message(field), field)
        return None
