"""Content negotiation for an API that answers in JSON only: an unknown ``?format=`` is a 400
at ``format`` (DRF's own raises Http404, which read as an unknown id), and an ``Accept`` header
that does not ask for JSON (a browser's ``text/html``) still gets JSON, not a 406. The schema
keeps ``?format=json``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAcceptable, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation


class NamedFormatNegotiation(DefaultContentNegotiation):
    def filter_renderers(self, renderers, format):
        chosen = [renderer for renderer in renderers if renderer.format == format]
        if not chosen:
            known = ", ".join(sorted({r.format for r in renderers if r.format}))
            raise ValidationError(
                {
                    "format": [
                        _("Unknown format; this address answers in: %(known)s.") % {"known": known}
                    ]
                }
            )
        return chosen

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            # The view's first renderer (JSON for the API's views) whatever Accept asked for.
            return renderers[0], renderers[0].media_type
