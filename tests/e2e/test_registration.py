"""Sign-up to check-in in a real browser: a pair signs up on the public page, its confirmation
e-mail (Django's in-memory backend) links to its registration page, the organiser checks it in
on a phone, and the pair's page then shows its number."""

import re
from urllib.parse import urlparse

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tests.factories import EventFactory, UserFactory
from tournaments.models import Event, Registration


@pytest.mark.django_db(transaction=True)
def test_sign_up_confirmation_email_and_check_in(new_page):
    organiser = UserFactory(username="marta")
    event = EventFactory(
        name="Obert de Reus",
        organisers=[organiser],
        status=Event.Status.REGISTRATION,
        registration_cap=1,
        venue="Sala gran",
    )

    page, problems, shoot = new_page("registration-signup", phone=True)
    page.goto(f"/e/{event.pk}/register/")
    expect(page.locator("#places")).to_contain_text("0 of 1 places taken")
    page.fill("#id_player1", "Anna Puig")
    page.fill("#id_player2", "Jordi Vila")
    page.fill("#id_email", "anna@example.org")
    shoot("form")
    page.click("#signup")
    expect(page.locator("#status")).to_contain_text("Registered.")
    shoot("registered")

    (message,) = mail.outbox
    assert message.to == ["anna@example.org"] and "Obert de Reus" in message.subject
    link = re.search(r"https?://\S+/registration/\S+/", message.body).group(0)
    token = Registration.objects.get().token
    assert link.endswith(f"/e/{event.pk}/registration/{token}/")

    # A second pair finds the event full: the waiting list.
    page.goto(f"/e/{event.pk}/register/")
    page.fill("#id_player1", "Marta Soler")
    page.fill("#id_player2", "Pere Riera")
    page.fill("#id_email", "marta@example.org")
    page.click("#signup")
    expect(page.locator("#status")).to_contain_text("On the waiting list: 0 pairs before you.")
    assert "waiting list" in mail.outbox[1].body

    organiser_page, organiser_problems, organiser_shoot = new_page(
        "registration-check-in", phone=True
    )
    log_in(organiser_page, "marta")
    organiser_page.goto(f"/manage/{event.pk}/registrations/")
    row = organiser_page.locator("tr", has_text="Anna Puig")
    row.locator("button.check-in").click()
    expect(organiser_page.locator("tr", has_text="Anna Puig")).to_contain_text("Pair 1")
    expect(organiser_page.locator("tr", has_text="Marta Soler")).not_to_contain_text("Pair")
    organiser_shoot("checked-in")

    # The pair's own page (the e-mail's link, as a path) now says it is checked in.
    page.goto(urlparse(link).path)
    expect(page.locator("#status")).to_contain_text("Checked in: you are pair 1.")
    assert event.entries.get().pair.player1.name == "Anna Puig"
    problems.assert_clean()
    organiser_problems.assert_clean()
