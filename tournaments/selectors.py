"""Reads for the organiser's pages: each page's data in a fixed, small number of queries."""

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone

from engine import MatchRules
from scoring.groups import rules_of_round
from scoring.matches import boards_due
from tournaments.models import (
    BoardResult,
    BoardUnlock,
    ByeRequest,
    Dispute,
    Entry,
    Event,
    RoleInvitation,
    Round,
    Table,
)

MISSING = "missing"
NOT_STARTED = "not_started"
FORFEITED = "forfeited"
NOT_PLAYED = "not_played"  # the table's match ended before this board (game over, or time)


def events_for_user(user: Any) -> QuerySet[Event]:
    """Events the user organises or referees (every event for a superuser)."""
    qs = Event.objects.select_related("club").annotate(
        pairs=Count("entries", filter=Q(entries__withdrawn_after_round__isnull=True), distinct=True)
    )
    if not user.is_superuser:
        qs = qs.filter(Q(organisers=user) | Q(referees=user)).distinct()
    return qs.order_by("-date", "name")


def event_bye_requests(event: Event) -> QuerySet[ByeRequest]:
    return ByeRequest.objects.filter(entry__event=event).select_related("entry__pair")


def organised_ids(user: Any) -> set[int]:
    return set(user.organised_events.values_list("pk", flat=True))


def event_entries(event: Event) -> QuerySet[Entry]:
    return event.entries.select_related("pair__player1", "pair__player2", "pair__club").order_by(
        "number"
    )


def event_rounds(event: Event) -> list[Round]:
    return list(
        event.rounds.select_related("bye__pair")
        .annotate(table_count=Count("tables"))
        .order_by("number")
    )


@dataclass
class EventCounts:
    pairs: int
    withdrawn: int
    boards_ready: int
    total_boards: int

    @property
    def boards_done(self) -> bool:
        return self.boards_ready >= self.total_boards


def event_counts(event: Event) -> EventCounts:
    agg = event.entries.aggregate(
        active=Count("pk", filter=Q(withdrawn_after_round__isnull=True)),
        withdrawn=Count("pk", filter=Q(withdrawn_after_round__isnull=False)),
    )
    return EventCounts(
        pairs=agg["active"],
        withdrawn=agg["withdrawn"],
        boards_ready=event.boards_ready,
        total_boards=event.total_boards,
    )


@dataclass(frozen=True)
class Cell:
    """One board at one table, for the organiser: its result and when the table unlocked it."""

    board: int
    status: str  # a BoardResult status, or MISSING
    result_at: datetime.datetime | None = None
    unlocked_at: datetime.datetime | None = None
    unlock_reason: str = ""  # BoardUnlock.Reason
    result_id: int | None = None
    # What the console shows: the status, or NOT_STARTED (no result, and the table has not
    # gone past the board), MISSING (no result while it should have one) or FORFEITED.
    state: str = MISSING
    dispute_id: int | None = None  # the result's open dispute

    @property
    def declared_without_result(self) -> bool:
        """Unlocked by a declaration and still no result: the table owes one."""
        return self.unlock_reason == BoardUnlock.Reason.DECLARED and self.status == MISSING


@dataclass
class TableRow:
    table: Table
    cells: list[Cell] = field(default_factory=list)
    last_activity: datetime.datetime | None = None  # the table's latest result change
    behind: bool = False  # two boards or more behind the middle of the room

    @property
    def complete(self) -> bool:
        # A forfeited table takes no more results: it is finished, not behind.
        return all(
            c.status in BoardResult.COUNTED or c.state in (NOT_PLAYED, FORFEITED)
            for c in self.cells
        )

    @property
    def done(self) -> int:
        """Boards with a result entered (whatever its state)."""
        return sum(1 for c in self.cells if c.status != MISSING)


def _state(status: str, *, overdue: bool, forfeited: bool, reached: bool = True) -> str:
    if status != MISSING:
        return status
    if forfeited:
        return FORFEITED
    if not reached:
        return NOT_PLAYED
    return MISSING if overdue else NOT_STARTED


def round_rules(event: Event, number: int) -> MatchRules:
    """The rules of the games of the event's round ``number`` (``scoring.groups.round_rules``:
    a knockout game needs a winner); a query only for groups-then-knockout with drawn games."""
    rules = event.match_rules
    if event.format != Event.Format.GROUPS or rules.draw != "half":
        return rules
    competitors = event.teams.count() if event.is_team_event else event.entries.count()
    return rules_of_round(
        rules,
        method=event.format,
        competitors=competitors,
        group_size=event.group_size,
        number=number,
    )


def table_boards_due(
    event: Event,
    table: Table,
    boards: list[int],
    scores: dict[int, tuple[int, int]],
    *,
    rules: MatchRules | None = None,
) -> tuple[list[int], list[int]]:
    """(owed, not played) of a table under its round's match rules (scoring.matches);
    ``rules``: :func:`round_rules` when already read."""
    if rules is None:
        rules = round_rules(event, table.round.number)
    return boards_due(
        scores, boards, mode=event.match_mode, rules=rules, time_after=table.time_after
    )


def _counted_scores(rnd: Round) -> dict[int, dict[int, tuple[int, int]]]:
    out: dict[int, dict[int, tuple[int, int]]] = {}
    for table_id, board, s_ns, s_ew in BoardResult.objects.filter(
        table__round=rnd, status__in=BoardResult.COUNTED
    ).values_list("table_id", "board__number", "score_ns", "score_ew"):
        out.setdefault(table_id, {})[board] = (s_ns, s_ew)
    return out


def round_tables(rnd: Round) -> list[TableRow]:
    """Every table of the round with each board's status, unlock and open dispute (four
    queries)."""
    tables = list(rnd.tables.select_related("ns__pair", "ew__pair").order_by("number"))
    disputes = dict(
        Dispute.objects.filter(result__table__round=rnd, status=Dispute.Status.OPEN).values_list(
            "result_id", "pk"
        )
    )
    found: dict[tuple[int, int], tuple[str, datetime.datetime, int]] = {}
    activity: dict[int, datetime.datetime] = {}
    for table_id, board, st, created, pk, updated in BoardResult.objects.filter(
        table__round=rnd
    ).values_list("table_id", "board__number", "status", "created_at", "pk", "updated_at"):
        found[(table_id, board)] = (st, created, pk)
        activity[table_id] = max(updated, activity.get(table_id, updated))
    unlocks: dict[tuple[int, int], tuple[datetime.datetime, str]] = {
        (table_id, board): (created, reason)
        for table_id, board, created, reason in BoardUnlock.objects.filter(
            table__round=rnd
        ).values_list("table_id", "board__number", "created_at", "reason")
    }
    boards = list(rnd.board_numbers)
    rows = []
    closed = rnd.status == Round.Status.CLOSED
    counted = _counted_scores(rnd)
    rules = round_rules(rnd.event, rnd.number)
    for t in tables:
        cells = []
        last_played = max((b for b in boards if (t.pk, b) in found), default=0)
        _owed, not_reached = table_boards_due(
            rnd.event, t, boards, counted.get(t.pk, {}), rules=rules
        )
        for b in boards:
            status, result_at, result_id = found.get((t.pk, b), (MISSING, None, None))
            unlocked_at, reason = unlocks.get((t.pk, b), (None, ""))
            overdue = closed or b < last_played or reason == BoardUnlock.Reason.DECLARED
            state = _state(
                status,
                overdue=overdue,
                forfeited=bool(t.forfeited_by),
                reached=b not in not_reached,
            )
            cells.append(
                Cell(
                    b,
                    status,
                    result_at,
                    unlocked_at,
                    reason,
                    result_id,
                    state=state,
                    dispute_id=disputes.get(result_id) if result_id else None,
                )
            )
        rows.append(TableRow(table=t, cells=cells, last_activity=activity.get(t.pk)))
    if rnd.status == Round.Status.OPEN and rows:
        done = sorted(r.done for r in rows)
        middle = done[len(done) // 2]
        for row in rows:
            row.behind = not row.complete and row.done <= middle - 2
    return rows


def round_disputes(rnd: Round) -> list[Dispute]:
    """The round's open disputes, oldest first, with what the console shows of them."""
    return list(
        Dispute.objects.filter(result__table__round=rnd, status=Dispute.Status.OPEN)
        .select_related("result__table", "result__board")
        .order_by("created_at", "pk")
    )


def round_version(rnd: Round) -> str:
    """Changes whenever the round's console would show something else (results, disputes,
    unlocks, its status), and each minute (the "minutes since" of the tables)."""
    results = BoardResult.objects.filter(table__round=rnd).aggregate(
        n=Count("id"), t=Max("updated_at")
    )
    disputes = Dispute.objects.filter(result__table__round=rnd).aggregate(
        n=Count("id"), t=Max("created_at"), c=Max("closed_at")
    )
    unlocks = BoardUnlock.objects.filter(table__round=rnd).count()
    tables = Table.objects.filter(round=rnd).aggregate(n=Count("id"), codes=Sum("codes_version"))
    # Time called and forfeits, table by table (which side forfeited: a forfeit moved from NS
    # to EW shows otherwise).
    tables["marks"] = list(
        Table.objects.filter(round=rnd)
        .filter(Q(time_after__isnull=False) | ~Q(forfeited_by=""))
        .order_by("pk")
        .values_list("pk", "time_after", "forfeited_by")
    )
    minute = timezone.now().replace(second=0, microsecond=0)
    clock = (rnd.clock_ends_at, rnd.clock_left)
    parts = (
        rnd.status,
        rnd.ruling_open,
        results,
        disputes,
        unlocks,
        tables,
        clock,
        minute.isoformat(),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


def event_disputes_version(event: Event) -> str:
    """Changes whenever the event's referee queue would show something else: its disputes, and
    the open rounds' tables that finished after time (the clock, time called, their results)."""
    found = Dispute.objects.filter(result__table__round__event=event).aggregate(
        n=Count("id"), t=Max("created_at"), c=Max("closed_at"), r=Count("rulings")
    )
    open_rounds = Round.objects.filter(event=event, status=Round.Status.OPEN)
    late = (
        sorted(open_rounds.values_list("pk", "clock_ends_at", "clock_left")),
        sorted(
            Table.objects.filter(round__in=open_rounds, time_after__isnull=False).values_list(
                "pk", "time_after", "time_declared_at"
            )
        ),
        BoardResult.objects.filter(table__round__in=open_rounds).aggregate(
            n=Count("id"), t=Max("updated_at")
        ),
    )
    minute = timezone.now().replace(second=0, microsecond=0)
    return hashlib.sha256(repr((found, late, minute.isoformat())).encode()).hexdigest()[:20]


def round_entries(rnd: Round) -> list[Entry]:
    """The pairs seated in a round (tables and bye), by number: the choices for a swap."""
    ids = set()
    for ns, ew in rnd.tables.values_list("ns_id", "ew_id"):
        ids.update((ns, ew))
    if rnd.bye_id:
        ids.add(rnd.bye_id)
    return list(Entry.objects.filter(pk__in=ids).select_related("pair").order_by("number"))


@dataclass(frozen=True)
class Outstanding:
    """A table's boards without a counted result, by why: a dispute waits for a referee, a
    result waits for the other pair's confirmation, or nothing was entered."""

    table: Table
    disputed: list[int]
    unconfirmed: list[int]
    missing: list[int]

    @property
    def boards(self) -> list[int]:
        return sorted(self.disputed + self.unconfirmed + self.missing)


def round_outstanding(rnd: Round) -> list[Outstanding]:
    """Tables with boards that have no counted result yet (a table whose match ended before a
    board, game over or time, owes none; a forfeited table owes none either, but a board it
    played, entered or disputed, is played: it is still to be confirmed or ruled)."""
    states: dict[tuple[int, int], str] = {}
    for table_id, board_no, status in BoardResult.objects.filter(table__round=rnd).values_list(
        "table_id", "board__number", "status"
    ):
        states[(table_id, board_no)] = status
    counted = _counted_scores(rnd)
    event = rnd.event
    rules = round_rules(event, rnd.number)
    found = []
    for table in rnd.tables.select_related("ns__pair", "ew__pair"):
        if table.forfeited_by:
            due = [n for n in rnd.board_numbers if (table.pk, n) in states]
        else:
            due, _not_played = table_boards_due(
                event, table, list(rnd.board_numbers), counted.get(table.pk, {}), rules=rules
            )
        by_state: dict[str, list[int]] = {"disputed": [], "entered": [], "": []}
        for n in due:
            status = states.get((table.pk, n), "")
            if status not in BoardResult.COUNTED:
                by_state.get(status, by_state[""]).append(n)
        if any(by_state.values()):
            found.append(
                Outstanding(
                    table=table,
                    disputed=by_state["disputed"],
                    unconfirmed=by_state["entered"],
                    missing=by_state[""],
                )
            )
    return found


def round_missing(rnd: Round) -> list[tuple[Table, list[int]]]:
    """Tables with boards that have no counted result yet, and which boards."""
    return [(o.table, o.boards) for o in round_outstanding(rnd)]


@dataclass
class EventRoles:
    """The people who run an event: organisers, referees (not also organisers) and the
    invitations still waiting to be accepted."""

    organisers: list[Any]
    referees: list[Any]
    invitations: list[RoleInvitation]


def event_roles(event: Event) -> EventRoles:
    organisers = list(event.organisers.order_by("username"))
    ids = {u.pk for u in organisers}
    return EventRoles(
        organisers=organisers,
        referees=[u for u in event.referees.order_by("username") if u.pk not in ids],
        invitations=list(
            RoleInvitation.objects.filter(
                event=event, accepted_at=None, revoked_at=None, expires_at__gt=timezone.now()
            ).order_by("created_at", "pk")
        ),
    )


@dataclass(frozen=True)
class LateTable:
    """A table still playing when the round's time was up: when its last result came, and the
    deal during which it says time was called."""

    table: Table
    last_result_at: datetime.datetime
    minutes_over: int


def tables_after_time(rnd: Round) -> list[LateTable]:
    """Tables of an open or closed round whose last result came after the clock's end (for the
    referee: who finished after time, and by how much), latest first."""
    deadline = rnd.clock_ends_at
    if deadline is None:
        return []
    last = dict(
        BoardResult.objects.filter(table__round=rnd)
        .values("table_id")
        .annotate(t=Max("created_at"))
        .values_list("table_id", "t")
    )
    late = []
    for table in rnd.tables.select_related("ns__pair", "ew__pair").order_by("number"):
        at = last.get(table.pk)
        if at is not None and at > deadline:
            minutes = max(1, int((at - deadline).total_seconds() + 59) // 60)
            late.append(LateTable(table, at, minutes))
    return sorted(late, key=lambda x: x.last_result_at, reverse=True)
