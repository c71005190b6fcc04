"""Proposing a round's pairings from the standings (the organiser accepts or changes them)."""

from django.utils.translation import gettext as _

from scoring.pairing import pair_next_round
from tournaments.actors import Actor
from tournaments.models import Event
from tournaments.scoring_io import event_input, pairing_gate
from tournaments.services import Conflict
from tournaments.services.events import round_propose


def pairings_propose(event_id: int, round_number: int, *, actor: Actor | None = None) -> int:
    """Propose the pairings of ``round_number`` (stored as a pending round).

    ``actor`` is the organiser asking (checked and audited); None when the system proposes.
    """
    event = Event.objects.get(pk=event_id)
    missing = pairing_gate(event, round_number)
    if missing:
        raise Conflict(
            _("Results are missing or unconfirmed at tables %(t)s.")
            % {"t": ", ".join(str(t.number) for t in missing)},
            field="results",
        )
    played = list(event.rounds.filter(number__lt=round_number).order_by("number"))
    pairing = pair_next_round(event_input(event, rounds=played))
    rnd = round_propose(
        event=event, actor=actor, number=round_number, tables=pairing.tables, bye=pairing.bye
    )
    return rnd.tables.count()
