"""What the result and dispute tests play and send: a board's cards played legally or with an
illegal card, the play record of them, and the two sides of a table acting."""

from __future__ import annotations

import random
from typing import Any

from engine import random_play
from tournaments import play as adapter
from tournaments.actors import Actor


def record_for(board: Any, trump: str, cards: list[Any]) -> dict[str, Any]:
    """The play record of ``cards`` played on ``board`` with ``trump``."""
    return adapter.record(board, trump=trump, cards=cards)


def legal_play(board: Any, event: Any, trump: str = "copes", seed: int = 1) -> list[Any]:
    """A whole hand of legal cards, drawn by ``seed``."""
    return random_play(adapter.deal(board), trump, adapter.rules(event), random.Random(seed))


def illegal_play(board: Any, event: Any, trump: str = "copes", seed: int = 1) -> list[Any]:
    """Cards whose last one is illegal (tries seeds from ``seed`` until a hand has one)."""
    rules = adapter.rules(event)
    for s in range(seed, seed + 80):
        cards = random_play(adapter.deal(board), trump, rules, random.Random(s), illegal_at=8)
        if len(cards) < 48:
            return cards
    raise AssertionError("no illegal play found")


def ns(table: Any) -> Actor:
    return Actor(table=table, side="NS")


def ew(table: Any) -> Actor:
    return Actor(table=table, side="EW")
