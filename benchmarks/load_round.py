"""A championship round under load, on the real stack, loopback only.

Starts gunicorn (several workers) and a Celery worker against PostgreSQL and Redis on this
machine, creates an event of 400 pairs (200 tables, or LOAD_TABLES) with a round of 6 boards,
then has the tables submit and confirm their results concurrently over HTTP through the REST API, with
some retried submissions (same Idempotency-Key) and some conflicting entries. Then it checks the
database against what was sent and waits for the standings to include every result.

Prints one figure a line: requests_per_s, p50_ms, p95_ms, p99_ms, errors_5xx, errors_other,
standings_lag_s, lost_results, duplicated_results, undisputed_conflicts, then what the run cost:
server_cpu_ms_per_request (the CPU of gunicorn's processes, read from /proc, over the requests
answered), database_cpu_ms_per_request (the same for the machine's PostgreSQL processes),
worker_cpu_ms_per_request (the Celery workers' CPU, the standings they recompute meanwhile) and
generator_cpu_share (the CPU this load generator used, in cores: it runs on the same
machine and takes CPU from the server; a share near the machine's core count means the figures
measure the generator, not the server). With LOAD_THINK_S=0 it then sends as many requests to the
floor endpoint of request_cost.py (a minimal DRF endpoint that validates a body and inserts a row)
with the same generator and workers, once just before the round and once just after it (a
shared machine's speed drifts within minutes: a floor measured only after the round, in a
faster or slower minute, would move the ratio), and prints floor_before_requests_per_s,
floor_after_requests_per_s, floor_requests_per_s (their mean), floor_server_cpu_ms_per_request
and floor_database_cpu_ms_per_request (the web processes' and PostgreSQL's CPU per floor request
of both runs, under that load) and saturation_ratio (requests_per_s over floor_requests_per_s).

Environment: LOAD_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/botifarra_load, a
database it drops and re-creates), LOAD_REDIS_URL (default redis://127.0.0.1:6379/11, flushed),
LOAD_WEB_WORKERS (default 4), LOAD_THINK_S (mean seconds a table takes between two boards,
default 6; 0 sends as fast as the server answers, which measures saturation instead), LOAD_TABLES
(default 200), LOAD_DEADLINE_S (default 300: the submission phase's bound; what is not sent by
then counts as lost).

The load model: every table is its own client, all 200 at once. Tables sit down within the first
10 s; a table's NS pair enters a board, its EW pair confirms it one or two seconds later, and the
table moves on to its next board after a think time around LOAD_THINK_S. That squeezes a round
that takes an hour at real tables into about a minute: far denser than any real evening.
"""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.stack import celery_worker_argv, production_env  # noqa: E402

DATABASE_URL = os.environ.get(
    "LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/botifarra_load"
)
REDIS_URL = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/11")
WEB_WORKERS = int(os.environ.get("LOAD_WEB_WORKERS", "4"))
THINK_S = float(os.environ.get("LOAD_THINK_S", "6"))
START_SPREAD_S = 10.0
TABLES = int(os.environ.get("LOAD_TABLES", "200"))
PAIRS, BOARDS = 2 * TABLES, 6
RETRY_SHARE, CONFLICT_SHARE = 0.05, 0.02
DEADLINE_S = float(os.environ.get("LOAD_DEADLINE_S", "300"))  # the submission phase's bound

ENV = production_env(
    database_url=DATABASE_URL, redis_url=REDIS_URL, secret="load-benchmark", LOG_LEVEL="WARNING"
)
os.environ.update(
    {
        k: ENV[k]
        for k in (
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "SECURE_SSL_REDIRECT",
            "LOG_LEVEL",
            "DJANGO_SETTINGS_MODULE",
        )
    }
)


def fresh_services() -> None:
    import psycopg
    import redis

    url = urlparse(DATABASE_URL)
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.path[1:]}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{url.path[1:]}"')
    redis.Redis.from_url(REDIS_URL).flushdb()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=ENV,
        check=True,
    )
    # DEBUG is off: /healthz (the start-up check below) needs the static manifest, as in production.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=ENV,
        check=True,
    )


def build_event():
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments.actors import Actor
    from tournaments.models import Entry, Event, Pair, Player
    from tournaments.services import events
    from tournaments.services.pairings import pairings_propose

    user = get_user_model().objects.create_user("load-organiser", password="x")
    actor = Actor(user=user)
    event = events.event_create(
        actor=actor, name="Load test", rounds_count=1, boards_per_round=BOARDS, seed="load"
    )
    players = Player.objects.bulk_create([Player(name=f"Player {i}") for i in range(2 * PAIRS)])
    pairs = Pair.objects.bulk_create(
        [
            Pair(name=f"Pair {i + 1}", player1=players[2 * i], player2=players[2 * i + 1])
            for i in range(PAIRS)
        ]
    )
    Entry.objects.bulk_create(
        [Entry(event=event, pair=p, number=i + 1) for i, p in enumerate(pairs)]
    )
    events.registration_open(event=event, actor=actor)
    events.event_start(event=event, actor=actor)
    event = Event.objects.get(pk=event.pk)
    events.boards_generate(event=event)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    tables = rnd.tables.order_by("number").values_list("pk", "code_ns", "code_ew")
    return event, [(pk, {"NS": ns, "EW": ew}) for pk, ns, ew in tables]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_stack(
    port: int, *, app: str = "config.wsgi:application", workers: int | None = None
) -> list[subprocess.Popen]:
    """gunicorn serving ``app`` and a Celery worker; returns once /healthz answers."""
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            app,
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(workers or WEB_WORKERS),
            "--timeout",
            "60",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=ENV,
        stdout=(logs / "load-web.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    worker = subprocess.Popen(
        celery_worker_argv(concurrency=2, loglevel="warning"),
        cwd=ROOT,
        env=ENV,
        stdout=(logs / "load-worker.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return [web, worker]
        except OSError:
            pass
        time.sleep(0.3)
    stop([web, worker])
    raise SystemExit(
        "gunicorn did not answer /healthz within 30 s (see test-artifacts/load-web.log)"
    )


def _cpu_s(chosen) -> float:
    """CPU seconds (user + system) of the live processes for which ``chosen(name, fields)`` is
    true, from /proc (``fields``: those of /proc/PID/stat after the name: state, ppid, pgrp, …)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except (OSError, ValueError):
            continue
        fields = tail.split()
        if chosen(head.split("(", 1)[-1], fields):
            total += int(fields[11]) + int(fields[12])
    return total / tick


def group_cpu_s(pgid: int) -> float:
    """CPU seconds of the live processes of a process group."""
    return _cpu_s(lambda _name, fields: int(fields[2]) == pgid)


def database_cpu_s() -> float:
    """CPU seconds of this machine's PostgreSQL processes (the benchmark's database is the only
    busy one on a quiet machine)."""
    return _cpu_s(lambda name, _fields: name == "postgres")


def floor_run(port: int, web_groups: Sequence[int], threads: int, per_thread: int) -> list[float]:
    """[requests/s, web CPU s, database CPU s] of one floor run (``floor_rate``)."""
    web, database = sum(group_cpu_s(g) for g in web_groups), database_cpu_s()
    rate = floor_rate(port, threads, per_thread)
    return [rate, sum(group_cpu_s(g) for g in web_groups) - web, database_cpu_s() - database]


def floor_rate(port: int, threads: int, per_thread: int) -> float:
    """Requests per second the floor endpoint answers with this many clients, as fast as it can."""

    def send(index: int) -> None:
        for _ in range(per_thread):
            conn = HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                body = json.dumps({"table": index + 1, "board": 1, "totals": 40})
                conn.request("POST", "/bench/floor", body, {"Content-Type": "application/json"})
                conn.getresponse().read()
            finally:
                conn.close()

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(send, range(threads)))
    return threads * per_thread / (time.perf_counter() - start)


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


class Client:
    """Records every request's latency and status (thread-safe)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.last_confirm = 0.0

    def post(self, path: str, body: dict, token: str | None = None, key: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Table {token}"
        if key:
            headers["Idempotency-Key"] = key
        start = time.perf_counter()
        conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("POST", path, json.dumps(body), headers)
            response = conn.getresponse()
            status, data = response.status, response.read()
        except OSError:  # refused, reset or timed out: counted as status 0, an error
            status, data = 0, b""
        finally:
            conn.close()
        elapsed = time.perf_counter() - start
        with self.lock:
            self.latencies.append(elapsed)
            self.statuses[status] += 1
        try:
            return status, json.loads(data or b"null")
        except ValueError:
            return status, None


def pause(rng: random.Random, low: float, high: float) -> None:
    if THINK_S > 0:
        time.sleep(rng.uniform(low, high))


def play_table(
    client: Client, table_id: int, codes: dict, plan: dict, sent: dict, deadline: float
) -> None:
    rng = random.Random(table_id)
    pause(rng, 0, START_SPREAD_S)
    tokens = {}
    for side in ("NS", "EW"):
        status, body = client.post("/api/v1/table-token", {"code": codes[side]})
        if status != 200:
            return
        tokens[side] = body["token"]
    for i, (board, (totals, retry, conflict)) in enumerate(plan.items()):
        if i:  # the table thinks between two boards; after its last one it leaves
            pause(rng, 0.5 * THINK_S, 1.5 * THINK_S)
        if time.monotonic() > deadline:
            return
        data = {
            "table": table_id,
            "board": board,
            "delegated": False,
            "trump": "oros",
            "doubles": [],
            "totals": {"NS": totals, "EW": 72 - totals},
        }
        key = uuid.uuid4().hex
        status, body = client.post("/api/v1/results", data, tokens["NS"], key)
        if retry:  # the Wi-Fi dropped the answer: the device sends the same request again
            status, body = client.post("/api/v1/results", data, tokens["NS"], key)
        if status not in (200, 201):
            continue
        sent[(table_id, board)] = {"totals": totals, "conflict": conflict}
        pause(rng, 0.5, 2.0)  # the opponents read the entry on their own phone
        if conflict:
            other = dict(data, totals={"NS": 72 - totals, "EW": totals})
            client.post("/api/v1/results", other, tokens["EW"], uuid.uuid4().hex)
        else:
            client.post(f"/api/v1/results/{body['id']}/confirm", {}, tokens["EW"], uuid.uuid4().hex)
        with client.lock:
            client.last_confirm = time.perf_counter()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] * 1000


def run_round(
    port: int, event, tables, web_groups: Sequence[int], worker_groups: Sequence[int] = ()
) -> int:
    """Play the round against the server at ``port``, check the database, print the figures.

    ``web_groups``: the process groups of the web servers, whose CPU is counted;
    ``worker_groups``: those of the Celery workers (the standings they recompute meanwhile)."""
    from django.db import close_old_connections

    from tournaments.models import BoardResult, StandingsSnapshot, Submission

    rng = random.Random(7)
    boards = list(event.board_numbers(1))
    plans = {
        table_id: {
            b: (
                rng.choice([t for t in range(20, 53) if t != 36]),
                rng.random() < RETRY_SHARE,
                rng.random() < CONFLICT_SHARE,
            )
            for b in boards
        }
        for table_id, _code in tables
    }
    client = Client(port)
    sent: dict = {}
    # The floor's first run, as many requests as a round plays (two tokens, then an entry and a
    # confirmation a board); its second run follows the round.
    per_table = 2 + 2 * len(boards)
    floors = [floor_run(port, web_groups, len(tables), per_table)] if THINK_S == 0 else []
    server_cpu = sum(group_cpu_s(g) for g in web_groups)
    worker_cpu = sum(group_cpu_s(g) for g in worker_groups)
    database_cpu = database_cpu_s()
    generator_cpu = time.process_time()
    start = time.perf_counter()
    deadline = time.monotonic() + DEADLINE_S
    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        for future in [
            pool.submit(play_table, client, tid, code, plans[tid], sent, deadline)
            for tid, code in tables
        ]:
            future.result()
    wall = time.perf_counter() - start
    server_cpu = sum(group_cpu_s(g) for g in web_groups) - server_cpu
    worker_cpu = sum(group_cpu_s(g) for g in worker_groups) - worker_cpu
    database_cpu = database_cpu_s() - database_cpu
    generator_cpu = time.process_time() - generator_cpu
    close_old_connections()
    expected_counted = sum(1 for v in sent.values() if not v["conflict"])
    lag = None
    while time.perf_counter() - client.last_confirm < 60:
        snap = StandingsSnapshot.objects.filter(event=event, after_round=1).first()
        event.refresh_from_db()
        counted = BoardResult.objects.filter(
            table__round__event=event, status__in=BoardResult.COUNTED
        ).count()
        if (
            snap
            and snap.results_counted == counted == expected_counted
            and event.standings_updated_at
            and event.standings_updated_at >= event.standings_requested_at
        ):
            lag = max(0.0, time.perf_counter() - client.last_confirm)
            break
        time.sleep(0.1)
    stored = {
        (r.table_id, r.board.number): r
        for r in BoardResult.objects.filter(table__round__event=event).select_related("board")
    }
    lost = sum(
        1
        for key, v in sent.items()
        if key not in stored or stored[key].totals_ns not in (v["totals"], 72 - v["totals"])
    )
    lost += sum(1 for tid in plans for b in plans[tid] if (tid, b) not in sent)
    ns_submissions = Counter(
        Submission.objects.filter(result__table__round__event=event, side="NS").values_list(
            "result_id", flat=True
        )
    )
    duplicated = sum(n - 1 for n in ns_submissions.values() if n > 1)
    undisputed = sum(
        1
        for key, v in sent.items()
        if v["conflict"]
        and stored.get(key) is not None
        and stored[key].status != BoardResult.Status.DISPUTED
    )
    total = sum(client.statuses.values())
    floor = floor_cpu = floor_database_cpu = None
    if THINK_S == 0:
        floors.append(floor_run(port, web_groups, len(tables), per_table))
        floor = (floors[0][0] + floors[1][0]) / 2
        sent_to_floor = 2 * per_table * len(tables)
        floor_cpu = (floors[0][1] + floors[1][1]) / sent_to_floor
        floor_database_cpu = (floors[0][2] + floors[1][2]) / sent_to_floor
    errors_5xx = sum(n for s, n in client.statuses.items() if s >= 500 or s == 0)
    other = {s: n for s, n in sorted(client.statuses.items()) if 300 <= s < 500}
    print(f"tables: {len(tables)} tables")
    print(f"requests_per_s: {total / wall:.1f} req/s")
    print(f"p50_ms: {percentile(client.latencies, 0.50):.1f} ms")
    print(f"p95_ms: {percentile(client.latencies, 0.95):.1f} ms")
    print(f"p99_ms: {percentile(client.latencies, 0.99):.1f} ms")
    print(f"errors_5xx: {errors_5xx} responses (timeouts and refused connections included)")
    print(f"errors_other: {sum(other.values())} responses {json.dumps(other)}")
    # Not seen within 60 s: inf, still a number a reader of these lines can parse.
    print(f"standings_lag_s: {lag if lag is not None else float('inf'):.2f} s")
    print(f"lost_results: {lost} results")
    print(f"duplicated_results: {duplicated} results")
    print(f"undisputed_conflicts: {undisputed} results")
    print(f"server_cpu_ms_per_request: {1000 * server_cpu / max(1, total):.1f} ms")
    print(f"database_cpu_ms_per_request: {1000 * database_cpu / max(1, total):.1f} ms")
    if worker_groups:
        print(f"worker_cpu_ms_per_request: {1000 * worker_cpu / max(1, total):.1f} ms")
    print(f"generator_cpu_share: {generator_cpu / wall:.2f} cores")
    if floor is not None:
        print(f"floor_before_requests_per_s: {floors[0][0]:.1f} req/s")
        print(f"floor_after_requests_per_s: {floors[1][0]:.1f} req/s")
        print(f"floor_requests_per_s: {floor:.1f} req/s")
        print(f"floor_server_cpu_ms_per_request: {1000 * floor_cpu:.1f} ms")
        print(f"floor_database_cpu_ms_per_request: {1000 * floor_database_cpu:.1f} ms")
        print(f"saturation_ratio: {total / wall / floor:.2f} of the floor's rate")
    return 0 if (errors_5xx == 0 and lost == 0 and duplicated == 0 and undisputed == 0) else 1


def main() -> int:
    from benchmarks.request_cost import create_floor_table

    fresh_services()
    event, tables = build_event()
    create_floor_table()
    port = free_port()
    # The project's application with the floor endpoint beside it (benchmarks/request_cost.py).
    procs = start_stack(port, app="benchmarks.request_cost:served()")
    try:
        return run_round(port, event, tables, [procs[0].pid], [procs[1].pid])
    finally:
        stop(procs)


if __name__ == "__main__":
    sys.exit(main())
