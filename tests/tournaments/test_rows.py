"""Rows written by hand-written statements are what the ORM would write."""

import pytest
from django.utils import timezone

from tests.factories import BoardResultFactory, EventFactory
from tournaments.models import AuditEntry, BoardResult, Event, IdempotentResponse
from tournaments.rows import insert_all, insert_new, update_pk, update_row

pytestmark = pytest.mark.django_db


def test_insert_all_stores_the_rows_in_order_with_their_pks_and_timestamps():
    event = EventFactory()
    entries = [
        AuditEntry(event=event, actor=f"a{i}", action="result_entered", changes={"i": [None, i]})
        for i in range(5)
    ]
    insert_all(entries)
    assert [e.pk for e in entries] == sorted(e.pk for e in entries)
    for entry in entries:
        stored = AuditEntry.objects.get(pk=entry.pk)
        assert (stored.actor, stored.changes) == (entry.actor, entry.changes)
        assert stored.created_at == entry.created_at is not None  # auto_now_add, set on the object
        assert entry._state.adding is False and entry._state.db == "default"
    insert_all([])  # nothing to do
    with pytest.raises(ValueError, match="new objects of one model"):
        insert_all(entries[:1])  # already stored


def test_insert_new_inserts_once():
    first = IdempotentResponse(scope="s", key="k", status_code=0, body={})
    assert insert_new(first, ("scope", "key")) is True and first.pk is not None
    again = IdempotentResponse(scope="s", key="k", status_code=0, body={})
    assert insert_new(again, ("scope", "key")) is False and again.pk is None
    assert IdempotentResponse.objects.filter(scope="s").count() == 1


def test_update_row_writes_every_field_or_the_ones_named():
    result = BoardResultFactory()
    before = BoardResult.objects.get(pk=result.pk)
    result.score_ns, result.status, result.doubles = 16, BoardResult.Status.CONFIRMED, [{"x": 1}]
    update_row(result)
    stored = BoardResult.objects.get(pk=result.pk)
    assert (stored.score_ns, stored.status, stored.doubles) == (16, "confirmed", [{"x": 1}])
    assert stored.created_at == before.created_at  # auto_now_add kept
    assert stored.updated_at > before.updated_at  # auto_now moved, as save() moves it

    result.score_ns, result.score_ew = 20, 4
    update_row(result, ["score_ew"])
    stored = BoardResult.objects.get(pk=result.pk)
    assert (stored.score_ns, stored.score_ew) == (16, 4)


def test_update_row_refuses_what_it_cannot_write():
    result = BoardResultFactory()
    with pytest.raises(ValueError, match="not fields"):
        update_row(result, ["score_ns", "no_such_field"])
    with pytest.raises(ValueError, match="stored object"):
        update_row(BoardResult(score_ns=1))
    gone = BoardResult.objects.get(pk=result.pk)
    BoardResult.objects.filter(pk=result.pk).delete()
    with pytest.raises(BoardResult.DoesNotExist):
        update_row(gone)


def test_update_pk_sets_plain_values_and_counts_the_rows():
    event = EventFactory()
    when = timezone.now()
    assert update_pk(Event, event.pk, standings_requested_at=when) == 1
    event.refresh_from_db()
    assert event.standings_requested_at == when
    assert update_pk(Event, event.pk + 10_000, standings_requested_at=when) == 0
