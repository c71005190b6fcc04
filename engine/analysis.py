"""Perfect-play analysis of a board and of a played hand (docs/analysis.md).

- :func:`analyse_deal`: North–South's perfect-play total under each of the five trump choices,
  and the par of the board (:mod:`engine.par`).
- :func:`card_costs`: for every card of a play record, the perfect-play value before and after
  it for the side that played it, what it cost, and the best cards there were.

Values come from :mod:`engine.solver` (the C search, or the pure-Python reference).

>>> from engine import deal_board
>>> from engine.solver import sample_play
>>> deal = deal_board("docs", 4)
>>> record = {"format": "botifarra-play/1", "deal": {"dealer": "E", "hands": deal.hands_json()},
...           "choice": {"delegated": False, "trump": "espases"},
...           "play": [card_token(c) for c in sample_play(deal, trump="espases", cards=48)]}
>>> costs = card_costs(record, from_card=40)
>>> [c.index for c in costs] == list(range(40, 48))
True
>>> all(c.cost == c.value_before - c.value_after >= 0 for c in costs)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Seat, card_token, mask_to_cards
from engine.deals import Deal
from engine.errors import InvalidRecord
from engine.hand import Hand
from engine.par import Par, par
from engine.replay import Outcome, recorded_hand, replay
from engine.rules import TRUMPS, Rules
from engine.solver import Solver

__all__ = ["Analysis", "CardCost", "analyse_deal", "card_costs"]

_DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class Analysis:
    """A board's perfect-play totals and par.

    ``points`` maps each trump choice (oros, copes, espases, bastos, botifarra) to North–South's
    hand total with perfect play (East–West's is 72 minus it).
    """

    board: int | None
    dealer: Seat
    rules: Rules
    points: dict[str, int]
    par: Par

    def to_json(self) -> dict[str, Any]:
        """``{"board", "dealer", "ruleset", "points": {trump: {"NS", "EW"}}, "par"}``."""
        return {
            "board": self.board,
            "dealer": self.dealer.name,
            "ruleset": self.rules.ruleset,
            "points": {t: {"NS": v, "EW": 72 - v} for t, v in self.points.items()},
            "par": self.par.to_json(),
        }


def analyse_deal(
    deal: Deal, *, rules: Rules = _DEFAULT_RULES, points: Mapping[str, int] | None = None
) -> Analysis:
    """Solve a deal under the five trump choices and compute its par.

    ``points`` may give totals already known (for some or all trumps); the others are solved.
    The board number is ``deal.board``, or None for a deal outside an event (board 0).

    >>> from engine import deal_board
    >>> a = analyse_deal(deal_board("docs", 5), points=dict.fromkeys(TRUMPS, 50))
    >>> a.to_json()["points"]["oros"], a.par.trump, a.par.score
    ({'NS': 50, 'EW': 22}, 'botifarra', {'NS': 28, 'EW': 0})
    """
    known = dict(points or {})
    values = {
        t: known[t] if t in known else Solver(deal, trump=t, rules=rules).value() for t in TRUMPS
    }
    return Analysis(
        board=deal.board or None,
        dealer=deal.dealer,
        rules=rules,
        points=values,
        par=par(dealer=deal.dealer, points=values, rules=rules),
    )


@dataclass(frozen=True, slots=True)
class CardCost:
    """One card of a played hand judged by perfect play.

    Values are hand totals (0–72, R9) of the side of the player (``side``, ``NS`` or ``EW``):
    ``value_before`` with perfect play from the position before the card, ``value_after`` from
    the position after it. ``cost`` = before − after (0 for a best card). ``best`` lists the
    legal cards that keep ``value_before`` (R1 order; the card played is among them when it
    cost nothing).
    """

    index: int
    trick: int
    position: int
    seat: Seat
    card: int
    value_before: int
    value_after: int
    best: tuple[int, ...]

    @property
    def side(self) -> str:
        """The pair of the player: ``NS`` or ``EW``."""
        return self.seat.pair

    @property
    def cost(self) -> int:
        """What the card cost its side: ``value_before - value_after``."""
        return self.value_before - self.value_after

    def to_json(self) -> dict[str, Any]:
        """The card as JSON values (cards as canonical tokens)."""
        return {
            "index": self.index,
            "trick": self.trick,
            "position": self.position,
            "seat": self.seat.name,
            "side": self.side,
            "card": card_token(self.card),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "cost": self.cost,
            "best": [card_token(c) for c in self.best],
        }


def card_costs(
    record: Any,
    *,
    deal: Deal | None = None,
    rules: Rules | None = None,
    from_card: int = 0,
    reference: bool = False,
) -> list[CardCost]:
    """What each card of a play record cost its side, by perfect play.

    ``record`` is a play record (play-record.md), ``deal`` and ``rules`` those of the event when
    it belongs to one (as for :func:`engine.replay`). A complete record gives the 48 cards; a
    record with an illegal play gives the legal cards before it. ``from_card`` skips the first
    cards (their positions are the hardest to solve). Raises :class:`engine.InvalidRecord` for an
    invalid record. ``reference=True`` uses the pure-Python search.
    """
    if not 0 <= from_card <= 48:
        raise ValueError(f"from_card is a card index 0–48, not {from_card}")
    # What replay() calls invalid, a play that stops short without an illegal card among them
    # (R10), is refused here too: recorded_hand takes a short play on purpose (a hand in play).
    verdict = replay(record, deal=deal, rules=rules)
    if verdict.outcome == Outcome.INVALID:
        raise InvalidRecord(list(verdict.problems))
    played = recorded_hand(record, deal=deal, rules=rules)
    solver = Solver(played.deal, trump=played.trump, rules=played.rules, reference=reference)
    hand = Hand(played.deal, played.trump, played.rules)
    cards = played.played
    for card in cards[:from_card]:
        hand.play(card)
    ns_before = solver.value_of(hand)
    out: list[CardCost] = []
    for index in range(from_card, len(cards)):
        card = cards[index]
        seat, trick, position = hand.to_move, hand.trick_number, len(hand.trick) + 1
        legal = mask_to_cards(hand.legal_mask())
        hand.play(card)
        ns_after = solver.value_of(hand, guess=ns_before)
        hand.undo()
        best = tuple(c for c in legal if _keeps(solver, hand, c, card, ns_before, ns_after))
        out.append(
            CardCost(
                index=index,
                trick=trick,
                position=position,
                seat=seat,
                card=card,
                value_before=_side(seat, ns_before),
                value_after=_side(seat, ns_after),
                best=best,
            )
        )
        hand.play(card)
        ns_before = ns_after
    return out


def _side(seat: Seat, ns_value: int) -> int:
    return ns_value if seat.pair == "NS" else 72 - ns_value


def _keeps(solver: Solver, hand: Hand, card: int, played: int, before: int, after: int) -> bool:
    """Whether playing ``card`` keeps the value ``before`` (NS's) for the side to move."""
    if card == played:
        return after == before
    north_south = hand.to_move.pair == "NS"
    hand.play(card)
    # After any card NS's value is at most ``before`` when NS move, at least when EW move.
    keeps = (
        solver.at_least_of(hand, before)
        if north_south
        else not solver.at_least_of(hand, before + 1)
    )
    hand.undo()
    return keeps
