"""The rows a round writes with every result update no index they do not need: on those
tables no index is a leading part of another (a query on its columns uses the longer one)."""

import pytest
from django.db import connection

from tournaments import models as m

pytestmark = pytest.mark.django_db

# What a table's token, a submission or a confirmation writes.
HOT = (
    m.AuditEntry,
    m.BoardResult,
    m.BoardUnlock,
    m.Dispute,
    m.IdempotentResponse,
    m.PlayRecord,
    m.Submission,
    m.TableToken,
)


def _indexes(table: str) -> list[tuple[str, list[str], bool]]:
    """The table's indexes, unique constraints included (an index backs each)."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    return [
        (name, info["columns"], info["unique"])
        for name, info in found.items()
        # A "_like" index is PostgreSQL's pattern index of a text column: another operator class.
        if (info["index"] or info["unique"]) and info["columns"] and not name.endswith("_like")
    ]


@pytest.mark.parametrize("model", HOT, ids=lambda m: m.__name__)
def test_no_index_of_a_hot_table_is_a_leading_part_of_another(model):
    indexes = _indexes(model._meta.db_table)
    redundant = [
        f"{name} {columns} starts {other} {longer}"
        for name, columns, unique in indexes
        if not unique  # a unique one enforces something of its own
        for other, longer, _u in indexes
        if other != name and len(longer) > len(columns) and longer[: len(columns)] == columns
    ]
    assert not redundant


def test_a_tables_results_and_unlocks_are_found_by_their_unique_index():
    for model in (m.BoardResult, m.BoardUnlock):
        indexes = _indexes(model._meta.db_table)
        assert not [name for name, columns, _u in indexes if columns == ["table_id"]]
        assert [name for name, columns, unique in indexes if unique and columns[0] == "table_id"]
