"""Victory points: the WBF-style continuous 20–0 scale in difference-scale units."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.scale import BLITZ_PER_SQRT_BOARD
from scoring.vp import blitz, victory_points, vp_table

TAU = (math.sqrt(5) - 1) / 2


def wbf(margin: float, boards: int, constant: float = BLITZ_PER_SQRT_BOARD) -> float:
    """The formula of docs/teams.md, written out again: 10 + 10 (1 − τ^(3m/B)) / (1 − τ³)."""
    b = constant * math.sqrt(boards)
    if margin >= b:
        return 20.0
    return 10 + 10 * (1 - TAU ** (3 * margin / b)) / (1 - TAU**3)


def test_hand_computed_values():
    # 8 boards: B = 8 × √8 = 22.627. Margin 5: τ^(15/22.627) = 0.72688,
    # 10 + 10 × 0.27312 / 0.76393 = 13.575 -> 13.58.
    assert victory_points(5, boards=8) == (13.58, 6.42)
    # 2 boards: B = 8 × √2 = 11.314. Margin 8: τ^(24/11.314) = 0.36031 -> 18.37.
    assert victory_points(8, boards=2) == (18.37, 1.63)
    # 4 boards: B = 16. Margin -10: τ^(30/16) = 0.40565 -> the winner 17.78, the loser 2.22.
    assert victory_points(-10, boards=4) == (2.22, 17.78)


def test_a_drawn_match_is_ten_all_and_the_blitz_is_twenty_nil():
    assert victory_points(0, boards=12) == (10.0, 10.0)
    b = blitz(boards=12)  # 8 × √12 = 27.71
    assert victory_points(math.ceil(b), boards=12) == (20.0, 0.0)
    assert victory_points(math.floor(b), boards=12)[0] < 20
    assert victory_points(-500, boards=12) == (0.0, 20.0)


@pytest.mark.parametrize("boards", [1, 2, 6, 8, 9, 12, 16, 24, 32, 64])
def test_table_follows_the_formula_within_rounding(boards):
    table = vp_table(boards=boards)
    for margin, hundredths in enumerate(table):
        # Rounded to the hundredth, then at most one hundredth moved to keep it concave.
        assert abs(hundredths / 100 - wbf(margin, boards)) <= 0.015


@pytest.mark.parametrize("boards", [1, 2, 6, 8, 9, 12, 16, 24, 32, 64])
def test_each_extra_unit_is_worth_no_more_than_the_previous_one(boards):
    table = vp_table(boards=boards)
    steps = [b - a for a, b in zip(table, table[1:], strict=False)]
    assert all(s >= 0 for s in steps)
    assert steps == sorted(steps, reverse=True)
    assert table[0] == 1000 and table[-1] == 2000


@given(
    margin=st.integers(min_value=-200, max_value=200),
    step=st.integers(min_value=0, max_value=50),
    boards=st.integers(min_value=1, max_value=64),
)
@settings(max_examples=300, deadline=None)
def test_vps_are_bounded_monotonic_and_add_up_to_twenty(margin, step, boards):
    vp_a, vp_b = victory_points(margin, boards=boards)
    assert 0 <= vp_a <= 20 and 0 <= vp_b <= 20
    assert round(vp_a + vp_b, 2) == 20
    assert victory_points(-margin, boards=boards) == (vp_b, vp_a)
    assert victory_points(margin + step, boards=boards)[0] >= vp_a


def test_more_boards_need_a_bigger_margin_for_the_same_vps():
    assert victory_points(10, boards=16)[0] < victory_points(10, boards=8)[0]


def test_the_blitz_constant_is_a_parameter():
    # 15 IMPs × √16 = 60: the WBF's own scale when the constant is 15.
    assert victory_points(60, boards=16, blitz_per_sqrt_board=15) == (20.0, 0.0)
    assert victory_points(30, boards=16, blitz_per_sqrt_board=15)[0] == round(wbf(30, 16, 15), 2)


@pytest.mark.parametrize("bad", [0, -3])
def test_a_match_needs_boards(bad):
    with pytest.raises(ValueError, match="at least one board"):
        victory_points(3, boards=bad)


def test_a_margin_is_a_whole_number_of_units():
    with pytest.raises(ValueError, match="whole number"):
        victory_points(2.5, boards=8)  # type: ignore[arg-type]
