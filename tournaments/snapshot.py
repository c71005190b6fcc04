"""Reads that must see the database at one moment.

At PostgreSQL's default isolation (READ COMMITTED) each query sees what was committed when it
started: a page built from two queries can see a change half (a league's fixture from before
an organiser's correction, its games from after it). Inside :func:`one_moment` every query
sees the same snapshot.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections, transaction


@contextmanager
def one_moment(using: str = "default") -> Iterator[None]:
    """Run the block's reads in one read-only snapshot (REPEATABLE READ on PostgreSQL; one
    transaction elsewhere). Inside a transaction already, the block is part of it."""
    connection = connections[using]
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic(using=using):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield
