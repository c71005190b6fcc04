"""One table's match in a round: the two pairs' totals and the match points.

Two modes, chosen per event:

* ``boards``: every board of the round is played; each pair's total is the sum of its hand
  scores (R9).
* ``game``: the boards are played in order as one game to ``target`` (R12). After each board,
  once a pair is at or above the target the game is over and the remaining boards are not played
  (any result entered for them is ignored). Each pair's total is then capped at ``cap``.

The higher total wins (2 match points), equal totals draw (1 each), the loser gets 0.
"""

from __future__ import annotations

from scoring.types import MATCH_MODES, BoardResult, MatchResult, TableRound


def played_results(table_round: TableRound, *, mode: str, target: int) -> list[BoardResult]:
    """The results that count for this table, in board order (game mode stops at the target)."""
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {mode!r}; expected one of {MATCH_MODES}")
    results = sorted(table_round.results, key=lambda r: r.board)
    if mode == "boards":
        return results
    ns = ew = 0
    for i, r in enumerate(results):
        ns += r.score_ns
        ew += r.score_ew
        if ns >= target or ew >= target:
            return results[: i + 1]
    return results


def match_result(
    table_round: TableRound, *, mode: str = "boards", target: int = 101, cap: int = 121
) -> MatchResult:
    return match_and_played(table_round, mode=mode, target=target, cap=cap)[0]


def match_and_played(
    table_round: TableRound, *, mode: str = "boards", target: int = 101, cap: int = 121
) -> tuple[MatchResult, list[BoardResult]]:
    """The match result and the board results it counted (the ones the traveller compares)."""
    played = played_results(table_round, mode=mode, target=target)
    total_ns = sum(r.score_ns for r in played)
    total_ew = sum(r.score_ew for r in played)
    if mode == "game":
        total_ns = min(total_ns, cap)
        total_ew = min(total_ew, cap)
    if total_ns > total_ew:
        mp_ns, mp_ew = 2, 0
    elif total_ns < total_ew:
        mp_ns, mp_ew = 0, 2
    else:
        mp_ns = mp_ew = 1
    result = MatchResult(
        round=table_round.round,
        table=table_round.table,
        ns=table_round.ns,
        ew=table_round.ew,
        total_ns=total_ns,
        total_ew=total_ew,
        boards_played=len(played),
        mp_ns=mp_ns,
        mp_ew=mp_ew,
    )
    return result, played
