"""Webhooks: what the services call when something happens in an event (``emit``), how a
delivery is signed, and which addresses may receive one (docs/api.md, "Webhooks").

``emit`` records one ``WebhookDelivery`` per webhook of the event, inside the caller's
transaction, and queues its sending after commit (``queue.deliver_webhook``); the sending and
its retries are ``services/webhooks.py`` run by the task ``tasks.deliver_webhook``.

Fair play: a payload says *what* happened and *where* (ids, round, table and board numbers,
kinds) and links to the API, which applies the fairness policy to whoever follows the link. It
never carries a card, a score, a player's free text or the event's seed: ``emit`` refuses any
key outside ``PAYLOAD_KEYS``.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.models import Event, Webhook, WebhookDelivery
from tournaments.prepared import Prepared
from tournaments.services import ServiceError

ROUND_OPENED = "round.opened"
ROUND_CLOSED = "round.closed"
RESULT_CONFIRMED = "result.confirmed"
STANDINGS_UPDATED = "standings.updated"
DISPUTE_OPENED = "dispute.opened"
DISPUTE_RULED = "dispute.ruled"
EVENT_FINISHED = "event.finished"
PING = "ping"  # sent by the organiser's "Send a test" (nothing happened in the event)
KINDS = (
    ROUND_OPENED,
    ROUND_CLOSED,
    RESULT_CONFIRMED,
    STANDINGS_UPDATED,
    DISPUTE_OPENED,
    DISPUTE_RULED,
    EVENT_FINISHED,
    PING,
)

# Everything a payload's ``data`` may hold: numbers, ids and kinds, never cards or scores.
PAYLOAD_KEYS = frozenset(
    {
        "round",
        "table",
        "board",
        "result",
        "dispute",
        "reason",
        "ruling",
        "ruling_kind",
        "revised",
        "reopened",
        "missing_accepted",
        "rounds",
        "results_counted",
    }
)

HEADER_EVENT = "X-Botifarra-Event"
HEADER_DELIVERY = "X-Botifarra-Delivery"
HEADER_TIMESTAMP = "X-Botifarra-Timestamp"
HEADER_SIGNATURE = "X-Botifarra-Signature"
REPLAY_WINDOW_SECONDS = 300  # what docs/api.md tells receivers to accept


def _links(event: Event, data: dict[str, Any]) -> dict[str, str]:
    """Paths on this site (the API), each answering under the fairness policy."""
    links = {"event": reverse("api:event_detail", args=[event.pk])}
    if "round" in data:
        links["round"] = reverse("api:round", args=[event.pk, data["round"]])
    if "result" in data:
        links["result"] = reverse("api:result_detail", args=[data["result"]])
    if "dispute" in data:
        links["dispute"] = reverse("api:dispute_detail", args=[data["dispute"]])
    if "rounds" in data or "results_counted" in data:
        links["standings"] = reverse("api:standings", args=[event.pk])
    return links


def _check_minimal(data: dict[str, Any]) -> None:
    unknown = set(data) - PAYLOAD_KEYS
    if unknown:
        raise ValueError(f"webhook payloads carry no {sorted(unknown)}: see PAYLOAD_KEYS")
    for key, value in data.items():
        items = value if isinstance(value, list) else [value]
        if not all(v is None or isinstance(v, int | str | bool) for v in items):
            raise ValueError(f"webhook payload {key!r} must be ids, numbers or kinds")


def payload(delivery_id: str, event: Event, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": delivery_id,
        "kind": kind,
        "event": event.pk,
        "occurred_at": timezone.now().isoformat(),
        "data": data,
        "links": _links(event, data),
    }


_HOOKS = Prepared(lambda event: Webhook.objects.filter(event_id=event).order_by("pk"), event=int)


def hooks_read(event: Event) -> tuple[Prepared, dict[str, Any]]:
    """The read of ``event``'s webhooks, for a service that reads them with others
    (``tournaments.prepared.read_together``) and hands them to :func:`emit`."""
    return _HOOKS, {"event": event.pk}


def emit(
    event: Event,
    kind: str,
    data: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
    *,
    hooks: list[Webhook] | None = None,
) -> list[WebhookDelivery]:
    """Record a delivery of ``kind`` for every webhook of ``event`` and queue them after commit.

    Called inside the service's transaction: a rolled-back change sends nothing. ``data`` may
    be a function, called only when the event has webhooks: the usual case (none) then costs
    the services one query, or none when they were read already (``hooks``, by
    :func:`hooks_read` in the same transaction).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown webhook kind {kind!r}")
    if not callable(data):
        _check_minimal(data or {})
    if hooks is None:
        hooks = _HOOKS.all(event=event.pk)
    if not hooks:
        return []
    values = dict((data() if callable(data) else data) or {})
    _check_minimal(values)
    made = []
    for webhook in hooks:
        delivery = WebhookDelivery(webhook=webhook, kind=kind, payload={})
        delivery.payload = payload(str(delivery.uuid), event, kind, values)
        delivery.save()
        queue.deliver_webhook(delivery)
        made.append(delivery)
    return made


# ---- signing --------------------------------------------------------------------------------


def body_bytes(delivery: WebhookDelivery) -> bytes:
    return json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=`` and the hex HMAC-SHA256 of ``timestamp + "." + body`` under ``secret``."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def headers(delivery: WebhookDelivery, body: bytes, *, now: float | None = None) -> dict[str, str]:
    timestamp = str(int(time.time() if now is None else now))
    return {
        "Content-Type": "application/json",
        "User-Agent": "Botifarra-Webhooks/1",
        HEADER_EVENT: delivery.kind,
        HEADER_DELIVERY: str(delivery.uuid),
        HEADER_TIMESTAMP: timestamp,
        HEADER_SIGNATURE: signature(delivery.webhook.secret, timestamp, body),
    }


# ---- which addresses ------------------------------------------------------------------------


# IPv6 prefixes that carry an IPv4 address a gateway may forward to (NAT64, 6to4, Teredo, the
# IPv4-compatible form): a private IPv4 address can hide behind an address Python calls global.
_CARRIES_IPV4 = tuple(
    ipaddress.ip_network(n)
    for n in ("64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001::/32", "::/96")
)


def _refused_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif any(ip in network for network in _CARRIES_IPV4):
            return True
    return not ip.is_global or ip.is_multicast


class NameNotFound(ServiceError):
    """The address's host name does not resolve (an attempt records it as ``gone``)."""


def normal_url(url: str) -> str:
    """``url`` as the event's webhooks are compared and stored: the scheme and the host in small
    letters, without the scheme's default port (``HTTPS://Example.com:443/h`` is
    ``https://example.com/h``, one address however it is spelled); as it is if it is no address."""
    try:
        return _normal(urlsplit(url.strip()))
    except ValueError:
        return url.strip()


def _normal(parts: SplitResult) -> str:
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    userinfo, at, _rest = parts.netloc.rpartition("@")
    port = parts.port
    default = {"https": 443, "http": 80}.get(parts.scheme)
    netloc = f"{userinfo}{at}{host}" + (f":{port}" if port is not None and port != default else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def check_url(url: str) -> str:
    """The address, if the site may POST to it; else a ``ServiceError`` on ``url`` (``checked``)."""
    return checked(url)[0]


def checked(url: str) -> tuple[str, str | None]:
    """The address (:func:`normal_url`), if the site may POST to it, with the IP address it was checked at (None when
    private addresses are allowed); else a ``ServiceError`` on ``url`` that says why.

    Loopback, private, link-local and reserved addresses are refused (a webhook must not reach
    the site's own network: its database, its Redis, a cloud's metadata service) unless
    ``settings.WEBHOOKS_ALLOW_PRIVATE`` (on by default with DEBUG, for tests and a laptop; then
    the IP is None: connect by name). Checked when the webhook is registered and again before
    every attempt, since a name can point elsewhere later; an attempt connects to the IP checked
    here, so a name re-pointed between the check and the connection (DNS rebinding) is not
    followed.
    """
    url = url.strip()
    try:  # a broken IPv6 bracket or a port beyond 65535 is a ValueError, not an address
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        parts, port = None, 0
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or any(c.isspace() or not c.isprintable() for c in url)
    ):
        raise ServiceError(
            _("Give a whole web address starting with https:// (or http://)."), field="url"
        )
    url = _normal(parts)
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        return url, None
    try:
        found = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError):
        raise NameNotFound(
            _("The address %(host)s cannot be found: check its spelling.")
            % {"host": parts.hostname},
            field="url",
        ) from None
    if not found or any(_refused_address(str(info[4][0])) for info in found):
        raise ServiceError(
            _(
                "This address is on a private or local network; webhooks go to addresses "
                "on the public internet only."
            ),
            field="url",
        )
    # The sending connects to this address, not to whatever the name resolves to a moment later
    # (a name that answers a public address to the check and a private one to the connection).
    return url, str(found[0][4][0])
