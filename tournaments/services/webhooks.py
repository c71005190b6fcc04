"""An event's webhooks: registering and removing them, re-sending a delivery, and one attempt
at sending a delivery (run by ``tasks.deliver_webhook``, which retries with back-off)."""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import queue, webhooks
from tournaments.actors import Actor
from tournaments.models import Event, Webhook, WebhookAttempt, WebhookDelivery
from tournaments.services import Conflict, ServiceError, audit, lock_event, relock
from tournaments.services.events import require_organiser

RESPONSE_KEPT = 1000  # characters of the receiver's answer kept per attempt
RETRY_CAP_SECONDS = 3600

# Why an attempt got no HTTP answer (``WebhookAttempt.error``), for the organiser's page.
ERRORS = {
    "timeout": gettext_lazy("No answer in time"),
    "connection": gettext_lazy("Could not connect"),
    "address": gettext_lazy("The address is on a private network"),
    "gone": gettext_lazy("The address cannot be found"),
}


def webhook_create(*, event: Event, actor: Actor, url: str) -> Webhook:
    """Register ``url`` for the event's notifications; its secret is made here (shown once)."""
    require_organiser(event, actor)
    if len(url.strip()) > Webhook._meta.get_field("url").max_length:  # type: ignore[operator]
        raise ServiceError(_("This address is too long (at most 500 characters)."), field="url")
    url = webhooks.check_url(url)
    with transaction.atomic():
        # The race: two organisers registering at once could pass the cap together; the
        # event's row serialises them (the unique constraint stops the same address twice).
        lock_event(event.pk)
        existing = Webhook.objects.filter(event=event)
        # Compared as stored now; an address stored before it was normalised is read so too.
        if any(
            webhooks.normal_url(other) == url for other in existing.values_list("url", flat=True)
        ):
            raise Conflict(_("This address is already registered for this event."), field="url")
        if existing.count() >= settings.WEBHOOKS_PER_EVENT:
            raise Conflict(
                _("An event has at most %(n)s webhooks: remove one first.")
                % {"n": settings.WEBHOOKS_PER_EVENT},
                field="url",
            )
        webhook = Webhook.objects.create(event=event, url=url, created_by=actor.label)
        audit.record(
            event=event, actor=actor.label, action="webhook_added", changes={"url": [None, url]}
        )
    return webhook


def _webhook_gone() -> str:
    return _("This webhook was removed meanwhile: reload the page.")


def webhook_delete(*, webhook: Webhook, actor: Actor) -> None:
    """Stop sending to this address; its deliveries go with it (a queued attempt finds none)."""
    event = webhook.event
    require_organiser(event, actor)
    with transaction.atomic():
        # Locked and read again: removed twice at once, it is removed (and audited) once.
        webhook = relock(Webhook.objects, webhook.pk, gone=_webhook_gone(), field="webhook")
        audit.record(
            event=event,
            actor=actor.label,
            action="webhook_removed",
            changes={"url": [webhook.url, None]},
        )
        webhook.delete()


def webhook_ping(*, webhook: Webhook, actor: Actor) -> WebhookDelivery:
    """Send a test notification (kind ``ping``) to one webhook."""
    event = webhook.event
    require_organiser(event, actor)
    with transaction.atomic():
        delivery = WebhookDelivery(webhook=webhook, kind=webhooks.PING, payload={})
        delivery.payload = webhooks.payload(str(delivery.uuid), event, webhooks.PING, {})
        delivery.save()
        queue.deliver_webhook(delivery)
    return delivery


def delivery_resend(*, delivery: WebhookDelivery, actor: Actor) -> WebhookDelivery:
    """Send a delivery again (same id, same body, a new timestamp and signature), with a fresh
    budget of attempts; its earlier attempts stay listed."""
    event = delivery.webhook.event
    require_organiser(event, actor)
    with transaction.atomic():
        delivery = relock(
            WebhookDelivery.objects, delivery.pk, gone=_webhook_gone(), field="delivery"
        )
        delivery.status = WebhookDelivery.Status.PENDING
        delivery.next_attempt_at = timezone.now()
        delivery.save(update_fields=["status", "next_attempt_at"])
        queue.deliver_webhook(delivery)
    return delivery


# ---- sending --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    body: str
    error: str  # a key of ERRORS when there was no HTTP answer


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")[:RESPONSE_KEPT]


def post(
    url: str, body: bytes, headers: dict[str, str], timeout: float, address: str | None = None
) -> Answer:
    """One POST; the receiver's status and the start of its answer, or why there was none.

    ``http.client`` directly: no proxies from the environment (a proxy would see the site's
    own network), no redirects followed (one could lead anywhere, a private address included:
    a 3xx is an answer, not a delivery), and the headers sent exactly as named. With
    ``address`` (the IP ``webhooks.checked`` checked) the connection goes there, the
    name still in the Host header and, for https, in the TLS handshake and certificate check.
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    # Always a port: without one http.client reads the last group of an IPv6 address as it.
    port = parts.port or (443 if parts.scheme == "https" else 80)
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(
            host, port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(host, port, timeout=timeout)
    # A second handle on each socket dialled: at the deadline it shuts the connection whatever
    # is under way (the TLS handshake included, while http.client's own handle is being
    # wrapped), so the timeout bounds the whole exchange, not each read: a receiver that
    # trickles its handshake or its status line a byte at a time does not hold a worker.
    handles: list[socket.socket] = []
    deadline = time.monotonic() + timeout

    def dial(where: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        # With ``address`` (the IP ``webhooks.checked`` approved) the connection goes there,
        # the name still the Host and, over TLS, the name the certificate must match.
        sock = socket.create_connection((address or where[0], where[1]), *args, **kwargs)
        handles.append(sock.dup())
        if time.monotonic() >= deadline:  # the timer may have found no handle yet
            sock.close()
            raise TimeoutError
        return sock

    connection._create_connection = dial  # type: ignore[attr-defined]
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    cut = threading.Timer(timeout, _shut, args=(handles,))
    cut.daemon = True
    cut.start()
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        if time.monotonic() >= deadline:
            return Answer(None, "", "timeout")
        # The status came in time: the start of the answer, read until the same deadline (a
        # body still coming then, chunked or not, is cut; the answer stands).
        raw = b""
        try:
            while len(raw) < RESPONSE_KEPT * 4 and time.monotonic() < deadline:
                chunk = response.read1(1024)
                if not chunk:
                    break
                raw += chunk
        except (OSError, http.client.HTTPException):
            pass
        return Answer(response.status, _text(raw), "")
    except TimeoutError:
        return Answer(None, "", "timeout")
    except socket.gaierror:
        return Answer(None, "", "gone")
    except (OSError, http.client.HTTPException):
        late = time.monotonic() >= deadline
        return Answer(None, "", "timeout" if late else "connection")
    finally:
        cut.cancel()
        connection.close()
        for handle in handles:
            handle.close()


def _shut(handles: list[socket.socket]) -> None:
    """End an exchange that ran out of time (from the timer's thread)."""
    for handle in handles:
        try:
            handle.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # closed meanwhile


def retry_delay(tries: int) -> float:
    """Seconds before the next try after ``tries`` failed ones: doubling from the base."""
    base = float(settings.WEBHOOK_RETRY_BASE_SECONDS)
    return min(base * 2 ** (tries - 1), RETRY_CAP_SECONDS)


def deliveries_lost(*, now: datetime | None = None) -> list[int]:
    """Deliveries still "being sent" that no task will try any more: queued while the broker
    was down, or whose retry went with a worker. Overdue by more than Redis's redelivery time
    (``CELERY_VISIBILITY_TIMEOUT``) and a margin; a receiver may then get one twice (same
    ``X-Botifarra-Delivery``), never none."""
    now = now or timezone.now()
    late = now - timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"])
    late -= timedelta(seconds=60)
    pending = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
    return list(
        pending.filter(
            Q(next_attempt_at__lt=late) | Q(next_attempt_at__isnull=True, created_at__lt=late)
        )
        .order_by("pk")
        .values_list("pk", flat=True)[:500]
    )


def delivery_attempt(delivery_id: int, *, tries: int, may_retry: bool) -> float | None:
    """Try a delivery once; this is try ``tries`` of the current sending. Returns the seconds to
    wait before the next try, or None when it is done (delivered, out of tries, or gone)."""
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status == WebhookDelivery.Status.DELIVERED:
        return None  # the webhook was removed, or a repeated message finds it done
    body = webhooks.body_bytes(delivery)
    started = timezone.now()
    clock = time.monotonic()
    try:
        url, address = webhooks.checked(delivery.webhook.url)
    except webhooks.NameNotFound:
        answer = Answer(None, "", "gone")
    except ServiceError:
        answer = Answer(None, "", "address")
    else:
        answer = post(
            url,
            body,
            webhooks.headers(delivery, body),
            float(settings.WEBHOOK_TIMEOUT_SECONDS),
            address,
        )
    duration = int((time.monotonic() - clock) * 1000)
    ok = answer.status_code is not None and 200 <= answer.status_code < 300
    retry = not ok and may_retry and tries < settings.WEBHOOK_MAX_ATTEMPTS
    delay = retry_delay(tries) if retry else None
    with transaction.atomic():
        # The race: a re-send while a retry is in flight; the row lock numbers their
        # attempts one after the other.
        locked = (
            WebhookDelivery.objects.select_for_update(of=("self",), no_key=True)
            .filter(pk=delivery_id)
            .first()
        )
        if locked is None:
            return None
        number = locked.attempts.count() + 1
        WebhookAttempt.objects.create(
            delivery=locked,
            number=number,
            started_at=started,
            duration_ms=duration,
            status_code=answer.status_code,
            error=answer.error,
            response_body=answer.body,
        )
        if locked.status == WebhookDelivery.Status.DELIVERED:
            # Delivered meanwhile (a re-send answered first): a late failure of the other
            # attempt is in the list, and changes nothing; nothing more to try.
            return None
        if ok:
            locked.status = WebhookDelivery.Status.DELIVERED
            locked.delivered_at = timezone.now()
            locked.next_attempt_at = None
        elif delay is not None:
            locked.status = WebhookDelivery.Status.PENDING
            locked.next_attempt_at = timezone.now() + timedelta(seconds=delay)
        else:
            locked.status = WebhookDelivery.Status.FAILED
            locked.next_attempt_at = None
        locked.save(update_fields=["status", "delivered_at", "next_attempt_at"])
    return delay
