"""The site's own address, for what leaves the browser: QR codes, printed URLs, the demo's links.

``SITE_URL`` wins when it is set (a deployment behind a proxy that rewrites the host). Without
it the address is the one the request came in on, so ``make demo PORT=8101`` prints QR codes
that point at port 8101; the Host header has already passed ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def site_url(request: HttpRequest | None = None, *, host: str = "", port: int | None = None) -> str:
    """The site's base address without a trailing slash.

    With no request (a management command, before any request exists) the address is
    ``http://host:port``, from the options the command was given.
    """
    configured = (settings.SITE_URL or "").strip()
    if configured:
        return configured.rstrip("/")
    if request is not None:
        return f"{request.scheme}://{request.get_host()}"
    return f"http://{host or DEFAULT_HOST}:{port or DEFAULT_PORT}"


def table_url(base: str, code: str) -> str:
    return f"{base}/table/{code}/"
