"""Writes: every change of an event, its rounds and results goes through these functions."""

from typing import TypeVar

from django.db.models import Model, QuerySet

from tournaments.jsonio import nul_message
from tournaments.models import Event

M = TypeVar("M", bound=Model)


class ServiceError(Exception):
    """A request the current state refuses; the message says why, for a person."""

    status = 400  # the HTTP status a page answers it with

    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class Conflict(ServiceError):
    """The thing already exists or changed meanwhile (HTTP 409)."""

    status = 409

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message, field=field, code="conflict")


class NotAllowed(ServiceError):
    """The actor may not do this (HTTP 403)."""

    status = 403

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message, field=field, code="forbidden")


def stated_reason(reason: str, *, missing: str) -> str:
    """A reason a person typed, stripped: refused when empty (``missing`` says what to write) or
    when it holds a NUL character, which PostgreSQL's text columns cannot store (the pages that
    send a reason without a Django form, whose fields refuse it, rely on this)."""
    text = reason.strip()
    if not text:
        raise ServiceError(missing, field="reason")
    if "\x00" in text:
        raise ServiceError(nul_message("reason"), field="reason")
    return text


def lock_event(pk: int) -> Event:
    """The event's row, locked ``FOR NO KEY UPDATE`` until the transaction ends: taken first by
    every change that must not cross another change of the event (a round proposed, opened,
    reopened or closed; a withdrawal, a late entry, a bye request; a sign-up, a check-in; a
    role), so that two of them wait for each other instead of deadlocking."""
    return Event.objects.select_for_update(of=("self",), no_key=True).get(pk=pk)


def relock(rows: QuerySet[M], pk: int, *, gone: str, field: str) -> M:
    """Row ``pk`` of ``rows``, locked ``FOR NO KEY UPDATE`` until the transaction ends and read
    under the lock. A change that waited for another (most take the event's lock first) may
    find the row removed meanwhile — a pair withdrawn before the start, a proposal dropped, a
    webhook deleted —: that is a ``Conflict`` saying ``gone``, not a 500."""
    row = rows.select_for_update(of=("self",), no_key=True).filter(pk=pk).first()
    if row is None:
        raise Conflict(gone, field=field)
    return row
