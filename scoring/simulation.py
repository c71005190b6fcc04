"""A synthetic club with known strengths, to check that ratings predict (tests, benchmarks).

Players have a true skill drawn from N(0, 1). Each player has a regular partner; at each event
the players who come form pairs with their regular partner when both come and a coin with
``loyalty`` says so, the others are paired at random. An event is a Swiss of ``rounds`` rounds of
``boards_per_round`` boards (round 1 at random, then pairs sorted by match points and paired
1 v 2, 3 v 4…). On a board, table i's NS net score is

    round(4 × (skill(NS pair) − skill(EW pair) + deal + noise_i))

where a pair's skill is the sum of its players', ``deal`` ~ N(0, 2²) is shared by every table
(the cards, which duplicate cancels) and ``noise_i`` ~ N(0, noise²) is the table's own. The
positive side scores the net (R9: one side scores, the other 0).

``kendall_tau`` (τ-b, ties allowed) measures how well an order agrees with the true one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from scoring.matches import match_result
from scoring.types import BoardResult, EventInput, RoundInput, TableRound

Players = tuple[int, int]


@dataclass(frozen=True, slots=True)
class SyntheticEvent:
    event: int
    when: date
    input: EventInput
    lineups: dict[int, Players]


@dataclass(frozen=True, slots=True)
class SyntheticClub:
    skills: dict[int, float]
    events: list[SyntheticEvent]


def synthetic_club(
    *,
    players: int,
    events: int,
    pairs_per_event: int,
    rounds: int = 4,
    boards_per_round: int = 6,
    loyalty: float = 0.6,
    noise: float = 5.0,
    seed: int = 1,
    first_day: date = date(2025, 1, 7),
) -> SyntheticClub:
    """A club history of ``events`` weekly events; entry ids are unique across events."""
    if pairs_per_event < 2 or pairs_per_event % 2 or 2 * pairs_per_event > players:
        raise ValueError("pairs_per_event must be even, at least 2, and fit in the club")
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    skills = {p: rng.gauss(0.0, 1.0) for p in ids}
    partner = {}
    for k in range(0, players - 1, 2):
        partner[ids[k]], partner[ids[k + 1]] = ids[k + 1], ids[k]
    # Some players come every week, most now and then (exponential weights).
    activity = {p: rng.expovariate(1.0) for p in ids}
    history: list[SyntheticEvent] = []
    for n in range(1, events + 1):
        # Weighted sampling without replacement (Efraimidis–Spirakis keys).
        keyed = sorted(ids, key=lambda p: -math.log(1.0 - rng.random()) / activity[p])
        present = keyed[: 2 * pairs_per_event]
        here = set(present)
        pairs: list[Players] = []
        free: list[int] = []
        taken: set[int] = set()
        for p in present:
            if p in taken:
                continue
            q = partner.get(p)
            if q in here and q not in taken and rng.random() < loyalty:
                pairs.append((p, q))
                taken.update((p, q))
            else:
                free.append(p)
                taken.add(p)
        rng.shuffle(free)
        pairs.extend((free[k], free[k + 1]) for k in range(0, len(free), 2))
        entries = [n * 1000 + i for i in range(1, len(pairs) + 1)]
        lineups = dict(zip(entries, pairs, strict=True))
        strength = {e: skills[a] + skills[b] for e, (a, b) in lineups.items()}
        history.append(
            SyntheticEvent(
                event=n,
                when=first_day + timedelta(days=7 * (n - 1)),
                input=_play_event(rng, entries, strength, rounds, boards_per_round, noise),
                lineups=lineups,
            )
        )
    return SyntheticClub(skills=skills, events=history)


def _play_event(
    rng: random.Random,
    entries: list[int],
    strength: Mapping[int, float],
    rounds: int,
    boards_per_round: int,
    noise: float,
) -> EventInput:
    points = dict.fromkeys(entries, 0)
    round_inputs: list[RoundInput] = []
    for number in range(1, rounds + 1):
        if number == 1:
            order = entries[:]
            rng.shuffle(order)
        else:
            tiebreak = {e: rng.random() for e in entries}
            order = sorted(entries, key=lambda e: (-points[e], tiebreak[e]))
        boards = [(number - 1) * boards_per_round + b for b in range(1, boards_per_round + 1)]
        deals = {b: rng.gauss(0.0, 2.0) for b in boards}
        tables: list[TableRound] = []
        for t in range(len(order) // 2):
            ns, ew = order[2 * t], order[2 * t + 1]
            edge = strength[ns] - strength[ew]
            results = []
            for b in boards:
                net = round(4.0 * (edge + deals[b] + rng.gauss(0.0, noise)))
                results.append(BoardResult(b, t + 1, ns, ew, max(net, 0), max(-net, 0)))
            table = TableRound(number, t + 1, ns, ew, results)
            m = match_result(table)
            points[ns] += m.mp_ns
            points[ew] += m.mp_ew
            tables.append(table)
        round_inputs.append(RoundInput(number, boards, tables))
    return EventInput(entries, {e: e % 1000 for e in entries}, {}, round_inputs)


def win_rates(club: SyntheticClub) -> dict[int, float]:
    """Each player's share of matches won (a draw counts half), over every event played."""
    won: dict[int, float] = {}
    played: dict[int, int] = {}
    for ev in club.events:
        for rnd in ev.input.rounds:
            for t in rnd.tables:
                m = match_result(t)
                for entry, mp in ((t.ns, m.mp_ns), (t.ew, m.mp_ew)):
                    for p in ev.lineups[entry]:
                        won[p] = won.get(p, 0.0) + mp / 2.0
                        played[p] = played.get(p, 0) + 1
    return {p: won[p] / played[p] for p in played}


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's τ-b of two paired sequences: +1 same order, −1 reversed, 0 unrelated.

    >>> kendall_tau([1, 2, 3, 4], [10, 20, 30, 40])
    1.0
    >>> kendall_tau([1, 2, 3], [3, 2, 1])
    -1.0
    """
    n = len(xs)
    if n != len(ys):
        raise ValueError("kendall_tau needs two sequences of the same length")
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        xi, yi = xs[i], ys[i]
        for j in range(i + 1, n):
            dx = xs[j] - xi
            dy = ys[j] - yi
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    if denom == 0:
        raise ValueError("kendall_tau is undefined when one sequence is constant")
    return (concordant - discordant) / denom
