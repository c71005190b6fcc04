"""The round's clock: the organiser starts, pauses, resumes and extends it (each audited); at
time, each table says during which deal time was called, and its later boards are not played.
"""

from __future__ import annotations

import datetime
import math

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.actors import Actor
from tournaments.clock import NONE, NOT_STARTED, OVER, PAUSED, RUNNING, round_clock
from tournaments.models import BoardResult, Round, Table
from tournaments.services import NotAllowed, ServiceError, audit
from tournaments.services.events import require_organiser
from tournaments.services.results import codes_renewed

MAX_MINUTES = 600


def _minutes(value: int | None, *, field: str) -> int:
    if value is None or not 1 <= value <= MAX_MINUTES:
        raise ServiceError(
            _("Give a whole number of minutes from 1 to %(max)s.") % {"max": MAX_MINUTES},
            field=field,
        )
    return value


def _locked_open_round(rnd: Round) -> Round:
    # Row lock: two organisers pressing Pause and Extend at once must not lose either.
    rnd = (
        Round.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=rnd.pk)
    )
    if rnd.status != Round.Status.OPEN:
        raise ServiceError(_("The clock runs only while its round is open."), field="round")
    return rnd


def _record(rnd: Round, actor: Actor, action: str, **changes: object) -> None:
    audit.record(
        event=rnd.event,
        actor=actor.label,
        action=action,
        changes={"round": [None, rnd.number], **{k: [None, v] for k, v in changes.items()}},
    )


def clock_start(
    *, rnd: Round, actor: Actor, minutes: int | None = None, now: datetime.datetime | None = None
) -> Round:
    """Start the round's clock (the event's time per round unless ``minutes`` is given), or
    resume it where it was paused."""
    require_organiser(rnd.event, actor)
    now = now or timezone.now()
    with transaction.atomic():
        rnd = _locked_open_round(rnd)
        state = round_clock(rnd, now=now).state
        if state in (RUNNING, OVER):
            raise ServiceError(_("The clock is already running."), field="clock")
        if state == PAUSED:
            assert rnd.clock_left is not None
            rnd.clock_ends_at = now + datetime.timedelta(seconds=rnd.clock_left)
            rnd.clock_left = None
            action, value = "clock_resumed", None
        else:
            given = minutes if minutes is not None else rnd.event.round_minutes
            value = _minutes(given, field="minutes")
            rnd.clock_ends_at = now + datetime.timedelta(minutes=value)
            action = "clock_started"
        rnd.save(update_fields=["clock_ends_at", "clock_left"])
        _record(rnd, actor, action, ends_at=rnd.clock_ends_at.isoformat(), minutes=value)
    return rnd


def clock_pause(*, rnd: Round, actor: Actor, now: datetime.datetime | None = None) -> Round:
    """Stop the clock, keeping the time left (an incident, a break)."""
    require_organiser(rnd.event, actor)
    now = now or timezone.now()
    with transaction.atomic():
        rnd = _locked_open_round(rnd)
        clock = round_clock(rnd, now=now)
        if clock.state != RUNNING:
            raise ServiceError(_("Only a running clock can be paused."), field="clock")
        rnd.clock_left = clock.seconds_left
        rnd.clock_ends_at = None
        rnd.save(update_fields=["clock_ends_at", "clock_left"])
        _record(rnd, actor, "clock_paused", seconds_left=clock.seconds_left)
    return rnd


def clock_extend(
    *, rnd: Round, actor: Actor, minutes: int | None, now: datetime.datetime | None = None
) -> Round:
    """Give the round more time: a running clock ends later (one that was over runs again from
    now), a paused one keeps more."""
    require_organiser(rnd.event, actor)
    value = _minutes(minutes, field="minutes")
    now = now or timezone.now()
    with transaction.atomic():
        rnd = _locked_open_round(rnd)
        state = round_clock(rnd, now=now).state
        if state in (NONE, NOT_STARTED):
            raise ServiceError(_("Start the clock first."), field="clock")
        if state == PAUSED:
            assert rnd.clock_left is not None
            rnd.clock_left += value * 60
        else:
            assert rnd.clock_ends_at is not None
            rnd.clock_ends_at = max(rnd.clock_ends_at, now) + datetime.timedelta(minutes=value)
        rnd.save(update_fields=["clock_ends_at", "clock_left"])
        _record(rnd, actor, "clock_extended", minutes=value)
    return rnd


def deal_in_progress(table: Table) -> int:
    """The deal a table is playing: the one after the last board it has a result for (1-based
    in the round's order), at most the round's last."""
    numbers = list(table.round.board_numbers)
    entered = set(BoardResult.objects.filter(table=table).values_list("board__number", flat=True))
    last = max((i for i, n in enumerate(numbers, start=1) if n in entered), default=0)
    return min(last + 1, len(numbers))


def table_time_called(
    *, table: Table, actor: Actor, deal: int, now: datetime.datetime | None = None
) -> Table:
    """Record the deal during which time was called at ``table`` (1 = the round's first board).

    The table's pairs say it once the round's clock is over; an organiser or referee may set
    or correct it at any time while the round is open. That deal is finished and entered; the
    later boards are not played and any result entered for them does not count.
    """
    event = table.round.event
    now = now or timezone.now()
    staff = actor.is_referee(event)
    if not staff and actor.side_at(table) is None:
        raise NotAllowed(_("You do not sit at this table."))
    boards = list(table.round.board_numbers)
    if not 1 <= deal <= len(boards):
        raise ServiceError(
            _("The deal must be from 1 to %(n)s.") % {"n": len(boards)}, field="deal"
        )
    let_in_with = table.codes_version
    with transaction.atomic():
        table = (
            Table.objects.select_for_update(of=("self",), no_key=True)
            .select_related("round__event")
            .get(pk=table.pk)
        )
        if not staff and table.codes_version != let_in_with:
            raise codes_renewed()
        rnd = table.round
        # The round's status in a statement of its own, after the table's lock: the join above
        # read the round as it was before the wait, and a close or an un-open holds every
        # table's lock while it changes it.
        rnd.status = Round.objects.filter(pk=rnd.pk).values_list("status", flat=True).get()
        if rnd.status != Round.Status.OPEN:
            raise ServiceError(
                _("Round %(n)s is not open for results.") % {"n": rnd.number}, field="round"
            )
        if not staff:
            if round_clock(rnd, now=now).state != OVER:
                raise ServiceError(_("Time has not been called yet."), field="deal")
            if table.time_after is not None:
                raise ServiceError(
                    _("This table has already said when time was called; ask the referee."),
                    field="deal",
                )
        later = (
            BoardResult.objects.filter(table=table, board__number__in=boards[deal:])
            .order_by("board__number")
            .values_list("board__number", flat=True)
            .first()
        )
        if later is not None:
            raise ServiceError(
                _(
                    "Board %(b)s already has a result: time cannot have been called before it. "
                    "Choose a later deal, or ask the referee."
                )
                % {"b": later},
                field="deal",
            )
        before = table.time_after
        table.time_after = deal
        table.time_declared_at = now
        table.save(update_fields=["time_after", "time_declared_at"])
        audit.record(
            event=event,
            actor=actor.label,
            action="table_time_called",
            changes={"table": [None, table.number], "time_after": [before, deal]},
            note=_("Round %(n)s") % {"n": rnd.number},
        )
        queue.request_standings(event)
    return table


def minutes_after(moment: datetime.datetime, deadline: datetime.datetime) -> int:
    return max(0, math.ceil((moment - deadline).total_seconds() / 60))
