"""Duplicate comparison of one board: matchpoints, Neuberg, adjusted scores (R9 hand scores)."""

from __future__ import annotations

import pytest

from scoring.duplicate import neuberg, traveller
from scoring.types import BoardResult


def result(table: int, net_ns: int, **adjusted: str) -> BoardResult:
    # R9: only one side scores on a board; the other scores 0.
    return BoardResult(
        board=7,
        table=table,
        ns=100 + table,
        ew=200 + table,
        score_ns=max(net_ns, 0),
        score_ew=max(-net_ns, 0),
        **adjusted,
    )


def by_table(trav):
    return {line.table: line for line in trav.lines}


def test_matchpoints_two_per_result_beaten_and_one_per_tie():
    # NS nets +20, +8, +8, -12; four results so top = 2 x (4 - 1) = 6.
    #   +20 beats three: 2+2+2 = 6 (100 %)   EW 0
    #   +8  beats -12 (2) and ties +8 (1) = 3 (50 %)   EW 6 - 3 = 3
    #   -12 beats nobody: 0 (0 %)   EW 6
    trav = traveller(7, [result(1, 20), result(2, 8), result(3, 8), result(4, -12)])
    lines = by_table(trav)
    assert trav.top == 6
    assert [lines[t].mp_ns for t in (1, 2, 3, 4)] == [6, 3, 3, 0]
    assert [lines[t].mp_ew for t in (1, 2, 3, 4)] == [0, 3, 3, 6]
    assert [lines[t].pct_ns for t in (1, 2, 3, 4)] == [100, 50, 50, 0]
    assert [lines[t].pct_ew for t in (1, 2, 3, 4)] == [0, 50, 50, 100]
    assert lines[4].net_ns == -12 and lines[4].score_ew == 12 and lines[4].score_ns == 0


def test_traveller_lines_are_in_table_order_and_keep_the_entries():
    trav = traveller(7, [result(3, 0), result(1, 4)])
    assert [(line.table, line.ns, line.ew) for line in trav.lines] == [(1, 101, 201), (3, 103, 203)]


def test_neuberg_formula_worked_example():
    # Three results compared, four expected: ((mp + 1) x 4 / 3) - 1.
    #   mp 4 -> 5 x 4/3 - 1 = 17/3;  mp 2 -> 3 x 4/3 - 1 = 3;  mp 0 -> 4/3 - 1 = 1/3
    assert neuberg(4, 3, 4) == pytest.approx(17 / 3)
    assert neuberg(2, 3, 4) == pytest.approx(3)
    assert neuberg(0, 3, 4) == pytest.approx(1 / 3)
    assert neuberg(5, 4, 4) == 5


def test_board_with_a_missing_result_is_scaled_to_the_most_played_board():
    # Nets +20, +8, -12 with four results expected: raw 4, 2, 0 out of 4,
    # Neuberg 17/3, 3, 1/3 out of top 6 -> 94.44 %, 50 %, 5.56 %.
    trav = traveller(7, [result(1, 20), result(2, 8), result(3, -12)], n_max=4)
    lines = by_table(trav)
    assert trav.top == 6
    assert lines[1].mp_ns == pytest.approx(17 / 3)
    assert lines[1].mp_ew == pytest.approx(6 - 17 / 3)
    assert lines[2].pct_ns == pytest.approx(50)
    assert lines[3].pct_ns == pytest.approx(100 / 18)
    assert lines[3].pct_ew == pytest.approx(100 - 100 / 18)


def test_adjusted_scores_get_60_50_40_percent_and_the_rest_are_compared_with_neuberg():
    # Table 4 gets average-plus for NS and average-minus for EW: 60 % / 40 %, i.e. 3.6 / 2.4 of
    # the top of 6. Tables 1-3 (+20, +8, -12) are compared among themselves and scaled to 4.
    results = [
        result(1, 20),
        result(2, 8),
        result(3, -12),
        result(4, 0, adjusted_ns="avg_plus", adjusted_ew="avg_minus"),
    ]
    lines = by_table(traveller(7, results))
    assert (lines[4].pct_ns, lines[4].pct_ew) == (60, 40)
    assert (lines[4].mp_ns, lines[4].mp_ew) == pytest.approx((3.6, 2.4))
    assert lines[1].mp_ns == pytest.approx(17 / 3)
    assert lines[2].pct_ns == pytest.approx(50)


def test_an_adjusted_side_left_blank_gets_the_complement():
    # Average for NS only: EW gets 100 - 50 = 50; average-minus for EW only: NS gets 60.
    lines = by_table(
        traveller(7, [result(1, 0, adjusted_ns="avg"), result(2, 0, adjusted_ew="avg_minus")])
    )
    assert (lines[1].pct_ns, lines[1].pct_ew) == (50, 50)
    assert (lines[2].pct_ns, lines[2].pct_ew) == (60, 40)


def test_unknown_adjusted_score_is_rejected():
    with pytest.raises(ValueError, match="unknown adjusted score"):
        traveller(7, [result(1, 0, adjusted_ns="avg_plus_plus")])


def test_a_single_result_scores_fifty_percent():
    line = traveller(7, [result(1, 30)]).lines[0]
    assert (line.pct_ns, line.pct_ew) == (50, 50)
