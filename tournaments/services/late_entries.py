"""Late entries and requested byes: a pair that joins a running event from a round on, and a
pair that asks to sit a round out. Both score what the event's options say (docs/organisers.md
"Late entries and requested byes"); both only touch rounds not opened yet, and drop a proposed
pairing of such a round, which is proposed again with or without the pair.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from scoring.groups import group_rounds_of
from tournaments import queue, scoring_io
from tournaments.actors import Actor
from tournaments.models import ByeRequest, Entry, Event, Round
from tournaments.services import Conflict, ServiceError, audit, lock_event, relock
from tournaments.services.events import (
    PairBatch,
    entry_create,
    new_pair,
    pair_gone,
    registered_pairs,
    require_organiser,
    require_pairs_event,
    require_registration,
    require_status,
)


def next_unopened_round(event: Event) -> int:
    """The first round that is not open or closed yet (a late entry joins there)."""
    played = event.rounds.exclude(status=Round.Status.PENDING).aggregate(m=Max("number"))["m"]
    return (played or 0) + 1


def late_entries_refused(event: Event) -> str:
    """Why ``event`` takes no late entry ("" when it takes one): a round robin and groups then
    knockout draw every round from the pairs entered at the start (the Berger table, the snake
    groups, the number of rounds and the boards dealt), so a pair added while the event runs would
    re-draw a schedule already under way."""
    if event.format == Event.Format.ROUND_ROBIN:
        return _(
            "A round robin takes no late entry: its rounds and its boards were drawn from the "
            "pairs entered before the start."
        )
    if event.format == Event.Format.GROUPS:
        return _(
            "An event of groups then knockout takes no late entry: its groups, its rounds and its "
            "boards were drawn from the pairs entered before the start."
        )
    return ""


def _proposal(event: Event, number: int) -> QuerySet[Round]:
    """Round ``number`` while it is only proposed (paired, not opened)."""
    return event.rounds.filter(number=number, status=Round.Status.PENDING)


def proposal_pending(event: Event, number: int) -> bool:
    """Whether round ``number`` has a proposed pairing that a change would drop: the pages ask
    first."""
    return _proposal(event, number).exists()


def _drop_proposal(event: Event, number: int) -> bool:
    """Delete a proposed (not opened) pairing of round ``number``; whether there was one."""
    return _proposal(event, number).delete()[0] > 0


def _late_entry_round(event: Event) -> int:
    """The round a late entry joins ``event`` at (as read under its lock), or the Conflict
    that refuses every late entry now."""
    require_status(event, Event.Status.RUNNING, doing=_("register a late entry"))
    refused = late_entries_refused(event)
    if refused:
        raise Conflict(refused, field="format")
    joins = next_unopened_round(event)
    if joins > event.rounds_count:
        raise Conflict(
            _("Every round has started: a late entry has no round left to play."), field="round"
        )
    return joins


def require_taking_pairs(event: Event, actor: Actor) -> None:
    """Refuse at once what would refuse every pair of a batch (the checks of the event in
    :func:`entry_register` and :func:`late_entry_register`, ``event`` as read under the batch's
    lock), so a batch hears it before its pairs' own problems."""
    if event.status != Event.Status.RUNNING:
        require_registration(event, actor)
        return
    require_organiser(event, actor)
    require_pairs_event(event)
    _late_entry_round(event)


def late_entry_register(
    *,
    event: Event,
    actor: Actor,
    player1: str,
    player2: str,
    name: str = "",
    club: str = "",
    batch: PairBatch | None = None,
) -> Entry:
    """Register a pair after the start: it plays from the next round not opened yet and starts
    with the event's late-entry match points. A Swiss only (:func:`late_entries_refused`). Many
    pairs share one ``batch`` (``entry_create``)."""
    require_organiser(event, actor)
    require_pairs_event(event)
    with transaction.atomic():
        joins = _late_entry_round(lock_event(event.pk))  # a finish meanwhile is seen here
        dropped = _drop_proposal(event, joins)
        entry = entry_create(
            event=event,
            actor=actor,
            player1=player1,
            player2=player2,
            name=name,
            club=club,
            joins_round=joins,
            batch=batch,
            dropped_proposal=joins if dropped else None,
        )
        queue.request_standings(event)
    return entry


def _is_knockout_round(event: Event, number: int) -> bool:
    """Whether round ``number`` of a groups-then-knockout event comes after the group rounds
    (counted from the pairs entered now: an event takes no late entry once it has started)."""
    if event.format != Event.Format.GROUPS:
        return False
    try:
        return number > group_rounds_of(event.entries.count(), event.group_size)
    except ValueError:  # fewer than 2 pairs yet: no groups to count
        return False


def last_round(event: Event) -> int:
    """The event's last round: before a round robin or groups start, the one the pairs entered
    now make (the start sets the number of rounds so, ``events.event_start``)."""
    if event.status != Event.Status.RUNNING and event.format != Event.Format.SWISS:
        try:
            return scoring_io.rounds_planned(event)
        except ValueError:  # these pairs cannot be paired yet: the start says why
            pass
    return event.rounds_count


def bye_request_add(*, entry: Entry, actor: Actor, round_number: int) -> ByeRequest:
    """``entry`` sits out ``round_number`` (a round not opened yet) and scores the event's
    requested-bye match points for it."""
    require_organiser(entry.event, actor)
    require_pairs_event(entry.event)  # a team's pairs sit out by its line-up
    try:
        with transaction.atomic():
            # Checked under the event's lock: a round opened or the pair withdrawn meanwhile
            # would leave a bye in a round the pair plays, or one a withdrawal cancelled.
            event = lock_event(entry.event_id)
            entry = relock(Entry.objects, entry.pk, gone=pair_gone(), field="pair")
            _check_bye_round(event, entry, round_number)
            request = ByeRequest.objects.create(
                entry=entry, round_number=round_number, created_by=actor.label
            )
            dropped = _drop_proposal(event, round_number)
            audit.record(
                event=event,
                actor=actor.label,
                action="bye_requested",
                changes={
                    "entry": [None, entry.number],
                    "round": [None, round_number],
                    "dropped_proposal": [round_number if dropped else None, None],
                },
            )
    except IntegrityError:
        raise ServiceError(
            _("This pair already sits out round %(n)s.") % {"n": round_number}, field="round"
        ) from None
    return request


def bye_request_check(*, entry: Entry, round_number: int) -> None:
    """Refuse as :func:`bye_request_add` would, changing nothing: the page asks only about a
    request it can record."""
    require_pairs_event(entry.event)
    _check_bye_round(entry.event, entry, round_number)
    if ByeRequest.objects.filter(entry=entry, round_number=round_number).exists():
        raise ServiceError(
            _("This pair already sits out round %(n)s.") % {"n": round_number}, field="round"
        )


def late_entry_check(
    *, event: Event, player1: str, player2: str, name: str = "", club: str = ""
) -> None:
    """Refuse a late entry as :func:`late_entry_register` would for this pair, changing
    nothing: the page asks only about a late entry it can register."""
    require_pairs_event(event)
    new_pair(player1, player2, name, club, registered=registered_pairs(event))


def late_entry_possible(event: Event) -> bool:
    """Whether ``event`` takes a late entry now (the service says why not when it does not)."""
    return (
        event.status == Event.Status.RUNNING
        and not late_entries_refused(event)
        and next_unopened_round(event) <= event.rounds_count
    )


def _check_bye_round(event: Event, entry: Entry, round_number: int) -> None:
    require_status(
        event, Event.Status.REGISTRATION, Event.Status.RUNNING, doing=_("record a requested bye")
    )
    first, last = next_unopened_round(event), last_round(event)
    if not first <= round_number <= last:
        raise ServiceError(
            _("Choose a round from %(a)s to %(b)s: the others have started or do not exist.")
            % {"a": first, "b": last},
            field="round",
        )
    if entry.withdrawn:
        raise ServiceError(_("This pair has withdrawn."), field="entry")
    if _is_knockout_round(event, round_number):
        raise ServiceError(
            _(
                "Round %(n)s is a knockout round: a pair that does not play it is out of the "
                "event. If the pair cannot play it, withdraw it."
            )
            % {"n": round_number},
            field="round",
        )
    if entry.joins_round is not None and round_number < entry.joins_round:
        raise ServiceError(
            _("This pair joins at round %(n)s.") % {"n": entry.joins_round}, field="round"
        )


def bye_request_remove(*, request: ByeRequest, actor: Actor) -> None:
    """Take back a requested bye of a round not opened yet."""
    entry = request.entry
    require_organiser(entry.event, actor)
    with transaction.atomic():
        event = lock_event(entry.event_id)  # a round opening meanwhile keeps its byes
        if request.round_number < next_unopened_round(event):
            raise ServiceError(
                _("Round %(n)s has started: its requested byes stay.")
                % {"n": request.round_number},
                field="round",
            )
        number = request.round_number
        deleted, _rows = ByeRequest.objects.filter(pk=request.pk).delete()
        if not deleted:  # taken back meanwhile, or cancelled by a withdrawal
            return
        dropped = _drop_proposal(event, number)
        audit.record(
            event=event,
            actor=actor.label,
            action="bye_request_removed",
            changes={
                "entry": [entry.number, None],
                "round": [number, None],
                "dropped_proposal": [number if dropped else None, None],
            },
        )
