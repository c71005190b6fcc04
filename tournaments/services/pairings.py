"""Proposing a round's pairings by the event's method (the organiser accepts or changes them).

One implementation: the pure ``scoring.methods.next_pairing`` pairs every method (Swiss with its
acceleration and prohibited pairings, round robin, groups then knockout) from the event's
results as ``scoring_io.event_input`` reads them; this module only stores what it proposes.
"""

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.methods import next_pairing
from tournaments.actors import Actor
from tournaments.models import Event, Round
from tournaments.scoring_io import event_input, pairing_gate
from tournaments.services import Conflict, ServiceError
from tournaments.services.events import (
    not_pending,
    require_status,
    round_active_entries,
    round_propose,
)
from tournaments.services.late_entries import late_entries_refused
from tournaments.services.teams import team_round_store
from tournaments.team_io import team_pairing_input


@dataclass(frozen=True)
class Outlook:
    """A round not proposed yet, as the event's method sees it."""

    exists: bool  # the method has it (a round robin or a knockout may end sooner)
    no_table: str | None = None  # why it would have no table: proposing it is refused so


def round_outlook(event: Event, round_number: int) -> Outlook:
    """Round ``round_number`` after the rounds before it, for the dashboard's next step. A
    Swiss always has it (up to the event's rounds) and seats every pair still playing: they
    are counted, not paired; a round robin or groups then knockout may end sooner (a final
    reached before the rounds planned for a repesca, withdrawals), or leave a round with no
    table."""
    if event.format == Event.Format.SWISS:
        playing = (
            event.teams.filter(withdrawn_after_round__isnull=True).count()
            if event.is_team_event
            else len(round_active_entries(event, round_number))
        )
        return Outlook(True, _no_table(event, round_number, playing) if playing < 2 else None)
    if _late_entry_in_fixed_schedule(event):
        return Outlook(True)  # proposing it says why it cannot be paired (pairings_propose)
    played = list(event.rounds.filter(number__lt=round_number).order_by("number"))
    data = _pairing_input(event, played)
    try:
        pairing = next_pairing(data)
    except ValueError:
        return Outlook(False)
    if pairing.tables:
        return Outlook(True)
    return Outlook(True, _no_table(event, round_number, len(data.active(round_number))))


def _no_table(event: Event, round_number: int, playing: int) -> str:
    if event.is_team_event:
        message = _(
            "Fewer than two teams are still playing: round %(n)s has no match. Reinstate "
            "a withdrawn team or finish the event."
        )
    elif playing < 2:
        message = _(
            "Fewer than two pairs are still playing: round %(n)s has no table. Reinstate "
            "a withdrawn pair, take back a bye request, or finish the event."
        )
    else:
        # A round robin's or a group's round whose every table lost a pair (withdrawn, or
        # sitting the round out at its request): the schedule cannot skip it.
        message = _(
            "Round %(n)s has no table: at each of its tables a pair has withdrawn or asked "
            "for a bye. Reinstate a withdrawn pair, take back a bye request, or finish the event."
        )
    return message % {"n": round_number}


def _pairing_input(event: Event, played: list[Round]) -> Any:
    """One pairing for both kinds of competitor: pairs, or teams ranked by their VPs."""
    if event.is_team_event:
        return team_pairing_input(event, rounds=played)
    return event_input(event, rounds=played)


def _late_entry_in_fixed_schedule(event: Event) -> bool:
    """A pair added after the start of a round robin or groups, stored before such late
    entries were refused: its schedule may not exist."""
    return (
        not event.is_team_event
        and late_entries_refused(event)
        and event.entries.filter(joins_round__isnull=False).exists()
    )


def pairings_propose(
    event_id: int, round_number: int, *, actor: Actor | None = None, replace: bool = True
) -> int:
    """Propose the pairings of ``round_number`` (stored as a pending round); the number of its
    tables (team events: matches).

    ``actor`` is the organiser asking (checked and audited); None when the system proposes.
    With ``replace`` false a round that exists already (proposed by hand meanwhile, perhaps
    changed) is left as it is, and 0 is answered.
    """
    event = Event.objects.get(pk=event_id)
    existing = event.rounds.filter(number=round_number).first()
    if existing is not None and not replace:
        return 0
    require_status(event, Event.Status.RUNNING, doing=_("pair a round"))
    if existing is not None and existing.status != Round.Status.PENDING:
        raise not_pending(existing)  # before pairing it anew (proposal_round checks again)
    if not 1 <= round_number <= event.rounds_count:
        raise ServiceError(
            ngettext(
                "This event has %(n)s round.", "This event has %(n)s rounds.", event.rounds_count
            )
            % {"n": event.rounds_count},
            field="round",
        )
    missing = pairing_gate(event, round_number)
    if missing:
        raise Conflict(
            _("Results are missing or unconfirmed at tables %(t)s.")
            % {"t": ", ".join(str(t.number) for t in missing)},
            field="results",
        )
    played = list(event.rounds.filter(number__lt=round_number).order_by("number"))
    data = _pairing_input(event, played)
    try:
        pairing = next_pairing(data)
    except ValueError as exc:
        if _late_entry_in_fixed_schedule(event):
            raise ServiceError(
                _(
                    "Round %(n)s cannot be paired: a pair was added after the start, and this "
                    "event's round robin or groups cannot be drawn with it."
                )
                % {"n": round_number},
                field="round",
            ) from exc
        # The method has no such round (the round robin or the knockout is over).
        raise ServiceError(
            _("The pairing method has no round %(n)s for this event.") % {"n": round_number},
            field="round",
        ) from exc
    if not pairing.tables:
        # A round of rests or a bye only could never open.
        raise Conflict(
            _no_table(event, round_number, len(data.active(round_number))), field="round"
        )
    if event.is_team_event:
        rnd = team_round_store(
            event=event,
            actor=actor,
            number=round_number,
            matches=pairing.tables,
            bye=pairing.bye,
            replace=replace,
        )
        return rnd.team_matches.count()
    rnd = round_propose(
        event=event,
        actor=actor,
        number=round_number,
        tables=pairing.tables,
        bye=pairing.bye,
        rests=pairing.rests,
        replace=replace,
    )
    return rnd.tables.count()
