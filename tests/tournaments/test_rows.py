"""Rows written by hand-written statements are what the ORM would write."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from psycopg.pq import TransactionStatus

from tests.factories import BoardResultFactory, EventFactory
from tournaments.models import AuditEntry, BoardResult, Event, IdempotentResponse, Submission
from tournaments.rows import (
    insert_all,
    insert_linked,
    insert_new,
    update_pk,
    update_pk_then_commit,
    update_row,
    update_then_insert,
)

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


def _new_result_with_rows():
    stored = BoardResultFactory()  # its table and board, then a new result on another board
    from tests.factories import BoardFactory

    board = BoardFactory(event=stored.table.round.event, number=2)
    result = BoardResult(
        table=stored.table,
        board=board,
        status="entered",
        source="short",
        trump="copes",
        totals_ns=30,
        totals_ew=42,
        multiplier=1,
        score_ns=0,
        score_ew=6,
        entered_by="x",
        entered_side="NS",
    )
    submission = Submission(result=result, source="short", side="NS", submitted_by="x", data={})
    entries = [
        AuditEntry(event=board.event, result=result, actor="x", action=f"a{i}", changes={"i": i})
        for i in range(2)
    ]
    return result, submission, entries


def test_insert_linked_passes_each_new_id_to_the_rows_that_point_at_it(django_assert_num_queries):
    from django.db import connection

    result, submission, entries = _new_result_with_rows()
    statements = 1 if connection.vendor == "postgresql" else 4
    with django_assert_num_queries(statements):
        insert_linked([result, submission, *entries])
    assert result.pk is not None and submission.result_id == result.pk
    stored = BoardResult.objects.get(pk=result.pk)
    assert (stored.trump, stored.totals_ew, stored.version) == ("copes", 42, 1)
    assert Submission.objects.get(pk=submission.pk).result_id == result.pk
    for entry in entries:
        assert entry.result_id == result.pk
        row = AuditEntry.objects.get(pk=entry.pk)
        assert (row.result_id, row.action, row.changes) == (result.pk, entry.action, entry.changes)
        assert row.created_at == entry.created_at is not None
    assert all(not obj._state.adding for obj in (result, submission, *entries))


def test_insert_linked_refuses_what_it_cannot_order_and_writes_nothing_on_failure():
    from django.db import IntegrityError, transaction

    result, submission, entries = _new_result_with_rows()
    with pytest.raises(ValueError, match="later object"):
        insert_linked([submission, result])
    with pytest.raises(ValueError, match="not stored"):
        insert_linked([submission])
    insert_linked([])
    before = (BoardResult.objects.count(), Submission.objects.count(), AuditEntry.objects.count())
    # The same table and board again: the whole call fails, none of its rows is kept.
    twin = BoardResult(
        table=result.table,
        board=BoardResult.objects.get().board,
        status="entered",
        source="short",
        entered_by="x",
        entered_side="NS",
    )
    audit_row = AuditEntry(event=result.board.event, result=twin, actor="x", action="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_linked([twin, audit_row])
    assert before == (
        BoardResult.objects.count(),
        Submission.objects.count(),
        AuditEntry.objects.count(),
    )


def test_insert_linked_takes_the_pk_of_an_object_stored_since_it_was_pointed_at():
    result, submission, entries = _new_result_with_rows()
    insert_linked([result])  # stored after the entries were made
    insert_linked(entries)
    assert [AuditEntry.objects.get(pk=e.pk).result_id for e in entries] == [result.pk] * 2


def test_update_then_insert_writes_both_in_one_statement_or_neither(django_assert_num_queries):
    from django.db import connection, transaction

    stored = BoardResultFactory(status="entered")
    stored.status, stored.confirmed_by = "confirmed", "table 1 EW"
    entry = AuditEntry(event=stored.board.event, result=stored, actor="x", action="confirmed")
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        update_then_insert(stored, ["status", "confirmed_by"], [entry])
    row = BoardResult.objects.get(pk=stored.pk)
    assert (row.status, row.confirmed_by) == ("confirmed", "table 1 EW")
    assert AuditEntry.objects.get(pk=entry.pk).result_id == stored.pk
    # A row that is gone: refused, and the entry written with it is not kept.
    gone = BoardResult.objects.get(pk=stored.pk)
    BoardResult.objects.filter(pk=stored.pk).delete()
    orphan = AuditEntry(event=stored.board.event, actor="x", action="never")
    with pytest.raises(BoardResult.DoesNotExist), transaction.atomic():
        update_then_insert(gone, None, [orphan])
    assert not AuditEntry.objects.filter(action="never").exists()


@pytest.mark.django_db(transaction=True)  # no transaction around the call
def test_update_then_insert_outside_a_transaction_keeps_nothing_when_the_row_is_gone():
    stored = BoardResultFactory(status="entered")
    BoardResult.objects.filter(pk=stored.pk).delete()
    orphan = AuditEntry(event=stored.board.event, actor="x", action="never")
    with pytest.raises(BoardResult.DoesNotExist):
        update_then_insert(stored, ["status"], [orphan])
    assert not AuditEntry.objects.filter(action="never").exists()


def test_values_written_as_they_are_equal_what_save_prepares(monkeypatch):
    """rows skips pre_save and get_db_prep_save for plain fields holding a value of their own
    type: for every field of the rows a submission writes, what it writes is what save would."""
    from django.db import connection, models
    from django.utils import timezone

    from tournaments import rows

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # auto_now fields: one instant for both
    result = BoardResultFactory()
    submission = Submission(result=result, side="NS", data={"totals": {"NS": 40}})
    entry = AuditEntry(event=result.table.round.event, result=result, actor="x", action="a")
    skipped = 0
    for obj in (result, submission, entry):
        table = rows._table(type(obj), connection.alias)
        saved = [
            f.get_db_prep_save(f.pre_save(obj, True), connection=connection) for f in table.fields
        ]
        # (PostgreSQL's backend wraps integers in psycopg's Int2/Int4/Int8, equal to them;
        # the column's type decides what is stored either way.)
        unwrapped = lambda values: [getattr(v, "obj", v) for v in values]  # noqa: E731 (Jsonb)
        assert unwrapped(rows._values(obj, table, connection)) == unwrapped(saved), type(obj)
        skipped += sum(kind is not None for _attname, kind in table.reads)
    assert skipped > 10

    class Stamped(models.CharField):  # a field whose pre_save does more than read
        def pre_save(self, model_instance, add):
            return "stamped"

    assert rows._plain(models.CharField(max_length=5)) is str
    assert rows._plain(Stamped(max_length=5)) is None
    # A value not of the field's own type is still prepared as save prepares it.
    assert rows._prepared(BoardResult._meta.get_field("status"), 7, connection) == "7"
    assert rows._prepared(BoardResult._meta.get_field("score_ns"), "12", connection) == 12


def _audit_count(event):
    return AuditEntry.objects.filter(event=event).count()


@pytest.mark.django_db(transaction=True)  # the block under test is the outermost one
def test_update_then_commit_ends_the_block_with_its_writes_and_on_commit_work():
    event = EventFactory()
    when = timezone.now()
    done = []
    with transaction.atomic():
        insert_all([AuditEntry(event=event, actor="a", action="result_entered")])
        transaction.on_commit(lambda: done.append("after commit"))
        assert update_pk_then_commit(Event, event.pk, standings_requested_at=when) == 1
    event.refresh_from_db()
    assert event.standings_requested_at == when
    assert _audit_count(event) == 1 and done == ["after commit"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_update_then_commit_sends_the_commit_with_the_update_on_postgresql():
    event = EventFactory()
    status = lambda: connection.connection.pgconn.transaction_status  # noqa: E731
    with transaction.atomic():
        insert_all([AuditEntry(event=event, actor="a", action="result_entered")])
        with CaptureQueriesContext(connection) as calls:
            update_pk_then_commit(Event, event.pk, standings_requested_at=timezone.now())
        assert len(calls) == 1 and calls[0]["sql"].rstrip().endswith("COMMIT")
        assert status() == TransactionStatus.IDLE  # committed: nothing left for the block's end
    assert _audit_count(event) == 1


@pytest.mark.django_db(transaction=True)
def test_update_then_commit_in_a_nested_block_leaves_the_outer_one_to_decide():
    event = EventFactory()
    with pytest.raises(RuntimeError), transaction.atomic():
        insert_all([AuditEntry(event=event, actor="a", action="result_entered")])
        with transaction.atomic():
            update_pk_then_commit(Event, event.pk, standings_requested_at=timezone.now())
        raise RuntimeError("the outer block fails")
    event.refresh_from_db()
    assert event.standings_requested_at is None and _audit_count(event) == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_commit_that_fails_raises_in_the_block_and_keeps_nothing():
    event = EventFactory()
    # A foreign key is checked at commit (deferred): the COMMIT sent with the update fails.
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_all([AuditEntry(event=event, result_id=10**9, actor="a", action="x")])
        update_pk_then_commit(Event, event.pk, standings_requested_at=timezone.now())
    event.refresh_from_db()
    assert event.standings_requested_at is None and _audit_count(event) == 0
    with transaction.atomic():  # the connection goes on as usual
        assert update_pk_then_commit(Event, event.pk, standings_requested_at=timezone.now()) == 1
    event.refresh_from_db()
    assert event.standings_requested_at is not None
