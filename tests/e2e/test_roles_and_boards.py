"""Issue 14 in a browser: an organiser appoints a referee by invitation link (the newcomer
creates the account from the link), then removes the role after a confirmation; anyone checks
the boards on the web with a pasted seed. Screenshots go to test-artifacts/screenshots/roles-*/
and check-boards-*/."""

import pytest
from playwright.sync_api import expect

from engine.deals import deal_board
from tests.e2e.journey import log_in
from tests.e2e.test_public_pages import assert_accessible
from tests.tournaments.public_event import build_played_event
from tournaments.actors import Actor
from tournaments.models import Event
from tournaments.services import events

pytestmark = pytest.mark.django_db(transaction=True)


def _oros(tokens):
    """A hand's line of oros as the deal diagram prints it (``templatetags.cards``)."""
    return " ".join(t[:-1] for t in tokens if t.endswith("o")) or "—"


def test_appoint_a_referee_by_invitation_then_remove_the_role(running_event, new_page):
    event = running_event
    page, problems, shoot = new_page("roles-organiser")
    log_in(page, "organiser")
    page.goto(f"/manage/{event.pk}/")
    page.click("text=Organisers and referees")
    expect(page.locator("h1")).to_have_text("Organisers and referees")
    page.select_option("#invite-form select[name=role]", "referee")
    page.fill("#invite-form input[name=email]", "eva@example.org")
    page.click("#invite-form button[type=submit]")
    link = page.locator("#invitation-link").input_value()
    assert "/accounts/invitation/" in link
    expect(page.locator("#invitations")).to_contain_text("eva@example.org")
    assert_accessible(page, "roles page")
    shoot("link-shown")

    # The newcomer opens the link in their own browser and creates the account.
    guest, guest_problems, guest_shoot = new_page("roles-newcomer")
    guest.goto(link)
    expect(guest.locator("h1")).to_contain_text("You are invited as a referee")
    guest.fill("input[name=username]", "eva")
    guest.fill("input[name=password1]", "a-Long-pass-42")
    guest.fill("input[name=password2]", "a-Long-pass-42")
    assert_accessible(guest, "invitation page")
    guest_shoot("account-form")
    guest.click("#accept")
    expect(guest.locator(".messages")).to_contain_text("Welcome: you are now a referee")
    expect(guest.locator("h1")).to_have_text(event.name)
    guest_shoot("dashboard")
    guest.goto(link)  # one use only
    expect(guest.locator("h1")).to_have_text("This invitation link does not work")
    guest_problems.errors = [e for e in guest_problems.errors if "404" not in e]
    guest_problems.assert_clean()

    page.goto(f"/manage/{event.pk}/roles/")
    row = page.locator('tr[data-user="eva"][data-role="referee"]')
    expect(row).to_be_visible()
    expect(page.locator("#invitations")).to_have_count(0)
    assert not page.locator("#invitation-link").count()  # the link is shown once
    row.locator("a", has_text="Remove").click()
    expect(page.locator("h1")).to_have_text("Remove eva as referee?")
    shoot("remove-confirm")
    page.click("#confirm")
    expect(page.locator(".messages")).to_contain_text("eva is no longer a referee")
    expect(page.locator('tr[data-user="eva"]')).to_have_count(0)
    assert not Event.objects.get(pk=event.pk).referees.filter(username="eva").exists()
    shoot("removed")
    problems.assert_clean()


def test_check_the_boards_with_a_pasted_seed(running_event, new_page, organiser):
    event = running_event
    events.event_publish(event=event, actor=Actor(user=organiser))
    page, problems, shoot = new_page("check-boards")
    page.goto(f"/e/{event.pk}/")
    page.click("text=Check the boards on this site")
    expect(page.locator("#commitment")).to_have_text(event.commitment)
    page.fill("input[name=seed]", "my own seed")
    page.fill("input[name=board]", "2")
    page.click("#check")
    expect(page.locator("#match")).to_have_attribute("data-match", "no")
    commands = page.locator("#commands")
    expect(commands).to_contain_text("botifarra commit --seed='my own seed'")
    expect(commands).to_contain_text("botifarra deal --seed='my own seed' --board 2")
    expect(page.locator(".deal")).to_be_visible()
    expect(page.locator(".deal .seat-N .suit-o")).to_contain_text(
        _oros(deal_board("my own seed", 2).to_json()["hands"]["N"])
    )
    assert_accessible(page, "check the boards")
    shoot("no-match")
    page.click("#next-board")
    expect(page.locator("#dealt-title")).to_contain_text("Board 3")

    # Finished: the seed is public, offered in the form, and matches.
    actor = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    events.event_finish(event=event, actor=actor)
    event.refresh_from_db()
    page.goto(f"/e/{event.pk}/check/")
    expect(page.locator("input[name=seed]")).to_have_value(event.seed)
    page.click("#check")
    expect(page.locator("#match")).to_have_attribute("data-match", "yes")
    expect(page.locator("#match")).to_contain_text("is the board that was played")
    expect(page.locator(".deal .seat-N .suit-o")).to_contain_text(
        _oros(event.boards.get(number=1).hands["N"])
    )
    shoot("match")
    problems.assert_clean()


def test_crosstable_and_pairings_list_on_screen_and_in_print(running_event, new_page, organiser):
    event = build_played_event(running_event, organiser)
    page, problems, shoot = new_page("crosstable-pairings")
    page.goto(f"/e/{event.pk}/")
    page.click("nav >> text=Crosstable")
    expect(page.locator("#crosstable tbody tr")).to_have_count(4)
    # Round 2 is open: its cells show the opponent and direction, no result, for the public.
    expect(page.locator('#crosstable td[data-round="2"] .res')).to_have_count(0)
    expect(page.locator('#crosstable td[data-round="1"] .res')).to_have_count(4)
    assert_accessible(page, "crosstable")
    shoot("crosstable")
    page.emulate_media(media="print")
    expect(page.locator(".public-nav")).to_be_hidden()
    expect(page.locator("#crosstable")).to_be_visible()
    page.emulate_media(media="screen")
    page.click("nav >> text=Pairings")
    expect(page.locator("#round")).to_have_value("2")
    expect(page.locator("#pairings tr[data-entry]")).to_have_count(4)
    expect(page.locator("#pairings tbody.score-group").first).to_contain_text("Score group")
    expect(page.locator('#pairings tr[data-entry="1"] td.history')).to_have_text("NS")
    assert_accessible(page, "pairings list")
    shoot("pairings")
    problems.assert_clean()
