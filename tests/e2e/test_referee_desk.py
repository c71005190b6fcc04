"""The referee's desk in a browser: queue → dispute → replay to the illegal card → penalty →
the standings change. Screenshots of each step go to test-artifacts/screenshots/referee-desk/."""

import random

import pytest

from engine import random_play
from tests.conftest import wait_for
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.journey import log_in
from tests.factories import UserFactory
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.labels import RULE_TEXT
from tournaments.models import BoardResult, Ruling, StandingsSnapshot, Table
from tournaments.services import results
from tournaments.services.standings import standings_recompute


def illegal_record(board, event):
    for seed in range(1, 80):
        play = random_play(
            adapter.deal(board), "copes", adapter.rules(event), random.Random(seed), illegal_at=14
        )
        if len(play) < 48:
            return {
                "format": "botifarra-play/1",
                "ruleset": event.ruleset,
                "deal": {"dealer": board.dealer},
                "choice": {"delegated": False, "trump": "copes"},
                "doubles": [],
                "play": play,
            }
    raise AssertionError("no illegal play found")


def points_for(event, entry):
    snap = StandingsSnapshot.objects.filter(event=event, after_round=1).first()
    if snap is None:
        return None
    return next(r["points_for"] for r in snap.rows if r["entry"] == entry.pk)


@pytest.mark.django_db(transaction=True)
def test_referee_replays_to_the_illegal_card_and_applies_the_penalty(running_event, new_page):
    event = running_event
    referee = UserFactory(username="referee")
    event.referees.add(referee)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    board = event.boards.get(number=1)
    out = results.result_submit_play_record(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="NS"),
        record=illegal_record(board, event),
    )
    verdict = out.result.play_records.get().verdict
    steps = len(out.result.play_records.get().record["play"])
    dispute = out.result.disputes.get()
    offender = out.result.offending_pair
    victims = table.ew if offender == "NS" else table.ns
    penalty = 36 * verdict["multiplier"]
    # Board 2 at the table ends 36–36 (nobody scores): the match is over once board 1 is ruled,
    # and only a match that is over counts in the standings.
    level = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 36, "EW": 36}}
    for side in ("NS", "EW"):
        results.result_submit_short(
            table=table, board_number=2, actor=Actor(table=table, side=side), data=level
        )
    standings_recompute(event.pk)
    assert points_for(event, victims) == 0  # the disputed board does not count yet

    page, problems, shoot = new_page("referee-desk")
    log_in(page, "referee")

    # The queue: the open dispute with round, table, board and reason.
    page.goto(f"/referee/event/{event.pk}/")
    row = page.locator("table.queue tbody tr").first
    assert row.locator("td").nth(1).inner_text().strip() == "1"
    assert "illegal card" in row.inner_text()
    shoot("queue")
    row.get_by_role("link", name="Open").click()
    page.wait_for_url(f"**/referee/dispute/{dispute.pk}/")

    # The replay: step forward with the button until it stops on the illegal card.
    replay = page.locator("#replay")
    forward = replay.get_by_role("button", name="Next card")
    assert replay.is_visible()
    assert "Card 0 of" in replay.locator(".replay-counter").inner_text()
    for _ in range(steps + 3):  # more clicks than cards: forward must stop at the illegal one
        if forward.is_disabled():
            break
        forward.click()
        if replay.get_attribute("data-position") == "4":
            shoot("replay-first-trick")
    assert forward.is_disabled()
    assert replay.get_attribute("data-position") == str(steps)
    highlighted = replay.locator(".rp-trick .card-token.illegal")
    assert highlighted.count() == 1
    assert highlighted.get_attribute("data-card") == verdict["card"]
    box = replay.locator(".replay-illegal")
    assert box.is_visible()
    assert str(RULE_TEXT[verdict["rule"]]) in box.locator(".rule-sentence").inner_text()
    legal = box.locator(".legal-cards .card-token")
    assert [legal.nth(i).get_attribute("data-card") for i in range(legal.count())] == verdict[
        "legal"
    ]
    assert (
        f"NS {verdict['score']['NS']} · EW {verdict['score']['EW']}"
        in box.locator(".penalty").inner_text()
    )
    shoot("replay-illegal-card")
    replay.screenshot(path=str(SCREENSHOTS / "referee-desk" / "replay-illegal-laptop.png"))

    # Back and forth with the keys.
    page.keyboard.press("ArrowLeft")
    assert replay.get_attribute("data-position") == str(steps - 1)
    assert not box.is_visible()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert replay.get_attribute("data-position") == str(steps)

    # The penalty, offending pair preselected from the verdict.
    form = page.locator("#rule-penalty")
    assert form.get_attribute("open") is not None
    assert form.locator(f"input[name=penalty-offending_pair][value={offender}]").is_checked()
    form.locator("textarea[name=penalty-explanation]").fill(
        "The card broke the rules: R10 penalty for the offending pair."
    )
    shoot("penalty-form")
    form.get_by_role("button", name="Rule").click()
    page.wait_for_load_state()
    assert "Ruling recorded" in page.locator(".messages").inner_text()
    ruling = page.locator("ol.rulings li").first
    assert "R10 penalty for the offending pair" in ruling.inner_text()
    assert "Revise the ruling" in page.content()
    shoot("ruled")

    assert BoardResult.objects.get(pk=out.result.pk).status == BoardResult.Status.RULED
    assert Ruling.objects.get().referee == referee
    # The ruling queued the recomputation (tasks run in-process here): the victims now have
    # the penalty in the standings.
    assert wait_for(lambda: points_for(event, victims) == penalty, timeout=10)

    # The players read the explanation on their table page.
    players, players_problems, players_shoot = new_page("referee-desk-players", phone=True)
    players.goto("/table/")
    players.fill("#id_code", table.code_ew)
    players.get_by_role("button", name="Go to my table").click()
    players.wait_for_selector("#boards")
    assert "R10 penalty for the offending pair" in players.locator(".tp-ruling").first.inner_text()
    players_shoot("table-page-ruling")

    # The same replay on a phone, for the documentation.
    phone, phone_problems, phone_shoot = new_page("referee-desk-phone", phone=True)
    log_in(phone, "referee")
    phone.goto(f"/referee/dispute/{dispute.pk}/")
    phone.locator("#replay").get_by_role("button", name="Next card").focus()
    phone.keyboard.press("End")
    assert phone.locator("#replay").get_attribute("data-position") == str(steps)
    phone.locator("#replay").screenshot(
        path=str(SCREENSHOTS / "referee-desk-phone" / "replay-illegal-phone.png"), scale="css"
    )
    phone_shoot("dispute-phone")
    for p in (page, phone, players):  # let the last requests end before the live server stops
        p.wait_for_load_state("networkidle")
    problems.assert_clean()
    players_problems.assert_clean()
    phone_problems.assert_clean()


@pytest.mark.django_db(transaction=True)
def test_a_referee_reviews_a_board_nobody_disputed_from_the_round_page(running_event, new_page):
    event = running_event
    referee = UserFactory(username="referee")
    event.referees.add(referee)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    for side in ("NS", "EW"):
        results.result_submit_short(
            table=table, board_number=1, actor=Actor(table=table, side=side), data=data
        )
    result = BoardResult.objects.get(table=table, board__number=1)
    assert result.status == BoardResult.Status.CONFIRMED

    page, problems, shoot = new_page("referee-review", phone=True)
    log_in(page, "referee")
    page.goto(f"/manage/{event.pk}/rounds/1/")
    page.get_by_role("link", name="Review").first.click()
    page.wait_for_url(f"**/results/{result.pk}/review/")
    shoot("review-form")
    page.fill("#id_reason", "The EW pair says the count of points was wrong.")
    page.get_by_role("button", name="Open the review").click()
    page.wait_for_url("**/referee/dispute/*/")
    assert "The EW pair says the count of points was wrong." in page.content()
    shoot("review-opened")
    assert BoardResult.objects.get(pk=result.pk).status == BoardResult.Status.DISPUTED
    page.wait_for_load_state("networkidle")
    problems.assert_clean()
