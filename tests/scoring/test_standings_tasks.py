"""The standings task through a real worker and Redis: coalescing, the lock, late results."""

import threading

import pytest
from django.core.cache import cache
from django.db import connection

from tests.conftest import wait_for
from tournaments import scoring_io
from tournaments.actors import Actor
from tournaments.models import BoardResult, StandingsSnapshot
from tournaments.services import results
from tournaments.tasks import STANDINGS_OVERLAP, STANDINGS_RUNS, recompute_standings

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _enter(table, board_number, ns_total=40):
    data = {
        "delegated": False,
        "trump": "copes",
        "doubles": [],
        "totals": {"NS": ns_total, "EW": 72 - ns_total},
    }
    results.result_submit_short(
        table=table, board_number=board_number, actor=Actor(table=table, side="NS"), data=data
    )
    results.result_submit_short(
        table=table, board_number=board_number, actor=Actor(table=table, side="EW"), data=data
    )


def _runs(event):
    return cache.get(STANDINGS_RUNS.format(event.pk)) or 0


def _complete(event, expected):
    snap = StandingsSnapshot.objects.filter(event=event, after_round=1).first()
    return snap is not None and snap.results_counted == expected


def test_a_burst_of_results_leads_to_one_or_two_recomputations(
    celery_worker_process, running_event
):
    tables = list(running_event.rounds.get(number=1).tables.all())
    for table in tables:
        for number in table.round.board_numbers:
            _enter(table, number)
    # The run counts itself after its snapshot is committed: wait for both.
    assert wait_for(lambda: _complete(running_event, 4) and _runs(running_event) >= 1, timeout=30)
    assert _runs(running_event) <= 2, _runs(running_event)


def test_the_lock_keeps_parallel_recomputations_apart(celery_worker_factory, running_event):
    celery_worker_factory(concurrency=2)
    for table in running_event.rounds.get(number=1).tables.all():
        for number in table.round.board_numbers:
            _enter(table, number)
    for _ in range(6):
        recompute_standings.delay(running_event.pk)
    assert wait_for(lambda: _runs(running_event) >= 7, timeout=60), _runs(running_event)
    assert cache.get(STANDINGS_OVERLAP.format(running_event.pk)) is None
    assert StandingsSnapshot.objects.filter(event=running_event).count() == 1
    assert _complete(running_event, 4)


def test_results_arriving_during_a_recomputation_end_up_in_the_standings(
    celery_worker_process, running_event, monkeypatch
):
    tables = list(running_event.rounds.get(number=1).tables.all())
    boards = list(tables[0].round.board_numbers)
    _enter(tables[0], boards[0])
    # While the worker recomputes, more results arrive from another thread of this process.
    late = threading.Thread(
        target=lambda: (
            [
                _enter(t, b)
                for t in tables
                for b in boards
                if not (t == tables[0] and b == boards[0])
            ],
            connection.close(),
        )
    )
    late.start()
    late.join()
    assert wait_for(lambda: _complete(running_event, 4), timeout=30)
    running_event.refresh_from_db()
    assert not scoring_io.standings_stale(running_event)
    assert BoardResult.objects.filter(status="confirmed").count() == 4
