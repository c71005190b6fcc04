"""Accessibility of the players' table pages and the public standings: what a screen reader says,
where the keyboard focus goes, and how big the targets are on a phone."""

import pytest

from tests.tournaments.public_event import build_played_event
from tournaments.actors import Actor
from tournaments.models import Table
from tournaments.services import results

SHORT = {"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 40, "EW": 32}}


def table1(event):
    return Table.objects.get(round__event=event, round__number=1, number=1)


def open_table(page, code):
    page.goto("/table/")
    page.fill("input[name=code]", code)
    page.click("main form button.primary")
    page.wait_for_selector("#boards")


@pytest.mark.django_db(transaction=True)
def test_each_call_radio_group_is_named_by_its_call(new_page, running_event):
    """Each call's radios ("No", "West", "East"…) are a group named by its call: a screen reader
    says which call a "No" belongs to."""
    t = table1(running_event)
    page, _, _ = new_page("calls", phone=True)
    open_table(page, t.code_ns)
    page.goto(f"/table/{t.code_ns}/board/1/")
    page.wait_for_selector("#short-form")
    for call in ("Contro", "Recontro", "Sant Vicenç"):
        groups = (
            page.get_by_role("group", name=call, exact=True).count()
            + page.get_by_role("radiogroup", name=call, exact=True).count()
        )
        assert groups == 1, (call, page.locator("#field-calls").aria_snapshot())


def card_by_card(new_page, event, name):
    """Board 1 entered as a short result, then its card-by-card page on a phone."""
    t = table1(event)
    results.result_submit_short(
        table=t, board_number=1, actor=Actor(table=t, side="NS"), data=SHORT
    )
    page, _, _ = new_page(name, phone=True)
    open_table(page, t.code_ns)
    page.goto(f"/table/{t.code_ns}/board/1/play/")
    page.wait_for_selector('#play-app[data-count="0"]')
    return page


@pytest.mark.django_db(transaction=True)
def test_card_by_card_hands_say_the_suit_to_a_screen_reader(new_page, running_event):
    """Each suit line of a hand says its suit's name (the symbol is hidden from screen
    readers), not "North 11 10 5 4 9 8 3 …"."""
    page = card_by_card(new_page, running_event, "hands")
    north = page.locator("[data-role=deal] .hand.seat-N").aria_snapshot()
    for suit in ("oros", "copes", "espases", "bastos"):
        assert suit in north, north


@pytest.mark.django_db(transaction=True)
def test_playing_a_card_by_keyboard_keeps_the_focus(new_page, running_event):
    """The legal cards are rebuilt after each card played: the focus goes to the next legal
    card, not back to the page's top (48 times a hand)."""
    page = card_by_card(new_page, running_event, "focus")
    page.locator("#legal-cards button.play-card").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#play-app[data-count="1"]')
    assert page.evaluate("document.activeElement !== document.body"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 80)"
    )


@pytest.mark.django_db(transaction=True)
def test_table_home_live_region_stays_in_the_page_when_boards_refresh(new_page, running_event):
    """The boards' refresh changes the content of the live region the screen reader found, and
    keeps the region itself: "entered", "confirmed by EW" are announced."""
    t = table1(running_event)
    page, _, _ = new_page("live", phone=True)
    open_table(page, t.code_ns)
    page.evaluate("window.__live = document.querySelector('[aria-live]#boards')")
    results.result_submit_short(
        table=t, board_number=1, actor=Actor(table=t, side="EW"), data=SHORT
    )
    page.wait_for_selector("#board-1[data-status=entered]", timeout=25_000)
    assert page.evaluate("window.__live.isConnected"), "the aria-live region was replaced"


@pytest.mark.django_db(transaction=True)
def test_public_standings_refresh_keeps_the_keyboard_focus(new_page, running_event, organiser):
    """The standings' refresh leaves the table alone while the focus is in it: a keyboard user
    on a pair's link is not sent back to the page's top every 15 s."""
    event = build_played_event(running_event, organiser)
    page, _, _ = new_page("standings")
    page.goto(f"/e/{event.pk}/standings/")
    link = page.locator("#standings-live table.standings a").nth(2)
    link.focus()
    assert page.evaluate("document.activeElement.tagName") == "A"
    with page.expect_response(lambda r: "fragment=1" in r.url, timeout=20_000):
        pass
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement.tagName") == "A", page.evaluate(
        "document.activeElement.tagName"
    )


SMALL = """() => [...document.querySelectorAll('main a, main button, main summary')]
  .filter(e => e.checkVisibility()).map(e => { const r = e.getBoundingClientRect();
    return {text: e.innerText.trim().slice(0, 40), w: Math.round(r.width), h: Math.round(r.height)} })
  .filter(x => x.text && (x.w < 40 || x.h < 40))"""


@pytest.mark.django_db(transaction=True)
def test_table_page_targets_are_44_px(new_page, running_event):
    """Every link, button and summary of the table pages is at least ~44 px (checked at 40):
    the back link, "EW confirms on this phone", "Another table code"."""
    t = table1(running_event)
    results.result_submit_short(
        table=t, board_number=1, actor=Actor(table=t, side="NS"), data=SHORT
    )
    page, _, _ = new_page("targets", phone=True)
    open_table(page, t.code_ns)
    small = page.evaluate(SMALL)
    page.goto(f"/table/{t.code_ns}/board/2/")
    page.wait_for_selector("#short-form")
    small += page.evaluate(SMALL)
    assert not small, small
