"""Steps of the API that take no body (finish, start, open, new codes, a webhook's test…): a
field sent to one is unknown, a 400 at that field, and the step does not run (docs/api.md,
"Running an event": a field the endpoint does not know is a 400, not ignored). Found by an
audit: a mistyped option was ignored while the event was finished or the codes replaced."""

import uuid

import pytest

from tests.api.conftest import errors_of
from tests.factories import WebhookFactory
from tournaments.models import AuditEntry, Event, Table, Webhook, WebhookDelivery

STEPS = [
    "registration",
    "start",
    "finish",
    "rounds/1/propose",
    "rounds/2/propose",
    "rounds/2/open",
]


def _post(client, url, body):
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))


def _state(world):
    event = Event.objects.get(pk=world.event.pk)
    table = Table.objects.get(pk=world.table.pk)
    return (
        event.status,
        AuditEntry.objects.filter(event=event).count(),
        table.code_ns,
        table.code_ew,
        list(Webhook.objects.values_list("pk", flat=True)),
        WebhookDelivery.objects.count(),
    )


@pytest.mark.parametrize("step", STEPS)
def test_a_field_sent_to_an_event_step_is_a_400_and_nothing_happens(world, step):
    before = _state(world)
    response = _post(
        world.client("organiser"), f"/api/v1/events/{world.event.pk}/{step}", {"forse": True}
    )
    assert response.status_code == 400, (step, response.content)
    assert errors_of(response) == {"forse": "Unknown field."}
    assert _state(world) == before


def test_a_field_sent_for_new_codes_is_a_400_and_the_codes_stay(world):
    before = _state(world)
    response = _post(
        world.client("organiser"), f"/api/v1/tables/{world.table.pk}/new-codes", {"side": "NS"}
    )
    assert response.status_code == 400, response.content
    assert errors_of(response) == {"side": "Unknown field."}
    assert _state(world) == before
    # Without a body, or with an empty or null one, the step runs as always.
    for body in (None, {}):
        ok = _post(world.client("organiser"), f"/api/v1/tables/{world.table.pk}/new-codes", body)
        assert ok.status_code == 200, ok.content
    assert Table.objects.get(pk=world.table.pk).code_ns != before[2]


def test_webhook_steps_refuse_a_field_and_keep_everything(world):
    hook = WebhookFactory(event=world.event)
    delivery = WebhookDelivery.objects.create(webhook=hook, kind="ping", payload={})
    base = f"/api/v1/events/{world.event.pk}"
    before = _state(world)
    for tail in (
        f"webhooks/{hook.pk}/delete",
        f"webhooks/{hook.pk}/ping",
        f"webhook-deliveries/{delivery.uuid}/resend",
    ):
        response = _post(world.client("organiser"), f"{base}/{tail}", {"confirm": True})
        assert response.status_code == 400, (tail, response.content)
        assert errors_of(response) == {"confirm": "Unknown field."}
    assert _state(world) == before


@pytest.mark.parametrize("who", ["referee", "other_organiser", "table"])
def test_anyone_else_is_refused_before_the_body_is_read(world, who):
    before = _state(world)
    for url in (
        f"/api/v1/events/{world.event.pk}/finish",
        f"/api/v1/tables/{world.table.pk}/new-codes",
    ):
        response = _post(world.client(who), url, {"forse": True})
        assert response.status_code in (403, 404), (who, url, response.content)
        assert "forse" not in errors_of(response)
    assert _state(world) == before
