"""Fixtures for the fault tests: processes that can be killed, a Redis that can be stopped.

Everything here starts real processes (Celery workers, the web app, a private redis-server)
bound to pytest-django's test database, and stops every one of them when the test ends, by
process group, whatever happened in the test. Logs go to ``test-artifacts/faults/``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from benchmarks.stack import celery_worker_argv
from tests.conftest import REQUIRE_SERVICES, ROOT, wait_for
from tests.workers import stop_group, test_database_url, wait_until_answering

# A board's short result as the table page's form posts it (40–32, copes).
TABLE_FORM = {
    "delegated": "0",
    "trump": "copes",
    "outcome": "played",
    "totals_ns": "40",
    "totals_ew": "32",
}

# One folder per parallel test process: each empties its own at the start.
LOGS = ROOT / "test-artifacts" / "faults" / os.environ.get("PYTEST_XDIST_WORKER", "")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (the pool processes of a prefork worker)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


@dataclass
class Spawned:
    proc: subprocess.Popen
    log: Path
    name: str
    handle: object = field(repr=False, default=None)

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Processes:
    """Starts subprocesses in their own process group and stops every one at teardown."""

    def __init__(self) -> None:
        self.started: list[Spawned] = []

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> Spawned:
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / f"{name}.log"
        handle = log.open("w")
        proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
        )
        spawned = Spawned(proc=proc, log=log, name=name, handle=handle)
        self.started.append(spawned)
        return spawned

    def stop_all(self) -> None:
        for spawned in reversed(self.started):
            stop_group(spawned.proc)
            spawned.handle.close()  # type: ignore[attr-defined]


@pytest.fixture(scope="session", autouse=True)
def _fresh_logs():
    """Logs of this run only (process logs are named by port, so they would pile up)."""
    if LOGS.exists():
        for old in LOGS.glob("*.log"):
            old.unlink()


@pytest.fixture
def processes():
    procs = Processes()
    yield procs
    procs.stop_all()


def app_env(*, redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(
        os.environ,
        DATABASE_URL=test_database_url(),
        REDIS_URL=redis_url,
        DEBUG="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


class Workers:
    """Real Celery workers on any broker; ``start()`` waits until the worker answers a ping."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.count = 0

    def start(
        self,
        *,
        redis_url: str | None = None,
        concurrency: int = 1,
        pool: str = "prefork",
        env: dict[str, str] | None = None,
    ) -> Spawned:
        redis_url = redis_url or os.environ["REDIS_URL"]
        self.count += 1
        name = f"faults{self.count}@{socket.gethostname()}"
        spawned = self.processes.start(
            f"worker-{self.count}",
            celery_worker_argv(name=name, concurrency=concurrency, pool=pool),
            app_env(redis_url=redis_url, **(env or {})),
        )
        wait_until_answering(spawned.proc, name, spawned.log, redis_url)
        return spawned


@pytest.fixture
def workers(transactional_db, processes):
    return Workers(processes)


class PrivateRedis:
    """A redis-server of this test only (no persistence), which the test may stop and start."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.port = free_port()
        self.server: Spawned | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.server = self.processes.start(
            f"redis-{self.port}",
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            dict(os.environ),
        )
        if not wait_for(lambda: port_open(self.port), timeout=10, interval=0.1):
            raise RuntimeError(f"redis-server did not start: see {self.server.log}")

    def stop(self) -> None:
        """Stop the server at once (SIGKILL: what a crash looks like to its clients)."""
        assert self.server is not None
        stop_group(self.server.proc, signal.SIGKILL)
        assert wait_for(lambda: not port_open(self.port), timeout=10, interval=0.1)


@pytest.fixture
def private_redis(processes):
    if subprocess.run(["which", "redis-server"], capture_output=True).returncode != 0:
        if REQUIRE_SERVICES:  # CI: a test that cannot run fails (the Redis it answers to is
            # not enough: these tests stop a server of their own)
            pytest.fail("REQUIRE_SERVICES=1 but the redis-server program is missing", pytrace=False)
        pytest.skip("needs the redis-server program")
    redis = PrivateRedis(processes)
    redis.start()
    return redis


class AppServer:
    """The web app (``manage.py runserver --noreload``) in a subprocess on a free port."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: Spawned | None = None

    def start(self, *, redis_url: str) -> None:
        import requests

        self.server = self.processes.start(
            f"web-{self.port}",
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
            app_env(redis_url=redis_url),
        )

        def up() -> bool:
            if self.server.proc.poll() is not None:  # type: ignore[union-attr]
                raise RuntimeError(f"the web app exited: see {self.server.log}")  # type: ignore
            try:
                return requests.get(self.url + "/healthz", timeout=2).status_code in (200, 503)
            except requests.RequestException:
                return False

        if not wait_for(up, timeout=30, interval=0.3):
            raise RuntimeError(f"the web app did not answer within 30 s: see {self.server.log}")


@pytest.fixture
def app_server(transactional_db, processes):
    return AppServer(processes)


def manage(
    args: list[str], *, redis_url: str, timeout: float = 60, **env: str
) -> subprocess.CompletedProcess:
    """Run a management command (or ``celery``) against the test database."""
    return subprocess.run(
        args,
        cwd=ROOT,
        env=app_env(redis_url=redis_url, **env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def build_big_event(*, pairs: int, rounds: int, boards: int, seed: int = 1):
    """An event of closed rounds full of confirmed results, from the benchmarks' generator.

    Written with bulk_create as ``benchmarks/standings.py`` does: a standings recomputation of
    it takes long enough to be interrupted.
    """
    from benchmarks import synthetic

    data = synthetic.build_event(seed, pairs=pairs, rounds=rounds, boards=boards)
    return synthetic.store_event(data, name="Big event", seed=f"faults-{seed}")


def expected_rows(event) -> list[dict]:
    """The final standings computed directly, as the snapshot stores them."""
    from dataclasses import asdict

    from scoring.standings import compute_standings
    from tournaments.scoring_io import event_input

    data = event_input(event)
    last = max(r.number for r in data.rounds)
    return [asdict(s) for s in compute_standings(data, after_round=last).standings]


def counted(event) -> int:
    from tournaments.models import BoardResult

    return BoardResult.objects.filter(
        table__round__event=event, status__in=BoardResult.COUNTED
    ).count()
