"""Perfect-play analysis in the background, on its own Celery queue ``analysis``
(``CELERY_TASK_ROUTES``), so that long solves never hold up the standings or the PDFs: run a
worker with ``-Q analysis`` (docs/deploy.md).

``analyse_event`` queues one task per board, then one per play record, for what is not yet
analysed; each of those takes one id and stores its analysis from scratch, so a repeat only
finds the work done.
"""

from __future__ import annotations

from celery import Task, shared_task

from tournaments.models import Event
from tournaments.services.analysis import analysis_pending, board_analyse, record_analyse
from tournaments.tasks import BaseTask


@shared_task(base=BaseTask, bind=True)
def analyse_event(self: Task, event_id: int) -> int:
    """Queue the analysis of every board and play record of the event not yet analysed."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    pending = analysis_pending(event)
    for board_id in pending.boards:
        analyse_board.delay(board_id)
    for record_id in pending.records:
        analyse_record.delay(record_id)
    return len(pending.boards) + len(pending.records)


@shared_task(base=BaseTask, bind=True)
def analyse_board(self: Task, board_id: int) -> bool:
    return board_analyse(board_id=board_id)


@shared_task(base=BaseTask, bind=True)
def analyse_record(self: Task, play_record_id: int) -> bool:
    return record_analyse(play_record_id=play_record_id)
