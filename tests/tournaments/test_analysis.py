"""The perfect-play analysis in the product (issue 19): stored per board and per play record by
the services, queued on the ``analysis`` queue, and shown only to whoever may see the board's
cards (tournaments/policy.py), on every route: hand records, PDFs, the traveller, the table's
page, the referee's desk and the API.

Whole deals are slow to solve in pure Python, so the boards here hold the hand-made deal of
tests/engine/solver_cases.py whose values are known without a search (North–South hold the six
highest cards of every suit: 72 under every trump). Judging every card of a whole record needs
the C solver: those tests are skipped without it.
"""

import io
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

import engine
from config.celery import app
from engine.par import par
from engine.solver import Solver
from tests.conftest import wait_for
from tests.engine.solver_cases import needs_c_solver, top_six_deal
from tests.factories import UserFactory
from tests.tournaments.public_event import OPEN_ROUND_BOARDS, build_played_event
from tournaments import play, queue
from tournaments.actors import Actor
from tournaments.models import (
    Board,
    BoardAnalysis,
    BoardResult,
    Event,
    PlayRecord,
    PlayRecordAnalysis,
    Round,
    Table,
)
from tournaments.services import analysis, events, results

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")
# What a page shows of an analysis (and nothing else on the site says).
MARKS = ("dd-analysis", "Par:", "perfect play", "card-costs")


def top_six(board: Board) -> Board:
    """Give the board the deal whose value is 72 for North–South under every trump."""
    deal = top_six_deal(engine.Seat.from_str(board.dealer))
    board.hands = deal.hands_json()
    board.save(update_fields=["hands"])
    return board


def analyse_boards(event: Event) -> None:
    for board in event.boards.all():
        analysis.board_analyse(board_id=board.pk)


def assert_hidden(content: str) -> None:
    lowered = content.lower()
    for mark in MARKS:
        assert mark.lower() not in lowered, mark


@pytest.fixture
def top_six_event(running_event):
    for board in running_event.boards.all():
        top_six(board)
    return running_event


@pytest.fixture
def played_event(top_six_event, organiser):
    """Round 1 closed, round 2 open with results (boards 3 and 4), published; every board
    analysed."""
    event = build_played_event(top_six_event, organiser)
    analyse_boards(event)
    return event


# --- services ----------------------------------------------------------------------------------


def test_a_board_analysis_stores_each_trumps_total_and_the_par(top_six_event):
    board = top_six_event.boards.get(number=1)
    assert analysis.board_analyse(board_id=board.pk) is True
    stored = BoardAnalysis.objects.get(board=board)
    assert stored.points == dict.fromkeys(TRUMPS, 72)
    rules = play.rules(top_six_event)
    expected = par(dealer=engine.Seat.from_str(board.dealer), points=stored.points, rules=rules)
    assert stored.par == expected.to_json()
    assert stored.par["capot"] is True and stored.par["totals"] == {"NS": 72, "EW": 0}
    assert (stored.ruleset, stored.backend) == (top_six_event.ruleset, engine.solver.BACKEND)


def test_analysing_twice_keeps_the_first_and_new_rules_analyse_again(top_six_event):
    board = top_six_event.boards.get(number=2)
    assert analysis.board_analyse(board_id=board.pk) is True
    first = BoardAnalysis.objects.get(board=board).computed_at
    assert analysis.board_analyse(board_id=board.pk) is False
    assert BoardAnalysis.objects.get(board=board).computed_at == first
    Event.objects.filter(pk=top_six_event.pk).update(ruleset="obligada")
    assert analysis.board_analyse(board_id=board.pk) is True
    stored = BoardAnalysis.objects.get(board=board)
    assert stored.ruleset == "obligada" and BoardAnalysis.objects.filter(board=board).count() == 1


def test_pending_lists_what_is_not_analysed_and_a_missing_board_is_nothing_to_do(top_six_event):
    boards = list(top_six_event.boards.order_by("number"))
    assert analysis.analysis_pending(top_six_event).boards == [b.pk for b in boards]
    analysis.board_analyse(board_id=boards[0].pk)
    assert analysis.analysis_pending(top_six_event).boards == [b.pk for b in boards[1:]]
    assert analysis.board_analyse(board_id=10**9) is False
    assert analysis.record_analyse(play_record_id=10**9) is False


def test_with_tasks_in_process_nothing_is_solved_while_boards_are_dealt(running_event):
    """The request that deals the boards or closes a round never waits for a solve."""
    event = running_event
    event.boards.all().delete()
    assert events.boards_generate(event=event) == event.total_boards
    queue.request_analysis(event)
    assert not BoardAnalysis.objects.filter(board__event=event).exists()


def _example_record() -> dict:
    return json.loads((ROOT / "docs/examples/solve-record.json").read_text())


@needs_c_solver
def test_card_costs_of_a_stored_record_add_up_to_the_hand_total(running_event):
    """docs/analysis.md's example: South's opening 6o cost North–South 3 points (40 → 37)."""
    example = _example_record()
    Event.objects.filter(pk=running_event.pk).update(ruleset="lliure")
    board = running_event.boards.get(number=1)
    board.dealer, board.hands = example["deal"]["dealer"], example["deal"]["hands"]
    board.save(update_fields=["dealer", "hands"])
    table = Table.objects.get(round__event=running_event, round__number=1, number=1)
    outcome = results.result_submit_play_record(
        table=table, board_number=1, actor=Actor(table=table, side="NS"), record=example
    )
    stored = PlayRecord.objects.get(result=outcome.result)
    assert analysis.record_analyse(play_record_id=stored.pk) is True
    costs = PlayRecordAnalysis.objects.get(play_record=stored).costs
    assert len(costs) == 48
    assert (costs[0]["card"], costs[0]["value_before"], costs[0]["cost"]) == ("6o", 40, 3)
    spent = {"NS": 0, "EW": 0}
    for card in costs:
        spent[card["side"]] += card["cost"]
    assert costs[0]["value_before"] - spent["NS"] + spent["EW"] == stored.verdict["totals"]["NS"]
    assert analysis.record_analyse(play_record_id=stored.pk) is False


# --- who sees it: the hand records, the PDFs, the traveller ----------------------------------


def hand_records(client, event, query=""):
    return client.get(reverse("public:hand_records", args=[event.pk]) + query)


def test_the_public_hand_records_show_the_analysis_of_closed_rounds_only(client, played_event):
    page = hand_records(client, played_event).content.decode()
    assert page.count('class="dd-analysis') == 2  # boards 1 and 2 (round 1, closed)
    assert "Par:" in page
    refused = hand_records(client, played_event, "?round=2")
    assert refused.status_code == 403
    assert_hidden(refused.content.decode())


def test_organisers_see_the_analysis_beside_every_board_they_may_print(
    client, played_event, organiser
):
    client.force_login(organiser)
    page = hand_records(client, played_event, "?round=2").content.decode()
    assert page.count('class="dd-analysis') == len(OPEN_ROUND_BOARDS)


def test_a_board_not_yet_analysed_says_so_beside_its_hands(client, played_event):
    BoardAnalysis.objects.filter(board__event=played_event, board__number=1).delete()
    page = hand_records(client, played_event, "?round=1").content.decode()
    assert page.count('class="dd-analysis') == 1
    assert "not computed yet" in page


def fetch(client, event, kind, query=""):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client.get(reverse("public:pdf", args=[event.pk, kind]) + query)


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content) if response.streaming else response.content
    reader = PdfReader(io.BytesIO(data))
    return " ".join("\n".join(page.extract_text() for page in reader.pages).split())


def test_the_hand_records_pdf_carries_the_analysis(client, played_event):
    response = fetch(client, played_event, "hand-records", query="?round=1")
    assert pdf_text(response).count("Par:") == 2
    assert fetch(client, played_event, "hand-records", query="?round=2").status_code == 403


def test_the_travellers_pdf_carries_the_analysis_beside_the_hands_it_shows(client, played_event):
    text = pdf_text(fetch(client, played_event, "travellers", query="?round=1"))
    boards = played_event.board_numbers(1)
    assert text.count("Par:") == len(boards) and "NS vs par" in text
    assert "not computed yet" not in text
    BoardAnalysis.objects.filter(board__event=played_event, board__number=boards[0]).delete()
    text = pdf_text(fetch(client, played_event, "travellers", query="?round=1"))
    assert text.count("Par:") == len(boards) - 1 and text.count("not computed yet") == 1


def test_the_traveller_shows_par_and_each_result_against_it(client, played_event):
    response = client.get(reverse("public:traveller", args=[played_event.pk, 1]))
    page = response.content.decode()
    assert "Par:" in page and "NS vs par" in page
    par_json = BoardAnalysis.objects.get(board__event=played_event, board__number=1).par
    par_net = par_json["score"]["NS"] - par_json["score"]["EW"]
    for result in BoardResult.objects.filter(board__event=played_event, board__number=1):
        net = result.score_ns - result.score_ew
        assert f'<td class="num">{"+" if net - par_net > 0 else ""}{net - par_net}</td>' in page


def test_the_traveller_of_an_open_round_shows_nothing_to_a_player_of_it(client, played_event):
    user = UserFactory()
    table = Table.objects.get(round__event=played_event, round__number=2, number=1)
    table.ns.pair.player1.user = user
    table.ns.pair.player1.save()
    client.force_login(user)
    response = client.get(reverse("public:traveller", args=[played_event.pk, OPEN_ROUND_BOARDS[0]]))
    assert response.status_code == 403
    assert_hidden(response.content.decode())


def test_a_scorecard_shows_each_board_and_the_total_against_par(client, played_event):
    entry = played_event.entries.get(number=1)
    page = client.get(reverse("public:scorecard", args=[played_event.pk, 1])).content.decode()
    assert "vs par" in page
    pars = {
        a.board.number: a.par["score"]["NS"] - a.par["score"]["EW"]
        for a in BoardAnalysis.objects.filter(board__event=played_event).select_related("board")
    }
    total = 0
    # The public sees round 1 only (closed): its two boards, each against its par.
    for result in BoardResult.objects.filter(
        board__event=played_event, table__round__number=1
    ).select_related("table", "board"):
        if entry.pk not in (result.table.ns_id, result.table.ew_id):
            continue
        net = result.score_ns - result.score_ew
        if result.table.ew_id == entry.pk:
            net = -net
            vs = net + pars[result.board.number]
        else:
            vs = net - pars[result.board.number]
        total += vs
        assert f'<td class="num vs-par">{"+" if vs > 0 else ""}{vs}</td>' in page
    assert page.count('<td class="num vs-par">') == 3  # two boards and the total
    assert f'<td class="num vs-par">{"+" if total > 0 else ""}{total}</td></tr></tfoot>' in page


# --- the table's own page ----------------------------------------------------------------------


def holder(table, side="NS"):
    client = Client()
    assert client.post(reverse("table:enter"), {"code": table.code_for(side)}).status_code == 302
    return client


def legal_play(board, trump):
    hand = engine.Hand(play.deal(board), trump, play.rules(board.event))
    while not hand.is_over:
        hand.play(hand.legal_cards()[0])
    return [engine.card_token(c) for c in hand.played]


def submit_record(table, board, trump="copes"):
    record = play.record(board, trump=trump, cards=legal_play(board, trump))
    outcome = results.result_submit_play_record(
        table=table, board_number=board.number, actor=Actor(table=table, side="NS"), record=record
    )
    return PlayRecord.objects.get(result=outcome.result)


def play_page(client, table, number):
    return client.get(reverse("table:board_play", args=[table.code_ns, number]))


@needs_c_solver
def test_a_table_sees_its_card_costs_only_after_playing_the_board(top_six_event):
    tables = Table.objects.filter(round__event=top_six_event, round__number=1).order_by("number")
    first, second = tables[0], tables[1]
    board = top_six_event.boards.get(number=1)
    analysis.board_analyse(board_id=board.pk)
    stored = submit_record(first, board)
    analysis.record_analyse(play_record_id=stored.pk)
    mine = play_page(holder(first), first, 1).content.decode()
    assert 'class="card-costs"' in mine
    assert "No card cost anything" in mine  # NS hold every top card: nothing to lose
    # The other table of the round has not played board 1: nothing of it, not even "not
    # computed yet".
    theirs = play_page(holder(second), second, 1)
    assert theirs.status_code == 200
    assert_hidden(theirs.content.decode())


def test_a_table_is_told_the_costs_are_coming_once_it_has_played(top_six_event):
    table = Table.objects.get(round__event=top_six_event, round__number=1, number=1)
    board = top_six_event.boards.get(number=1)
    submit_record(table, board)
    page = play_page(holder(table), table, 1).content.decode()
    assert "What each card cost (perfect play): not computed yet." in page


# --- the referee's desk ----------------------------------------------------------------------


def submit_illegal(table, board):
    """A record whose second card is illegal: every hand of the board holds three cards of each
    suit, so the second player must follow the suit led (R7) and plays another suit."""
    hand = engine.Hand(play.deal(board), "copes", play.rules(board.event))
    lead = hand.legal_cards()[0]
    hand.play(lead)
    suit = engine.card_token(lead)[-1]
    wrong = next(t for t in board.hands[hand.to_move.name] if t[-1] != suit)
    record = play.record(board, trump="copes", cards=[engine.card_token(lead), wrong])
    outcome = results.result_submit_play_record(
        table=table, board_number=board.number, actor=Actor(table=table, side="NS"), record=record
    )
    stored = PlayRecord.objects.get(result=outcome.result)
    assert stored.outcome == "illegal"
    return stored


@needs_c_solver
def test_the_referee_sees_each_cards_cost_and_the_value_where_the_illegal_card_was_played(
    client, top_six_event, referee
):
    table = Table.objects.get(round__event=top_six_event, round__number=1, number=1)
    board = top_six_event.boards.get(number=1)
    stored = submit_illegal(table, board)
    assert analysis.record_analyse(play_record_id=stored.pk) is True
    assert len(PlayRecordAnalysis.objects.get(play_record=stored).costs) == 1  # the legal card
    client.force_login(referee)
    dispute = stored.result.disputes.get()
    page = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert 'class="card-costs"' in page
    # North–South hold every top card: after the first card they still take all 72.
    assert "perfect play gives NS 72 · EW 0 (hand totals)" in page


def submit_costly_lead(event):
    """Table 1 stores a record of board 1 in botifarra whose lead costs points (chosen by the
    solver among the legal leads) and whose second card is illegal: (table, stored record)."""
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    board = event.boards.get(number=1)
    # A fixed deal that the solver answers in a fraction of a second (benchmarks/analysis.py).
    deal = engine.deal_board("analysis-1", 2)
    board.hands, board.dealer = deal.hands_json(), deal.dealer.name
    board.save(update_fields=["hands", "dealer"])
    hand = engine.Hand(play.deal(board), "botifarra", play.rules(event))
    solver = Solver(hand.deal, trump="botifarra", rules=hand.rules)
    ns = hand.to_move.pair == "NS"
    best = solver.value() if ns else 72 - solver.value()
    for card in hand.legal_cards():
        after = solver.value([card])
        if (after if ns else 72 - after) == best:
            continue  # a best lead: it costs nothing
        hand.play(card)
        wrong = [c for c in range(48) if hand.hands[hand.to_move] >> c & 1 and not hand.is_legal(c)]
        hand.undo()
        if wrong:
            cards = [engine.card_token(card), engine.card_token(wrong[0])]
            break
    else:
        raise AssertionError("the deal has a costly lead followed by a possible illegal card")
    record = play.record(board, trump="botifarra", cards=cards)
    outcome = results.result_submit_play_record(
        table=table, board_number=board.number, actor=Actor(table=table, side="NS"), record=record
    )
    return table, PlayRecord.objects.get(result=outcome.result)


def replay_json(page, name):
    return json.loads(page.split(f'id="{name}" type="application/json">')[1].split("</script>")[0])


@needs_c_solver
def test_the_replay_marks_the_cards_that_cost_points_with_the_best_ones(
    client, running_event, referee
):
    """The animated replay of the referee's desk and of the table's own board page gets the
    costly cards and the best alternatives once the analysis ran (both may see it)."""
    table, stored = submit_costly_lead(running_event)
    client.force_login(referee)
    dispute = stored.result.disputes.get()
    desk_page = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "costs" not in replay_json(desk_page, "replay-data")  # not computed yet
    assert "cost" not in replay_json(desk_page, "replay-text")
    table_page = play_page(holder(table), table, 1).content.decode()
    assert len(replay_json(table_page, "replay-data")["steps"]) == 2
    assert analysis.record_analyse(play_record_id=stored.pk) is True
    (judged,) = PlayRecordAnalysis.objects.get(play_record=stored).costs
    assert judged["cost"] > 0 and judged["card"] not in judged["best"]
    expected = {"0": {"cost": judged["cost"], "best": judged["best"]}}
    for page in (
        client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode(),
        play_page(holder(table), table, 1).content.decode(),
    ):
        assert replay_json(page, "replay-data")["costs"] == expected
        assert "%(best)s" in replay_json(page, "replay-text")["cost"]


def test_the_referee_desk_says_when_the_costs_are_not_computed(client, top_six_event, referee):
    table = Table.objects.get(round__event=top_six_event, round__number=1, number=1)
    stored = submit_illegal(table, top_six_event.boards.get(number=1))
    client.force_login(referee)
    dispute = stored.result.disputes.get()
    page = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "What each card cost (perfect play): not computed yet." in page


# --- the API -----------------------------------------------------------------------------------


def api_board(client, event, number, **headers):
    return client.get(reverse("api:board", args=[event.pk, number]), **headers)


def test_the_api_sends_the_analysis_under_the_cards_rule(client, played_event, organiser):
    closed = api_board(client, played_event, 1).json()
    stored = BoardAnalysis.objects.get(board__event=played_event, board__number=1)
    assert closed["analysis"]["par"] == stored.par
    assert closed["analysis"]["points"]["oros"] == {"NS": 72, "EW": 0}
    open_ = api_board(client, played_event, OPEN_ROUND_BOARDS[0])
    assert "analysis" not in open_.json() and "hands" not in open_.json()
    client.force_login(organiser)
    assert api_board(client, played_event, OPEN_ROUND_BOARDS[0]).json()["analysis"] is not None


def test_the_api_sends_null_while_the_analysis_is_not_computed(client, played_event):
    BoardAnalysis.objects.filter(board__event=played_event, board__number=2).delete()
    assert api_board(client, played_event, 2).json()["analysis"] is None


# --- a real worker on the analysis queue ------------------------------------------------------


def _purge_analysis_queue():
    """Messages left on the queue by other tests (their boards are gone) would only delay this
    one."""
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("analysis")


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_of_the_analysis_queue_analyses_the_boards_when_they_are_dealt(
    celery_worker_factory, running_event, organiser
):
    """Boards dealt → ``analyse_event`` → one task per board, all routed to the ``analysis``
    queue: a worker that consumes only that queue stores every board's analysis; a play record
    is judged once stored, and a round that closes queues what is still missing."""
    event = running_event
    event.boards.all().delete()
    _purge_analysis_queue()
    celery_worker_factory(queues="analysis")
    generated = [play.seeded(event, n) for n in range(1, event.total_boards + 1)]
    for board in generated:
        board.hands = top_six_deal(engine.Seat.from_str(board.dealer)).hands_json()
    Board.objects.bulk_create(generated)
    queue.request_analysis(event)  # what boards_generate asks for once the boards are stored
    assert wait_for(
        lambda: BoardAnalysis.objects.filter(board__event=event).count() == event.total_boards,
        timeout=120,
    )
    assert all(a.points == dict.fromkeys(TRUMPS, 72) for a in BoardAnalysis.objects.all())
    if engine.solver.BACKEND != "c":
        return  # judging whole records needs the C solver
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    stored = submit_record(table, event.boards.get(number=1))
    # Judged as soon as it is stored, while the round is open (when a referee rules on it).
    assert wait_for(
        lambda: PlayRecordAnalysis.objects.filter(play_record=stored).exists(), timeout=120
    )
    rnd = event.rounds.get(number=1)
    assert rnd.status == Round.Status.OPEN
    PlayRecordAnalysis.objects.filter(play_record=stored).delete()  # as if its task was lost
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    assert wait_for(
        lambda: PlayRecordAnalysis.objects.filter(play_record=stored).exists(), timeout=120
    )


def test_the_analysis_tasks_have_their_own_queue_and_worker(settings):
    import yaml

    route = app.amqp.router.route({}, "tournaments.tasks_analysis.analyse_board")
    assert route["queue"].name == "analysis"
    compose = yaml.safe_load((ROOT / "docker/compose.yaml").read_text())
    command = compose["services"]["analysis"]["command"]
    assert command[command.index("-Q") + 1] == "analysis"
    assert "-Q" not in compose["services"]["worker"]["command"]  # the default queue only


@pytest.mark.django_db
def test_the_api_scorecard_gives_vs_par_only_where_the_reader_may_see_the_cards(
    running_event, organiser
):
    from rest_framework.test import APIClient

    from api.authentication import table_token
    from tournaments import policy
    from tournaments.models import Table

    for board in running_event.boards.all():
        top_six(board)
    event = build_played_event(running_event, organiser, publish=False)
    analyse_boards(event)
    table2 = Table.objects.get(round__event=event, round__number=2, number=1)
    board1 = event.boards.get(number=1)
    assert not policy.can_see_analysis(Actor(table=table2, side="NS"), board1)
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_token(table2, 'NS')}")
    card = client.get(reverse("api:scorecard", args=[event.pk, table2.ns.number])).json()
    round_one = [line for line in card["lines"] if line["round"] == 1]
    assert round_one and all(line["vs_par"] is None for line in round_one)
    # The organiser, who may see the cards, gets them.
    staff = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_authenticate(organiser)
    full = staff.get(reverse("api:scorecard", args=[event.pk, table2.ns.number])).json()
    assert any(line["vs_par"] is not None for line in full["lines"] if line["round"] == 1)


# A referee's adjusted score is not compared with par (docs/analysis.md, "Where it is shown").


def _par_of_board_1(event):
    """Board 1's par: NS choose oros and score 14 (net +14)."""
    BoardAnalysis.objects.filter(board__event=event, board__number=1).update(
        par={
            "choosing_pair": "NS",
            "trump": "oros",
            "best_trumps": ["oros"],
            "calls": [],
            "multiplier": 1,
            "totals": {"NS": 50, "EW": 22},
            "score": {"NS": 14, "EW": 0},
            "capot": False,
        }
    )


def _adjust(event, board_number=1):
    """A referee's adjusted score (board not playable: average plus / average minus, match
    score 0-0, as docs/referees.md recommends) on one table of a closed round."""
    result = (
        BoardResult.objects.filter(board__event=event, board__number=board_number)
        .order_by("table__number")
        .first()
    )
    BoardResult.objects.filter(pk=result.pk).update(
        status=BoardResult.Status.RULED,
        source=BoardResult.Source.RULING,
        adjusted_ns="avg_plus",
        adjusted_ew="avg_minus",
        score_ns=0,
        score_ew=0,
        totals_ns=None,
        totals_ew=None,
    )
    return result


def test_an_adjusted_score_is_not_compared_with_par_on_the_traveller(client, played_event):
    """An adjusted (artificial) score is not a played result: comparing its 0-0 match score
    with the par gives a meaningless "vs par" (minus the par) to a board nobody could play."""
    _par_of_board_1(played_event)
    adjusted = _adjust(played_event)
    data = client.get(reverse("api:traveller", args=[played_event.pk, 1])).json()
    line = next(x for x in data["lines"] if x["table"] == adjusted.table.number)
    assert line["adjusted_ns"] == "avg_plus"
    assert line["vs_par"] is None, f"adjusted score compared with par: vs_par={line['vs_par']}"
    page = client.get(reverse("public:traveller", args=[played_event.pk, 1])).content.decode()
    row = re.search(
        rf'<tr><th scope="row" class="num">{adjusted.table.number}</th>(.*?)</tr>', page, re.S
    ).group(1)
    assert re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[-1] == "—"


def test_an_adjusted_score_is_left_out_of_the_scorecards_total_against_par(client, played_event):
    _par_of_board_1(played_event)
    adjusted = _adjust(played_event)
    pair = adjusted.table.ns.number
    data = client.get(reverse("api:scorecard", args=[played_event.pk, pair])).json()
    line = next(x for x in data["lines"] if x["board"] == 1)
    assert line["vs_par"] is None, f"adjusted score compared with par: vs_par={line['vs_par']}"
