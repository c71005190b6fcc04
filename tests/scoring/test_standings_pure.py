"""Standings: ranking methods and their tiebreaks, shared ranks, byes, withdrawals, game mode."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.lots import lot_order
from scoring.standings import compute_standings, rank_standings
from scoring.types import BoardResult, EventInput, RoundInput, Standing, TableRound

CRITERIA = {
    "wins": ["match_points", "point_diff", "points_for", "buchholz", "duplicate_pct"],
    "matchpoints": ["duplicate_pct", "match_points", "point_diff", "points_for", "buchholz"],
    "points": ["point_diff", "match_points", "points_for", "buchholz", "duplicate_pct"],
}


def standing(entry: int, lot: int, **fields: float) -> Standing:
    values = dict.fromkeys(
        ["match_points", "point_diff", "points_for", "buchholz", "duplicate_pct"], 0
    )
    values.update(fields)
    return Standing(
        entry=entry,
        rank=0,
        match_points=values["match_points"],
        wins=0,
        draws=0,
        losses=0,
        points_for=int(values["points_for"]),
        points_against=0,
        point_diff=int(values["point_diff"]),
        buchholz=values["buchholz"],
        duplicate_pct=values["duplicate_pct"],
        boards_played=int(fields.get("boards_played", 1)),
        byes=0,
        withdrawn=False,
        lot=lot,
    )


def make_event(rounds, *, entries=(1, 2, 3, 4), withdrawn=None, **options) -> EventInput:
    """``rounds``: list of (tables, bye); a table is (ns, ew, net_ns on each board...)."""
    round_inputs = []
    for number, (tables, bye) in enumerate(rounds, start=1):
        n_boards = max((len(t) - 2 for t in tables), default=0)
        boards = [10 * number + b for b in range(1, n_boards + 1)]
        table_rounds = []
        for t, (ns, ew, *nets) in enumerate(tables, start=1):
            results = [
                # R9: only one side of a board scores.
                BoardResult(board, t, ns, ew, max(net, 0), max(-net, 0))
                for board, net in zip(boards, nets, strict=False)
            ]
            table_rounds.append(TableRound(number, t, ns, ew, results))
        round_inputs.append(RoundInput(number, boards, table_rounds, bye))
    return EventInput(
        entries=list(entries),
        numbers={e: e for e in entries},
        withdrawn=withdrawn or {},
        rounds=round_inputs,
        **options,
    )


def by_entry(result):
    return {s.entry: s for s in result.standings}


@pytest.mark.parametrize("method", sorted(CRITERIA))
@pytest.mark.parametrize("position", range(5))
def test_each_tiebreak_decides_only_when_the_earlier_ones_are_equal(method, position):
    # Entry 1 is better on criterion ``position``; entry 2 is better on every later criterion
    # and on the lot. Equal on the earlier ones, so entry 1 must come first, alone at rank 1.
    criteria = CRITERIA[method]
    better = dict.fromkeys(criteria[:position], 10) | {criteria[position]: 20}
    worse = dict.fromkeys(criteria[:position], 10) | {criteria[position]: 10}
    for later in criteria[position + 1 :]:
        worse[later] = 30
    ranked = rank_standings([standing(2, 1, **worse), standing(1, 2, **better)], method)
    assert [(s.entry, s.rank) for s in ranked] == [(1, 1), (2, 2)]


@pytest.mark.parametrize("method", sorted(CRITERIA))
def test_pairs_equal_on_every_criterion_share_a_rank_and_the_lot_orders_the_display(method):
    top = standing(7, 4, match_points=6, point_diff=50, points_for=90, duplicate_pct=60)
    tied_a = standing(8, 3, match_points=4, point_diff=10, points_for=50, duplicate_pct=50)
    tied_b = standing(9, 1, match_points=4, point_diff=10, points_for=50, duplicate_pct=50)
    last = standing(6, 2, match_points=0, point_diff=-60, points_for=10, duplicate_pct=40)
    ranked = rank_standings([last, tied_a, top, tied_b], method)
    assert [s.rank for s in ranked] == [1, 2, 2, 4]
    assert [s.entry for s in ranked] == [7, 9, 8, 6]  # 9 has the better lot (1 < 3)


def test_duplicate_percentages_equal_up_to_float_noise_still_tie():
    a = standing(1, 1, duplicate_pct=0.1 + 0.2)
    b = standing(2, 2, duplicate_pct=0.3)
    assert [s.rank for s in rank_standings([a, b], "matchpoints")] == [1, 1]


def test_unknown_ranking_method_is_rejected():
    with pytest.raises(ValueError, match="unknown ranking method"):
        compute_standings(make_event([], ranking_method="elo"))


def test_wins_method_counts_match_points_totals_buchholz_and_percentages():
    # Round 1: 1 beats 2 (+20, +4 -> 24-0), 3 v 4 draw (+8, -8 -> 8-8).
    # Round 2: 1 v 3: 1 wins 10-0 (+10, 0); 2 v 4: 4 wins 30-0 (-30, 0).
    event = make_event(
        [
            ([(1, 2, 20, 4), (3, 4, 8, -8)], None),
            ([(1, 3, 10, 0), (2, 4, -30, 0)], None),
        ]
    )
    s = by_entry(compute_standings(event))
    assert (s[1].match_points, s[1].wins, s[1].points_for, s[1].point_diff) == (4, 2, 34, 34)
    assert (s[3].match_points, s[3].draws, s[3].losses) == (1, 1, 1)
    assert (s[4].match_points, s[4].wins, s[4].draws, s[4].point_diff) == (3, 1, 1, 30)
    # Buchholz = opponents' match points: 1 met 2 (0) and 3 (1); 4 met 3 (1) and 2 (0).
    assert (s[1].buchholz, s[2].buchholz, s[3].buchholz, s[4].buchholz) == (1, 7, 7, 1)
    # Duplicate, board 11: NS nets +20 (t1), +8 (t2): pair 1 100 %, 3 0 %, 2 0 %, 4 100 %.
    # Board 12: +4 v -8: 1 100 %, 3 0 %.  Board 21: +10 v -30: 1 100 %, 2 0 %, 4 100 %.
    # Board 22: 0 v 0: 50 % each.  Pair 1: (100+100+100+50)/4 = 87.5.
    assert s[1].duplicate_pct == pytest.approx(87.5)
    assert s[3].duplicate_pct == pytest.approx((0 + 0 + 0 + 50) / 4)
    assert s[1].boards_played == 4
    result = compute_standings(event)
    assert [x.entry for x in result.standings] == [1, 4, 3, 2]
    assert [x.rank for x in result.standings] == [1, 2, 3, 4]
    assert sorted(result.travellers) == [11, 12, 21, 22]
    assert len(result.matches) == 4


def test_matchpoints_method_ranks_by_average_percentage_first():
    # Table 1: 1 v 2, NS nets +5, +5, -40 -> 2 wins 40-10.
    # Table 2: 3 v 4, NS nets +20, +20, -100 -> 4 wins 100-40.
    # Boards 11, 12: +5 v +20 -> pair 3 (NS) and pair 2 (EW) top.
    # Board 13: -40 v -100 -> pair 1 (NS) and pair 4 (EW) top.
    # Percentages: 2 and 3 200/3 = 66.7, 1 and 4 33.3.  2 and 3 tie on %, 2 has 2 match points.
    rounds = [([(1, 2, 5, 5, -40), (3, 4, 20, 20, -100)], None)]
    by_pct = compute_standings(make_event(rounds, ranking_method="matchpoints"))
    s = by_entry(by_pct)
    assert s[2].duplicate_pct == pytest.approx(200 / 3)
    assert s[1].duplicate_pct == pytest.approx(100 / 3)
    assert [x.entry for x in by_pct.standings] == [2, 3, 4, 1]
    # By wins: 4 (2 match points, +60), 2 (2, +30), 1 (0, -30), 3 (0, -60).
    assert [x.entry for x in compute_standings(make_event(rounds)).standings] == [4, 2, 1, 3]


def test_points_method_ranks_by_point_difference_before_match_points():
    # Round 1: 1 beats 2 by 2 (+2);   3 beats 4 by 60.
    # Round 2: 1 beats 3 by 2 (+2);   4 beats 2 by 60 (2 points below zero again).
    # 1 has 4 match points but +4; 3 has 2 match points and +58; 4 has 2 and 0.
    rounds = [([(1, 2, 2), (3, 4, 60)], None), ([(1, 3, 2), (4, 2, 60)], None)]
    points = compute_standings(make_event(rounds, ranking_method="points"))
    wins = compute_standings(make_event(rounds))
    assert [x.entry for x in points.standings] == [3, 1, 4, 2]
    assert [x.entry for x in wins.standings] == [1, 3, 4, 2]


def test_bye_counts_as_a_win_plus_36_by_default():
    event = make_event([([(1, 2, 10)], 3)], entries=(1, 2, 3))
    s = by_entry(compute_standings(event))[3]
    assert (s.match_points, s.wins, s.byes, s.boards_played) == (2, 1, 1, 0)
    assert (s.points_for, s.points_against, s.point_diff) == (36, 0, 36)
    assert s.buchholz == 0


def test_bye_points_are_set_by_the_event():
    event = make_event([([(1, 2, 10)], 3)], entries=(1, 2, 3), bye_points=20)
    s = by_entry(compute_standings(event))[3]
    assert (s.point_diff, s.match_points) == (20, 2)


def test_withdrawn_pair_keeps_its_results_and_stays_in_the_standings_flagged():
    # 4 wins round 1 (EW +10) and withdraws after it; round 2 has three pairs, 2 gets the bye.
    rounds = [([(1, 2, 20), (3, 4, -10)], None), ([(1, 3, 6)], 2)]
    event = make_event(rounds, withdrawn={4: 1})
    after_2 = by_entry(compute_standings(event))
    assert after_2[4].withdrawn
    assert (after_2[4].match_points, after_2[4].points_for, after_2[4].boards_played) == (2, 10, 1)
    assert not any(after_2[e].withdrawn for e in (1, 2, 3))
    late = make_event(rounds, withdrawn={4: 2})
    assert not by_entry(compute_standings(late, after_round=1))[4].withdrawn
    assert by_entry(compute_standings(late, after_round=2))[4].withdrawn


def test_standings_after_an_earlier_round_ignore_later_rounds():
    rounds = [([(1, 2, 20), (3, 4, -10)], None), ([(1, 3, -6), (2, 4, 8)], None)]
    snapshot = compute_standings(make_event(rounds), after_round=1)
    assert snapshot.after_round == 1
    assert len(snapshot.matches) == 2 and sorted(snapshot.travellers) == [11]
    assert by_entry(snapshot)[1].match_points == 2


def test_game_mode_standings_ignore_unplayed_boards_and_neuberg_the_short_ones():
    # Table 1 reaches 101 on board 1 (110-0): board 2 is not played there.
    # Table 2 plays both boards (50-0, then 0-20). Board 12 has one result of the two
    # expected: Neuberg 0 -> (0+1) x 2/1 - 1 = 1 of top 2 = 50 %.
    event = make_event(
        [([(1, 2, 110, 60), (3, 4, 50, -20)], None)], match_mode="game", game_target=101
    )
    result = compute_standings(event)
    s = by_entry(result)
    assert (s[1].points_for, s[1].boards_played) == (110, 1)
    assert s[3].boards_played == 2
    assert [line.table for line in result.travellers[12].lines] == [2]
    assert result.travellers[12].lines[0].pct_ns == pytest.approx(50)
    # Board 11: +110 v +50 -> pair 1 100 %, pair 3 0 %; pair 3: (0 + 50) / 2 = 25 %.
    assert s[1].duplicate_pct == 100
    assert s[3].duplicate_pct == pytest.approx(25)


def test_adjusted_board_counts_its_ruling_score_in_the_match_and_60_40_in_the_duplicate():
    adjusted = BoardResult(11, 1, 1, 2, 0, 12, adjusted_ns="avg_plus", adjusted_ew="avg_minus")
    other = BoardResult(11, 2, 3, 4, 30, 0)
    event = EventInput(
        entries=[1, 2, 3, 4],
        numbers={1: 1, 2: 2, 3: 3, 4: 4},
        withdrawn={},
        rounds=[
            RoundInput(
                1, [11], [TableRound(1, 1, 1, 2, [adjusted]), TableRound(1, 2, 3, 4, [other])]
            )
        ],
    )
    s = by_entry(compute_standings(event))
    assert (s[2].points_for, s[2].match_points) == (12, 2)
    assert (s[1].duplicate_pct, s[2].duplicate_pct) == (60, 40)
    # The only compared result (table 2) is scaled to two results: 50 % each.
    assert s[3].duplicate_pct == pytest.approx(50)


def test_lot_in_the_standings_is_the_position_in_the_seeded_draw():
    event = make_event([([(1, 2, 0), (3, 4, 0)], None)], seed="Sitges 2025")
    order = lot_order({1: 1, 2: 2, 3: 3, 4: 4}, "Sitges 2025")
    lots = {s.entry: s.lot for s in compute_standings(event).standings}
    assert [lots[e] for e in order] == [1, 2, 3, 4]


def test_same_board_in_two_rounds_is_rejected():
    tables = [TableRound(1, 1, 1, 2, [BoardResult(5, 1, 1, 2, 10, 0)])]
    tables2 = [TableRound(2, 1, 1, 2, [BoardResult(5, 1, 1, 2, 10, 0)])]
    event = EventInput(
        [1, 2], {1: 1, 2: 2}, {}, [RoundInput(1, [5], tables), RoundInput(2, [5], tables2)]
    )
    with pytest.raises(ValueError, match="more than one round"):
        compute_standings(event)


# --- nobody is credited with a match not played (issue 13) ----------------------------------


def _row(result, entry):
    return next(s for s in result.standings if s.entry == entry)


def _two_boards(closed: bool, *tables) -> EventInput:
    """One round of boards 11 and 12; a table is (ns, ew, [(board, net_ns), ...])."""
    table_rounds = [
        TableRound(
            1,
            t,
            ns,
            ew,
            [BoardResult(b, t, ns, ew, max(net, 0), max(-net, 0)) for b, net in played],
        )
        for t, (ns, ew, played) in enumerate(tables, start=1)
    ]
    return EventInput(
        entries=[1, 2, 3, 4],
        numbers={e: e for e in (1, 2, 3, 4)},
        withdrawn={},
        rounds=[RoundInput(1, [11, 12], table_rounds, closed=closed)],
    )


def test_an_open_rounds_match_counts_only_once_it_is_over():
    # Table 1 has played one board of two (NS +20); table 2 both boards.
    event = _two_boards(False, (1, 2, [(11, 20)]), (3, 4, [(11, 5), (12, -3)]))
    result = compute_standings(event)
    one, two = _row(result, 1), _row(result, 2)
    assert (one.wins, one.draws, one.match_points, one.points_for) == (0, 0, 0.0, 0)
    assert (two.losses, two.draws, two.match_points, two.points_against) == (0, 0, 0.0, 0)
    assert _row(result, 3).wins == 1 and _row(result, 3).match_points == 2.0
    assert [m.final for m in result.matches] == [False, True]


def test_a_match_with_no_board_is_no_draw_even_in_a_closed_round():
    event = _two_boards(True, (1, 2, []), (3, 4, [(11, 5)]))
    result = compute_standings(event)
    for entry in (1, 2):
        row = _row(result, entry)
        assert (row.wins, row.draws, row.losses, row.match_points) == (0, 0, 0, 0.0)
    # A closed round: the boards not played count as not played, the match is over.
    assert _row(result, 3).wins == 1 and _row(result, 4).losses == 1


def test_the_open_rounds_boards_still_reach_the_live_travellers():
    event = _two_boards(False, (1, 2, [(11, 20)]), (3, 4, [(11, 5), (12, -3)]))
    result = compute_standings(event)
    assert len(result.travellers[11].lines) == 2


# --- a pair withdrawing during its round forfeits the match (issue 14) ----------------------


def _forfeited(side: str, *, closed: bool = False, bye_points: int = 36) -> EventInput:
    """Table 1 (pairs 1 v 2) played board 11 (NS +20) before ``side`` withdrew; table 2 played
    both boards."""
    event = _two_boards(closed, (1, 2, [(11, 20)]), (3, 4, [(11, 5), (12, -3)]))
    first, second = event.rounds[0].tables
    return replace(
        event,
        bye_points=bye_points,
        rounds=[replace(event.rounds[0], tables=[replace(first, forfeited_by=side), second])],
    )


@pytest.mark.parametrize(("side", "winner", "loser"), [("NS", 2, 1), ("EW", 1, 2)])
def test_a_forfeited_match_is_won_by_the_opponents_like_a_bye(side, winner, loser):
    result = compute_standings(_forfeited(side, bye_points=30))
    won, lost = _row(result, winner), _row(result, loser)
    assert (won.wins, won.match_points, won.points_for, won.points_against) == (1, 2.0, 30, 0)
    assert (lost.losses, lost.match_points, lost.points_for, lost.points_against) == (
        1,
        0.0,
        0,
        30,
    )
    # Counted at once, open round or not: the withdrawal decided it.
    match = result.matches[0]
    assert match.final and match.forfeited_by == side
    # Nobody gets Buchholz from a match that was not played out.
    assert won.buchholz == 0.0 and lost.buchholz == 0.0


def test_boards_played_before_a_forfeit_stay_on_the_travellers():
    result = compute_standings(_forfeited("EW"))
    assert {(line.ns, line.ew) for line in result.travellers[11].lines} == {(1, 2), (3, 4)}
    assert _row(result, 1).boards_played == 1


def test_a_forfeit_by_an_unknown_side_is_refused():
    from scoring.matches import forfeit

    with pytest.raises(ValueError, match="NS or EW"):
        forfeit(compute_standings(_forfeited("NS")).matches[0], "N", 36)


def test_a_pair_without_boards_ranks_as_an_average_pair_on_duplicate_percentage():
    """A first-round bye has no duplicate percentage: not 0 % (below every pair that played),
    but 50 %, the next criterion deciding against a pair at exactly 50 %."""
    tables = [
        TableRound(round=1, table=1, ns=1, ew=2, results=[BoardResult(1, 1, 1, 2, 20, 0)]),
        TableRound(round=1, table=2, ns=3, ew=4, results=[BoardResult(1, 2, 3, 4, 10, 0)]),
        TableRound(round=1, table=3, ns=5, ew=6, results=[BoardResult(1, 3, 5, 6, 0, 0)]),
    ]
    event = EventInput(
        entries=[1, 2, 3, 4, 5, 6, 7],
        numbers={},
        withdrawn={},
        rounds=[RoundInput(number=1, boards=[1], tables=tables, bye=7)],
        ranking_method="matchpoints",
        seed="s",
    )
    rows = {s.entry: s for s in compute_standings(event).standings}
    bye = rows[7]
    assert bye.boards_played == 0 and bye.match_points == 2
    # Above the pairs at 50 % with fewer match points (3: 2 points, 4: none), below those at 100 %.
    # At 50 % with pairs 3 (2 match points, +10) and 4 (none): first of them on match points
    # and the bye's point difference; below the two pairs at 100 %, above those at 0 %.
    order = [s.entry for s in sorted(rows.values(), key=lambda s: (s.rank, s.entry))]
    assert order[2:5] == [7, 3, 4]
    assert set(order[:2]) == {1, 6} and set(order[5:]) == {2, 5}
