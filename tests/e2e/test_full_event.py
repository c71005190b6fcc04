"""A whole event in a real browser: an organiser creates a Swiss event of 16 pairs (3 rounds of
4 boards), registers the pairs from a CSV file, starts it and runs every round; the tables enter
their results (two tables per round in the browser on phones, the other six through the REST API
with table tokens); in round 1 a hand is entered card by card, a table pastes a record with an
illegal card and another pair's entries conflict, and the referee rules both; the organiser closes
each round, accepts the proposed pairings, finishes and publishes the event. The public event
page reveals the seed, and the public standings, a traveller and the standings PDF agree with
standings the test computes itself from the scores it entered (tests/e2e/journey.py, never
``scoring/``).

Screenshots of every step: test-artifacts/screenshots/full-event/ (NN-step.png).
"""

import hashlib
import io
import json
import random
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

import engine
from engine import random_play
from tests.e2e.journey import (
    Ledger,
    Shots,
    TableApi,
    cell_number,
    confirm_entry,
    enter_code,
    fill_short,
    leave,
    log_in,
    multiplier,
    penalty_score,
    round_tables,
    short_entry,
    short_score,
)
from tests.factories import UserFactory
from tournaments import play as adapter
from tournaments.models import Board, Event

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
EVENT_NAME = "Open de Botifarra de Valls"
PLAYERS = [
    ("Anna Puig", "Jordi Vila"),
    ("Marta Soler", "Pere Riera"),
    ("Laia Costa", "Joan Serra"),
    ("Núria Font", "Josep Roca"),
    ("Montse Pla", "Xavier Mas"),
    ("Carme Rovira", "Albert Camps"),
    ("Rosa Vidal", "Miquel Pons"),
    ("Teresa Prat", "Lluís Ferrer"),
    ("Pilar Sala", "Ramon Bosch"),
    ("Mercè Gil", "Enric Martí"),
    ("Glòria Comas", "Jaume Oliver"),
    ("Eulàlia Roig", "Ferran Bou"),
    ("Dolors Pujol", "Quim Rius"),
    ("Roser Camps", "Oriol Nadal"),
    ("Imma Vives", "Sergi Bas"),
    ("Judit Serra", "Marc Rovira"),
]
CSV = "player1,player2,name,club\n" + "".join(
    f"{a},{b},,{'Valls' if i % 3 else 'Reus'}\n" for i, (a, b) in enumerate(PLAYERS)
)
NAMES = {i: f"{a} – {b}" for i, (a, b) in enumerate(PLAYERS, start=1)}
TRUMPS = ["oros", "copes", "espases", "bastos", "botifarra"]
ROUNDS, BOARDS, PAIRS = 3, 4, 16


def random_short(rng: random.Random, dealer: str) -> tuple[dict, tuple[int, int]]:
    """A short result as a club's software would send it, and its score by R5/R9."""
    trump = rng.choice(TRUMPS)
    totals_ns = rng.randint(14, 58)
    calls = 1 if rng.random() < 0.2 else 0
    opponent = "E" if dealer in "NS" else "N"  # the dealer's pair chooses; the other calls
    data = {
        "delegated": False,
        "trump": trump,
        "doubles": [{"seat": opponent, "call": "contro"}] if calls else [],
        "totals": {"NS": totals_ns, "EW": 72 - totals_ns},
    }
    return data, short_score(totals_ns, multiplier(trump, calls))


def legal_game(board: Board, trump: str, rng: random.Random) -> list[str]:
    hand = engine.Hand(adapter.deal(board), trump, adapter.rules(board.event))
    while not hand.is_over:
        hand.play(rng.choice(hand.legal_cards()))
    return [engine.card_token(c) for c in hand.played]


def record_of(board: Board, trump: str, play: list[str]) -> dict:
    return adapter.record(board, trump=trump, cards=play)


def illegal_record(board: Board) -> dict:
    for seed in range(1, 100):
        play = random_play(
            adapter.deal(board),
            "copes",
            adapter.rules(board.event),
            random.Random(seed),
            illegal_at=12,
        )
        if len(play) < 48:
            return record_of(board, "copes", play)
    raise AssertionError("no illegal card found")


def legal_count(board: Board, trump: str, played: list[str]) -> int:
    return len(
        engine.legal_for_record(
            record_of(board, trump, played),
            deal=adapter.deal(board),
            rules=adapter.rules(board.event),
        )["legal"]
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_whole_event_from_creation_to_published_results(new_page):
    rng = random.Random(2025)
    shot = Shots("full-event")
    ledger = Ledger()
    UserFactory(username="montse")  # organisers' accounts are made by staff (organisers.md §0)
    referee = UserFactory(username="arbitre")
    pages = {}

    def context(name: str, *, phone: bool = False):
        page, problems, _shoot = new_page("full-event", phone=phone)
        pages[name] = (page, problems)
        return page

    # --- the organiser: log in, create the event, register 16 pairs from a CSV file ----------
    org = context("organiser")
    log_in(org, "montse")
    shot(org, "login")
    org.click("text=New event")
    org.fill("#id_name", EVENT_NAME)
    org.fill("#id_club_name", "Club Botifarra Valls")
    org.fill("#id_venue", "Casal de Valls")
    org.fill("#id_rounds_count", str(ROUNDS))
    org.fill("#id_boards_per_round", str(BOARDS))
    shot(org, "event-form")
    org.click("text=Create the event")
    org.wait_for_selector("#next-step")
    shot(org, "event-created")
    event = Event.objects.get(name=EVENT_NAME)
    assert (event.format, event.match_mode, event.ranking_method) == ("swiss", "boards", "wins")
    assert (event.rounds_count, event.boards_per_round) == (ROUNDS, BOARDS)
    event.referees.add(referee)  # done by the administrator in the admin (referees.md)

    org.click("#next-step")  # Open registration
    org.click("#next-step")  # Register pairs
    org.set_input_files(
        "#id_file", files=[{"name": "pairs.csv", "mimeType": "text/csv", "buffer": CSV.encode()}]
    )
    org.click("#csv-form button[type=submit]")
    org.wait_for_selector("#preview-rows")
    assert org.locator("#preview-rows tbody tr").count() == PAIRS
    assert event.entries.count() == 0  # nothing registered before the confirmation
    shot(org, "csv-preview")
    org.click("#confirm-import")
    org.wait_for_selector(f"text={PAIRS} pairs registered.")
    assert org.locator("#entries tbody tr").count() == PAIRS
    shot(org, "pairs-registered")
    assert {e.number: e.pair.name for e in event.entries.select_related("pair")} == NAMES

    # --- start: the boards are dealt --------------------------------------------------------
    org.click("text=Dashboard")
    assert org.inner_text("#next-step") == "Start the event"
    org.click("#next-step")
    org.wait_for_selector("text=Start the event?")
    shot(org, "start-confirm")
    org.click("#confirm")
    expect(org.locator("#boards-ready")).to_have_text("12", timeout=20_000)
    shot(org, "boards-dealt")
    event.refresh_from_db()
    boards = {b.number: b for b in Board.objects.filter(event=event).select_related("event")}
    assert sorted(boards) == list(range(1, ROUNDS * BOARDS + 1))

    api = TableApi(context("api").context.request)
    phones = {name: context(name, phone=True) for name in ("t1-NS", "t1-EW", "t2-NS", "t2-EW")}
    ref = context("referee")
    log_in(ref, "arbitre")

    for number in range(1, ROUNDS + 1):
        # --- the organiser proposes round 1 (by lot); closing a round proposed the next one
        # (from the standings, by the propose_pairings task): the organiser checks it ----------
        org.goto(f"/manage/{event.pk}/")
        if number == 1:
            assert org.inner_text("#next-step") == "Propose round 1"
            org.click("#next-step")
        else:
            assert org.inner_text("#next-step") == f"Open round {number}"
            org.goto(f"/manage/{event.pk}/rounds/{number}/")
        org.wait_for_selector("#open-round")
        rows = round_tables(org)
        assert len(rows) == PAIRS // 2
        seated = sorted([r["ns"] for r in rows] + [r["ew"] for r in rows])
        assert seated == list(range(1, PAIRS + 1))
        assert not any(ledger.met(r["ns"], r["ew"]) for r in rows), "a rematch was proposed"
        if number == 2:
            # Swiss: winners meet winners, and table 1 is the table of the leading pair.
            after_1 = ledger.standings(list(NAMES), event.seed)
            assert after_1[0].number in (rows[0]["ns"], rows[0]["ew"])
            mp = {r.number: r.match_points for r in after_1}
            groups = [sum(1 for v in mp.values() if v == x) for x in set(mp.values())]
            if all(g % 2 == 0 for g in groups):
                assert all(mp[r["ns"]] == mp[r["ew"]] for r in rows), rows
        shot(org, f"round-{number}-proposed")
        org.click("#open-round")  # the proposal is accepted as it is
        org.wait_for_selector("#round-status.open")
        rows = round_tables(org)  # the codes as the organiser reads them out
        assert all(len(c) == 6 for r in rows for c in r["codes"].values())
        ledger.seat(number, rows)
        numbers = list(event.board_numbers(number))
        assert org.locator("#tables thead th.board-col").all_inner_texts() == [
            f"Board {b}" for b in numbers
        ]
        shot(org, f"round-{number}-open")
        if number == 1:
            org.click("text=Print the table cards (with the codes)")
            org.wait_for_selector(".table-card")
            assert sorted(org.locator(".tc-code").all_inner_texts()) == sorted(
                c for r in rows for c in r["codes"].values()
            )
            shot(org, "table-cards")

        # --- table 1, in the browser: NS enters, EW confirms (round 1: board 1 card by card) -
        t1, t2 = rows[0], rows[1]
        ns, ew = phones["t1-NS"], phones["t1-EW"]
        if number == 1:
            ns.goto("/table/")
            shot(ns, "table-code-form")
        enter_code(ns, t1["codes"]["NS"])
        if number == 1:
            shot(ns, "table-page")
        first = numbers[0]
        game_trump = rng.choice(TRUMPS[:4])
        game = legal_game(boards[first], game_trump, rng) if number == 1 else []
        for b in numbers:
            if b == first and number == 1:
                verdict = engine.replay(
                    record_of(boards[b], game_trump, game),
                    deal=adapter.deal(boards[b]),
                    rules=adapter.rules(event),
                ).to_json()
                totals_ns = verdict["totals"]["NS"]
                trump = game_trump
            else:
                totals_ns, trump = rng.randint(14, 58), rng.choice(TRUMPS)
            score = short_score(totals_ns, multiplier(trump))
            if b == first and number == 1:
                assert score == (verdict["score"]["NS"], verdict["score"]["EW"])
                ns.click(f"#board-{b} a.button.primary")
                ns.wait_for_selector("#short-form")
                fill_short(ns, trump=trump, totals_ns=totals_ns, expect=score)
                shot(ns, "short-form-live-score")
                ns.click("#short-form button[type=submit]")
                ns.wait_for_selector(f"#board-{b}[data-status=entered]")
                shot(ns, "entered-waiting")
            else:
                short_entry(ns, b, trump=trump, totals_ns=totals_ns, expect=score)
            ledger.record(number, t1["table"], b, score)
        leave(ns)

        enter_code(ew, t1["codes"]["EW"])
        if number == 1:
            assert "NS entered this. Is it right?" in ew.inner_text(f"#board-{first}")
            shot(ew, "confirm-offered")
            # Board 1 card by card: only the legal cards are offered, 48 taps, the verdict.
            ew.click(f"#board-{first} a:has-text('Card by card')")
            ew.wait_for_selector('#play-app[data-count="0"]:not(.busy)')
            for k, card in enumerate(game):
                ew.wait_for_selector(f'#play-app[data-count="{k}"]:not(.busy)')
                if k in (0, 1, 2, 5, 13, 22, 30, 41, 47):
                    offered = ew.locator("#legal-cards button.play-card")
                    assert offered.count() == legal_count(boards[first], game_trump, game[:k])
                if k == 17:
                    shot(ew, "card-by-card")
                    # The status line: whole translated sentences, filled in by table.js.
                    status = ew.inner_text("[data-role=status]")
                    assert "17/48 cards played" in status and " to play" in status
                ew.click(f'#legal-cards button[data-card="{card}"]')
            ew.wait_for_selector('#play-app[data-count="48"]:not(.busy)')
            ew.click("[data-action=submit]")
            ew.wait_for_selector("[data-role=verdict]:not([hidden])")
            text = ew.inner_text("[data-role=verdict]")
            assert "Complete hand" in text
            assert f"NS {verdict['totals']['NS']}, EW {verdict['totals']['EW']}" in text
            shot(ew, "card-by-card-verdict")
            ew.goto(f"/table/{t1['codes']['NS']}/")
            assert ew.get_attribute(f"#board-{first}", "data-status") == "confirmed"
        for b in numbers:
            if ew.get_attribute(f"#board-{b}", "data-status") != "confirmed":
                confirm_entry(ew, b)
        if number == 1:
            shot(ew, "table-1-all-confirmed")
        leave(ew)

        # --- table 2, in the browser: round 1 has a conflict and an illegal card -------------
        ns, ew = phones["t2-NS"], phones["t2-EW"]
        enter_code(ns, t2["codes"]["NS"])
        entered = {}
        for b in numbers:
            trump = "copes" if b == numbers[3] else rng.choice(TRUMPS)
            totals_ns = rng.randint(14, 58)
            entered[b] = (trump, totals_ns)
            score = short_score(totals_ns, multiplier(trump))
            short_entry(ns, b, trump=trump, totals_ns=totals_ns, expect=score)
            ledger.record(number, t2["table"], b, score)
        leave(ns)
        enter_code(ew, t2["codes"]["EW"])
        if number == 1:
            conflict, illegal = numbers[2], numbers[3]
            for b in numbers[:2]:
                confirm_entry(ew, b)
            # EW's totals differ: "It's different" → their version → disputed (conflict).
            trump, totals_ns = entered[conflict]
            ew_totals = totals_ns + 6 if totals_ns < 50 else totals_ns - 6
            ew.click(f'#board-{conflict} a:has-text("It\'s different")')
            ew.wait_for_selector("#short-form")
            ew_score = short_score(ew_totals, multiplier(trump))
            fill_short(ew, trump=trump, totals_ns=ew_totals, expect=ew_score)
            shot(ew, "conflict-their-version")
            ew.click("#short-form button[type=submit]")
            ew.wait_for_selector(f"#board-{conflict}[data-status=disputed]")
            ledger.record(number, t2["table"], conflict, ew_score)  # the referee accepts it
            # EW pastes a play record with an illegal card from their club's software.
            record = illegal_record(boards[illegal])
            bad = engine.replay(
                record, deal=adapter.deal(boards[illegal]), rules=adapter.rules(event)
            ).to_json()
            assert bad["outcome"] == "illegal"
            offender = "NS" if bad["seat"] in ("N", "S") else "EW"
            ew.click(f"#board-{illegal} a:has-text('Card by card')")
            ew.wait_for_selector("details.tp-paste")
            ew.click("details.tp-paste summary")
            ew.fill("#id_record", json.dumps(record))
            ew.click("details.tp-paste button.primary")
            ew.wait_for_selector(".tp-verdict")
            text = ew.inner_text(".tp-verdict")
            assert f"Illegal play at trick {bad['trick']}" in text and bad["card"] in text
            shot(ew, "illegal-card-verdict")
            ledger.record(number, t2["table"], illegal, penalty_score(offender, 1))
            ew.goto(f"/table/{t2['codes']['NS']}/")
            assert ew.get_attribute(f"#board-{illegal}", "data-status") == "disputed"
            shot(ew, "table-2-disputed")
        else:
            for b in numbers:
                confirm_entry(ew, b)
        leave(ew)

        # --- the six other tables through the API, with table tokens ------------------------
        for row in rows[2:]:
            ns_token, table_id = api.token(row["codes"]["NS"], "NS")
            ew_token, _table = api.token(row["codes"]["EW"], "EW")
            for b in numbers:
                data, score = random_short(rng, boards[b].dealer)
                result = api.enter(ns_token, table_id, b, data)
                assert (result["score"]["NS"], result["score"]["EW"]) == score
                confirmed = api.confirm(ew_token, result["id"], result["version"])
                assert confirmed["status"] == "confirmed"
                ledger.record(number, row["table"], b, score)

        # --- the referee rules the two disputes of round 1 ----------------------------------
        if number == 1:
            org.goto(f"/manage/{event.pk}/rounds/1/")
            assert org.locator("#tables .badge.disputed").count() == 2
            shot(org, "round-1-two-disputes")
            ref.goto(f"/referee/event/{event.pk}/")
            queue = ref.locator("table.queue[aria-describedby=open] tbody tr")
            assert queue.count() == 2
            shot(ref, "referee-queue")

            queue.filter(has_text="illegal card").get_by_role("link", name="Open").click()
            ref.wait_for_selector("#replay")
            penalty = ref.locator("#rule-penalty")
            assert penalty.get_attribute("open") is not None
            assert penalty.locator(
                f"input[name=penalty-offending_pair][value={offender}]"
            ).is_checked()
            penalty.locator("textarea[name=penalty-explanation]").fill(
                f"{bad['card']} broke the rules at trick {bad['trick']}: R10 penalty."
            )
            shot(ref, "referee-penalty")
            penalty.get_by_role("button", name="Rule").click()
            ref.wait_for_selector("ol.rulings li")
            assert "Ruling recorded" in ref.inner_text(".messages")

            ref.goto(f"/referee/event/{event.pk}/")
            queue.filter(has_text="different results").get_by_role("link", name="Open").click()
            ref.wait_for_selector("#rule-accept")
            accept = ref.locator("#rule-accept")
            if accept.get_attribute("open") is None:
                accept.locator("summary").click()
            choice = accept.locator("label").filter(has_text="Submission 2")
            assert "EW" in choice.inner_text() and str(ew_totals) in choice.inner_text()
            choice.locator("input[type=radio]").check()
            accept.locator("textarea[name=accept-explanation]").fill(
                "Both pairs agree that EW's totals are right."
            )
            shot(ref, "referee-accept")
            accept.get_by_role("button", name="Rule").click()
            ref.wait_for_selector("ol.rulings li")
            assert "Ruling recorded" in ref.inner_text(".messages")
            ref.goto(f"/referee/event/{event.pk}/")
            assert queue.count() == 0
            assert ref.locator("table.queue[aria-describedby=recent] tbody tr").count() == 2
            shot(ref, "referee-queue-empty")
            ref.wait_for_load_state("networkidle")
            # The players read the referee's explanations on their table page.
            ns = phones["t2-NS"]
            enter_code(ns, t2["codes"]["NS"])
            assert ns.get_attribute(f"#board-{illegal}", "data-status") == "ruled"
            assert "R10 penalty" in ns.inner_text(f"#board-{illegal} .tp-ruling")
            assert "EW's totals are right" in ns.inner_text(f"#board-{conflict} .tp-ruling")
            shot(ns, "players-read-the-rulings")
            leave(ns)

        # --- the organiser closes the round -------------------------------------------------
        org.goto(f"/manage/{event.pk}/rounds/{number}/")
        badges = org.locator("#tables td.board-col .badge")
        assert badges.count() == len(rows) * BOARDS
        assert set(badges.all_inner_texts()) <= {"confirmed", "ruled"}
        org.click("#close-round")
        org.wait_for_selector("#round-status.closed")
        shot(org, f"round-{number}-closed")

    # --- finish: the seed is revealed; publish ----------------------------------------------
    org.goto(f"/manage/{event.pk}/")
    assert org.inner_text("#next-step") == "Finish the event"
    org.click("#next-step")
    org.wait_for_selector("text=Finish the event?")
    shot(org, "finish-confirm")
    org.click("#confirm")
    org.wait_for_selector("#seed")
    event.refresh_from_db()
    assert event.status == "finished"
    seed = event.seed
    assert org.inner_text("#seed") == seed
    shot(org, "seed-revealed")
    assert org.inner_text("#next-step") == "Publish the results pages"
    org.click("#next-step")
    org.wait_for_selector(".badge.published")
    shot(org, "published")

    # --- the public pages, for anybody -------------------------------------------------------
    expected = ledger.standings(list(NAMES), seed)
    pub = context("public")
    pub.goto(f"/e/{event.pk}/")
    commitment = hashlib.sha256(seed.encode()).hexdigest()
    assert pub.inner_text("#seed") == seed
    assert pub.inner_text("#commitment") == commitment == event.commitment
    shot(pub, "public-event-seed")

    pub.goto(f"/e/{event.pk}/standings/")
    lines = pub.locator("table.standings tbody tr")
    assert lines.count() == PAIRS
    shown = []
    for i in range(PAIRS):
        cells = [c.strip() for c in lines.nth(i).locator("td, th").all_inner_texts()]
        shown.append(cells)
    want = [
        [
            str(r.rank),
            str(r.number),
            NAMES[r.number],
            str(r.match_points),
            str(r.wins),
            str(r.draws),
            str(r.losses),
            str(r.points_for),
            str(r.points_against),
            str(r.point_diff),
            str(r.buchholz),
            f"{float(r.duplicate_pct):.1f}",
            str(r.boards),
        ]
        for r in expected
    ]
    got = [[cell_number(c[0])] + c[1:] for c in shown]
    assert got == want
    shot(pub, "public-standings")

    # A traveller: round 1's illegal-card board, the penalty at table 2, compared at 8 tables.
    board = list(event.board_numbers(1))[3]
    pub.goto(f"/e/{event.pk}/boards/{board}/")
    lines = pub.locator("table.traveller-table tbody tr")
    assert lines.count() == PAIRS // 2
    for table, line in sorted(ledger.board_lines(board).items()):
        cells = [c.strip() for c in lines.nth(table - 1).locator("td, th").all_inner_texts()]
        assert cells[0] == str(table)
        assert cells[8:] == [
            str(line["ns"]),
            str(line["ew"]),
            str(line["mp_ns"]),
            str(line["mp_ew"]),
            f"{float(line['pct_ns']):.1f}",
            f"{float(line['pct_ew']):.1f}",
        ], (table, cells)
    shot(pub, "public-traveller")

    # The standings PDF, downloaded from the standings page.
    dl = context("download")
    dl.goto(f"/e/{event.pk}/standings/")
    with dl.expect_download() as download_info:
        dl.get_by_role("link", name="PDF").click()
    folder = ARTIFACTS / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "full-event-standings.pdf"
    download_info.value.save_as(str(target))
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(target.read_bytes())).pages)
    (folder / "full-event-standings.txt").write_text(text, encoding="utf-8")
    flat = " ".join(text.split()).replace("=", "")
    # The pair's name is a clipped block of its own in the PDF (a long name stays on one line),
    # so the text extractor gives the names after the figures: both in the standings' order.
    positions, name_positions = [], []
    for r in expected:
        row = (
            f"{r.rank} {r.number} {r.match_points} {r.wins} {r.draws} "
            f"{r.losses} {r.points_for} {r.points_against} {r.point_diff}"
        )
        assert row in flat, row
        positions.append(flat.index(row))
        assert NAMES[r.number] in flat, NAMES[r.number]
        name_positions.append(flat.index(NAMES[r.number]))
    assert positions == sorted(positions)
    assert name_positions == sorted(name_positions)

    # --- no console error and no failed request on any page ---------------------------------
    for name, (page, problems) in pages.items():
        if page.url != "about:blank":
            page.wait_for_load_state("networkidle")
        if name == "download":  # Chromium reports a navigation turned download as aborted
            assert all("/pdf/standings/" in e for e in problems.errors), problems.errors
        else:
            problems.assert_clean()
