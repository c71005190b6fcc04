"""The standings snapshots: recomputed from scratch by the standings task (``tasks``)."""

import json
from dataclasses import asdict, fields
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring import types as st
from scoring.butler import butler_after_each
from scoring.standings import compute_standings
from scoring.team_standings import team_standings_after_each_round
from scoring.team_types import TeamMatchResult
from tournaments import webhooks
from tournaments.models import Event, Round, StandingsSnapshot
from tournaments.scoring_io import event_input
from tournaments.stages import stage_view
from tournaments.team_io import butler_results, counted_results, team_event_input


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
    if event.is_team_event:
        return _team_recompute(event, started)
    data = event_input(event)
    snapshots = [
        (rnd.number, {**snapshot_values(data, rnd), "stage": stage_view(data, rnd.number)})
        for rnd in data.rounds
    ]
    return _store_all(event, snapshots, started)


def _store_all(event: Event, snapshots: list[tuple[int, dict[str, Any]]], started: Any) -> int:
    """Store an event's snapshots (after each round, in order), drop any other, stamp the
    event and tell its webhooks which rounds' standings changed. Returns the number of
    results counted."""
    with transaction.atomic():
        before = _stored_snapshots(event)
        changed = []
        for number, values in snapshots:
            stored = before.get(number, {})
            if stored.get("rows") != json.loads(json.dumps(values["rows"])):
                changed.append(number)
            _store_snapshot(event, number, values, stored)
        StandingsSnapshot.objects.filter(event=event).exclude(
            after_round__in=[number for number, _values in snapshots]
        ).delete()
        # Stamp with the start time: a result stored while we ran leaves the standings stale,
        # and its own request has queued the next run.
        Event.objects.filter(pk=event.pk).update(standings_updated_at=started)
        counted = snapshots[-1][1]["results_counted"] if snapshots else 0
        if changed:
            # Which rounds' standings changed, never the standings themselves.
            webhooks.emit(
                event, webhooks.STANDINGS_UPDATED, {"rounds": changed, "results_counted": counted}
            )
    return counted


# What a snapshot holds, with the value of a field a computation leaves out.
_SNAPSHOT_DEFAULTS: dict[str, Any] = {
    "rows": [],
    "matches": [],
    "travellers": {},
    "results_counted": 0,
    "butler": {},
    "stage": {},
}


def _stored_snapshots(event: Event) -> dict[int, dict[str, Any]]:
    """The event's stored snapshots by round: their values, as JSON reads them back."""
    return {
        values.pop("after_round"): values
        for values in StandingsSnapshot.objects.filter(event=event).values(
            "after_round", *_SNAPSHOT_DEFAULTS
        )
    }


def _store_snapshot(event: Event, number: int, values: dict[str, Any], stored: dict) -> None:
    """Write a round's snapshot unless it holds these values already: a closed round's
    standings keep their time stamp (and so their ETag) while the open round's results come
    in, which would otherwise tell anyone watching them when a table stored a result."""
    if stored and all(
        stored.get(key) == json.loads(json.dumps(values.get(key, default)))
        for key, default in _SNAPSHOT_DEFAULTS.items()
    ):
        return
    StandingsSnapshot.objects.update_or_create(event=event, after_round=number, defaults=values)


def _flat(obj: Any) -> dict[str, Any]:
    """A flat dataclass as a dict (``asdict`` deep-copies every value: 4× slower here)."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def _match(m: TeamMatchResult) -> dict[str, Any]:
    return _flat(m) | {"lines": [_flat(line) for line in m.lines]}


def team_snapshot_values(event: Event) -> list[tuple[int, dict[str, Any]]]:
    """A team event's snapshots as they are stored (the event archive reads them too), for
    each open or closed round: the team standings (rows: team ids), the round's match
    scorecards (matches) and the Butler ranking of the pairs (butler: entry ids)."""
    rounds = list(event.rounds.exclude(status=Round.Status.PENDING).order_by("number"))
    loaded = counted_results(rounds)  # one read of every result: the matches and Butler
    data = team_event_input(event, rounds=rounds, results=loaded)
    results = butler_results(event, rounds=rounds, results=loaded)
    numbers = dict(event.entries.values_list("pk", "number"))
    round_of = {b: r.number for r in rounds for b in event.board_numbers(r.number)}
    per_round = [[r for r in results if round_of.get(r.board) == rnd.number] for rnd in rounds]
    standings = team_standings_after_each_round(data)
    butlers = butler_after_each(per_round, numbers=numbers, seed=event.seed)
    out = []
    counted = 0
    for rnd, result, butler, played in zip(data.rounds, standings, butlers, per_round, strict=True):
        counted += len(played)
        out.append(
            (
                rnd.number,
                {
                    "rows": [_flat(s) for s in result.standings],
                    "results_counted": counted,
                    "matches": [_match(m) for m in result.matches if m.round == rnd.number],
                    "travellers": {},
                    "stage": {},
                    "butler": {"rows": [_flat(s) for s in butler.standings]},
                },
            )
        )
    return out


def _team_recompute(event: Event, started: Any) -> int:
    """A team event's snapshots (``team_snapshot_values``), stored."""
    return _store_all(event, team_snapshot_values(event), started)
