"""Deals and positions shared by the solver tests.

The two hand-made deals have values known without any search. In both, every player holds three
cards of every suit; then at every trick all four hold the same number of cards of each suit, so
everyone follows the suit led (R7), nobody can trump or discard, and each suit is led exactly
three times (12 cards, four to a trick). A trick goes to the highest card of its suit (R6).

- ``top_six_deal``: North–South hold the six highest cards of every suit (9 1 12 11 10 8): they
  win all twelve tricks whatever the trump, the ruleset and the leader: 72 (60 + 12).
- ``split_deal``: North–South hold the six highest oros and copes, East–West the six highest
  espases and bastos: each pair wins the six tricks of its two suits, with their 30 card points:
  36 each, whatever the trump, the ruleset and the leader.
"""

from __future__ import annotations

import random

import pytest

from engine import Deal, Hand, Rules, Seat, parse_token
from engine.solver import BACKEND

TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")

#: For tests that solve whole deals (or many long endings) through engine.solver: with the
#: pure-Python fallback they would take minutes, so they run only where the C search is built.
needs_c_solver = pytest.mark.skipif(
    BACKEND != "c", reason="whole deals need the C solver (the reference would take minutes)"
)
_HIGH = ("9 12 10", "1 11 8")
_LOW = ("7 5 3", "6 4 2")


def _deal(dealer: Seat, strong: dict[str, tuple[Seat, Seat]]) -> Deal:
    hands = dict.fromkeys(Seat, 0)
    for suit, (first, second) in strong.items():
        others = (first.right, second.right)
        for seat, ranks in zip((first, second, *others), (*_HIGH, *_LOW), strict=True):
            for rank in ranks.split():
                hands[seat] |= 1 << parse_token(f"{rank}{suit}")
    return Deal.from_hands(dealer, hands)


def top_six_deal(dealer: Seat = Seat.N) -> Deal:
    """North–South hold the six highest cards of every suit."""
    return _deal(dealer, dict.fromkeys("oceb", (Seat.N, Seat.S)))


def split_deal(dealer: Seat = Seat.N) -> Deal:
    """North–South hold the six highest oros and copes, East–West those of espases and bastos."""
    ns, ew = (Seat.N, Seat.S), (Seat.E, Seat.W)
    return _deal(dealer, {"o": ns, "c": ns, "e": ew, "b": ew})


def random_position(
    rng: random.Random, *, tricks_left: int, ruleset: str, extra: int | None = None
) -> tuple[Deal, str, Rules, list[int]]:
    """A seeded deal, a trump and a random legal play leaving ``tricks_left`` tricks to go, then
    ``extra`` (0–3, random by default) more cards: a position in the middle of a trick."""
    deal_ = Deal.from_hands(Seat(rng.randrange(4)), _random_hands(rng))
    trump = rng.choice(TRUMPS)
    rules = Rules(ruleset)
    hand = Hand(deal_, trump, rules)
    cards = 48 - 4 * tricks_left + (rng.randrange(4) if extra is None else extra)
    while len(hand.played) < min(cards, 47):
        hand.play(rng.choice(hand.legal_cards()))
    return deal_, trump, rules, hand.played


def _random_hands(rng: random.Random) -> dict[Seat, int]:
    deck = list(range(48))
    rng.shuffle(deck)
    return {seat: sum(1 << c for c in deck[12 * i : 12 * i + 12]) for i, seat in enumerate(Seat)}
