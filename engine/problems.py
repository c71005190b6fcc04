"""Problems with a record or a short result, as codes with parameters (play-record.md, R10).

A :class:`Problem` says *what* is wrong (a stable :class:`ProblemCode`), with *which values*
(``params``: card tokens, seats, numbers, the offending value as :func:`quote` shows it) and
*where* (the JSON ``path``). The engine writes no sentence for people: ``Problem.message`` renders
the English sentence of the command line and of the JSON verdict from :data:`MESSAGES`, one
template per code, and a product translates the code and its params itself (docs/engine.md
lists every code).

>>> p = Problem(ProblemCode.CARD_NOT_HELD, {"card": "7b", "seat": "W"}, "play[17]")
>>> p.code, p.params["card"], p.path
(<ProblemCode.CARD_NOT_HELD: 'card_not_held'>, '7b', 'play[17]')
>>> p.message
"7b is not in W's hand"
>>> p.to_json()
{'path': 'play[17]', 'message': "7b is not in W's hand"}
"""

from __future__ import annotations

import reprlib
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TypeAlias

__all__ = [
    "ECHO_LIMIT",
    "MAX_PROBLEMS",
    "MESSAGES",
    "MISSING",
    "PARAMS",
    "ParamValue",
    "Problem",
    "ProblemCode",
    "clip",
    "limit_problems",
    "quote",
]

# A value quoted in a message is cut to this many characters, and a record's problems are
# listed up to this many: a 2 MB string or 200,000 bad cards must not make a 12 MB answer.
# Every token of a record whose hands hold at most 48 entries each (4 × 48 dealt, 48 played)
# and its header fit: play-record.md asks for every problem, and the bound bites only beyond.
ECHO_LIMIT = 100
MAX_PROBLEMS = 250


class _Missing:
    """A key the record does not have (``record.get(key, MISSING)``): said to be required, not
    quoted as a value the record never gave."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()

#: What a problem's params hold: plain text (tokens, seats, paths, quoted values) or numbers.
ParamValue: TypeAlias = str | int

_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = ECHO_LIMIT
_SHORT.maxother = ECHO_LIMIT
_SHORT.maxlong = ECHO_LIMIT


def clip(value: object, *, limit: int = ECHO_LIMIT) -> str:
    """``value`` as a message may show it: text as it is, anything else as its ``repr``, cut to
    at most ``limit`` characters (``…`` marks the cut). Safe on huge or deeply nested values.

    >>> clip("7b"), clip([1, "x"]), clip(None)
    ('7b', "[1, 'x']", 'None')
    >>> text = clip("x" * 10_000)
    >>> len(text), text[-1]
    (100, '…')
    >>> len(clip([[[[[[[[1]]]]]]]] * 5000)) <= 100
    True
    """
    try:
        text = value[: limit + 1] if isinstance(value, str) else _SHORT.repr(value)
    except ValueError:  # an integer too long to write out (sys.get_int_max_str_digits)
        text = "<a number too long to show>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


_JSON_WORDS = {None: "null", True: "true", False: "false"}


def quote(value: object) -> str:
    """:func:`clip`, with text in double quotes and ``null``, ``true`` and ``false`` as JSON
    writes them (how problems name the offending value of a JSON record: the ``value`` param).

    >>> quote("XX"), quote(7), quote(None), quote(True), quote("9" * 500)[-3:]
    ('"XX"', '7', 'null', 'true', '9…"')
    """
    if isinstance(value, str):
        return f'"{clip(value)}"'
    if value is None or isinstance(value, bool):
        return _JSON_WORDS[value]
    return clip(value)


class ProblemCode(StrEnum):
    """What is wrong, as a stable identifier (the value never changes once published).

    >>> ProblemCode("not_a_card") is ProblemCode.NOT_A_CARD
    True
    >>> ProblemCode.NOT_A_CARD == "not_a_card"
    True
    """

    # The record as a whole (path "")
    RECORD_NOT_OBJECT = "record_not_object"
    NOT_REPLAYABLE = "not_replayable"
    MORE_PROBLEMS = "more_problems"
    # format, ruleset
    FORMAT_MISSING = "format_missing"
    FORMAT_UNSUPPORTED = "format_unsupported"
    RULESET_UNKNOWN = "ruleset_unknown"
    RULESET_MISMATCH = "ruleset_mismatch"
    # deal (R1, R3)
    DEAL_MISSING = "deal_missing"
    DEALER_MISSING = "dealer_missing"
    DEALER_NOT_A_SEAT = "dealer_not_a_seat"
    DEALER_MISMATCH = "dealer_mismatch"
    HANDS_REQUIRED = "hands_required"
    HANDS_NOT_OBJECT = "hands_not_object"
    HAND_NOT_LIST = "hand_not_list"
    HAND_SIZE = "hand_size"
    HAND_MISSING = "hand_missing"
    HAND_MISMATCH = "hand_mismatch"
    CARD_DEALT_TWICE = "card_dealt_twice"
    CARDS_MISSING = "cards_missing"
    # values anywhere
    NOT_A_CARD = "not_a_card"
    NOT_A_SEAT = "not_a_seat"
    SEAT_MISSING = "seat_missing"
    # choice (R4)
    CHOICE_MISSING = "choice_missing"
    DELEGATED_MISSING = "delegated_missing"
    DELEGATED_NOT_BOOL = "delegated_not_bool"
    NOT_A_TRUMP = "not_a_trump"
    TRUMP_MISSING = "trump_missing"
    # doubles (R5, R11)
    DOUBLES_NOT_LIST = "doubles_not_list"
    CALL_NOT_OBJECT = "call_not_object"
    NOT_A_CALL = "not_a_call"
    CALL_MISSING = "call_missing"
    CALL_REPEATED = "call_repeated"
    CALL_OUT_OF_ORDER = "call_out_of_order"
    SANT_VICENC_NOT_ALLOWED = "sant_vicenc_not_allowed"
    RECONTRO_WRONG_PAIR = "recontro_wrong_pair"
    CALL_WRONG_PAIR = "call_wrong_pair"
    # play (R1, R10)
    PLAY_MISSING = "play_missing"
    PLAY_TOO_LONG = "play_too_long"
    PLAY_TOO_SHORT = "play_too_short"
    CARD_NOT_HELD = "card_not_held"
    CARD_ALREADY_PLAYED = "card_already_played"
    ILLEGAL_CARD = "illegal_card"
    HAND_COMPLETE = "hand_complete"
    # a short result (R9, R10)
    TOTALS_OR_OFFENDER = "totals_or_offender"
    TOTALS_NOT_OBJECT = "totals_not_object"
    TOTAL_NOT_NUMBER = "total_not_number"
    TOTALS_UNKNOWN_KEYS = "totals_unknown_keys"
    TOTALS_SUM = "totals_sum"
    NOT_A_PAIR = "not_a_pair"


_C = ProblemCode

#: The English sentence of each code, a ``str.format`` template over the problem's params.
#: These sentences are the command line's and the JSON verdict's ``message``; changing one
#: changes the engine's output (tests/engine/test_engine_problems.py keeps them as they were).
MESSAGES: Mapping[ProblemCode, str] = MappingProxyType(
    {
        _C.RECORD_NOT_OBJECT: "a play record must be a JSON object",
        _C.NOT_REPLAYABLE: "the record cannot be replayed",
        _C.MORE_PROBLEMS: "{count} more problems were found and are not listed",
        _C.FORMAT_MISSING: "format is required: {format}",
        _C.FORMAT_UNSUPPORTED: "{value} is not a supported format: {format}",
        _C.RULESET_UNKNOWN: "{value} is not a ruleset: lliure or obligada (R11)",
        _C.RULESET_MISMATCH: "the record says {ruleset} but the event plays {event_ruleset} (R11)",
        _C.DEAL_MISSING: "deal is required: an object with dealer and hands (R3)",
        _C.DEALER_MISSING: "dealer is required: N, E, S or W (R3)",
        _C.DEALER_NOT_A_SEAT: "{value} is not a seat: N, E, S or W (R3)",
        _C.DEALER_MISMATCH: "the dealer of board {board} is {dealer}, not {seat} (R3)",
        _C.HANDS_REQUIRED: "hands are required outside an event (R3)",
        _C.HANDS_NOT_OBJECT: 'hands must be an object {{"N": [...], ...}} (R3)',
        _C.HAND_NOT_LIST: "a hand must be a list of 12 card tokens (R3)",
        _C.HAND_SIZE: "{seat} holds {count} cards; a hand has 12 (R3)",
        _C.HAND_MISSING: "the hand of {seat} is missing (R3)",
        _C.HAND_MISMATCH: "{seat}'s hand is not the hand of board {board} (R3)",
        _C.CARD_DEALT_TWICE: (
            "card {card} is dealt twice: it is also at {first} (R1: 48 distinct cards)"
        ),
        _C.CARDS_MISSING: "cards missing from the deal: {cards} (R1: the deal holds all 48 cards)",
        _C.NOT_A_CARD: "{value} is not a card token (R1)",
        _C.NOT_A_SEAT: "{value} is not a seat: N, E, S or W",
        _C.SEAT_MISSING: "seat is required: N, E, S or W",
        _C.CHOICE_MISSING: "choice is required: an object with delegated and trump (R4)",
        _C.DELEGATED_MISSING: "delegated is required: true or false (R4)",
        _C.DELEGATED_NOT_BOOL: "delegated must be true or false, not {value} (R4)",
        _C.NOT_A_TRUMP: (
            "{value} is not a trump choice: it must be oros, copes, espases, bastos"
            " or botifarra (R4)"
        ),
        _C.TRUMP_MISSING: "trump is required: oros, copes, espases, bastos or botifarra (R4)",
        _C.DOUBLES_NOT_LIST: "doubles must be a list of calls (R5)",
        _C.CALL_NOT_OBJECT: 'each call must be an object {{"seat": ..., "call": ...}} (R5)',
        _C.NOT_A_CALL: "{value} is not a call: contro, recontro or sant_vicenc (R5)",
        _C.CALL_MISSING: "call is required: contro, recontro or sant_vicenc (R5)",
        _C.CALL_REPEATED: "{call} was already called (R5: each call at most once)",
        _C.CALL_OUT_OF_ORDER: "{call} is only allowed after a {before} (R5)",
        _C.SANT_VICENC_NOT_ALLOWED: (
            "sant_vicenc is not allowed in a botifarra hand under these rules (R5, R11)"
        ),
        _C.RECONTRO_WRONG_PAIR: (
            "recontro must be called by the choosing pair ({pair}), not by {seat} (R5)"
        ),
        _C.CALL_WRONG_PAIR: (
            "{call} must be called by the opponents of the choosing pair ({pair}),"
            " not by {seat} (R5)"
        ),
        _C.PLAY_MISSING: "play is required: the list of cards played (R10)",
        _C.PLAY_TOO_LONG: "the play holds {count} cards; a hand has 48 (R10)",
        _C.PLAY_TOO_SHORT: (
            "the play stops after {count} cards without an illegal play; a hand has 48 (R10)"
        ),
        _C.CARD_NOT_HELD: "{card} is not in {seat}'s hand",
        _C.CARD_ALREADY_PLAYED: "{card} was already played ({first})",
        _C.ILLEGAL_CARD: "{card} is an illegal play (R10)",
        _C.HAND_COMPLETE: "the hand is complete: no card is left to play",
        _C.TOTALS_OR_OFFENDER: (
            "give either the hand totals or the offending pair, exactly one of them"
        ),
        _C.TOTALS_NOT_OBJECT: 'totals must be an object {{"NS": n, "EW": m}} (R9)',
        _C.TOTAL_NOT_NUMBER: "{pair} total must be a whole number 0–72, not {value} (R9)",
        _C.TOTALS_UNKNOWN_KEYS: "unknown keys in totals: {keys}",
        _C.TOTALS_SUM: "the totals must sum to 72, not {sum} (R9)",
        _C.NOT_A_PAIR: "{value} is not a pair: NS or EW (R10)",
    }
)

#: The names of the params each code carries (read from its template).
PARAMS: Mapping[ProblemCode, frozenset[str]] = MappingProxyType(
    {
        code: frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)
        for code, text in MESSAGES.items()
    }
)


@dataclass(frozen=True, slots=True, init=False)
class Problem:
    """One thing wrong with a record: a :class:`ProblemCode`, its params and the JSON path of
    the offending value (``""`` for the record as a whole).

    The params must be exactly those the code's template names (``ValueError`` otherwise), so
    every problem can be rendered, in English by :attr:`message` or by a translation.

    >>> Problem(ProblemCode.HAND_MISSING, {"seat": "E"}, "deal.hands.E")
    Problem(ProblemCode.HAND_MISSING, {'seat': 'E'}, 'deal.hands.E')
    >>> Problem("deal_missing", path="deal").message
    'deal is required: an object with dealer and hands (R3)'
    >>> Problem(ProblemCode.HAND_MISSING, {}, "deal.hands.E")
    Traceback (most recent call last):
    ...
    ValueError: hand_missing takes the params ['seat'], not []
    """

    code: ProblemCode
    params: Mapping[str, ParamValue]
    path: str

    def __init__(
        self,
        code: ProblemCode | str,
        params: Mapping[str, ParamValue] | None = None,
        path: str = "",
    ) -> None:
        code = ProblemCode(code)
        given = dict(params or {})
        if given.keys() != PARAMS[code]:
            raise ValueError(f"{code} takes the params {sorted(PARAMS[code])}, not {sorted(given)}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "params", MappingProxyType(given))
        object.__setattr__(self, "path", path)

    @property
    def message(self) -> str:
        """The English sentence (:data:`MESSAGES`), as the command line and JSON verdicts say it."""
        return MESSAGES[self.code].format_map(self.params)

    def to_json(self) -> dict[str, str]:
        """``{"path": ..., "message": ...}``: play-record.md's form of a problem."""
        return {"path": self.path, "message": self.message}

    def __hash__(self) -> int:
        return hash((self.code, self.path, tuple(sorted(self.params.items()))))

    def __repr__(self) -> str:
        return f"Problem(ProblemCode.{self.code.name}, {dict(self.params)!r}, {self.path!r})"


def limit_problems(problems: Iterable[Problem], *, limit: int = MAX_PROBLEMS) -> list[Problem]:
    """At most ``limit`` problems: when there are more, the first ``limit - 1`` and a last one
    (:attr:`ProblemCode.MORE_PROBLEMS`, path ``""``) saying how many more were found.

    >>> found = [Problem(ProblemCode.NOT_A_CARD, {"value": '"x"'}, f"play[{i}]") for i in range(60)]
    >>> shown = limit_problems(found, limit=50)
    >>> len(shown), shown[-2].path, shown[-1]
    (50, 'play[48]', Problem(ProblemCode.MORE_PROBLEMS, {'count': 11}, ''))
    >>> shown[-1].message
    '11 more problems were found and are not listed'
    >>> len(limit_problems(found[:50], limit=50))
    50
    """
    listed = list(problems)
    if len(listed) <= limit:
        return listed
    more = len(listed) - (limit - 1)
    return [*listed[: limit - 1], Problem(ProblemCode.MORE_PROBLEMS, {"count": more})]
