"""A national simultaneous event's shape on one machine: the deployment of docs/deploy.md §
"A national simultaneous event", on loopback ports.

    HAProxy (round robin, health-checked) ─┬─ gunicorn A ─┐
                                           └─ gunicorn B ─┼─ PgBouncer (transaction pooling) ─ PostgreSQL
                    Celery worker 1, Celery worker 2 ─────┘          Redis (broker, cache)

Then ``load_round.py``'s round is played through HAProxy by NATIONAL_TABLES tables (default
1,000: 2,000 pairs, 6 boards) and the same figures are printed (requests, latencies, errors, lost
and duplicated results, standings lag, the servers' CPU per request, the generator's CPU share).

Needs Debian's ``haproxy`` and ``pgbouncer`` (``apt-get install haproxy pgbouncer``); PgBouncer
refuses to run as root, so it is started as the ``postgres`` user when this runs as root.

One 2-core machine runs all of it here, load generator included: the figures show that the
pieces work together at this size (no error, nothing lost, standings within seconds), not the
capacity of a real deployment, which puts each piece on its own machine. The tables think
LOAD_THINK_S seconds between boards (default 30 here: a real board takes 6–8 minutes, so even
this is 12 times denser than an evening) and the submission phase is bounded by
LOAD_DEADLINE_S (default 900 s here).

Environment: as load_round.py, plus NATIONAL_TABLES and NATIONAL_WEB_WORKERS (gunicorn
workers per instance, default 2).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LOAD_TABLES", os.environ.get("NATIONAL_TABLES", "1000"))
os.environ.setdefault("LOAD_THINK_S", "30")
os.environ.setdefault("LOAD_DEADLINE_S", "900")
os.environ.setdefault("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/botifarra_national")
from benchmarks import load_round as load  # noqa: E402
from benchmarks.stack import celery_worker_argv  # noqa: E402

WEB_WORKERS = int(os.environ.get("NATIONAL_WEB_WORKERS", "2"))


def need(program: str) -> str:
    path = shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")
    if path is None:
        raise SystemExit(f"{program} is not installed: apt-get install haproxy pgbouncer")
    return path


def start_pgbouncer(workdir: Path, port: int) -> subprocess.Popen:
    db = urlparse(load.DATABASE_URL)
    ini = workdir / "pgbouncer.ini"
    ini.write_text(
        "[databases]\n"
        f"{db.path[1:]} = host={db.hostname} port={db.port or 5432} dbname={db.path[1:]}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\n"
        f"unix_socket_dir = {workdir}\n"
        "auth_type = trust\n"
        f"auth_file = {workdir / 'users.txt'}\n"
        "pool_mode = transaction\n"
        "default_pool_size = 20\nmax_client_conn = 2000\n"
        f"logfile = {workdir / 'pgbouncer.log'}\n"
        "ignore_startup_parameters = extra_float_digits,options\n"
        "log_connections = 0\nlog_disconnections = 0\n"
    )
    (workdir / "users.txt").write_text(f'"{db.username or "postgres"}" ""\n')
    argv = [need("pgbouncer"), "-q", str(ini)]
    if os.geteuid() == 0:
        postgres = pwd.getpwnam("postgres")
        for path in (workdir, ini, workdir / "users.txt"):
            os.chown(path, postgres.pw_uid, postgres.pw_gid)
        argv = [argv[0], "-q", "-u", "postgres", str(ini)]
    proc = subprocess.Popen(argv, start_new_session=True)
    wait_port(port, "pgbouncer")
    return proc


def start_haproxy(workdir: Path, port: int, backends: list[int]) -> subprocess.Popen:
    cfg = workdir / "haproxy.cfg"
    # Each server takes as many requests at once as it has workers (maxconn): the others wait
    # in HAProxy's queue, not in gunicorn's backlog, so a busy server still answers its health
    # check at once and is never taken out for being busy (a burst of 1,000 tables sitting
    # down at once made both servers miss their 2 s checks: every request then got a 503).
    servers = "\n".join(
        f"    server web{i} 127.0.0.1:{p} maxconn {WEB_WORKERS} check inter 2s fall 3 rise 2"
        for i, p in enumerate(backends)
    )
    cfg.write_text(
        "global\n    maxconn 4000\n"
        "defaults\n    mode http\n    timeout connect 5s\n    timeout client 60s\n"
        "    timeout server 60s\n    timeout queue 60s\n    timeout check 5s\n"
        "    option forwardfor\n"
        f"frontend botifarra\n    bind 127.0.0.1:{port}\n    default_backend web\n"
        "backend web\n    balance leastconn\n    option httpchk GET /\n"
        f"{servers}\n"
    )
    proc = subprocess.Popen([need("haproxy"), "-db", "-f", str(cfg)], start_new_session=True)
    wait_port(port, "haproxy", path="/healthz")
    return proc


def wait_port(port: int, name: str, path: str | None = None) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = HTTPConnection("127.0.0.1", port, timeout=2)
            if path is None:
                conn.connect()
                return
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{name} did not answer on port {port} within 30 s")


def main() -> int:
    need("haproxy")
    need("pgbouncer")
    load.fresh_services()
    event, tables = load.build_event()
    from benchmarks.request_cost import create_floor_table

    create_floor_table()
    procs: list[subprocess.Popen] = []
    workdir = Path(tempfile.mkdtemp(prefix="botifarra-national-"))
    try:
        bouncer_port = load.free_port()
        procs.append(start_pgbouncer(workdir, bouncer_port))
        db = urlparse(load.DATABASE_URL)
        pooled = db._replace(netloc=f"{db.username or 'postgres'}@127.0.0.1:{bouncer_port}")
        env = dict(load.ENV, DATABASE_URL=pooled.geturl(), DATABASE_TRANSACTION_POOLER="1")
        logs = ROOT / "test-artifacts"
        logs.mkdir(exist_ok=True)
        web_ports = [load.free_port(), load.free_port()]
        webs = []
        for i, port in enumerate(web_ports):
            webs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "gunicorn",
                        "benchmarks.request_cost:served()",
                        "-b",
                        f"127.0.0.1:{port}",
                        "-w",
                        str(WEB_WORKERS),
                        "--timeout",
                        "60",
                        "--log-level",
                        "warning",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=(logs / f"national-web-{i}.log").open("w"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        procs += webs
        workers = []
        for i in range(2):
            workers.append(
                subprocess.Popen(
                    celery_worker_argv(name=f"national{i}@%h", concurrency=1, loglevel="info"),
                    cwd=ROOT,
                    env=env,
                    stdout=(logs / f"national-worker-{i}.log").open("w"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        procs += workers
        for port in web_ports:
            wait_port(port, "gunicorn", path="/healthz")
        balancer_port = load.free_port()
        procs.append(start_haproxy(workdir, balancer_port, web_ports))
        return load.run_round(
            balancer_port, event, tables, [w.pid for w in webs], [w.pid for w in workers]
        )
    finally:
        load.stop(procs)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
