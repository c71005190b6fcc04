"""The organiser's webhooks page (tournaments/views/webhooks.py): register with the secret shown
once, a clear error on the field, the deliveries with the receiver's answers, a test, a re-send,
and a removal behind a confirmation; for the event's organisers only."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, WebhookAttemptFactory, WebhookFactory
from tests.webhook_receiver import Receiver
from tournaments.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(organiser):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(organiser)
    return c


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def page(event):
    return reverse("tournaments:webhooks", args=[event.pk])


def test_the_dashboard_links_to_the_webhooks(client, running_event):
    body = client.get(reverse("tournaments:event_dashboard", args=[running_event.pk])).content
    assert page(running_event).encode() in body


def test_registering_shows_the_secret_once(client, running_event):
    response = client.post(page(running_event), {"url": "https://club.example.org/hook"})
    assert response.status_code == 302
    webhook = Webhook.objects.get(event=running_event)
    shown = client.get(page(running_event)).content.decode()
    assert webhook.secret in shown and "https://club.example.org/hook" in shown
    assert webhook.secret not in client.get(page(running_event)).content.decode()


def test_a_bad_address_is_refused_on_its_field(client, running_event, settings):
    response = client.post(page(running_event), {"url": "ftp://club.example.org"})
    assert response.status_code == 400
    assert b"starting with https://" in response.content
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    response = client.post(page(running_event), {"url": "http://192.168.1.2/hook"})
    assert response.status_code == 400
    assert b"private or local network" in response.content
    assert b'value="http://192.168.1.2/hook"' in response.content  # what was typed stays
    assert not Webhook.objects.exists()


def test_deliveries_show_each_attempt_and_can_be_sent_again(
    client, running_event, receiver, django_capture_on_commit_callbacks
):
    client.post(page(running_event), {"url": receiver.url})
    webhook = Webhook.objects.get()
    receiver.secret = webhook.secret
    receiver.answers = [502]
    deliveries = reverse("tournaments:webhook_deliveries", args=[running_event.pk, webhook.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tournaments:webhook_ping", args=[running_event.pk, webhook.pk])
        )
    assert response.status_code == 302 and response["Location"] == deliveries
    body = client.get(deliveries).content.decode()
    delivery = WebhookDelivery.objects.get()
    assert f'data-delivery="{delivery.uuid}" data-status="failed"' in body
    assert "<strong>502</strong>" in body and "boom" in body
    resend = reverse("tournaments:webhook_resend", args=[running_event.pk, delivery.uuid])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(resend).status_code == 302
    body = client.get(deliveries).content.decode()
    assert 'data-status="delivered"' in body and "<strong>200</strong>" in body


def test_an_attempt_without_an_answer_says_why(client, running_event):
    attempt = WebhookAttemptFactory(
        delivery__webhook__event=running_event, status_code=None, error="timeout", response_body=""
    )
    url = reverse(
        "tournaments:webhook_deliveries", args=[running_event.pk, attempt.delivery.webhook_id]
    )
    assert "No answer in time" in client.get(url).content.decode()


def test_removing_asks_first(client, running_event):
    webhook = WebhookFactory(event=running_event)
    url = reverse("tournaments:webhook_delete", args=[running_event.pk, webhook.pk])
    confirm = client.get(url)
    assert confirm.status_code == 200 and b"Remove this webhook?" in confirm.content
    assert Webhook.objects.filter(pk=webhook.pk).exists()
    assert client.post(url).status_code == 302
    assert not Webhook.objects.filter(pk=webhook.pk).exists()


def test_referees_and_others_are_refused(running_event, referee):
    webhook = WebhookFactory(event=running_event)
    for user in (referee, UserFactory()):
        c = Client(HTTP_ACCEPT_LANGUAGE="en")
        c.force_login(user)
        assert c.get(page(running_event)).status_code == 403
        assert c.post(page(running_event), {"url": "https://x.example.org"}).status_code == 403
        remove = reverse("tournaments:webhook_delete", args=[running_event.pk, webhook.pk])
        assert c.post(remove).status_code == 403
    assert Webhook.objects.count() == 1
