"""Errors with a meaning (style.md convention 3).

A verdict is a value, not an exception: :func:`engine.replay` never raises on bad record content.
Exceptions are for callers that ask for a value that cannot exist (``score_short_result`` with
bad totals, ``Hand.play`` with a card the player does not hold, ...).
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "ECHO_LIMIT",
    "MAX_PROBLEMS",
    "IllegalPlay",
    "InvalidRecord",
    "Problem",
    "clip",
    "limit_problems",
    "quote",
]

# A value quoted in a message is cut to this many characters, and a record's problems are
# listed up to this many: a 2 MB string or 200,000 bad cards must not make a 12 MB answer.
ECHO_LIMIT = 100
MAX_PROBLEMS = 50

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


def quote(value: object) -> str:
    """:func:`clip`, with text in double quotes (how problems name the offending value).

    >>> quote("XX"), quote(7), quote("9" * 500)[-3:]
    ('"XX"', '7', '9…"')
    """
    return f'"{clip(value)}"' if isinstance(value, str) else clip(value)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record: the JSON path of the offending value and a sentence.

    >>> Problem("play[17]", "7b is not in W's hand").to_json()
    {'path': 'play[17]', 'message': "7b is not in W's hand"}
    """

    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """``{"path": ..., "message": ...}``."""
        return {"path": self.path, "message": self.message}


def limit_problems(problems: Iterable[Problem], *, limit: int = MAX_PROBLEMS) -> list[Problem]:
    """At most ``limit`` problems: when there are more, the first ``limit - 1`` and a last one
    (path ``""``, the record as a whole) saying how many more were found.

    >>> found = [Problem(f"play[{i}]", "not a card token") for i in range(60)]
    >>> shown = limit_problems(found)
    >>> len(shown), shown[-2].path, shown[-1].to_json()
    (50, 'play[48]', {'path': '', 'message': '11 more problems were found and are not listed'})
    >>> len(limit_problems(found[:50]))
    50
    """
    listed = list(problems)
    if len(listed) <= limit:
        return listed
    more = len(listed) - (limit - 1)
    return [
        *listed[: limit - 1],
        Problem("", f"{more} more problems were found and are not listed"),
    ]


class InvalidRecord(ValueError):
    """The input cannot describe a real hand; ``problems`` lists the problems found (at most
    :data:`MAX_PROBLEMS`, see :func:`limit_problems`).

    >>> err = InvalidRecord([Problem("totals", "totals must sum to 72")])
    >>> str(err)
    'totals: totals must sum to 72'
    >>> isinstance(err, ValueError)
    True
    """

    def __init__(self, problems: list[Problem]) -> None:
        self.problems: list[Problem] = limit_problems(problems)
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in self.problems))


class IllegalPlay(ValueError):
    """A held card that the rules forbid at this moment (R7, R8): ``rule`` names the obligation."""

    def __init__(self, message: str, *, rule: str, card: int, legal: list[int]) -> None:
        super().__init__(message)
        self.rule = rule
        self.card = card
        self.legal = legal
