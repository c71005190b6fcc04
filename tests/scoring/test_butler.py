"""Butler ranking of pairs in team events: the datum rule, units against it, the ranking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.butler import butler_ranking, datum
from scoring.types import BoardResult


def result(board: int, table: int, ns: int, ew: int, net_ns: int, **adjusted: str) -> BoardResult:
    # R9: only one side scores.
    return BoardResult(board, table, ns, ew, max(net_ns, 0), max(-net_ns, 0), **adjusted)


def test_small_fields_average_every_result():
    assert datum([10, -4]) == (3, 0)
    assert datum([10, 4, 0, -6]) == (2, 0)  # four results: nothing dropped


def test_from_five_results_the_top_and_bottom_are_dropped():
    # 30 and −20 dropped; (8 + 4 + 0) / 3 = 4.
    assert datum([30, 8, 4, 0, -20]) == (4, 1)
    assert datum(list(range(19))) == (9, 1)


def test_from_twenty_results_a_tenth_is_dropped_at_each_end():
    # 0..19 plus a wild 500: 21 results, two dropped at each end (500, 19; 0, 1): mean of 2..18.
    assert datum([*range(20), 500]) == (10, 2)
    assert datum(list(range(30)))[1] == 3


def test_datum_is_rounded_to_the_nearest_point_halves_away_from_zero():
    assert datum([1, 2]) == (2, 0)  # 1.5
    assert datum([-1, -2]) == (-2, 0)  # −1.5
    assert datum([1, 1, 2]) == (1, 0)  # 1.33
    with pytest.raises(ValueError):
        datum([])


@given(
    st.lists(st.integers(min_value=-1152, max_value=1152), min_size=1, max_size=40), st.randoms()
)
@settings(max_examples=200, deadline=None)
def test_datum_does_not_depend_on_the_order_of_the_field(nets, rng):
    shuffled = list(nets)
    rng.shuffle(shuffled)
    assert datum(shuffled) == datum(nets)
    assert min(nets) <= datum(nets)[0] <= max(nets)


def test_worked_example_of_the_docs():
    # Board 1, four tables, NS nets +10, +4, 0, −6: datum (10 + 4 + 0 − 6) / 4 = 2.
    #   +10 − 2 = 8 -> NS 2 units, EW −2;  +4 − 2 = 2 -> 1;  0 − 2 = −2 -> −1;  −6 − 2 = −8 -> −2.
    # Board 2, the same four tables, NS nets 0, 0, +36, 0: datum 9 (36 / 4).
    #   0 − 9 = −9 -> −2 (three tables);  36 − 9 = 27 -> +6.
    pairs = {1: (101, 201), 2: (102, 202), 3: (103, 203), 4: (104, 204)}
    nets = {1: [10, 4, 0, -6], 2: [0, 0, 36, 0]}
    results = [
        result(board, t, *pairs[t], nets[board][t - 1]) for board in (1, 2) for t in (1, 2, 3, 4)
    ]
    r = butler_ranking(results)
    assert (r.boards[1].datum, r.boards[2].datum) == (2, 9)
    assert [line.units_ns for line in r.boards[1].lines] == [2, 1, -1, -2]
    assert [line.units_ns for line in r.boards[2].lines] == [-2, -2, 6, -2]
    totals = {s.pair: s.units for s in r.standings}
    assert totals == {101: 0, 102: -1, 103: 5, 104: -4, 201: 0, 202: 1, 203: -5, 204: 4}
    by_pair = {s.pair: s for s in r.standings}
    assert by_pair[103].average == 2.5 and by_pair[103].rank == 1
    assert by_pair[204].rank == 2 and by_pair[104].rank == 7 and by_pair[203].rank == 8
    # 101 and 201 are both at 0 over two boards: one shared rank, ordered by the lot.
    assert by_pair[101].rank == by_pair[201].rank == 4


def test_adjusted_results_stay_out_of_the_datum_and_score_their_adjustment():
    results = [
        result(1, 1, 11, 21, 20),
        result(1, 2, 12, 22, 0),
        result(1, 3, 13, 23, 0, adjusted_ns="avg_plus"),
    ]
    r = butler_ranking(results)
    board = r.boards[1]
    assert (board.datum, board.results) == (10, 2)
    assert [(line.net_ns, line.units_ns, line.units_ew) for line in board.lines] == [
        (20, 2, -2),  # 20 − 10 = 10 -> 2 units
        (0, -2, 2),
        (None, 2, -2),  # average-plus NS, so average-minus EW
    ]


def test_both_sides_at_fault_both_lose_the_adjustment():
    r = butler_ranking([result(1, 1, 11, 21, 0, adjusted_ns="avg_minus", adjusted_ew="avg_minus")])
    assert {s.pair: s.units for s in r.standings} == {11: -2, 21: -2}


def test_pairs_below_the_minimum_of_boards_rank_after_the_others():
    results = [
        result(1, 1, 11, 21, 30),
        result(1, 2, 12, 22, 0),
        result(2, 1, 12, 21, 0),
        result(2, 2, 13, 22, 0),
    ]
    r = butler_ranking(results, min_boards=2)
    by_pair = {s.pair: s for s in r.standings}
    # Board 1's datum is 15: pair 11 scores 30 − 15 = 15 -> 4 units, the best average, but on
    # one board only.
    assert by_pair[11].units == 4 and not by_pair[11].qualified and by_pair[12].qualified
    assert by_pair[11].rank > max(s.rank for s in r.standings if s.qualified)


def test_results_scored_for_both_sides_are_rejected():
    with pytest.raises(ValueError, match="only one side scores"):
        butler_ranking([BoardResult(1, 1, 11, 21, 4, 6)])
    with pytest.raises(ValueError, match="min_boards"):
        butler_ranking([], min_boards=-1)


@given(
    st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=3),  # board
            st.integers(min_value=1, max_value=6),  # NS pair
            st.integers(min_value=-300, max_value=300),  # NS net
        ),
        min_size=1,
        max_size=30,
    ),
    st.randoms(),
)
@settings(max_examples=100, deadline=None)
def test_the_ranking_does_not_depend_on_the_order_of_the_results(rows, rng):
    results = [result(b, t, ns, 100 + ns, net) for t, (b, ns, net) in enumerate(rows, start=1)]
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert butler_ranking(shuffled).standings == butler_ranking(results).standings
    # On a played result the two pairs score opposite units.
    for board in butler_ranking(results).boards.values():
        assert all(line.units_ns == -line.units_ew for line in board.lines)


def test_an_adjusted_result_is_not_read_for_its_scores():
    # Its codes count, not its scores (which an old ruling may have credited to both pairs).
    results = [
        result(1, 1, 11, 21, 20),
        result(1, 2, 12, 22, 0),
        BoardResult(1, 3, 13, 23, 10, 10, adjusted_ns="avg_plus"),
    ]
    r = butler_ranking(results)
    assert [line.units_ns for line in r.boards[1].lines] == [2, -2, 2]
    with pytest.raises(ValueError, match="only one side scores"):
        butler_ranking([BoardResult(1, 1, 11, 21, 10, 10)])
