"""The groups-and-knockout page in a real browser: the group tables, the repesca list and the
server-drawn SVG bracket, on a phone (the bracket scrolls inside its frame, the page does not)
and on a desktop (accessible, printable); an open round's results never show."""

import random

import pytest
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tests.e2e.test_public_pages import assert_accessible, no_sideways_scroll
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Event
from tournaments.services import events
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _groups_event(organiser, *, closed: int, opened: int) -> Event:
    """Eight pairs in two groups, a repesca of two; rounds 1..closed closed, then up to
    ``opened`` played and left open."""
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor,
        name="Fires de Sant Narcís",
        format="groups",
        match_mode="game",
        boards_per_round=3,
        game_target=51,
        repesca=2,
    )
    events.registration_open(event=event, actor=actor)
    for i in range(8):
        events.entry_register(
            event=event, actor=actor, player1=f"Jugador {i}", player2=f"Jugadora {i}"
        )
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    events.event_publish(event=event, actor=actor)
    rng = random.Random(11)
    for number in range(1, opened + 1):
        pairings_propose(event.pk, number, actor=actor)
        rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
        play_round(rnd, rng)
        if number <= closed:
            events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    return Event.objects.get(pk=event.pk)


def test_the_bracket_page_in_the_browser(new_page, organiser):
    # Groups and semi-finals closed; the final played but open.
    event = _groups_event(organiser, closed=4, opened=5)

    page, problems, shoot = new_page("bracket-phone", phone=True)
    page.goto(f"/e/{event.pk}/groups/")
    assert page.locator("table.group-table").count() == 2
    assert page.locator("table.repesca-table tbody tr").count() >= 2
    bracket = page.locator("svg#bracket")
    assert bracket.is_visible()
    # A phone shows position, pair, match points, difference and whether it is through (the
    # other columns made a group wider than the screen with some scores); print keeps them.
    heads = page.locator("table.group-table").first.locator("thead th:visible")
    assert heads.all_inner_texts() == ["Pos.", "Pair", "Pts", "Diff", "Through"]
    no_sideways_scroll(page)
    shoot("groups-phone")
    bracket.scroll_into_view_if_needed()
    shoot("bracket-phone")
    problems.assert_clean()

    page, problems, shoot = new_page("bracket")
    page.goto(f"/e/{event.pk}/")
    page.get_by_role("link", name="Groups and knockout").click()
    page.wait_for_url(f"**/e/{event.pk}/groups/")
    bracket = page.locator("svg#bracket")
    assert "Semi-finals" in bracket.inner_html() and "Final" in bracket.inner_html()
    # Both semi-finals are decided (closed): two winners marked. The final is open: its two
    # finalists are there, but no winner and no score.
    assert bracket.locator("text", has_text="▶").count() == 2
    final = event.rounds.get(number=5).tables.get()
    names = [f"{e.number}. {e.pair.name}" for e in (final.ns, final.ew)]
    text = bracket.inner_html()
    assert all(n in text for n in names)
    desc = page.locator("svg#bracket desc").text_content()
    assert desc.count("won by") == 2
    assert page.locator("#champion").count() == 0
    shoot("bracket")
    assert_accessible(page, "groups and bracket")

    page.emulate_media(media="print")
    assert not page.locator(".public-nav").is_visible()
    assert page.locator("svg#bracket").is_visible()
    shoot("bracket-print")
    page.emulate_media(media="screen")
    problems.assert_clean()

    # Closing the final decides it: the champion is marked.
    events.round_close(rnd=event.rounds.get(number=5), actor=Actor(user=organiser))
    standings_recompute(event.pk)
    page.reload()
    assert page.locator("svg#bracket text", has_text="▶").count() == 3
    assert page.locator("#champion").is_visible()
    shoot("bracket-final")
    problems.assert_clean()


def test_the_pairing_page_on_a_phone(new_page, organiser):
    """The organiser chooses groups then knockout (which keeps no pairs apart, and says so),
    goes back to the Swiss, keeps two pairs apart and lets them meet again after a
    confirmation, on a 390 px phone."""
    event = events.event_create(actor=Actor(user=organiser), name="Lliga del dijous")
    events.registration_open(event=event, actor=Actor(user=organiser))
    for i in range(4):
        events.entry_register(
            event=event, actor=Actor(user=organiser), player1=f"Anna {i}", player2=f"Pere {i}"
        )
    page, problems, shoot = new_page("pairing-page-phone", phone=True)
    log_in(page, "organiser")
    page.goto(f"/manage/{event.pk}/pairing/")
    no_sideways_scroll(page)
    page.get_by_label("Groups, then knockout").check()
    page.get_by_label("Repesca places").fill("")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Pairing method saved.")).to_be_visible()
    event.refresh_from_db()
    assert event.format == "groups" and event.repesca is None
    expect(page.get_by_text("Only the Swiss keeps two pairs apart")).to_be_visible()
    expect(page.get_by_role("button", name="Keep apart")).to_have_count(0)
    page.get_by_label("Swiss pairs").check()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Pairing method saved.")).to_be_visible()
    page.select_option("#id_entry_a", label="1. Anna 0 – Pere 0")
    page.select_option("#id_entry_b", label="3. Anna 2 – Pere 2")
    page.get_by_role("button", name="Keep apart").click()
    expect(page.locator(".forbidden-list li")).to_have_count(1)
    shoot("kept-apart")
    assert_accessible(page, "pairing page")
    page.locator(".forbidden-list a", has_text="Remove").click()
    page.locator("#confirm").click()
    expect(page.get_by_text("No prohibited pairings.")).to_be_visible()
    no_sideways_scroll(page)
    problems.assert_clean()
