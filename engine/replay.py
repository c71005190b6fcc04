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
(<Outcome.COMPLETE: 'complete'>, 72)
>>> bad = replay({"format": "botifarra-play/1"})
>>> bad.outcome == "invalid", bad.problems[0].code, bad.to_json()["outcome"]
(True, <ProblemCode.DEAL_MISSING: 'deal_missing'>, 'invalid')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.cards import (
    ALL_CARDS_MASK,
    CARD_POINTS,
    CARD_SUIT,
    Seat,
    card_token,
    mask_to_cards,
)
from engine.deals import Deal
from engine.errors import InvalidRecord
from engine.hand import Hand
from engine.problems import MISSING, Problem, ProblemCode, limit_problems, quote
from engine.rules import (
    BEATS,
    RULESETS,
    TRUMP_INDEX,
    Rule,
    Rules,
    illegal_rule,
    legal_mask,
)
from engine.scoring import check_choice, check_doubles, hand_score, multiplier, penalty_score

__all__ = [
    "FORMAT",
    "NextPlay",
    "Outcome",
    "Step",
    "Verdict",
    "check_form",
    "legal_for_record",
    "next_play",
    "ordered_verdict",
    "recorded_hand",
    "replay",
    "replay_steps",
]

FORMAT = "botifarra-play/1"
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_TOKEN_TO_CARD = {card_token(c): c for c in range(48)}
_C = ProblemCode


class Outcome(StrEnum):
    """The three outcomes of a replay (play-record.md); the value is the verdict's string.

    >>> Outcome.ILLEGAL == "illegal"
    True
    """

    COMPLETE = "complete"
    ILLEGAL = "illegal"
    INVALID = "invalid"


@dataclass(frozen=True)
class Verdict:
    """The result of a replay, typed: read its fields, and call :meth:`to_json` only where the
    verdict leaves Python (play-record.md's JSON).

    ``outcome`` is an :class:`Outcome`. Complete: ``multiplier``, ``tricks``, ``totals``,
    ``score``, ``capot``, ``trick_winners`` (``Seat`` values). Illegal: ``trick``, ``position``,
    ``seat`` (a ``Seat``), ``card`` (an int; ``card_token`` its token), ``rule`` (a
    :class:`engine.Rule`), ``legal`` (ints; ``legal_tokens``), ``multiplier``, ``score``
    (``offending_pair`` is the seat's pair). Invalid: ``problems`` (:class:`engine.Problem`
    values). Other fields are None or empty.

    >>> from engine import Hand, deal_board
    >>> from engine.cards import CARD_SUIT
    >>> d = deal_board("doc", 1)
    >>> h = Hand(d, "oros")
    >>> lead = h.legal_cards()[0]
    >>> h.play(lead)
    >>> held = mask_to_cards(h.hands[h.to_move])
    >>> any(CARD_SUIT[c] == CARD_SUIT[lead] for c in held)  # the second player can follow
    True
    >>> other = next(c for c in held if CARD_SUIT[c] != CARD_SUIT[lead])
    >>> v = replay({"format": "botifarra-play/1", "deal": {"dealer": d.dealer.name,
    ...     "hands": d.hands_json()}, "choice": {"delegated": False, "trump": "oros"},
    ...     "play": [card_token(lead), card_token(other)]})
    >>> v.outcome, v.seat == h.to_move, v.rule, v.rule.section
    (<Outcome.ILLEGAL: 'illegal'>, True, <Rule.FOLLOW_SUIT: 'follow_suit'>, 'R7.2')
    >>> v.card_token == card_token(other), v.offending_pair == h.to_move.pair
    (True, True)
    >>> v.to_json()["rule"], type(v.to_json()["rule"])
    ('follow_suit', <class 'str'>)
    """

    outcome: Outcome
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
    rule: Rule | None = None
    legal: tuple[int, ...] = ()
    problems: tuple[Problem, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.outcome, Outcome):  # a caller's plain string
            object.__setattr__(self, "outcome", Outcome(self.outcome))

    @property
    def card_token(self) -> str | None:
        """The illegal card's token (``None`` unless the outcome is illegal)."""
        return card_token(self.card) if self.card is not None else None

    @property
    def legal_tokens(self) -> tuple[str, ...]:
        """The legal cards at the illegal play, as tokens in R1 order."""
        return tuple(card_token(c) for c in self.legal)

    @property
    def offending_pair(self) -> str | None:
        """``NS`` or ``EW``: the pair of the seat that played the illegal card (R10)."""
        return self.seat.pair if self.seat is not None else None

    def to_json(self) -> dict[str, Any]:
        """The verdict with exactly the keys of play-record.md, in that order (plain values)."""
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
                "rule": self.rule.value if self.rule is not None else None,
                "legal": list(self.legal_tokens),
                "multiplier": self.multiplier,
                "score": dict(self.score or {}),
            }
        return {"outcome": "invalid", "problems": [p.to_json() for p in self.problems]}


_VERDICT_KEYS = {
    "complete": ("outcome", "multiplier", "tricks", "totals", "score", "capot", "trick_winners"),
    "illegal": (
        "outcome",
        "trick",
        "position",
        "seat",
        "card",
        "rule",
        "legal",
        "multiplier",
        "score",
    ),
    "invalid": ("outcome", "problems"),
}


def ordered_verdict(data: Mapping[str, Any]) -> dict[str, Any]:
    """A verdict's JSON with its keys in play-record.md's order (``Verdict.to_json``'s), NS
    before EW: as it was written, when a store gave it back in another order (PostgreSQL's
    ``jsonb`` sorts keys). Keys it does not know come last, unchanged.

    >>> ordered_verdict({"problems": [], "outcome": "invalid"})
    {'outcome': 'invalid', 'problems': []}
    >>> ordered_verdict({"score": {"EW": 3, "NS": 0}, "outcome": "illegal"})["score"]
    {'NS': 0, 'EW': 3}
    """
    keys = _VERDICT_KEYS.get(str(data.get("outcome")), ())
    out: dict[str, Any] = {}
    for key in (*(k for k in keys if k in data), *(k for k in data if k not in keys)):
        value = data[key]
        if isinstance(value, Mapping) and set(value) == {"NS", "EW"}:
            value = {"NS": value["NS"], "EW": value["EW"]}
        elif key == "problems" and isinstance(value, list):
            value = [
                {"path": p["path"], "message": p["message"]}
                if isinstance(p, Mapping) and set(p) == {"path", "message"}
                else p
                for p in value
            ]
        out[key] = value
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One card of a replay, for a trick-by-trick display.

    ``index`` is the 0-based position in ``play``; ``legal`` the legal cards at that moment (R1
    order); ``rule`` the broken :class:`engine.Rule` when the card is illegal (then it is the last
    step); ``winner`` is set on the fourth card of a trick; ``totals`` are the running hand totals.
    """

    index: int
    trick: int
    position: int
    seat: Seat
    card: int
    legal: tuple[int, ...]
    rule: Rule | None
    winner: Seat | None
    totals: dict[str, int]

    @property
    def card_token(self) -> str:
        """The card's token."""
        return card_token(self.card)

    def to_json(self) -> dict[str, Any]:
        """The step as JSON values (cards as canonical tokens)."""
        return {
            "index": self.index,
            "trick": self.trick,
            "position": self.position,
            "seat": self.seat.name,
            "card": card_token(self.card),
            "legal": [card_token(c) for c in self.legal],
            "rule": self.rule.value if self.rule is not None else None,
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
    # With an unknown token in ``play``: the cards before the first one (``cards`` is None).
    prefix: list[int] | None = None

    @property
    def playable(self) -> bool:
        return self._dealt and self.cards is not None

    @property
    def _dealt(self) -> bool:
        return (
            self.rules is not None
            and self.dealer is not None
            and self.hands is not None
            and self.trump is not None
        )

    @property
    def prefix_playable(self) -> bool:
        """The play holds an unknown token, and what comes before it can be replayed."""
        return self._dealt and self.prefix is not None


def _parse_hands(raw: Any, problems: list[Problem]) -> list[int] | None:
    if not isinstance(raw, Mapping):
        problems.append(Problem(_C.HANDS_NOT_OBJECT, {}, "deal.hands"))
        return None
    ok = True
    unread = False  # a hand too large to look at: its cards are not "missing"
    masks = [0, 0, 0, 0]
    where: dict[int, tuple[str, int]] = {}  # card -> (path, index): paths are written on demand
    # The seats in a fixed order, then any other key: JSON gives a key order no meaning, so
    # which of a card's two places is reported must not depend on it.
    keys = [
        *(name for name in _SEAT_INDEX if name in raw),
        *(k for k in raw if k not in _SEAT_INDEX),
    ]
    for key in keys:
        cards = raw[key]
        path = f"deal.hands.{key}"
        if key not in _SEAT_INDEX:
            problems.append(Problem(_C.NOT_A_SEAT, {"value": quote(key)}, path))
            ok = False
            continue
        if not isinstance(cards, list):
            problems.append(Problem(_C.HAND_NOT_LIST, {}, path))
            ok = False
            continue
        if len(cards) > 48:
            # One problem for the hand, not one per card: the size is refused before any look.
            problems.append(Problem(_C.HAND_SIZE, {"seat": key, "count": len(cards)}, path))
            ok = False
            unread = True
            continue
        seat = _SEAT_INDEX[key]
        for i, token in enumerate(cards):
            card = _TOKEN_TO_CARD.get(token) if isinstance(token, str) else None
            if card is None:
                problems.append(Problem(_C.NOT_A_CARD, {"value": quote(token)}, f"{path}[{i}]"))
                ok = False
                continue
            if card in where:
                first_path, first_i = where[card]
                first = f"{first_path}[{first_i}]"
                problems.append(
                    Problem(_C.CARD_DEALT_TWICE, {"card": token, "first": first}, f"{path}[{i}]")
                )
                ok = False
                continue
            where[card] = (path, i)
            masks[seat] |= 1 << card
        if len(cards) != 12:
            problems.append(Problem(_C.HAND_SIZE, {"seat": key, "count": len(cards)}, path))
            ok = False
    for name in _SEAT_INDEX:
        if name not in raw:
            problems.append(Problem(_C.HAND_MISSING, {"seat": name}, f"deal.hands.{name}"))
            ok = False
    missing = ALL_CARDS_MASK & ~(masks[0] | masks[1] | masks[2] | masks[3])
    if missing and not unread:
        tokens = " ".join(card_token(c) for c in mask_to_cards(missing))
        problems.append(Problem(_C.CARDS_MISSING, {"cards": tokens}, "deal.hands"))
        ok = False
    return masks if ok else None


# Problems that name a pair: not reported while the dealer, and so the pairs, are unknown.
_WRONG_PAIR = frozenset({_C.RECONTRO_WRONG_PAIR, _C.CALL_WRONG_PAIR})


def _parse(
    record: Any, deal: Deal | None, rules: Rules | None, *, cards_unknown: bool = False
) -> _Parsed:
    problems: list[Problem] = []
    out = _Parsed(problems)
    if not isinstance(record, Mapping):
        problems.append(Problem(_C.RECORD_NOT_OBJECT))
        return out

    fmt = record.get("format")
    if fmt != FORMAT:
        if "format" not in record:
            problems.append(Problem(_C.FORMAT_MISSING, {"format": FORMAT}, "format"))
        else:
            problems.append(
                Problem(_C.FORMAT_UNSUPPORTED, {"value": quote(fmt), "format": FORMAT}, "format")
            )

    # An optional key given as null is as good as absent (ruleset, doubles, an event's hands).
    if record.get("ruleset") is not None:
        raw_ruleset = record["ruleset"]
        if not (isinstance(raw_ruleset, str) and raw_ruleset in RULESETS):
            problems.append(Problem(_C.RULESET_UNKNOWN, {"value": quote(raw_ruleset)}, "ruleset"))
        elif rules is not None and raw_ruleset != rules.ruleset:
            problems.append(
                Problem(
                    _C.RULESET_MISMATCH,
                    {"ruleset": raw_ruleset, "event_ruleset": rules.ruleset},
                    "ruleset",
                )
            )
            # The event's rules still apply: the play is replayed under them, so that a card
            # not held (which no ruleset changes) is listed too.
            out.rules = rules
        else:
            out.rules = rules if rules is not None else Rules(raw_ruleset)
    else:
        out.rules = rules if rules is not None else Rules()

    raw_deal = record.get("deal")
    if not isinstance(raw_deal, Mapping):
        problems.append(Problem(_C.DEAL_MISSING, {}, "deal"))
    else:
        raw_dealer = raw_deal.get("dealer", MISSING)
        if raw_dealer is MISSING:
            problems.append(Problem(_C.DEALER_MISSING, {}, "deal.dealer"))
        elif isinstance(raw_dealer, str) and raw_dealer in _SEAT_INDEX:
            dealer = _SEATS[_SEAT_INDEX[raw_dealer]]
            if deal is not None and dealer != deal.dealer:
                problems.append(
                    Problem(
                        _C.DEALER_MISMATCH,
                        {"board": deal.board, "dealer": deal.dealer.name, "seat": dealer.name},
                        "deal.dealer",
                    )
                )
            else:
                out.dealer = dealer
        else:
            problems.append(
                Problem(_C.DEALER_NOT_A_SEAT, {"value": quote(raw_dealer)}, "deal.dealer")
            )
        if raw_deal.get("hands") is not None:
            masks = _parse_hands(raw_deal["hands"], problems)
            if masks is not None and deal is not None and not cards_unknown:
                differing = [s for s in _SEATS if masks[s.value] != deal.hands[s]]
                problems.extend(
                    Problem(
                        _C.HAND_MISMATCH,
                        {"seat": seat.name, "board": deal.board},
                        f"deal.hands.{seat.name}",
                    )
                    for seat in differing
                )
                if differing:
                    masks = None
            out.hands = masks
        elif deal is not None:
            if not cards_unknown:
                out.hands = [deal.hands[s] for s in _SEATS]
        else:
            problems.append(Problem(_C.HANDS_REQUIRED, {}, "deal.hands"))

    choice = record.get("choice")
    trump: Any = None
    if not isinstance(choice, Mapping):
        problems.append(Problem(_C.CHOICE_MISSING, {}, "choice"))
    else:
        trump = choice.get("trump", MISSING)
        if "delegated" not in choice:
            problems.append(Problem(_C.DELEGATED_MISSING, {}, "choice.delegated"))
            found = check_choice(delegated=False, trump=trump)
        else:
            found = check_choice(delegated=choice["delegated"], trump=trump)
        problems.extend(found)
        if not any(p.path == "choice.trump" for p in found):
            out.trump = trump

    doubles = record.get("doubles")
    if doubles is None:
        doubles = []
    found = check_doubles(
        dealer=out.dealer or Seat.N,
        trump=trump,
        doubles=doubles,
        # The event's rules when the record names another ruleset (that is its own problem).
        rules=out.rules or rules or Rules(),
        path_prefix="",
    )
    if out.dealer is None:  # the pairs are unknown: keep only what does not depend on them
        found = [p for p in found if p.code not in _WRONG_PAIR]
    if out.rules is None and rules is None:
        # An unknown ruleset outside an event: whether sant_vicenc may be called is unknown.
        found = [p for p in found if p.code != _C.SANT_VICENC_NOT_ALLOWED]
    problems.extend(found)
    if not found and isinstance(doubles, list | tuple):
        out.calls = [d["call"] for d in doubles]

    play = record.get("play")
    if not isinstance(play, list):
        problems.append(Problem(_C.PLAY_MISSING, {}, "play"))
    else:
        cards: list[int] | None = []
        if len(play) > 48:
            # One problem, and no look at the entries: 200,000 cards must not mean 200,000
            # problems (nor a replay).
            problems.append(Problem(_C.PLAY_TOO_LONG, {"count": len(play)}, "play"))
            cards = None
        else:
            for i, token in enumerate(play):
                card = _TOKEN_TO_CARD.get(token) if isinstance(token, str) else None
                if card is None:
                    problems.append(Problem(_C.NOT_A_CARD, {"value": quote(token)}, f"play[{i}]"))
                    if cards is not None:
                        out.prefix = cards
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

    A card's legality is :func:`engine.rules.legal_mask` itself, the definition ``Hand`` uses;
    the leader's card is not asked about, since ``legal_mask`` allows a leader any held card (R7.1).
    """
    beats_t = BEATS[t]
    suit_of = CARD_SUIT
    points_of = CARD_POINTS
    pos = led = win = win_seat = trick_pts = 0
    points = [0, 0]
    winners: list[int] = []
    for i, c in enumerate(cards):
        bit = 1 << c
        h = hands[seat]
        if not h & bit:
            return _BAD, i, seat
        if pos:
            partner = (win_seat ^ seat) == 2
            if not legal_mask(h, pos, led, win, partner, t, obligada) & bit:
                return _ILLEGAL, i, seat, h, pos, led, win, partner
            if beats_t[win] & bit:
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


def _not_held(cards: list[int], i: int, seat: int) -> Problem:
    """The problem at ``play[i]``, a card ``seat`` does not hold: played before, or not dealt
    to that seat."""
    card = cards[i]
    if card in cards[:i]:
        first = f"play[{cards.index(card)}]"
        return Problem(
            _C.CARD_ALREADY_PLAYED, {"card": card_token(card), "first": first}, f"play[{i}]"
        )
    return Problem(
        _C.CARD_NOT_HELD, {"card": card_token(card), "seat": _SEATS[seat].name}, f"play[{i}]"
    )


def replay(record: Any, *, deal: Deal | None = None, rules: Rules | None = None) -> Verdict:
    """Replay a play record and return its verdict; never raises on bad record content.

    ``deal``: the event's board (hands may then be omitted). ``rules``: the event's rules (a
    different ``ruleset`` in the record is a problem at ``ruleset``).

    >>> replay([]).problems
    (Problem(ProblemCode.RECORD_NOT_OBJECT, {}, ''),)
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
            problems.append(_not_held(cards, result[1], result[2]))
        elif result[0] == _OK and len(cards) < 48:
            problems.append(Problem(_C.PLAY_TOO_SHORT, {"count": len(cards)}, "play"))
    elif parsed.prefix_playable:
        # The cards before the first unknown token are known: a card in them that its player
        # does not hold is a problem too (R10 lists every problem), found before the token's.
        assert parsed.hands is not None and parsed.prefix is not None and parsed.rules is not None
        assert parsed.dealer is not None and parsed.trump is not None
        leader = (parsed.dealer.value + 3) & 3
        before = _run(
            list(parsed.hands),
            leader,
            TRUMP_INDEX[parsed.trump],
            parsed.rules.obligada,
            parsed.prefix,
        )
        if before[0] == _BAD:
            first_token = next(i for i, p in enumerate(problems) if p.code is _C.NOT_A_CARD)
            problems.insert(first_token, _not_held(parsed.prefix, before[1], before[2]))

    if problems or result is None:
        return Verdict(Outcome.INVALID, problems=tuple(limit_problems(problems)))
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
            Outcome.ILLEGAL,
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
        Outcome.COMPLETE,
        multiplier=mult,
        tricks=tricks,
        totals=totals,
        score=hand_score(totals, mult),
        capot=12 in tricks.values(),
        trick_winners=tuple(_SEATS[w] for w in winners),
    )


def check_form(record: Any, *, deal: Deal, rules: Rules | None = None) -> tuple[Problem, ...]:
    """The problems of a record for ``deal``'s board that do not depend on the board's cards.

    Only the board's number and dealer are read (both public: R3); hands given in the record
    are checked as a deal of 48 cards but not compared with the board's, and the play is checked
    for unknown tokens and its length, not against the hands. For whoever may not see the cards
    yet, this is all a check may tell (the same answer for any deal). A card played twice is not
    among them: whether it counts depends on where the first illegal play is (cards after it are
    not replayed, play-record.md), and that depends on the cards; ``replay`` reports it.

    >>> from engine.deals import deal_board
    >>> rec = {"format": "botifarra-play/1", "deal": {"dealer": "N"},
    ...        "choice": {"delegated": False, "trump": "oros"}, "play": ["1o", "1o", "99x"]}
    >>> [p.path for p in check_form(rec, deal=deal_board("a", 1))]
    ['play[2]']
    >>> check_form(rec, deal=deal_board("a", 1)) == check_form(rec, deal=deal_board("b", 1))
    True
    """
    return tuple(_parse(record, deal, rules, cards_unknown=True).problems)


def _checked(record: Any, deal: Deal | None, rules: Rules | None) -> _Parsed:
    parsed = _parse(record, deal, rules)
    if parsed.problems or not parsed.playable:
        raise InvalidRecord(parsed.problems or [Problem(_C.NOT_REPLAYABLE)])
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
            raise InvalidRecord([_not_held(parsed.cards, i, seat.value)])
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


@dataclass(frozen=True, slots=True)
class NextPlay:
    """Who plays the next card of a partial record, and the cards the rules allow (R1 order)."""

    seat: Seat
    legal: tuple[int, ...]

    @property
    def legal_tokens(self) -> tuple[str, ...]:
        """The legal cards as tokens."""
        return tuple(card_token(c) for c in self.legal)

    def to_json(self) -> dict[str, Any]:
        """``{"seat": "W", "legal": ["1o", ...]}``."""
        return {"seat": self.seat.name, "legal": list(self.legal_tokens)}


def next_play(record: Any, *, deal: Deal | None = None, rules: Rules | None = None) -> NextPlay:
    """The seat to play next and its legal cards, for a record whose play is a legal prefix of
    fewer than 48 cards. Raises :class:`InvalidRecord` otherwise (an invalid record, a card not
    held, an illegal card: ``ILLEGAL_CARD``, a complete hand: ``HAND_COMPLETE``).

    >>> from engine import deal_board
    >>> d = deal_board("doc", 1)
    >>> record = {"format": "botifarra-play/1", "deal": {"dealer": d.dealer.name,
    ...     "hands": d.hands_json()}, "choice": {"delegated": False, "trump": "oros"}, "play": []}
    >>> nxt = next_play(record)
    >>> nxt.seat == d.dealer.right, nxt.legal_tokens == tuple(d.hands_json()[nxt.seat.name])
    (True, True)
    """
    parsed = _checked(record, deal, rules)
    assert parsed.hands is not None and parsed.cards is not None and parsed.rules is not None
    assert parsed.dealer is not None and parsed.trump is not None
    cards = parsed.cards
    t = TRUMP_INDEX[parsed.trump]
    hands = list(parsed.hands)
    result = _run(hands, (parsed.dealer.value + 3) & 3, t, parsed.rules.obligada, cards)
    if result[0] == _BAD:
        raise InvalidRecord([_not_held(cards, result[1], result[2])])
    if result[0] == _ILLEGAL:
        i = result[1]
        raise InvalidRecord(
            [Problem(_C.ILLEGAL_CARD, {"card": card_token(cards[i])}, f"play[{i}]")]
        )
    if len(cards) == 48:
        raise InvalidRecord([Problem(_C.HAND_COMPLETE, {}, "play")])
    _, _, _, seat, pos, led, win, win_seat = result
    mask = legal_mask(
        hands[seat], pos, led, win, pos > 0 and (win_seat ^ seat) == 2, t, parsed.rules.obligada
    )
    return NextPlay(_SEATS[seat], tuple(mask_to_cards(mask)))


def legal_for_record(
    record: Any, *, deal: Deal | None = None, rules: Rules | None = None
) -> dict[str, Any]:
    """:func:`next_play` as JSON values: ``{"seat": ..., "legal": [...]}`` (the command line's
    ``legal``). Raises :class:`InvalidRecord` as :func:`next_play` does.
    """
    return next_play(record, deal=deal, rules=rules).to_json()


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
            raise InvalidRecord([_not_held(parsed.cards, i, seat.value)])
        if not hand.is_legal(card):
            break
        hand.play(card)
    return hand
