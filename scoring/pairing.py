"""Swiss pairings on plain objects.

The criteria, strongest first (after the Dutch system):

1. No pair meets the same opponent twice while any other pairing exists.
2. With an odd number of pairs, the bye goes to the lowest-ranked pair that has not had one
   (fewest byes, then lowest rank), unless that would force a rematch.
3. Directions: a pair's NS and EW counts never differ by more than 2 and no pair sits three times
   in a row in the same direction, wherever that can be avoided.
4. Score differences inside the tables as small as possible (squared difference of match points).
5. As many pairs as possible get the direction they are due (the one they have played less, or
   the other one from last time).
6. Opponents as close in the ranking as possible (squared rank distance): 1 v 2, 3 v 4, …

Criteria become integer edge weights on tiers far apart, and a maximum-weight perfect matching
(networkx, ``maxcardinality=True``) picks the tables. Only a sparse set of candidate edges is
built, each pair linked to its ``k`` nearest-ranked allowed opponents; when that graph has no
perfect matching ``k`` is doubled up to the complete graph, then direction clashes and finally
rematches are let in. Everything is deterministic: same inputs, same pairing.

Round 1 is paired from an order (the organiser's, or the lot of ``scoring.lots``): 1 v 2, 3 v 4…
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from scoring.lots import lot_order
from scoring.matches import match_result
from scoring.standings import compute_standings
from scoring.types import EventInput, PairHistory, Pairing

__all__ = [
    "Pairing",
    "PairHistory",
    "apply_swap",
    "direction_need",
    "history_from",
    "lot_order",
    "pair_next_round",
    "pair_round",
    "swap_warnings",
]

NS, EW = "NS", "EW"
_OTHER = {NS: EW, EW: NS}
_EMPTY = PairHistory()

# Strength of a direction need.
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
# Penalty when a pair does not get the direction it is due (by the strength of its need).
_DIR_PENALTY = {MILD: 1, STRONG: 4}

# Weight tiers: each tier outweighs everything below it summed over a whole round.
_T_RANK = 1
_T_DIRECTION = 10**10
_T_SCORE = 10**14
_T_CLASH = 10**26
_T_REMATCH = 10**30
_BASE = 10**34

_K_START = 8


def direction_need(h: PairHistory) -> tuple[str | None, int]:
    """The direction a pair is due next and how strongly (NONE, MILD, STRONG, ABSOLUTE)."""
    d = h.directions
    if not d:
        return None, NONE
    diff = d.count(NS) - d.count(EW)
    if diff >= 2:
        return EW, ABSOLUTE
    if diff <= -2:
        return NS, ABSOLUTE
    if len(d) >= 2 and d[-1] == d[-2]:
        return _OTHER[d[-1]], ABSOLUTE
    if diff == 1:
        return EW, STRONG
    if diff == -1:
        return NS, STRONG
    return _OTHER[d[-1]], MILD


def _seat(
    a: int, b: int, need_a: tuple[str | None, int], need_b: tuple[str | None, int]
) -> tuple[int, int]:
    """(ns, ew) for a table of ``a`` (higher ranked) and ``b``."""
    (da, sa), (db, sb) = need_a, need_b
    if da is None and db is None:
        return a, b
    if da is None or (db is not None and da == db and sb > sa):
        # b decides: it has the only need, or the stronger one for the same direction.
        return (b, a) if db == NS else (a, b)
    return (a, b) if da == NS else (b, a)


@dataclass(slots=True)
class _Node:
    entry: int
    met: frozenset[int]
    need: str | None
    strength: int
    score: int


def _edge_cost(i: int, j: int, a: _Node, b: _Node) -> tuple[int, bool, bool]:
    """(cost, rematch, clash) of seating nodes i and j at one table."""
    rematch = b.entry in a.met
    clash = False
    dir_cost = 0
    if a.need is not None and a.need == b.need:
        weaker = min(a.strength, b.strength)
        if weaker == ABSOLUTE:
            clash = True
        else:
            dir_cost = _DIR_PENALTY[weaker]
    sd = a.score - b.score
    cost = (
        _T_REMATCH * rematch
        + _T_CLASH * clash
        + _T_SCORE * sd * sd
        + _T_DIRECTION * dir_cost
        + _T_RANK * (i - j) * (i - j)
    )
    return cost, rematch, clash


def _match(nodes: list[_Node]) -> tuple[list[tuple[int, int]], int, int]:
    """Perfect matching of an even list of nodes: (pairs of indices, rematches, clashes)."""
    m = len(nodes)
    if m == 0:
        return [], 0, 0
    # Levels: 0 = only clean edges, 1 = direction clashes allowed, 2 = rematches allowed too.
    for level in range(3):
        k = _K_START
        while True:
            g: nx.Graph = nx.Graph()
            g.add_nodes_from(range(m))
            edges: dict[tuple[int, int], int] = {}
            for i in range(m):
                found = 0
                for dist in range(1, m):
                    for j in (i - dist, i + dist):
                        if j < 0 or j >= m:
                            continue
                        key = (i, j) if i < j else (j, i)
                        cost, rematch, clash = _edge_cost(i, j, nodes[i], nodes[j])
                        if (rematch and level < 2) or (clash and level < 1):
                            continue
                        edges[key] = _BASE - cost
                        found += 1
                    if found >= k:
                        break
            g.add_weighted_edges_from((i, j, w) for (i, j), w in sorted(edges.items()))
            mate = nx.max_weight_matching(g, maxcardinality=True)
            if 2 * len(mate) == m:
                pairs = sorted((min(p), max(p)) for p in mate)
                rematches = clashes = 0
                for i, j in pairs:
                    _, rematch, clash = _edge_cost(i, j, nodes[i], nodes[j])
                    rematches += rematch
                    clashes += clash
                return pairs, rematches, clashes
            if k >= m - 1:
                break
            k *= 2
    raise AssertionError("the complete graph always has a perfect matching")  # pragma: no cover


def pair_round(
    *, ranked: Sequence[int], history: Mapping[int, PairHistory], round_number: int
) -> Pairing:
    """Pair ``ranked`` (entry ids, best first; withdrawn pairs already left out) for a round.

    ``history`` gives each pair's previous opponents, directions, byes and score (match points);
    a missing entry means no history. In round 1 (or with no history) the pairs are seated
    1 v 2, 3 v 4… in the given order. ``round_number`` is not needed by the rules used here
    (the history carries everything); it is part of the signature for callers and logs.
    """
    if len(set(ranked)) != len(ranked):
        raise ValueError("a pair appears twice in the ranking")
    nodes = []
    for e in ranked:
        h = history.get(e, _EMPTY)
        need, strength = direction_need(h)
        nodes.append(_Node(e, h.opponents, need, strength, round(2 * h.score)))

    bye: int | None = None
    if len(nodes) % 2 == 0:
        pairs, _, _ = _match(nodes)
    else:
        # Fewest byes first, then lowest ranked. Moving the bye up is allowed to avoid a
        # rematch, then (as in the Dutch system, where a second bye and the absolute colour
        # rules come before the choice of the bye) a direction clash, never to give a pair a
        # second bye while a rematch-free pairing without one exists.
        def byes_of(i: int) -> int:
            return history.get(nodes[i].entry, _EMPTY).byes

        candidates = sorted(range(len(nodes)), key=lambda i: (byes_of(i), -i))
        fewest = byes_of(candidates[0])
        tries = 24 if len(nodes) <= 200 else 4  # each try is a whole matching
        best: tuple[tuple[int, int, int, int], int, list[tuple[int, int]]] | None = None
        for order, c in enumerate(candidates):
            if best is not None and best[0][0] == 0 and (byes_of(c) > best[0][1] or order >= tries):
                break  # nothing further down the list can beat a rematch-free best
            rest = nodes[:c] + nodes[c + 1 :]
            pairs_c, rematches, clashes = _match(rest)
            # Indices in ``rest`` shift by one past the bye: map them back to ``nodes``.
            pairs_c = [(i + (i >= c), j + (j >= c)) for i, j in pairs_c]
            score = (rematches, byes_of(c), clashes, order)
            if best is None or score < best[0]:
                best = (score, c, pairs_c)
            if best[0][:3] == (0, fewest, 0):
                break
        assert best is not None
        _, c, pairs = best
        bye = nodes[c].entry

    tables: list[tuple[int, int]] = []
    rematch_list: list[tuple[int, int]] = []
    for i, j in sorted(pairs):
        a, b = nodes[i], nodes[j]
        ns, ew = _seat(a.entry, b.entry, (a.need, a.strength), (b.need, b.strength))
        tables.append((ns, ew))
        if b.entry in a.met:
            rematch_list.append((ns, ew))
    return Pairing(tables=tables, bye=bye, rematches=rematch_list)


def history_from(event: EventInput, *, after_round: int | None = None) -> dict[int, PairHistory]:
    """Each entry's opponents, directions, byes and match points from the event's rounds."""
    opponents: dict[int, set[int]] = {e: set() for e in event.entries}
    directions: dict[int, list[str]] = {e: [] for e in event.entries}
    byes = dict.fromkeys(event.entries, 0)
    score = dict.fromkeys(event.entries, 0)
    for rnd in sorted(event.rounds, key=lambda r: r.number):
        if after_round is not None and rnd.number > after_round:
            break
        for t in rnd.tables:
            m = match_result(t, mode=event.match_mode, target=event.game_target, cap=event.game_cap)
            opponents[t.ns].add(t.ew)
            opponents[t.ew].add(t.ns)
            directions[t.ns].append(NS)
            directions[t.ew].append(EW)
            score[t.ns] += m.mp_ns
            score[t.ew] += m.mp_ew
        if rnd.bye is not None:
            byes[rnd.bye] += 1
            score[rnd.bye] += 2
    return {
        e: PairHistory(
            opponents=frozenset(opponents[e]),
            directions=tuple(directions[e]),
            byes=byes[e],
            score=float(score[e]),
        )
        for e in event.entries
    }


def pair_next_round(event: EventInput, *, order: Sequence[int] | None = None) -> Pairing:
    """Pair the round after the last one in ``event``.

    Round 1 uses ``order`` when the organiser gives one, else the lot from the event seed; later
    rounds use the current standings. Pairs withdrawn after the last round are left out.
    """
    last = max((r.number for r in event.rounds), default=0)
    active = {e for e in event.entries if event.withdrawn.get(e, last + 1) > last}
    if last == 0:
        if order is None:
            numbers = {e: event.numbers.get(e, e) for e in event.entries}
            order = lot_order(numbers, event.seed)
        ranked = [e for e in order if e in active]
        return pair_round(ranked=ranked, history={}, round_number=1)
    standings = compute_standings(event)
    ranked = [s.entry for s in standings.standings if s.entry in active]
    return pair_round(ranked=ranked, history=history_from(event), round_number=last + 1)


def apply_swap(pairing: Pairing, a: int, b: int) -> Pairing:
    """The pairing with entries ``a`` and ``b`` exchanged (seats, tables or the bye)."""

    def swap(e: int) -> int:
        return b if e == a else a if e == b else e

    tables = [(swap(ns), swap(ew)) for ns, ew in pairing.tables]
    bye = None if pairing.bye is None else swap(pairing.bye)
    return Pairing(tables=tables, bye=bye, rematches=[])


# The warnings' wording, %-style so the Django side can pass translated texts (this module
# stays free of Django): see scoring.bridge.pairing_swap_warnings.
SWAP_MESSAGES: Mapping[str, str] = {
    "met": "table %(table)s: %(ns)s and %(ew)s have already met",
    "too_often": "table %(table)s: %(entry)s would sit %(seat)s too often",
    "in_a_row": "table %(table)s: %(entry)s would sit %(seat)s three times in a row",
    "bye": "%(entry)s has already had a bye",
}


def swap_warnings(
    pairing: Pairing,
    a: int,
    b: int,
    history: Mapping[int, PairHistory],
    *,
    messages: Mapping[str, str] = SWAP_MESSAGES,
    label: Callable[[int], object] = str,
) -> list[str]:
    """Warnings for a manual swap of ``a`` and ``b``: rematches, direction rule, second bye.

    ``messages`` holds the texts (keys of ``SWAP_MESSAGES``), ``label`` names an entry id.
    """
    swapped = apply_swap(pairing, a, b)
    warnings: list[str] = []
    for table, (ns, ew) in enumerate(swapped.tables, start=1):
        if a not in (ns, ew) and b not in (ns, ew):
            continue
        if ew in history.get(ns, _EMPTY).opponents or ns in history.get(ew, _EMPTY).opponents:
            warnings.append(messages["met"] % {"table": table, "ns": label(ns), "ew": label(ew)})
        for entry, seat in ((ns, NS), (ew, EW)):
            dirs = history.get(entry, _EMPTY).directions + (seat,)
            values = {"table": table, "entry": label(entry), "seat": seat}
            if abs(dirs.count(NS) - dirs.count(EW)) > 2:
                warnings.append(messages["too_often"] % values)
            elif dirs[-3:] == (seat,) * 3:
                warnings.append(messages["in_a_row"] % values)
    if swapped.bye in (a, b) and history.get(swapped.bye, _EMPTY).byes:
        warnings.append(messages["bye"] % {"entry": label(swapped.bye)})
    return warnings
