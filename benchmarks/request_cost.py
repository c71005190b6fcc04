"""What one request costs, against the floor of a minimal DRF endpoint, on the real stack.

Starts one gunicorn worker (production settings) and a Celery worker against PostgreSQL and
Redis, builds the event of ``load_round.py`` (400 pairs, 200 tables, 6 boards, round 1 open),
then sends each kind of request of a round, one at a time, and reads what the server spent:

- ``floor``: the minimal endpoint written below (``FloorView``): DRF validates a small JSON body
  and inserts one row. It is the cheapest request a Django REST endpoint that writes can be.
- ``table_token``, ``submit`` (short result), ``confirm``, ``play_record`` (48 cards, replayed by
  the engine), ``table_page`` (the table's home page), ``standings_page`` (public, warm cache),
  ``standings_api``, ``console_update`` (the director's console after a new result: a full render),
  ``pair_scorecard``, ``pair_standings``, ``pair_rulings`` (the pair's own evening pages).

The server's CPU time of each request is measured inside the worker (the thread's CPU clock from
the request's arrival to its response headers) and sent back in a response header, with the
number of SQL queries it made; the client measures the wall time. PostgreSQL's own CPU is not
in these figures but in ``<name>_database_ms``. Every request is sent ``REQUEST_COST_N`` times
(default 100) after 5 unmeasured warm-up requests; the figure is the median.

Each measured request is sent right after a floor request, and its ratio is against the median
of those floor requests: a shared machine's speed drifts within minutes (another process, the
host), and a kind measured in a slow minute against a floor measured in a fast one would look
dearer than it is.

Prints, for each name: ``<name>_ms`` (server CPU, median), ``<name>_wall_ms`` (median),
``<name>_ratio`` (CPU against the floor requests sent between its own), ``<name>_queries``
(SQL queries, median) and ``<name>_database_ms`` (the CPU of the PostgreSQL backend that served
the request's queries, median, from its /proc/PID/schedstat: printed when the database runs on
this machine); ``floor_ms`` is the median of every floor request.

Environment: as load_round.py (LOAD_DATABASE_URL, LOAD_REDIS_URL), plus REQUEST_COST_N, and
REQUEST_COST_PROFILE: a directory where the worker writes a cProfile (CPU time) of each kind
of request, ``<name>.pstats`` (read with ``python -m pstats``; profiling slows every request,
so the figures of such a run are not the benchmark's).

Run from the project's root: ``python benchmarks/request_cost.py`` (``gunicorn`` imports this
module as the web application: ``benchmarks.request_cost:served()``).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import sys
import time
import uuid
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

N = int(os.environ.get("REQUEST_COST_N", "100"))
WARM_UP = 5
FLOOR_TABLE = "bench_floor"

# --- the web application gunicorn serves: the project's, plus the floor, plus the meter ---

_app = None
PROFILE_DIR = os.environ.get("REQUEST_COST_PROFILE")
_profiles: dict = {}


def _floor_view():
    from django.db import connection
    from rest_framework import serializers
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class FloorSerializer(serializers.Serializer):
        table = serializers.IntegerField(min_value=1)
        board = serializers.IntegerField(min_value=1, max_value=36)
        totals = serializers.IntegerField(min_value=0, max_value=72)

    class FloorView(APIView):
        authentication_classes = ()
        permission_classes = (AllowAny,)

        def post(self, request):
            form = FloorSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {FLOOR_TABLE} (table_id, board, totals) "
                    "VALUES (%s, %s, %s) RETURNING id",
                    [form.validated_data[k] for k in ("table", "board", "totals")],
                )
                (row_id,) = cursor.fetchone()
            return Response({"id": row_id}, status=201)

    return FloorView.as_view()


def _project_app():
    global _app
    if _app is None:
        from config.wsgi import application as project  # it imports every view (warm)

        _app = project
        from django.conf import settings
        from django.urls import clear_url_caches, get_resolver, include, path

        floor = _floor_view()
        module = type(sys)("bench_urls")
        module.urlpatterns = [
            path("bench/floor", floor),
            path("", include(settings.ROOT_URLCONF)),
        ]
        sys.modules["bench_urls"] = module
        settings.ROOT_URLCONF = "bench_urls"
        clear_url_caches()
        get_resolver().url_patterns  # noqa: B018
    return _app


def served():
    """The application, loaded before the worker serves (gunicorn ``…:served()``), as
    ``config.wsgi`` is in production: a round's first requests do not pay for the imports."""
    _project_app()
    return application


def _backend(connection) -> int | None:
    """The process id of the PostgreSQL backend serving this thread's connection, if open."""
    raw = getattr(connection, "connection", None)
    info = getattr(raw, "info", None) if connection.vendor == "postgresql" else None
    return info.backend_pid if info is not None and not raw.closed else None


def _backend_cpu_ns(pid: int | None) -> int | None:
    """The CPU time a process of this machine has run, in ns (/proc/PID/schedstat, precise
    where /proc/PID/stat counts 10 ms ticks); None when the database is on another machine."""
    if pid is None:
        return None
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def application(environ, start_response):
    """The project's WSGI application, telling in two response headers what it spent."""
    from django.db import connection

    app = _project_app()
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    backend = _backend(connection)
    database_before = _backend_cpu_ns(backend)
    started = time.thread_time()

    def start(status, headers, exc_info=None):
        spent = int((time.thread_time() - started) * 1_000_000)
        headers = [*headers, ("X-Bench-Cpu-Us", str(spent)), ("X-Bench-Queries", str(queries))]
        after = _backend(connection)
        if after is not None and after == backend and database_before is not None:
            database_after = _backend_cpu_ns(after)
            if database_after is not None:
                headers.append(("X-Bench-Db-Us", str((database_after - database_before) // 1000)))
        return start_response(status, headers, exc_info)

    name = environ.get("HTTP_X_BENCH_NAME")
    if PROFILE_DIR and name:
        import cProfile

        profile = _profiles.setdefault(name, cProfile.Profile(time.thread_time))
        with connection.execute_wrapper(count):
            response = profile.runcall(app, environ, start)
        profile.dump_stats(os.path.join(PROFILE_DIR, f"{name}.pstats"))
        return response
    with connection.execute_wrapper(count):
        return app(environ, start)


# --- the measuring client ---


class Meter:
    def __init__(self, port: int) -> None:
        self.port = port
        self.figures: dict[str, dict[str, list[float]]] = {}

    def send(self, name, method, path, body=None, headers=None, expect=(200, 201)):
        headers = dict(headers or {})
        if name is not None:
            headers["X-Bench-Name"] = name
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
        started = time.perf_counter()
        try:
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        wall = time.perf_counter() - started
        if response.status not in expect:
            raise SystemExit(f"{name}: {method} {path} answered {response.status}: {data[:300]!r}")
        if name is not None and not name.startswith("floor"):
            # The floor again, just before: each kind's ratio is against the floor measured
            # in the same minutes, whatever else the machine did meanwhile.
            self.send(f"floor@{name}", *FLOOR_REQUEST)
        if name is not None:
            row = self.figures.setdefault(
                name, {"cpu": [], "wall": [], "queries": [], "database": []}
            )
            row["cpu"].append(int(response.getheader("X-Bench-Cpu-Us")) / 1000)
            row["wall"].append(wall * 1000)
            row["queries"].append(int(response.getheader("X-Bench-Queries")))
            database = response.getheader("X-Bench-Db-Us")
            if database is not None:  # the same backend served the whole request
                row["database"].append(int(database) / 1000)
        return json.loads(data) if data and data[:1] in (b"{", b"[") else data


FLOOR_REQUEST = ("POST", "/bench/floor", {"table": 1, "board": 1, "totals": 40})


def create_floor_table() -> None:
    """The floor endpoint's table (in the benchmark's database only)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {FLOOR_TABLE} (id bigserial PRIMARY KEY, "
            "table_id integer NOT NULL, board smallint NOT NULL, totals smallint NOT NULL)"
        )


def table_cookie(table) -> str:
    """A session that typed the table's NS code, made as the code form makes one."""
    from importlib import import_module

    from django.conf import settings

    from tournaments.table_access import SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = {"table": table.pk, "side": "NS", "v": table.codes_version}
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def measure(meter: Meter, name: str, requests) -> None:
    """Send the first WARM_UP requests unmeasured, the next N measured."""
    for i, (method, path, body, headers) in enumerate(requests):
        if i >= WARM_UP + N:
            break
        meter.send(name if i >= WARM_UP else None, method, path, body, headers)


def main() -> int:
    from benchmarks import load_round as stack

    stack.fresh_services()
    event, tables = stack.build_event()
    if len(tables) < WARM_UP + N:
        raise SystemExit(f"REQUEST_COST_N is at most {len(tables) - WARM_UP}")
    from benchmarks.console import organiser_cookie
    from tournaments import play as adapter
    from tournaments.models import Board, Event, Table

    create_floor_table()
    b1, b2, b3 = list(event.board_numbers(1))[:3]
    rng = random.Random(11)
    board2 = Board.objects.get(event=event, number=b2)
    Event.objects.filter(pk=event.pk).update(published=True)  # the public pages are open
    organiser = cookie = organiser_cookie(event)
    page_sessions = [
        (codes, table_cookie(table))
        for (_pk, codes), table in zip(
            tables, Table.objects.filter(round__event=event).order_by("number"), strict=True
        )
    ][: WARM_UP + N]
    port = stack.free_port()
    procs = stack.start_stack(port, app="benchmarks.request_cost:served()", workers=1)
    try:
        meter = Meter(port)
        measure(
            meter,
            "floor",
            ((*FLOOR_REQUEST, None) for _ in itertools.repeat(None)),
        )
        tokens: dict[tuple[int, str], str] = {}

        def token_requests():
            for _pk, codes in tables:
                yield "POST", "/api/v1/table-token", {"code": codes["NS"]}, None

        measure(meter, "table_token", token_requests())
        for pk, codes in tables[: WARM_UP + N]:
            for side in ("NS", "EW"):
                tokens[pk, side] = meter.send(
                    None, "POST", "/api/v1/table-token", {"code": codes[side]}
                )["token"]

        def auth(pk, side):
            return {
                "Authorization": f"Table {tokens[pk, side]}",
                "Idempotency-Key": uuid.uuid4().hex,
            }

        def short(pk, board):
            totals = rng.choice([t for t in range(20, 53) if t != 36])
            return {
                "table": pk,
                "board": board,
                "delegated": False,
                "trump": "oros",
                "doubles": [],
                "totals": {"NS": totals, "EW": 72 - totals},
            }

        ids: list[int] = []

        def submit_requests():
            for pk, _codes in tables[: WARM_UP + N]:
                yield "POST", "/api/v1/results", short(pk, b1), auth(pk, "NS")

        for i, request in enumerate(submit_requests()):
            ids.append(meter.send("submit" if i >= WARM_UP else None, *request)["id"])
        measure(
            meter,
            "confirm",
            (
                ("POST", f"/api/v1/results/{rid}/confirm", {}, auth(pk, "EW"))
                for rid, (pk, _codes) in zip(ids, tables, strict=False)
            ),
        )

        def record_requests():
            for pk, _codes in tables[: WARM_UP + N]:
                cards = adapter.random_play(board2, "copes", rng)
                record = adapter.record(board2, trump="copes", cards=cards)
                yield (
                    "POST",
                    "/api/v1/play-records",
                    {"table": pk, "board": b2, "record": record},
                    auth(pk, "NS"),
                )

        measure(meter, "play_record", record_requests())
        measure(
            meter,
            "table_page",
            (
                ("GET", f"/table/{codes['NS']}/", None, {"Accept": "text/html", "Cookie": cookie})
                for codes, cookie in page_sessions
            ),
        )
        time.sleep(3)  # the standings of round 1's results, recomputed by the worker
        for page in ("scorecard", "standings", "rulings"):  # the pair's own evening
            measure(
                meter,
                f"pair_{page}",
                (
                    (
                        "GET",
                        f"/table/{codes['NS']}/{page}/",
                        None,
                        {"Accept": "text/html", "Cookie": c},
                    )
                    for codes, c in page_sessions
                ),
            )
        measure(
            meter,
            "standings_page",
            (
                ("GET", f"/e/{event.pk}/standings/", None, {"Accept": "text/html"})
                for _ in itertools.repeat(None)
            ),
        )
        measure(  # the organiser's: the open round's live standings, every pair's row
            meter,
            "standings_page_staff",
            (
                (
                    "GET",
                    f"/e/{event.pk}/standings/",
                    None,
                    {"Accept": "text/html", "Cookie": organiser},
                )
                for _ in itertools.repeat(None)
            ),
        )
        measure(
            meter,
            "standings_api",
            (
                ("GET", f"/api/v1/events/{event.pk}/standings", None, None)
                for _ in itertools.repeat(None)
            ),
        )
        console = f"/manage/{event.pk}/rounds/1/console/"
        for i, (pk, _codes) in enumerate(tables[: WARM_UP + N]):
            meter.send(None, "POST", "/api/v1/results", short(pk, b3), auth(pk, "NS"))
            meter.send(
                "console_update" if i >= WARM_UP else None,
                "GET",
                console,
                headers={"Cookie": cookie, "Accept": "text/html"},
            )
    finally:
        stack.stop(procs)
    figures = meter.figures
    paired = {
        name: figures.pop(f"floor@{name}") for name in list(figures) if f"floor@{name}" in figures
    }
    for row in paired.values():  # the floor's figures: all its requests
        for column, values in row.items():
            figures["floor"][column].extend(values)
    for name, row in figures.items():
        cpu = statistics.median(row["cpu"])
        floor = statistics.median(paired[name]["cpu"]) if name in paired else cpu
        print(f"{name}_ms: {cpu:.2f} ms")
        print(f"{name}_wall_ms: {statistics.median(row['wall']):.2f} ms")
        print(f"{name}_ratio: {cpu / floor:.2f} x floor")
        print(f"{name}_queries: {statistics.median(row['queries']):.0f} queries")
        if row["database"]:
            print(f"{name}_database_ms: {statistics.median(row['database']):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
