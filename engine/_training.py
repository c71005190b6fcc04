"""The workload that trains the profile-guided build of ``engine._solver`` (setup.py).

``pip install`` compiles the extension once with gcc's ``-fprofile-generate``, runs
:func:`train` in a child process against that build, then compiles it again with
``-fprofile-use``: gcc lays out the search's branches and inlines by what this run did. The deals
are seeded ``pgo-training-i``, none of those that ``benchmarks/analysis.py`` times, so that the
benchmark measures the build on deals it was not trained on.

Run by hand: ``python -m engine._training [deals [records]]`` prints the positions searched.
"""

from __future__ import annotations

import random
import sys

from engine.analysis import card_costs
from engine.cards import card_token
from engine.deals import deal_board
from engine.hand import Hand
from engine.record import make_record
from engine.rules import TRUMPS, Rules
from engine.solver import Solver

DEALS = 3
RECORDS = 5


def train(deals: int = DEALS, records: int = RECORDS) -> int:
    """Solve ``deals`` seeded deals under every trump (the first also under *obligada*), and
    compute the card costs of ``records`` random plays (many light solves from the middle of a
    hand, as the product asks); returns the positions the full-deal solves searched."""
    positions = 0
    for i in range(deals):
        deal = deal_board(f"pgo-training-{i}", i + 1)
        for ruleset in ("lliure", "obligada") if i == 0 else ("lliure",):
            for trump in TRUMPS:
                solver = Solver(deal, trump=trump, rules=Rules(ruleset))
                solver.value()
                positions += getattr(solver._search, "nodes", 0)
    for i in range(records):
        rng = random.Random(f"pgo-training-record-{i}")
        deal = deal_board(f"pgo-training-record-{i}", i + 1)
        trump = TRUMPS[i % len(TRUMPS)]
        hand = Hand(deal, trump, Rules())
        while not hand.is_over:
            hand.play(rng.choice(hand.legal_cards()))
        card_costs(
            make_record(
                dealer=deal.dealer.name,
                hands=deal.hands_json(),
                trump=trump,
                play=[card_token(c) for c in hand.played],
            )
        )
    return positions


if __name__ == "__main__":
    sizes = [int(arg) for arg in sys.argv[1:3]]
    print(f"positions: {train(*sizes)}")
