"""An event's places for sign-ups: whether its cap is reached, and the waiting list moving up in
the order the pairs signed up (a matched pair: when it was matched), each pair moved up told by e-mail. Used by the sign-ups
(``registrations``: a withdrawal frees a place) and by a change of the cap
(``events.event_update``)."""

from tournaments import queue
from tournaments.models import Event, Registration

PROMOTED = "promoted"  # the registration e-mail that says a place is the pair's (mailings)
WITHDRAWN = "withdrawn"  # the one that says its registration is withdrawn


def is_full(event: Event) -> bool:
    taken = event.registrations.filter(status=Registration.Status.CONFIRMED).count()
    return event.registration_cap is not None and taken >= event.registration_cap


def promote_first_waiting(event: Event) -> None:
    waiting = event.registrations.filter(status=Registration.Status.WAITING).order_by(
        "paired_at", "pk"
    )
    first = waiting.first()
    if first is not None:
        first.status = Registration.Status.CONFIRMED
        first.save(update_fields=["status"])
        queue.registration_email(first, PROMOTED)


def withdraw(registration: Registration, event: Event) -> None:
    """The sign-up is withdrawn and the pair told, and a place it held goes to the first pairs
    waiting, within the cap as it is now (the organiser may have lowered it meanwhile); the
    caller holds the event's row lock."""
    had_place = registration.status == Registration.Status.CONFIRMED
    registration.status = Registration.Status.WITHDRAWN
    registration.save(update_fields=["status"])
    queue.registration_email(registration, WITHDRAWN)
    if had_place:
        promote_within_cap(event)


def promote_within_cap(event: Event) -> None:
    """Confirm waiting pairs, in the order they signed up, while the cap leaves places (after
    the organiser raised or removed it); the caller holds the event's row lock."""
    while (
        not is_full(event)
        and event.registrations.filter(status=Registration.Status.WAITING).exists()
    ):
        promote_first_waiting(event)
