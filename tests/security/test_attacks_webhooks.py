"""Attacks on the webhooks (api/webhooks.py, the organiser's page): addresses that are not
addresses (a broken IPv6 bracket, a port beyond 65535, spaces, wrong JSON types) are a 400 on
``url`` with a sentence, never a 500, and register nothing; another event's webhook or delivery
is not reachable by changing the ids in the path."""

from __future__ import annotations

import socket
import uuid

import pytest

from tests.factories import EventFactory, WebhookDeliveryFactory, WebhookFactory
from tests.security.conftest import Scene
from tests.webhook_receiver import Receiver
from tournaments.actors import Actor
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services import webhooks as svc

BAD_URLS = [
    "http://[::1",
    "https://[not-an-ip]/",
    "http://exa mple.com/",
    "http://example.com:99999/",
    "http://example.com:port/",
    "javascript:alert(1)",
    "http://",
    "",
    "h" * 600,
]
BAD_TYPES = [123, ["http://example.com/"], None, {"url": "http://example.com/"}, True]


@pytest.mark.django_db
@pytest.mark.parametrize("private", [True, False])
def test_a_bad_address_is_a_400_on_url_through_the_api(scene: Scene, settings, private):
    settings.WEBHOOKS_ALLOW_PRIVATE = private
    client = scene.api("organiser")
    url = f"/api/v1/events/{scene.event.pk}/webhooks"
    for i, bad in enumerate(BAD_URLS + BAD_TYPES):
        answer = client.post(url, {"url": bad}, format="json", HTTP_IDEMPOTENCY_KEY=f"k-{i}")
        assert answer.status_code == 400, (bad, answer.status_code, answer.content[:300])
        assert answer.json()["errors"][0]["field"] == "url", (bad, answer.json())
    assert not Webhook.objects.filter(event=scene.event).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("private", [True, False])
def test_a_bad_address_is_a_400_on_the_organisers_page(scene: Scene, settings, private):
    settings.WEBHOOKS_ALLOW_PRIVATE = private
    web = scene.web("organiser")
    url = f"/manage/{scene.event.pk}/webhooks/"
    for bad in BAD_URLS:
        answer = web.post(url, {"url": bad})
        assert answer.status_code == 400, (bad, answer.status_code)
    assert not Webhook.objects.filter(event=scene.event).exists()


@pytest.mark.django_db
def test_another_events_webhook_and_delivery_are_out_of_reach(scene: Scene):
    """The organiser of this event names another event's webhook or delivery in its own
    event's paths: 404, and nothing is removed, re-sent or shown."""
    theirs = EventFactory()
    hook = WebhookFactory(event=theirs)
    delivery = WebhookDeliveryFactory(webhook=hook)
    pk = scene.event.pk
    api = scene.api("organiser")
    for path in (
        f"/api/v1/events/{pk}/webhooks/{hook.pk}/delete",
        f"/api/v1/events/{pk}/webhooks/{hook.pk}/ping",
        f"/api/v1/events/{pk}/webhook-deliveries/{delivery.uuid}/resend",
    ):
        answer = api.post(path, {}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
        assert answer.status_code == 404, (path, answer.status_code)
    answer = api.get(f"/api/v1/events/{pk}/webhooks/{hook.pk}/deliveries")
    assert answer.status_code == 404
    assert hook.secret not in answer.content.decode()
    # and through the other event's own path: not its organiser
    answer = api.get(f"/api/v1/events/{theirs.pk}/webhooks")
    assert answer.status_code in (403, 404)
    assert Webhook.objects.filter(pk=hook.pk).exists()


@pytest.mark.django_db
def test_a_name_that_turns_to_loopback_after_the_check_is_not_reached(
    scene: Scene, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """DNS rebinding: the name answers a public address to the check and the site's own
    loopback a moment later. The sending connects to the address that was checked, so the
    receiver listening on loopback gets nothing."""
    receiver = Receiver().start()
    try:
        host = receiver.url.split("//")[1].split(":")[0]
        webhook = WebhookFactory(event=scene.event, url=receiver.url.replace(host, "rebind.test"))
        settings.WEBHOOKS_ALLOW_PRIVATE = False
        settings.WEBHOOK_TIMEOUT_SECONDS = 1
        real = socket.getaddrinfo
        lookups: list[str] = []

        def getaddrinfo(name, port, *args, **kwargs):
            if name == "rebind.test":
                lookups.append(name)
                name = "93.184.215.14" if len(lookups) == 1 else host
            return real(name, port, *args, **kwargs)

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
        organiser = Actor(user=scene.world.users["organiser"])
        with django_capture_on_commit_callbacks(execute=True):
            delivery = svc.webhook_ping(webhook=webhook, actor=organiser)
        delivery.refresh_from_db()
        assert receiver.received == []
        assert delivery.status != WebhookDelivery.Status.DELIVERED
        assert lookups  # the name was looked up (once, by the check)
    finally:
        receiver.stop()
