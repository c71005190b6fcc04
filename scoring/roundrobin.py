"""Round robin (all-play-all) on Berger tables, for pairs or teams (any integer ids).

Berger tables (FIDE's, Handbook C.05 annex 1) for ``m`` positions, ``m`` even: round 1 is
1–m, 2–(m−1), 3–(m−2)…; each next round adds m/2 to every position but m (counting 1…m−1 round
the circle) and turns the table of position m round, so that m alternates directions. The first
named sits North–South. With an odd number of competitors position m is empty: who meets it rests
(no game, no score). Every competitor meets every other once in m − 1 rounds, with NS and EW
counts differing by one at most.

A double round robin (a league's home and away) plays the tables twice, the second time with the
directions turned round; as FIDE advises, the last two rounds of the first cycle are swapped so
that nobody sits three times in a row in the same direction across the two cycles.

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from scoring.types import CannotPair, Pairing


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The Berger tables of ``n`` positions (``n`` odd: position n + 1 is the rest)."""
    if n < 2:
        raise CannotPair("too_few", f"a round robin needs at least 2 competitors, not {n}", n=n)
    m = n + n % 2
    half = m // 2

    def shift(x: int) -> int:
        return x if x == m else (x - 1 + half) % (m - 1) + 1

    tables = [(1, m)] + [(i, m + 1 - i) for i in range(2, half + 1)]
    rounds = [tables]
    for _ in range(m - 2):
        nxt = []
        for a, b in rounds[-1]:
            a, b = shift(a), shift(b)
            nxt.append((b, a) if m in (a, b) else (a, b))
        rounds.append(nxt)
    return rounds


def round_robin_schedule(
    competitors: Sequence[int], *, double: bool = False, rounds: int | None = None
) -> list[Pairing]:
    """Every round of an all-play-all of ``competitors`` (in seeding order: position 1 first).

    ``rounds`` cuts the schedule short (an evening with fewer rounds than the field needs).
    Tables are numbered in the order of the Berger table; a competitor drawn against the empty
    position of an odd field rests.

    >>> [p.tables for p in round_robin_schedule([10, 20, 30])]
    [[(20, 30)], [(10, 20)], [(30, 10)]]
    >>> [p.rests for p in round_robin_schedule([10, 20, 30])]
    [[10], [30], [20]]
    """
    if len(set(competitors)) != len(competitors):
        raise ValueError("a competitor appears twice in the round robin")
    n = len(competitors)
    table = berger_rounds(n)
    if double:
        first = table[:-2] + table[-2:][::-1] if len(table) >= 2 else table
        table = first + [[(b, a) for a, b in r] for r in table]
    if rounds is not None:
        if rounds < 1 or rounds > len(table):
            raise CannotPair(
                "rounds",
                f"this round robin has 1 to {len(table)} rounds, not {rounds}",
                most=len(table),
                rounds=rounds,
            )
        table = table[:rounds]
    out = []
    for r in table:
        tables, rests = [], []
        for a, b in r:
            if a > n:
                rests.append(competitors[b - 1])
            elif b > n:
                rests.append(competitors[a - 1])
            else:
                tables.append((competitors[a - 1], competitors[b - 1]))
        out.append(Pairing(tables=tables, rests=rests))
    return out


def playing_only(pairing: Pairing, active: Collection[int]) -> Pairing:
    """The scheduled round with only ``active`` competitors playing: one whose opponent is absent
    (withdrawn, sitting the round out, not entered yet) rests."""
    tables, rests = [], [e for e in pairing.rests if e in active]
    for ns, ew in pairing.tables:
        if ns in active and ew in active:
            tables.append((ns, ew))
        elif ns in active:
            rests.append(ns)
        elif ew in active:
            rests.append(ew)
    return Pairing(tables=tables, bye=None, rests=rests)
