"""A row inserted unless its key exists, in one statement: ``INSERT … ON CONFLICT DO NOTHING
RETURNING id``. It replaces ``get_or_create`` (a read, a savepoint, the insert, its release) and
a ``create`` wrapped in a savepoint to catch ``IntegrityError`` on the hot paths of a round.

The race behaves as a plain insert's: PostgreSQL makes an insert that meets an uncommitted row
with the same key wait for that transaction, then does nothing if it committed (SQLite holds the
write lock). PostgreSQL and SQLite (3.35 and later) both support the statement.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections, router
from django.db.models import Model


def insert_new(obj: Model, unique: Sequence[str]) -> bool:
    """Insert ``obj`` unless a row with the same values of the ``unique`` fields (a unique
    constraint's) exists. True when inserted (``obj.pk`` is then set); False: nothing written."""
    meta = obj._meta
    connection = connections[router.db_for_write(type(obj))]
    quote = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection=connection) for f in fields]
    columns = ", ".join(quote(f.column) for f in fields)
    target = ", ".join(quote(meta.get_field(name).column) for name in unique)
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) "
        f"ON CONFLICT ({target}) DO NOTHING RETURNING {quote(meta.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    if row is None:
        return False
    obj.pk = row[0]
    obj._state.adding = False
    obj._state.db = connection.alias
    return True
