"""Rows written in one hand-written statement, on the hot paths of a round.

- :func:`insert_new`: ``INSERT … ON CONFLICT DO NOTHING RETURNING id``, a row inserted unless its
  key exists. It replaces ``get_or_create`` (a read, a savepoint, the insert, its release) and a
  ``create`` wrapped in a savepoint to catch ``IntegrityError``. The race behaves as a plain
  insert's: PostgreSQL makes an insert that meets an uncommitted row with the same key wait for
  that transaction, then does nothing if it committed (SQLite holds the write lock).
  :func:`insert_new_statement` gives that statement, to send with another.
- :func:`insert_all`: ``INSERT … VALUES (…), (…) RETURNING id``, what ``create`` and
  ``bulk_create`` do for models without signals or multi-table inheritance, without compiling
  the statement through the ORM (which costs more than running it).
- :func:`insert_linked`: new objects of several models, some pointing at others of the same call
  (a result, its submission, their audit entries), in one statement on PostgreSQL: a chain of
  ``INSERT … RETURNING id`` in a ``WITH``, each new id passed to the rows that point at it.
- :func:`update_row`: ``UPDATE … SET … WHERE id = …``, what ``save`` does to a stored row
  (``update_fields``: only those), likewise; :func:`update_then_insert` with new rows, as
  :func:`insert_linked` writes them, in the same statement; :func:`update_pk` sets plain
  values by pk, as ``filter(pk=…).update(…)`` does, and :func:`update_pk_then_commit` with the
  transaction's ``COMMIT`` in the same round trip.

PostgreSQL and SQLite (3.35 and later) both support these statements. Field values are prepared
as ``save`` prepares them (``pre_save``, e.g. ``auto_now``, then ``get_db_prep_save``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections, models, router, transaction
from django.db.models import Model

from tournaments.prepared import execute, runs_together


@dataclass(frozen=True)
class _Table:
    """A model's names as its database quotes them, and the fields an insert writes (every
    concrete one but the pk): found once per model and database."""

    name: str
    pk: str
    fields: tuple[Any, ...]
    columns: str  # the fields' columns, quoted, joined by commas
    quoted: dict[str, str]  # every field's column, quoted
    # Per field of ``fields``: its attribute and, when its value is written as it is read
    # (see _plain), the type that value must have; else None.
    reads: tuple[tuple[str, type | None], ...]


@functools.cache
def _table(model: type[Model], alias: str) -> _Table:
    quote = connections[alias].ops.quote_name
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    return _Table(
        name=quote(meta.db_table),
        pk=quote(meta.pk.column),
        fields=fields,
        columns=", ".join(quote(f.column) for f in fields),
        quoted={f.name: quote(f.column) for f in meta.concrete_fields},
        reads=tuple((f.attname, _plain(f)) for f in fields),
    )


# Fields whose pre_save reads the attribute and whose get_db_prep_save gives back a value of
# this exact type unchanged (or None): most of a row, whose preparation would otherwise cost
# as much as the statement.
_AS_IS: dict[type, type] = {
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
    models.IntegerField: int,
    models.SmallIntegerField: int,
    models.BigIntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.PositiveBigIntegerField: int,
}
_INT_KEYS = (models.AutoField, models.BigAutoField, models.SmallAutoField)


@functools.cache
def _as_is(field: Any) -> type | None:
    """The type of the values ``field`` writes as they are, or None (prepared as ``save`` does)."""
    if field.many_to_one or field.one_to_one:  # a foreign key: its target's, an integer pk
        return int if type(field.target_field) in _INT_KEYS else None
    return _AS_IS.get(type(field))


def _prepared(field: Any, value: Any, connection: Any) -> Any:
    """``get_db_prep_save(value)``, skipped where it changes nothing."""
    kind = _as_is(field)
    if kind is not None and (value is None or type(value) is kind):
        return value
    return field.get_db_prep_save(value, connection=connection)


def _plain(field: Any) -> type | None:
    """The type of the values ``field`` writes as its attribute holds them, when ``pre_save``
    only reads the attribute; else None."""
    if type(field).pre_save is not models.Field.pre_save:
        return None
    return _as_is(field)


def _values(obj: Model, table: _Table, connection: Any) -> list[Any]:
    """The values of new ``obj``'s ``table.fields`` as ``save`` prepares them (``pre_save``, then
    the database's ``get_db_prep_save``), the plain ones read as they are: the bulk of a row,
    whose preparation field by field would cost as much as its statement."""
    values = []
    for field, (attname, kind) in zip(table.fields, table.reads, strict=True):
        if kind is not None:
            value = getattr(obj, attname)
            if value is None or type(value) is kind:
                values.append(value)
                continue
        values.append(_prepared(field, field.pre_save(obj, True), connection))
    return values


def _insert_sql(table: _Table, rows: int, suffix: str) -> str:
    row = f"({', '.join(['%s'] * len(table.fields))})"
    return (
        f"INSERT INTO {table.name} ({table.columns}) "
        f"VALUES {', '.join([row] * rows)} {suffix} RETURNING {table.pk}"
    )


def _insert(objs: Sequence[Model], suffix: str) -> list[tuple]:
    connection = connections[router.db_for_write(type(objs[0]))]
    table = _table(type(objs[0]), connection.alias)
    values = [v for obj in objs for v in _values(obj, table, connection)]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(table, len(objs), suffix), values)
        return [(connection.alias, pk) for (pk,) in cursor.fetchall()]


def _stored(obj: Model, alias: str, pk: int) -> None:
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = alias


def _on_conflict(table: _Table, unique: Sequence[str]) -> str:
    return f"ON CONFLICT ({', '.join(table.quoted[name] for name in unique)}) DO NOTHING"


def insert_new(obj: Model, unique: Sequence[str]) -> bool:
    """Insert ``obj`` unless a row with the same values of the ``unique`` fields (a unique
    constraint's) exists. True when inserted (``obj.pk`` is then set); False: nothing written."""
    table = _table(type(obj), router.db_for_write(type(obj)))
    rows = _insert([obj], _on_conflict(table, unique))
    if not rows:
        return False
    _stored(obj, *rows[0])
    return True


def insert_new_statement(
    model: type[Model], values: dict[str, Any], unique: Sequence[str]
) -> tuple[str, list[Any]]:
    """The statement of :func:`insert_new` for a row given by the values of every field an
    insert writes (no ``pre_save``: ``auto_now`` fields too), without building an object, to
    run with others (``prepared.send_ahead``). It returns the new id, or no row."""
    connection = connections[router.db_for_write(model)]
    table = _table(model, connection.alias)
    if values.keys() != {f.name for f in table.fields}:
        raise ValueError(f"the values of every field of {model._meta.object_name} but its pk")
    params = [_prepared(f, values[f.name], connection) for f in table.fields]
    return _insert_sql(table, 1, _on_conflict(table, unique)), params


def insert_all(objs: Sequence[Model]) -> None:
    """Insert the new ``objs`` (of one model) in one statement, in their order; sets their pks."""
    if not objs:
        return
    if len({type(obj) for obj in objs}) != 1 or any(not obj._state.adding for obj in objs):
        raise ValueError("insert_all takes new objects of one model")
    # RETURNING gives the rows in the order of VALUES on PostgreSQL and SQLite alike.
    for obj, (alias, pk) in zip(objs, _insert(objs, ""), strict=True):
        _stored(obj, alias, pk)


def insert_linked(objs: Sequence[Model]) -> None:
    """Insert the new ``objs``, in their order; a foreign key of one may point at an object
    earlier in ``objs``, not stored yet. Sets every pk and those foreign keys.

    One statement on PostgreSQL, where a submission's rows would otherwise cost one round trip
    each; elsewhere (SQLite, whose ``WITH`` cannot insert) one statement per object. Each part
    inserts as :func:`insert_all` does; the foreign keys between them are checked at commit, as
    Django's are (deferred constraints), and a failing part fails the whole statement.
    """
    _write_linked(None, objs)


def update_then_insert(
    obj: Model, update_fields: Sequence[str] | None, objs: Sequence[Model]
) -> None:
    """:func:`update_row` then :func:`insert_linked`, in one statement on PostgreSQL (a changed
    result and its audit entry). When the row is gone the call raises and writes nothing: the
    inserts are undone with the transaction, its own when the caller has none."""
    alias = router.db_for_write(type(obj))
    if connections[alias].in_atomic_block:
        _write_linked((obj, update_fields), objs)
    else:
        with transaction.atomic(using=alias):
            _write_linked((obj, update_fields), objs)


def _write_linked(update: tuple[Model, Sequence[str] | None] | None, objs: Sequence[Model]) -> None:
    if any(not obj._state.adding for obj in objs):
        raise ValueError("insert_linked takes new objects")
    if update is None and not objs:
        return
    order = {id(obj): i for i, obj in enumerate(objs)}
    links = [_links(obj, i, order) for i, obj in enumerate(objs)]
    target, changes = (update[0], _changes(*update)) if update is not None else (None, [])
    connection = connections[router.db_for_write(type(target if target else objs[0]))]
    if connection.vendor != "postgresql" or not objs:
        if target is not None:
            _updated_one(target, _update(type(target), target.pk, changes))
        for obj, linked in zip(objs, links, strict=True):
            for field, k in linked:
                setattr(obj, field.attname, objs[k].pk)
            insert_all([obj])
        return
    parts, params, selected = [], [], []
    if target is not None:
        sql, values = _update_sql(type(target), target.pk, changes, connection)
        parts.append(f"u AS ({sql} RETURNING 1)")
        params.extend(values)
        selected.append("(SELECT count(*) FROM u)")
    tables = [_table(type(obj), connection.alias) for obj in objs]
    for i, (obj, linked, table) in enumerate(zip(objs, links, tables, strict=True)):
        points_at = {field.attname: k for field, k in linked}
        values = []
        for f, value in zip(table.fields, _values(obj, table, connection), strict=True):
            if f.attname in points_at:
                k = points_at[f.attname]
                values.append(f"(SELECT {tables[k].pk} FROM c{k})")
            else:
                values.append("%s")
                params.append(value)
        parts.append(
            f"c{i} AS (INSERT INTO {table.name} ({table.columns}) "
            f"VALUES ({', '.join(values)}) RETURNING {table.pk})"
        )
        selected.append(f"(SELECT {table.pk} FROM c{i})")
    with connection.cursor() as cursor:
        # The same few shapes, request after request: PostgreSQL plans each once a connection.
        execute(cursor, f"WITH {', '.join(parts)} SELECT {', '.join(selected)}", params)
        found = list(cursor.fetchone())
    if target is not None:
        # The inserts are written by then: the exception rolls back the transaction.
        _updated_one(target, found.pop(0))
    for obj, pk in zip(objs, found, strict=True):
        _stored(obj, connection.alias, pk)
    for obj, linked in zip(objs, links, strict=True):
        for field, k in linked:
            setattr(obj, field.attname, objs[k].pk)


def _links(obj: Model, i: int, order: dict[int, int]) -> list[tuple[Any, int]]:
    """The foreign keys of ``obj`` (the ``i``-th) that point at an earlier object of the call."""
    found = []
    for field in obj._meta.concrete_fields:
        if not field.is_relation or not field.is_cached(obj):
            continue
        target = field.get_cached_value(obj)
        k = order.get(id(target))
        if k is None:
            if target is not None and target._state.adding:
                raise ValueError(f"{field}: points at an object that is not stored")
            if target is not None and getattr(obj, field.attname) is None:
                # Pointed at before it was stored (as Model.save does, take its pk now).
                setattr(obj, field.attname, target.pk)
            continue
        if k >= i or field.target_field is not target._meta.pk:
            raise ValueError(f"{field}: points at a later object, or not at its pk")
        found.append((field, k))
    return found


def update_row(obj: Model, update_fields: Sequence[str] | None = None) -> None:
    """Write ``obj``'s fields (``update_fields``: only those) to its stored row."""
    _updated_one(obj, _update(type(obj), obj.pk, _changes(obj, update_fields)))


def _changes(obj: Model, update_fields: Sequence[str] | None) -> list[tuple[Any, Any]]:
    """The fields ``update_row`` writes, with their values."""
    if obj._state.adding or obj.pk is None:
        raise ValueError("update_row writes a stored object")
    meta = obj._meta
    fields = [
        f
        for f in meta.concrete_fields
        if not f.primary_key and (update_fields is None or f.name in update_fields)
    ]
    if update_fields is not None and len(fields) != len(set(update_fields)):
        raise ValueError(f"not fields of {meta.object_name}: {sorted(update_fields)}")
    return [(f, f.pre_save(obj, False)) for f in fields]


def _updated_one(obj: Model, count: int) -> None:
    if count != 1:
        meta = obj._meta
        raise meta.model.DoesNotExist(f"no {meta.object_name} with pk {obj.pk} to update")


def update_pk(model: type[Model], pk: Any, **values: Any) -> int:
    """``model.objects.filter(pk=pk).update(**values)`` for plain values: the rows changed."""
    meta = model._meta
    return _update(model, pk, [(meta.get_field(name), v) for name, v in values.items()])


def update_pk_then_commit(model: type[Model], pk: Any, **values: Any) -> int:
    """:func:`update_pk` as the last statement of an outermost ``atomic`` block, with the
    block's ``COMMIT`` in the same round trip on PostgreSQL: the block's own commit, at its
    end, then finds nothing left to commit (psycopg's ``commit()`` does nothing outside a
    transaction), and runs the ``on_commit`` work as usual. A failing ``COMMIT`` (a deferred
    constraint) raises here, inside the block, which then rolls back nothing more. Elsewhere
    (SQLite, a nested block) it is :func:`update_pk`."""
    meta = model._meta
    changes = [(meta.get_field(name), v) for name, v in values.items()]
    connection = connections[router.db_for_write(model)]
    if not (
        runs_together(connection)
        and connection.in_atomic_block
        and len(connection.atomic_blocks) == 1
        and connection.commit_on_exit
    ):
        return _update(model, pk, changes)
    sql, params = _update_sql(model, pk, changes, connection)
    with connection.cursor() as cursor:
        execute(cursor, sql, params, then_commit=True)
        return cursor.rowcount


def _update_sql(
    model: type[Model], pk: Any, changes: list[tuple[Any, Any]], connection: Any
) -> tuple[str, list[Any]]:
    table = _table(model, connection.alias)
    sql = (
        f"UPDATE {table.name} SET "
        f"{', '.join(f'{table.quoted[f.name]} = %s' for f, _v in changes)} "
        f"WHERE {table.pk} = %s"
    )
    values = [_prepared(f, v, connection) for f, v in changes]
    return sql, [*values, pk]


def _update(model: type[Model], pk: Any, changes: list[tuple[Any, Any]]) -> int:
    connection = connections[router.db_for_write(model)]
    sql, params = _update_sql(model, pk, changes, connection)
    with connection.cursor() as cursor:
        execute(cursor, sql, params)
        return cursor.rowcount
