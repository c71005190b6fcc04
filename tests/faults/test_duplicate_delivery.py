"""The same task delivered twice through a real worker ends as if it had been delivered once.

Redis-backed Celery delivers at least once (a message is redelivered after a lost worker or a
visibility timeout), so every task must be safe to run twice. Here the same message (same
task id, same arguments) is published twice to a prefork worker of two processes, so the two
deliveries may run at the same moment.
"""

import json
import uuid

import pytest
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder

import engine
from tests.conftest import wait_for
from tests.factories import EventFactory
from tests.faults.conftest import build_big_event, counted, expected_rows
from tournaments.models import Board, Event, StandingsSnapshot
from tournaments.tasks import (
    STANDINGS_OVERLAP,
    STANDINGS_RUNS,
    generate_boards,
    recompute_standings,
)

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _succeeded(worker, task_id: str) -> int:
    return worker.text().count(f"[{task_id}] succeeded")


def _snapshots(event) -> list[tuple]:
    return [
        (s.after_round, s.results_counted, s.rows, s.matches)
        for s in StandingsSnapshot.objects.filter(event=event).order_by("after_round")
    ]


def test_recompute_standings_delivered_twice(workers):
    event = build_big_event(pairs=40, rounds=3, boards=4)
    worker = workers.start(concurrency=2, pool="prefork")
    once = str(uuid.uuid4())
    recompute_standings.apply_async((event.pk,), task_id=once)
    assert wait_for(lambda: _succeeded(worker, once) == 1, timeout=30), worker.text()[-3000:]
    after_one = _snapshots(event)

    twice = str(uuid.uuid4())
    recompute_standings.apply_async((event.pk,), task_id=twice)
    recompute_standings.apply_async((event.pk,), task_id=twice)
    assert wait_for(lambda: _succeeded(worker, twice) == 2, timeout=60), worker.text()[-3000:]
    assert cache.get(STANDINGS_RUNS.format(event.pk)) == 3
    assert _snapshots(event) == after_one
    assert len(after_one) == 3 and after_one[-1][1] == counted(event)
    want = json.loads(json.dumps(expected_rows(event), cls=DjangoJSONEncoder))
    assert after_one[-1][2] == want
    assert cache.get(STANDINGS_OVERLAP.format(event.pk)) is None


def test_generate_boards_delivered_twice(workers):
    event = EventFactory(status=Event.Status.RUNNING, rounds_count=4, boards_per_round=6)
    worker = workers.start(concurrency=2, pool="prefork")
    task_id = str(uuid.uuid4())
    generate_boards.apply_async((event.pk,), task_id=task_id)
    generate_boards.apply_async((event.pk,), task_id=task_id)
    assert wait_for(lambda: _succeeded(worker, task_id) == 2, timeout=60), worker.text()[-3000:]
    boards = list(Board.objects.filter(event=event).order_by("number"))
    assert [b.number for b in boards] == list(range(1, event.total_boards + 1))
    for board in boards:
        deal = engine.deal_board(event.seed, board.number).to_json()
        assert (board.dealer, board.hands) == (deal["dealer"], deal["hands"])
    event.refresh_from_db()
    assert event.boards_ready == event.total_boards
