"""Random plausible tournaments, for the checker (FIDE asks pairing programs for both).

A generated tournament has clubs and ratings, a few named prohibited pairs, late entries,
requested byes and withdrawals, and game-mode results under the open-Swiss limits (101 points,
12 deals, the clock on some tables, a cap of 121; draws half a win, or broken by tie-break
deals in the groups). Every round is paired by :func:`scoring.methods.next_pairing`, so a
generated file checks clean; the same arguments always give the same file.
"""

from __future__ import annotations

import random
from dataclasses import replace

from scoring.methods import next_pairing, planned_rounds
from scoring.tournament_file import TournamentFile
from scoring.types import (
    BoardResult,
    ByeRequest,
    EventInput,
    LateEntry,
    Pairing,
    PairingOptions,
    RoundInput,
    TableRound,
)

BOARDS = 14  # 12 deals and 2 tie-break deals


def _deal(rng: random.Random) -> tuple[int, int]:
    # R9: one side scores (total − 36) × multiplier; 36–36 scores nothing.
    total = rng.randint(18, 54)
    mult = rng.choice((1, 1, 1, 2, 2, 4))
    score = (total - 36) * mult
    return max(score, 0), max(-score, 0)


def _play(rng: random.Random, number: int, pairing: Pairing) -> RoundInput:
    boards = list(range((number - 1) * BOARDS + 1, number * BOARDS + 1))
    tables = []
    for t, (ns, ew) in enumerate(pairing.tables, start=1):
        results = [BoardResult(b, t, ns, ew, *_deal(rng)) for b in boards]
        time_after = rng.randint(4, 11) if rng.random() < 0.15 else None
        tables.append(TableRound(number, t, ns, ew, results, time_after))
    return RoundInput(number, boards, tables, pairing.bye, list(pairing.rests))


def generate(
    *, method: str = "swiss", pairs: int = 24, rounds: int = 5, seed: int = 0
) -> TournamentFile:
    """A random tournament of ``pairs`` competitors paired by ``method`` (``rounds`` is the
    Swiss's number of rounds, the round robin's if fewer than the field needs; the groups play
    until the final)."""
    if pairs < 4:
        raise ValueError(f"a generated tournament has at least 4 pairs, not {pairs}")
    rng = random.Random(f"{method}:{pairs}:{rounds}:{seed}")
    entries = list(range(1, pairs + 1))
    n_clubs = max(2, pairs // 6)
    clubs = {e: rng.randint(1, n_clubs) for e in entries if rng.random() < 0.8}
    ratings = {e: rng.randint(1200, 2200) for e in entries if rng.random() < 0.9}
    forbidden = []
    for _ in range(max(1, pairs // 20)):
        a, b = rng.sample(entries, 2)
        forbidden.append((min(a, b), max(a, b)))
    if method == "swiss":
        options = PairingOptions(
            method="swiss",
            rounds=rounds,
            seeding=rng.choice(("lot", "rating")),
            accelerated=rng.random() < 0.5,
            club_rounds=rng.randint(0, 2),
        )
        draw = "half"
    elif method == "roundrobin":
        whole = pairs - 1 + pairs % 2
        options = PairingOptions(
            method="roundrobin", rounds=min(rounds, whole), seeding=rng.choice(("lot", "rating"))
        )
        draw = "half"
    elif method == "groups":
        options = PairingOptions(
            method="groups",
            seeding=rng.choice(("lot", "rating")),
            group_size=rng.choice((3, 4, 5)),
            qualifiers=rng.choice((1, 2)),
            repesca=None,
            repesca_min_points=rng.choice((0, 1)),
        )
        draw = "tiebreak"
    else:
        raise ValueError(f"unknown pairing method {method!r}")
    event = EventInput(
        entries,
        {e: e for e in entries},
        {},
        [],
        match_mode="game",
        game_target=101,
        game_cap=121,
        deal_limit=12,
        draw=draw,
        tiebreak_deals=2,
        seed=f"generated-{seed}",
        pairing=options,
        clubs=clubs,
        forbidden=forbidden if method == "swiss" else [],
        ratings=ratings,
    )
    total = planned_rounds(event)
    # Late entries and requested byes belong to the Swiss; withdrawals happen in every method.
    if method == "swiss":
        late = [
            LateEntry(e, rng.randint(2, min(3, total)), rng.randint(0, 2))
            for e in entries
            if total >= 2 and rng.random() < 0.05
        ]
        late_ids = {x.entry for x in late}
        requests = [
            ByeRequest(e, r, rng.choice((0, 1)))
            for e in entries
            if e not in late_ids and rng.random() < 0.05
            for r in [rng.randint(1, total)]
        ]
        event = replace(event, late_entries=late, bye_requests=requests)
    withdrawn = {e: rng.randint(1, max(total - 1, 1)) for e in entries if rng.random() < 0.04}
    played: list[RoundInput] = []
    for number in range(1, total + 1):
        # Withdrawals become known after their round, like in a real event.
        known = {e: w for e, w in withdrawn.items() if w < number}
        event = replace(event, withdrawn=known, rounds=played)
        try:
            pairing = next_pairing(event)
        except ValueError:
            break  # the knockout is over sooner (fewer qualifiers than planned)
        played = [*played, _play(rng, number, pairing)]
    event = replace(
        event, withdrawn={e: w for e, w in withdrawn.items() if w < len(played)}, rounds=played
    )
    return TournamentFile(event=event, name=f"Generated {method} {pairs} pairs, seed {seed}")
