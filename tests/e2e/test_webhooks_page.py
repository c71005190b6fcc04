"""Issue 21 in a browser, on a 360 px phone: the organiser registers a webhook (a real receiver on
loopback), copies the secret shown once, sends a test that the receiver verifies, sees the
answer, and removes the webhook after a confirmation. No page scrolls sideways, a long address
included. Screenshots go to test-artifacts/screenshots/webhooks/."""

import pytest
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tests.e2e.test_phone_layout import SIDEWAYS
from tests.e2e.test_public_pages import assert_accessible
from tests.webhook_receiver import Receiver
from tournaments.models import Webhook

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def test_register_test_and_remove_a_webhook_on_a_phone(running_event, new_page, receiver):
    event = running_event
    page, problems, shoot = new_page("webhooks")
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, "organiser")
    page.goto(f"/manage/{event.pk}/")
    page.click("#webhooks-link")
    expect(page.locator("h1")).to_have_text("Webhooks")
    expect(page.locator("#no-webhooks")).to_be_visible()

    page.fill("#webhook-form input[name=url]", "ftp://nowhere")
    page.click("#webhook-form button[type=submit]")
    expect(page.locator("#webhook-form")).to_contain_text("starting with https://")

    url = receiver.url + "/a-rather-long-path/that-would-not-fit/on-a-phone?club=botifarra-sants"
    page.fill("#webhook-form input[name=url]", url)
    page.click("#webhook-form button[type=submit]")
    secret = page.locator("#webhook-secret").input_value()
    assert secret == Webhook.objects.get(event=event).secret
    receiver.secret = secret
    assert page.evaluate(SIDEWAYS) == []
    assert_accessible(page, "webhooks page")
    shoot("secret-shown")
    page.reload()
    assert not page.locator("#webhook-secret").count()  # shown once

    page.locator("#webhooks a", has_text="Deliveries").click()
    page.click("#send-test")
    expect(page.locator(".messages")).to_contain_text("A test notification is on its way")
    row = page.locator("#deliveries > li").first
    expect(row).to_have_attribute("data-status", "delivered")
    expect(row).to_contain_text("200")
    (got,) = receiver.received
    assert got.verified and got.json["kind"] == "ping"
    assert page.evaluate(SIDEWAYS) == []
    assert_accessible(page, "deliveries page")
    shoot("delivered")

    page.goto(f"/manage/{event.pk}/webhooks/")
    page.locator("#webhooks a", has_text="Remove").click()
    expect(page.locator("h1")).to_have_text("Remove this webhook?")
    assert page.evaluate(SIDEWAYS) == []
    page.click("#confirm")
    expect(page.locator(".messages")).to_contain_text("The webhook is removed")
    expect(page.locator("#no-webhooks")).to_be_visible()
    assert not Webhook.objects.exists()
    # The refused address above answered 400 on purpose (the form with its error).
    problems.errors = [e for e in problems.errors if "status of 400" not in e]
    problems.assert_clean()
