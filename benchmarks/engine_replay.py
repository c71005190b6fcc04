"""Replay throughput of the rules engine (pure Python, one core).

Builds N random complete legal records first (not timed), then times ``engine.replay`` over
all of them and ``engine.legal_for_record`` over random legal prefixes. Prints:

    replay_hands_per_s: N hands/s
    legal_calls_per_s: N calls/s

Usage: python benchmarks/engine_replay.py [--records 20000] [--seed 1] [--repeat 1] [--cpu]

``--repeat K`` times each measure K times and prints the best (fastest) run; ``--cpu`` times with
the process's CPU clock instead of the wall clock. On a machine shared with other work, both
make runs comparable: the wall clock also counts the time other processes held the core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Rules, Seat, card_token, deal_board, legal_for_record, replay  # noqa: E402
from engine.cards import CARD_SUIT, R1_ORDER  # noqa: E402
from engine.rules import BEATS, TRUMP_INDEX, TRUMPS, legal_mask  # noqa: E402


def random_play(
    hands: list[int], leader: int, t: int, obligada: bool, rng: random.Random
) -> list[int]:
    """A uniformly random legal card at every turn; seats indexed N=0, E=1, S=2, W=3."""
    hands = list(hands)
    seat, pos, led, win, win_seat = leader, 0, 0, 0, 0
    played: list[int] = []
    for _ in range(48):
        h = hands[seat]
        mask = legal_mask(h, pos, led, win, pos > 0 and (win_seat ^ seat) == 2, t, obligada)
        card = rng.choice([c for c in R1_ORDER if mask >> c & 1])
        played.append(card)
        hands[seat] = h ^ (1 << card)
        if pos == 0:
            led, win, win_seat = CARD_SUIT[card], card, seat
        elif BEATS[t][win] >> card & 1:
            win, win_seat = card, seat
        if pos == 3:
            seat, pos = win_seat, 0
        else:
            seat, pos = (seat + 3) & 3, pos + 1
    return played


def build_records(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    records = []
    for i in range(n):
        deal = deal_board(f"bench-{seed}", i + 1)
        trump = rng.choice(TRUMPS)
        ruleset = rng.choice(("lliure", "obligada"))
        seats = [deal.hands[s] for s in Seat]
        leader = deal.dealer.right.value
        play = random_play(seats, leader, TRUMP_INDEX[trump], ruleset == "obligada", rng)
        records.append(
            {
                "format": "botifarra-play/1",
                "ruleset": ruleset,
                "deal": {"dealer": deal.dealer.name, "hands": deal.hands_json()},
                "choice": {"delegated": False, "trump": trump},
                "doubles": [],
                "play": [card_token(c) for c in play],
            }
        )
    return records


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--cpu", action="store_true", help="process CPU time, not wall time")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    records = build_records(args.records, args.seed)
    rng = random.Random(args.seed)
    prefixes = [dict(r, play=r["play"][: rng.randrange(48)]) for r in records]

    replay_s = legal_s = float("inf")
    for _ in range(max(1, args.repeat)):
        start = clock()
        verdicts = [replay(r) for r in records]
        replay_s = min(replay_s, clock() - start)
        assert all(v.outcome == "complete" for v in verdicts), "a random legal game did not replay"

        start = clock()
        for r in prefixes:
            legal_for_record(r, rules=Rules(r["ruleset"]))
        legal_s = min(legal_s, clock() - start)

    print(f"replay_hands_per_s: {len(records) / replay_s:.0f} hands/s")
    print(f"legal_calls_per_s: {len(prefixes) / legal_s:.0f} calls/s")


if __name__ == "__main__":
    main()
