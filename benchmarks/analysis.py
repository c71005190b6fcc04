"""Perfect-play analysis speed (issue 19), one core, no parallelism.

- ``dd_solve_median_s`` / ``dd_solve_max_s``: one full deal under one trump, from the opening
  lead: 20 fixed seeded deals (seed ``analysis-i``, board ``i + 1``, so every dealer comes up)
  x the five trump choices = 100 solves, each with a fresh solver (no table carried over).
- ``dd_card_costs_median_s``: all 48 card costs of a complete record (engine.analysis.card_costs):
  10 fixed records, a seeded deal each, a random legal play, the trumps in turn.
- ``solver_backend``: ``c`` (the extension) or ``python`` (the reference);
  ``solver_profile_guided``: ``yes`` when setup.py built the extension profile-guided (gcc), ``no``
  for the plain ``-O3`` build (``BOTIFARRA_SOLVER_PGO=0 pip install -e . --no-deps``) or the
  reference.
- ``-v`` prints every solve on stderr: its value, CPU seconds and the positions searched (the
  solver's node count, which does not depend on the machine's load).

Times are the CPU seconds of this process (time.process_time), so that other work on a shared
machine does not inflate them; ``--wall`` measures elapsed time instead. The ruleset is lliure
(the default, R11) unless ``--ruleset obligada``.

Usage: python benchmarks/analysis.py [--deals 20] [--records 10] [--ruleset lliure] [--wall] [-v]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Hand, Rules, card_token, deal_board  # noqa: E402
from engine.analysis import card_costs  # noqa: E402
from engine.rules import TRUMPS  # noqa: E402
from engine.solver import BACKEND, PROFILE_GUIDED, Solver  # noqa: E402


def record(i: int, ruleset: str) -> dict[str, Any]:
    """A complete record of a random legal play of the seeded deal ``costs-i``."""
    rng = random.Random(f"costs-{i}")
    deal = deal_board(f"costs-{i}", i + 1)
    trump = TRUMPS[i % 5]
    hand = Hand(deal, trump, Rules(ruleset))
    while not hand.is_over:
        hand.play(rng.choice(hand.legal_cards()))
    return {
        "format": "botifarra-play/1",
        "ruleset": ruleset,
        "deal": {"dealer": deal.dealer.name, "hands": deal.hands_json()},
        "choice": {"delegated": False, "trump": trump},
        "play": [card_token(c) for c in hand.played],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--records", type=int, default=10)
    parser.add_argument("--ruleset", choices=("lliure", "obligada"), default="lliure")
    parser.add_argument("--wall", action="store_true", help="elapsed time, not CPU time")
    parser.add_argument("-v", "--verbose", action="store_true", help="every solve on stderr")
    args = parser.parse_args()
    clock: Callable[[], float] = time.perf_counter if args.wall else time.process_time
    rules = Rules(args.ruleset)

    solves = []
    for i in range(args.deals):
        deal = deal_board(f"analysis-{i}", i + 1)
        for trump in TRUMPS:
            solver = Solver(deal, trump=trump, rules=rules)
            start = clock()
            value = solver.value()
            solves.append(clock() - start)
            if args.verbose:
                # Positions searched: a figure that does not depend on the machine's load.
                nodes = getattr(solver._search, "nodes", 0)
                print(
                    f"deal {i} {trump}: NS {value} in {solves[-1]:.2f} s, {nodes} positions",
                    file=sys.stderr,
                )

    costs = []
    for i in range(args.records):
        rec = record(i, args.ruleset)
        start = clock()
        card_costs(rec)
        costs.append(clock() - start)
        if args.verbose:
            print(f"record {i}: card costs in {costs[-1]:.2f} s", file=sys.stderr)

    print(f"solver_backend: {BACKEND}")
    print(f"solver_profile_guided: {'yes' if PROFILE_GUIDED else 'no'}")
    if solves:
        print(f"dd_solve_median_s: {statistics.median(solves):.3f} s")
        print(f"dd_solve_max_s: {max(solves):.3f} s")
    if costs:
        print(f"dd_card_costs_median_s: {statistics.median(costs):.3f} s")


if __name__ == "__main__":
    main()
