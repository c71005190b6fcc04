"""Perft-style counts (python-chess style): the number of legal play sequences from the start
of fixed seeded boards, to a depth of 4, 8 and 12 cards (1, 2, 3 tricks).

The constants were computed once and cross-checked with the naive oracle of
reference_rules.py (an independent reading of R6–R8); any change to legal-card generation
that alters them is a change of rules.
"""

import pytest

from engine import Hand, Rules, deal_board

PERFT = [
    # (seed, board, trump, ruleset, depth, count)
    ("perft", 1, "oros", "lliure", 4, 139),
    ("perft", 1, "oros", "lliure", 8, 15535),
    ("perft", 2, "botifarra", "lliure", 4, 155),
    ("perft", 2, "botifarra", "lliure", 8, 26322),
    ("perft", 3, "espases", "obligada", 4, 49),
    ("perft", 3, "espases", "obligada", 8, 2752),
    ("perft", 3, "espases", "obligada", 12, 156584),
    ("perft", 4, "copes", "obligada", 4, 33),
    ("perft", 4, "copes", "obligada", 8, 2075),
    ("perft", 4, "copes", "obligada", 12, 97592),
]


def perft(hand: Hand, depth: int) -> int:
    if depth == 1:
        return hand.legal_mask().bit_count()
    total = 0
    for card in hand.legal_cards():
        hand.play(card)
        total += perft(hand, depth - 1)
        hand.undo()
    return total


@pytest.mark.parametrize(("seed", "board", "trump", "ruleset", "depth", "count"), PERFT)
def test_perft_counts_of_legal_sequences_r6_r7_r8(
    seed: str, board: int, trump: str, ruleset: str, depth: int, count: int
) -> None:
    """R6 (leader, trick winner leads), R7, R8: fixed counts of legal sequences."""
    assert perft(Hand(deal_board(seed, board), trump, Rules(ruleset)), depth) == count
