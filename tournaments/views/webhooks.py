"""The event's webhooks page (organisers only): register and remove addresses, see each
delivery with the receiver's answers, send a test, re-send a delivery
(tournaments.services.webhooks)."""

from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors, webhook_selectors
from tournaments.forms_webhooks import WebhookForm
from tournaments.models import Event, Webhook, WebhookDelivery
from tournaments.services import ServiceError
from tournaments.services import webhooks as svc
from tournaments.views.organiser import _actor, _event

NEW_SECRET = "webhooks:new_secret"  # the session key of a secret shown once, after the redirect


def _webhooks_page(event: Event) -> HttpResponse:
    return redirect("tournaments:webhooks", event.pk)


def _webhook(request: HttpRequest, pk: int, webhook_pk: int) -> Webhook:
    event = _event(request, pk, change=True)
    return get_object_or_404(Webhook.objects.select_related("event"), pk=webhook_pk, event=event)


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's webhooks; a POST registers one (its secret is shown once, after)."""
    event = _event(request, pk, change=True)
    form = WebhookForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            webhook = svc.webhook_create(
                event=event, actor=_actor(request), url=form.cleaned_data["url"]
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            request.session[NEW_SECRET] = {
                "event": event.pk,
                "webhook": webhook.pk,
                "secret": webhook.secret,
            }
            return _webhooks_page(event)
    new_secret = request.session.pop(NEW_SECRET, None)
    if new_secret and new_secret.get("event") != event.pk:
        new_secret = None
    hooks = list(webhook_selectors.event_webhooks(event))
    return render(
        request,
        "tournaments/webhooks.html",
        {
            "event": event,
            "webhooks": hooks,
            "form": form,
            "new_secret": new_secret,
            "rounds": selectors.event_rounds(event),
        },
        status=400 if form.is_bound and form.errors else 200,
    )


@login_required
@require_http_methods(["GET"])
def webhook_deliveries(request: HttpRequest, pk: int, webhook_pk: int) -> HttpResponse:
    webhook = _webhook(request, pk, webhook_pk)
    return render(
        request,
        "tournaments/webhook_deliveries.html",
        {
            "event": webhook.event,
            "webhook": webhook,
            "deliveries": webhook_selectors.webhook_deliveries(webhook),
            "errors": svc.ERRORS,
            "shown": webhook_selectors.DELIVERIES_SHOWN,
            "rounds": selectors.event_rounds(webhook.event),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def webhook_delete(request: HttpRequest, pk: int, webhook_pk: int) -> HttpResponse:
    webhook = _webhook(request, pk, webhook_pk)
    event = webhook.event
    if request.method == "POST":
        try:
            svc.webhook_delete(webhook=webhook, actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The webhook is removed: nothing more is sent to it."))
        return _webhooks_page(event)
    return render(
        request, "tournaments/confirm_webhook_delete.html", {"event": event, "webhook": webhook}
    )


@login_required
@require_POST
def webhook_ping(request: HttpRequest, pk: int, webhook_pk: int) -> HttpResponse:
    webhook = _webhook(request, pk, webhook_pk)
    try:
        svc.webhook_ping(webhook=webhook, actor=_actor(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("A test notification is on its way: its answer shows below."))
    return redirect("tournaments:webhook_deliveries", webhook.event_id, webhook.pk)


@login_required
@require_POST
def delivery_resend(request: HttpRequest, pk: int, delivery_id: UUID) -> HttpResponse:
    event = _event(request, pk, change=True)
    delivery = get_object_or_404(
        WebhookDelivery.objects.select_related("webhook__event"),
        uuid=delivery_id,
        webhook__event=event,
    )
    try:
        svc.delivery_resend(delivery=delivery, actor=_actor(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The delivery is being sent again."))
    return redirect("tournaments:webhook_deliveries", event.pk, delivery.webhook_id)
