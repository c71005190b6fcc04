"""The one place where the database meets the scoring algorithms.

Loads an event's counted results into plain ``scoring.types`` objects, runs the pure functions,
and stores what they compute (standings snapshots, proposed pairings).
"""

from dataclasses import asdict
from typing import Any

from django.db import models, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import types as st
from scoring.pairing import history_from, pair_next_round, swap_warnings
from scoring.standings import compute_standings
from tournaments.actors import Actor
from tournaments.models import BoardResult, Event, Round, StandingsSnapshot, Table
from tournaments.services import ServiceError


def event_input(event: Event, *, rounds: list[Round] | None = None) -> st.EventInput:
    """Every counted result of the event's open and closed rounds, as plain objects."""
    if rounds is None:
        rounds = list(event.rounds.exclude(status=Round.Status.PENDING).order_by("number"))
    tables = Table.objects.filter(round__in=rounds).order_by("round__number", "number")
    results: dict[int, list[st.BoardResult]] = {}
    rows = BoardResult.objects.filter(
        table__round__in=rounds, status__in=BoardResult.COUNTED
    ).values_list(
        "table_id",
        "board__number",
        "table__number",
        "table__ns_id",
        "table__ew_id",
        "score_ns",
        "score_ew",
        "adjusted_ns",
        "adjusted_ew",
    )
    for table_id, board, table_no, ns, ew, s_ns, s_ew, adj_ns, adj_ew in rows:
        results.setdefault(table_id, []).append(
            st.BoardResult(
                board=board,
                table=table_no,
                ns=ns,
                ew=ew,
                score_ns=s_ns,
                score_ew=s_ew,
                adjusted_ns=adj_ns or None,
                adjusted_ew=adj_ew or None,
            )
        )
    by_round: dict[int, list[st.TableRound]] = {}
    for table in tables:
        table_results = sorted(results.get(table.pk, []), key=lambda r: r.board)
        by_round.setdefault(table.round_id, []).append(
            st.TableRound(
                round=0, table=table.number, ns=table.ns_id, ew=table.ew_id, results=table_results
            )
        )
    entries = list(event.entries.values_list("pk", "number", "withdrawn_after_round"))
    return st.EventInput(
        entries=[pk for pk, _n, _w in entries],
        numbers={pk: number for pk, number, _w in entries},
        withdrawn={pk: w for pk, _n, w in entries if w is not None},
        rounds=[
            st.RoundInput(
                number=r.number,
                boards=list(r.board_numbers),
                tables=[
                    st.TableRound(
                        round=r.number, table=t.table, ns=t.ns, ew=t.ew, results=t.results
                    )
                    for t in by_round.get(r.pk, [])
                ],
                bye=r.bye_id,
                closed=r.status == Round.Status.CLOSED,
            )
            for r in rounds
        ],
        ranking_method=event.ranking_method,
        match_mode=event.match_mode,
        game_target=event.game_target,
        game_cap=event.game_cap,
        bye_points=event.bye_points,
        seed=event.seed,
    )


def _rows(result: st.StandingsResult) -> list[dict[str, Any]]:
    return [asdict(s) for s in result.standings]


def standings_recompute(event_id: int) -> int:
    """Recompute every round's snapshot from scratch; returns the number of results counted."""
    started = timezone.now()
    event = Event.objects.get(pk=event_id)
    data = event_input(event)
    counted = 0
    with transaction.atomic():
        for rnd in data.rounds:
            result = compute_standings(data, after_round=rnd.number)
            n = sum(len(t.results) for r in data.rounds if r.number <= rnd.number for t in r.tables)
            counted = n
            StandingsSnapshot.objects.update_or_create(
                event=event,
                after_round=rnd.number,
                defaults={
                    "rows": _rows(result),
                    "results_counted": n,
                    "matches": [asdict(m) for m in result.matches if m.round == rnd.number],
                },
            )
        StandingsSnapshot.objects.filter(event=event).exclude(
            after_round__in=[r.number for r in data.rounds]
        ).delete()
        # Stamp with the start time: a result stored while we ran leaves the standings stale,
        # and its own request has queued the next run.
        Event.objects.filter(pk=event_id).update(standings_updated_at=started)
    return counted


def pairing_gate(event: Event, round_number: int) -> list[Table]:
    """Tables of the previous round with a result not yet confirmed or ruled.

    A round the organiser closed has passed the gate: closing with missing results was their
    explicit decision that those boards count as not played.
    """
    from tournaments.services.events import round_missing

    previous = event.rounds.filter(number=round_number - 1).first()
    if round_number == 1:
        return []
    if previous is None:
        raise ServiceError(_("Round %(n)s has not been played.") % {"n": round_number - 1})
    if previous.status == Round.Status.CLOSED:
        return []
    return [table for table, _boards in round_missing(previous)]


def pairings_propose(event_id: int, round_number: int, *, actor: Actor | None = None) -> int:
    """Propose the pairings of ``round_number`` (stored as a pending round).

    ``actor`` is the organiser asking (checked and audited); None when the system proposes.
    """
    from tournaments.services.events import round_propose

    event = Event.objects.get(pk=event_id)
    missing = pairing_gate(event, round_number)
    if missing:
        raise ServiceError(
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


def pairing_swap_warnings(rnd: Round, entry_a: int, entry_b: int) -> list[str]:
    event = rnd.event
    played = list(event.rounds.filter(number__lt=rnd.number).order_by("number"))
    data = event_input(event, rounds=played)
    pairing = st.Pairing(
        tables=[(t.ns_id, t.ew_id) for t in rnd.tables.order_by("number")], bye=rnd.bye_id
    )
    entries = {e.pk: str(e) for e in event.entries.select_related("pair")}
    return swap_warnings(
        pairing,
        entry_a,
        entry_b,
        history_from(data),
        messages={
            "met": _("Table %(table)s: %(ns)s and %(ew)s have already met."),
            "too_often": _("Table %(table)s: %(entry)s would sit %(seat)s too often."),
            "in_a_row": _("Table %(table)s: %(entry)s would sit %(seat)s three times in a row."),
            "bye": _("%(entry)s has already had a bye."),
        },
        label=lambda pk: entries.get(pk, pk),
    )


def stale_events() -> models.QuerySet[Event]:
    """Events whose standings miss a request or a result changed since they were computed.

    Results are looked at too: the request mark is written after the result's commit, so a
    failure in between must not hide a change (see ``tournaments.tasks.request_standings``).
    """
    results = BoardResult.objects.filter(table__round__event=OuterRef("pk"))
    never_computed = Q(standings_updated_at__isnull=True) & (
        Q(standings_requested_at__isnull=False) | Exists(results)
    )
    requested_since = Q(standings_updated_at__lt=F("standings_requested_at"))
    changed_since = Exists(results.filter(updated_at__gt=OuterRef("standings_updated_at")))
    return Event.objects.filter(never_computed | requested_since | changed_since)


def standings_stale(event: Event) -> bool:
    return stale_events().filter(pk=event.pk).exists()
