"""Shared fixtures. Service tests skip with a reason when a service is absent, and fail
instead when REQUIRE_SERVICES=1 (as in CI)."""

import os
import socket
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings

from benchmarks.stack import celery_worker_argv
from tests.catalogues import LANGS, MSGFMT, msgfmt, po_path
from tests.workers import stop_group, test_database_url, wait_until_answering

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def _port_open(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1
        ):
            return True
    except OSError:
        return False


def service_missing(marker: str) -> str | None:
    """Why a test with this marker cannot run here, or None when it can."""
    if marker == "postgres":
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith(("postgres://", "postgresql://")):
            return "needs PostgreSQL: set DATABASE_URL=postgres://…"
        if not _port_open(url, 5432):
            return f"PostgreSQL at {url} does not answer"
    if marker == "redis":
        url = os.environ.get("REDIS_URL", "")
        if not url:
            return "needs Redis and a Celery worker: set REDIS_URL=redis://…"
        if not _port_open(url, 6379):
            return f"Redis at {url} does not answer"
    if marker == "browser" and not Path("/usr/bin/chromium").exists():
        return "needs Debian's chromium at /usr/bin/chromium"
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in ("postgres", "redis", "browser"):
            if item.get_closest_marker(marker) is None:
                continue
            reason = service_missing(marker)
            if reason is None:
                continue
            if REQUIRE_SERVICES:
                item.user_properties.append(("missing_service", reason))
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item):
    for name, reason in item.user_properties:
        if name == "missing_service":
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)


def process_redis_url(url: str, worker: str) -> str:
    """The Redis database of one of the suite's parallel processes (pytest-xdist's ``gw0``,
    ``gw1``, …): REDIS_URL's for the first, then the ones numbered below it."""
    parsed = urlparse(url)
    index = int(worker.removeprefix("gw"))
    database = int(parsed.path.strip("/") or 0) - index
    if database < 0:
        raise pytest.UsageError(f"REDIS_URL {url}: no Redis database left for process {worker}")
    return parsed._replace(path=f"/{database}").geturl()


@pytest.fixture(scope="session", autouse=True)
def _a_redis_database_per_process():
    """Tests flush their Redis database (cache, broker, locks) and start Celery workers on it:
    parallel processes must not share one. Everything that reads REDIS_URL here (the settings,
    the Celery app, the workers and servers the tests start) gets this process's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = settings.REDIS_URL
    if not worker or not url:
        yield
        return
    from django.test.utils import override_settings

    from config.celery import app

    own = process_redis_url(url, worker)
    caches = {"default": {**settings.CACHES["default"], "LOCATION": own}}
    override = override_settings(REDIS_URL=own, CELERY_BROKER_URL=own, CACHES=caches)
    override.enable()
    previous_env, previous_broker = os.environ.get("REDIS_URL"), app.conf.broker_url
    os.environ["REDIS_URL"] = own
    app.conf.broker_url = own
    try:
        yield
    finally:
        app.conf.broker_url = previous_broker
        os.environ["REDIS_URL"] = previous_env or ""
        override.disable()


@pytest.fixture(autouse=True)
def _tasks_in_process(request):
    """Tasks run in-process except in tests that start a real worker (marked ``redis``)."""
    from celery.result import allow_join_result
    from django.core.cache import cache

    from config.celery import app
    from tournaments import queue, redis_outage

    # What this process remembers of the requests it queued, like the cache, starts empty, and
    # an outage of Redis that an earlier test made does not last into this one.
    queue._QUEUED_UNTIL.clear()
    queue._MARKED_AT.clear()
    redis_outage.reset()
    eager = request.node.get_closest_marker("redis") is None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    try:
        cache.clear()
    except Exception:  # noqa: BLE001 - a test about Redis being down must still start
        pass
    # Celery marks "inside a task" in one flag for the whole process while an eager task runs,
    # and two threads running tasks at once (the race tests) can leave it set: a later test's
    # result.get() then refused as if called from a task. Each test starts outside any task.
    with allow_join_result():
        yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _api_keeps_its_contract(monkeypatch):
    """Every response from /api/v1/ that a test receives through Django's test client (DRF's
    APIClient included) is checked against the published OpenAPI schema (tests/contract.py).
    A mismatch fails the test where the call was made; in another thread, at the test's end."""
    from django.test.client import Client

    from tests import contract

    request = Client.request
    late: list[str] = []

    def checked(self, **kwargs):
        response = request(self, **kwargs)
        found = contract.check(response)
        if found:
            if threading.current_thread() is threading.main_thread():
                pytest.fail("the API broke its schema:\n" + "\n".join(found), pytrace=False)
            late.extend(found)
        return response

    monkeypatch.setattr(Client, "request", checked)
    yield
    if late:
        pytest.fail("the API broke its schema:\n" + "\n".join(late), pytrace=False)


@pytest.fixture(autouse=True)
def _attempt_windows_stand_still(monkeypatch):
    """The attempt counter's windows (tournaments/ratelimit.py) are fixed minutes: one starting
    in the middle of a test would give a fresh budget. Time stands still for the counter during
    a test; tests that move it patch ``ratelimit._now`` themselves."""
    from tournaments import ratelimit

    start = ratelimit._now()
    monkeypatch.setattr(ratelimit, "_now", lambda: start)


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Tests read the English source texts. The site's default language is Catalan, and once the
    catalogues are compiled (``make install``) a request without Accept-Language gets Catalan:
    tests/i18n sets ``LANGUAGE_CODE = "ca"`` again to check exactly that."""
    settings.LANGUAGE_CODE = "en"


class _RequestsInFlight:
    """Wraps the live server's WSGI application to count the requests it is still answering;
    once closed, it answers 503 without touching the database."""

    def __init__(self, app):
        self.app = app
        self.count = 0
        self.closed = False
        self.idle = threading.Condition()

    def __call__(self, environ, start_response):
        with self.idle:
            if self.closed:
                start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
                return [b"The test is over."]
            self.count += 1
        try:
            result = self.app(environ, start_response)
        except BaseException:
            self._done()
            raise
        return _ClosingResult(result, self._done)

    def _done(self):
        with self.idle:
            self.count -= 1
            self.idle.notify_all()

    def close_and_wait(self, timeout: float) -> bool:
        with self.idle:
            self.closed = True
            return self.idle.wait_for(lambda: self.count == 0, timeout)

    def open(self):
        with self.idle:
            self.closed = False


class _ClosingResult:
    def __init__(self, result, done):
        self.result, self.done = result, done

    def __iter__(self):
        return iter(self.result)

    def close(self):
        try:
            if hasattr(self.result, "close"):
                self.result.close()
        finally:
            self.done()


@pytest.fixture(autouse=True)
def _live_server_answers_before_flush(request):
    """A browser test ends while a page may still have a request in flight (a poll, the offline
    copy's fetches): its transaction's locks deadlocked the flush's TRUNCATE that empties the
    database after the test (seen in CI), leaving the rows to the next test. So the pages still
    open are closed, the server stops answering and finishes what it answers, then the flush."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")  # set up before, so flushed after this waits
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    httpd = request.getfixturevalue("live_server").thread.httpd
    app = httpd.get_app()
    if not isinstance(app, _RequestsInFlight):
        app = _RequestsInFlight(app)
        httpd.set_app(app)
    app.open()
    yield
    for context in browser.contexts if browser else ():
        context.close()  # one a failed test left open would go on polling
    if not app.close_and_wait(timeout=30):
        pytest.fail("the live server still answers a request 30 s after the test", pytrace=False)


@pytest.fixture
def celery_worker_process(celery_worker_factory):
    """A real Celery worker in a subprocess, bound to the test database and Redis."""
    return celery_worker_factory()


@pytest.fixture
def celery_worker_factory(transactional_db):
    """Start real Celery workers: ``celery_worker_factory(concurrency=2)`` → the process;
    ``queues="analysis"`` for a worker of the perfect-play analysis (``-Q``)."""
    procs = []

    def start(concurrency: int = 1, queues: str | None = None):
        proc, handle = _start_worker(concurrency, len(procs), queues)
        procs.append((proc, handle))
        return proc

    yield start
    for proc, handle in procs:
        stop_group(proc)
        handle.close()


def _start_worker(concurrency: int, index: int, queues: str | None = None):
    env = dict(os.environ, DATABASE_URL=test_database_url(), DEBUG="1", PYTHONUNBUFFERED="1")
    name = f"test{index}@{socket.gethostname()}"
    process = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    log = ROOT / "test-artifacts" / f"celery-worker-{process}-{index}.log"
    log.parent.mkdir(exist_ok=True)
    handle = log.open("w")
    proc = subprocess.Popen(
        celery_worker_argv(
            name=name,
            concurrency=concurrency,
            pool="solo" if concurrency == 1 else "prefork",
            queues=queues,
        ),
        cwd=ROOT,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_until_answering(proc, name, log, os.environ["REDIS_URL"])
    except RuntimeError:
        handle.close()
        raise
    return proc, handle


def wait_for(predicate, timeout: float = 20.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


@pytest.fixture
def organiser(db):
    from tests.factories import UserFactory

    return UserFactory(username="organiser")


@pytest.fixture
def running_event(db, organiser):
    """A running event of 4 pairs, boards generated, round 1 open (tables 1–2)."""
    return start_four_pairs(organiser)


def start_four_pairs(organiser, **options):
    """A running event of 4 pairs (numbers 1–4; ``options`` for its EventFactory), boards
    generated, round 1 open: table 1 seats pairs 1 v 2, table 2 pairs 3 v 4."""
    from tests.factories import EventFactory, PairFactory
    from tournaments.actors import Actor
    from tournaments.models import Entry
    from tournaments.services import events

    event = EventFactory(organisers=[organiser], **({"status": "registration"} | options))
    actor = Actor(user=organiser)
    entries = [Entry.objects.create(event=event, pair=PairFactory(), number=i) for i in range(1, 5)]
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[(entries[0].pk, entries[1].pk), (entries[2].pk, entries[3].pk)],
    )
    events.round_open(rnd=rnd, actor=actor)
    return event


def pytest_configure(config):
    # Browser tests are marked by folder so that a missing Chromium is reported, not hidden.
    pass


def pytest_itemcollected(item):
    if "/e2e/" in str(item.fspath) or item.get_closest_marker("browser"):
        item.add_marker(pytest.mark.browser)


@pytest.fixture
def referee(running_event):
    """The running event's referee."""
    from tests.factories import UserFactory

    user = UserFactory(username="referee")
    running_event.referees.add(user)
    return user


@pytest.fixture
def table1(running_event):
    """Table 1 of the running event's open round 1."""
    from tournaments.models import Table

    return Table.objects.select_related("round__event", "ns", "ew").get(
        round__event=running_event, round__number=1, number=1
    )


@pytest.fixture(scope="session")
def compiled_locale(tmp_path_factory) -> Path:
    """The committed .po files compiled (``msgfmt --check``) into a temporary LOCALE_PATHS."""
    if MSGFMT is None:
        pytest.skip("needs GNU gettext (msgfmt)")
    root = tmp_path_factory.mktemp("locale")
    for lang in LANGS:
        target = root / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        result = msgfmt(po_path(lang), target / "django.mo")
        assert result.returncode == 0, result.stderr
    return root
