"""Cards, suits and seats (rules.md R1, R2).

A card is an ``int`` 0–47 in the canonical pack order of deals.md: ``suit * 12 + rank - 1``
with suits oros=0, copes=1, espases=2, bastos=3. A set of cards is an ``int`` bitmask
(bit ``card`` set). Every table below is built once at import.

>>> card_token(8)
'9o'
>>> parse_token("12b")
47
>>> card_points(parse_token("9e")), card_points(parse_token("8e"))
(5, 0)
>>> [card_token(c) for c in sort_cards([parse_token(t) for t in ["2o", "9c", "1o", "9o"]])]
['9o', '1o', '2o', '9c']
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

__all__ = [
    "ALL_CARDS_MASK",
    "CARD_BIT",
    "CARD_POINTS",
    "CARD_SUIT",
    "CARD_STRENGTH",
    "POINT_CARDS_MASK",
    "R1_ORDER",
    "SUIT_MASK",
    "Seat",
    "Suit",
    "card_points",
    "card_rank",
    "card_suit",
    "card_token",
    "cards_to_mask",
    "mask_to_cards",
    "parse_card",
    "parse_token",
    "sort_cards",
]


class Suit(enum.IntEnum):
    """The four suits in canonical order (R1).

    >>> Suit.from_str("♠"), Suit.from_str("Copes"), Suit.from_str("b")
    (Suit.ESPASES, Suit.COPES, Suit.BASTOS)
    >>> Suit.OROS.letter, Suit.OROS.name_ca
    ('o', 'oros')
    """

    OROS = 0
    COPES = 1
    ESPASES = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        """The suit initial used in canonical tokens: ``o``, ``c``, ``e``, ``b``."""
        return "oceb"[self.value]

    @property
    def name_ca(self) -> str:
        """The Catalan name: ``oros``, ``copes``, ``espases``, ``bastos``."""
        return _SUIT_NAMES[self.value]

    @property
    def symbol(self) -> str:
        """The Unicode symbol used for this suit in diagrams: ♦ ♥ ♠ ♣."""
        return "♦♥♠♣"[self.value]

    @classmethod
    def from_str(cls, text: str) -> Suit:
        """Parse a suit: Catalan name, initial or Unicode symbol, any case.

        Raises ``ValueError`` for anything else.
        """
        key = text.strip().lower()
        try:
            return cls(_SUIT_LOOKUP[key])
        except KeyError:
            raise ValueError(f"unknown suit: {text!r}") from None

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.name_ca


_SUIT_NAMES = ("oros", "copes", "espases", "bastos")
_SUIT_LOOKUP: dict[str, int] = {}
for _i, (_name, _letter, _symbols) in enumerate(
    zip(_SUIT_NAMES, "oceb", ("♦♢", "♥♡", "♠♤", "♣♧"), strict=True)
):
    _SUIT_LOOKUP[_name] = _i
    _SUIT_LOOKUP[_letter] = _i
    for _sym in _symbols:
        _SUIT_LOOKUP[_sym] = _i


class Seat(enum.Enum):
    """The four seats (R2). Play moves anticlockwise, to the right: N → W → S → E → N.

    >>> Seat.N.right, Seat.W.right, Seat.N.partner, Seat.E.pair
    (Seat.W, Seat.S, Seat.S, 'EW')
    """

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def right(self) -> Seat:
        """The next seat in play order (the player to this seat's right)."""
        return _SEATS[(self.value + 3) & 3]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return _SEATS[self.value ^ 2]

    @property
    def pair(self) -> str:
        """``"NS"`` or ``"EW"``."""
        return "NS" if self.value & 1 == 0 else "EW"

    @classmethod
    def from_str(cls, text: str) -> Seat:
        """Parse ``N``, ``E``, ``S`` or ``W`` (any case). Raises ``ValueError`` otherwise."""
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown seat: {text!r}") from None

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __str__(self) -> str:
        return self.name


_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)

#: Strength order inside a suit, strongest first (R1).
_STRENGTH_ORDER = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
_RANK_POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}

#: ``1 << card`` for every card.
CARD_BIT: tuple[int, ...] = tuple(1 << c for c in range(48))
#: Suit index of every card.
CARD_SUIT: tuple[int, ...] = tuple(c // 12 for c in range(48))
#: Strength inside its suit, 11 for the 9 (manilla) down to 0 for the 2.
CARD_STRENGTH: tuple[int, ...] = tuple(11 - _STRENGTH_ORDER.index(c % 12 + 1) for c in range(48))
#: Points of every card (R1).
CARD_POINTS: tuple[int, ...] = tuple(_RANK_POINTS.get(c % 12 + 1, 0) for c in range(48))
#: Mask of the twelve cards of each suit.
SUIT_MASK: tuple[int, ...] = tuple(0xFFF << (12 * s) for s in range(4))
ALL_CARDS_MASK = (1 << 48) - 1
POINT_CARDS_MASK = sum(CARD_BIT[c] for c in range(48) if CARD_POINTS[c])
#: The 48 cards in R1 display order: suit, then strength, strongest first.
R1_ORDER: tuple[int, ...] = tuple(s * 12 + r - 1 for s in range(4) for r in _STRENGTH_ORDER)
_R1_POSITION: tuple[int, ...] = tuple(R1_ORDER.index(c) for c in range(48))

_TOKENS: tuple[str, ...] = tuple(f"{c % 12 + 1}{'oceb'[c // 12]}" for c in range(48))
_TOKEN_TO_CARD: dict[str, int] = {t: c for c, t in enumerate(_TOKENS)}


def card_suit(card: int) -> Suit:
    """The suit of a card.

    >>> card_suit(parse_token("3e"))
    Suit.ESPASES
    """
    return Suit(CARD_SUIT[card])


def card_rank(card: int) -> int:
    """The rank 1–12 of a card.

    >>> card_rank(parse_token("11c"))
    11
    """
    return card % 12 + 1


def card_points(card: int) -> int:
    """Points of a card (R1): 9 = 5, 1 = 4, 12 = 3, 11 = 2, 10 = 1, others 0.

    >>> sum(card_points(c) for c in range(48))
    60
    """
    return CARD_POINTS[card]


def card_token(card: int) -> str:
    """The canonical token of a card: rank then lower-case suit initial (R1).

    >>> card_token(0), card_token(47)
    ('1o', '12b')
    """
    return _TOKENS[card]


def parse_token(token: str) -> int:
    """Parse a canonical token strictly (R1); raise ``ValueError`` for anything else.

    >>> parse_token("10b")
    45
    >>> parse_token("10B")
    Traceback (most recent call last):
    ...
    ValueError: not a canonical card token: '10B'
    """
    try:
        return _TOKEN_TO_CARD[token]
    except (KeyError, TypeError):
        raise ValueError(f"not a canonical card token: {token!r}") from None


_RANK_WORDS = {"as": 1, "manilla": 9, "sota": 10, "cavall": 11, "rei": 12}
_LENIENT = re.compile(
    r"^\s*(?P<rank>\d{1,2}|as|manilla|sota|cavall|rei)\s*"
    r"(?:(?:de\s+|d['’]\s*))?"
    r"(?P<suit>oros|copes|espases|bastos|[oceb♦♢♥♡♠♤♣♧])\s*$",
    re.IGNORECASE,
)


def parse_card(text: str) -> int:
    """Parse a card written by a person; raise ``ValueError`` when it cannot be read.

    Accepted, case-insensitive, surrounding spaces ignored: a rank (``1``–``12``, or the
    Catalan words ``as`` = 1, ``manilla`` = 9, ``sota`` = 10, ``cavall`` = 11, ``rei`` = 12),
    optional spaces, an optional ``de `` or ``d'``, then a suit (initial ``o c e b``, name
    ``oros copes espases bastos`` or symbol ``♦ ♥ ♠ ♣``, outlined ``♢ ♡ ♤ ♧`` too).

    >>> [card_token(parse_card(s)) for s in ["9o", "9O", "12 ♣", "sota de copes", "As d'oros"]]
    ['9o', '9o', '12b', '10c', '1o']
    >>> parse_card("13o")
    Traceback (most recent call last):
    ...
    ValueError: not a card: '13o'
    """
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    m = _LENIENT.match(text)
    if m is None:
        raise ValueError(f"not a card: {text!r}")
    rank_text = m.group("rank").lower()
    rank = _RANK_WORDS[rank_text] if rank_text in _RANK_WORDS else int(rank_text)
    if not 1 <= rank <= 12:
        raise ValueError(f"not a card: {text!r}")
    return int(Suit.from_str(m.group("suit"))) * 12 + rank - 1


def sort_cards(cards: Iterable[int]) -> list[int]:
    """Sort cards in R1 display order: oros, copes, espases, bastos; strongest first.

    >>> [card_token(c) for c in sort_cards([parse_token(t) for t in ["2b", "10o", "1o"]])]
    ['1o', '10o', '2b']
    """
    return sorted(cards, key=_R1_POSITION.__getitem__)


def cards_to_mask(cards: Iterable[int]) -> int:
    """The bitmask of some cards.

    >>> cards_to_mask([0, 2])
    5
    """
    mask = 0
    for c in cards:
        mask |= CARD_BIT[c]
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """The cards of a bitmask in R1 display order.

    >>> [card_token(c) for c in mask_to_cards(cards_to_mask([0, 8, 13]))]
    ['9o', '1o', '2c']
    """
    return [c for c in R1_ORDER if mask >> c & 1]


def tokens(mask: int) -> list[str]:
    """Canonical tokens of a bitmask, R1 order.

    >>> tokens(cards_to_mask([0, 8]))
    ['9o', '1o']
    """
    return [_TOKENS[c] for c in R1_ORDER if mask >> c & 1]
