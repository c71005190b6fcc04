"""Errors with a meaning (style.md convention 3).

A verdict is a value, not an exception: :func:`engine.replay` never raises on bad record content.
Exceptions are for callers that ask for a value that cannot exist (``score_short_result`` with
bad totals, ``Hand.play`` with a card the player does not hold, ...).

:class:`Problem` and its helpers live in :mod:`engine.problems`; they are importable from here too.
"""

from __future__ import annotations

from engine.problems import (
    ECHO_LIMIT,
    MAX_PROBLEMS,
    Problem,
    ProblemCode,
    clip,
    limit_problems,
    quote,
)
from engine.rules import Rule

__all__ = [
    "ECHO_LIMIT",
    "MAX_PROBLEMS",
    "IllegalPlay",
    "InvalidRecord",
    "Problem",
    "ProblemCode",
    "clip",
    "limit_problems",
    "quote",
]


class InvalidRecord(ValueError):
    """The input cannot describe a real hand; ``problems`` lists the problems found (at most
    :data:`MAX_PROBLEMS`, see :func:`limit_problems`), as :class:`Problem` values.

    >>> err = InvalidRecord([Problem(ProblemCode.TOTALS_SUM, {"sum": 70}, "totals")])
    >>> str(err)
    'totals: the totals must sum to 72, not 70 (R9)'
    >>> err.problems[0].code, isinstance(err, ValueError)
    (<ProblemCode.TOTALS_SUM: 'totals_sum'>, True)
    """

    def __init__(self, problems: list[Problem]) -> None:
        self.problems: list[Problem] = limit_problems(problems)
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in self.problems))


class IllegalPlay(ValueError):
    """A held card that the rules forbid at this moment (R7, R8): ``rule`` names the obligation
    (a :class:`engine.Rule`), ``legal`` the cards that were allowed."""

    def __init__(self, message: str, *, rule: Rule, card: int, legal: list[int]) -> None:
        super().__init__(message)
        self.rule = rule
        self.card = card
        self.legal = legal
