from typing import Any

from tournaments.models import AuditEntry, BoardResult, Event


def record(
    *,
    event: Event,
    actor: str,
    action: str,
    result: BoardResult | None = None,
    changes: dict[str, Any] | None = None,
    note: str = "",
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event, result=result, actor=actor, action=action, changes=changes or {}, note=note
    )


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    """``{field: [old, new]}`` for every field whose value changed."""
    return {
        key: [before.get(key), after.get(key)]
        for key in sorted(set(before) | set(after))
        if before.get(key) != after.get(key)
    }
