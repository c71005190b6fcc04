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
    """short.html: the Contro / Recontro / Sant Vicenç radios ("No", "West", "East" three times)
    sit in one fieldset "Calls"; the call's name is a bare <span>, so a screen reader cannot
    tell which call a "No" or "West" radio belongs to."""
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


@pytest.mark.django_db(transaction=True)
def test_card_by_card_hands_say_the_suit_to_a_screen_reader(new_page, running_event):
    """table.js handNode: each suit line is an aria-hidden symbol followed by ranks, so the
    accessible text of a hand is "North 11 10 5 4 9 8 3 …" with no suit at all."""
    t = table1(running_event)
    results.result_submit_short(
        table=t, board_number=1, actor=Actor(table=t, side="NS"), data=SHORT
    )
    page, _, _ = new_page("hands", phone=True)
    open_table(page, t.code_ns)
    page.goto(f"/table/{t.code_ns}/board/1/play/")
    page.wait_for_selector('#play-app[data-count="0"]')
    north = page.locator("[data-role=deal] .hand.seat-N").aria_snapshot()
    for suit in ("oros", "copes", "espases", "bastos"):
        assert suit in north, north


@pytest.mark.django_db(transaction=True)
def test_playing_a_card_by_keyboard_keeps_the_focus(new_page, running_event):
    """table.js render(): the legal-card buttons are all removed and rebuilt after each card,
    so the focused button disappears and the focus falls to <body> 48 times per hand."""
    t = table1(running_event)
    results.result_submit_short(
        table=t, board_number=1, actor=Actor(table=t, side="NS"), data=SHORT
    )
    page, _, _ = new_page("focus", phone=True)
    open_table(page, t.code_ns)
    page.goto(f"/table/{t.code_ns}/board/1/play/")
    page.wait_for_selector('#play-app[data-count="0"]')
    page.locator("#legal-cards button.play-card").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#play-app[data-count="1"]')
    assert page.evaluate("document.activeElement !== document.body"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 80)"
    )


@pytest.mark.django_db(transaction=True)
def test_table_home_live_region_stays_in_the_page_when_boards_refresh(new_page, running_event):
    """_boards.html marks #boards aria-live, but table.js replaces the whole element
    (current.replaceWith(fresh)): the live region the screen reader watched is gone, the new one
    is inserted already filled, so "entered / confirmed by EW" is never announced."""
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
    """public.js sets #standings-live.innerHTML every 15 s, changed or not, with no check for
    the focus (live.js and table.js have one): a keyboard user on a pair's link is thrown back
    to <body> every 15 s."""
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
    """table.css: the back link "← Table 1" (19 px high), "EW confirms on this phone" (24 px)
    and "Another table code" (19 px) are far below the ~44 px the table pages aim for."""
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
