"""Rule options (R11) and the legal-card core (R6, R7, R8) on bitmasks.

The functions here work on plain ints so that :class:`engine.Hand` and the replay loop share
one definition of the rules. ``t`` is a trump index: 0–3 for a suit, 4 for botifarra.

>>> from engine.cards import parse_token as p, tokens
>>> hand = sum(1 << p(x) for x in ["1e", "4e", "7c"])
>>> # Clubs are trumps; partner led the sota of swords and an opponent went over it with the 11:
>>> # the ace beats it, so the ace is the only legal card (R7.2).
>>> tokens(legal_mask(hand, 2, 2, p("11e"), False, TRUMP_INDEX["bastos"], False))
['1e']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import CARD_BIT, CARD_STRENGTH, CARD_SUIT, POINT_CARDS_MASK, SUIT_MASK

__all__ = [
    "BEATS",
    "RULESETS",
    "TRUMPS",
    "TRUMP_INDEX",
    "BOTIFARRA",
    "Rule",
    "Rules",
    "illegal_rule",
    "legal_mask",
    "lowest_of_suits",
]

RULESETS = ("lliure", "obligada")
TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")
TRUMP_INDEX: dict[str, int] = {name: i for i, name in enumerate(TRUMPS)}
BOTIFARRA = 4


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of an event or a record (R11).

    >>> Rules().allows_sant_vicenc_in_botifarra
    False
    >>> Rules("obligada").allows_sant_vicenc_in_botifarra
    True
    >>> Rules("obligada", sant_vicenc_in_botifarra=False).allows_sant_vicenc_in_botifarra
    False
    """

    ruleset: str = "lliure"
    sant_vicenc_in_botifarra: bool | None = None

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {self.ruleset!r}: lliure or obligada (R11)")

    @property
    def obligada(self) -> bool:
        """True when R8 applies."""
        return self.ruleset == "obligada"

    @property
    def allows_sant_vicenc_in_botifarra(self) -> bool:
        """The event's setting, else the ruleset's default (R11)."""
        if self.sant_vicenc_in_botifarra is None:
            return self.ruleset == "obligada"
        return self.sant_vicenc_in_botifarra


class Rule(StrEnum):
    """The obligation an illegal card broke (play-record.md's ``rule``), in play-record.md's order.

    The value is the verdict's plain string; ``section`` is the rules.md section it applies and
    ``sentence`` the obligation in English.

    >>> Rule.MUST_BEAT.section, Rule("lowest_card").section
    ('R7.2', 'R8')
    >>> Rule.FOLLOW_SUIT == "follow_suit", Rule.FOLLOW_SUIT.value
    (True, 'follow_suit')
    >>> Rule.FOLLOW_SUIT.sentence
    'A player who holds the suit led must play a card of that suit.'
    """

    FOLLOW_SUIT = "follow_suit"
    MUST_BEAT = "must_beat"
    MUST_TRUMP = "must_trump"
    MUST_OVERTRUMP = "must_overtrump"
    LOWEST_CARD = "lowest_card"

    @property
    def section(self) -> str:
        """The rules.md section: ``R7.2``, ``R7.3`` or ``R8``."""
        return _RULE_SECTIONS[self]

    @property
    def sentence(self) -> str:
        """The obligation as one English sentence."""
        return _RULE_SENTENCES[self]


_RULE_SECTIONS = {
    Rule.FOLLOW_SUIT: "R7.2",
    Rule.MUST_BEAT: "R7.2",
    Rule.MUST_TRUMP: "R7.3",
    Rule.MUST_OVERTRUMP: "R7.3",
    Rule.LOWEST_CARD: "R8",
}
_RULE_SENTENCES = {
    Rule.FOLLOW_SUIT: "A player who holds the suit led must play a card of that suit.",
    Rule.MUST_BEAT: (
        "When an opponent is winning, a player who holds the suit led must beat the winning card"
        " with a card of that suit when one does."
    ),
    Rule.MUST_TRUMP: (
        "When an opponent is winning with a card that is not a trump, a player void in the suit"
        " led must play a trump if they hold one."
    ),
    Rule.MUST_OVERTRUMP: (
        "When an opponent is winning with a trump, a player void in the suit led must play a"
        " higher trump if they hold one."
    ),
    Rule.LOWEST_CARD: (
        "Under obligada, a card that does not beat the winning card must be the lowest the player"
        " holds of its suit, or a point card when the partner is winning or the second player is"
        " void in the suit led."
    ),
}


def _beats(t: int, w: int) -> int:
    """Cards that would become the winning card if played now, when ``w`` is winning (R6)."""
    ws = CARD_SUIT[w]
    higher_same_suit = sum(
        CARD_BIT[c] for c in range(48) if CARD_SUIT[c] == ws and CARD_STRENGTH[c] > CARD_STRENGTH[w]
    )
    if t == BOTIFARRA or ws == t:
        return higher_same_suit
    # ``w`` is a card of the suit led and not a trump: any trump beats it too.
    return higher_same_suit | SUIT_MASK[t]


#: ``BEATS[t][w]``: mask of the cards that beat ``w`` (currently winning) under trump index ``t``.
BEATS: tuple[tuple[int, ...], ...] = tuple(tuple(_beats(t, w) for w in range(48)) for t in range(5))


def _lowest12(m: int) -> int:
    best = 0
    best_strength = 99
    for r in range(12):
        if m >> r & 1 and CARD_STRENGTH[r] < best_strength:
            best, best_strength = 1 << r, CARD_STRENGTH[r]
    return best


_LOW0: tuple[int, ...] = tuple(_lowest12(m) for m in range(4096))
_LOW1: tuple[int, ...] = tuple(x << 12 for x in _LOW0)
_LOW2: tuple[int, ...] = tuple(x << 24 for x in _LOW0)
_LOW3: tuple[int, ...] = tuple(x << 36 for x in _LOW0)


def lowest_of_suits(hand: int) -> int:
    """Mask of the lowest card (R1 strength) the hand holds in each suit.

    >>> from engine.cards import parse_token as p, tokens
    >>> tokens(lowest_of_suits(sum(1 << p(x) for x in ["9o", "2o", "10c", "12c", "1e"])))
    ['2o', '10c', '1e']
    """
    return (
        _LOW0[hand & 4095]
        | _LOW1[hand >> 12 & 4095]
        | _LOW2[hand >> 24 & 4095]
        | _LOW3[hand >> 36 & 4095]
    )


def legal_mask(
    hand: int, position: int, led: int, win: int, partner_winning: bool, t: int, obligada: bool
) -> int:
    """The legal cards (R7, plus R8 when ``obligada``) of a player holding ``hand``.

    ``position`` is 0 for the leader (then the other arguments are ignored), 1–3 after;
    ``led`` the suit led, ``win`` the card currently winning, ``partner_winning`` whether the
    player's partner played it, ``t`` the trump index.
    """
    if position == 0:
        return hand
    beats = BEATS[t][win]
    follow = hand & SUIT_MASK[led]
    if follow:
        allowed = follow if partner_winning else (follow & beats or follow)
    else:
        allowed = hand if partner_winning else (hand & beats or hand)
    if obligada and allowed & ~beats:
        extra = POINT_CARDS_MASK if partner_winning or (position == 1 and not follow) else 0
        allowed &= beats | lowest_of_suits(hand) | extra
    return allowed


def illegal_rule(
    hand: int,
    card: int,
    position: int,
    led: int,
    win: int,
    partner_winning: bool,
    t: int,
    obligada: bool,
) -> Rule | None:
    """The first obligation (play-record.md order) that playing ``card`` breaks, or None if legal.

    >>> from engine.cards import parse_token as p
    >>> hand = sum(1 << p(x) for x in ["1o", "2o", "5e"])
    >>> # Oros trumps, ace of clubs led, an opponent trumped with the 7 of oros (R7.3).
    >>> rule = illegal_rule(hand, p("2o"), 2, 3, p("7o"), False, 0, False)
    >>> rule, rule.section
    (<Rule.MUST_OVERTRUMP: 'must_overtrump'>, 'R7.3')
    """
    if legal_mask(hand, position, led, win, partner_winning, t, obligada) >> card & 1:
        return None
    follow = hand & SUIT_MASK[led]
    if follow and CARD_SUIT[card] != led:
        return Rule.FOLLOW_SUIT
    beats = BEATS[t][win]
    if not partner_winning and not (CARD_BIT[card] & beats):
        if follow and follow & beats:
            return Rule.MUST_BEAT
        if not follow and hand & beats:
            if t != BOTIFARRA and CARD_SUIT[win] == t:
                return Rule.MUST_OVERTRUMP
            return Rule.MUST_TRUMP
    return Rule.LOWEST_CARD
