"""Reads the scoring algorithms need: an event's results as ``scoring``'s plain objects, and
whether its standings are stale. The one place where the models meet the scoring algorithms
for reading; what is computed is written by ``services.standings`` and ``services.pairings``.
"""

from django.db import models
from django.db.models import Exists, F, OuterRef, Q
from django.utils.translation import gettext as _

from scoring import types as st
from scoring.methods import planned_rounds
from scoring.pairing import history_from, swap_warnings
from scoring.pairing import pairing_warnings as scoring_pairing_warnings
from tournaments.labels import side_label
from tournaments.models import (
    BoardResult,
    ByeRequest,
    Entry,
    Event,
    ForbiddenPair,
    Round,
    Table,
)
from tournaments.rating_reads import club_seeding_ratings
from tournaments.selectors import round_missing
from tournaments.services import Conflict

RESULT_FIELDS = ("board__number", "score_ns", "score_ew", "adjusted_ns", "adjusted_ew")
TABLE_FIELDS = ("pk", "round_id", "number", "ns_id", "ew_id", "forfeited_by", "time_after")
ENTRY_FIELDS = ("pk", "number", "withdrawn_after_round", "joins_round", "missed_rounds")


def event_input(event: Event, *, rounds: list[Round] | None = None) -> st.EventInput:
    """Every counted result of the event's open and closed rounds, as plain objects."""
    if rounds is None:
        rounds = list(event.rounds.exclude(status=Round.Status.PENDING).order_by("number"))
    tables = Table.objects.filter(round__in=rounds).order_by("round__number", "number")
    results = BoardResult.objects.filter(
        table__round__in=rounds, status__in=BoardResult.COUNTED
    ).values_list("table_id", *RESULT_FIELDS)
    entries = event.entries.values_list(*ENTRY_FIELDS)
    rests = Round.rests.through.objects.filter(round__in=rounds).values_list("round_id", "entry_id")
    bye_requests = [
        st.ByeRequest(entry, number, event.requested_bye_points)
        for entry, number in ByeRequest.objects.filter(entry__event=event)
        .order_by("round_number", "entry__number")
        .values_list("entry_id", "round_number")
    ]
    return _event_input(
        event,
        rounds=rounds,
        tables=list(tables.values_list(*TABLE_FIELDS)),
        results=dict_of_lists((row[0], row[1:]) for row in results),
        entries=list(entries),
        rests=dict_of_lists(rests),
        bye_requests=bye_requests,
        pairing=pairing_inputs(event),
    )


def club_results_input(club_id: int) -> list[tuple[Event, st.EventInput]]:
    """The results of all the club's finished pairs events, in order of (date, id), read in a
    handful of queries whatever the number of events (the ratings' recomputation from
    scratch reads a club's whole history). No pairing inputs: only the results are read.
    """
    # Pairs events only, as ratings_update rates them (a team event ranks teams).
    finished = {
        "event__club_id": club_id,
        "event__status": Event.Status.FINISHED,
        "event__competitor": Event.Competitor.PAIRS,
    }
    events = list(
        Event.objects.filter(
            club_id=club_id, status=Event.Status.FINISHED, competitor=Event.Competitor.PAIRS
        ).order_by("date", "pk")
    )
    rounds = dict_of_lists(
        (r.event_id, r)
        for r in Round.objects.filter(**finished)
        .exclude(status=Round.Status.PENDING)
        .order_by("event_id", "number")
    )
    round_filter = {f"round__{k}": v for k, v in finished.items()}
    tables = dict_of_lists(
        (row[1], row)
        for row in Table.objects.filter(**round_filter)
        .exclude(round__status=Round.Status.PENDING)
        .order_by("round_id", "number")
        .values_list(*TABLE_FIELDS)
    )
    results = dict_of_lists(
        (row[0], row[1:])
        for row in BoardResult.objects.filter(
            **{f"table__{k}": v for k, v in round_filter.items()},
            status__in=BoardResult.COUNTED,
        ).values_list("table_id", *RESULT_FIELDS)
    )
    entries = dict_of_lists(
        (row[0], row[1:])
        for row in Entry.objects.filter(**finished).values_list("event_id", *ENTRY_FIELDS)
    )
    rests = dict_of_lists(
        Round.rests.through.objects.filter(**round_filter).values_list("round_id", "entry_id")
    )
    out = []
    for event in events:
        event_rounds = rounds.get(event.pk, [])
        for r in event_rounds:
            r.event = event  # the round's boards are the event's: no query per round
        out.append(
            (
                event,
                _event_input(
                    event,
                    rounds=event_rounds,
                    tables=[t for r in event_rounds for t in tables.get(r.pk, [])],
                    results=results,
                    entries=entries.get(event.pk, []),
                    rests=rests,
                    bye_requests=[],
                    pairing={"pairing": pairing_options(event)},
                ),
            )
        )
    return out


def _event_input(
    event: Event,
    *,
    rounds: list[Round],
    tables: list[tuple],
    results: dict[int, list[tuple]],
    entries: list[tuple],
    rests: dict[int, list[int]],
    bye_requests: list[st.ByeRequest],
    pairing: dict[str, object],
) -> st.EventInput:
    """An ``EventInput`` from the rows read: ``tables`` as ``TABLE_FIELDS`` in order of round
    and number, ``results`` by table id as ``RESULT_FIELDS``, ``entries`` as
    ``ENTRY_FIELDS``, ``rests`` by round id."""
    by_round: dict[int, list[st.TableRound]] = {}
    numbers = {r.pk: r.number for r in rounds}
    for table_id, round_id, table_no, ns, ew, forfeited_by, time_after in tables:
        table_results = sorted(
            (
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
                for board, s_ns, s_ew, adj_ns, adj_ew in results.get(table_id, [])
            ),
            key=lambda r: r.board,
        )
        by_round.setdefault(round_id, []).append(
            st.TableRound(
                round=numbers[round_id],
                table=table_no,
                ns=ns,
                ew=ew,
                results=table_results,
                forfeited_by=forfeited_by or None,
                time_after=time_after,
            )
        )
    return st.EventInput(
        entries=[pk for pk, *_ in entries],
        numbers={pk: number for pk, number, *_ in entries},
        withdrawn={pk: w for pk, _n, w, *_ in entries if w is not None},
        missed={pk: tuple(sorted(m)) for pk, *_, m in entries if m},
        rounds=[
            st.RoundInput(
                number=r.number,
                boards=list(r.board_numbers),
                tables=by_round.get(r.pk, []),
                bye=r.bye_id,
                rests=sorted(rests.get(r.pk, [])),
                closed=r.status == Round.Status.CLOSED,
            )
            for r in rounds
        ],
        ranking_method=event.ranking_method,
        match_mode=event.match_mode,
        game_target=event.game_target,
        game_cap=event.game_cap,
        deal_limit=event.deal_limit,
        draw=event.draw,
        tiebreak_deals=event.tiebreak_deals,
        bye_points=event.bye_points,
        seed=event.seed,
        **pairing,  # type: ignore[arg-type]
        late_entries=[
            st.LateEntry(pk, joins, event.late_entry_points)
            for pk, _n, _w, joins, _m in entries
            if joins is not None and joins > 1
        ],
        bye_requests=bye_requests,
    )


def dict_of_lists(rows: object) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for key, value in rows:  # type: ignore[attr-defined]
        out.setdefault(key, []).append(value)
    return out


def pairing_options(event: Event) -> st.PairingOptions:
    """The event's pairing method and its options, as ``scoring`` reads them."""
    rr = event.round_robin
    if event.format == Event.Format.SWISS:
        rounds: int | None = event.rounds_count
    elif event.format == Event.Format.ROUND_ROBIN:
        rounds = event.rounds_count if rr == Event.RoundRobin.ROUNDS else None
    else:
        rounds = None
    return st.PairingOptions(
        method=event.format,
        rounds=rounds,
        seeding=event.seeding,
        accelerated=event.format == Event.Format.SWISS and event.accelerated,
        club_rounds=event.club_rounds if event.format == Event.Format.SWISS else 0,
        double=event.format == Event.Format.ROUND_ROBIN and rr == Event.RoundRobin.DOUBLE,
        group_size=event.group_size,
        qualifiers=event.qualifiers,
        repesca=event.repesca,
        repesca_min_points=event.repesca_min_points,
    )


def pairing_inputs(event: Event) -> dict[str, object]:
    """What the pairing reads besides the results: options, clubs, prohibited pairs, ratings."""
    entries = list(event.entries.values_list("pk", "pair__club_id", "rating"))
    ratings = {pk: rating for pk, _c, rating in entries if rating is not None}
    if event.seeding == Event.Seeding.RATING and not ratings:
        # No rating typed by the organiser: the club's ratings of the players seed the pairs.
        ratings = club_seeding_ratings(event)
    return {
        "pairing": pairing_options(event),
        "clubs": {pk: club for pk, club, _r in entries if club is not None},
        "forbidden": list(
            ForbiddenPair.objects.filter(event=event).values_list("low_id", "high_id")
        ),
        "ratings": ratings,
    }


def rounds_planned(event: Event) -> int:
    """How many rounds the event's method plays with the pairs entered now (the Swiss: the
    number the organiser set). ValueError when the method cannot pair them."""
    return planned_rounds(event_input(event, rounds=[]))


def pairing_gate(event: Event, round_number: int) -> list[Table]:
    """Tables of the previous round with a result not yet confirmed or ruled.

    A round the organiser closed has passed the gate: closing with missing results was their
    explicit decision that those boards count as not played.
    """
    previous = event.rounds.filter(number=round_number - 1).first()
    if round_number == 1:
        return []
    if previous is None:
        raise Conflict(
            _("Round %(n)s has not been played.") % {"n": round_number - 1}, field="round"
        )
    if previous.status == Round.Status.CLOSED:
        return []
    if previous.status == Round.Status.PENDING:  # proposed, not played: nothing is missing yet
        raise Conflict(_("Close round %(n)s first.") % {"n": round_number - 1}, field="round")
    return [table for table, _boards in round_missing(previous)]


def _pairing_messages() -> dict[str, str]:
    return {
        "met": _("Table %(table)s: %(ns)s and %(ew)s have already met."),
        "too_often": _("Table %(table)s: %(entry)s would sit %(seat)s too often."),
        "in_a_row": _("Table %(table)s: %(entry)s would sit %(seat)s three times in a row."),
        "bye": _("%(entry)s has already had a bye."),
    }


def pairing_warnings(
    rnd: Round,
    *,
    tables: list[tuple[int, int]] | None = None,
    bye: int | None = None,
    swap: tuple[int, int] | None = None,
) -> list[str]:
    """Rematches, direction rule and second byes of a round's pairing made by hand.

    ``tables`` (entry ids, NS first) and ``bye``: a pairing to check instead of the stored one;
    ``swap``: the stored pairing with these two entries exchanged (warnings about their tables).
    """
    event = rnd.event
    played = list(event.rounds.filter(number__lt=rnd.number).order_by("number"))
    if tables is None:
        tables = [(t.ns_id, t.ew_id) for t in rnd.tables.order_by("number")]
        bye = rnd.bye_id
    pairing = st.Pairing(tables=tables, bye=bye)
    entries = {e.pk: str(e) for e in event.entries.select_related("pair")}
    history = history_from(event_input(event, rounds=played))
    messages = _pairing_messages()
    label = lambda pk: entries.get(pk, pk)  # noqa: E731
    if swap is not None:
        return swap_warnings(
            pairing, *swap, history, messages=messages, label=label, side_label=side_label
        )
    return scoring_pairing_warnings(
        pairing, history, messages=messages, label=label, side_label=side_label
    )


def stale_events() -> models.QuerySet[Event]:
    """Events whose standings miss a request or a result changed since they were computed.

    Results are looked at too: the request mark is written after the result's commit, so a
    failure in between must not hide a change (see ``tournaments.queue.request_standings``).
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
