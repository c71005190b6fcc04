"""Writes: every change of an event, its rounds and results goes through these functions."""


class ServiceError(Exception):
    """A request the current state refuses; the message says why, for a person."""

    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class Conflict(ServiceError):
    """The thing already exists or changed meanwhile (HTTP 409)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message, field=field, code="conflict")


class NotAllowed(ServiceError):
    """The actor may not do this (HTTP 403)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message, field=field, code="forbidden")
