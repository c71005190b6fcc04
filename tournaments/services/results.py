"""Board results from the table: short results, play records, confirmation, double entry."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction
from django.utils.translation import gettext as _

import engine
from tournaments import play, policy, queue, webhooks
from tournaments.actors import Actor
from tournaments.labels import FieldProblem, field_problems
from tournaments.models import (
    AuditEntry,
    Board,
    BoardResult,
    BoardUnlock,
    Dispute,
    PlayRecord,
    Round,
    Submission,
    Table,
    Webhook,
)
from tournaments.prepared import Prepared, read_together
from tournaments.result_states import Incoming, Refusal, Stored, transition
from tournaments.rows import insert_linked, insert_new, update_row, update_then_insert
from tournaments.selectors import table_boards_due
from tournaments.services import Conflict, NotAllowed, ServiceError, audit
from tournaments.services.analysis import ANALYSED_OUTCOMES

T = TypeVar("T")


class InvalidSubmission(ServiceError):
    """Bad input: every problem, in the reader's language, with the path of the field it
    concerns (HTTP 400)."""

    def __init__(self, problems: Sequence[FieldProblem]) -> None:
        first = problems[0]
        super().__init__(first.message, field=first.path)
        self.problems = list(problems)

    @classmethod
    def of(cls, problems: Sequence[engine.Problem]) -> "InvalidSubmission":
        """The engine's problems, translated by their codes."""
        return cls(field_problems(problems))


@dataclass(frozen=True)
class Outcome:
    result: BoardResult
    created: bool
    verdict: engine.Verdict | None = None
    # Every dispute of the result, when the service knows them without reading (a result it
    # has just created); None: they must be read.
    disputes: list[Dispute] | None = None


def _in_transaction(work: Callable[[], T]) -> T:
    """``work()`` in the submission's transaction.

    Inside a caller's transaction (the Idempotency-Key's: ``tournaments.idempotency``) it takes
    no savepoint, two statements fewer on every such submission. That is safe because a
    submission refuses (raises a ``ServiceError``) only before it writes anything: the refusal
    is raised after the block, leaving the caller's transaction usable (a page then shows the
    refusal), and any other error leaves it to roll back, as it does.
    """
    if not transaction.get_connection().in_atomic_block:
        with transaction.atomic():
            return work()
    refusal: ServiceError | None = None
    with transaction.atomic(savepoint=False):
        try:
            return work()
        except ServiceError as exc:
            refusal = exc
    assert refusal is not None
    raise refusal


# The boards read by this process. A board is written once, from the event's seed, and never
# changed: kept by event (its creation time guards against a reused id in tests) and seed.
_BOARDS: dict[tuple[Any, ...], Board] = {}
_BOARDS_MAX = 4096


def board_for_table(table: Table, board_number: int) -> Board:
    if board_number not in table.round.board_numbers:
        first, last = table.round.board_numbers[0], table.round.board_numbers[-1]
        raise ServiceError(
            _("Board %(n)s is not played in this round (boards %(a)s–%(b)s).")
            % {"n": board_number, "a": first, "b": last},
            field="board",
        )
    event = table.round.event
    key = (event.pk, event.created_at, event.seed, board_number)
    stored = _BOARDS.get(key)
    if stored is None:
        try:
            stored = Board.objects.get(event_id=event.pk, number=board_number)
        except Board.DoesNotExist:
            raise ServiceError(
                _("Board %(n)s does not exist yet.") % {"n": board_number}, field="board"
            ) from None
        if len(_BOARDS) >= _BOARDS_MAX:
            _BOARDS.clear()
        _BOARDS[key] = stored
    # A new instance per request (the cached one is never handed out), with the event already
    # read with the table: no query.
    board = Board(
        pk=stored.pk, event=event, number=stored.number, dealer=stored.dealer, hands=stored.hands
    )
    board._state.adding, board._state.db = False, stored._state.db
    return board


def _check_reached(table: Table, board_number: int, actor: Actor) -> None:
    """Refuse a board the table's game will never reach (game over, or time called before it):
    entering it would show the table cards that other tables may still be playing. A board
    that already has a result stays open to corrections; organisers may always."""
    event = table.round.event
    if event.match_mode == event.MatchMode.BOARDS and table.time_after is None:
        return
    if actor.is_organiser(event) or table.results.filter(board__number=board_number).exists():
        return
    scores = {
        b: (ns, ew)
        for b, ns, ew in table.results.filter(status__in=BoardResult.COUNTED).values_list(
            "board__number", "score_ns", "score_ew"
        )
    }
    _owed, not_played = table_boards_due(event, table, list(table.round.board_numbers), scores)
    if board_number in not_played:
        raise ServiceError(
            _("The game at this table is over: board %(n)s is not played.") % {"n": board_number},
            field="board",
        )


def _check_not_shown(table: Table, board_number: int, actor: Actor) -> None:
    """Refuse, in a round reopened for results, a board the table had not unlocked before the
    round was first closed: closing showed that board's cards and the other tables' scores on it
    to the table (and to the public once the event is published), so the table may no longer
    enter it, nor declare it played. The boards it had unlocked (declared played, or entered by
    one pair) it still enters, corrects and confirms; organisers enter any board for a table."""
    shown_at = table.round.first_closed_at
    if shown_at is None or actor.is_organiser(table.round.event):
        return
    unlocked_before = BoardUnlock.objects.filter(
        table_id=table.pk, board__number=board_number, created_at__lt=shown_at
    )
    if not unlocked_before.exists():
        raise ServiceError(
            _(
                "Round %(r)s was closed before your table played board %(n)s, and closing it "
                "showed that board's cards and scores: your table can no longer enter it. If "
                "you did play it, ask the organiser to enter it for you."
            )
            % {"r": table.round.number, "n": board_number},
            field="board",
        )


def _check_can_enter(table: Table, actor: Actor) -> str:
    """The side the actor enters for ('' for organisers); refuses outsiders and closed rounds."""
    event = table.round.event
    if table.round.status != Round.Status.OPEN:
        raise ServiceError(
            _("Round %(n)s is not open for results.") % {"n": table.round.number}, field="round"
        )
    if actor.is_organiser(event):
        return actor.side_at(table) or ""
    side = actor.side_at(table)
    if side is None:
        raise NotAllowed(_("You do not sit at this table."))
    return side


def unlock_board(
    *,
    table: Table,
    board: Board,
    actor: Actor,
    reason: str,
    audits: list[AuditEntry] | None = None,
) -> BoardUnlock | None:
    """Let the table see the board's cards from now on (once; audited): the new unlock, None
    when the table had unlocked the board already. ``audits``: the request's audit entries,
    stored together by the caller; else stored here."""
    unlock, written = _new_unlock(table=table, board=board, actor=actor, reason=reason)
    if not insert_new(unlock, ("table", "board")):
        return None
    audit.keep(written, audits)
    return unlock


def _new_unlock(
    *, table: Table, board: Board, actor: Actor, reason: str
) -> tuple[BoardUnlock, AuditEntry]:
    """A new unlock and its audit entry, neither stored yet."""
    unlock = BoardUnlock(table=table, board=board, reason=reason, actor=actor.label)
    written = audit.entry(
        event=table.round.event,
        actor=actor.label,
        action="board_unlocked",
        changes={"board": [None, board.number], "table": [None, table.number]},
        note=reason,
    )
    return unlock, written


def board_declare_played(*, table: Table, board_number: int, actor: Actor) -> BoardUnlock:
    """The table says it has played the board: it may see the cards now, and owes a result."""
    side = _check_can_enter(table, actor)
    board = board_for_table(table, board_number)
    _check_reached(table, board_number, actor)
    _check_not_shown(table, board_number, actor)
    seen = (table.time_after, table.round.first_closed_at)
    with transaction.atomic():
        # A forfeited match plays no more boards: its pairs must not see one either (a pair
        # reinstated later would then play a board it had seen).
        (locked,), status = read_together(
            (_LOCK_TABLE, {"pk": table.pk}), (_ROUND_STATUS, {"pk": table.round_id})
        )
        _refuse_unless_playing(table, status, locked, side)
        _check_reached_again(table, board_number, actor, seen)
        new = unlock_board(
            table=table, board=board, actor=actor, reason=BoardUnlock.Reason.DECLARED
        )
        return new or BoardUnlock.objects.get(table=table, board=board)


def short_values(*, board: Board, data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a short result and compute its score with the engine (never typed by people)."""
    problems: list[FieldProblem] = []
    trump = data.get("trump")
    delegated = data.get("delegated", False)
    if trump in (None, ""):
        problems.append(
            FieldProblem("trump", _("Choose the trump: oros, copes, espases, bastos or botifarra."))
        )
    doubles = data.get("doubles") or []
    totals = data.get("totals")
    offending = data.get("offending_pair") or None
    if not isinstance(delegated, bool):
        problems.append(FieldProblem("delegated", _("delegated must be true or false")))
    if not isinstance(doubles, list):
        problems.append(FieldProblem("doubles", _("doubles must be a list of calls")))
        doubles = []
    if (totals is None) == (offending is None):
        problems.append(
            FieldProblem(
                "totals",
                _("Give either the two hand totals or the pair that played an illegal card."),
            )
        )
    if totals is not None and not isinstance(totals, Mapping):
        problems.append(FieldProblem("totals", _("totals must hold NS and EW")))
    if offending is not None and offending not in ("NS", "EW"):
        problems.append(FieldProblem("offending_pair", _("offending_pair must be NS or EW")))
    if problems:
        raise InvalidSubmission(problems)
    try:
        short = play.short_score(
            board,
            delegated=delegated,
            trump=str(trump),
            doubles=doubles,
            totals=totals,
            offending_pair=offending,
        )
    except engine.InvalidRecord as exc:
        raise InvalidSubmission.of(exc.problems) from None
    return {
        "delegated": delegated,
        "trump": trump,
        "doubles": [{"seat": d["seat"], "call": d["call"]} for d in doubles],
        "totals_ns": totals["NS"] if totals is not None else None,
        "totals_ew": totals["EW"] if totals is not None else None,
        "offending_pair": offending or "",
        "multiplier": short.multiplier,
        "score_ns": short.score["NS"],
        "score_ew": short.score["EW"],
        "capot": short.capot,
    }


AGREED_FIELDS = ("delegated", "trump", "doubles", "totals_ns", "offending_pair")


def _agree(result: BoardResult, values: Mapping[str, Any]) -> bool:
    return all(getattr(result, f) == values[f] for f in AGREED_FIELDS)


def record_agrees(result: BoardResult, stored: PlayRecord) -> bool:
    """Whether ``result`` holds the values of a stored play record: its trump, calls and
    totals, or the pair that played its illegal card."""
    verdict, record = stored.verdict, stored.record
    if verdict.get("outcome") == engine.Outcome.COMPLETE.value:
        totals_ns, offending = verdict["totals"]["NS"], ""
    elif verdict.get("outcome") == engine.Outcome.ILLEGAL.value:
        totals_ns, offending = None, engine.Seat[verdict["seat"]].pair
    else:
        return False
    choice = record.get("choice") or {}
    return _agree(
        result,
        {
            "delegated": bool(choice.get("delegated")),
            "trump": choice.get("trump"),
            "doubles": [
                {"seat": d["seat"], "call": d["call"]} for d in record.get("doubles") or []
            ],
            "totals_ns": totals_ns,
            "offending_pair": offending,
        },
    )


def record_in_force(result: BoardResult) -> PlayRecord | None:
    """The play record the result's values come from: the latest that agrees with them (a
    referee may have accepted an earlier one). When none does, the latest sent while no ruling
    decided (a short result, then a record that contradicts it: the dispute is about that
    record); None once a ruling replaced them."""
    records = list(result.play_records.order_by("-created_at", "-pk"))
    agreeing = next((r for r in records if record_agrees(result, r)), None)
    if agreeing is None and records and result.status != BoardResult.Status.RULED:
        return records[0]
    return agreeing


def _snapshot(result: BoardResult) -> dict[str, Any]:
    return {
        f: getattr(result, f)
        for f in (
            *AGREED_FIELDS,
            "totals_ew",
            "multiplier",
            "score_ns",
            "score_ew",
            "capot",
            "status",
            "source",
            "adjusted_ns",
            "adjusted_ew",
        )
    }


def save_audited(
    result: BoardResult,
    *,
    actor: Actor,
    action: str,
    before: dict[str, Any],
    note: str = "",
    audits: list[AuditEntry] | None = None,
    fields: Sequence[str] | None = None,
) -> None:
    """Store a change of ``result`` (``before`` is its ``_snapshot``): a new version and its
    audit entry, old → new per field. Every change of a stored result goes through here.
    ``audits``: the request's audit entries, stored together by the caller; else stored here.
    ``fields``: the only fields the change set, written with the version and the time of the
    update (a smaller statement); None: every field."""
    result.version += 1
    update_fields = None if fields is None else (*fields, "version", "updated_at")
    written = audit.entry(
        event=result.table.round.event,
        result=result,
        actor=actor.label,
        action=action,
        changes=audit.diff(before, _snapshot(result)),
        note=note,
    )
    if audits is None:
        update_then_insert(result, update_fields, [written])
    else:
        update_row(result, update_fields)
        audits.append(written)


# The reads of every submission, compiled once (tournaments.prepared).
_LOCK_TABLE = Prepared(
    lambda pk: (
        Table.objects.select_for_update(of=("self",), no_key=True)
        .filter(pk=pk)
        .order_by()
        .values_list("forfeited_by", "codes_version", "time_after")
    ),
    pk=int,
)
_ROUND_STATUS = Prepared(
    lambda pk: Round.objects.filter(pk=pk).order_by().values_list("status", "first_closed_at"),
    pk=int,
)
_LOCK_RESULT = Prepared(
    lambda table, board: (
        BoardResult.objects.select_for_update(of=("self",), no_key=True)
        .filter(table_id=table, board_id=board)
        .order_by()
    ),
    table=int,
    board=int,
)
_LAST_SUBMISSION = Prepared(
    lambda result, side: Submission.objects.filter(result_id=result, side=side).order_by("-pk")[:1],
    result=int,
    side=str,
)


_UNLOCKED = Prepared(
    lambda table, board: (
        BoardUnlock.objects.filter(table_id=table, board_id=board).order_by().values_list("pk")
    ),
    table=int,
    board=int,
)


def _locked_result(
    table: Table, board: Board, side: str, *also: tuple[Prepared, dict[str, Any]]
) -> tuple[BoardResult | None, bool, list[list[Any]]]:
    """The table's result of the board (locked, with the table), whether the table has
    unlocked the board, and the rows of the reads ``also``: what a submission reads, in one
    round trip (``read_together``)."""
    # The race: two devices of one table post the same board at the same moment. Locking the
    # table row serialises them, so the second sees the first's result and confirms or
    # disputes it instead of creating a second one (the unique constraint is the backstop).
    # The reads after the lock are statements of their own, each with a new snapshot: the
    # round may have closed since the table was read, and closing locks every table of the
    # round first, so what they read, holding this table's lock, is final. Every writer of
    # an unlock holds the table's lock too.
    (locked,), status, found, unlocked, *extra = read_together(
        (_LOCK_TABLE, {"pk": table.pk}),
        (_ROUND_STATUS, {"pk": table.round_id}),
        (_LOCK_RESULT, {"table": table.pk, "board": board.pk}),
        (_UNLOCKED, {"table": table.pk, "board": board.pk}),
        *also,
    )
    _refuse_unless_playing(table, status, locked, side)
    result = found[0] if found else None
    if result is not None:
        result.table, result.board = table, board  # already read: no query when audited
    return result, bool(unlocked), extra


def codes_renewed() -> NotAllowed:
    """The refusal of a pair's request let in with the table's codes that the organiser renewed
    while it waited for the table's lock: the old codes stop at once."""
    return NotAllowed(
        _("This table's codes were renewed meanwhile: enter the table's new code."), field="code"
    )


def refuse_renewed_codes(table_pk: int, codes_version: int) -> None:
    """Lock the table's row and refuse a pair's request let in with codes the organiser has
    renewed since (it waited for the lock while they were): the old codes stop at once."""
    now = (
        Table.objects.select_for_update(of=("self",), no_key=True)
        .filter(pk=table_pk)
        .values_list("codes_version", flat=True)
        .first()
    )
    if now != codes_version:
        raise codes_renewed()


def _refuse_unless_playing(
    table: Table,
    status: list[tuple[str, Any]],
    locked: tuple[str | None, int, int | None],
    side: str,
) -> None:
    """Refuses a result for ``table`` unless its round (its status read under the table's lock)
    is open, its match is not forfeited and, for a pair (``side``), the table's codes were not
    renewed since the request was let in (``locked``: the table's forfeit, codes version and
    time call read under its lock). A team's line-up change re-seats a table and renews its
    codes: a request holding an old code that waited for the lock must not store for the new
    pairs. ``table`` then holds the time call and the round's first close as the lock read
    them, for :func:`_check_reached_again`."""
    forfeited_by, codes_version, time_after = locked
    if side and codes_version != table.codes_version:
        raise codes_renewed()
    if [row[0] for row in status] != [Round.Status.OPEN]:
        raise ServiceError(
            _("Round %(n)s is not open for results.") % {"n": table.round.number}, field="round"
        )
    if forfeited_by:
        raise ServiceError(
            _("A pair of this table withdrew: its match is forfeited and takes no more results."),
            field="table",
        )
    table.time_after, table.round.first_closed_at = time_after, status[0][1]


def _check_reached_again(
    table: Table, board_number: int, actor: Actor, seen: tuple[int | None, Any]
) -> None:
    """:func:`_check_reached` and :func:`_check_not_shown` once more under the table's lock,
    when what they depend on may have moved since the request checked them (``seen``: the time
    call and the round's first close it read then): the time called meanwhile, the round closed
    and reopened meanwhile, or, in a game, another board of the table that ended it. In
    sequence such a board is refused; waiting for the lock must not let it through."""
    moved = (table.time_after, table.round.first_closed_at) != seen
    event = table.round.event
    if moved or event.match_mode == event.MatchMode.GAME:
        _check_reached(table, board_number, actor)
    if moved:
        _check_not_shown(table, board_number, actor)


def open_dispute(
    result: BoardResult,
    reason: str,
    actor: Actor,
    details: str = "",
    previous_status: str = "",
    audits: list[AuditEntry] | None = None,
    side: str = "",
) -> Dispute:
    existing = result.disputes.filter(status=Dispute.Status.OPEN).first()
    if existing is not None:
        return existing
    dispute = Dispute.objects.create(
        result=result,
        reason=reason,
        opened_by=actor.label,
        opened_side=side,
        details=details,
        previous_status=previous_status,
    )
    written = audit.entry(
        event=result.table.round.event,
        result=result,
        actor=actor.label,
        action="dispute_opened",
        changes={"reason": [None, reason]},
        note=details,
    )
    audit.keep(written, audits)
    _emit_result(webhooks.DISPUTE_OPENED, result, dispute=dispute.pk, reason=reason)
    return dispute


def _emit_result(
    kind: str, result: BoardResult, hooks: list[Webhook] | None = None, **data: object
) -> None:
    """A webhook about one board at one table: where it is, never its cards or scores."""
    table = result.table
    webhooks.emit(
        table.round.event,
        kind,
        lambda: {
            "result": result.pk,
            "round": table.round.number,
            "table": table.number,
            "board": result.board.number,
            **data,
        },
        hooks=hooks,
    )


@dataclass(frozen=True)
class _Record:
    """A replayed play record: its canonical form, the JSON as received, and the verdict."""

    canonical: dict[str, Any]
    received: str  # PlayRecord.received
    verdict: engine.Verdict


def _repeats_last(
    result: BoardResult,
    side: str,
    source: str,
    data: dict[str, Any],
    record: _Record | None,
) -> bool:
    """Is this the same thing the same side last sent? (A retry must not store a new version.)"""
    last = _LAST_SUBMISSION.first(result=result.pk, side=side)
    if last is None or last.source != source or last.data != data:
        return False
    if record is None:
        return True
    previous = PlayRecord.objects.filter(submission=last).only("record").first()
    return previous is not None and previous.record == record.canonical


REFUSALS = {
    Refusal.RULED: lambda r: _("A referee has ruled on this board; open a dispute to change it."),
    Refusal.CONFIRMED: lambda r: _("This board is already confirmed; open a dispute to change it."),
    Refusal.VERSION_CHANGED: lambda r: (
        _("This result changed meanwhile (now version %(v)s): reload it.") % {"v": r.version}
    ),
    Refusal.ALREADY_ENTERED: lambda r: (
        _(
            "You already entered this board. To correct it, send it again with its current "
            "version (%(v)s)."
        )
        % {"v": r.version}
    ),
}


def _refuse(refusal: Refusal, result: BoardResult) -> Conflict:
    field = None if refusal in (Refusal.RULED, Refusal.CONFIRMED) else "version"
    return Conflict(REFUSALS[refusal](result), field=field)


def _store(
    *,
    table: Table,
    board: Board,
    actor: Actor,
    side: str,
    source: str,
    values: dict[str, Any],
    submission_data: dict[str, Any],
    expected_version: int | None,
    record: _Record | None = None,
) -> Outcome:
    """Write what ``result_states.transition`` decides for this submission."""
    event = table.round.event
    seen = (table.time_after, table.round.first_closed_at)
    result, unlocked, _ = _locked_result(table, board, side)
    _check_reached_again(table, board.number, actor, seen)
    incoming = Incoming(
        side=side,
        source=source,
        illegal=bool(values["offending_pair"]),
        agrees=result is not None and _agree(result, values),
        version=expected_version,
    )
    stored = (
        None
        if result is None
        else Stored(result.status, result.source, result.entered_side, result.version)
    )
    decision = transition(stored, incoming)
    if decision.refusal is not None:
        assert result is not None
        raise _refuse(decision.refusal, result)
    created = result is None
    # The new rows (the result when it is new, the submission, the play record, the audit
    # entries) are stored together, in one statement (rows.insert_linked), once all is known.
    new_rows: list[Any] = []
    audits: list[AuditEntry] = []
    if result is None:
        result = BoardResult(
            table=table,
            board=board,
            status=decision.status,
            source=decision.source,
            entered_by=actor.label,
            entered_side=side,
            **values,
        )
        new_rows.append(result)
        audits.append(
            audit.entry(
                event=event,
                result=result,
                actor=actor.label,
                action="result_entered",
                changes=audit.diff({}, _snapshot(result)),
            )
        )
    else:
        before = _snapshot(result)
        if decision.take_values:
            for key, value in values.items():
                setattr(result, key, value)
        if decision.status is not None:
            result.status = decision.status
        if decision.source is not None:
            result.source = decision.source
        if decision.confirmed:
            result.confirmed_by = actor.label
        if _snapshot(result) != before:
            save_audited(
                result,
                actor=actor,
                action=f"result_{result.status}",
                before=before,
                audits=audits,
            )
    if not unlocked:
        unlock, written = _new_unlock(
            table=table, board=board, actor=actor, reason=BoardUnlock.Reason.RESULT
        )
        new_rows.append(unlock)
        audits.append(written)
    verdict = record.verdict if record is not None else None
    stored_record = None
    if created or not _repeats_last(result, side, source, submission_data, record):
        submission = Submission(
            result=result, source=source, side=side, submitted_by=actor.label, data=submission_data
        )
        new_rows.append(submission)
        if record is not None:
            stored_record = PlayRecord(
                result=result,
                submission=submission,
                record=record.canonical,
                received=record.received,
                verdict=record.verdict.to_json(),
                outcome=record.verdict.outcome.value,
            )
            new_rows.append(stored_record)
    opened = None
    if decision.dispute is not None:
        insert_linked(new_rows)  # a dispute points at the stored result
        new_rows = []
        opened = open_dispute(result, decision.dispute, actor, audits=audits)
    insert_linked(new_rows + audits)
    if stored_record is not None and stored_record.outcome in ANALYSED_OUTCOMES:
        # Judged now, not when the round closes: a referee rules on it while the round is open.
        queue.request_record_analysis(stored_record.pk)
    if result.status == BoardResult.Status.CONFIRMED and (
        stored is None or stored.status != BoardResult.Status.CONFIRMED
    ):
        _emit_result(webhooks.RESULT_CONFIRMED, result)
    # Every stored change asks for the standings: an entered result becoming disputed or
    # ruled changes them as much as a confirmation (requests coalesce per transaction).
    queue.request_standings(event)
    disputes = ([opened] if opened else []) if created else None
    return Outcome(result=result, created=created, verdict=verdict, disputes=disputes)


def result_submit_short(
    *,
    table: Table,
    board_number: int,
    actor: Actor,
    data: Mapping[str, Any],
    expected_version: int | None = None,
) -> Outcome:
    """Enter (or, from the other pair, confirm by entering the same) a short result."""
    side = _check_can_enter(table, actor)
    board = board_for_table(table, board_number)
    _check_reached(table, board_number, actor)
    _check_not_shown(table, board_number, actor)
    values = short_values(board=board, data=data)
    return _in_transaction(
        lambda: _store(
            table=table,
            board=board,
            actor=actor,
            side=side,
            source=BoardResult.Source.SHORT,
            values=values,
            submission_data=dict(data),
            expected_version=expected_version,
        )
    )


def refused_record_problem(board_number: int) -> FieldProblem:
    """What a table that may not see the board yet is told of a record that does not fit it:
    the same words whatever the cards, so that trying records teaches nothing."""
    return FieldProblem(
        "play",
        _(
            "This record does not fit the cards of board %(n)s. Until your table has entered "
            "this board or declared it played, a record is only checked for its form: declare "
            "the board played, then send the record again to see what is wrong."
        )
        % {"n": board_number},
    )


def result_submit_play_record(
    *,
    table: Table,
    board_number: int,
    actor: Actor,
    record: Any,
    expected_version: int | None = None,
) -> Outcome:
    """Replay a whole hand; complete sets the result, illegal opens a dispute, invalid is refused.

    For a table that may not see the board yet, only problems that do not depend on the cards
    are reported (``engine.check_form``); a record that fails against the cards gets one fixed
    sentence and is written on the audit trail, so that probing is seen and learns nothing.
    """
    side = _check_can_enter(table, actor)
    board = board_for_table(table, board_number)
    _check_reached(table, board_number, actor)
    _check_not_shown(table, board_number, actor)
    event = table.round.event
    may_see = policy.can_see_cards(actor, board, table=table)
    if not may_see:
        form = play.check_form(board, record)
        if form:
            raise InvalidSubmission.of(form)
    verdict = play.replay(board, record)
    if verdict.outcome == engine.Outcome.INVALID:
        if not may_see:
            audit.record_kept(
                event=event,
                actor=actor.label,
                action="record_refused",
                changes={"board": [None, board.number], "table": [None, table.number]},
            )
            raise InvalidSubmission([refused_record_problem(board.number)])
        raise InvalidSubmission.of(verdict.problems)
    values = play.stored_values(verdict, record)
    replayed = _Record(play.canonical(board, record), play.as_sent(record), verdict)
    return _in_transaction(
        lambda: _store(
            table=table,
            board=board,
            actor=actor,
            side=side,
            source=BoardResult.Source.PLAY_RECORD,
            values=values,
            submission_data={"play_record": True},
            expected_version=expected_version,
            record=replayed,
        )
    )


def result_confirm(
    *, result: BoardResult, actor: Actor, expected_version: int | None = None
) -> BoardResult:
    """The other pair (or an organiser) confirms an entered result."""
    table = result.table
    side = _check_can_enter(table, actor)
    event = table.round.event

    def confirm() -> BoardResult:
        # The webhooks a confirmation notifies, read in the same round trip.
        locked, _unlocked, (hooks,) = _locked_result(
            table, result.board, side, webhooks.hooks_read(event)
        )
        assert locked is not None
        return _confirm_locked(locked, side, actor, expected_version, hooks)

    return _in_transaction(confirm)


_LOCK_RESULT_AT = Prepared(
    lambda pk, table: (
        BoardResult.objects.select_for_update(of=("self",), no_key=True)
        .select_related("board")
        .filter(pk=pk, table_id=table)
        .order_by()
    ),
    pk=int,
    table=int,
)


def result_confirm_at_table(
    *,
    table: Table,
    result_pk: int,
    actor: Actor,
    expected_version: int | None = None,
    also: Sequence[tuple[Prepared, dict[str, Any]]] = (),
) -> tuple[BoardResult, list[list[Any]]] | None:
    """:func:`result_confirm` for result ``result_pk`` of ``table``, known by its id only (a
    table's own request): the result is read and locked in the round trip that locks the
    table, one fewer than reading it first; with it, the rows of the reads ``also``.

    None, having changed nothing, when ``table`` has no such result: the caller reads the
    result and calls :func:`result_confirm`, which refuses what it must as it always does.
    """
    side = _check_can_enter(table, actor)
    event = table.round.event

    def confirm() -> tuple[BoardResult, list[list[Any]]] | None:
        (row,), status, found, hooks, *extra = read_together(
            (_LOCK_TABLE, {"pk": table.pk}),
            (_ROUND_STATUS, {"pk": table.round_id}),
            (_LOCK_RESULT_AT, {"pk": result_pk, "table": table.pk}),
            webhooks.hooks_read(event),
            *also,
        )
        if not found:
            return None
        _refuse_unless_playing(table, status, row, side)
        locked = found[0]
        locked.table = table
        return _confirm_locked(locked, side, actor, expected_version, hooks), extra

    return _in_transaction(confirm)


def _confirm_locked(
    locked: BoardResult,
    side: str,
    actor: Actor,
    expected_version: int | None,
    hooks: list[Webhook],
) -> BoardResult:
    event = locked.table.round.event
    if expected_version is not None and expected_version != locked.version:
        raise Conflict(
            _("This result changed meanwhile (now version %(v)s): reload it.")
            % {"v": locked.version},
            field="version",
        )
    if locked.status == BoardResult.Status.CONFIRMED:
        return locked
    if locked.status != BoardResult.Status.ENTERED:
        raise Conflict(
            _("This result is %(s)s and cannot be confirmed.")
            % {"s": locked.get_status_display().lower()}
        )
    if side and side == locked.entered_side and not actor.is_organiser(event):
        raise NotAllowed(_("The other pair must confirm the result you entered."))
    before = _snapshot(locked)
    locked.status = BoardResult.Status.CONFIRMED
    locked.confirmed_by = actor.label
    save_audited(
        locked,
        actor=actor,
        action="result_confirmed",
        before=before,
        fields=("status", "confirmed_by"),
    )
    _emit_result(webhooks.RESULT_CONFIRMED, locked, hooks)
    queue.request_standings(event)
    return locked
