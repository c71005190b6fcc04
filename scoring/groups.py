"""Groups, then knockout: the format of Girona's Fires de Sant Narcís, for pairs or teams.

1. **Groups.** The competitors, in seeding order (the lot, or ratings), are dealt into
   ⌈n / size⌉ groups like cards, snaking (1→A, 2→B, 3→C, 4→C, 5→B, 6→A…), so group sizes differ
   by one at most and each group gets a fair share of the seeds. Each group plays a round robin
   (``scoring.roundrobin``), all groups in the same rounds; a group that has finished rests.
2. **Group ranking** (:func:`group_tables`): match points, then point difference, then points
   scored, all within the group's games, then the seeding order.
3. **Qualifiers**: the best ``qualifiers`` of each group, plus a *repesca* (second chance) of the
   best non-qualifiers with at least ``repesca_min_points`` match points. Groups can differ in
   size, so repesca candidates are compared on per-game averages: match points per game, then
   point difference per game, then points scored per game, then their place in their group (a
   second before a third), then the seeding order. ``repesca=None`` takes as many as fill the
   bracket up to a power of two ("per quadrar").
4. **Knockout.** Qualifiers are seeded: group winners first, then second places, and so on (each
   rank ordered by the same per-game comparison), then the repesca in its order. The bracket has
   the next power of two of places: seed 1 meets the last seed, 2 the second last… (1 and 2 can
   only meet in the final); the top seeds get the byes when places are empty. In the first
   knockout round, a pair of the same group is split where possible by swapping the lower seed
   with the nearest lower seed of another table. Each knockout match is one game; it must have a
   winner: a level game is broken by tie-break deals (an event whose draw rule is "half a win"
   uses "tie-break deals" in the knockout), and if the table's boards run out still level, the
   better seed goes through. The better seed sits North–South, in every round: after an upset
   the better seed of a later match may come from the lower line of the bracket.

>>> snake_groups([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], size=4)
[[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine import MatchRules
from scoring.matches import counted_match, match_under
from scoring.roundrobin import playing_only, round_robin_schedule
from scoring.types import CannotPair, EventInput, Pairing


def snake_groups(order: Sequence[int], *, size: int) -> list[list[int]]:
    """Deal ``order`` into ⌈n / size⌉ groups, snaking; each group listed in seeding order."""
    if size < 2:
        raise ValueError(f"a group needs at least 2 competitors, not {size}")
    if len(order) < 2:
        raise ValueError("groups need at least 2 competitors")
    g = math.ceil(len(order) / size)
    groups: list[list[int]] = [[] for _ in range(g)]
    for i, e in enumerate(order):
        lap, pos = divmod(i, g)
        groups[pos if lap % 2 == 0 else g - 1 - pos].append(e)
    return groups


def group_stage(groups: Sequence[Sequence[int]]) -> list[Pairing]:
    """The group rounds: every group's round robin in parallel, tables numbered group by group."""
    schedules = [round_robin_schedule(list(g)) for g in groups]
    n_rounds = max(len(s) for s in schedules)
    out = []
    for r in range(n_rounds):
        tables: list[tuple[int, int]] = []
        rests: list[int] = []
        for group, sched in zip(groups, schedules, strict=True):
            if r < len(sched):
                tables += sched[r].tables
                rests += sched[r].rests
            else:
                rests += list(group)
        out.append(Pairing(tables=tables, rests=rests))
    return out


@dataclass(frozen=True, slots=True)
class GroupRow:
    entry: int
    group: int
    position: int
    games: int
    match_points: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int

    @property
    def point_diff(self) -> int:
        return self.points_for - self.points_against


def _per_game(r: GroupRow) -> tuple[float, float, float]:
    g = max(r.games, 1)
    return (-r.match_points / g, -r.point_diff / g, -r.points_for / g)


@dataclass(frozen=True, slots=True)
class Qualification:
    """Who goes through: ``seeds`` in bracket-seed order (best first), of which ``repesca``
    came through the second chance; ``candidates``: the repesca list in its order."""

    seeds: list[int]
    repesca: list[int]
    candidates: list[GroupRow]


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """A bracket line: ``top`` (the better seed) against ``bottom``; None is an empty place
    (a bye) or a place still waiting for a winner."""

    round: int
    top: int | None
    bottom: int | None
    winner: int | None


@dataclass(frozen=True, slots=True)
class GroupsPlan:
    groups: list[list[int]]
    stage: list[Pairing]
    order: tuple[int, ...] = ()  # the seeding order the groups were dealt from

    @property
    def group_rounds(self) -> int:
        return len(self.stage)


def groups_plan(event: EventInput, order: Sequence[int]) -> GroupsPlan:
    size = event.pairing.group_size
    groups = snake_groups(order, size=size)
    if any(len(g) < 2 for g in groups):
        raise CannotPair(
            "group_of_one",
            f"{len(order)} competitors in groups of {size} leave one alone in a group",
            n=len(order),
            size=size,
        )
    return GroupsPlan(groups=groups, stage=group_stage(groups), order=tuple(order))


def group_tables(event: EventInput, plan: GroupsPlan) -> list[list[GroupRow]]:
    """Each group's table after its rounds played so far, ranked (position 1 first)."""
    group_of = {e: gi for gi, g in enumerate(plan.groups) for e in g}
    seed_pos = {e: i for g in plan.groups for i, e in enumerate(g)}
    stats = {e: [0, 0, 0, 0, 0, 0, 0] for g in plan.groups for e in g}  # games mp w d l pf pa
    rules = event.match_rules
    for rnd in event.rounds:
        if rnd.number > plan.group_rounds:
            continue
        for t in rnd.tables:
            if group_of.get(t.ns) is None or group_of.get(t.ns) != group_of.get(t.ew):
                continue
            m = counted_match(
                t, rnd, mode=event.match_mode, rules=rules, bye_points=event.bye_points
            )[0]
            if not m.final:  # as the standings: not over, or nothing played
                continue
            for e, mp, pf, pa in (
                (t.ns, m.mp_ns, m.total_ns, m.total_ew),
                (t.ew, m.mp_ew, m.total_ew, m.total_ns),
            ):
                s = stats[e]
                s[0] += 1
                s[1] += mp
                s[2 + (2 - mp)] += 1  # mp 2 -> wins, 1 -> draws, 0 -> losses
                s[5] += pf
                s[6] += pa
    out = []
    for gi, group in enumerate(plan.groups):
        rows = sorted(
            group,
            key=lambda e: (-stats[e][1], -(stats[e][5] - stats[e][6]), -stats[e][5], seed_pos[e]),
        )
        out.append([GroupRow(e, gi + 1, pos, *stats[e]) for pos, e in enumerate(rows, start=1)])
    return out


def qualify(
    tables: Sequence[Sequence[GroupRow]],
    *,
    qualifiers: int,
    repesca: int | None,
    repesca_min_points: int = 0,
    seed_rank: dict[int, int] | None = None,
) -> Qualification:
    """The qualifiers of the group ``tables`` (see the module docstring)."""
    seed_rank = seed_rank or {}

    def cross(r: GroupRow) -> tuple[float, ...]:
        return (*_per_game(r), r.position, seed_rank.get(r.entry, 0), r.entry)

    direct = [r for t in tables for r in t if r.position <= qualifiers]
    direct.sort(key=lambda r: (r.position, *cross(r)))
    others = [r for t in tables for r in t if r.position > qualifiers]
    candidates = sorted((r for r in others if r.match_points >= repesca_min_points), key=cross)
    if repesca is None:
        size = 1 << max(len(direct) - 1, 0).bit_length() if direct else 0
        repesca = size - len(direct)
    taken = candidates[:repesca]
    seeds = [r.entry for r in direct] + [r.entry for r in taken]
    return Qualification(seeds=seeds, repesca=[r.entry for r in taken], candidates=candidates)


def _bracket_order(size: int) -> list[int]:
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def bracket_places(seeds: Sequence[int], group_of: dict[int, int]) -> list[int | None]:
    """The first knockout round's places (pairs of consecutive places meet); None = a bye."""
    if len(seeds) < 2:
        raise CannotPair("qualifiers", "a knockout needs at least 2 qualifiers")
    size = 1 << (len(seeds) - 1).bit_length()
    places: list[int | None] = [
        seeds[s - 1] if s <= len(seeds) else None for s in _bracket_order(size)
    ]
    rank = {e: i for i, e in enumerate(seeds)}

    def clash(a: int | None, b: int | None) -> bool:
        return a is not None and b is not None and group_of.get(a) == group_of.get(b)

    for t in range(0, size, 2):
        if not clash(places[t], places[t + 1]):
            continue
        low = places[t + 1]
        assert low is not None
        others = sorted(
            (u for u in range(0, size, 2) if u != t and places[u + 1] is not None),
            key=lambda u: (abs(rank[places[u + 1]] - rank[low]), u),  # type: ignore[index]
        )
        for u in others:
            if not clash(places[t], places[u + 1]) and not clash(places[u], low):
                places[t + 1], places[u + 1] = places[u + 1], low
                break
    return places


def knockout_rules(rules: MatchRules) -> MatchRules:
    """A knockout game's rules: it needs a winner, so a level game goes to tie-break deals,
    also when the event's draw rule is "half a win" (docs/scoring.md §7.6).

    >>> from engine.match import OPEN_SWISS
    >>> knockout_rules(OPEN_SWISS).draw, knockout_rules(MatchRules(draw="play_on")).draw
    ('tiebreak', 'play_on')
    """
    return replace(rules, draw="tiebreak") if rules.draw == "half" else rules


def rules_of_round(
    rules: MatchRules, *, method: str, competitors: int, group_size: int, number: int
) -> MatchRules:
    """The rules of round ``number``'s games: ``rules``, or :func:`knockout_rules` in a knockout
    round of groups-then-knockout (the rounds after the groups' round robins).

    >>> from engine.match import OPEN_SWISS
    >>> [rules_of_round(OPEN_SWISS, method="groups", competitors=8, group_size=4, number=n).draw
    ...  for n in (3, 4)]
    ['half', 'tiebreak']
    """
    if method != "groups" or competitors < 2 or rules.draw != "half":
        return rules
    return knockout_rules(rules) if number > group_rounds_of(competitors, group_size) else rules


def group_rounds_of(competitors: int, group_size: int) -> int:
    """How many group rounds ``competitors`` dealt into groups of ``group_size`` play: the
    longest group's round robin (k − 1 rounds for k even, k for k odd). Counted, not scheduled,
    so that a field no schedule fits (a group of one pair, in an event stored with a late entry)
    still reads its rounds' rules.

    >>> group_rounds_of(8, 4), group_rounds_of(10, 4), group_rounds_of(5, 2)
    (3, 3, 1)
    """
    sizes = [len(g) for g in snake_groups(range(competitors), size=group_size)]
    return max((k - 1 + k % 2 for k in sizes if k >= 2), default=0)


def round_rules(event: EventInput, number: int) -> MatchRules:
    """:func:`rules_of_round` for ``event``: what every reading of round ``number``'s games
    uses (the standings, the bracket, the boards a table owes)."""
    return rules_of_round(
        event.match_rules,
        method=event.pairing.method,
        competitors=len(event.entries),
        group_size=event.pairing.group_size,
        number=number,
    )


def _winner(event: EventInput, number: int, top: int, bottom: int) -> int | None:
    """The winner of ``top`` v ``bottom`` in round ``number``; None while it is not played."""
    rnd = next((r for r in event.rounds if r.number == number), None)
    if rnd is None:
        return None
    table = next((t for t in rnd.tables if {t.ns, t.ew} == {top, bottom}), None)
    if table is None:
        # Not seated: whoever of the two could play the round goes through; a pair that sat it
        # out (withdrawn, or a requested bye) is out. Both absent: the one still in the event,
        # else the better seed.
        active = set(event.active(number))
        if (top in active) != (bottom in active):
            return top if top in active else bottom
        gone = {e for e in (top, bottom) if event.out_of(e, number)}
        return bottom if top in gone and bottom not in gone else top
    if table.forfeited_by is not None:  # the opponents go through, as they win it
        return table.ew if table.forfeited_by == "NS" else table.ns
    m = match_under(
        table, mode=event.match_mode, rules=round_rules(event, number), boards=rnd.boards
    )[0]
    if m.mp_ns == m.mp_ew:
        return top
    return table.ns if m.mp_ns > m.mp_ew else table.ew


def knockout_rounds(
    event: EventInput, plan: GroupsPlan, places: Sequence[int | None]
) -> list[list[KnockoutMatch]]:
    """The bracket round by round, with the winners known from the event's rounds so far."""
    first = plan.group_rounds + 1
    rounds: list[list[KnockoutMatch]] = []
    current: list[int | None] = list(places)
    number = first
    rank: dict[int, int] = {}  # the knockout seeds (best first), read once a later round needs them
    while len(current) > 1:
        if number > first and not rank:
            rank = {e: i for i, e in enumerate(knockout_seeds(event, plan))}
        matches = []
        for i in range(0, len(current), 2):
            a, b = current[i], current[i + 1]
            if a is not None and b is not None and rank.get(b, len(rank)) < rank.get(a, len(rank)):
                # After the first round the better seed may come from the lower line (an
                # upset above it): it sits NS and goes through on a level game all the same.
                a, b = b, a
            winner: int | None
            if a is None or b is None:
                # A bye in the first round; later, a place still waiting for its winner.
                winner = (a if b is None else b) if number == first else None
            else:
                winner = _winner(event, number, a, b)
            matches.append(KnockoutMatch(number, a, b, winner))
        rounds.append(matches)
        current = [m.winner for m in matches]
        number += 1
    return rounds


def groups_next_round(event: EventInput, order: Sequence[int]) -> Pairing:
    """The round after the last one in ``event``: a group round, then the knockout rounds.

    ``order`` is the seeding order. Raises ``ValueError`` once the final has been played.
    """
    plan = groups_plan(event, order)
    number = max((r.number for r in event.rounds), default=0) + 1
    active = set(event.active(number))
    if number <= plan.group_rounds:
        return playing_only(plan.stage[number - 1], active)
    places = knockout_places(event, plan, order)
    for matches in knockout_rounds(event, plan, places):
        if matches[0].round != number:
            continue
        tables, rests = [], []
        for m in matches:
            present = [e for e in (m.top, m.bottom) if e is not None and e in active]
            if m.top is not None and m.bottom is not None and len(present) == 2:
                tables.append((m.top, m.bottom))
            elif m.winner is not None or len(present) == 1:
                # A bye, or an opponent who has withdrawn: straight through (a bye's holder
                # only while it plays on: withdrawn, its place stays empty).
                through = m.winner if m.winner is not None else present[0]
                if through in active:
                    rests.append(through)
        return Pairing(tables=tables, rests=rests)
    raise ValueError(f"the knockout is over: there is no round {number}")


def _qualification(event: EventInput, plan: GroupsPlan, order: Sequence[int]) -> Qualification:
    opts = event.pairing
    return qualify(
        group_tables(event, plan),
        qualifiers=opts.qualifiers,
        repesca=opts.repesca,
        repesca_min_points=opts.repesca_min_points,
        seed_rank={e: i for i, e in enumerate(order)},
    )


def knockout_seeds(event: EventInput, plan: GroupsPlan) -> list[int]:
    """The knockout's seeds, best first (``Qualification.seeds``, seeded from ``plan.order``)."""
    return _qualification(event, plan, plan.order).seeds


def knockout_places(event: EventInput, plan: GroupsPlan, order: Sequence[int]) -> list[int | None]:
    """The first knockout round's places, from the group tables."""
    q = _qualification(event, plan, order)
    group_of = {e: gi for gi, g in enumerate(plan.groups) for e in g}
    return bracket_places(q.seeds, group_of)
