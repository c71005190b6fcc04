"""Errors with a meaning (style.md convention 3).

A verdict is a value, not an exception: :func:`engine.replay` never raises on bad record content.
Exceptions are for callers that ask for a value that cannot exist (``score_short_result`` with
bad totals, ``Hand.play`` with a card the player does not hold, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IllegalPlay", "InvalidRecord", "Problem"]


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


class InvalidRecord(ValueError):
    """The input cannot describe a real hand; ``problems`` lists every problem found.

    >>> err = InvalidRecord([Problem("totals", "totals must sum to 72")])
    >>> str(err)
    'totals: totals must sum to 72'
    >>> isinstance(err, ValueError)
    True
    """

    def __init__(self, problems: list[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in self.problems))


class IllegalPlay(ValueError):
    """A held card that the rules forbid at this moment (R7, R8): ``rule`` names the obligation."""

    def __init__(self, message: str, *, rule: str, card: int, legal: list[int]) -> None:
        super().__init__(message)
        self.rule = rule
        self.card = card
        self.legal = legal
