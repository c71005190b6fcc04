"""A pair's own evening inside the table pages (issue 20): its scorecard so far, the standings of
closed rounds and the referee's rulings on its boards, within the fairness policy: a table sees
its own results of its round and, of other tables, only what the public sees once a round is
closed (scores, matchpoints, standings). The pages also open with the code of a round that has
been closed, for the phone that held it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, PairFactory
from tournaments import public_selectors as sel
from tournaments.actors import Actor
from tournaments.models import Entry, Round, Table
from tournaments.services import disputes, events, results
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def holder(table, side):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert client.post(reverse("table:enter"), {"code": table.code_for(side)}).status_code == 302
    return client


def play(table, board, ns_total, trump="oros"):
    """Board ``board`` entered by NS and confirmed by EW at ``table``."""
    data = {"delegated": False, "trump": trump, "doubles": [], "totals": {"NS": ns_total}}
    data["totals"]["EW"] = 72 - ns_total
    result = results.result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
    ).result
    results.result_confirm(result=result, actor=Actor(table=table, side="EW"))
    result.refresh_from_db()
    return result


@pytest.fixture
def evening(db, organiser):
    """6 pairs, 2 boards a round, round 1 open: table 1 (1 v 2), 2 (3 v 4), 3 (5 v 6)."""
    event = EventFactory(organisers=[organiser], status="registration")
    actor = Actor(user=organiser)
    entries = [Entry.objects.create(event=event, pair=PairFactory(), number=i) for i in range(1, 7)]
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[
            (entries[0].pk, entries[1].pk),
            (entries[2].pk, entries[3].pk),
            (entries[4].pk, entries[5].pk),
        ],
    )
    events.round_open(rnd=rnd, actor=actor)
    event.entries_by_number = {e.number: e for e in entries}
    return event


def tables(event, number):
    return {t.number: t for t in Table.objects.filter(round__event=event, round__number=number)}


def boards_shown(page: str, round_number: int) -> list[int]:
    """The boards of a round on the scorecard page."""
    found = re.search(rf'data-round="{round_number}">(.*?)</table>', page, re.S)
    return [int(b) for b in re.findall(r'data-board="(\d+)"', found.group(1))] if found else []


def close_and_open_next(event, organiser, pairs):
    actor = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    standings_recompute(event.pk)
    by = event.entries_by_number
    rnd = events.round_propose(
        event=event, actor=actor, number=2, tables=[(by[a].pk, by[b].pk) for a, b in pairs]
    )
    events.round_open(rnd=rnd, actor=actor)
    return tables(event, 2)


def test_the_open_rounds_scorecard_shows_the_tables_own_boards_without_matchpoints(evening):
    t = tables(evening, 1)
    play(t[1], 1, 40)
    play(t[2], 1, 30)
    play(t[2], 2, 50)  # table 1 has not played board 2: nothing of it reaches table 1
    standings_recompute(evening.pk)  # the live snapshot of round 1 exists (organisers see it)
    response = holder(t[1], "NS").get(reverse("table:pair_scorecard", args=[t[1].code_ns]))
    assert response.status_code == 200
    (card,) = response.context["cards"]
    assert card.entry.number == 1
    assert [(line.s.board, line.closed, line.s.mp) for line in card.lines] == [(1, False, None)]
    line = card.lines[0].s
    assert (line.score_for, line.score_against) == (
        t[1].results.get(board__number=1).score_ns,
        t[1].results.get(board__number=1).score_ew,
    )
    assert line.opponent.number == 2
    page = response.content.decode()
    assert boards_shown(page, 1) == [1]
    assert "after the round" in page  # no matchpoints of an open round


def test_an_entry_waiting_for_confirmation_is_shown_with_its_status(evening):
    t = tables(evening, 1)
    results.result_submit_short(
        table=t[1],
        board_number=2,
        actor=Actor(table=t[1], side="EW"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 30, "EW": 42}},
    )
    page = holder(t[1], "NS").get(reverse("table:pair_scorecard", args=[t[1].code_ns]))
    assert "Entered by EW, waiting for NS" in page.content.decode()


def test_after_the_round_closes_the_matchpoints_come_from_the_closed_round_only(evening, organiser):
    t = tables(evening, 1)
    play(t[1], 1, 40)
    play(t[2], 1, 30)
    play(t[1], 2, 20)
    play(t[2], 2, 25)
    play(t[3], 1, 36)
    play(t[3], 2, 36)
    t2 = close_and_open_next(evening, organiser, [(1, 3), (2, 5), (4, 6)])
    play(t2[1], 3, 44)  # pair 1's own board of the open round 2
    play(t2[2], 4, 60)  # another table's board: pair 1 has not played board 4 yet
    standings_recompute(evening.pk)
    response = holder(t2[1], "NS").get(reverse("table:pair_scorecard", args=[t2[1].code_ns]))
    (card,) = response.context["cards"]
    lines = [(line.s.round, line.s.board, line.closed) for line in card.lines]
    assert lines == [(1, 1, True), (1, 2, True), (2, 3, False)]
    closed = [line.s for line in card.lines if line.closed]
    # The public scorecard's own numbers: one computation.
    ev = sel.event_view(evening, staff=False)
    public = sel.scorecards(ev, [ev.by_number[1]])[0]
    assert [s.mp for s in closed] == [s.mp for s in public.lines]
    assert all(s.mp is not None for s in closed)
    assert card.lines[2].s.mp is None
    page = response.content.decode()
    assert boards_shown(page, 1) == [1, 2]
    assert boards_shown(page, 2) == [3]


def test_standings_show_closed_rounds_only(evening, organiser):
    t = tables(evening, 1)
    play(t[1], 1, 40)
    play(t[2], 1, 30)
    standings_recompute(evening.pk)  # a snapshot of the open round 1 exists
    client = holder(t[1], "EW")
    url = reverse("table:pair_standings", args=[t[1].code_ew])
    page = client.get(url).content.decode()
    assert 'id="no-standings"' in page
    assert "data-entry=" not in page
    t2 = close_and_open_next(evening, organiser, [(1, 3), (2, 5), (4, 6)])
    play(t2[2], 3, 60)  # round 2 is open: its scores stay out of the standings
    standings_recompute(evening.pk)
    client = holder(t2[2], "NS")  # pair 2 sits NS at table 2 of round 2
    response = client.get(reverse("table:pair_standings", args=[t2[2].code_ns]))
    view = response.context["view"]
    assert view.after_round == 1
    page = response.content.decode()
    assert "Standings after round 1" in page
    assert re.search(r'<tr data-entry="2" class="mine"', page)
    assert len(re.findall(r"<tr data-entry=", page)) == 6


def test_rulings_show_the_pairs_boards_only_with_their_explanation(evening, organiser):
    t = tables(evening, 1)
    mine = play(t[1], 1, 40)
    theirs = play(t[2], 1, 30)
    for result, words in ((mine, "Revoke at trick 3: corrected."), (theirs, "Other table.")):
        dispute = disputes.dispute_request(
            result=result, actor=Actor(table=result.table, side="EW"), reason="check"
        )
        disputes.dispute_rule(
            dispute=dispute,
            actor=Actor(user=organiser),
            kind="corrected",
            explanation=words,
            data={
                "delegated": False,
                "trump": "copes",
                "doubles": [],
                "totals": {"NS": 38, "EW": 34},
            },
        )
    play(t[1], 2, 20)
    url = reverse("table:pair_rulings", args=[t[1].code_ns])
    page = holder(t[1], "NS").get(url).content.decode()
    assert "Revoke at trick 3: corrected." in page
    assert "Other table." not in page
    assert 'id="call-referee"' in page
    assert reverse("table:board_referee", args=[t[1].code_ns, 2]) in page
    # Round 2: the ruling of round 1 follows the pair to its new table, not to others.
    t2 = close_and_open_next(evening, organiser, [(1, 3), (2, 5), (4, 6)])
    page = holder(t2[1], "NS").get(reverse("table:pair_rulings", args=[t2[1].code_ns]))
    assert "Revoke at trick 3: corrected." in page.content.decode()
    page = holder(t2[3], "NS").get(reverse("table:pair_rulings", args=[t2[3].code_ns]))
    assert "Revoke at trick 3: corrected." not in page.content.decode()  # pairs 4 and 6


def test_a_closed_rounds_code_still_opens_the_pairs_own_pages(evening, organiser):
    t = tables(evening, 1)
    play(t[1], 1, 40)
    client = holder(t[1], "EW")
    close_and_open_next(evening, organiser, [(1, 3), (2, 5), (4, 6)])
    home = client.get(reverse("table:table_home", args=[t[1].code_ew]))
    assert home.status_code == 403  # nothing can be entered any more
    text = home.content.decode()
    assert 'id="next-seat"' in text
    assert reverse("table:pair_scorecard", args=[t[1].code_ew]) in text
    for name in ("pair_scorecard", "pair_standings", "pair_rulings"):
        page = client.get(reverse(f"table:{name}", args=[t[1].code_ew]))
        assert page.status_code == 200, name
        body = page.content.decode()
        assert 'id="round-closed"' in body
        assert "Round 2: table 2, North–South, against pair 5." in body
    (card,) = client.get(reverse("table:pair_scorecard", args=[t[1].code_ew])).context["cards"]
    assert [(line.s.board, line.closed) for line in card.lines] == [(1, True)]
    # A phone that never held the code gets nothing.
    stranger = Client()
    assert stranger.get(reverse("table:pair_scorecard", args=[t[1].code_ew])).status_code == 302


def test_another_tables_phone_is_refused(evening):
    t = tables(evening, 1)
    other = holder(t[2], "NS")
    for name in ("pair_scorecard", "pair_standings", "pair_rulings"):
        assert other.get(reverse(f"table:{name}", args=[t[1].code_ns])).status_code == 403


def test_the_organiser_sees_both_pairs_of_the_table(evening, organiser):
    t = tables(evening, 1)
    play(t[1], 1, 40)
    client = Client()
    client.force_login(organiser)
    response = client.get(reverse("table:pair_scorecard", args=[t[1].code_ns]))
    assert [c.entry.number for c in response.context["cards"]] == [1, 2]
    ns, ew = response.context["cards"]
    assert ns.lines[0].s.score_for == ew.lines[0].s.score_against


def test_the_table_page_links_the_pairs_own_pages(evening):
    t = tables(evening, 1)
    page = holder(t[1], "NS").get(reverse("table:table_home", args=[t[1].code_ns]))
    text = page.content.decode()
    for name in ("pair_scorecard", "pair_standings", "pair_rulings"):
        assert reverse(f"table:{name}", args=[t[1].code_ns]) in text


def test_the_public_scorecard_shows_no_rank_after_an_open_round(evening, organiser):
    """The rank chart of the public scorecard drew the rank after the open round (its live
    snapshot): the standings of an open round are for the organisers and referees."""
    t = tables(evening, 1)
    play(t[1], 1, 40)
    play(t[2], 1, 30)
    standings_recompute(evening.pk)
    assert evening.snapshots.filter(after_round=1).exists()
    public = sel.event_view(evening, staff=False)
    staff = sel.event_view(evening, staff=True)
    assert sel.scorecards(public, [public.by_number[1]])[0].history == []
    assert [r for r, _rank in sel.scorecards(staff, [staff.by_number[1]])[0].history] == [1]
    Round.objects.filter(event=evening, number=1).update(status=Round.Status.CLOSED)
    public = sel.event_view(evening, staff=False)
    assert [r for r, _rank in sel.scorecards(public, [public.by_number[1]])[0].history] == [1]


def _called_referee(table):
    """NS calls the referee on board 1, entered by NS and confirmed by EW."""
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 45, "EW": 27}}
    results.result_submit_short(
        table=table, board_number=1, actor=Actor(table=table, side="NS"), data=data
    )
    result = table.results.get(board__number=1)
    results.result_confirm(result=result, actor=Actor(table=table, side="EW"))
    return disputes.dispute_request(
        result=result, actor=Actor(table=table, side="NS"), reason="We think wrong"
    )


def _case(page, pk):
    start = page.index(f'id="case-{pk}"')
    return page[start : page.index("</article>", start)]


def test_a_withdrawn_call_is_not_waiting_for_the_referee(running_event, table1):
    call = _called_referee(table1)
    page = holder(table1, "NS").get(reverse("table:pair_rulings", args=[table1.code_ns]))
    assert "Waiting for the referee." in _case(page.content.decode(), call.pk)
    disputes.dispute_withdraw(dispute=call, actor=Actor(table=table1, side="NS"))
    for side in ("NS", "EW"):
        code = table1.code_for(side)
        page = holder(table1, side).get(reverse("table:pair_rulings", args=[code]))
        case = _case(page.content.decode(), call.pk)
        assert "Waiting for the referee." not in case
        assert "The request was withdrawn; the result is as before." in case


def test_the_desk_does_not_credit_a_referees_withdrawal_to_the_players(
    client, running_event, table1, referee
):
    call = _called_referee(table1)
    client.force_login(referee)
    client.post(reverse("referee:dispute", args=[call.pk]), {"form": "withdraw"})
    call.refresh_from_db()
    assert call.status == "withdrawn"
    page = client.get(reverse("referee:dispute", args=[call.pk])).content.decode()
    assert "withdrawn by the players" not in page
    assert "This dispute was withdrawn: there is nothing to rule" in page
