"""Reads of the event's webhooks page: the webhooks and their latest deliveries."""

from django.db.models import QuerySet

from tournaments.models import Event, Webhook, WebhookDelivery

DELIVERIES_SHOWN = 50


def event_webhooks(event: Event) -> QuerySet[Webhook]:
    return Webhook.objects.filter(event=event).order_by("pk")


def webhook_deliveries(webhook: Webhook, limit: int = DELIVERIES_SHOWN) -> list[WebhookDelivery]:
    """The latest deliveries, newest first, each with its attempts (two queries)."""
    return list(
        WebhookDelivery.objects.filter(webhook=webhook)
        .prefetch_related("attempts")
        .order_by("-created_at", "-pk")[:limit]
    )
