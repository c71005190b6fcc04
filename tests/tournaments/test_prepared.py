"""A prepared read gives what its queryset gives, for any values, and refuses what it cannot do."""

import pytest
from django.db import transaction
from django.db.models.signals import post_init, pre_init
from django.db.transaction import TransactionManagementError

from tests.factories import BoardResultFactory, TableTokenFactory
from tournaments.models import BoardResult, Table, TableToken
from tournaments.prepared import Prepared

pytestmark = pytest.mark.django_db


def _fields(obj):
    return {k: v for k, v in vars(obj).items() if k != "_state"}


TOKEN = Prepared(
    lambda digest: TableToken.objects.select_related(
        "table__round__event", "table__ns", "table__ew"
    ).filter(digest=digest),
    digest=str,
)


def test_model_rows_with_their_related_objects_equal_the_querysets():
    tokens = TableTokenFactory.create_batch(3)
    for token in tokens:  # the second and third run use the statement compiled by the first
        expected = TableToken.objects.select_related(
            "table__round__event", "table__ns", "table__ew"
        ).get(digest=token.digest)
        got = TOKEN.first(digest=token.digest)
        assert _fields(got) == _fields(expected)
        assert _fields(got.table) == _fields(expected.table)
        assert _fields(got.table.round.event) == _fields(expected.table.round.event)
        assert _fields(got.table.ns) == _fields(expected.table.ns)
        assert got._state.adding is False and got._state.db == "default"
        assert got.table._state.adding is False and got.table._state.db == "default"
        assert set(got.table._state.fields_cache) == set(expected.table._state.fields_cache)
    assert TOKEN.first(digest="no such digest") is None


def test_a_missing_related_object_is_none_as_in_the_queryset():
    table = TableTokenFactory().table
    assert table.round.bye_id is None
    read = Prepared(lambda pk: Table.objects.select_related("round__bye").filter(pk=pk), pk=int)
    got = read.first(pk=table.pk)
    assert got.round.bye is None and got.round.pk == table.round_id
    assert "bye" in got.round._state.fields_cache  # known to be None: not read again


def _listening(signal, model):
    seen = []

    def receiver(sender, **kwargs):
        seen.append(sender)

    signal.connect(receiver, sender=model, weak=False)
    return seen, lambda: signal.disconnect(receiver, sender=model)


@pytest.mark.parametrize("signal", [pre_init, post_init])
def test_a_model_whose_init_signals_are_heard_is_built_by_init(signal):
    token = TableTokenFactory()
    seen, stop = _listening(signal, TableToken)
    try:
        read = Prepared(lambda digest: TableToken.objects.filter(digest=digest), digest=str)
        got = read.first(digest=token.digest)
    finally:
        stop()
    assert seen == [TableToken] and got.pk == token.pk


def test_a_read_of_some_fields_leaves_the_others_deferred():
    token = TableTokenFactory()
    read = Prepared(
        lambda digest: TableToken.objects.only("pk", "side").filter(digest=digest), digest=str
    )
    got = read.first(digest=token.digest)
    assert got.get_deferred_fields() == {
        f.attname for f in TableToken._meta.concrete_fields if f.name not in ("id", "side")
    }
    assert got.digest == token.digest  # read on demand, as Django does


def test_values_list_rows_and_an_argument_used_twice():
    results = BoardResultFactory.create_batch(3)
    both = Prepared(
        lambda pk: (
            BoardResult.objects.filter(pk=pk).exclude(table_id=pk).values_list("pk", "score_ns")
        ),
        pk=int,
    )
    flat = Prepared(
        lambda pk: BoardResult.objects.filter(pk=pk).values_list("status", flat=True), pk=int
    )
    for result in results:
        assert both.all(pk=result.pk) == list(
            BoardResult.objects.filter(pk=result.pk)
            .exclude(table_id=result.pk)
            .values_list("pk", "score_ns")
        )
        assert flat.all(pk=result.pk) == [result.status]


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_locking_read_needs_a_transaction():
    result = BoardResultFactory()
    lock = Prepared(lambda pk: Table.objects.select_for_update().filter(pk=pk), pk=int)
    with transaction.atomic():
        assert lock.first(pk=result.table_id).pk == result.table_id
    with pytest.raises(TransactionManagementError):
        lock.first(pk=result.table_id)


def test_what_cannot_be_prepared_is_refused():
    with pytest.raises(TypeError, match="only int and str"):
        Prepared(lambda when: TableToken.objects.filter(created_at=when), when=float)
    ignored = Prepared(lambda digest: TableToken.objects.all(), digest=str)
    with pytest.raises(TypeError, match="does not reach the SQL"):
        ignored.all(digest="x")
    shaped = Prepared(
        lambda pk: BoardResult.objects.filter(**{"pk" if pk % 2 else "table_id": pk}), pk=int
    )
    with pytest.raises(TypeError, match="depends on its arguments' values"):
        shaped.all(pk=1)
    with pytest.raises(TypeError, match="must be str"):
        TOKEN.first(digest=5)
    with pytest.raises(TypeError, match="expected the arguments"):
        TOKEN.first(code="x")
    prefetching = Prepared(
        lambda pk: BoardResult.objects.prefetch_related("disputes").filter(pk=pk), pk=int
    )
    with pytest.raises(TypeError, match="no prefetch"):
        prefetching.all(pk=1)


def test_reads_together_give_what_each_read_gives_in_one_round_trip(django_assert_num_queries):
    from django.db import connection

    from tournaments.prepared import read_together

    results = BoardResultFactory.create_batch(2)
    flat = Prepared(
        lambda pk: BoardResult.objects.filter(pk=pk).values_list("status", flat=True), pk=int
    )
    pairs = Prepared(
        lambda table: BoardResult.objects.filter(table_id=table).values_list("pk", "table_id"),
        table=int,
    )
    rows = Prepared(lambda pk: BoardResult.objects.filter(pk=pk), pk=int)
    reads = [
        (TOKEN, {"digest": "no such digest"}),  # no rows: its result set is empty
        (flat, {"pk": results[0].pk}),
        (pairs, {"table": results[1].table_id}),
        (rows, {"pk": results[1].pk}),
    ]
    expected = [prepared.all(**values) for prepared, values in reads]
    assert expected[0] == [] and expected[1] and expected[2] and expected[3]
    # One statement string on PostgreSQL; SQLite runs one statement a call.
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else len(reads)):
        got = read_together(*reads)
    assert got[:3] == expected[:3]
    assert [_fields(r) for r in got[3]] == [_fields(r) for r in expected[3]]


def _ahead(sql="SELECT 7 WHERE %s", params=(True,), sent=None):
    from django.db import connection

    from tournaments.prepared import send_ahead

    seen = []
    return send_ahead(connection, sql, list(params), sent or seen.append), seen


def _one(sql, params=None):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def test_a_statement_sent_ahead_rides_with_the_first_one_of_the_block(
    django_assert_num_queries,
):
    from django.db import connection

    together = connection.vendor == "postgresql"
    riding, seen = _ahead()
    # The block's statement keeps its own rows, and its own % signs when it has no parameters.
    with django_assert_num_queries(2 if together else 3), riding as ahead:
        assert _one("SELECT '100%%' || %s", ["!"]) == [("100%!",)]
        assert _one("SELECT '5%'") == [("5%",)]
    assert ahead.rows == [(7,)] and seen == [[(7,)]]


def test_what_is_sent_ahead_learns_its_rows_before_the_block_goes_on():
    class Stop(BaseException):
        pass

    def refuse(rows):
        raise Stop(rows)

    riding, _seen = _ahead(sql="SELECT 1 WHERE %s", params=(False,), sent=refuse)
    reached = []
    with pytest.raises(Stop) as stopped, riding:
        _one("SELECT 2")
        reached.append(True)
    assert stopped.value.args == ([],) and not reached


def test_a_block_without_statements_sends_nothing_until_asked(django_assert_num_queries):
    from django.db import connection

    together = connection.vendor == "postgresql"
    riding, seen = _ahead()
    with django_assert_num_queries(0 if together else 1), riding as ahead:  # SQLite: sent first
        pass
    if together:
        assert ahead.rows is None and seen == []
    with django_assert_num_queries(0 if ahead.rows else 1):
        ahead.send(connection)
    ahead.send(connection)  # once only
    assert ahead.rows == [(7,)] and seen == [[(7,)]]


def test_a_savepoint_or_a_batch_does_not_carry_it_but_comes_after_it():
    # A transaction's command and executemany cannot carry another statement: it goes alone
    # first, before them, as it would one round trip earlier.
    from django.db import connection

    riding, seen = _ahead()
    with transaction.atomic(), riding as ahead, transaction.atomic():  # a SAVEPOINT first
        assert _one("SELECT 3") == [(3,)]
    assert ahead.rows == [(7,)] and seen == [[(7,)]]
    riding, seen = _ahead()
    with riding as ahead, connection.cursor() as cursor:
        cursor.executemany(
            "UPDATE tournaments_idempotentresponse SET status_code = 1 WHERE id = %s", [[1], [2]]
        )
    assert ahead.rows == [(7,)] and seen == [[(7,)]]


def _sent(action):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        result = action()
    return result, " ".join(q["sql"] for q in queries.captured_queries)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # closes the connection: no test transaction around it
def test_a_read_is_prepared_once_a_session_then_executed_by_name():
    from django.db import connection

    token = TableTokenFactory()
    read = Prepared(lambda digest: TableToken.objects.filter(digest=digest), digest=str)
    first, sql = _sent(lambda: read.first(digest=token.digest))
    assert "PREPARE" in sql and "EXECUTE" in sql
    second, sql = _sent(lambda: read.first(digest=token.digest))
    assert "PREPARE" not in sql and sql.startswith("EXECUTE")
    assert first.pk == second.pk == token.pk
    # A new session (a reconnection) has nothing prepared: the read prepares itself again.
    connection.close()
    again, sql = _sent(lambda: read.first(digest=token.digest))
    assert "PREPARE" in sql and again.pk == token.pk


@pytest.mark.postgres
def test_a_failed_call_leaves_no_statement_believed_prepared():
    from django.db import DatabaseError, connection

    token = TableTokenFactory()
    read = Prepared(lambda digest: TableToken.objects.filter(digest=digest), digest=str)
    with pytest.raises(DatabaseError), transaction.atomic():
        with pytest.raises(DatabaseError), connection.cursor() as cursor:
            cursor.execute("SELECT 1 / 0")
        read.first(digest=token.digest)  # the transaction is aborted: the PREPARE does not run
    # The next call cannot trust what the session holds: it deallocates and prepares again.
    found, sql = _sent(lambda: read.first(digest=token.digest))
    assert sql.startswith("DEALLOCATE ALL") and found.pk == token.pk
    found, sql = _sent(lambda: read.first(digest=token.digest))
    assert sql.startswith("EXECUTE") and found.pk == token.pk


@pytest.mark.postgres
def test_behind_a_transaction_pooler_nothing_is_prepared_by_name(settings):
    settings.DATABASE_SESSION_STATEMENTS = False
    token = TableTokenFactory()
    read = Prepared(lambda digest: TableToken.objects.filter(digest=digest), digest=str)
    found, sql = _sent(lambda: read.first(digest=token.digest))
    assert found.pk == token.pk and "PREPARE" not in sql and "EXECUTE" not in sql


@pytest.mark.postgres
def test_a_hot_statement_is_prepared_by_its_text_and_leaves_the_cursor_on_its_rows():
    from django.db import connection

    from tournaments.prepared import execute

    sql = "SELECT %s::int + 1, 'it''s 100%%' UNION ALL SELECT %s::int * 2, 'x'"

    def run(a, b):
        with connection.cursor() as cursor:
            execute(cursor, sql, [a, b])
            return cursor.fetchall()

    rows, sent = _sent(lambda: run(1, 5))
    assert rows == [(2, "it's 100%"), (10, "x")] and "PREPARE" in sent
    rows, sent = _sent(lambda: run(3, 4))
    assert rows == [(4, "it's 100%"), (8, "x")] and sent.startswith("EXECUTE bd_sql_")


def test_a_named_update_counts_its_rows_whether_prepared_now_or_before():
    from django.db import connection

    from tournaments.prepared import execute

    results = BoardResultFactory.create_batch(2)
    sql = "UPDATE tournaments_boardresult SET score_ns = %s WHERE id = %s"
    for score, result in ((7, results[0]), (8, results[1])):
        with connection.cursor() as cursor:
            execute(cursor, sql, [score, result.pk])
            assert cursor.rowcount == 1
    with connection.cursor() as cursor:
        execute(cursor, sql, [9, -1])
        assert cursor.rowcount == 0
    assert [BoardResult.objects.get(pk=r.pk).score_ns for r in results] == [7, 8]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # a new session: no other test's statements in it
def test_a_statement_prepared_by_name_is_planned_once_not_at_every_execute():
    from django.db import connection

    connection.close()
    token = TableTokenFactory()
    read = Prepared(lambda digest: TableToken.objects.filter(digest=digest), digest=str)
    for _ in range(8):
        assert read.first(digest=token.digest).pk == token.pk
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE statement LIKE %s",
            ["%tournaments_tabletoken%"],
        )
        (generic, custom), *others = cursor.fetchall()
    assert not others
    assert custom == 0 and generic >= 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # closes the connection: no test transaction around it
@pytest.mark.parametrize(("prepares", "mode"), [(True, "force_generic_plan"), (False, "auto")])
def test_a_new_session_plans_once_only_where_statements_are_prepared_by_name(
    settings, prepares, mode
):
    from django.db import connection

    settings.DATABASE_SESSION_STATEMENTS = prepares
    connection.close()
    with connection.cursor() as cursor:  # a new session
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == (mode,)
