"""QR codes (segno): inline SVG for pages and print, PNG for e-mail attachments."""

import io

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, title: str, scale: int = 4) -> SafeString:
    """A QR code of ``url`` as inline SVG (segno's own markup)."""
    qr = segno.make(url, error="m")
    return mark_safe(qr.svg_inline(scale=scale, title=title, svgclass="qr"))  # noqa: S308


def qr_png(url: str, *, scale: int = 6) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
