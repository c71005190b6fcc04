"""Players at the table, on phones: their side's code → short result with the live score → the other
pair confirms; another table enters a hand card by card (only legal cards offered), undoes a
card, submits 48 cards and sees the verdict. Screenshots: test-artifacts/screenshots/table-*/."""

import pytest
from playwright.sync_api import expect

import engine
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import BoardResult, Table
from tournaments.services import results


def enter_code(page, code):
    page.goto("/table/")
    # As typed at a table: lower case, with a space in the middle.
    page.fill("input[name=code]", f"{code[:3].lower()} {code[3:].lower()}")
    page.click("main form button.primary")
    page.wait_for_selector("#boards")


def legal_game(board, trump):
    hand = engine.Hand(adapter.deal(board), trump, adapter.rules(board.event))
    while not hand.is_over:
        hand.play(hand.legal_cards()[-1])
    return [engine.card_token(c) for c in hand.played]


@pytest.mark.django_db(transaction=True)
def test_short_entry_confirm_and_card_by_card(running_event, new_page):
    event = running_event
    table1 = Table.objects.get(round__event=event, round__number=1, number=1)
    table2 = Table.objects.get(round__event=event, round__number=1, number=2)

    # --- table 1, NS: code, pair, short result with the score shown live ---
    page, problems, shoot = new_page("table-entry", phone=True)
    page.goto("/table/")
    shoot("code-form")
    enter_code(page, table1.code_ns)
    shoot("table-home")
    page.click("#board-1 a.button.primary")
    page.wait_for_selector("#short-form")
    shoot("short-form-empty")
    page.click("label.trump-copes")
    page.fill("input[name=totals_ns]", "45")
    assert page.input_value("input[name=totals_ew]") == "27"  # 72 − 45, shown live
    expect(page.locator("#live-score")).to_contain_text("NS 9 · EW 0", timeout=30_000)
    shoot("short-form-live-score")
    page.click("#short-form button[type=submit]")
    page.wait_for_selector("#board-1[data-status=entered]")
    assert "waiting for EW" in page.inner_text("#board-1")
    shoot("entered-waiting")

    # --- table 1, EW, on another phone: sees what NS entered and confirms ---
    ew_page, ew_problems, ew_shoot = new_page("table-entry-ew", phone=True)
    enter_code(ew_page, table1.code_ew)
    assert "NS entered this. Is it right?" in ew_page.inner_text("#board-1")
    ew_shoot("confirm-offered")
    ew_page.click("#board-1 form button.primary")
    ew_page.wait_for_selector("#board-1[data-status=confirmed]")
    ew_shoot("confirmed")
    assert BoardResult.objects.get(table=table1, board__number=1).status == "confirmed"

    # NS's page refreshes itself (every 10 s, no reload) and shows the confirmation.
    page.wait_for_selector("#board-1[data-status=confirmed]", timeout=25_000)
    shoot("ns-sees-confirmed")

    # --- table 2: its short result is in; EW enters the hand card by card ---
    board = event.boards.get(number=1)
    game = legal_game(board, "copes")
    verdict = engine.replay(
        {
            "format": "botifarra-play/1",
            "deal": {"dealer": board.dealer},
            "choice": {"delegated": False, "trump": "copes"},
            "play": game,
        },
        deal=adapter.deal(board),
        rules=adapter.rules(event),
    ).to_json()
    results.result_submit_short(
        table=table2,
        board_number=1,
        actor=Actor(table=table2, side="NS"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": verdict["totals"]},
    )
    p2, p2_problems, p2_shoot = new_page("table-entry-play", phone=True)
    enter_code(p2, table2.code_ew)
    p2.goto(f"/table/{table2.code_ns}/board/1/play/")
    p2.wait_for_selector('#play-app[data-count="0"]:not(.busy)')
    p2_shoot("play-start")

    def legal_count(k):
        record = {
            "format": "botifarra-play/1",
            "deal": {"dealer": board.dealer},
            "choice": {"delegated": False, "trump": "copes"},
            "play": game[:k],
        }
        return len(
            engine.legal_for_record(record, deal=adapter.deal(board), rules=adapter.rules(event))[
                "legal"
            ]
        )

    undone = False
    k = 0
    while k < 48:
        p2.wait_for_selector(f'#play-app[data-count="{k}"]:not(.busy)')
        if k in (0, 1, 5, 13, 30, 46):
            assert p2.locator("#legal-cards button.play-card").count() == legal_count(k), k
        if k == 6 and not undone:
            # A wrong tap, then Undo.
            other = p2.locator("#legal-cards button.play-card").first
            other.click()
            p2.wait_for_selector('#play-app[data-count="7"]:not(.busy)')
            p2_shoot("before-undo")
            p2.click("[data-action=undo]")
            undone = True
            continue
        if k == 9:
            p2_shoot("mid-hand")
        p2.click(f'#legal-cards button[data-card="{game[k]}"]')
        k += 1
    p2.wait_for_selector('#play-app[data-count="48"]:not(.busy)')
    assert p2.locator("#legal-cards button.play-card").count() == 0
    p2_shoot("all-48-in")
    p2.click("[data-action=submit]")
    p2.wait_for_selector("[data-role=verdict]:not([hidden])")
    text = p2.inner_text("[data-role=verdict]")
    assert "Complete hand" in text
    assert f"NS {verdict['totals']['NS']}, EW {verdict['totals']['EW']}" in text
    p2_shoot("verdict")
    result = BoardResult.objects.get(table=table2, board__number=1)
    assert result.status == BoardResult.Status.CONFIRMED
    assert result.play_records.get().record["play"] == game

    problems.assert_clean()
    ew_problems.assert_clean()
    p2_problems.assert_clean()


@pytest.mark.django_db(transaction=True)
def test_the_other_pair_confirms_on_this_phone_and_its_code_leaves_the_screen(
    running_event, new_page
):
    """The fresh-checkout audit: after "EW confirms on this phone", the page said the board was
    confirmed but still showed it waiting for EW, the box open with EW's code typed in it (a
    secret of theirs, on the phone handed back to NS), and stopped refreshing while open."""
    table = Table.objects.get(round__event=running_event, round__number=1, number=1)
    results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="NS"),
        data={"trump": "copes", "totals": {"NS": 45, "EW": 27}},
    )
    page, problems, shoot = new_page("table-confirm-here", phone=True)
    enter_code(page, table.code_ns)
    page.click("#board-1 details.tp-confirm-here summary")
    page.fill("#other-code-1", table.code_ew)
    page.click("#board-1 details.tp-confirm-here button[type=submit]")
    page.wait_for_selector("#board-1[data-status=confirmed]", timeout=15_000)
    shoot("confirmed-here")
    assert table.code_ew not in page.content()
    assert page.locator("#board-1 details[open]").count() == 0
    assert BoardResult.objects.get(table=table, board__number=1).status == "confirmed"
    problems.assert_clean()
