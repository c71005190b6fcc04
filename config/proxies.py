"""Headers that only a trusted reverse proxy may set: ``X-Forwarded-For`` and
``X-Forwarded-Proto``.

Any client can send these headers, so they are believed only behind ``TRUSTED_PROXIES``
proxies, each of which appends the address it received the request from (and the scheme) to
the list. With N trusted proxies the N-th value from the right is the one the outermost trusted
proxy wrote; everything to its left came from the client. With 0 (the default) both headers are
ignored: ``REMOTE_ADDR`` is the client and the connection's own scheme counts.

The middleware rewrites ``REMOTE_ADDR`` and ``wsgi.url_scheme`` once, first thing, so everything
after it (HTTPS redirects, secure cookies, the attempt counters, logs) sees the same client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def forwarded_value(header: str | None, *, trusted: int) -> str | None:
    """The value the outermost of ``trusted`` proxies wrote, or None when not believable.

    >>> forwarded_value("6.6.6.6, 203.0.113.7", trusted=1)
    '203.0.113.7'
    >>> forwarded_value("6.6.6.6, 203.0.113.7, 10.0.0.2", trusted=2)
    '203.0.113.7'
    >>> forwarded_value("203.0.113.7", trusted=2) is None  # fewer hops than proxies
    True
    >>> forwarded_value("203.0.113.7", trusted=0) is None
    True
    """
    if trusted <= 0 or not header:
        return None
    values = [v.strip() for v in header.split(",")]
    if len(values) < trusted:
        return None
    return values[-trusted] or None


def _address(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return str(ipaddress.ip_address(value.strip("[]")))
    except ValueError:
        return None


def apply_forwarded(meta: MutableMapping[str, Any], *, trusted: int) -> None:
    """Set ``REMOTE_ADDR`` and ``wsgi.url_scheme`` from the trusted proxies' headers."""
    address = _address(forwarded_value(meta.get("HTTP_X_FORWARDED_FOR"), trusted=trusted))
    if address is not None:
        meta["REMOTE_ADDR"] = address
    scheme = forwarded_value(meta.get("HTTP_X_FORWARDED_PROTO"), trusted=trusted)
    if scheme is not None and scheme.lower() in ("http", "https"):
        meta["wsgi.url_scheme"] = scheme.lower()


class TrustedProxyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        apply_forwarded(request.META, trusted=settings.TRUSTED_PROXIES)
        return self.get_response(request)
