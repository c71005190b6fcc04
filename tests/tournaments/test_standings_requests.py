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
