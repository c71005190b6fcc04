import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import DatabaseError

from tournaments.models import AuditEntry, BoardResult, Event
from tournaments.rows import insert_all

log = logging.getLogger(__name__)

# The entries of the current request that its transaction's rollback must not undo.
_KEPT: ContextVar[list[AuditEntry] | None] = ContextVar("audit_kept", default=None)


def entry(
    *,
    event: Event,
    actor: str,
    action: str,
    result: BoardResult | None = None,
    changes: dict[str, Any] | None = None,
    note: str = "",
) -> AuditEntry:
    """An audit entry, not yet stored (``record_all`` stores a request's entries at once)."""
    return AuditEntry(
        event=event, result=result, actor=actor, action=action, changes=changes or {}, note=note
    )


def record(**kwargs: Any) -> AuditEntry:
    """Store one audit entry (arguments as ``entry``)."""
    written = entry(**kwargs)
    written.save(force_insert=True)
    return written


def record_kept(**kwargs: Any) -> None:
    """Store an audit entry (arguments as ``entry``) that stays even when the request's
    transaction rolls back: what a refused request is seen doing (a probe of unseen cards).
    Inside :func:`kept_on_rollback` it is stored when that ends; elsewhere now."""
    kept = _KEPT.get()
    if kept is None:
        record(**kwargs)
    else:
        kept.append(entry(**kwargs))


@contextmanager
def kept_on_rollback() -> Iterator[None]:
    """Around a transaction that a refusal rolls back whole (``tournaments.idempotency``): the
    entries of ``record_kept`` are stored once it has ended, committed or rolled back."""
    kept: list[AuditEntry] = []
    token = _KEPT.set(kept)
    try:
        yield
    finally:
        _KEPT.reset(token)
        if kept:
            try:
                record_all(kept)
            except DatabaseError:
                log.error("could not store %d audit entries", len(kept), exc_info=True)


def record_all(entries: list[AuditEntry]) -> None:
    """Store the entries of one change in one statement, in their order."""
    insert_all(entries)


def keep(written: AuditEntry, entries: list[AuditEntry] | None) -> None:
    """Add ``written`` to a request's ``entries`` (stored together later), or store it now."""
    if entries is None:
        record_all([written])
    else:
        entries.append(written)


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    """``{field: [old, new]}`` for every field whose value changed."""
    return {
        key: [before.get(key), after.get(key)]
        for key in sorted(set(before) | set(after))
        if before.get(key) != after.get(key)
    }
