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
    """Run the block's reads in one read-only snapshot on PostgreSQL (REPEATABLE READ). Inside
    a transaction already, the block is part of it. On SQLite (the demo) the reads run as they
    come: a transaction there takes the database's write lock (``transaction_mode``
    IMMEDIATE), and a page must not wait for every writer of the site."""
    connection = connections[using]
    if connection.in_atomic_block or connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic(using=using):
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield
