"""Standings never stick at "being recomputed" (issue 14), in both set-ups: tasks in-process
(the demo) and a real Celery worker with Redis and no beat scheduler.

Each change of a counted result, an entered (unconfirmed) result and a withdrawal lead to a
recomputation; standings left stale with nothing queued (a lost request) are queued by the
next read; "updating" is shown only while one is queued or running.
"""

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.conftest import wait_for
from tournaments import queue, scoring_io
from tournaments.actors import Actor
from tournaments.models import Event
from tournaments.services import changes, results


def _enter_one_side(table, board_number):
    """An entered result, not confirmed: it does not count, yet it is a change."""
    data = {"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    results.result_submit_short(
        table=table, board_number=board_number, actor=Actor(table=table, side="NS"), data=data
    )


def _lose_the_request(event):
    """As if a result changed and its request never reached the queue (broker down, worker
    killed before it started): the data says stale, nothing is queued."""
    Event.objects.filter(pk=event.pk).update(
        standings_updated_at=timezone.now() - timezone.timedelta(minutes=5)
    )
    cache.delete(queue.STANDINGS_QUEUED.format(event.pk))


def _table(event):
    return event.rounds.get(number=1).tables.order_by("number").first()


# --- tasks in-process (the demo's set-up) ----------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_in_process_an_entered_result_leaves_nothing_stale(running_event):
    _enter_one_side(_table(running_event), 1)
    assert not scoring_io.standings_stale(running_event)
    assert queue.standings_state(running_event) == queue.FRESH


@pytest.mark.django_db(transaction=True)
def test_in_process_a_withdrawal_leaves_nothing_stale(running_event, organiser):
    entry = running_event.entries.get(number=2)
    changes.entry_withdraw(entry=entry, actor=Actor(user=organiser))
    assert not scoring_io.standings_stale(running_event)
    snapshot = running_event.snapshots.get(after_round=1)
    row = next(r for r in snapshot.rows if r["entry"] == entry.pk)
    assert row["withdrawn"] is True


@pytest.mark.django_db(transaction=True)
def test_in_process_a_lost_request_is_recomputed_by_the_next_read(running_event):
    _enter_one_side(_table(running_event), 1)
    _lose_the_request(running_event)
    assert scoring_io.standings_stale(running_event)
    assert queue.standings_state(running_event) == queue.FRESH
    assert not scoring_io.standings_stale(running_event)


# --- a real worker and Redis, no beat --------------------------------------------------------


def _fresh(event):
    return queue.standings_state(Event.objects.get(pk=event.pk)) == queue.FRESH


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_a_worker_an_entered_result_and_a_withdrawal_are_recomputed(
    celery_worker_process, running_event, organiser
):
    _enter_one_side(_table(running_event), 1)
    assert wait_for(lambda: not scoring_io.standings_stale(running_event), timeout=30)
    changes.entry_withdraw(entry=running_event.entries.get(number=4), actor=Actor(user=organiser))
    assert wait_for(lambda: not scoring_io.standings_stale(running_event), timeout=30)
    assert queue.standings_state(running_event) == queue.FRESH


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_a_worker_a_lost_request_is_queued_by_the_next_read(
    celery_worker_process, running_event
):
    _enter_one_side(_table(running_event), 1)
    assert wait_for(lambda: not scoring_io.standings_stale(running_event), timeout=30)
    _lose_the_request(running_event)
    assert scoring_io.standings_stale(running_event)
    # The read finds nothing in flight and queues a recomputation: "updating", truthfully.
    assert queue.standings_state(running_event) == queue.UPDATING
    assert wait_for(lambda: _fresh(running_event), timeout=30)
