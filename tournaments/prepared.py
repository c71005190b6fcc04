"""Querysets compiled once per process and run again with other values: for the few reads that
every request of a round makes (a table's token, the rows a submission locks).

Building a queryset and compiling it to SQL is most of what a read costs in Django: the token's
read with its table, round, event and entries costs some ten times more to compile than to run.
A :class:`Prepared` read is written as an ordinary queryset, built by a function of named
arguments; the first run (per database connection: per alias and thread) compiles it twice,
with two sets of ordinary values, checks that the SQL is the same and finds where the values
fall among the statement's parameters. Later runs put their values there, execute the same SQL
and build the rows as the queryset would (model instances with their ``select_related``
objects, or ``values_list`` tuples).

Only arguments that reach the SQL as they are may be prepared: ``int`` and ``str`` values compared
with fields (a pk, a digest, a code). A queryset whose SQL depends on the values is refused.

On PostgreSQL the statement is also prepared on the server, once per database session
(``PREPARE``, then ``EXECUTE`` with the values): PostgreSQL then neither parses nor plans it
again (:func:`plan_once_a_session`), and planning is most of what such a read costs the server
(the token's read joins six tables and takes several times longer to plan than to run).
:func:`execute` does the same for the hot path's writes (``tournaments.rows``), named after
their text. A named statement lives in the server's session, not in a transaction, so this is
off behind a pooler that hands each transaction another server connection
(``settings.DATABASE_SESSION_STATEMENTS``, off with ``DATABASE_TRANSACTION_POOLER``).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.signals import post_init, pre_init
from django.db.transaction import TransactionManagementError

KINDS = (int, str)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: dict[str, tuple[int, ...]]  # argument name -> positions among the parameters
    compiler: Any
    mode: str  # "model", "tuple" or "flat"
    for_update: bool
    converters: dict[int, Any]  # the compiler's value converters of the selected columns
    build_model: Callable[[list[Any]], list[Model]] | None  # "model" mode: rows -> instances
    name: str | None  # its name on the server (PREPARE), when the connection prepares reads

    def result(self, fetched: list[tuple[Any, ...]]) -> list[Any]:
        """The fetched rows as the queryset gives them."""
        # As compiler.results_iter, with the converters found once.
        rows = (
            list(self.compiler.apply_converters(fetched, self.converters))
            if self.converters
            else fetched
        )
        if self.mode == "flat":
            return [row[0] for row in rows]
        if self.mode == "tuple":
            return [tuple(row) for row in rows]
        assert self.build_model is not None
        return self.build_model(rows)


def _markers(kinds: dict[str, type], trial: int) -> dict[str, Any]:
    # Two sets of ordinary values (ints inside every integer field's range: an out-of-range value
    # may make Django write other SQL), found again among the compiled parameters.
    return {
        name: (20_011 + 1_009 * trial + 17 * i if kind is int else f"prepared-{trial}-{i}")
        for i, (name, kind) in enumerate(kinds.items())
    }


_NAMES = itertools.count(1)


class Prepared:
    """``build(**arguments)`` returns the queryset; ``kinds`` maps each argument to int or str."""

    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        for name, kind in kinds.items():
            if kind not in KINDS:
                raise TypeError(f"argument {name!r}: only int and str values can be prepared")
        self.build = build
        self.kinds = kinds
        # Per thread, as Django's connections are: a compiler keeps its connection.
        self._local = threading.local()
        self._default_alias: str | None = None  # the queryset's own database, once built
        self._number = next(_NAMES)

    def _compile(self) -> tuple[_Compiled, Any]:
        alias = self._default_alias
        cache = self._local.__dict__.setdefault("compiled", {})
        compiled = cache.get(alias) if alias else None
        if compiled is not None:
            return compiled, connections[alias]
        qs = self.build(**_markers(self.kinds, 0))
        if alias is None:
            alias = self._default_alias = qs.db
        connection = connections[alias]
        if qs._known_related_objects or qs._prefetch_related_lookups:
            raise TypeError("a prepared queryset reads its rows only (no prefetch)")
        iterable = qs._iterable_class
        modes = {
            ModelIterable: "model",
            ValuesListIterable: "tuple",
            FlatValuesListIterable: "flat",
        }
        if iterable not in modes:
            raise TypeError("a prepared queryset gives model instances or values_list rows")
        compiler = qs.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        # Compiled again with other values: the same SQL, the values where the others were.
        sql2, params2 = self.build(**_markers(self.kinds, 1)).query.get_compiler(alias).as_sql()
        if sql2 != sql or len(params2) != len(params):
            raise TypeError("the SQL of this queryset depends on its arguments' values")
        slots: dict[str, tuple[int, ...]] = dict.fromkeys(self.kinds, ())
        first, second = _markers(self.kinds, 0), _markers(self.kinds, 1)
        for i, (a, b) in enumerate(zip(params, params2, strict=True)):
            if a == b:
                continue
            names = [n for n in self.kinds if a == first[n] and b == second[n]]
            if len(names) != 1:
                raise TypeError("the SQL of this queryset depends on its arguments' values")
            slots[names[0]] += (i,)
        for name, found in slots.items():
            if not found:
                raise TypeError(f"argument {name!r} does not reach the SQL as it is")
        compiled = _Compiled(
            sql=sql,
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            mode=modes[iterable],
            for_update=qs.query.select_for_update,
            converters=compiler.get_converters(
                [column[0] for column in compiler.select[: compiler.col_count]]
            ),
            build_model=_instances(compiler, alias) if iterable is ModelIterable else None,
            # Named after what it reads, for whoever reads the server's logs (63 characters
            # at most: PostgreSQL cuts longer names; the number keeps them apart).
            name=f"bd_{self._number}_{qs.model._meta.db_table}"[:63]
            if prepares_on_server(connection)
            else None,
        )
        cache[alias] = compiled
        return compiled, connection

    def all(self, **values: Any) -> list[Any]:
        """The rows, as the queryset built with ``values`` would give them."""
        return read_together((self, values))[0]

    def _statement(self, values: dict[str, Any]) -> tuple[_Compiled, Any, list[Any]]:
        if values.keys() != self.kinds.keys():
            raise TypeError(f"expected the arguments {sorted(self.kinds)}")
        for name, value in values.items():
            if type(value) is not self.kinds[name]:
                raise TypeError(f"argument {name!r} must be {self.kinds[name].__name__}")
        compiled, connection = self._compile()
        if compiled.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for name, positions in compiled.slots.items():
            for i in positions:
                params[i] = values[name]
        return compiled, connection, params

    def first(self, **values: Any) -> Any:
        """The first row, or None (the queryset should be ordered, or match one row at most)."""
        rows = self.all(**values)
        return rows[0] if rows else None


def _instances(compiler: Any, db: str) -> Callable[[list[Any]], list[Model]]:
    # As django.db.models.query.ModelIterable builds them (the row's model, then each
    # select_related object with its caches set both ways), with what does not depend on the
    # rows found once.
    select, klass_info = compiler.select, compiler.klass_info
    select_fields = klass_info["select_fields"]
    start, end = select_fields[0], select_fields[-1] + 1
    make = _maker(klass_info["model"], [f[0].target.attname for f in select[start:end]], db)
    related = [_related(p) for p in get_related_populators(klass_info, select, db)]
    annotations = list(compiler.annotation_col_map.items())

    def build(rows: list[Any]) -> list[Model]:
        out = []
        for row in rows:
            obj = make(row[start:end])
            for populate in related:
                populate(row, obj)
            for attr, col in annotations:
                setattr(obj, attr, row[col])
            out.append(obj)
        return out

    return build


def _maker(model: type[Model], attnames: list[str], db: str) -> Callable[[Any], Model]:
    """A function of a row's values (for ``attnames``, in that order) giving the stored
    instance ``model.from_db`` gives. When every concrete field is read and nothing listens
    to the model's ``pre_init`` or ``post_init`` signal (when the read is compiled: receivers
    connect at start-up), the instance is built without ``Model.__init__``: its attributes
    are set as ``__init__`` sets them from positional values (the instance's dictionary), and
    its state as ``from_db`` sets it."""
    if attnames != [f.attname for f in model._meta.concrete_fields] or any(
        signal.has_listeners(model) for signal in (pre_init, post_init)
    ):
        return lambda values: model.from_db(db, attnames, values)
    new = model.__new__

    def make(values: Any) -> Model:
        obj = new(model)
        obj.__dict__.update(zip(attnames, values, strict=True))
        state = obj._state = ModelState()
        state.adding = False
        state.db = db
        return obj

    return make


def _related(populator: Any) -> Callable[[Any, Model], None]:
    """``populator.populate`` (a ``RelatedPopulator``), building its instances with
    :func:`_maker`."""
    if populator.reorder_for_init is not None:  # a parent's columns, reused: left to Django
        return populator.populate
    start, end, pk_idx = populator.cols_start, populator.cols_end, populator.pk_idx
    make = _maker(populator.model_cls, populator.init_list, populator.db)
    inner = [_related(p) for p in populator.related_populators]
    local_setter, remote_setter = populator.local_setter, populator.remote_setter

    def populate(row: Any, from_obj: Model) -> None:
        values = row[start:end]
        if values[pk_idx] is None:
            local_setter(from_obj, None)
            return
        obj = make(values)
        for populate_inner in inner:
            populate_inner(row, obj)
        local_setter(from_obj, obj)
        remote_setter(obj, from_obj)

    return populate


def runs_together(connection: Any) -> bool:
    # Server-side binding (an option of Django's PostgreSQL backend) takes one statement a call.
    return connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get(
        "server_side_binding"
    )


def prepares_on_server(connection: Any) -> bool:
    """Whether statements are prepared by name in the server's session (see the module's text).
    With server-side binding psycopg prepares what it runs often by itself."""
    return runs_together(connection) and settings.DATABASE_SESSION_STATEMENTS


def plan_once_a_session(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: where statements are prepared by name, have PostgreSQL plan each
    once a session. They read by a key, and left to itself PostgreSQL may keep planning them
    anew at every ``EXECUTE`` (its "custom plans"), which cost more than running them. A
    ``SET`` rather than a start-up option: poolers such as PgBouncer refuse start-up options
    they do not know; behind a transaction pooler nothing is prepared by name, nor set here."""
    if prepares_on_server(connection):
        with connection.cursor() as cursor:
            cursor.execute("SET plan_cache_mode = force_generic_plan")


def _numbered(sql: str) -> str:
    """``sql`` with psycopg's ``%s`` placeholders as PostgreSQL's ``$1``, ``$2``… (an escaped
    ``%%`` stays: the ``PREPARE`` goes with the values of the ``EXECUTE`` beside it)."""
    count = itertools.count(1)
    out = []
    for part in re.split(r"(%%|%s)", sql):
        if part == "%%":
            out.append(part)
        elif part == "%s":
            out.append(f"${next(count)}")
        elif "%" in part:
            raise TypeError("a statement prepared by name has a placeholder other than %s")
        else:
            out.append(part)
    return "".join(out)


class _Session:
    """The statements prepared in one server session (one psycopg connection). ``known`` is
    False after a failed call that may or may not have prepared some: the next call starts
    with ``DEALLOCATE ALL`` (a named statement outlives a rollback, and preparing one twice
    fails)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.known = True


# Keyed by psycopg's connection: a reconnection starts a new server session, with nothing in it.
_SESSIONS: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()


def _session(connection: Any) -> _Session:
    raw = connection.connection
    session = _SESSIONS.get(raw)
    if session is None:
        session = _SESSIONS[raw] = _Session()
    return session


def read_together(*reads: tuple[Prepared, dict[str, Any]]) -> list[list[Any]]:
    """Each ``(prepared, values)`` read's rows, as ``prepared.all(**values)`` gives them, in one
    round trip to PostgreSQL: the statements go as one query string, run in their order, each
    with its own snapshot (READ COMMITTED), so a read after a lock sees what was committed before
    the lock was granted, as it would one round trip later. Elsewhere (SQLite cannot run several
    statements in one call) one call per read. The reads must use one database."""
    statements = [prepared._statement(values) for prepared, values in reads]
    connection = statements[0][1]
    if any(used is not connection for _c, used, _p in statements):
        raise ValueError("read_together reads from one database")
    out = []
    with connection.cursor() as cursor:
        if not runs_together(connection):
            for compiled, _c, params in statements:
                cursor.execute(compiled.sql, params)
                out.append(compiled.result(cursor.fetchall()))
            return out
        own = _run(cursor, [(c.sql, params, c.name) for c, _c, params in statements])
        reading = iter(statements)
        for i, is_own in enumerate(own):
            if i and not cursor.nextset():
                raise RuntimeError("fewer result sets than statements")
            if is_own:
                out.append(next(reading)[0].result(cursor.fetchall()))
    return out


def execute(cursor: Any, sql: str, params: list[Any], *, then_commit: bool = False) -> None:
    """``cursor.execute(sql, params)`` for a statement of a hot path whose text comes back
    again and again (a submission's rows): by name where the connection prepares reads, named
    after its text. The cursor is left on the statement's own result. ``then_commit``: a
    ``COMMIT`` follows in the same call (only where statements run together: the caller
    checks, see ``rows.update_pk_then_commit``)."""
    if not prepares_on_server(cursor.db):
        cursor.execute(f"{sql}; COMMIT" if then_commit else sql, params)
        return
    statements = [(sql, params, _statement_name(sql))]
    if then_commit:
        statements.append(("COMMIT", [], None))
    own = _run(cursor, statements)
    for _ in range(own.index(True)):
        cursor.nextset()


@functools.lru_cache(maxsize=256)
def _statement_name(sql: str) -> str:
    return f"bd_sql_{hashlib.blake2b(sql.encode(), digest_size=10).hexdigest()}"


def _run(cursor: Any, statements: list[tuple[str, list[Any], str | None]]) -> list[bool]:
    """Run ``(sql, params, name)`` statements as one query string (psycopg's client-side
    binding runs it as one simple query: each statement's result is a result set of the
    cursor), those with a name by ``EXECUTE``, prepared first when this session has not.
    Returns, for each result set in order, whether it is a statement's own (not a PREPARE's or
    a DEALLOCATE's); the cursor is on the first."""
    parts: list[str] = []
    own: list[bool] = []
    values: list[Any] = []
    named = any(name for _s, _p, name in statements)
    session = _session(cursor.db) if named else None
    if session is not None and not session.known:
        parts.append("DEALLOCATE ALL")
        own.append(False)
        session.names.clear()
        session.known = True
    for sql, params, name in statements:
        if name is None:
            parts.append(sql)
        else:
            assert session is not None
            if name not in session.names:
                parts.append(f"PREPARE {name} AS {_numbered(sql)}")
                own.append(False)
                session.names.add(name)  # before it runs: a failure makes the session unknown
            parts.append(
                f"EXECUTE {name}({', '.join(['%s'] * len(params))})"
                if params
                else f"EXECUTE {name}"
            )
        own.append(True)
        values.extend(params)
    try:
        cursor.execute("; ".join(parts), values)
    except BaseException:
        if session is not None:
            session.known = False
        raise
    return own


# Statements that may carry another ahead of them: not a transaction's or a savepoint's command.
_CARRIERS = ("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "PREPARE", "EXECUTE", "DEALLOCATE")


class Ahead:
    """A statement sent in the same round trip as the next one a block of code runs.

    ``rows`` is None until it is sent, then its rows; ``sent(rows)`` is called then, and may
    raise to stop the block there (the statement it rode with has run by then: the caller
    rolls back what it must). See :func:`send_ahead`.
    """

    def __init__(self, sql: str, params: list[Any], sent: Callable[[list[Any]], None]) -> None:
        self.sql, self.params, self.sent = sql, params, sent
        self.rows: list[Any] | None = None
        self.sending = False

    def _alone(self, cursor: Any) -> None:
        self.sending = True  # through the wrappers, past this one
        try:
            cursor.execute(self.sql, self.params)
            rows = cursor.fetchall()
        finally:
            self.sending = False
        self._received(rows)

    def _received(self, rows: list[Any]) -> None:
        self.rows = [tuple(row) for row in rows]
        self.sent(self.rows)

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        """Django's execute wrapper: the first statement of the block carries this one."""
        if self.rows is not None or self.sending:
            return execute(sql, params, many, context)
        if (
            many
            or isinstance(params, Mapping)
            or not sql.lstrip()[:10].upper().startswith(_CARRIERS)
        ):
            self._alone(context["cursor"])
            return execute(sql, params, many, context)
        if params is None:  # the statement's own % signs are not placeholders
            sql, params = sql.replace("%", "%%"), ()
        result = execute(f"{self.sql}; {sql}", [*self.params, *params], False, context)
        cursor = context["cursor"]
        rows = cursor.fetchall()
        if not cursor.nextset():
            raise RuntimeError("the statement sent ahead returned no result set after its own")
        self._received(rows)
        return result

    def send(self, connection: Any) -> None:
        """Send it now, on its own, unless it has been sent."""
        if self.rows is None:
            with connection.cursor() as cursor:
                self._alone(cursor)


@contextmanager
def send_ahead(
    connection: Any, sql: str, params: list[Any], sent: Callable[[list[Any]], None]
) -> Iterator[Ahead]:
    """Run the block with ``sql`` sent ahead of its first statement, in the same round trip on
    PostgreSQL (as :func:`read_together`); elsewhere it is sent first, on its own. When the
    block runs no statement it is not sent: call ``send()`` on what this yields if it must be
    (after the block).

    The statement runs before the one it rides with, in its own snapshot, so a lock or a wait
    it takes comes first, as it would one round trip earlier. ``sent(rows)`` sees its rows as
    soon as they come back, before the block goes on.
    """
    ahead = Ahead(sql, params, sent)
    if not runs_together(connection):
        ahead.send(connection)
        yield ahead
        return
    with connection.execute_wrapper(ahead):
        yield ahead
