"""A table's match: boards mode sums every board; game mode plays to the target (R9, R12)."""

from __future__ import annotations

from scoring.matches import match_result
from scoring.types import BoardResult, TableRound


def table(*scores: tuple[int, int]) -> TableRound:
    results = [BoardResult(b, 1, 1, 2, ns, ew) for b, (ns, ew) in enumerate(scores, start=1)]
    return TableRound(round=1, table=1, ns=1, ew=2, results=results)


def test_boards_mode_sums_every_hand_score():
    m = match_result(table((10, 0), (0, 24), (40, 0)), mode="boards")
    assert (m.total_ns, m.total_ew, m.boards_played) == (50, 24, 3)
    assert (m.mp_ns, m.mp_ew) == (2, 0)


def test_equal_totals_are_a_draw_worth_one_match_point_each():
    m = match_result(table((12, 0), (0, 12)), mode="boards")
    assert (m.mp_ns, m.mp_ew) == (1, 1)


def test_game_mode_stops_when_a_pair_reaches_the_target_r12():
    # 60 + 48 = 108 >= 101 after board 3: boards 4 and 5 are not played, their results ignored.
    m = match_result(
        table((60, 0), (0, 30), (48, 0), (0, 100), (0, 100)), mode="game", target=101, cap=121
    )
    assert m.boards_played == 3
    assert (m.total_ns, m.total_ew) == (108, 30)
    assert (m.mp_ns, m.mp_ew) == (2, 0)


def test_game_mode_caps_the_points_counted_at_121_by_default():
    # 80 + 96 = 176 after board 2: counted as 121.
    m = match_result(table((80, 0), (96, 0), (0, 50)), mode="game")
    assert (m.total_ns, m.total_ew, m.boards_played) == (121, 0, 2)


def test_game_mode_with_a_quick_target_and_own_cap():
    m = match_result(table((30, 0), (0, 72), (10, 0)), mode="game", target=51, cap=60)
    assert (m.total_ns, m.total_ew, m.boards_played) == (30, 60, 2)
    assert (m.mp_ns, m.mp_ew) == (0, 2)


def test_game_mode_without_reaching_the_target_compares_the_totals():
    m = match_result(table((20, 0), (0, 12), (0, 4)), mode="game")
    assert (m.total_ns, m.total_ew, m.boards_played) == (20, 16, 3)
    assert m.mp_ns == 2


def test_game_mode_plays_boards_in_board_order_whatever_the_input_order():
    t = table((60, 0), (48, 0), (0, 120))
    shuffled = TableRound(1, 1, 1, 2, list(reversed(t.results)))
    assert match_result(shuffled, mode="game") == match_result(t, mode="game")


def test_a_score_credited_to_both_pairs_counts_its_net_in_a_game():
    # R9 forbids it, and rulings refuse it now; one stored before is read as its net (NS 10 v
    # EW 4 is NS 6) rather than stopping the standings and every page that reads the match.
    m = match_result(table((10, 4), (0, 2)), mode="game", target=101, cap=121)
    assert (m.total_ns, m.total_ew, m.boards_played, m.mp_ns) == (6, 2, 2, 2)
