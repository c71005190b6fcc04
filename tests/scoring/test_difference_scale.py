"""The Botifarra difference scale: the shipped table, its lookup, and the derivation rule."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import difference_scale as derivation
from scoring.scale import (
    EDGES,
    MAX_UNITS,
    adjusted_codes,
    adjusted_units,
    difference_units,
    scale_bands,
)

ROOT = Path(__file__).resolve().parents[2]
# The largest difference R9/R10 allow: ±36 × 16 at each table, in opposite directions.
LARGEST = 2 * 36 * 16


def test_the_published_table_is_the_shipped_one():
    # docs/teams.md prints this table and computes its worked examples with it: a regenerated
    # table must update the page (and this list) in the same change.
    assert EDGES == (
        2, 6, 11, 15, 20, 26, 33, 41, 51, 63, 78, 95,
        120, 140, 170, 210, 260, 320, 390, 470, 570, 700, 860, 1000,
    )  # fmt: skip


def test_each_edge_is_the_first_difference_worth_one_more_unit():
    for k, edge in enumerate(EDGES, start=1):
        assert difference_units(edge) == k
        assert difference_units(edge - 1) == k - 1
        assert difference_units(-edge) == -k


def test_small_differences_are_pushes_and_the_largest_is_worth_the_top():
    # Like the IMP table's 0–10: a one-point difference (a sota, a trick) scores nothing.
    assert difference_units(0) == 0
    assert difference_units(1) == difference_units(-1) == 0
    assert difference_units(LARGEST) == MAX_UNITS == 24
    assert difference_units(10**6) == 24


@given(st.integers(min_value=-3000, max_value=3000))
@settings(max_examples=300, deadline=None)
def test_scale_is_odd(d):
    assert difference_units(-d) == -difference_units(d)


@given(st.integers(min_value=-3000, max_value=3000), st.integers(min_value=0, max_value=600))
@settings(max_examples=300, deadline=None)
def test_scale_is_monotonic(d, step):
    assert difference_units(d) <= difference_units(d + step)


@given(st.floats(min_value=-2000, max_value=2000, allow_nan=False))
@settings(max_examples=200, deadline=None)
def test_fractional_differences_fall_between_their_whole_neighbours(x):
    assert difference_units(math.floor(x)) <= difference_units(x) <= difference_units(math.ceil(x))
    assert difference_units(-x) == -difference_units(x)


def test_bands_cover_every_difference_once():
    bands = scale_bands()
    assert bands[0].low == 0
    assert [b.units for b in bands] == list(range(MAX_UNITS + 1))
    for band, following in zip(bands, bands[1:], strict=False):
        assert band.high == following.low - 1
        assert difference_units(band.low) == difference_units(band.high) == band.units
    assert bands[-1].high is None


def test_adjusted_scores_are_worth_plus_or_minus_the_mean_swing():
    assert (adjusted_units("avg_plus"), adjusted_units("avg"), adjusted_units("avg_minus")) == (
        2,
        0,
        -2,
    )
    with pytest.raises(ValueError, match="unknown adjusted score"):
        adjusted_units("avg_plusplus")


def test_a_side_without_an_adjusted_code_gets_the_complement():
    assert adjusted_codes("avg_plus", None) == ("avg_plus", "avg_minus")
    assert adjusted_codes(None, "avg") == ("avg", "avg")
    assert adjusted_codes("avg_minus", "avg_minus") == ("avg_minus", "avg_minus")
    with pytest.raises(ValueError):
        adjusted_codes(None, None)


# -- the derivation (benchmarks/difference_scale.py) ------------------------------------------


def test_shipped_edges_follow_the_documented_rule_from_the_recorded_width():
    # units = round-half-up(gain × asinh(d / width)) with gain putting 1152 at 24 units; edges
    # rounded to two significant figures (halves up). Recomputed here from the recorded width.
    data = json.loads((ROOT / "scoring" / "difference_scale.json").read_text())
    width = data["derivation"]["width"]
    gain = 24 / math.asinh(1152 / width)
    assert gain == pytest.approx(data["derivation"]["gain"], abs=1e-4)
    edges = []
    for k in range(1, 25):
        e = math.ceil(width * math.sinh((k - 0.5) / gain))
        if e >= 100:
            step = 10 ** (len(str(e)) - 2)
            e = math.floor(e / step + 0.5) * step
        edges.append(e)
    assert tuple(edges) == EDGES


def test_body_width_meets_the_dominance_criterion():
    # A made-up distribution: the largest lliure swing must be worth eight mean edges.
    diffs = [0] * 20 + [2, 4, 6, 8, 10, 12, 16, 20, 24, 30, 36, 48, 72, 96, 144] * 4
    width = derivation.body_width(diffs)
    assert derivation.dominance(diffs, width) == pytest.approx(derivation.MATCH_OF_EDGES, abs=1e-3)
    # A wider body makes the big swing worth more edges.
    assert derivation.dominance(diffs, width * 2) > derivation.MATCH_OF_EDGES


def test_two_figures_rounding_of_edges():
    assert [derivation.two_figures(x) for x in (7, 99, 104, 115, 125, 1049, 1050)] == [
        7,
        99,
        100,
        120,
        130,
        1000,
        1100,
    ]


def test_simulated_tables_give_r9_and_r10_scores():
    model = derivation.Model()
    thresholds = derivation.calibrate(model, boards=200)
    for open_room, closed_room in derivation.simulate(model, thresholds, 12, seed="test"):
        for table in (open_room, closed_room):
            # R9: |net| ≤ 36 × multiplier; R10: a penalty is exactly 36 × multiplier.
            assert abs(table.net_ns) <= 36 * table.multiplier
            if table.illegal:
                assert abs(table.net_ns) == 36 * table.multiplier
            assert table.multiplier in (1, 2, 4, 8, 16)
