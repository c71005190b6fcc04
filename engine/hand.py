"""A hand in play, python-chess style: compact int state, ``play()``/``undo()``.

>>> from engine.deals import deal_board
>>> h = Hand(deal_board("demo", 1), "oros")
>>> h.to_move, h.leader, h.trick_number
(Seat.W, Seat.W, 1)
>>> first = h.legal_cards()[0]
>>> h.play(first)
>>> h.to_move, len(h.trick)
(Seat.S, 1)
>>> h.undo() == first
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import (
    CARD_POINTS,
    CARD_SUIT,
    Seat,
    card_token,
    mask_to_cards,
)
from engine.deals import Deal
from engine.errors import IllegalPlay
from engine.rules import BEATS, TRUMP_INDEX, Rule, Rules, illegal_rule, legal_mask
from engine.scoring import hand_score, penalty_score

__all__ = ["Hand", "IllegalCard", "random_play"]

#: The default rules (lliure, R11), shared: ``Rules`` is immutable.
DEFAULT_RULES = Rules()

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_PAIRS = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class IllegalCard:
    """An illegal play recorded with ``Hand.play(card, allow_illegal=True)`` (R10)."""

    seat: Seat
    card: int
    rule: Rule
    legal: tuple[int, ...]
    trick: int
    position: int


class Hand:
    """The state of one hand: remaining cards as bitmasks, the current trick, the tricks won.

    ``trump`` is ``oros``, ``copes``, ``espases``, ``bastos`` or ``botifarra``; ``rules`` picks
    the legal-card rules (R7, plus R8 under *obligada*).
    """

    def __init__(self, deal: Deal, trump: str, rules: Rules = DEFAULT_RULES) -> None:
        if trump not in TRUMP_INDEX:
            raise ValueError(f"unknown trump choice {trump!r} (R4)")
        self.deal: Deal = deal
        self.dealer: Seat = deal.dealer
        self.trump: str = trump
        self.rules: Rules = rules
        self._t = TRUMP_INDEX[trump]
        self._obligada = rules.obligada
        self._initial = tuple(deal.hands[s] for s in _SEATS)
        self._hands = list(self._initial)
        self._to_move = self.dealer.right.value  # R6: the dealer's right leads trick 1
        self._pos = 0
        self._led = 0
        self._win = 0
        self._win_seat = 0
        self._trick: list[tuple[int, int]] = []
        self._tricks = [0, 0]
        self._points = [0, 0]
        self._winners: list[int] = []
        self._moves: list[int] = []
        self._stack: list[tuple[Any, ...]] = []
        self.illegal: IllegalCard | None = None

    @classmethod
    def from_hands(
        cls,
        dealer: Seat,
        hands: Mapping[Seat, int],
        trump: str,
        rules: Rules = DEFAULT_RULES,
        play: Iterable[int] = (),
    ) -> Hand:
        """A hand from four bitmasks; ``play`` replays legal cards (raising on an illegal one)."""
        hand = cls(Deal.from_hands(dealer, hands), trump, rules)
        for card in play:
            hand.play(card)
        return hand

    # -- reading the state ---------------------------------------------------------------
    @property
    def to_move(self) -> Seat:
        """The seat to play next."""
        return _SEATS[self._to_move]

    @property
    def leader(self) -> Seat:
        """The seat that led (or leads) the current trick."""
        if not self._trick:
            return _SEATS[self._to_move]
        return _SEATS[self._trick[0][0]]

    @property
    def trick(self) -> list[tuple[Seat, int]]:
        """The cards on the table in the current trick, with their seats."""
        return [(_SEATS[s], c) for s, c in self._trick]

    @property
    def trick_number(self) -> int:
        """The current trick, 1–12 (12 once the hand is over)."""
        return min(len(self._winners) + 1, 12)

    @property
    def trick_winners(self) -> list[Seat]:
        """The winner of each completed trick."""
        return [_SEATS[s] for s in self._winners]

    @property
    def tricks_won(self) -> dict[str, int]:
        """Tricks won by each pair."""
        return {"NS": self._tricks[0], "EW": self._tricks[1]}

    @property
    def totals(self) -> dict[str, int]:
        """Each pair's running total: points captured + 1 per trick (R9)."""
        return {"NS": self._points[0], "EW": self._points[1]}

    @property
    def hands(self) -> dict[Seat, int]:
        """The remaining cards of each seat, as bitmasks."""
        return {s: self._hands[s.value] for s in _SEATS}

    @property
    def played(self) -> list[int]:
        """The cards played so far, in order (an illegal one recorded last)."""
        return list(self._moves)

    @property
    def is_over(self) -> bool:
        """True after 12 tricks, or after an illegal play was recorded (R10)."""
        return self.illegal is not None or len(self._winners) == 12

    @property
    def capot(self) -> bool:
        """True when the hand is complete and one pair took all 12 tricks (R9)."""
        return self.illegal is None and 12 in self._tricks

    def score(self, multiplier: int) -> dict[str, int]:
        """The hand score (R9), or the penalty score after a recorded illegal play (R10)."""
        if self.illegal is not None:
            return penalty_score(self.illegal.seat.pair, multiplier)
        if not self.is_over:
            raise ValueError("the hand is not over")
        return hand_score(self.totals, multiplier)

    # -- legal cards ---------------------------------------------------------------------
    def _context(self) -> tuple[int, int, int, int, bool]:
        seat = self._to_move
        partner = bool(self._trick) and (self._win_seat ^ seat) == 2
        return self._hands[seat], self._pos, self._led, self._win, partner

    def legal_mask(self) -> int:
        """The legal cards of the player to move, as a bitmask (R7, R8)."""
        if self.is_over:
            return 0
        h, pos, led, win, partner = self._context()
        return legal_mask(h, pos, led, win, partner, self._t, self._obligada)

    def legal_cards(self) -> list[int]:
        """The legal cards of the player to move, R1 order."""
        return mask_to_cards(self.legal_mask())

    def is_legal(self, card: int) -> bool:
        """Whether the player to move may play ``card`` now."""
        return bool(self.legal_mask() >> card & 1)

    def why_illegal(self, card: int) -> Rule | None:
        """The :class:`engine.Rule` that playing ``card`` breaks (``follow_suit``, ``must_beat``,
        ``must_trump``, ``must_overtrump``, ``lowest_card``), or None if legal. ``ValueError`` if
        not held."""
        self._check_held(card)
        h, pos, led, win, partner = self._context()
        return illegal_rule(h, card, pos, led, win, partner, self._t, self._obligada)

    def _check_held(self, card: int) -> None:
        if self.is_over:
            raise ValueError("the hand is over")
        if not 0 <= card < 48:
            raise ValueError(f"not a card: {card!r}")
        if not self._hands[self._to_move] >> card & 1:
            raise ValueError(f"{card_token(card)} is not in {self.to_move.name}'s hand")

    # -- moves ---------------------------------------------------------------------------
    def play(self, card: int, *, allow_illegal: bool = False) -> None:
        """Play ``card`` for the player to move.

        Raises ``ValueError`` if the player does not hold it, :class:`IllegalPlay` if the rules
        forbid it; with ``allow_illegal=True`` an illegal card is recorded in :attr:`illegal`
        instead and the hand stops there (R10).
        """
        self._check_held(card)
        rule = self.why_illegal(card)
        seat = self._to_move
        if rule is not None:
            legal = self.legal_cards()
            if not allow_illegal:
                raise IllegalPlay(
                    f"{card_token(card)} breaks {rule} for {_SEATS[seat].name}",
                    rule=rule,
                    card=card,
                    legal=legal,
                )
            self._stack.append(self._snapshot())
            self._moves.append(card)
            self.illegal = IllegalCard(
                _SEATS[seat], card, rule, tuple(legal), len(self._winners) + 1, self._pos + 1
            )
            return
        self._stack.append(self._snapshot())
        self._moves.append(card)
        self._hands[seat] ^= 1 << card
        self._trick.append((seat, card))
        if self._pos == 0:
            self._led, self._win, self._win_seat = CARD_SUIT[card], card, seat
        elif BEATS[self._t][self._win] >> card & 1:
            self._win, self._win_seat = card, seat
        if self._pos == 3:
            pair = self._win_seat & 1
            self._tricks[pair] += 1
            self._points[pair] += 1 + sum(CARD_POINTS[c] for _, c in self._trick)
            self._winners.append(self._win_seat)
            self._trick = []
            self._pos = 0
            self._to_move = self._win_seat
        else:
            self._pos += 1
            self._to_move = (seat + 3) & 3

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._hands),
            self._to_move,
            self._pos,
            self._led,
            self._win,
            self._win_seat,
            list(self._trick),
            tuple(self._tricks),
            tuple(self._points),
            len(self._winners),
            self.illegal,
        )

    def undo(self) -> int:
        """Take back the last card played (legal or recorded illegal) and return it."""
        if not self._stack:
            raise IndexError("no card to undo")
        (hands, self._to_move, self._pos, self._led, self._win, self._win_seat, self._trick,
         tricks, points, n, self.illegal) = self._stack.pop()  # fmt: skip
        self._hands, self._tricks, self._points = list(hands), list(tricks), list(points)
        del self._winners[n:]
        return self._moves.pop()

    def copy(self) -> Hand:
        """A copy with the same moves."""
        other = Hand.from_hands(self.dealer, dict(zip(_SEATS, self._initial, strict=True)),
                                self.trump, self.rules)  # fmt: skip
        for card in self._moves:
            other.play(card, allow_illegal=True)
        return other

    def __repr__(self) -> str:
        hands = ", ".join(
            f"Seat.{s.name}: {m:#014x}" for s, m in zip(_SEATS, self._initial, strict=True)
        )
        legal_moves = self._moves[:-1] if self.illegal is not None else self._moves
        return (
            f"Hand.from_hands(Seat.{self.dealer.name}, {{{hands}}}, {self.trump!r}, {self.rules!r}, "
            f"play={legal_moves!r})"
        )


def random_play(
    deal: Deal,
    trump: str,
    rules: Rules = DEFAULT_RULES,
    rng: random.Random | None = None,
    illegal_at: int | None = None,
) -> list[str]:
    """A hand played at random by the rules, as card tokens (demos, simulations, tests).

    With ``illegal_at``, the first player at or after that card who holds a forbidden card
    plays one, and the play stops there (R10).

    >>> from engine.deals import deal_board
    >>> play = random_play(deal_board("doc", 2), "bastos", rng=random.Random(1))
    >>> len(play), len(set(play))
    (48, 48)
    >>> short = random_play(deal_board("doc", 2), "bastos", rng=random.Random(1), illegal_at=5)
    >>> len(short) < 48
    True
    """
    rng = rng if rng is not None else random.Random()
    hand = Hand(deal, trump, rules)
    cards: list[str] = []
    while not hand.is_over:
        legal = hand.legal_cards()
        if illegal_at is not None and len(cards) >= illegal_at:
            forbidden = [c for c in mask_to_cards(hand.hands[hand.to_move]) if c not in legal]
            if forbidden:
                cards.append(card_token(rng.choice(forbidden)))
                return cards
        card = rng.choice(legal)
        hand.play(card)
        cards.append(card_token(card))
    return cards
