"""A worker killed in the middle of a standings recomputation: the task runs again and ends right.

The event is big (the benchmarks' generator, written with bulk_create) so that a recomputation
takes long enough to be interrupted; the test waits until the task holds the event's lock (it
has started), SIGKILLs the process running it, and checks that the standings still end up
complete and equal to a direct computation, and that the lock left behind does not block them.
"""

import json
import os
import signal
import time

import pytest
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder

from tests.conftest import wait_for
from tests.faults.conftest import build_big_event, children, counted, expected_rows
from tournaments.models import StandingsSnapshot
from tournaments.tasks import (
    STANDINGS_LOCK,
    STANDINGS_OVERLAP,
    STANDINGS_RUNS,
    lock_retry_delays,
    recompute_standings,
)

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LOCK_TIMEOUT = 5  # seconds; the workers get it through STANDINGS_LOCK_TIMEOUT
SIZE = {"pairs": 600, "rounds": 8, "boards": 6}  # 14,400 results: about 2 s to recompute


def _json(value):
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _runs(event) -> int:
    return cache.get(STANDINGS_RUNS.format(event.pk)) or 0


def _assert_standings_right(event) -> None:
    snap = StandingsSnapshot.objects.get(event=event, after_round=event.rounds_count)
    assert snap.results_counted == counted(event)
    assert StandingsSnapshot.objects.filter(event=event).count() == event.rounds_count
    want = _json(expected_rows(event))
    assert [(r["entry"], r["rank"]) for r in snap.rows] == [(r["entry"], r["rank"]) for r in want]
    assert snap.rows == want
    event.refresh_from_db()
    assert event.standings_updated_at is not None
    assert cache.get(STANDINGS_OVERLAP.format(event.pk)) is None


def _wait_until_started(event, timeout: float = 30) -> None:
    """The task has started once it holds the event's lock (taken before any work)."""
    assert wait_for(
        lambda: cache.get(STANDINGS_LOCK.format(event.pk)) is not None,
        timeout=timeout,
        interval=0.02,
    ), "the recomputation never started"


def _killed_mid_task(event) -> None:
    """Nothing of the killed run is visible: no snapshot (one transaction), no finished run."""
    assert _runs(event) == 0, "the recomputation finished before the kill: make the event bigger"
    assert not StandingsSnapshot.objects.filter(event=event).exists()


def test_retries_on_a_busy_lock_outlast_the_lock():
    for timeout in (5, 60, 300, 900):
        delays = lock_retry_delays(timeout)
        assert sum(delays) / 2 >= timeout  # the low end of the jitter still outlasts it
        assert max(delays) <= 2  # a run in progress ends soon: its follower waits little


def test_the_pool_process_killed_mid_task_and_the_task_runs_again(workers, monkeypatch):
    event = build_big_event(**SIZE)
    monkeypatch.setenv("STANDINGS_LOCK_TIMEOUT", str(LOCK_TIMEOUT))
    worker = workers.start(concurrency=1, pool="prefork")
    (child,) = children(worker.proc.pid)
    started = time.monotonic()
    recompute_standings.delay(event.pk)
    _wait_until_started(event)
    os.kill(child, signal.SIGKILL)
    _killed_mid_task(event)
    # The killed run left its lock behind: the redelivered task retries until it expires.
    assert cache.get(STANDINGS_LOCK.format(event.pk)) is not None
    assert wait_for(lambda: _runs(event) >= 1, timeout=60), worker.text()[-3000:]
    elapsed = time.monotonic() - started
    assert _runs(event) == 1
    _assert_standings_right(event)
    assert cache.get(STANDINGS_LOCK.format(event.pk)) is None, "the lock stays stuck"
    log = worker.text()
    assert "WorkerLostError" in log or "SIGKILL" in log, log[-3000:]
    assert elapsed < LOCK_TIMEOUT + 40


def test_the_whole_worker_killed_mid_task_and_a_new_worker_finishes_it(workers, monkeypatch):
    """The message was never acknowledged: after the visibility timeout it comes back."""
    event = build_big_event(**SIZE)
    monkeypatch.setenv("STANDINGS_LOCK_TIMEOUT", str(LOCK_TIMEOUT))
    monkeypatch.setenv("CELERY_VISIBILITY_TIMEOUT", "5")
    first = workers.start(concurrency=1, pool="prefork")
    recompute_standings.delay(event.pk)
    _wait_until_started(event)
    delivered = time.monotonic()
    os.killpg(first.proc.pid, signal.SIGKILL)
    first.proc.wait(timeout=10)
    _killed_mid_task(event)
    # A worker restores unacknowledged messages older than the visibility timeout when it
    # starts (and then every 100 s by kombu's defaults): start it once the timeout has passed,
    # as a supervisor restarting a dead worker after a while would.
    time.sleep(max(0.0, delivered + 6 - time.monotonic()))
    second = workers.start(concurrency=1, pool="prefork")
    assert wait_for(lambda: _runs(event) >= 1, timeout=60), second.text()[-3000:]
    _assert_standings_right(event)
    assert cache.get(STANDINGS_LOCK.format(event.pk)) is None, "the lock stays stuck"


def test_a_lock_that_expired_under_a_run_is_flagged(monkeypatch):
    """The one way two runs can overlap (a run longer than the lock timeout) is recorded."""
    from tournaments import tasks

    event = build_big_event(pairs=8, rounds=1, boards=2)
    real = tasks.standings_recompute

    def slow_run(event_id):
        cache.delete(STANDINGS_LOCK.format(event_id))  # as if the lock timed out meanwhile
        cache.add(STANDINGS_LOCK.format(event_id), "another run", timeout=30)
        return real(event_id)

    monkeypatch.setattr(tasks, "standings_recompute", slow_run)
    recompute_standings.apply((event.pk,))
    assert cache.get(STANDINGS_OVERLAP.format(event.pk)) == 1
    assert cache.get(STANDINGS_LOCK.format(event.pk)) == "another run"  # not ours to delete
