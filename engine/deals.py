"""Seeded deals (deals.md, rules.md R3).

>>> dealer_of_board(1), dealer_of_board(2), dealer_of_board(3), dealer_of_board(4)
(Seat.N, Seat.W, Seat.S, Seat.E)
>>> d = deal_board("example", 1)
>>> d == deal_board("example", 1), sorted(m.bit_count() for m in d.hands.values())
(True, [12, 12, 12, 12])
>>> commitment("abc")[:16]
'ba7816bf8f01cfea'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import ALL_CARDS_MASK, CARD_BIT, Seat, tokens

__all__ = ["Deal", "commitment", "deal_board", "dealer_of_board"]

_JSON_SEAT_ORDER = (Seat.N, Seat.W, Seat.S, Seat.E)


def dealer_of_board(n: int) -> Seat:
    """The dealer of board ``n`` (R3): N, W, S, E for n ≡ 1, 2, 3, 0 (mod 4).

    >>> dealer_of_board(5)
    Seat.N
    """
    if n < 1:
        raise ValueError(f"boards are numbered from 1, not {n}")
    return Seat((-(n - 1)) % 4)


@dataclass(frozen=True)
class Deal:
    """One board: its number (0 outside an event), dealer and the four hands as bitmasks.

    >>> from engine.cards import cards_to_mask
    >>> d = Deal(0, Seat.N, {s: cards_to_mask(range(12 * s.value, 12 * s.value + 12)) for s in Seat})
    >>> d.hands_json()["N"][:3]
    ['9o', '1o', '12o']
    """

    board: int
    dealer: Seat
    hands: dict[Seat, int] = field(hash=False)

    def __post_init__(self) -> None:
        masks = [self.hands.get(s, 0) for s in Seat]
        union = 0
        for m in masks:
            if m.bit_count() != 12 or union & m:
                raise ValueError("a deal needs 12 distinct cards in each hand (R3)")
            union |= m
        if union != ALL_CARDS_MASK or len(self.hands) != 4:
            raise ValueError("a deal holds the 48 cards (R1)")

    def hands_json(self) -> dict[str, list[str]]:
        """Hands as canonical tokens sorted as R1 says, seats in the order N, W, S, E."""
        return {s.name: tokens(self.hands[s]) for s in _JSON_SEAT_ORDER}

    def to_json(self) -> dict[str, Any]:
        """``{"board": n, "dealer": "N", "hands": {...}}`` (see :meth:`hands_json`).

        >>> list(deal_board("s", 2).to_json())
        ['board', 'dealer', 'hands']
        """
        return {"board": self.board, "dealer": self.dealer.name, "hands": self.hands_json()}

    @classmethod
    def from_hands(cls, dealer: Seat, hands: Mapping[Seat, int], board: int = 0) -> Deal:
        """A deal from bitmasks (raises ``ValueError`` unless they are 4 × 12 distinct cards)."""
        return cls(board, dealer, {s: hands[s] for s in Seat})


def _stream(seed: str, board: int) -> Iterator[int]:
    prefix = seed.encode("utf-8") + b":" + str(board).encode() + b":"
    k = 0
    while True:
        block = hashlib.sha256(prefix + str(k).encode()).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def shuffled_deck(seed: str, board: int) -> list[int]:
    """The Fisher–Yates shuffle of deals.md step 3.

    >>> sorted(shuffled_deck("x", 1)) == list(range(48))
    True
    """
    deck = list(range(48))
    stream = _stream(seed, board)
    for i in range(47, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        u = next(stream)
        while u >= limit:
            u = next(stream)
        j = u % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_board(seed: str, board: int) -> Deal:
    """The seeded deal of board ``board`` (1-based) of an event (deals.md).

    >>> deal_board("botifarra", 1).to_json()["hands"]["N"][:4]
    ['6o', '12c', '10c', '7c']
    """
    dealer = dealer_of_board(board)
    deck = shuffled_deck(seed, board)
    hands = dict.fromkeys(Seat, 0)
    for packet in range(12):
        seat = Seat((dealer.value - (packet % 4 + 1)) % 4)
        for c in deck[4 * packet : 4 * packet + 4]:
            hands[seat] |= CARD_BIT[c]
    return Deal(board, dealer, hands)


def commitment(seed: str) -> str:
    """The published commitment: SHA-256 of the UTF-8 seed, hex (deals.md).

    >>> commitment("")[:8]
    'e3b0c442'
    """
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
