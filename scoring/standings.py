"""Standings of a Swiss event after any round: matches, travellers and the ranking.

Ranking methods (``EventInput.ranking_method``); every one ends with the same chain:

* ``wins`` (default): match points (win 2, draw 1, loss 0), point difference, points scored,
  Buchholz (sum of the opponents' match points), average duplicate percentage.
* ``matchpoints``: average duplicate percentage over the boards played, then match points, point
  difference, points scored, Buchholz.
* ``points``: point difference, then match points, points scored, Buchholz, duplicate percentage.

Pairs equal on every criterion share a rank (1, 2, 2, 4); the lot drawn from the event seed
(``scoring.lots``) only orders them on the page, it never separates their ranks.

A bye counts as a win (2 match points) scored ``bye_points`` to 0 (default 36), with no boards and
no Buchholz contribution. A withdrawn pair keeps its results and stays in the standings, flagged.
A match forfeited by a pair that withdrew during its round (``TableRound.forfeited_by``) is won by
the opponents like a bye (2 match points, ``bye_points`` to 0, no Buchholz between the two) and
lost 0 to ``bye_points`` by the withdrawing pair; the boards they played before stay on the
travellers.
A rest (round robin sit-out, knockout bye) scores nothing. A requested bye scores the match points
the event gave it, from its round on; a late entry's starting match points count from the round
before it joins (so that it is paired on them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from scoring.duplicate import traveller
from scoring.groups import round_rules
from scoring.lots import lot_order
from scoring.matches import counted_match
from scoring.types import (
    MATCH_MODES,
    RANKING_METHODS,
    BoardResult,
    EventInput,
    MatchResult,
    Standing,
    StandingsResult,
    Traveller,
)

# Percentages are sums of floats: round them before comparing so that equal pairs tie.
_PCT_DIGITS = 9

SortKey = tuple[float, ...]
# The criteria of each ranking method, best first: every one is a field of ``Standing``, larger
# is better. The API and the pages name them from here.
CRITERIA: dict[str, tuple[str, ...]] = {
    "wins": ("match_points", "point_diff", "points_for", "buchholz", "duplicate_pct"),
    "matchpoints": ("duplicate_pct", "match_points", "point_diff", "points_for", "buchholz"),
    "points": ("point_diff", "match_points", "points_for", "buchholz", "duplicate_pct"),
}


# A pair that has played no board yet (a first-round bye, a late entry) has no duplicate
# percentage; it ranks as an average pair, neither above nor below those who played.
_NO_BOARDS_PCT = 50.0


def _pct(s: Standing) -> float:
    return round(s.duplicate_pct, _PCT_DIGITS) if s.boards_played else _NO_BOARDS_PCT


def _key(criteria: tuple[str, ...]) -> Callable[[Standing], SortKey]:
    def key(s: Standing) -> SortKey:
        return tuple(-_pct(s) if c == "duplicate_pct" else -getattr(s, c) for c in criteria)

    return key


_KEYS: dict[str, Callable[[Standing], SortKey]] = {m: _key(c) for m, c in CRITERIA.items()}


def ranking_key(method: str) -> Callable[[Standing], SortKey]:
    try:
        return _KEYS[method]
    except KeyError:
        raise ValueError(
            f"unknown ranking method {method!r}; expected one of {RANKING_METHODS}"
        ) from None


def compute_standings(event: EventInput, *, after_round: int | None = None) -> StandingsResult:
    """Standings after ``after_round`` (all rounds given when None)."""
    ranking_key(event.ranking_method)  # fail early on an unknown method
    if event.match_mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {event.match_mode!r}; expected one of {MATCH_MODES}")
    rounds = sorted(event.rounds, key=lambda r: r.number)
    if after_round is None:
        after_round = rounds[-1].number if rounds else 0
    rounds = [r for r in rounds if r.number <= after_round]

    entries = list(event.entries)
    index = {e: i for i, e in enumerate(entries)}
    if len(index) != len(entries):
        raise ValueError("duplicate entry id in EventInput.entries")
    n = len(entries)
    mp = [0] * n
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    pf = [0] * n
    pa = [0] * n
    byes = [0] * n
    boards = [0] * n
    pct_sum = [0.0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]
    rests = [0] * n
    requested = [0] * n
    matches: list[MatchResult] = []
    travellers: dict[int, Traveller] = {}

    def idx(entry: int, where: str) -> int:
        try:
            return index[entry]
        except KeyError:
            raise ValueError(f"{where}: entry {entry} is not in the event") from None

    for rnd in rounds:
        per_board: dict[int, list[BoardResult]] = {}
        rules = round_rules(event, rnd.number)
        for t in rnd.tables:
            where = f"round {rnd.number} table {t.table}"
            a, b = idx(t.ns, where), idx(t.ew, where)
            m, played = counted_match(
                t,
                rnd,
                mode=event.match_mode,
                rules=rules,
                bye_points=event.bye_points,
            )
            matches.append(m)
            for r in played:
                per_board.setdefault(r.board, []).append(r)
            if not m.final:
                continue
            if m.forfeited_by is not None:
                winner, loser = (b, a) if m.forfeited_by == "NS" else (a, b)
                mp[winner] += 2
                wins[winner] += 1
                losses[loser] += 1
                pf[winner] += event.bye_points
                pa[loser] += event.bye_points
                continue
            mp[a] += m.mp_ns
            mp[b] += m.mp_ew
            if m.mp_ns == 2:
                wins[a] += 1
                losses[b] += 1
            elif m.mp_ew == 2:
                wins[b] += 1
                losses[a] += 1
            else:
                draws[a] += 1
                draws[b] += 1
            pf[a] += m.total_ns
            pa[a] += m.total_ew
            pf[b] += m.total_ew
            pa[b] += m.total_ns
            opponents[a].append(b)
            opponents[b].append(a)
        if rnd.bye is not None:
            i = idx(rnd.bye, f"round {rnd.number} bye")
            mp[i] += 2
            wins[i] += 1
            byes[i] += 1
            pf[i] += event.bye_points
        for e in rnd.rests:
            rests[idx(e, f"round {rnd.number} rest")] += 1
        # Neuberg scales every board of the round to its most-played board.
        n_max = max((len(v) for v in per_board.values()), default=0)
        for board, results in per_board.items():
            if board in travellers:
                raise ValueError(f"board {board} is played in more than one round")
            trav = traveller(board, results, n_max)
            travellers[board] = trav
            for line in trav.lines:
                a, b = index[line.ns], index[line.ew]
                pct_sum[a] += line.pct_ns
                pct_sum[b] += line.pct_ew
                boards[a] += 1
                boards[b] += 1

    # Late entries start with the match points the event gave them once they have joined;
    # requested byes score what the event says once their round is played (never a round
    # after the pair withdrew).
    for late in event.late_entries:
        if late.round <= after_round + 1:
            mp[idx(late.entry, "late entry")] += late.match_points
    for req in event.bye_requests:
        if req.round <= min(after_round, event.withdrawn.get(req.entry, req.round)):
            i = idx(req.entry, f"round {req.round} requested bye")
            mp[i] += req.match_points
            requested[i] += 1

    numbers = {e: event.numbers.get(e, e) for e in entries}
    lot_pos = {e: i + 1 for i, e in enumerate(lot_order(numbers, event.seed))}
    unranked = []
    for i, e in enumerate(entries):
        w = event.withdrawn.get(e)
        unranked.append(
            Standing(
                entry=e,
                rank=0,
                match_points=float(mp[i]),
                wins=wins[i],
                draws=draws[i],
                losses=losses[i],
                points_for=pf[i],
                points_against=pa[i],
                point_diff=pf[i] - pa[i],
                buchholz=float(sum(mp[o] for o in opponents[i])),
                duplicate_pct=pct_sum[i] / boards[i] if boards[i] else 0.0,
                boards_played=boards[i],
                byes=byes[i],
                withdrawn=w is not None and w <= after_round,
                lot=lot_pos[e],
                rests=rests[i],
                requested_byes=requested[i],
            )
        )
    standings = rank_standings(unranked, event.ranking_method)
    return StandingsResult(
        after_round=after_round, standings=standings, matches=matches, travellers=travellers
    )


def rank_standings(standings: Iterable[Standing], method: str) -> list[Standing]:
    """Sort by the method's criteria, then by lot; equal on every criterion = same rank."""
    key = ranking_key(method)
    keyed = sorted(((key(s), s.lot, s) for s in standings), key=lambda t: (t[0], t[1]))
    ranked: list[Standing] = []
    prev: SortKey | None = None
    rank = 0
    for pos, (k, _, s) in enumerate(keyed, start=1):
        if k != prev:
            rank, prev = pos, k
        ranked.append(s if s.rank == rank else replace(s, rank=rank))
    return ranked
