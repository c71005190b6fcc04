"""Duplicate comparison of one board across the field: the traveller.

Every result is compared, in NS terms, with the other results of the same board: 2 matchpoints
for each result it beats, 1 for each tie. The top is 2 × (results − 1). When a board has fewer
comparable results than the most-played board of its round (a missing result, a cancelled one, a
referee's adjusted score, a board not reached in game mode), Neuberg's formula scales the
matchpoints up to that larger field so that every board of the round weighs the same.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from scoring.types import ADJUSTED_PCT, BoardResult, Traveller, TravellerLine


def neuberg(mp: float, n_results: int, n_max: int) -> float:
    """Matchpoints scaled from a field of ``n_results`` to one of ``n_max`` (2 per beaten result).

    ``((mp + 1) × n_max / n_results) − 1``: the +1/−1 counts the result as tying with itself,
    which keeps the scaled score inside the larger top.

    >>> neuberg(2, 2, 3)  # beat the only other result; 3 results expected
    3.5
    """
    if n_results <= 0:
        raise ValueError("Neuberg needs at least one result")
    if n_results == n_max:
        return float(mp)
    return (mp + 1) * n_max / n_results - 1


def _adjusted_pcts(r: BoardResult) -> tuple[float, float]:
    """Percentages of an artificial adjusted score; a side left None gets the complement."""
    try:
        ns = ADJUSTED_PCT[r.adjusted_ns] if r.adjusted_ns is not None else None
        ew = ADJUSTED_PCT[r.adjusted_ew] if r.adjusted_ew is not None else None
    except KeyError as exc:
        raise ValueError(f"board {r.board} table {r.table}: unknown adjusted score {exc}") from None
    if ns is None:
        assert ew is not None
        ns = 100.0 - ew
    if ew is None:
        ew = 100.0 - ns
    return ns, ew


def traveller(board: int, results: Sequence[BoardResult], n_max: int | None = None) -> Traveller:
    """Score every result of ``board`` against the others.

    ``n_max`` is the number of results the most-played board of the round has; by default the
    number of results given. Adjusted results are not compared (they get 60/50/40 %); the
    others are compared among themselves and scaled with Neuberg to ``n_max``.
    """
    expected = max(len(results), n_max or 0)
    top = 2 * (expected - 1) if expected > 1 else 0
    nets = sorted(r.score_ns - r.score_ew for r in results if not r.adjusted)
    n = len(nets)
    lines: list[TravellerLine] = []
    for r in sorted(results, key=lambda r: r.table):
        net = r.score_ns - r.score_ew
        if r.adjusted:
            pct_ns, pct_ew = _adjusted_pcts(r)
            mp_ns = top * pct_ns / 100
            mp_ew = top * pct_ew / 100
        else:
            lower = bisect_left(nets, net)
            ties = bisect_right(nets, net, lower) - lower - 1
            mp_ns = neuberg(2 * lower + ties, n, expected)
            mp_ew = top - mp_ns
            if top:
                pct_ns = 100.0 * mp_ns / top
                pct_ew = 100.0 - pct_ns
            else:
                pct_ns = pct_ew = 50.0
        lines.append(
            TravellerLine(
                table=r.table,
                ns=r.ns,
                ew=r.ew,
                score_ns=r.score_ns,
                score_ew=r.score_ew,
                net_ns=net,
                mp_ns=mp_ns,
                mp_ew=mp_ew,
                pct_ns=pct_ns,
                pct_ew=pct_ew,
            )
        )
    return Traveller(board=board, lines=lines, top=top)
