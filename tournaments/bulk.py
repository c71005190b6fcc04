"""Bulk inserts of many rows at once (a club's rating history recomputed from scratch)."""

import json
from typing import Any

from django.db import connection
from django.db.models import Field, JSONField, Model
from django.utils import timezone


def insert_rows(model: type[Model], rows: list[Model], *, batch: int = 5000) -> None:
    """Insert rows whose ids nobody needs back: PostgreSQL's COPY when it is PostgreSQL
    (several times faster than INSERTs for the tens of thousands of rows of a club's rating
    history), else ``bulk_create``."""
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows, batch_size=batch)
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    now = timezone.now()

    def value(field: Field, row: Model) -> Any:
        v = getattr(row, field.attname)
        if isinstance(field, JSONField):
            return json.dumps(v)
        if v is None and (
            getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        ):
            return now
        return v

    sql = f"COPY {connection.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row([value(f, row) for f in fields])
