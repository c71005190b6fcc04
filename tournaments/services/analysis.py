"""Perfect-play analysis stored per board and per play record (docs/analysis.md).

Only the analysis tasks (``tasks_analysis.py``) call these: a board takes five whole-deal
solves (seconds to minutes), a record's card costs about one more, so nothing a person waits for
ever runs them. Each is safe to run twice: what is stored under the event's current rules is
kept; an analysis made under other rules (the organiser changed them) is made again.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q

import engine
from tournaments import play
from tournaments.models import Board, BoardAnalysis, Event, PlayRecord, PlayRecordAnalysis

log = logging.getLogger(__name__)

# Records whose cards can be judged: every card legal, or legal up to an illegal one. An
# invalid record describes no real hand.
ANALYSED_OUTCOMES = ("complete", "illegal")


def _current(event: Event) -> Q:
    """Stored under the event's rules (R11): anything else must be made again."""
    return Q(ruleset=event.ruleset, sant_vicenc_in_botifarra=event.sant_vicenc_in_botifarra)


def _store(model: type, key: dict, values: dict) -> None:
    """Create or replace the row. The race: two workers running the same task (a redelivered
    message, a repeat request) both find nothing and both create; the second one's unique key
    fails and it replaces the first's row with the same values instead."""
    try:
        with transaction.atomic():
            model.objects.update_or_create(**key, defaults=values)
    except IntegrityError:
        if not model.objects.filter(**key).update(**values):
            raise  # not that race: a real error


def board_analyse(*, board_id: int) -> bool:
    """Solve the board under the five trumps and store its par; False when there was nothing to
    do (no such board, or already analysed under the event's rules)."""
    board = Board.objects.select_related("event").filter(pk=board_id).first()
    if board is None:
        return False
    event = board.event
    if BoardAnalysis.objects.filter(_current(event), board=board).exists():
        return False
    started = time.perf_counter()
    analysis = play.analyse(board)
    _store(
        BoardAnalysis,
        {"board": board},
        {
            "ruleset": event.ruleset,
            "sant_vicenc_in_botifarra": event.sant_vicenc_in_botifarra,
            "points": dict(analysis.points),
            "par": analysis.par.to_json(),
            "backend": play.SOLVER,
            "seconds": round(time.perf_counter() - started, 3),
        },
    )
    return True


def record_analyse(*, play_record_id: int) -> bool:
    """Judge every card of a stored play record; False when there was nothing to do."""
    stored = (
        PlayRecord.objects.select_related("result__board__event")
        .filter(pk=play_record_id, outcome__in=ANALYSED_OUTCOMES, result__isnull=False)
        .first()
    )
    if stored is None or stored.result is None:
        return False
    board = stored.result.board
    event = board.event
    if PlayRecordAnalysis.objects.filter(_current(event), play_record=stored).exists():
        return False
    started = time.perf_counter()
    try:
        costs = play.card_costs(board, stored.record)
    except engine.InvalidRecord:
        # Stored as complete or illegal, so the replay accepted it; only a change of the
        # event's rules since could make it invalid now. Nothing to judge.
        log.warning("play record %s no longer replays; not analysed", stored.pk)
        return False
    _store(
        PlayRecordAnalysis,
        {"play_record": stored},
        {
            "ruleset": event.ruleset,
            "sant_vicenc_in_botifarra": event.sant_vicenc_in_botifarra,
            "costs": [c.to_json() for c in costs],
            "backend": play.SOLVER,
            "seconds": round(time.perf_counter() - started, 3),
        },
    )
    return True


@dataclass(frozen=True)
class Pending:
    """What of an event is still to analyse: board ids (by number), then play record ids."""

    boards: list[int]
    records: list[int]


def analysis_pending(event: Event) -> Pending:
    """The event's boards and judgeable play records without a current analysis."""
    current = _current(event)
    done_boards = BoardAnalysis.objects.filter(current, board__event=event).values("board_id")
    done_records = PlayRecordAnalysis.objects.filter(
        current, play_record__result__board__event=event
    ).values("play_record_id")
    boards = (
        Board.objects.filter(event=event)
        .exclude(pk__in=done_boards)
        .order_by("number")
        .values_list("pk", flat=True)
    )
    records = (
        PlayRecord.objects.filter(
            result__board__event=event, outcome__in=ANALYSED_OUTCOMES, result__isnull=False
        )
        .exclude(pk__in=done_records)
        .order_by("result__board__number", "pk")
        .values_list("pk", flat=True)
    )
    return Pending(boards=list(boards), records=list(records))


def event_analyse(*, event: Event) -> Pending:
    """Analyse everything pending now, in this process (``manage.py analyse_event``, the
    benchmark, and set-ups without a worker); what was pending."""
    pending = analysis_pending(event)
    for board_id in pending.boards:
        board_analyse(board_id=board_id)
    for record_id in pending.records:
        record_analyse(play_record_id=record_id)
    return pending
