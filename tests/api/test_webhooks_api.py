"""An event's webhooks through the API (api/webhooks.py): for its organisers only, a secret made
by the server and shown once (never listed, never kept for a replay), 400 naming ``url``, 409
for an address twice, the deliveries with the receiver's answers, a test and a re-send. Every
response is checked against the published schema (tests/contract.py, autouse)."""

import uuid

import pytest

from tests.api.conftest import errors_of
from tests.factories import EventFactory, WebhookFactory
from tests.webhook_receiver import Receiver
from tournaments.models import AuditEntry, IdempotentResponse, Webhook, WebhookDelivery


def _url(world, tail="webhooks"):
    return f"/api/v1/events/{world.event.pk}/{tail}"


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def test_registering_answers_the_secret_once(world):
    client = world.client("organiser")
    response = client.post(
        _url(world),
        {"url": "https://club.example.org/hook"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    webhook = Webhook.objects.get(event=world.event)
    assert body["id"] == webhook.pk and body["url"] == "https://club.example.org/hook"
    assert body["secret"] == webhook.secret and body["secret"].startswith("whsec_")
    assert body["created_by"] == "organiser"
    listed = client.get(_url(world)).json()
    assert listed == [{k: v for k, v in body.items() if k != "secret"}]
    # A replay answers the same webhook without its secret, which was never stored for it.
    again = client.post(
        _url(world),
        {"url": "https://club.example.org/hook"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert again.status_code == 201 and again.json()["secret"] is None
    assert again.json()["id"] == webhook.pk and Webhook.objects.count() == 1
    assert webhook.secret not in str(
        list(IdempotentResponse.objects.values_list("body", flat=True))
    )
    assert AuditEntry.objects.filter(event=world.event, action="webhook_added").count() == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"url": "ftp://club.example.org/hook"}, "https://"),
        ({"url": "club.example.org"}, "https://"),
        ({"url": "https://" + "a" * 500 + ".org"}, "500"),
        ({}, "required"),
    ],
)
def test_a_bad_address_is_a_400_on_url(world, body, message):
    response = world.client("organiser").post(_url(world), body, format="json")
    assert response.status_code == 400, response.content
    assert message in errors_of(response)["url"]
    assert not Webhook.objects.exists()


def test_a_private_address_in_production_is_a_400_on_url(world, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    response = world.client("organiser").post(
        _url(world), {"url": "http://127.0.0.1:9000/hook"}, format="json"
    )
    assert response.status_code == 400
    assert "private or local network" in errors_of(response)["url"]


@pytest.mark.parametrize(
    "again",
    [
        "https://club.example.org/hook",
        "https://CLUB.Example.org/hook",
        "HTTPS://club.example.org/hook",
        "https://club.example.org:443/hook",
        " https://club.example.org/hook ",
    ],
)
def test_the_same_address_twice_is_a_409(world, again):
    """However it is spelled: the scheme and the host in capitals, the default port written."""
    client = world.client("organiser")
    first = client.post(_url(world), {"url": "https://club.example.org/hook"}, format="json")
    assert first.status_code == 201
    response = client.post(_url(world), {"url": again}, format="json")
    assert response.status_code == 409, response.content
    assert "already registered" in errors_of(response)["url"]
    # The path is the receiver's own: another path, or another port, is another address.
    for other in ("https://club.example.org/Hook", "https://club.example.org:8443/hook"):
        assert client.post(_url(world), {"url": other}, format="json").status_code == 201


def test_an_address_is_stored_in_its_normal_spelling(world):
    client = world.client("organiser")
    response = client.post(
        _url(world), {"url": "HTTP://Club.Example.ORG:80/Hook?Club=A"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["url"] == "http://club.example.org/Hook?Club=A"


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", 401),
        ("table", 403),
        ("player", 403),
        ("referee", 403),
        ("other_organiser", 403),
        ("staff", 403),
    ],
)
def test_only_the_events_organisers_see_and_manage_webhooks(world, who, expected):
    hook = WebhookFactory(event=world.event)
    delivery = WebhookDelivery.objects.create(webhook=hook, kind="ping", payload={})
    client = world.client(who)
    assert client.get(_url(world)).status_code == expected
    assert client.get(_url(world, f"webhooks/{hook.pk}/deliveries")).status_code == expected
    for tail, body in (
        ("webhooks", {"url": "https://evil.example.org/h"}),
        (f"webhooks/{hook.pk}/delete", {}),
        (f"webhooks/{hook.pk}/ping", {}),
        (f"webhook-deliveries/{delivery.uuid}/resend", {}),
    ):
        response = client.post(_url(world, tail), body, format="json")
        assert response.status_code == expected, (tail, response.content)
        assert errors_of(response)
    assert list(Webhook.objects.values_list("pk", flat=True)) == [hook.pk]
    assert WebhookDelivery.objects.count() == 1


def test_an_event_one_may_not_see_is_404(world):
    draft = EventFactory(organisers=[world.users["other_organiser"]], status="draft")
    response = world.client("organiser").get(f"/api/v1/events/{draft.pk}/webhooks")
    assert response.status_code == 404


def test_another_events_webhook_is_404(world):
    other = WebhookFactory(event=EventFactory(organisers=[world.users["organiser"]]))
    client = world.client("organiser")
    assert client.post(_url(world, f"webhooks/{other.pk}/delete")).status_code == 404
    assert client.get(_url(world, f"webhooks/{other.pk}/deliveries")).status_code == 404
    assert client.post(_url(world, f"webhook-deliveries/{uuid.uuid4()}/resend")).status_code == 404
    assert Webhook.objects.filter(pk=other.pk).exists()


def test_deliveries_show_the_receivers_answers_and_resend(
    world, receiver, django_capture_on_commit_callbacks
):
    client = world.client("organiser")
    created = client.post(_url(world), {"url": receiver.url}, format="json").json()
    receiver.secret = created["secret"]
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        ping = client.post(_url(world, f"webhooks/{created['id']}/ping"), format="json")
    assert ping.status_code == 202, ping.content
    assert ping.json()["kind"] == "ping" and ping.json()["webhook"] == created["id"]
    page = client.get(_url(world, f"webhooks/{created['id']}/deliveries")).json()
    assert page["count"] == 1
    (delivery,) = page["results"]
    assert delivery["status"] == "failed" and delivery["payload"]["kind"] == "ping"
    (attempt,) = delivery["attempts"]
    assert attempt["status_code"] == 500 and attempt["error"] is None
    assert attempt["response_body"].startswith("boom")
    with django_capture_on_commit_callbacks(execute=True):
        resent = client.post(_url(world, f"webhook-deliveries/{delivery['id']}/resend"))
    assert resent.status_code == 202
    assert resent.json()["id"] == delivery["id"]
    page = client.get(_url(world, f"webhooks/{created['id']}/deliveries")).json()
    (delivery,) = page["results"]
    assert delivery["status"] == "delivered"
    assert [a["status_code"] for a in delivery["attempts"]] == [500, 200]
    assert all(r.verified for r in receiver.received)


def test_removing_stops_the_sending(world):
    client = world.client("organiser")
    keep, gone = WebhookFactory(event=world.event), WebhookFactory(event=world.event)
    response = client.post(_url(world, f"webhooks/{gone.pk}/delete"), format="json")
    assert response.status_code == 200
    assert [w["id"] for w in response.json()] == [keep.pk]
    assert AuditEntry.objects.filter(event=world.event, action="webhook_removed").exists()
