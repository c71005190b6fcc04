"""One table's match in a round: the two pairs' totals and the match points.

Two modes, chosen per event:

* ``boards``: every board of the round is played; each pair's total is the sum of its hand
  scores (R9).
* ``game``: the boards are played in order as one game (R12) under the event's match rules
  (``engine.match``): a target, a deal limit, the round's time, a cap on the points counted and
  a draw rule. The game is an :class:`engine.match.Partida` fed the table's results in board
  order; once it is over, the remaining boards are not played (any result entered for them is
  ignored). Each pair's total is then capped. When the table's results run out before the game
  is over, the totals as they stand decide.

Time (``TableRound.time_after``) ends the boards mode: boards after the deal in progress when
time was called are not played. In a game it ends only the regular deals (``engine.match``): a
game level then still plays its tie-break deals, or plays on (R12), on the round's next boards.
The winner (the game's winner, or the higher total) gets 2 match
points, a draw 1 each, the loser 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine import MatchRules, Partida
from scoring.types import MATCH_MODES, BoardResult, MatchResult, RoundInput, TableRound


def _play(
    table_round: TableRound,
    *,
    mode: str,
    rules: MatchRules,
    boards: Sequence[int] | None = None,
) -> tuple[Partida | None, list[BoardResult]]:
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {mode!r}; expected one of {MATCH_MODES}")
    results = sorted(table_round.results, key=lambda r: r.board)
    time_after = table_round.time_after
    if time_after is not None:
        # The round's first boards, whether or not each has a result (the round's boards
        # unknown: the first results stand for them).
        regular = set(sorted(boards)[:time_after]) if boards is not None else None
        in_time = (
            [r for r in results if r.board in regular]
            if regular is not None
            else results[:time_after]
        )
        # Time ends the regular deals: in boards mode nothing after them is played; a game
        # still level plays its tie-break deals (or plays on) after them, once they are all in.
        if mode == "boards" or len(in_time) < time_after:
            results = in_time
    if mode == "boards":
        return None, results
    game = Partida.new(rules, time_after=time_after)
    for i, r in enumerate(results):
        game.add(_deal(r.score_ns, r.score_ew))
        if game.finished:
            return game, results[: i + 1]
    return game, results


def _deal(score_ns: int, score_ew: int) -> dict[str, int]:
    """A board's score as a deal of the game. Only one pair scores (R9); a score credited to
    both (an adjusted ruling stored before the rulings refused one) counts as its net, so that
    the match is still scored rather than every page that reads it failing."""
    net = score_ns - score_ew
    return {"NS": max(net, 0), "EW": max(-net, 0)}


def match_result(
    table_round: TableRound,
    *,
    mode: str = "boards",
    target: int | None = 101,
    cap: int | None = 121,
    deal_limit: int | None = None,
    draw: str = "half",
    tiebreak_deals: int = 2,
) -> MatchResult:
    return match_and_played(
        table_round,
        mode=mode,
        target=target,
        cap=cap,
        deal_limit=deal_limit,
        draw=draw,
        tiebreak_deals=tiebreak_deals,
    )[0]


def match_and_played(
    table_round: TableRound,
    *,
    mode: str = "boards",
    target: int | None = 101,
    cap: int | None = 121,
    deal_limit: int | None = None,
    draw: str = "half",
    tiebreak_deals: int = 2,
) -> tuple[MatchResult, list[BoardResult]]:
    """The match result and the board results it counted (the ones the traveller compares)."""
    rules = MatchRules(
        target=target, deal_limit=deal_limit, cap=cap, draw=draw, tiebreak_deals=tiebreak_deals
    )
    return match_under(table_round, mode=mode, rules=rules)


def match_under(
    table_round: TableRound,
    *,
    mode: str,
    rules: MatchRules,
    boards: Sequence[int] | None = None,
) -> tuple[MatchResult, list[BoardResult]]:
    """:func:`match_and_played` with the rules as one value (``EventInput.match_rules``).

    ``boards``: the round's board numbers; with them, ``final`` says whether the match is
    over (every board played, the game over, or time called and its boards in), and time
    called after deal k leaves out every board after the round's k-th (a board before it
    without a result does not let a later one in); without them the match is taken as final.
    """
    game, played = _play(table_round, mode=mode, rules=rules, boards=boards)
    raw_ns = sum(r.score_ns for r in played)
    raw_ew = sum(r.score_ew for r in played)
    total_ns, total_ew = raw_ns, raw_ew
    if game is not None:
        total_ns, total_ew = game.counted["NS"], game.counted["EW"]
    if game is not None and game.winner is not None:
        winner: str | None = game.winner
    elif game is not None and game.drawn:
        winner = None
    else:
        winner = "NS" if raw_ns > raw_ew else "EW" if raw_ew > raw_ns else None
    mp_ns, mp_ew = {"NS": (2, 0), "EW": (0, 2), None: (1, 1)}[winner]
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
        final=bool(played) and (boards is None or _over(table_round, game, played, len(boards))),
    )
    return result, played


def _over(
    table_round: TableRound, game: Partida | None, played: list[BoardResult], boards: int
) -> bool:
    if game is not None:  # time shortens only the regular deals: the game says when it is over
        return game.finished or len(played) >= boards
    due = boards if table_round.time_after is None else min(boards, table_round.time_after)
    return len(played) >= due


def _played_in_order(table_round: TableRound, boards: Sequence[int]) -> TableRound:
    """The table's results up to its first board still owed: a game is played in board order,
    so while its round is open a later board's result cannot stand in for a deal still owed
    (boards_due stops there too)."""
    by_board = {r.board: r for r in table_round.results}
    run: list[BoardResult] = []
    for board in sorted(boards):
        if board not in by_board:
            break
        run.append(by_board[board])
    return replace(table_round, results=run)


def counted_match(
    table_round: TableRound, rnd: RoundInput, *, mode: str, rules: MatchRules, bye_points: int
) -> tuple[MatchResult, list[BoardResult]]:
    """The match as the standings count it, and the results it counted: a forfeit won by the
    other side (``bye_points`` to 0), a match of a closed round final once a board is played.
    Only a ``final`` match counts: the pairing, the groups and the knockout read it here too, so
    that nobody is paired, ranked or sent through on a score the standings do not give."""
    if mode == "game" and not rnd.closed and rnd.boards:
        table_round = _played_in_order(table_round, rnd.boards)
    m, played = match_under(table_round, mode=mode, rules=rules, boards=rnd.boards)
    if table_round.forfeited_by is not None:
        m = forfeit(m, table_round.forfeited_by, bye_points)
    elif rnd.closed and m.boards_played and not m.final:
        m = replace(m, final=True)
    return m, played


def forfeit(match: MatchResult, side: str, bye_points: int) -> MatchResult:
    """The match as forfeited by ``side`` ("NS" or "EW"): the other side wins ``bye_points`` to 0.

    >>> m = MatchResult(round=2, table=1, ns=7, ew=8, total_ns=40, total_ew=30, boards_played=3,
    ...                 mp_ns=2, mp_ew=0, final=False)
    >>> f = forfeit(m, "NS", 36)
    >>> (f.total_ns, f.total_ew, f.mp_ns, f.mp_ew, f.final, f.boards_played)
    (0, 36, 0, 2, True, 3)
    """
    if side not in ("NS", "EW"):
        raise ValueError(f"a match is forfeited by NS or EW, not {side!r}")
    ns_wins = side == "EW"
    return replace(
        match,
        total_ns=bye_points if ns_wins else 0,
        total_ew=0 if ns_wins else bye_points,
        mp_ns=2 if ns_wins else 0,
        mp_ew=0 if ns_wins else 2,
        final=True,
        forfeited_by=side,
    )


def boards_due(
    scores: dict[int, tuple[int, int]],
    boards: list[int],
    *,
    mode: str,
    rules: MatchRules,
    time_after: int | None = None,
) -> tuple[list[int], list[int]]:
    """(owed, not played): the round's ``boards`` a table still owes a counted result for,
    and those its match will never reach.

    ``scores``: board -> (NS, EW) of the table's counted results. A game that is over (target,
    deal limit, time, draw rule) leaves the later boards not played, and so does time in the
    boards mode (the boards after the deal in progress); a board without a result before the
    end is owed. A game level at time still owes its tie-break deals (or plays on).

    >>> from engine.match import OPEN_SWISS
    >>> boards_due({1: (60, 0), 2: (48, 0)}, [1, 2, 3, 4], mode="game", rules=OPEN_SWISS)
    ([], [3, 4])
    >>> boards_due({1: (6, 0)}, [1, 2, 3, 4], mode="game", rules=OPEN_SWISS, time_after=2)
    ([2], [3, 4])
    >>> girona = MatchRules(target=None, draw="tiebreak", tiebreak_deals=2)
    >>> boards_due({1: (6, 0), 2: (0, 6)}, [1, 2, 3, 4, 5], mode="game", rules=girona, time_after=2)
    ([3, 4, 5], [])
    """
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {mode!r}; expected one of {MATCH_MODES}")
    if mode == "boards":
        reached = boards if time_after is None else boards[:time_after]
        return [b for b in reached if b not in scores], boards[len(reached) :]
    game = Partida.new(rules, time_after=time_after)
    owed: list[int] = []
    for i, b in enumerate(boards):
        if i == time_after and owed:
            # A regular deal is still owed: whether the game goes on after time (tie-break
            # deals, playing on) is not known yet, and the table plays its deals in order.
            return owed, boards[i:]
        if b not in scores:
            owed.append(b)
            continue
        if not owed:
            game.add(_deal(*scores[b]))
            if game.finished:
                return owed, boards[i + 1 :]
    return owed, []
