"""The live evening in a browser (issue 14): the console and the referee queue update without a
reload when another client stores a result or opens a dispute; the room's screen rotates and
refreshes; each undo action from its button to the changed standings. Screenshots go to
test-artifacts/screenshots/evening-*/."""

import pytest
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tests.factories import UserFactory
from tournaments.actors import Actor
from tournaments.models import Round
from tournaments.services import ServiceError, events
from tournaments.services.results import result_confirm, result_submit_short

DATA = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}

pytestmark = pytest.mark.django_db(transaction=True)


def _enter(table, board, side="NS", totals=(40, 32)):
    data = DATA | {"totals": {"NS": totals[0], "EW": totals[1]}}
    return result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side=side), data=data
    )


def _confirmed(table, board, totals=(40, 32)):
    stored = _enter(table, board, totals=totals)
    result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


def _mark_page(page):
    """A value that a reload would wipe out: the updates must keep it."""
    page.evaluate("window.__notReloaded = true")


def _not_reloaded(page):
    assert page.evaluate("window.__notReloaded === true")


def test_console_updates_without_reload_and_announces_a_dispute(running_event, new_page):
    table = running_event.rounds.get(number=1).tables.get(number=1)
    page, problems, shoot = new_page("evening-console")
    log_in(page, "organiser")
    page.goto(f"/manage/{running_event.pk}/rounds/1/")
    cell = page.locator('[data-cell="1-1"]')
    expect(cell).to_have_attribute("data-state", "not_started")
    _mark_page(page)
    shoot("before")
    # Another client (the table's phone) stores a result.
    _enter(table, 1)
    expect(cell).to_have_attribute("data-state", "entered", timeout=10_000)
    # ... and the other pair disagrees: a dispute, announced on the page.
    _enter(table, 1, side="EW", totals=(30, 42))
    expect(cell).to_have_attribute("data-state", "disputed", timeout=10_000)
    expect(page.locator("#live-announce")).to_contain_text("Table 1, board 1", timeout=10_000)
    dispute = table.results.get(board__number=1).disputes.get()
    link = page.locator(f'#console a[href="/referee/dispute/{dispute.pk}/"]').first
    expect(link).to_be_visible()
    _not_reloaded(page)
    shoot("dispute-announced")
    link.click()
    expect(page).to_have_url(f"/referee/dispute/{dispute.pk}/")
    problems.assert_clean()


def test_referee_queue_updates_without_reload(running_event, new_page):
    referee = UserFactory(username="referee")
    running_event.referees.add(referee)
    table = running_event.rounds.get(number=1).tables.get(number=2)
    page, problems, shoot = new_page("evening-queue")
    log_in(page, "referee")
    page.goto(f"/referee/event/{running_event.pk}/")
    _mark_page(page)
    _enter(table, 2)
    _enter(table, 2, side="EW", totals=(20, 52))
    dispute = table.results.get(board__number=2).disputes.get()
    expect(page.locator(f'#queue a[href="/referee/dispute/{dispute.pk}/"]')).to_be_visible(
        timeout=15_000
    )
    _not_reloaded(page)
    shoot("queue")
    problems.assert_clean()


def test_room_screen_rotates_and_refreshes(running_event, new_page, organiser):
    running_event.published = True
    running_event.save()
    page, problems, shoot = new_page("evening-screen")
    page.goto(f"/e/{running_event.pk}/screen/?every=2")
    current = page.locator("#screen-slides [data-slide].current")
    expect(current).to_have_count(1)
    first = current.get_attribute("aria-labelledby")
    expect(current).not_to_have_attribute("aria-labelledby", first, timeout=6_000)
    shoot("rotated")
    _mark_page(page)
    # Round 1 is played and closed: its standings join the rotation without a reload.
    actor = Actor(user=organiser)
    for table in running_event.rounds.get(number=1).tables.all():
        for board in (1, 2):
            _confirmed(table, board)
    events.round_close(rnd=running_event.rounds.get(number=1), actor=actor)
    expect(page.locator("#screen-slides h2", has_text="Standings after round 1")).to_have_count(
        1, timeout=15_000
    )
    _not_reloaded(page)
    shoot("standings-added")
    problems.assert_clean()


def _mp(page, event, number):
    """Pair ``number``'s match points on the standings page (None: not in the standings)."""
    page.goto(f"/e/{event.pk}/standings/")
    row = page.locator(f'tr[data-entry="{number}"]')
    return row.get_attribute("data-mp") if row.count() else None


def test_withdraw_and_reinstate_from_their_buttons_to_the_standings(running_event, new_page):
    event = running_event
    page, problems, shoot = new_page("evening-withdraw")
    log_in(page, "organiser")
    assert _mp(page, event, 2) in (None, "0")  # nothing played yet
    page.goto(f"/manage/{event.pk}/pairs/")
    page.locator('tr:has(td.num:text-is("1")) a', has_text="Withdraw").click()
    expect(page.locator("#plan")).to_contain_text("forfeited")
    page.fill("textarea[name=reason]", "Anna is unwell")
    shoot("withdraw-plan")
    page.click("#confirm")
    expect(page.locator(".messages")).to_contain_text("Pair 1 withdrawn.")
    # Pair 2 sat against pair 1: it wins the forfeited match like a bye.
    assert _mp(page, event, 2) == "2"
    shoot("standings-after-withdrawal")
    page.goto(f"/manage/{event.pk}/pairs/")
    page.locator('tr:has(td.num:text-is("1")) a', has_text="Reinstate").click()
    expect(page.locator("#plan")).to_contain_text("taken back")
    page.click("#confirm")
    assert _mp(page, event, 2) == "0"
    problems.assert_clean()


def test_reopen_a_round_closed_too_early_from_its_button_to_the_standings(
    running_event, new_page, organiser
):
    event = running_event
    table = event.rounds.get(number=1).tables.get(number=1)
    _confirmed(table, 1, totals=(50, 22))  # pair 1 (NS) won board 1; board 2 not played
    events.round_close(
        rnd=event.rounds.get(number=1), actor=Actor(user=organiser), accept_missing=True
    )
    page, problems, shoot = new_page("evening-reopen")
    log_in(page, "organiser")
    assert _mp(page, event, 1) == "2"  # closed: the match with one board is over
    page.goto(f"/manage/{event.pk}/rounds/1/")
    page.click("#reopen-round")
    page.fill("textarea[name=reason]", "closed before table 1 finished")
    shoot("reopen-plan")
    page.click("#confirm")
    expect(page.locator("#round-status")).to_have_text("Open")
    assert _mp(page, event, 1) == "0"  # open again: the match is not over
    # Closing showed board 2, which table 1 had not played: now only the organiser enters it
    # for the table (docs/organisers.md, "Reopening a round").
    table = event.rounds.get(number=1).tables.get(number=1)
    with pytest.raises(ServiceError, match="can no longer enter it"):
        _enter(table, 2, totals=(10, 62))
    entered = result_submit_short(
        table=table,
        board_number=2,
        actor=Actor(user=organiser),
        data=DATA | {"totals": {"NS": 10, "EW": 62}},
    )
    result_confirm(result=entered.result, actor=Actor(table=table, side="EW"))  # the table may
    assert _mp(page, event, 1) == "0" and _mp(page, event, 2) == "2"
    shoot("standings-after-reopen")
    problems.assert_clean()


def test_unopen_edit_the_pairing_and_substitute_from_their_buttons(running_event, new_page):
    event = running_event
    page, problems, shoot = new_page("evening-pairing")
    log_in(page, "organiser")
    page.goto(f"/manage/{event.pk}/rounds/1/")
    page.click("#unopen-round")
    page.fill("textarea[name=reason]", "wrong tables")
    page.click("#confirm")
    expect(page.locator("#round-status")).to_have_text("Proposed")
    page.click("#edit-pairing")
    page.select_option("select[name=t1_ns]", "1")
    page.select_option("select[name=t1_ew]", "3")
    page.select_option("select[name=t2_ns]", "2")
    page.select_option("select[name=t2_ew]", "4")
    page.click("#save-pairing")
    expect(page.locator(".messages")).to_contain_text("The pairing of round 1 is saved.")
    rnd = event.rounds.get(number=1)
    assert rnd.status == Round.Status.PENDING
    assert [(t.ns.number, t.ew.number) for t in rnd.tables.order_by("number")] == [(1, 3), (2, 4)]
    page.click("#open-round")
    expect(page.locator("#round-status")).to_have_text("Open")
    shoot("reopened-with-new-pairing")
    page.goto(f"/manage/{event.pk}/pairs/")
    page.locator('tr:has(td.num:text-is("3")) a', has_text="Substitute a player").click()
    page.select_option("select[name=seat]", "2")
    page.fill("input[name=name]", "Nuria Roig")
    page.click("#confirm")
    expect(page.locator("#entries")).to_contain_text("Nuria Roig")
    page.goto(f"/e/{event.pk}/standings/")
    expect(page.locator('tr[data-entry="3"]')).to_contain_text("Nuria Roig")
    problems.assert_clean()
