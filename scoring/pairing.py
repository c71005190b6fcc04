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
(``max_cardinality=True``) picks the tables. Only a sparse set of candidate edges is
built, each pair linked to its ``k`` nearest-ranked clean opponents; when that graph has no
perfect matching ``k`` is doubled up to the complete clean graph, then the complete graph of
every edge decides (direction clashes, club meetings and rematches let in, as few as can be).
A field of more than 400 pairs never builds a dense graph (the work stays proportional to the
field): when its clean graph has no perfect matching, one graph of each pair's
16 nearest opponents at every level decides (see :func:`_match_large`). Everything is
deterministic: same inputs, same pairing.

Round 1 is paired from an order (the organiser's, or the seeding of ``scoring.lots``: the lot, or
ratings): 1 v 2, 3 v 4… An order by rating is folded first (``scoring.seeding.round_one_order``:
the top half meets the bottom half, 1 v h + 1, 2 v h + 2…) unless the event is accelerated, whose
virtual points already keep the top half apart from the bottom one.

Prohibited pairings: named pairs never meet (as strong as a rematch), and pairs of the same club do
not meet in the event's first ``club_rounds`` rounds (just below a rematch, above the direction
rule). Acceleration (Baku, see :func:`virtual_points`) adds virtual match points to the top half's
scores for the pairing of the first rounds; they never reach the standings. Late entries join with
their starting score; a pair that asked to sit a round out is not paired in it.

The matching itself is rustworkx's ``max_weight_matching`` (Edmonds' blossom algorithm in Rust, the
same algorithm networkx has in Python, about fifty times faster on a thousand pairs).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import rustworkx as rx

from scoring.lots import lot_order, seeding_order
from scoring.matches import counted_match
from scoring.seeding import round_one_order
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
    "virtual_points",
]

NS, EW = "NS", "EW"
_OTHER = {NS: EW, EW: NS}
_EMPTY = PairHistory()

# Strength of a direction need.
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
# Penalty when a pair does not get the direction it is due (by the strength of its need).
_DIR_PENALTY = {MILD: 1, STRONG: 4}

# Weight tiers: each tier outweighs everything below it summed over a whole round (up to 5,000
# pairs). Weights stay below 2**126: rustworkx computes in 128-bit integers.
_T_RANK = 1
_T_DIRECTION = 10**10
_T_SCORE = 10**14
_T_CLASH = 10**26
_T_CLUB = 10**30
_T_REMATCH = 10**34
_BASE = 10**37

_K_START = 8
# A field larger than this is paired by :func:`_match_large`: candidate opponents looked for at
# most ``_WINDOW`` places away in the ranking, ``_K_LARGE`` of them at each level when the
# clean graph has no perfect matching. Smaller fields may fall back to the complete graph.
_LARGE = 400
_WINDOW = 64
_K_LARGE = 16


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
    club: int | None = None


def _edge_cost(i: int, j: int, a: _Node, b: _Node) -> tuple[int, int, bool]:
    """(cost, level, clash) of seating nodes i and j at one table.

    ``level`` is the edge's kind, the strongest rule it breaks (the levels of
    :func:`_nearest_edges`): 0 clean, 1 a direction clash, 2 a same-club meeting, 3 a rematch
    or a named prohibited pair.
    """
    rematch = b.entry in a.met
    same_club = a.club is not None and a.club == b.club
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
        + _T_CLUB * same_club
        + _T_CLASH * clash
        + _T_SCORE * sd * sd
        + _T_DIRECTION * dir_cost
        + _T_RANK * (i - j) * (i - j)
    )
    level = 3 if rematch else 2 if same_club else 1 if clash else 0
    return cost, level, clash


@dataclass(frozen=True, slots=True)
class _Matched:
    """A perfect matching (pairs of node indices) and the prohibited meetings and direction
    clashes it makes."""

    pairs: list[tuple[int, int]]
    rematches: int  # rematches and named prohibited pairs
    club_meetings: int
    clashes: int


def _match(nodes: list[_Node]) -> _Matched:
    """Perfect matching of an even list of nodes.

    The graph of each node's nearest clean opponents, widened up to the complete clean graph;
    when even that has no perfect matching, the complete graph of every edge, whose tier
    weights make the maximum-weight matching the one with the fewest rematches, then club
    meetings, then direction clashes (a nearest-opponents graph could miss the pairing that
    needs fewer of them)."""
    m = len(nodes)
    if m == 0:
        return _Matched([], 0, 0, 0)
    if m > _LARGE:
        return _match_large(nodes)
    k = _K_START
    while True:
        pairs = _perfect(m, _nearest_edges(nodes, 0, k, window=m))
        if pairs is not None:
            return _counted(nodes, pairs)
        if k >= m - 1:
            break
        k *= 2
    every = {
        (i, j): _BASE - _edge_cost(i, j, nodes[i], nodes[j])[0]
        for i in range(m)
        for j in range(i + 1, m)
    }
    pairs = _perfect(m, every)
    assert pairs is not None, "the complete graph always has a perfect matching"
    return _counted(nodes, pairs)


def _match_large(nodes: list[_Node]) -> _Matched:
    """:func:`_match` for a large field, never building a dense graph.

    First the graph of every node's ``_K_START`` nearest clean opponents (looked for within
    ``_WINDOW`` places of it), as in a small field; a field deep into an event nearly always
    pairs there. Otherwise one graph holds each node's ``_K_LARGE`` nearest opponents at every
    level (clean; with a direction clash; with a same-club meeting; with a rematch): it has a
    perfect matching (neighbours in the ranking are always linked), and the tier weights make
    the maximum-weight one use the fewest rematches, then same-club meetings, then clashes. So
    the work stays proportional to the field, whatever the field: a clean pairing that would
    need opponents further than that in the ranking is given up for a direction clash.
    """
    m = len(nodes)
    pairs = _perfect(m, _nearest_edges(nodes, 0, _K_START, window=_WINDOW))
    if pairs is None:
        pairs = _perfect(m, _nearest_edges(nodes, 3, _K_LARGE, window=_WINDOW, per_level=True))
    assert pairs is not None, "neighbours in the ranking always make a perfect matching"
    return _counted(nodes, pairs)


def _nearest_edges(
    nodes: list[_Node], level: int, k: int, *, window: int, per_level: bool = False
) -> dict[tuple[int, int], int]:
    """Candidate edges: each node linked to its ``k`` nearest-ranked opponents allowed at
    ``level`` (of :func:`_edge_cost`), looking at most ``window`` places away; with
    ``per_level``, its ``k`` nearest at each level up to ``level``."""
    m = len(nodes)
    edges: dict[tuple[int, int], int] = {}
    for i in range(m):
        found = [0] * (level + 1)  # edges found allowed at each level
        for dist in range(1, min(m, window + 1)):
            for j in (i - dist, i + dist):
                if j < 0 or j >= m:
                    continue
                key = (i, j) if i < j else (j, i)
                cost, edge_level, _ = _edge_cost(key[0], key[1], nodes[key[0]], nodes[key[1]])
                if edge_level > level:
                    continue
                # One level: every allowed edge up to the distance where the k-th is found.
                if not per_level or any(found[lv] < k for lv in range(edge_level, level + 1)):
                    edges[key] = _BASE - cost
                for lv in range(edge_level, level + 1):
                    found[lv] += 1
            if (found[0] if per_level else found[level]) >= k:
                break
    return edges


def _perfect(m: int, edges: dict[tuple[int, int], int]) -> list[tuple[int, int]] | None:
    """The maximum-weight perfect matching of the candidate graph, or None if it has none."""
    g = rx.PyGraph()
    g.add_nodes_from(range(m))
    g.add_edges_from([(i, j, w) for (i, j), w in sorted(edges.items())])
    mate = rx.max_weight_matching(g, max_cardinality=True, weight_fn=_weight)
    if 2 * len(mate) != m:
        return None
    return sorted((min(p), max(p)) for p in mate)


def _counted(nodes: list[_Node], pairs: list[tuple[int, int]]) -> _Matched:
    rematches = club_meetings = clashes = 0
    for i, j in pairs:
        _, edge_level, clash = _edge_cost(i, j, nodes[i], nodes[j])
        rematches += edge_level == 3
        club_meetings += edge_level == 2
        clashes += clash
    return _Matched(pairs, rematches, club_meetings, clashes)


def _weight(w: int) -> int:
    return w


def pair_round(
    *,
    ranked: Sequence[int],
    history: Mapping[int, PairHistory],
    round_number: int,
    virtual: Mapping[int, float] | None = None,
    clubs: Mapping[int, int] | None = None,
    forbidden: Collection[tuple[int, int]] = (),
) -> Pairing:
    """Pair ``ranked`` (competitor ids, best first; those not playing already left out).

    ``history`` gives each competitor's previous opponents, directions, byes and score (match
    points); a missing entry means no history. In round 1 (or with no history) the pairs are
    seated 1 v 2, 3 v 4… in the given order. ``virtual``: acceleration points added to the scores
    for this pairing only; ``clubs``: id -> club, competitors of one club must not meet this
    round; ``forbidden``: pairs that never meet. A prohibited meeting (rematch, named pair, same
    club) is made only when no pairing avoids it, and reported in ``rematches``.
    ``round_number`` is not needed by the rules used here (the inputs carry everything); it is
    part of the signature for callers and logs.
    """
    if len(set(ranked)) != len(ranked):
        raise ValueError("a pair appears twice in the ranking")
    never: dict[int, set[int]] = {}
    for x, y in forbidden:
        never.setdefault(x, set()).add(y)
        never.setdefault(y, set()).add(x)
    nodes = []
    for e in ranked:
        h = history.get(e, _EMPTY)
        need, strength = direction_need(h)
        met = h.opponents | never[e] if e in never else h.opponents
        pairing_score = h.score + (virtual.get(e, 0.0) if virtual else 0.0)
        club = clubs.get(e) if clubs else None
        nodes.append(_Node(e, frozenset(met), need, strength, round(2 * pairing_score), club))

    bye: int | None = None
    if len(nodes) % 2 == 0:
        pairs = _match(nodes).pairs
    else:
        # Fewest byes first, then lowest ranked. Moving the bye up is allowed to avoid a
        # rematch, then a same-club meeting, then (as in the Dutch system, where a second bye
        # and the absolute colour rules come before the choice of the bye) a direction clash;
        # never to give a pair a second bye while a rematch-free pairing without one exists.
        def byes_of(i: int) -> int:
            return history.get(nodes[i].entry, _EMPTY).byes

        candidates = sorted(range(len(nodes)), key=lambda i: (byes_of(i), -i))
        fewest = byes_of(candidates[0])
        tries = 24 if len(nodes) <= 200 else 4  # each try is a whole matching
        best: tuple[tuple[int, int, int, int, int], int, list[tuple[int, int]]] | None = None
        for order, c in enumerate(candidates):
            if best is not None and best[0][0] == 0 and (byes_of(c) > best[0][1] or order >= tries):
                break  # nothing further down the list can beat a rematch-free best
            rest = nodes[:c] + nodes[c + 1 :]
            matched = _match(rest)
            # Indices in ``rest`` shift by one past the bye: map them back to ``nodes``.
            pairs_c = [(i + (i >= c), j + (j >= c)) for i, j in matched.pairs]
            score = (
                matched.rematches,
                byes_of(c),
                matched.club_meetings,
                matched.clashes,
                order,
            )
            if best is None or score < best[0]:
                best = (score, c, pairs_c)
            if best[0][:4] == (0, fewest, 0, 0):
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
        if _edge_cost(i, j, a, b)[1] >= 2:
            rematch_list.append((ns, ew))
    return Pairing(tables=tables, bye=bye, rematches=rematch_list)


def virtual_points(*, order: Sequence[int], round_number: int, rounds: int) -> dict[int, int]:
    """Baku acceleration: the virtual match points of each competitor for pairing a round.

    ``order`` is the event's initial order (every competitor, late entries included). Group A is
    its first half rounded up to an even number (2 × ⌈n/4⌉); the accelerated rounds are the first
    half of the ``rounds`` (rounded up). Group A gets a win's worth (2 match points) for the first
    half of the accelerated rounds (rounded up), then a draw's worth (1) for the rest of them, then
    nothing. The points only place competitors for the pairing; the standings never see them.

    >>> virtual_points(order=[5, 6, 7, 8, 9, 10, 11], round_number=1, rounds=7)
    {5: 2, 6: 2, 7: 2, 8: 2}
    >>> [virtual_points(order=[5, 6, 7, 8], round_number=r, rounds=7).get(5, 0) for r in range(1, 8)]
    [2, 2, 1, 1, 0, 0, 0]
    """
    accelerated = math.ceil(rounds / 2)
    if round_number > accelerated:
        return {}
    points = 2 if round_number <= math.ceil(accelerated / 2) else 1
    group_a = 2 * math.ceil(len(order) / 4)
    return dict.fromkeys(order[:group_a], points)


def history_from(event: EventInput, *, after_round: int | None = None) -> dict[int, PairHistory]:
    """Each entry's opponents, directions, byes and match points from the event's rounds.

    The score includes a late entry's starting match points and what requested byes scored (none
    in a round after the competitor withdrew), as the standings do (so that a competitor is
    paired on the score it is ranked on).
    """
    opponents: dict[int, set[int]] = {e: set() for e in event.entries}
    directions: dict[int, list[str]] = {e: [] for e in event.entries}
    byes = dict.fromkeys(event.entries, 0)
    score = dict.fromkeys(event.entries, 0)
    last = max((r.number for r in event.rounds), default=0)
    if after_round is None:
        after_round = last
    for late in event.late_entries:
        if late.round <= after_round + 1:
            score[late.entry] += late.match_points
    for req in event.bye_requests:
        if req.round <= min(after_round, event.withdrawn.get(req.entry, req.round)):
            score[req.entry] += req.match_points
    rules = event.match_rules
    for rnd in sorted(event.rounds, key=lambda r: r.number):
        if rnd.number > after_round:
            break
        for t in rnd.tables:
            m = counted_match(
                t, rnd, mode=event.match_mode, rules=rules, bye_points=event.bye_points
            )[0]
            opponents[t.ns].add(t.ew)
            opponents[t.ew].add(t.ns)
            directions[t.ns].append(NS)
            directions[t.ew].append(EW)
            if m.final:  # as the standings: a forfeit is the other's win, no draw for nothing
                score[t.ns] += m.mp_ns
                score[t.ew] += m.mp_ew
        if rnd.bye is not None:
            byes[rnd.bye] += 1
            score[rnd.bye] += 2
    if event.scores is not None:
        score = {e: event.scores.get(e, 0.0) for e in event.entries}
    return {
        e: PairHistory(
            opponents=frozenset(opponents[e]),
            directions=tuple(directions[e]),
            byes=byes[e],
            score=float(score[e]),
        )
        for e in event.entries
    }


def initial_order(event: EventInput) -> list[int]:
    """The event's initial order: by rating when it seeds by rating, else the lot."""
    numbers = {e: event.numbers.get(e, e) for e in event.entries}
    ratings = event.ratings if event.pairing.seeding == "rating" else None
    return seeding_order(numbers, event.seed, ratings)


def pair_next_round(event: EventInput, *, order: Sequence[int] | None = None) -> Pairing:
    """Pair the Swiss round after the last one in ``event``.

    Round 1 uses ``order`` when the organiser gives one, else the event's initial order (the lot
    from the event seed, or ratings); later rounds use the current standings (virtual points
    added when the event is accelerated). Left out: pairs withdrawn after the last round, late
    entries that have not joined yet, pairs that asked to sit this round out.
    """
    last = max((r.number for r in event.rounds), default=0)
    number = last + 1
    active = set(event.active(number))
    options = event.pairing
    if last == 0:
        ranked = [e for e in (order if order is not None else initial_order(event)) if e in active]
        if order is None and options.seeding == "rating" and not options.accelerated:
            ranked = round_one_order(ranked)
        history: dict[int, PairHistory] = {}
    else:
        if event.ranking is not None:
            ranked = [e for e in event.ranking if e in active]
        else:
            standings = compute_standings(event)
            ranked = [s.entry for s in standings.standings if s.entry in active]
        history = history_from(event)
    virtual: dict[int, int] | None = None
    if options.accelerated:
        if options.rounds is None:
            raise ValueError("an accelerated Swiss needs its number of rounds")
        start = list(order) if order is not None else initial_order(event)
        vp = virtual_points(order=start, round_number=number, rounds=options.rounds)
        # Pair on the accelerated score: stable, so equal pairing scores keep the ranking order.
        pos = {e: i for i, e in enumerate(ranked)}
        ranked.sort(key=lambda e: (-(history.get(e, _EMPTY).score + vp.get(e, 0)), pos[e]))
        virtual = vp
    clubs = event.clubs if number <= options.club_rounds else None
    return pair_round(
        ranked=ranked,
        history=history,
        round_number=number,
        virtual=virtual,
        clubs=clubs,
        forbidden=event.forbidden,
    )


def apply_swap(pairing: Pairing, a: int, b: int) -> Pairing:
    """The pairing with entries ``a`` and ``b`` exchanged (seats, tables or the bye)."""

    def swap(e: int) -> int:
        return b if e == a else a if e == b else e

    tables = [(swap(ns), swap(ew)) for ns, ew in pairing.tables]
    bye = None if pairing.bye is None else swap(pairing.bye)
    return Pairing(tables=tables, bye=bye, rematches=[])


# The warnings' wording, %-style so the Django side can pass translated texts (this module
# stays free of Django): see tournaments.scoring_io.pairing_warnings.
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
    side_label: Callable[[str], object] = str,
) -> list[str]:
    """Warnings for a manual swap of ``a`` and ``b``: rematches, direction rule, second bye.

    ``messages`` holds the texts (keys of ``SWAP_MESSAGES``), ``label`` names an entry id and
    ``side_label`` a direction (``NS``, ``EW``) as the reader writes it.
    """
    return pairing_warnings(
        apply_swap(pairing, a, b),
        history,
        only={a, b},
        messages=messages,
        label=label,
        side_label=side_label,
    )


def pairing_warnings(
    pairing: Pairing,
    history: Mapping[int, PairHistory],
    *,
    only: Collection[int] | None = None,
    messages: Mapping[str, str] = SWAP_MESSAGES,
    label: Callable[[int], object] = str,
    side_label: Callable[[str], object] = str,
) -> list[str]:
    """Warnings for a pairing made by hand: rematches, the direction rule, a second bye.

    ``only``: warn only about the tables (and bye) of these entries (all when None); the other
    arguments as :func:`swap_warnings`.
    """
    warnings: list[str] = []
    for table, (ns, ew) in enumerate(pairing.tables, start=1):
        if only is not None and ns not in only and ew not in only:
            continue
        if ew in history.get(ns, _EMPTY).opponents or ns in history.get(ew, _EMPTY).opponents:
            warnings.append(messages["met"] % {"table": table, "ns": label(ns), "ew": label(ew)})
        for entry, seat in ((ns, NS), (ew, EW)):
            dirs = history.get(entry, _EMPTY).directions + (seat,)
            values = {"table": table, "entry": label(entry), "seat": side_label(seat)}
            if abs(dirs.count(NS) - dirs.count(EW)) > 2:
                warnings.append(messages["too_often"] % values)
            elif dirs[-3:] == (seat,) * 3:
                warnings.append(messages["in_a_row"] % values)
    bye = pairing.bye
    if bye is not None and (only is None or bye in only) and history.get(bye, _EMPTY).byes:
        warnings.append(messages["bye"] % {"entry": label(bye)})
    return warnings
