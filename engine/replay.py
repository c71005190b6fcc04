"""Replaying play records (play-record.md): verdicts, trick-by-trick steps, legal cards.

>>> from engine.deals import deal_board
>>> from engine.hand import Hand
>>> d = deal_board("doc", 1)
>>> h = Hand(d, "copes")
>>> while not h.is_over:
...     h.play(h.legal_cards()[-1])
>>> record = {"format": "botifarra-play/1", "deal": {"dealer": "N", "hands": d.hands_json()},
...           "choice": {"delegated": False, "trump": "copes"},
...           "play": [card_token(c) for c in h.played]}
>>> v = replay(record)
>>> v.outcome, sum(v.totals.values()) if v.totals else None
('complete', 72)
>>> replay({"format": "botifarra-play/1"}).to_json()["outcome"]
'invalid'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import (
    ALL_CARDS_MASK,
    CARD_POINTS,
    CARD_SUIT,
    POINT_CARDS_MASK,
    SUIT_MASK,
    Seat,
    card_token,
    mask_to_cards,
)
from engine.deals import Deal
from engine.errors import InvalidRecord, Problem
from engine.hand import Hand
from engine.rules import (
    BEATS,
    RULESETS,
    TRUMP_INDEX,
    Rules,
    illegal_rule,
    legal_mask,
    lowest_of_suits,
)
from engine.scoring import check_choice, check_doubles, hand_score, multiplier, penalty_score

__all__ = [
    "FORMAT",
    "Step",
    "Verdict",
    "legal_for_record",
    "recorded_hand",
    "replay",
    "replay_steps",
]

FORMAT = "botifarra-play/1"
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_TOKEN_TO_CARD = {card_token(c): c for c in range(48)}


@dataclass(frozen=True)
class Verdict:
    """The result of a replay: ``outcome`` is ``complete``, ``illegal`` or ``invalid``.

    Complete: ``multiplier``, ``tricks``, ``totals``, ``score``, ``capot``, ``trick_winners``.
    Illegal: ``trick``, ``position``, ``seat``, ``card``, ``rule``, ``legal``, ``multiplier``,
    ``score``. Invalid: ``problems``. Other fields are None or empty.
    """

    outcome: str
    multiplier: int | None = None
    tricks: dict[str, int] | None = None
    totals: dict[str, int] | None = None
    score: dict[str, int] | None = None
    capot: bool = False
    trick_winners: tuple[Seat, ...] = ()
    trick: int | None = None
    position: int | None = None
    seat: Seat | None = None
    card: int | None = None
    rule: str | None = None
    legal: tuple[int, ...] = ()
    problems: tuple[Problem, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The verdict with exactly the keys of play-record.md, in that order."""
        if self.outcome == "complete":
            return {
                "outcome": "complete",
                "multiplier": self.multiplier,
                "tricks": dict(self.tricks or {}),
                "totals": dict(self.totals or {}),
                "score": dict(self.score or {}),
                "capot": self.capot,
                "trick_winners": [s.name for s in self.trick_winners],
            }
        if self.outcome == "illegal":
            assert self.seat is not None and self.card is not None
            return {
                "outcome": "illegal",
                "trick": self.trick,
                "position": self.position,
                "seat": self.seat.name,
                "card": card_token(self.card),
                "rule": self.rule,
                "legal": [card_token(c) for c in self.legal],
                "multiplier": self.multiplier,
                "score": dict(self.score or {}),
            }
        return {"outcome": "invalid", "problems": [p.to_json() for p in self.problems]}


@dataclass(frozen=True, slots=True)
class Step:
    """One card of a replay, for a trick-by-trick display.

    ``index`` is the 0-based position in ``play``; ``legal`` the legal cards at that moment (R1
    order); ``rule`` the broken obligation when the card is illegal (then it is the last step);
    ``winner`` is set on the fourth card of a trick; ``totals`` are the running hand totals.
    """

    index: int
    trick: int
    position: int
    seat: Seat
    card: int
    legal: tuple[int, ...]
    rule: str | None
    winner: Seat | None
    totals: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """The step as JSON values (cards as canonical tokens)."""
        return {
            "index": self.index,
            "trick": self.trick,
            "position": self.position,
            "seat": self.seat.name,
            "card": card_token(self.card),
            "legal": [card_token(c) for c in self.legal],
            "rule": self.rule,
            "winner": self.winner.name if self.winner is not None else None,
            "totals": dict(self.totals),
        }


@dataclass
class _Parsed:
    """What the record says, when it is usable for replaying the play."""

    problems: list[Problem]
    rules: Rules | None = None
    dealer: Seat | None = None
    hands: list[int] | None = None
    trump: str | None = None
    calls: list[str] = field(default_factory=list)
    cards: list[int] | None = None

    @property
    def playable(self) -> bool:
        return (
            self.rules is not None
            and self.dealer is not None
            and self.hands is not None
            and self.trump is not None
            and self.cards is not None
        )


def _quote(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _parse_hands(raw: Any, problems: list[Problem]) -> list[int] | None:
    if not isinstance(raw, Mapping):
        problems.append(Problem("deal.hands", 'hands must be an object {"N": [...], ...} (R3)'))
        return None
    ok = True
    masks = [0, 0, 0, 0]
    where: dict[int, str] = {}
    for key, cards in raw.items():
        path = f"deal.hands.{key}"
        if key not in _SEAT_INDEX:
            problems.append(Problem(path, f"{_quote(key)} is not a seat: N, E, S or W"))
            ok = False
            continue
        if not isinstance(cards, list):
            problems.append(Problem(path, "a hand must be a list of 12 card tokens (R3)"))
            ok = False
            continue
        seat = _SEAT_INDEX[key]
        for i, token in enumerate(cards):
            card = _TOKEN_TO_CARD.get(token) if isinstance(token, str) else None
            if card is None:
                problems.append(
                    Problem(f"{path}[{i}]", f"{_quote(token)} is not a card token (R1)")
                )
                ok = False
                continue
            if card in where:
                problems.append(
                    Problem(
                        f"{path}[{i}]",
                        f"card {token} is dealt twice: it is also at {where[card]} "
                        "(R1: 48 distinct cards)",
                    )
                )
                ok = False
                continue
            where[card] = f"{path}[{i}]"
            masks[seat] |= 1 << card
        if len(cards) != 12:
            problems.append(Problem(path, f"{key} holds {len(cards)} cards; a hand has 12 (R3)"))
            ok = False
    for name in _SEAT_INDEX:
        if name not in raw:
            problems.append(Problem(f"deal.hands.{name}", f"the hand of {name} is missing (R3)"))
            ok = False
    missing = ALL_CARDS_MASK & ~(masks[0] | masks[1] | masks[2] | masks[3])
    if missing:
        problems.append(
            Problem(
                "deal.hands",
                "cards missing from the deal: "
                + " ".join(card_token(c) for c in mask_to_cards(missing))
                + " (R1: the deal holds all 48 cards)",
            )
        )
        ok = False
    return masks if ok else None


def _parse(record: Any, deal: Deal | None, rules: Rules | None) -> _Parsed:
    problems: list[Problem] = []
    out = _Parsed(problems)
    if not isinstance(record, Mapping):
        problems.append(Problem("", "a play record must be a JSON object"))
        return out

    fmt = record.get("format")
    if fmt != FORMAT:
        message = (
            f"format is required: {FORMAT}"
            if "format" not in record
            else f"{_quote(fmt)} is not a supported format: {FORMAT}"
        )
        problems.append(Problem("format", message))

    if "ruleset" in record:
        raw_ruleset = record["ruleset"]
        if not (isinstance(raw_ruleset, str) and raw_ruleset in RULESETS):
            problems.append(
                Problem(
                    "ruleset", f"{_quote(raw_ruleset)} is not a ruleset: lliure or obligada (R11)"
                )
            )
        elif rules is not None and raw_ruleset != rules.ruleset:
            problems.append(
                Problem(
                    "ruleset",
                    f"the record says {raw_ruleset} but the event plays {rules.ruleset} (R11)",
                )
            )
        else:
            out.rules = rules if rules is not None else Rules(raw_ruleset)
    else:
        out.rules = rules if rules is not None else Rules()

    raw_deal = record.get("deal")
    if not isinstance(raw_deal, Mapping):
        problems.append(Problem("deal", "deal is required: an object with dealer and hands (R3)"))
    else:
        raw_dealer = raw_deal.get("dealer")
        if isinstance(raw_dealer, str) and raw_dealer in _SEAT_INDEX:
            dealer = _SEATS[_SEAT_INDEX[raw_dealer]]
            if deal is not None and dealer != deal.dealer:
                problems.append(
                    Problem(
                        "deal.dealer",
                        f"the dealer of board {deal.board} is {deal.dealer.name}, not {dealer.name} (R3)",
                    )
                )
            else:
                out.dealer = dealer
        else:
            problems.append(
                Problem("deal.dealer", f"{_quote(raw_dealer)} is not a seat: N, E, S or W (R3)")
            )
        if "hands" in raw_deal:
            masks = _parse_hands(raw_deal["hands"], problems)
            if masks is not None and deal is not None:
                for seat in _SEATS:
                    if masks[seat.value] != deal.hands[seat]:
                        problems.append(
                            Problem(
                                f"deal.hands.{seat.name}",
                                f"{seat.name}'s hand is not the hand of board {deal.board} (R3)",
                            )
                        )
                        masks = None
                        break
            out.hands = masks
        elif deal is not None:
            out.hands = [deal.hands[s] for s in _SEATS]
        else:
            problems.append(Problem("deal.hands", "hands are required outside an event (R3)"))

    choice = record.get("choice")
    trump: Any = None
    if not isinstance(choice, Mapping):
        problems.append(
            Problem("choice", "choice is required: an object with delegated and trump (R4)")
        )
    else:
        trump = choice.get("trump")
        if "delegated" not in choice:
            problems.append(
                Problem("choice.delegated", "delegated is required: true or false (R4)")
            )
            found = check_choice(delegated=False, trump=trump)
        else:
            found = check_choice(delegated=choice["delegated"], trump=trump)
        problems.extend(found)
        if not any(p.path == "choice.trump" for p in found):
            out.trump = trump

    doubles = record.get("doubles", [])
    if doubles is None:
        problems.append(Problem("doubles", "doubles must be a list of calls (R5)"))
    else:
        found = check_doubles(
            dealer=out.dealer or Seat.N,
            trump=trump,
            doubles=doubles,
            rules=out.rules or Rules(),
            path_prefix="",
        )
        if out.dealer is None:  # the pairs are unknown: keep only what does not depend on them
            found = [p for p in found if "must be called by" not in p.message]
        problems.extend(found)
        if not found and isinstance(doubles, list | tuple):
            out.calls = [d["call"] for d in doubles]

    play = record.get("play")
    if not isinstance(play, list):
        problems.append(Problem("play", "play is required: the list of cards played (R10)"))
    else:
        cards: list[int] | None = []
        if len(play) > 48:
            problems.append(
                Problem("play", f"the play holds {len(play)} cards; a hand has 48 (R10)")
            )
            cards = None
        for i, token in enumerate(play):
            card = _TOKEN_TO_CARD.get(token) if isinstance(token, str) else None
            if card is None:
                problems.append(Problem(f"play[{i}]", f"{_quote(token)} is not a card token (R1)"))
                cards = None
            elif cards is not None:
                cards.append(card)
        out.cards = cards
    return out


# Outcomes of _run
_OK, _BAD, _ILLEGAL = 0, 1, 2


def _run(hands: list[int], seat: int, t: int, obligada: bool, cards: list[int]) -> tuple[Any, ...]:
    """The hot loop: replay ``cards`` on the four hand masks (mutated) from leader ``seat``.

    Returns ``(_OK, winners, points, seat, pos, led, win, win_seat)``, ``(_BAD, i, seat)``
    or ``(_ILLEGAL, i, seat, hand, pos, led, win, partner_winning)``.
    """
    beats_t = BEATS[t]
    suit_of = CARD_SUIT
    points_of = CARD_POINTS
    suit_mask = SUIT_MASK
    pos = led = win = win_seat = trick_pts = 0
    points = [0, 0]
    winners: list[int] = []
    for i, c in enumerate(cards):
        bit = 1 << c
        h = hands[seat]
        if not h & bit:
            return _BAD, i, seat
        if pos:
            beats = beats_t[win]
            partner = (win_seat ^ seat) == 2
            follow = h & suit_mask[led]
            if follow:
                allowed = follow if partner else (follow & beats or follow)
            else:
                allowed = h if partner else (h & beats or h)
            if obligada and allowed & ~beats:
                extra = POINT_CARDS_MASK if partner or (pos == 1 and not follow) else 0
                allowed &= beats | lowest_of_suits(h) | extra
            if not allowed & bit:
                return _ILLEGAL, i, seat, h, pos, led, win, partner
            if beats & bit:
                win = c
                win_seat = seat
            trick_pts += points_of[c]
            hands[seat] = h ^ bit
            if pos == 3:
                points[win_seat & 1] += trick_pts + 1
                winners.append(win_seat)
                seat = win_seat
                pos = 0
                continue
            pos += 1
        else:
            led = suit_of[c]
            win = c
            win_seat = seat
            trick_pts = points_of[c]
            hands[seat] = h ^ bit
            pos = 1
        seat = (seat + 3) & 3
    return _OK, winners, points, seat, pos, led, win, win_seat


def _not_held_message(cards: list[int], i: int, seat: int) -> str:
    card = cards[i]
    if card in cards[:i]:
        return f"{card_token(card)} was already played (play[{cards.index(card)}])"
    return f"{card_token(card)} is not in {_SEATS[seat].name}'s hand"


def replay(record: Any, *, deal: Deal | None = None, rules: Rules | None = None) -> Verdict:
    """Replay a play record and return its verdict; never raises on bad record content.

    ``deal``: the event's board (hands may then be omitted). ``rules``: the event's rules (a
    different ``ruleset`` in the record is a problem at ``ruleset``).

    >>> replay([]).problems[0].message
    'a play record must be a JSON object'
    """
    parsed = _parse(record, deal, rules)
    problems = parsed.problems
    result: tuple[Any, ...] | None = None
    if parsed.playable:
        assert parsed.hands is not None and parsed.cards is not None and parsed.rules is not None
        assert parsed.dealer is not None and parsed.trump is not None
        leader = (parsed.dealer.value + 3) & 3
        cards = parsed.cards
        result = _run(
            list(parsed.hands), leader, TRUMP_INDEX[parsed.trump], parsed.rules.obligada, cards
        )
        if result[0] == _BAD:
            problems.append(
                Problem(f"play[{result[1]}]", _not_held_message(cards, result[1], result[2]))
            )
        elif result[0] == _OK and len(cards) < 48:
            problems.append(
                Problem(
                    "play",
                    f"the play stops after {len(cards)} cards without an illegal play;"
                    " a hand has 48 (R10)",
                )
            )
    if problems or result is None:
        return Verdict("invalid", problems=tuple(problems))
    assert parsed.trump is not None and parsed.cards is not None and parsed.rules is not None
    mult = multiplier(parsed.trump, parsed.calls)
    if result[0] == _ILLEGAL:
        _, i, seat, h, pos, led, win, partner = result
        t = TRUMP_INDEX[parsed.trump]
        obligada = parsed.rules.obligada
        card = parsed.cards[i]
        rule = illegal_rule(h, card, pos, led, win, partner, t, obligada)
        legal = legal_mask(h, pos, led, win, partner, t, obligada)
        return Verdict(
            "illegal",
            multiplier=mult,
            score=penalty_score(_SEATS[seat].pair, mult),
            trick=i // 4 + 1,  # every trick holds four cards
            position=pos + 1,
            seat=_SEATS[seat],
            card=card,
            rule=rule,
            legal=tuple(mask_to_cards(legal)),
        )
    winners, points = result[1], result[2]
    tricks = {"NS": sum(1 for w in winners if w & 1 == 0), "EW": sum(1 for w in winners if w & 1)}
    totals = {"NS": points[0], "EW": points[1]}
    return Verdict(
        "complete",
        multiplier=mult,
        tricks=tricks,
        totals=totals,
        score=hand_score(totals, mult),
        capot=12 in tricks.values(),
        trick_winners=tuple(_SEATS[w] for w in winners),
    )


def _checked(record: Any, deal: Deal | None, rules: Rules | None) -> _Parsed:
    parsed = _parse(record, deal, rules)
    if parsed.problems or not parsed.playable:
        raise InvalidRecord(parsed.problems or [Problem("", "the record cannot be replayed")])
    return parsed


def replay_steps(
    record: Any, *, deal: Deal | None = None, rules: Rules | None = None
) -> list[Step]:
    """Every card of a record with its seat, the legal cards then, trick winners and totals.

    Stops after the first illegal card (included, with its ``rule``). Raises
    :class:`InvalidRecord` when the record is invalid (a short play without an illegal card is
    accepted here: the steps stop where the play stops).
    """
    parsed = _checked(record, deal, rules)
    assert parsed.hands is not None and parsed.cards is not None and parsed.rules is not None
    assert parsed.dealer is not None and parsed.trump is not None
    hand = Hand.from_hands(
        parsed.dealer, dict(zip(_SEATS, parsed.hands, strict=True)), parsed.trump, parsed.rules
    )
    steps: list[Step] = []
    for i, card in enumerate(parsed.cards):
        seat = hand.to_move
        if not hand.hands[seat] >> card & 1:
            raise InvalidRecord(
                [Problem(f"play[{i}]", _not_held_message(parsed.cards, i, seat.value))]
            )
        legal = tuple(hand.legal_cards())
        trick, position = hand.trick_number, len(hand.trick) + 1
        rule = hand.why_illegal(card)
        if rule is None:
            hand.play(card)
        winner = hand.trick_winners[-1] if rule is None and position == 4 else None
        steps.append(Step(i, trick, position, seat, card, legal, rule, winner, hand.totals))
        if rule is not None:
            break
    return steps


def legal_for_record(
    record: Any, *, deal: Deal | None = None, rules: Rules | None = None
) -> dict[str, Any]:
    """``{"seat": ..., "legal": [...]}`` for the next card of a record whose play is a legal
    prefix of fewer than 48 cards. Raises :class:`InvalidRecord` otherwise.
    """
    parsed = _checked(record, deal, rules)
    assert parsed.hands is not None and parsed.cards is not None and parsed.rules is not None
    assert parsed.dealer is not None and parsed.trump is not None
    cards = parsed.cards
    t = TRUMP_INDEX[parsed.trump]
    hands = list(parsed.hands)
    result = _run(hands, (parsed.dealer.value + 3) & 3, t, parsed.rules.obligada, cards)
    if result[0] == _BAD:
        raise InvalidRecord(
            [Problem(f"play[{result[1]}]", _not_held_message(cards, result[1], result[2]))]
        )
    if result[0] == _ILLEGAL:
        raise InvalidRecord(
            [
                Problem(
                    f"play[{result[1]}]", f"{card_token(cards[result[1]])} is an illegal play (R10)"
                )
            ]
        )
    if len(cards) == 48:
        raise InvalidRecord([Problem("play", "the hand is complete: no card is left to play")])
    _, _, _, seat, pos, led, win, win_seat = result
    mask = legal_mask(
        hands[seat], pos, led, win, pos > 0 and (win_seat ^ seat) == 2, t, parsed.rules.obligada
    )
    return {"seat": _SEATS[seat].name, "legal": [card_token(c) for c in mask_to_cards(mask)]}


def recorded_hand(record: Any, *, deal: Deal | None = None, rules: Rules | None = None) -> Hand:
    """The :class:`Hand` of a record with its legal cards played: all 48 for a complete record,
    those before the first illegal card otherwise (that card is not played).

    Raises :class:`InvalidRecord` when the record is invalid (a short play without an illegal
    card is accepted: the hand stops where the play stops).

    >>> from engine.deals import deal_board
    >>> d = deal_board("doc", 2)
    >>> hand = recorded_hand({"format": FORMAT, "deal": {"dealer": "W", "hands": d.hands_json()},
    ...                       "choice": {"delegated": False, "trump": "bastos"}, "play": []})
    >>> hand.trump, hand.to_move, hand.deal.hands == d.hands
    ('bastos', Seat.S, True)
    """
    parsed = _checked(record, deal, rules)
    assert parsed.hands is not None and parsed.cards is not None and parsed.rules is not None
    assert parsed.dealer is not None and parsed.trump is not None
    if deal is None:  # outside an event: the record's own hands
        deal = Deal.from_hands(parsed.dealer, dict(zip(_SEATS, parsed.hands, strict=True)))
    hand = Hand(deal, parsed.trump, parsed.rules)
    for i, card in enumerate(parsed.cards):
        seat = hand.to_move
        if not hand.hands[seat] >> card & 1:
            raise InvalidRecord(
                [Problem(f"play[{i}]", _not_held_message(parsed.cards, i, seat.value))]
            )
        if not hand.is_legal(card):
            break
        hand.play(card)
    return hand
