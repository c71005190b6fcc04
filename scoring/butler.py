"""Butler ranking of the pairs of a team event: every result against the field's datum.

For each board, the *datum* is the mean North–South net of the results played on it (every
table of every match that played the board), leaving out the extremes once the field is big
enough: from ``TRIM_FROM`` (5) results on, the ``max(1, n // 10)`` highest and as many lowest nets
are dropped (one each up to 19 results, two from 20, …). The mean is rounded to the nearest
whole point, halves away from zero.

Each pair then scores ``difference_units(net − datum)`` in its own direction: North–South that
figure, East–West its negation. An artificial adjusted score is left out of the datum and gives
each side its own adjustment in units (``scoring.scale.ADJUSTED_UNITS``; a side without a code
gets the complement of the other's). A pair's total is the sum over its boards; the ranking is
by the average per board, then the total; pairs with fewer than ``min_boards`` boards are ranked
after those with enough. Equal pairs share a rank; the lot orders them on the page.

>>> datum([10, 2, 8, 0, 6])  # 5 results: 0 and 10 are dropped, (2 + 6 + 8) / 3 = 5.33
(5, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from scoring.lots import lot_order
from scoring.ranking import ranked_groups, shared_ranks
from scoring.scale import adjusted_codes, adjusted_units, difference_units
from scoring.team_types import ButlerBoard, ButlerLine, ButlerResult, ButlerStanding
from scoring.types import BoardResult

TRIM_FROM = 5
# Averages are quotients of whole numbers: round them before comparing so that equal pairs tie.
_AVERAGE_DIGITS = 9


def _round_half_away(x: Fraction) -> int:
    whole = int(abs(x) + Fraction(1, 2))
    return whole if x >= 0 else -whole


def datum(nets: Sequence[int]) -> tuple[int, int]:
    """The datum of a board from its North–South nets, and how many were dropped at each end.

    >>> datum([7, -3]), datum([-5, -6])
    ((2, 0), (-6, 0))
    """
    n = len(nets)
    if n == 0:
        raise ValueError("a datum needs one result at least")
    drop = 0 if n < TRIM_FROM else max(1, n // 10)
    kept = sorted(nets)[drop : n - drop]
    return _round_half_away(Fraction(sum(kept), len(kept))), drop


def butler_ranking(
    results: Sequence[BoardResult],
    *,
    min_boards: int = 0,
    numbers: Mapping[int, int] | None = None,
    seed: str = "",
) -> ButlerResult:
    """The Butler ranking of the pairs in ``results`` (``ns``/``ew`` are pair ids).

    ``numbers`` maps pair id → the number shown to players, for the lot (default: the id).
    """
    if min_boards < 0:
        raise ValueError("min_boards cannot be negative")
    units, boards, out_boards = _board_units(results)
    return _ranked(units, boards, out_boards, min_boards=min_boards, numbers=numbers, seed=seed)


def butler_after_each(
    rounds: Sequence[Sequence[BoardResult]],
    *,
    min_boards: int = 0,
    numbers: Mapping[int, int] | None = None,
    seed: str = "",
) -> list[ButlerResult]:
    """The Butler ranking after each round: ``rounds[k]`` holds round k + 1's results. A board
    belongs to one round, so each board's datum and units are computed once and added up
    (the same as ``butler_ranking`` of every result up to that round)."""
    if min_boards < 0:
        raise ValueError("min_boards cannot be negative")
    units: dict[int, int] = {}
    boards: dict[int, int] = {}
    out_boards: dict[int, ButlerBoard] = {}
    out = []
    for results in rounds:
        r_units, r_boards, r_out = _board_units(results)
        if set(r_out) & set(out_boards):
            raise ValueError("a board appears in two rounds")
        for pair, u in r_units.items():
            units[pair] = units.get(pair, 0) + u
            boards[pair] = boards.get(pair, 0) + r_boards[pair]
        out_boards.update(r_out)
        out.append(
            _ranked(
                dict(units),
                dict(boards),
                dict(out_boards),
                min_boards=min_boards,
                numbers=numbers,
                seed=seed,
            )
        )
    return out


def _board_units(
    results: Sequence[BoardResult],
) -> tuple[dict[int, int], dict[int, int], dict[int, ButlerBoard]]:
    """Each pair's units and boards over ``results``, and every board's datum and lines."""
    per_board: dict[int, list[BoardResult]] = {}
    for r in results:
        # An adjusted result stays out of the datum (its codes count): its scores are not read.
        if not r.adjusted and (r.score_ns < 0 or r.score_ew < 0 or (r.score_ns and r.score_ew)):
            raise ValueError(f"board {r.board} table {r.table}: only one side scores (R9)")
        per_board.setdefault(r.board, []).append(r)
    units: dict[int, int] = {}
    boards: dict[int, int] = {}
    out_boards: dict[int, ButlerBoard] = {}

    def add(pair: int, u: int) -> None:
        units[pair] = units.get(pair, 0) + u
        boards[pair] = boards.get(pair, 0) + 1

    for board in sorted(per_board):
        lines_in = sorted(per_board[board], key=lambda r: r.table)
        nets = [r.score_ns - r.score_ew for r in lines_in if not r.adjusted]
        d, dropped = datum(nets) if nets else (0, 0)
        lines: list[ButlerLine] = []
        for r in lines_in:
            if r.adjusted:
                net = None
                code_ns, code_ew = adjusted_codes(r.adjusted_ns, r.adjusted_ew)
                u_ns, u_ew = adjusted_units(code_ns), adjusted_units(code_ew)
            else:
                net = r.score_ns - r.score_ew
                u_ns = difference_units(net - d)
                u_ew = -u_ns
            add(r.ns, u_ns)
            add(r.ew, u_ew)
            lines.append(ButlerLine(r.table, r.ns, r.ew, net, u_ns, u_ew))
        out_boards[board] = ButlerBoard(board, d, len(nets), dropped, lines)

    return units, boards, out_boards


def _ranked(
    units: dict[int, int],
    boards: dict[int, int],
    out_boards: dict[int, ButlerBoard],
    *,
    min_boards: int,
    numbers: Mapping[int, int] | None,
    seed: str,
) -> ButlerResult:
    pairs = sorted(units)
    nums = {p: (numbers or {}).get(p, p) for p in pairs}
    lot_pos = {p: k + 1 for k, p in enumerate(lot_order(nums, seed))}
    average = {p: units[p] / boards[p] for p in pairs}
    qualified = {p: boards[p] >= min_boards for p in pairs}
    groups = ranked_groups(
        pairs,
        before=lambda p: (not qualified[p], -round(average[p], _AVERAGE_DIGITS), -units[p]),
        after=lambda p: (),
    )
    standings = [
        ButlerStanding(
            pair=p,
            rank=rank,
            boards=boards[p],
            units=units[p],
            average=average[p],
            qualified=qualified[p],
            lot=lot_pos[p],
        )
        for p, rank in shared_ranks(groups, lot=lot_pos)
    ]
    return ButlerResult(standings=standings, boards=out_boards)
