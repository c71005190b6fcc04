"""A synthetic event for the benchmarks: 1,000 pairs, 10 rounds of 6 boards (30,000 results).

Random tables and R9 hand scores, a few adjusted scores and missing results so that Neuberg
runs. ``benchmarks/standings.py`` times the standings on it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.types import BoardResult, EventInput, RoundInput, TableRound  # noqa: E402

PAIRS, ROUNDS, BOARDS = 1000, 10, 6


def build_event(seed: int = 1) -> EventInput:
    rng = random.Random(seed)
    entries = list(range(1, PAIRS + 1))
    rounds = []
    for number in range(1, ROUNDS + 1):
        order = entries[:]
        rng.shuffle(order)
        boards = [(number - 1) * BOARDS + b for b in range(1, BOARDS + 1)]
        tables = []
        for t in range(PAIRS // 2):
            ns, ew = order[2 * t], order[2 * t + 1]
            results = []
            for b in boards:
                score = (rng.randint(20, 52) - 36) * rng.choice((1, 1, 2, 4))
                roll = rng.random()
                if roll < 0.001:
                    continue  # a missing result: Neuberg for the board
                adjusted = ("avg_plus", "avg_minus") if roll < 0.002 else (None, None)
                results.append(
                    BoardResult(b, t + 1, ns, ew, max(score, 0), max(-score, 0), *adjusted)
                )
            tables.append(TableRound(number, t + 1, ns, ew, results))
        rounds.append(RoundInput(number, boards, tables))
    return EventInput(entries, {e: e for e in entries}, {}, rounds, seed="bench")
