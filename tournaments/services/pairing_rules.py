"""What the pairing reads besides the results: prohibited pairings and seeding ratings.

The pairing method and its options are event options (``events.event_update``); the pairs of
the same club come from the pairs' clubs. Every change is audited.
"""

from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.actors import Actor
from tournaments.models import Entry, Event, ForbiddenPair
from tournaments.services import ServiceError, audit
from tournaments.services.events import require_organiser, require_pairs_event, require_status

MAX_RATING = 99999


def _require_unfinished(event: Event) -> None:
    require_status(
        event,
        Event.Status.DRAFT,
        Event.Status.REGISTRATION,
        Event.Status.RUNNING,
        doing=_("change the prohibited pairings"),
    )


def forbidden_add(*, event: Event, actor: Actor, a: int, b: int) -> ForbiddenPair:
    """Two pairs of the event (entry ids) that the pairing never seats at one table.

    Allowed while the event has not finished; it applies to the rounds proposed after it.
    Not in a team event: its matches pair teams, not pairs; nor in a round robin or groups,
    whose every round is drawn at the start.
    """
    require_organiser(event, actor)
    require_pairs_event(event)
    _require_unfinished(event)
    if event.format != Event.Format.SWISS:
        raise ServiceError(
            _(
                "Only the Swiss keeps two pairs apart: a round robin or groups draw every round "
                "from the lot at the start."
            ),
            field="format",
        )
    if a == b:
        raise ServiceError(_("Choose two different pairs."), field="pairs")
    entries = {e.pk: e for e in event.entries.filter(pk__in=(a, b)).select_related("pair")}
    if len(entries) != 2:
        raise ServiceError(_("That is not a pair of this event."), field="pairs")
    low, high = sorted((a, b))
    try:
        with transaction.atomic():
            pair = ForbiddenPair.objects.create(
                event=event, low=entries[low], high=entries[high], created_by=actor.label
            )
    except IntegrityError as exc:  # the unique constraint: two organisers at once, or a repeat
        raise ServiceError(
            _("%(a)s and %(b)s are already kept apart.") % {"a": entries[low], "b": entries[high]},
            field="pairs",
        ) from exc
    audit.record(
        event=event,
        actor=actor.label,
        action="forbidden_pair_added",
        changes={"forbidden": [None, [str(entries[low]), str(entries[high])]]},
    )
    return pair


def forbidden_remove(*, pair: ForbiddenPair, actor: Actor) -> None:
    """Let two pairs meet again, while the event has not finished (as :func:`forbidden_add`:
    once finished, the tournament file keeps the prohibitions the rounds were paired with)."""
    event = pair.event
    require_organiser(event, actor)
    _require_unfinished(event)
    with transaction.atomic():
        names = [str(pair.low), str(pair.high)]
        deleted, _rows = ForbiddenPair.objects.filter(pk=pair.pk).delete()
        if not deleted:
            return  # removed meanwhile (the same tap twice): one change, one record
        audit.record(
            event=event,
            actor=actor.label,
            action="forbidden_pair_removed",
            changes={"forbidden": [names, None]},
        )


def ratings_set(*, event: Event, actor: Actor, ratings: Mapping[int, int | None]) -> int:
    """Set the pairs' seeding ratings (entry id -> rating, None to clear) before the event
    starts (they decide round 1 and the groups). Returns how many changed."""
    require_organiser(event, actor)
    require_status(
        event, Event.Status.DRAFT, Event.Status.REGISTRATION, doing=_("change the ratings")
    )
    for value in ratings.values():
        if value is not None and not 0 <= value <= MAX_RATING:
            raise ServiceError(
                _("A rating is a whole number from 0 to %(max)s.") % {"max": MAX_RATING},
                field="ratings",
            )
    changed = 0
    with transaction.atomic():
        for entry in Entry.objects.select_for_update(of=("self",), no_key=True).filter(
            event=event, pk__in=list(ratings)
        ):
            new = ratings[entry.pk]
            if entry.rating == new:
                continue
            audit.record(
                event=event,
                actor=actor.label,
                action="rating_set",
                changes={"rating": [entry.rating, new], "entry": [None, str(entry)]},
            )
            entry.rating = new
            entry.save(update_fields=["rating"])
            changed += 1
    return changed
