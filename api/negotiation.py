"""Content negotiation that names an unknown ``?format=`` as such: a 400 at ``format``, where
DRF's own raises Http404 (which read as an unknown id). The schema keeps ``?format=json``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
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
