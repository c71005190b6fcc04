from typing import Any

from django.utils.translation import ngettext

from tournaments import kept
from tournaments.models import AuditEntry, BoardResult, Event
from tournaments.rows import insert_all


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
    transaction rolls back (``tournaments.kept``): what a refused request is seen doing, such
    as a probe of cards it may not see."""
    written = entry(**kwargs)
    kept.after(lambda: record_all([written]))


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


def revoked_note(count: int) -> str:
    """The note of an entry that gave a table new codes, in the actor's language."""
    return ngettext("%(n)s token revoked", "%(n)s tokens revoked", count) % {"n": count}
