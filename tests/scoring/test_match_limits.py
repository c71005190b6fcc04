"""A round's match under the event's limits: 101, 12 deals or time; cap; draws (R12 + options)."""

from __future__ import annotations

from scoring.matches import match_result
from scoring.types import BoardResult, TableRound

OPEN = {"mode": "game", "target": 101, "cap": 121, "deal_limit": 12, "draw": "half"}


def table(*scores: tuple[int, int], time_after: int | None = None) -> TableRound:
    results = [BoardResult(b, 1, 1, 2, ns, ew) for b, (ns, ew) in enumerate(scores, start=1)]
    return TableRound(round=1, table=1, ns=1, ew=2, results=results, time_after=time_after)


def test_101_reached_first_the_rest_of_the_boards_are_not_played():
    m = match_result(table((60, 0), (0, 20), (48, 0), (0, 90)), **OPEN)
    assert (m.total_ns, m.total_ew, m.boards_played, m.mp_ns) == (108, 20, 3, 2)


def test_deal_limit_reached_first_boards_after_it_do_not_count():
    # 12 boards of 4 points, alternately: 24–24 after 12; board 13 (a tie-break board) ignored.
    scores = [(4, 0), (0, 4)] * 6 + [(0, 50)]
    m = match_result(table(*scores), **OPEN)
    assert (m.total_ns, m.total_ew, m.boards_played) == (24, 24, 12)
    assert (m.mp_ns, m.mp_ew) == (1, 1)


def test_time_called_first_counts_the_deal_in_progress_only():
    # Time during board 3: 10 + 0 + 6 = 16 v 12; board 4's 40 for EW is never played.
    m = match_result(table((10, 0), (0, 12), (6, 0), (0, 40), time_after=3), **OPEN)
    assert (m.total_ns, m.total_ew, m.boards_played) == (16, 12, 3)
    assert (m.mp_ns, m.mp_ew) == (2, 0)


def test_time_also_ends_a_match_of_boards():
    m = match_result(table((10, 0), (0, 12), (0, 40), time_after=2), mode="boards")
    assert (m.total_ns, m.total_ew, m.boards_played, m.mp_ew) == (10, 12, 2, 2)


def test_draw_as_half_a_win_each():
    m = match_result(table((12, 0), (0, 12), time_after=2), **OPEN)
    assert (m.mp_ns, m.mp_ew) == (1, 1)


def test_draw_broken_by_the_tiebreak_boards():
    # 8-deal game level 16–16; boards 9 and 10 are the tie-break deals: EW 6, NS 0 → EW wins.
    scores = [(4, 0), (0, 4)] * 4 + [(0, 6), (0, 0), (30, 0)]
    m = match_result(
        table(*scores), mode="game", target=None, cap=None, deal_limit=8, draw="tiebreak"
    )
    assert (m.total_ns, m.total_ew, m.boards_played) == (16, 22, 10)
    assert (m.mp_ns, m.mp_ew) == (0, 2)


def test_tiebreak_boards_missing_leave_the_match_drawn():
    # Level after 8 and no more results at the table: the totals as they stand, a draw.
    scores = [(4, 0), (0, 4)] * 4
    m = match_result(
        table(*scores), mode="game", target=None, cap=None, deal_limit=8, draw="tiebreak"
    )
    assert (m.mp_ns, m.mp_ew, m.boards_played) == (1, 1, 8)


def test_cap_121_on_the_points_counted():
    m = match_result(table((96, 0), (80, 0)), **OPEN)
    assert (m.total_ns, m.total_ew, m.mp_ns) == (121, 0, 2)
