"""Redis that hangs instead of dying (a frozen process, a stalled machine, a network that drops
packets): connections are accepted and nothing ever answers. docs/operations.md, "When Redis
dies mid-event": results are stored and confirmed, the standings say they may be out of date.
Each call to Redis gives up after ``REDIS_SOCKET_TIMEOUT`` and the process then leaves Redis
alone for a while (``tournaments.redis_outage``): a request waits for one timeout at most, and
the next ones for none.

REDIS_URL, the cache and the broker (with the settings' own timeouts) point at a socket that
accepts connections and never answers; tasks are queued for a real worker, not in-process.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.env import redis_cache
from tests.faults.conftest import TABLE_FORM
from tournaments import redis_outage
from tournaments.actors import Actor
from tournaments.models import BoardResult, Event, Table
from tournaments.services import events

pytestmark = pytest.mark.django_db(transaction=True)

# A request stuck behind a hung Redis would have waited for redis-py's own default of 5 s per
# call, several times over (two tries a call, several calls a request): far above this.
BOUND_S = 4.0


class HungRedis:
    """A listening socket that accepts every connection and never answers on any."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(128)
        self.url = f"redis://127.0.0.1:{self.server.getsockname()[1]}/0"
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _address = self.server.accept()
            except OSError:
                return
            with self.lock:
                self.held.append(conn)

    @property
    def connections(self) -> int:
        with self.lock:
            return len(self.held)

    def close(self) -> None:
        self.server.close()
        with self.lock:
            for conn in self.held:
                conn.close()


def _forget_connections(app) -> None:
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def hung(settings):
    from config.celery import app

    redis = HungRedis()
    settings.REDIS_URL = redis.url
    settings.CACHES = {"default": redis_cache(redis.url, settings.REDIS_SOCKET_TIMEOUT)}
    previous = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = redis.url, False
    _forget_connections(app)
    yield redis
    app.conf.broker_url, app.conf.task_always_eager = previous
    _forget_connections(app)
    redis.close()


def _timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def _table(event: Event) -> Table:
    return Table.objects.get(round__event=event, round__number=1, number=1)


def test_a_table_stores_its_results_and_the_next_request_does_not_wait(running_event, hung):
    table = _table(running_event)
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    response, took = _timed(lambda: client.post(reverse("table:enter"), {"code": table.code_ns}))
    assert response.status_code == 302
    assert took < BOUND_S
    response, took = _timed(lambda: client.post(f"/table/{table.code_ns}/board/1/", TABLE_FORM))
    assert response.status_code == 302
    assert took < BOUND_S
    tried = hung.connections
    assert tried >= 1  # Redis was asked, and did not answer

    response = client.post(f"/table/{table.code_ns}/board/2/", TABLE_FORM)
    assert response.status_code == 302
    assert hung.connections == tried  # Redis is left alone while the pause lasts
    stored = BoardResult.objects.filter(table=table).values_list("board__number", flat=True)
    assert sorted(stored) == [1, 2]


def test_the_api_stores_a_result_and_answers(running_event, hung):
    table = _table(running_event)
    client = Client(raise_request_exception=False)
    response, took = _timed(
        lambda: client.post(
            "/api/v1/table-token",
            {"code": table.code_ns},
            content_type="application/json",
        )
    )
    assert response.status_code == 200
    token = response.json()["token"]
    body = {
        "table": table.pk,
        "board": 1,
        "trump": "copes",
        "delegated": False,
        "doubles": [],
        "totals": {"NS": 44, "EW": 28},
    }
    response, took_submit = _timed(
        lambda: client.post(
            "/api/v1/results",
            body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Table {token}",
            HTTP_IDEMPOTENCY_KEY="hung-1",
        )
    )
    assert response.status_code == 201, response.content
    assert max(took, took_submit) < BOUND_S
    assert BoardResult.objects.filter(table=table, board__number=1).exists()


@pytest.fixture
def standings_shown(running_event, organiser):
    """Round 1 closed and its standings computed (before Redis hangs: set up before ``hung``)."""
    rnd = running_event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    Event.objects.filter(pk=running_event.pk).update(published=True)
    return running_event


def test_the_public_standings_say_they_may_be_out_of_date(standings_shown, hung):
    running_event = standings_shown
    # A result changed since, and its recomputation was asked for: the standings are stale.
    Event.objects.filter(pk=running_event.pk).update(standings_requested_at=timezone.now())
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    url = reverse("public:standings", args=[running_event.pk])
    response, took = _timed(lambda: client.get(url))
    assert response.status_code == 200
    assert took < BOUND_S
    assert "may be out of date" in response.content.decode()
    tried = hung.connections
    assert client.get(url).status_code == 200
    assert hung.connections == tried


def test_redis_is_tried_again_after_the_pause(running_event, hung, monkeypatch):
    monkeypatch.setattr(redis_outage, "PAUSE_S", 1.0)
    table = _table(running_event)
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    assert client.post(reverse("table:enter"), {"code": table.code_ns}).status_code == 302
    assert client.post(f"/table/{table.code_ns}/board/1/", TABLE_FORM).status_code == 302
    tried = hung.connections
    time.sleep(1.1)
    assert client.post(f"/table/{table.code_ns}/board/2/", TABLE_FORM).status_code == 302
    assert hung.connections > tried
