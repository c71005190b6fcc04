"""Swiss pairing and checker speed.

* ``pairing_1000_s``, ``pairing_200_s``: 1,000 and 200 pairs paired for round 6 after five
  simulated rounds. Rounds 1–5 are paired with ``scoring.pairing`` itself and given random
  results. The script checks that no pair met the same opponent twice and that the direction rule
  holds (NS and EW counts never differ by more than 2, never three times the same direction in a
  row); it exits non-zero if either is violated.
* ``pairing_5000_s``: one Swiss round (round 7) for 5,000 pairs after six simulated rounds, with
  acceleration on (13 rounds planned, so round 7 is still accelerated: group A carries one
  virtual match point) and prohibited pairings on (clubs of about 8 pairs kept apart in every
  round, 250 named pairs that never meet). It must report no prohibited meeting.
* ``pairing_5000_clash_s``: the worst case of the sparse graph: 5,000 pairs each due a direction
  absolutely, six in ten the same one, so that no clean pairing exists (the clean graph has no
  perfect matching and the clashes must be placed). It must place the fewest clashes possible.
* ``checker_tournaments_per_s``: random 100-pair, 7-round Swiss tournaments
  (``scoring.generator``: acceleration, clubs, late entries, byes, withdrawals) re-derived by the
  checker, per second of checking (generation not counted). Each must check clean.

Times are CPU seconds of this process (``time.process_time``): on a shared machine the wall
clock measures the other users as much as the pairing (a 3 s round took 27 s of wall time on a
loaded machine). ``pairing_5000_wall_s`` gives the wall time of the same round, and ``load_1min``
the machine's load average when the script ends, to read it by.

Output, one figure a line: ``name: value unit``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.checker import check as check_file  # noqa: E402
from scoring.generator import generate  # noqa: E402
from scoring.pairing import pair_next_round, pair_round  # noqa: E402
from scoring.types import (  # noqa: E402
    BoardResult,
    EventInput,
    PairHistory,
    PairingOptions,
    RoundInput,
    TableRound,
)

BOARDS_PER_ROUND = 6


def random_result(rng: random.Random, board: int, table: int, ns: int, ew: int) -> BoardResult:
    # R9: one side scores (total − 36) × multiplier, the other 0; 36–36 scores nothing.
    total = rng.randint(20, 52)
    mult = rng.choice((1, 1, 1, 2, 2, 4))
    score = (total - 36) * mult
    return BoardResult(board, table, ns, ew, max(score, 0), max(-score, 0))


def play_round(rng: random.Random, number: int, pairing) -> RoundInput:
    boards = [(number - 1) * BOARDS_PER_ROUND + b for b in range(1, BOARDS_PER_ROUND + 1)]
    tables = []
    for t, (ns, ew) in enumerate(pairing.tables, start=1):
        results = [random_result(rng, b, t, ns, ew) for b in boards]
        tables.append(TableRound(number, t, ns, ew, results))
    return RoundInput(number, boards, tables, pairing.bye)


def check(event: EventInput, extra) -> list[str]:
    problems = []
    met: set[frozenset[int]] = set()
    dirs: dict[int, list[str]] = {e: [] for e in event.entries}
    rounds = [[(t.ns, t.ew) for t in r.tables] for r in event.rounds] + [extra.tables]
    for n, tables in enumerate(rounds, start=1):
        for ns, ew in tables:
            key = frozenset((ns, ew))
            if key in met:
                problems.append(f"round {n}: rematch {ns} v {ew}")
            met.add(key)
            dirs[ns].append("NS")
            dirs[ew].append("EW")
    for e, d in dirs.items():
        for i in range(len(d)):
            if abs(d[: i + 1].count("NS") - d[: i + 1].count("EW")) > 2:
                problems.append(f"entry {e}: NS/EW differ by more than 2 after round {i + 1}")
                break
            if i >= 2 and d[i] == d[i - 1] == d[i - 2]:
                problems.append(f"entry {e}: three times {d[i]} in a row, round {i + 1}")
                break
    return problems


def run(n_pairs: int, seed: int) -> tuple[float, list[str]]:
    rng = random.Random(seed)
    entries = list(range(1, n_pairs + 1))
    event = EventInput(entries, {e: e for e in entries}, {}, [], seed=f"bench-{seed}")
    for number in range(1, 6):
        pairing = pair_next_round(event)
        rounds = [*event.rounds, play_round(rng, number, pairing)]
        event = EventInput(entries, event.numbers, {}, rounds, seed=event.seed)
    start = time.process_time()
    pairing = pair_next_round(event)
    elapsed = time.process_time() - start
    problems = check(event, pairing)
    if pairing.rematches:
        problems.append(f"rematches reported: {pairing.rematches}")
    return elapsed, problems


def run_5000(seed: int = 5000) -> tuple[float, float, list[str]]:
    n = 5000
    rng = random.Random(seed)
    entries = list(range(1, n + 1))
    clubs = {e: rng.randint(1, n // 8) for e in entries}
    forbidden = sorted({tuple(sorted(rng.sample(entries, 2))) for _ in range(250)})
    event = EventInput(
        entries,
        {e: e for e in entries},
        {},
        [],
        seed=f"bench-{seed}",
        ratings={e: rng.randint(1000, 2400) for e in entries},
        clubs=clubs,
        forbidden=forbidden,  # type: ignore[arg-type]
        pairing=PairingOptions(rounds=13, seeding="rating", accelerated=True, club_rounds=13),
    )
    for number in range(1, 7):
        pairing = pair_next_round(event)
        event = replace(event, rounds=[*event.rounds, play_round(rng, number, pairing)])
    start, wall = time.process_time(), time.perf_counter()
    pairing = pair_next_round(event)
    elapsed, wall = time.process_time() - start, time.perf_counter() - wall
    problems = check(event, pairing)
    if pairing.rematches:
        problems.append(f"prohibited meetings made: {pairing.rematches[:5]}")
    return elapsed, wall, problems


def run_clash(n: int = 5000, seed: int = 5000) -> tuple[float, list[str]]:
    rng = random.Random(seed)
    ranked = list(range(1, n + 1))
    scores = sorted((rng.randint(0, 8) for _ in ranked), reverse=True)
    due_ew = {e for e in ranked if rng.random() < 0.6}
    history = {
        e: PairHistory(
            opponents=frozenset(),
            directions=("NS", "NS") if e in due_ew else ("EW", "EW"),
            score=float(s),
        )
        for e, s in zip(ranked, scores, strict=True)
    }
    start = time.process_time()
    pairing = pair_round(ranked=ranked, history=history, round_number=3)
    elapsed = time.process_time() - start
    problems = []
    if sorted(e for t in pairing.tables for e in t) != ranked:
        problems.append("not every pair is seated once")
    clashes = sum((ns in due_ew) == (ew in due_ew) for ns, ew in pairing.tables)
    if clashes != abs(2 * len(due_ew) - n) // 2:
        problems.append(f"{clashes} direction clashes, more than needed")
    return elapsed, problems


def checker_rate(count: int = 6) -> tuple[float, list[str]]:
    tournaments = [generate(method="swiss", pairs=100, rounds=7, seed=s) for s in range(count)]
    start = time.process_time()
    problems = [f"tournament {i}: {d}" for i, t in enumerate(tournaments) for d in check_file(t)]
    return count / (time.process_time() - start), problems


def main() -> int:
    failed = False
    for n in (1000, 200):
        elapsed, problems = run(n, seed=n)
        print(f"pairing_{n}_s: {elapsed:.3f} s")
        for p in problems:
            print(f"VIOLATION ({n} pairs): {p}", file=sys.stderr)
        failed |= bool(problems)
    elapsed, wall, problems = run_5000()
    print(f"pairing_5000_s: {elapsed:.3f} s")
    print(f"pairing_5000_wall_s: {wall:.3f} s")
    for p in problems:
        print(f"VIOLATION (5000 pairs): {p}", file=sys.stderr)
    failed |= bool(problems)
    elapsed, problems = run_clash()
    print(f"pairing_5000_clash_s: {elapsed:.3f} s")
    for p in problems:
        print(f"VIOLATION (5000 pairs, clashes): {p}", file=sys.stderr)
    failed |= bool(problems)
    rate, problems = checker_rate()
    print(f"checker_tournaments_per_s: {rate:.2f} tournaments/s")
    for p in problems:
        print(f"CHECKER DIFFERENCE: {p}", file=sys.stderr)
    failed |= bool(problems)
    print(f"load_1min: {os.getloadavg()[0]:.2f} processes")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
