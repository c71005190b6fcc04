"""The standings snapshots: recomputed from scratch by the standings task (``tasks``)."""

import json
from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring import types as st
from scoring.standings import compute_standings
from tournaments import webhooks
from tournaments.models import Event, StandingsSnapshot
from tournaments.scoring_io import event_input
from tournaments.stages import stage_view


def _rows(result: st.StandingsResult) -> list[dict[str, Any]]:
    return [asdict(s) for s in result.standings]


def snapshot_values(data: st.EventInput, rnd: st.RoundInput) -> dict[str, Any]:
    """The standings after ``rnd`` as a snapshot stores them (the event archive reads them
    too): rows, the round's matches and travellers, the results counted."""
    result = compute_standings(data, after_round=rnd.number)
    return {
        "rows": _rows(result),
        "results_counted": sum(
            len(t.results) for r in data.rounds if r.number <= rnd.number for t in r.tables
        ),
        "matches": [asdict(m) for m in result.matches if m.round == rnd.number],
        "travellers": {
            str(board): asdict(trav)
            for board, trav in result.travellers.items()
            if board in rnd.boards
        },
    }


def standings_recompute(event_id: int) -> int:
    """Recompute every round's snapshot from scratch; returns the number of results counted."""
    started = timezone.now()
    event = Event.objects.get(pk=event_id)
    data = event_input(event)
    counted = 0
    with transaction.atomic():
        before = dict(
            StandingsSnapshot.objects.filter(event=event).values_list("after_round", "rows")
        )
        changed = []
        for rnd in data.rounds:
            values = snapshot_values(data, rnd)
            counted = values["results_counted"]
            if before.get(rnd.number) != json.loads(json.dumps(values["rows"])):
                changed.append(rnd.number)
            StandingsSnapshot.objects.update_or_create(
                event=event,
                after_round=rnd.number,
                defaults={**values, "stage": stage_view(data, rnd.number)},
            )
        StandingsSnapshot.objects.filter(event=event).exclude(
            after_round__in=[r.number for r in data.rounds]
        ).delete()
        # Stamp with the start time: a result stored while we ran leaves the standings stale,
        # and its own request has queued the next run.
        Event.objects.filter(pk=event_id).update(standings_updated_at=started)
        if changed:
            # Which rounds' standings changed, never the standings themselves.
            webhooks.emit(
                event, webhooks.STANDINGS_UPDATED, {"rounds": changed, "results_counted": counted}
            )
    return counted
