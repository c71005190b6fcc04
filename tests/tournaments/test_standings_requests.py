"""request_standings: one recomputation per transaction, none lost to a rollback."""

import pytest
from django.db import transaction

from tournaments import queue, tasks


@pytest.mark.django_db(transaction=True)
def test_one_transaction_storing_many_results_queues_one_recomputation(running_event, monkeypatch):
    runs = []
    monkeypatch.setattr(
        tasks.recompute_standings, "apply_async", lambda args, **kw: runs.append(args)
    )
    with transaction.atomic():
        for _ in range(50):
            queue.request_standings(running_event)
    assert runs == [(running_event.pk,)]


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_request_does_not_block_the_next_one(running_event, monkeypatch):
    from django.core.cache import cache

    runs = []
    monkeypatch.setattr(
        tasks.recompute_standings, "apply_async", lambda args, **kw: runs.append(args)
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        queue.request_standings(running_event)
        raise RuntimeError("the submission failed")
    assert runs == []
    cache.clear()
    with transaction.atomic():
        queue.request_standings(running_event)
    assert runs == [(running_event.pk,)]


@pytest.mark.django_db(transaction=True)
def test_while_its_recomputation_waits_a_process_does_not_ask_the_cache_again(
    running_event, monkeypatch, settings
):
    """With a real worker the recomputation this process queued cannot start before its
    countdown: requests until then are covered by it without a cache round trip; after it,
    the cache decides again (a started run has let go of its key)."""
    from django.core.cache import cache

    runs, asked = [], []
    monkeypatch.setattr(
        tasks.recompute_standings, "apply_async", lambda args, **kw: runs.append(kw["countdown"])
    )
    monkeypatch.setattr(queue, "_tasks_run_in_process", lambda: False)  # a real worker
    monkeypatch.setattr(queue, "_QUEUED_UNTIL", {})
    add = cache.add
    monkeypatch.setattr(cache, "add", lambda *a, **kw: asked.append(a[0]) or add(*a, **kw))
    clock = [1000.0]
    monkeypatch.setattr(queue.time, "monotonic", lambda: clock[0])
    settings.STANDINGS_COALESCE_SECONDS = 2

    def request():
        with transaction.atomic():
            queue.request_standings(running_event)

    request()
    assert (runs, len(asked)) == ([2], 1)
    clock[0] += 1.9  # still counting down
    request()
    assert (runs, len(asked)) == ([2], 1)
    clock[0] += 0.2  # the run may have started: ask the cache
    request()
    assert (runs, len(asked)) == ([2], 2)  # not started: its key is still there
    cache.delete(queue.STANDINGS_QUEUED.format(running_event.pk))  # started
    request()
    assert (runs, len(asked)) == ([2, 2], 3)


def _requested_at(event):
    from tournaments.models import Event

    return Event.objects.values_list("standings_requested_at", flat=True).get(pk=event.pk)


@pytest.mark.django_db(transaction=True)
def test_a_burst_marks_the_event_once_a_second_unless_the_queue_fails(running_event, monkeypatch):
    """The stale mark (the backstop of a lost request) is one write of the event's row after
    each commit: under a burst, a process writes it once a second while the broker takes the
    requests, and after every result when it does not."""
    clock = [1000.0]
    monkeypatch.setattr(queue.time, "monotonic", lambda: clock[0])
    queued = [True]
    monkeypatch.setattr(queue, "_queue_recompute", lambda event_id, countdown: queued[0])

    def request():
        with transaction.atomic():
            queue.request_standings(running_event)
        return _requested_at(running_event)

    first = request()
    assert first is not None
    clock[0] += 0.5
    assert request() == first  # queued, marked half a second ago: not written again
    clock[0] += 0.6
    second = request()
    assert second > first  # a second since the last mark
    queued[0] = False  # the broker is down: every request is marked
    clock[0] += 0.1
    assert request() > second
