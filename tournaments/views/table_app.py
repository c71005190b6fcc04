"""What makes the table pages an installable, offline-first app: the service worker (served
under /table/ so that its scope covers the table pages) and the web app manifest.

Neither tells anything about a table: the manifest only repeats the code of the address it is
asked for (the browser fetches it without cookies, so the page puts its language in that address
too), and the service worker keeps only what the
server sends to the phone through the access-checked pages.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import table_access

# The files every table page uses, kept by the service worker when it is installed.
ASSETS = (
    "css/site.css",
    "css/table.css",
    "css/print.css",
    "js/outbox.js",
    "js/rules.js",
    "js/table.js",
    "js/short_form.js",
    "img/icon-192.png",
    "img/icon-512.png",
)


def _version() -> str:
    """Changes when an asset changes, so that a new worker replaces the kept files."""
    digest = hashlib.sha256()
    for name in ASSETS:
        digest.update(static(name).encode())
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as fh:
                digest.update(fh.read())
    digest.update(render_to_string("table/sw.js", {"version": ""}).encode())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    scope = reverse("table:enter")
    body = render_to_string(
        "table/sw.js",
        {
            "version": _version(),
            "scope": scope,
            "static_prefix": settings.STATIC_URL,  # static("") fails with a manifest
            "assets": [static(name) for name in ASSETS],
            "offline": reverse("table:offline"),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = scope
    return response


@require_GET
def manifest(request: HttpRequest, code: str) -> JsonResponse:
    code = table_access.normalise_code(code)
    start = (
        reverse("table:table_home", args=[code])
        if table_access.code_well_formed(code)
        else reverse("table:enter")
    )
    lang = request.GET.get("lang", "")
    if lang not in dict(settings.LANGUAGES):
        lang = translation.get_language()  # from Accept-Language: an address without one
    with translation.override(lang):
        name, short_name = _("Botifarra Duplicate: my table"), _("Botifarra table")
    data = {
        "name": name,
        "short_name": short_name,
        "start_url": start,
        "scope": reverse("table:enter"),
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "portrait",
        "background_color": "#fdfcf8",
        "theme_color": "#155e3b",
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a table page the phone has not kept, without the
    network (kept at install, in the phone's language): it names no table and no board."""
    return render(request, "table/offline.html")
