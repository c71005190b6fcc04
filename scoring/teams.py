"""A team match: both tables' results board by board, the net in units, the victory points.

On each board team A gains what its two pairs made together: the North–South net at the open
room (A's pair NS) minus the North–South net at the closed room (B's pair NS, A's pair EW). That
difference becomes units with the difference scale (``scoring.scale``); the match's margin in
units becomes victory points (``scoring.vp``) over the number of boards scheduled.

* **Played** board (a result at both tables): ``units = difference_units(open − closed)``.
* **Adjusted** board (a referee's artificial score at one table or both): a table with an
  artificial score is not compared. Each such table gives team A
  ``trunc((adj(A's code) − adj(B's code)) / 2)`` units, where ``adj`` is ±``ADJUSTED_UNITS``
  (average-plus / minus) or 0 (average), and a side without a code gets the complement of the
  other's (plus ↔ minus, average ↔ average). So average-plus for A is +2 units, average for
  both is 0, both sides at fault (average-minus each) is 0. The other table's played result, if
  any, is disregarded; both tables adjusted add up.
* **Missing** board (a table has no result): 0 units. While a match is in progress this is a
  board still to come; once the organiser closes the match it counts as not played (average).

>>> from scoring.types import BoardResult
>>> m = TeamMatchInput(1, 1, team_a=10, team_b=20, boards=[1, 2],
...     open_room=[BoardResult(1, 1, 11, 21, 12, 0), BoardResult(2, 1, 11, 21, 0, 4)],
...     closed_room=[BoardResult(1, 2, 22, 12, 0, 30), BoardResult(2, 2, 22, 12, 0, 4)])
>>> r = score_team_match(m)
>>> [(line.difference, line.units) for line in r.lines], (r.vp_a, r.vp_b)
([(42, 8), (0, 0)], (18.37, 1.63))
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.scale import (
    BLITZ_PER_SQRT_BOARD,
    adjusted_codes,
    adjusted_units,
    difference_units,
)
from scoring.team_types import TeamBoardLine, TeamMatchInput, TeamMatchResult
from scoring.types import BoardResult
from scoring.vp import vp_hundredths


class TeamMatchError(ValueError):
    """A team match that cannot be scored (a board twice at a table, a board not scheduled…)."""


def _by_board(room: Sequence[BoardResult], boards: set[int], where: str) -> dict[int, BoardResult]:
    out: dict[int, BoardResult] = {}
    for r in room:
        if r.board not in boards:
            raise TeamMatchError(f"{where}: board {r.board} is not one of the match's boards")
        if r.board in out:
            raise TeamMatchError(f"{where}: board {r.board} has two results")
        # An adjusted board's scores are never compared (its codes count): not checked.
        if not r.adjusted and (r.score_ns < 0 or r.score_ew < 0 or (r.score_ns and r.score_ew)):
            raise TeamMatchError(
                f"{where}: board {r.board}: only one side scores, and never below 0 (R9)"
            )
        out[r.board] = r
    return out


def adjusted_room_units(a_code: str | None, b_code: str | None) -> int:
    """Team A's units at a table with an artificial adjusted score (codes of A's and B's side).

    >>> adjusted_room_units("avg_plus", None), adjusted_room_units(None, "avg_plus")
    (2, -2)
    >>> adjusted_room_units("avg_minus", "avg_minus"), adjusted_room_units("avg_plus", "avg")
    (0, 1)
    """
    try:
        a_code, b_code = adjusted_codes(a_code, b_code)
    except ValueError as exc:
        raise TeamMatchError(str(exc)) from None
    # int() truncates towards zero, so swapping the teams only changes the sign.
    return int((adjusted_units(a_code) - adjusted_units(b_code)) / 2)


def _net(r: BoardResult | None) -> int | None:
    return None if r is None or r.adjusted else r.score_ns - r.score_ew


def score_team_match(
    match: TeamMatchInput, *, blitz_per_sqrt_board: float | None = None
) -> TeamMatchResult:
    """The match scorecard: every scheduled board in board order, the totals and the VPs."""
    if not match.boards:
        raise TeamMatchError(f"match {match.match} of round {match.round} has no boards")
    if match.team_a == match.team_b:
        raise TeamMatchError(
            f"match {match.match} of round {match.round}: a team cannot meet itself"
        )
    if len(set(match.boards)) != len(match.boards):
        raise TeamMatchError(f"match {match.match} of round {match.round}: a board is listed twice")
    constant = BLITZ_PER_SQRT_BOARD if blitz_per_sqrt_board is None else blitz_per_sqrt_board
    n_boards = len(match.boards)
    scheduled = set(match.boards)
    where = f"round {match.round} match {match.match}"
    open_room = _by_board(match.open_room, scheduled, f"{where} open room")
    closed_room = _by_board(match.closed_room, scheduled, f"{where} closed room")
    lines: list[TeamBoardLine] = []
    won_a = won_b = 0
    played = adjusted = missing = 0
    for board in sorted(match.boards):
        o, c = open_room.get(board), closed_room.get(board)
        difference = 0
        if (o is not None and o.adjusted) or (c is not None and c.adjusted):
            status = "adjusted"
            adjusted += 1
            units = 0
            if o is not None and o.adjusted:  # A sits NS in the open room
                units += adjusted_room_units(o.adjusted_ns, o.adjusted_ew)
            if c is not None and c.adjusted:  # A sits EW in the closed room
                units += adjusted_room_units(c.adjusted_ew, c.adjusted_ns)
        elif o is not None and c is not None:
            status = "played"
            played += 1
            difference = (o.score_ns - o.score_ew) - (c.score_ns - c.score_ew)
            units = difference_units(difference)
        else:
            status = "missing"
            missing += 1
            units = 0
        won_a += max(units, 0)
        won_b += max(-units, 0)
        vp = vp_hundredths(won_a - won_b, boards=n_boards, blitz_per_sqrt_board=constant)
        lines.append(
            TeamBoardLine(
                board=board,
                status=status,
                open_net_ns=_net(o),
                closed_net_ns=_net(c),
                difference=difference,
                units=units,
                units_a=max(units, 0),
                units_b=max(-units, 0),
                running_a=won_a,
                running_b=won_b,
                running_vp_a=vp / 100,
                running_vp_b=(2000 - vp) / 100,
            )
        )
    last = lines[-1]
    return TeamMatchResult(
        round=match.round,
        match=match.match,
        team_a=match.team_a,
        team_b=match.team_b,
        boards=n_boards,
        boards_played=played,
        boards_adjusted=adjusted,
        boards_missing=missing,
        units_a=won_a,
        units_b=won_b,
        margin=won_a - won_b,
        vp_a=last.running_vp_a,
        vp_b=last.running_vp_b,
        lines=lines,
    )
