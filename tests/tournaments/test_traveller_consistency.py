"""A traveller never shows a score beside the matchpoints of another.

The scores of the results pages come from the results as they stand, their matchpoints (and a
round's match totals) from the standings snapshot, which the standings task rewrites moments
after a change (or later, while the task queue is down). Where a board's results changed since
the snapshot, its lines show their new scores and say their matchpoints are being recomputed
(or that the recomputation is delayed) instead of the old ones: on the traveller, the travellers
PDF, the round page, the scorecards and the API. With tasks run in-process the page recomputes
them on the spot and shows them.
"""

import pytest
from django.core.cache import cache
from django.urls import reverse

from tournaments import public_selectors as sel
from tournaments import queue
from tournaments.actors import Actor
from tournaments.models import BoardResult, Dispute, Entry, Table
from tournaments.services import events
from tournaments.services.disputes import correction_open, dispute_rule
from tournaments.services.results import result_confirm, result_submit_short
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def _enter(table, board, totals):
    data = {
        "delegated": False,
        "trump": "oros",
        "doubles": [],
        "totals": {"NS": totals[0], "EW": totals[1]},
    }
    stored = result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
    )
    result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


@pytest.fixture
def corrected(running_event, organiser):
    """A finished, published event whose table 2 board 1 the organiser corrected to the best
    NS result of the board; the recomputation that asked for has not run (the test's
    transaction never commits)."""
    event = running_event
    actor = Actor(user=organiser)
    rnd = event.rounds.get(number=1)
    t1, t2 = Table.objects.filter(round=rnd).order_by("number")
    for board in rnd.board_numbers:
        _enter(t1, board, (44, 28))  # NS +8 × oros
        _enter(t2, board, (40, 32))  # NS +4 × oros
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    event.published = True
    event.save(update_fields=["published"])
    events.event_finish(event=event, actor=actor)
    result = BoardResult.objects.get(table=t2, board__number=1)
    dispute = correction_open(result=result, actor=actor, reason="score sheet misread")
    dispute_rule(
        dispute=Dispute.objects.get(pk=dispute.pk),
        actor=actor,
        kind="corrected",
        explanation="NS made 60",
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 60, "EW": 12}},
    )
    return event


def _worker_busy(event):
    """A recomputation is queued and has not started (a worker will run it)."""
    cache.set(queue.STANDINGS_QUEUED.format(event.pk), "now", timeout=60)


def test_a_page_read_with_tasks_in_process_recomputes_and_shows_the_new_matchpoints(
    client, corrected
):
    page = client.get(reverse("public:traveller", args=[corrected.pk, 1]))
    assert page.status_code == 200
    shown = {
        line.table.number: (line.result.score_ns - line.result.score_ew, line.line.mp_ns)
        for line in page.context["trav"].lines
    }
    (net1, mp1), (net2, mp2) = shown[1], shown[2]
    assert net2 > net1
    assert mp2 > mp1  # not table 1's top beside table 2's better score
    assert not page.context["trav"].recomputing


def test_while_the_recomputation_waits_the_traveller_shows_no_old_matchpoints(client, corrected):
    _worker_busy(corrected)
    page = client.get(reverse("public:traveller", args=[corrected.pk, 1]))
    trav = page.context["trav"]
    assert {line.table.number: line.net_ns for line in trav.lines} == {1: 8, 2: 24}
    # Both lines: table 1's top was earned against table 2's old score.
    assert [(line.line, line.recomputing) for line in trav.lines] == [(None, queue.UPDATING)] * 2
    assert trav.recomputing == queue.UPDATING and trav.top == 0
    assert "being recomputed…" in page.content.decode()
    # Another board of the round did not change: its matchpoints are shown.
    other = client.get(reverse("public:traveller", args=[corrected.pk, 2])).context["trav"]
    assert all(line.line is not None and not line.recomputing for line in other.lines)
    assert not other.recomputing and other.top == 2


def test_with_the_task_queue_down_the_traveller_says_the_recomputation_is_delayed(
    client, corrected, monkeypatch
):
    monkeypatch.setattr(queue, "_queue_recompute", lambda *a, **k: False)
    page = client.get(reverse("public:traveller", args=[corrected.pk, 1]))
    trav = page.context["trav"]
    assert all(line.line is None for line in trav.lines)
    assert trav.recomputing == queue.OUT_OF_DATE
    assert "recomputation delayed" in page.content.decode()


def test_the_round_page_shows_no_old_totals_beside_the_corrected_lines(client, corrected):
    _worker_busy(corrected)
    page = client.get(reverse("public:round_results", args=[corrected.pk, 1]))
    matches = {m.table: m for m in page.context["view"].matches}
    changed, untouched = matches[2], matches[1]
    assert changed.recomputing == queue.UPDATING
    assert (changed.total_ns, changed.mp_ns, changed.mp_ew) == (None, None, None)
    board1 = next(line for line in changed.lines if line.result.board.number == 1)
    assert board1.result.score_ns - board1.result.score_ew == 24 and board1.line is None
    # Table 1's results did not change: its match totals stand; its board 1 waits.
    assert not untouched.recomputing and untouched.total_ns is not None
    assert [line.line is None for line in untouched.lines][0] is True
    assert all(line.line is not None for line in untouched.lines[1:])


def test_scorecards_and_the_api_say_the_matchpoints_are_being_recomputed(client, corrected):
    _worker_busy(corrected)
    corrected.refresh_from_db()
    ev = sel.event_view(corrected, staff=False)
    entry = Entry.objects.get(event=corrected, number=1)  # NS at table 1
    card = sel.scorecards(ev, [entry])[0]
    first = next(s for s in card.lines if s.board == 1)
    assert (first.mp, first.pct, first.line.recomputing) == (None, None, queue.UPDATING)
    assert card.recomputing == queue.UPDATING and card.pct is None
    assert all(s.mp is not None for s in card.lines if s.board != 1)
    page = client.get(reverse("public:scorecard", args=[corrected.pk, 1]))
    assert "being recomputed…" in page.content.decode()

    api = client.get(f"/api/v1/events/{corrected.pk}/boards/1/traveller")
    assert api.status_code == 200, api.content
    lines = api.json()["lines"]
    assert [(line["mp_ns"], line["recomputing"]) for line in lines] == [(None, True)] * 2
    assert [line["net_ns"] for line in lines] == [8, 24]
    board2 = client.get(f"/api/v1/events/{corrected.pk}/boards/2/traveller").json()
    assert all(line["mp_ns"] is not None and not line["recomputing"] for line in board2["lines"])


def test_a_result_no_longer_counted_leaves_the_others_without_its_comparison(client, corrected):
    standings_recompute(corrected.pk)
    corrected.refresh_from_db()
    # Table 2's board 2 leaves the count (as a result under dispute does), without a save.
    BoardResult.objects.filter(table__number=2, table__round__number=1, board__number=2).update(
        status=BoardResult.Status.DISPUTED
    )
    _worker_busy(corrected)
    trav = client.get(reverse("public:traveller", args=[corrected.pk, 2])).context["trav"]
    assert [line.table.number for line in trav.lines] == [1]
    assert trav.lines[0].line is None and trav.recomputing == queue.UPDATING
    rnd = client.get(reverse("public:round_results", args=[corrected.pk, 1])).context["view"]
    assert {m.table: bool(m.recomputing) for m in rnd.matches} == {1: False, 2: True}
