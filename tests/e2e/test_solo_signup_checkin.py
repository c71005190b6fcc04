"""Solo sign-up to QR check-in in a real browser: two players sign up alone, the organiser
matches them into a pair (confirmation page), both get the e-mail with the check-in QR code
(Django's in-memory backend), and the organiser's phone opening the QR code's link checks the
pair in; a player opening the same link only sees the registration."""

import re
from decimal import Decimal
from urllib.parse import urlparse

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tests.factories import EventFactory, UserFactory
from tournaments.models import Event, Registration


def _sign_up_alone(page, event, name, email):
    page.goto(f"/e/{event.pk}/register/")
    page.check("#id_alone")
    page.fill("#id_player1", name)
    page.fill("#id_email", email)
    page.click("#signup")
    expect(page.locator("#status")).to_contain_text("Signed up alone")


@pytest.mark.django_db(transaction=True)
def test_solo_sign_ups_matched_then_checked_in_by_the_qr_code(new_page):
    organiser = UserFactory(username="marta")
    event = EventFactory(
        name="Obert de Valls",
        organisers=[organiser],
        status=Event.Status.REGISTRATION,
        registration_cap=8,
        fee_amount=Decimal("15.00"),
        fee_instructions="Cash at the door.",
    )

    page, problems, shoot = new_page("solo-signup", phone=True)
    page.goto(f"/e/{event.pk}/register/")
    expect(page.locator("#fee")).to_contain_text("Entry fee: 15.00 EUR per pair.")
    _sign_up_alone(page, event, "Rosa Puig", "rosa@example.org")
    shoot("rosa-alone")
    _sign_up_alone(page, event, "Pau Vila", "pau@example.org")
    assert [m.to for m in mail.outbox] == [["rosa@example.org"], ["pau@example.org"]]

    organiser_page, organiser_problems, organiser_shoot = new_page("solo-match", phone=True)
    log_in(organiser_page, "marta")
    organiser_page.goto(f"/manage/{event.pk}/registrations/")
    expect(organiser_page.locator("#solos + ul")).to_contain_text("Rosa Puig")
    organiser_page.select_option("#id_first", label="Rosa Puig")
    organiser_page.select_option("#id_second", label="Pau Vila")
    organiser_shoot("solos")
    organiser_page.click("#match")
    expect(organiser_page.locator("h1")).to_contain_text("Make Rosa Puig and Pau Vila a pair?")
    organiser_shoot("confirm-match")
    organiser_page.click("#confirm")
    row = organiser_page.locator("tr", has_text="Rosa Puig – Pau Vila")
    expect(row).to_contain_text("Confirmed")
    expect(row.locator("button.mark-paid")).to_be_visible()
    row.locator("button.mark-paid").click()
    expect(organiser_page.locator("tr", has_text="Rosa Puig – Pau Vila")).to_contain_text("Paid")

    # One message each, each with its own link and the pair's check-in code.
    to_rosa, matched = mail.outbox[-2:]
    assert (to_rosa.to, matched.to) == (["rosa@example.org"], ["pau@example.org"])
    assert {m.attachments[0][0] for m in (to_rosa, matched)} == {"check-in.png"}
    checkin = urlparse(re.search(r"https?://\S+/check-in/\S+/", matched.body).group(0)).path
    pau = Registration.objects.get(player1="Pau Vila")

    # Pau's own page (his e-mail's link): the pair, and its QR code.
    page.goto(f"/e/{event.pk}/registration/{pau.token}/")
    expect(page.locator("#matched")).to_contain_text("matched you with Rosa Puig")
    expect(page.locator("#check-in-qr svg")).to_be_visible()
    shoot("pair-qr")
    # A player opening the QR code's link sees the registration and cannot check in.
    page.goto(checkin)
    expect(page.locator("#status")).to_contain_text("Registered.")
    expect(page.locator("#confirm")).to_have_count(0)

    # The organiser's phone scans it: a confirmation, then the pair is checked in.
    organiser_page.goto(checkin)
    expect(organiser_page.locator("h1")).to_contain_text("Check this pair in?")
    expect(organiser_page.locator("#checkin-fee")).to_contain_text("Fee paid.")
    organiser_shoot("scan")
    organiser_page.click("#confirm")
    expect(organiser_page.locator("h1")).to_contain_text("Checked in: pair 1")
    organiser_shoot("checked-in")

    page.goto(f"/e/{event.pk}/registration/{pau.token}/")
    expect(page.locator("#status")).to_contain_text("Checked in: you are pair 1.")
    entry = event.entries.get()
    assert (entry.pair.player1.name, entry.pair.player2.name) == ("Rosa Puig", "Pau Vila")
    problems.assert_clean()
    organiser_problems.assert_clean()
