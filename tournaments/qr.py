"""QR codes (segno): inline SVG for pages and print, PNG for e-mail attachments."""

import io

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, title: str, scale: int = 4) -> SafeString:
    """A QR code of ``url`` as inline SVG (segno's own markup), drawn at its natural size and
    scaling with it when a style sets another (segno writes no viewBox beside a size)."""
    qr = segno.make(url, error="m")
    width, height = qr.symbol_size(scale=scale)
    markup = qr.svg_inline(scale=scale, title=title, svgclass="qr")
    markup = markup.replace("<svg ", f'<svg viewBox="0 0 {width} {height}" ', 1)
    return mark_safe(markup)  # noqa: S308


def qr_png(url: str, *, scale: int = 6) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
