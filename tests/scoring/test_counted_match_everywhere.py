"""The pairing, the groups, the knockout and the stage view count a match as the standings do
(scoring.matches.counted_match): a forfeit is won by the opponents, a match not over or not
played gives nothing, and time called after deal k leaves out every board after the round's
k-th, even when one before it has no result."""

from __future__ import annotations

from dataclasses import replace

from engine import MatchRules
from scoring.groups import group_tables, groups_next_round, groups_plan
from scoring.matches import boards_due, counted_match, match_under
from scoring.pairing import history_from, pair_next_round
from scoring.standings import compute_standings
from scoring.types import BoardResult, EventInput, PairingOptions, RoundInput, TableRound


def br(board, table, ns, ew, net):
    """One board's result: only one side scores (R9)."""
    return BoardResult(board, table, ns, ew, max(net, 0), max(-net, 0))


def tr(rnd, table, ns, ew, nets, boards, **kw):
    return TableRound(
        rnd,
        table,
        ns,
        ew,
        [br(b, table, ns, ew, n) for b, n in zip(boards, nets, strict=True)],
        **kw,
    )


def _six_pairs_with_a_forfeit(results) -> EventInput:
    """Round 1: 1-2, where NS (pair 1) withdraws and forfeits; 3-4 and 5-6 won by NS."""
    b = [1, 2, 3]
    tables = [
        TableRound(1, 1, 1, 2, results, forfeited_by="NS"),
        tr(1, 2, 3, 4, [10, 10, 10], b),
        tr(1, 3, 5, 6, [10, 10, 10], b),
    ]
    return EventInput(
        entries=[1, 2, 3, 4, 5, 6],
        numbers={},
        withdrawn={1: 1},
        seed="s",
        rounds=[RoundInput(1, b, tables)],
        pairing=PairingOptions(rounds=5),
    )


def test_a_forfeit_is_the_opponents_win_for_the_pairing_too():
    # The withdrawing pair was 30 ahead on the one board played: the boards do not decide.
    for results in ([br(1, 1, 1, 2, 30)], []):
        event = _six_pairs_with_a_forfeit(results)
        standings = {s.entry: s.match_points for s in compute_standings(event).standings}
        assert standings[2] == 2
        assert history_from(event)[2].score == 2
        pairing = pair_next_round(event)
        assert pairing.bye == 4
        # 1 v 2 of the ranking (2, 5, 3 on two match points; then 6, 4)
        assert {frozenset(t) for t in pairing.tables} == {frozenset({2, 5}), frozenset({3, 6})}


def test_a_table_of_a_closed_round_without_results_is_no_draw_for_the_pairing():
    b = [1, 2]
    tables = [TableRound(1, 1, 1, 2, []), tr(1, 2, 3, 4, [10, 10], b)]
    event = EventInput(
        entries=[1, 2, 3, 4],
        numbers={},
        withdrawn={},
        seed="s",
        rounds=[RoundInput(1, b, tables, closed=True)],
        pairing=PairingOptions(rounds=3),
    )
    standings = {s.entry: s.match_points for s in compute_standings(event).standings}
    history = history_from(event)
    assert {e: history[e].score for e in standings} == standings == {1: 0, 2: 0, 3: 2, 4: 0}


def _groups_event(rounds, withdrawn=None, **options) -> EventInput:
    pairing = {"method": "groups", "group_size": 4, "qualifiers": 1, "repesca": 0} | options
    entries = list(range(1, 9)) if pairing["group_size"] == 4 else [1, 2, 3, 4]
    return EventInput(
        entries=entries,
        numbers={},
        withdrawn=withdrawn or {},
        rounds=rounds,
        seed="s",
        match_mode="boards",
        pairing=PairingOptions(**pairing),
    )


def test_a_forfeited_group_game_is_the_opponents_win_in_the_group_table():
    order = list(range(1, 9))
    plan = groups_plan(_groups_event([]), order)
    first = groups_next_round(_groups_event([]), order)
    ns, ew = first.tables[0]
    b = [1, 2]
    tables = [TableRound(1, 1, ns, ew, [br(1, 1, ns, ew, 40)], forfeited_by="NS")]
    tables += [tr(1, i + 2, a, c, [0, 0], b) for i, (a, c) in enumerate(first.tables[1:])]
    event = _groups_event([RoundInput(1, b, tables)], withdrawn={ns: 1})
    rows = {r.entry: r for group in group_tables(event, plan) for r in group}
    assert (rows[ew].match_points, rows[ns].match_points) == (2, 0)


def test_a_knockout_forfeit_sends_the_opponent_through():
    order = [1, 2, 3, 4]
    start = _groups_event([], group_size=2, repesca=1)
    first = groups_next_round(start, order)
    b = [1, 2]
    r1 = RoundInput(
        1, b, [tr(1, i + 1, a, c, [10, 10], b) for i, (a, c) in enumerate(first.tables)]
    )
    semis = groups_next_round(replace(start, rounds=[r1]), order)
    top, bottom = semis.tables[0]
    # bottom (EW) withdraws during its semi-final after winning a board by 50: it forfeits
    r2 = [TableRound(2, 1, top, bottom, [br(3, 1, top, bottom, -50)], forfeited_by="EW")]
    r2 += [tr(2, i + 2, a, c, [10, 10], [3, 4]) for i, (a, c) in enumerate(semis.tables[1:])]
    event = replace(start, rounds=[r1, RoundInput(2, [3, 4], r2)], withdrawn={bottom: 2})
    final = groups_next_round(event, order)
    assert top in {e for t in final.tables for e in t}, final


def test_time_called_leaves_out_a_later_board_when_an_earlier_one_has_no_result():
    # Boards 9-12; time called during deal 2 (board 10), which has no result.
    table = TableRound(
        1, 1, 1, 2, [br(9, 1, 1, 2, 10), br(11, 1, 1, 2, -40), br(12, 1, 1, 2, -4)], time_after=2
    )
    rules = EventInput([], {}, {}, []).match_rules
    m, played = match_under(table, mode="boards", rules=rules, boards=[9, 10, 11, 12])
    assert [r.board for r in played] == [9]
    assert (m.mp_ns, m.mp_ew, m.total_ns, m.total_ew) == (2, 0, 10, 0)


def test_ratings_leave_out_a_board_played_after_time_as_the_standings_do():
    import datetime

    from scoring.ratings import rating_event_from_input

    boards = [1, 2, 3]
    late = TableRound(1, 1, 1, 2, [br(1, 1, 1, 2, 10), br(3, 1, 1, 2, -40)], time_after=2)
    full = tr(1, 2, 3, 4, [10, 20, 30], boards)
    event = EventInput(
        entries=[1, 2, 3, 4],
        numbers={},
        withdrawn={},
        seed="s",
        rounds=[RoundInput(1, boards, [late, full])],
    )
    lineups = {e: (10 * e, 10 * e + 1) for e in (1, 2, 3, 4)}
    rated = rating_event_from_input(
        event, event=1, when=datetime.date(2026, 12, 5), lineups=lineups
    )
    # Board 3 at table 1 came after time (board 2, the deal in progress, has no result).
    assert {b.board: len(b.lines) for b in rated.boards} == {1: 2}


def test_an_open_rounds_game_stops_at_the_first_board_still_owed():
    """A game is played in board order: while the round is open, a later board's result does
    not stand in for a deal still owed, nor end the game (docs/scoring.md §1)."""
    rules = MatchRules(target=101, deal_limit=3, cap=121, draw="half", tiebreak_deals=2)
    boards = [1, 2, 3, 4, 5]
    # Board 2 has no counted result yet (entered, not confirmed); 3 and 4 are in.
    table = tr(1, 1, 1, 2, [10, 4, -20], [1, 3, 4])
    open_round = RoundInput(1, boards, [table], closed=False)
    m, played = counted_match(table, open_round, mode="game", rules=rules, bye_points=2)
    assert not m.final
    assert [r.board for r in played] == [1]
    assert (m.total_ns, m.total_ew) == (10, 0)
    scores = {r.board: (r.score_ns, r.score_ew) for r in table.results}
    assert boards_due(scores, boards, mode="game", rules=rules)[0] == [2, 5]
    # Board 2 confirmed (EW +16): the deal limit ends the game at board 3, and board 4 is not
    # one of its deals. EW wins 16-14.
    table = tr(1, 1, 1, 2, [10, -16, 4, -20], [1, 2, 3, 4])
    m, played = counted_match(
        table, replace(open_round, tables=[table]), mode="game", rules=rules, bye_points=2
    )
    assert m.final and [r.board for r in played] == [1, 2, 3]
    assert (m.total_ns, m.total_ew, m.mp_ns, m.mp_ew) == (14, 16, 0, 2)
