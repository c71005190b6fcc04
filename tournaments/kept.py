"""What a refused request leaves behind although its transaction rolls back.

A submission with an ``Idempotency-Key`` runs in one transaction (``tournaments.idempotency``)
that a refusal rolls back whole, so that a corrected retry may use the key. Two things must
survive that rollback: the audit entry of what the request was seen doing (a probe of cards it
may not see) and its attempts against the rate limits when they are counted in the database
(Redis down): otherwise a key would erase the trace of a probe, or give a code guesser a
fresh budget.

:func:`scope` surrounds such a transaction. Inside it, :func:`after` defers work to when the
transaction has ended, whatever its outcome, and :func:`redo_if_rolled_back` repeats a write
that the rollback undid. Outside any scope both run at once, in whatever transaction there is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.db import DatabaseError

log = logging.getLogger(__name__)


@dataclass
class Scope:
    # Whether the transaction rolled back: the owner says so when it commits; an exception
    # leaves it True.
    rolled_back: bool = True
    _after: list[Callable[[], None]] = field(default_factory=list)
    _redo: list[Callable[[], None]] = field(default_factory=list)


_SCOPE: ContextVar[Scope | None] = ContextVar("kept_scope", default=None)


def after(work: Callable[[], None]) -> None:
    """Run ``work`` once the scope's transaction has ended (now, outside a scope)."""
    current = _SCOPE.get()
    if current is None:
        work()
    else:
        current._after.append(work)


def redo_if_rolled_back(work: Callable[[], None]) -> None:
    """``work`` was just done inside the scope's transaction: do it again if that rolls back."""
    current = _SCOPE.get()
    if current is not None:
        current._redo.append(work)


@contextmanager
def scope() -> Iterator[Scope]:
    current = Scope()
    token = _SCOPE.set(current)
    try:
        yield current
    finally:
        _SCOPE.reset(token)
        work = current._after + (current._redo if current.rolled_back else [])
        for item in work:
            try:
                item()
            except DatabaseError:
                log.error("could not keep what a refused request did", exc_info=True)
