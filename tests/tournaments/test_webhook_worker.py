"""Webhooks delivered by a REAL Celery worker (Redis, PostgreSQL) to a real HTTP receiver on
loopback that checks every signature with the snippet of docs/api.md: an evening's
notifications, a receiver failing and the retries with back-off that follow, and a delivery
that runs out of tries and is re-sent."""

from itertools import pairwise

import pytest

from tests.conftest import wait_for
from tests.webhook_receiver import Receiver
from tournaments.actors import Actor
from tournaments.models import WebhookDelivery
from tournaments.services import events, results
from tournaments.services import webhooks as svc

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BASE = 0.5  # the worker's back-off base in these tests: 0.5 s, then 1 s, then 2 s
TRIES = 3


@pytest.fixture
def worker(celery_worker_factory, monkeypatch):
    monkeypatch.setenv("WEBHOOK_RETRY_BASE_SECONDS", str(BASE))
    monkeypatch.setenv("WEBHOOK_MAX_ATTEMPTS", str(TRIES))
    return celery_worker_factory()


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


@pytest.fixture
def boss(running_event):
    return Actor(user=running_event.organisers.get())


def _play_round_one(event):
    """Both pairs of every table enter the same result on each board: all confirmed."""
    data = {"trump": "oros", "totals": {"NS": 40, "EW": 32}}
    for table in event.rounds.get(number=1).tables.all():
        for number in table.round.board_numbers:
            for side in ("NS", "EW"):
                results.result_submit_short(
                    table=table, board_number=number, actor=Actor(table=table, side=side), data=data
                )


def register(event, boss, receiver):
    webhook = svc.webhook_create(event=event, actor=boss, url=receiver.url)
    receiver.secret = webhook.secret
    return webhook


def settled(delivery):
    delivery.refresh_from_db()
    return delivery.status != WebhookDelivery.Status.PENDING


def test_an_evening_reaches_the_receiver_signed(worker, running_event, boss, receiver):
    register(running_event, boss, receiver)
    _play_round_one(running_event)  # 2 tables × 2 boards, each entered by both pairs
    events.round_close(rnd=running_event.rounds.get(number=1), actor=boss)
    kinds = {"result.confirmed": 4, "round.closed": 1, "standings.updated": 1}

    def arrived():
        got = [r.headers["X-Botifarra-Event"] for r in receiver.received]
        return all(got.count(kind) >= n for kind, n in kinds.items())

    assert wait_for(arrived, timeout=60), [r.headers for r in receiver.received]
    assert all(r.verified for r in receiver.received)
    confirmed = [r.json for r in receiver.received if r.json["kind"] == "result.confirmed"]
    assert sorted((p["data"]["table"], p["data"]["board"]) for p in confirmed) == sorted(
        (t.number, b) for t in running_event.rounds.get(number=1).tables.all() for b in (1, 2)
    )
    assert wait_for(
        lambda: not WebhookDelivery.objects.exclude(status="delivered").exists(), timeout=20
    )
    for delivery in WebhookDelivery.objects.all():
        assert [a.status_code for a in delivery.attempts.all()] == [200]
        assert running_event.seed not in str(delivery.payload)


def test_a_failing_receiver_gets_retries_with_back_off(worker, running_event, boss, receiver):
    webhook = register(running_event, boss, receiver)
    receiver.answers = [500, 503]  # then 200
    delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    assert wait_for(lambda: settled(delivery), timeout=30)
    assert delivery.status == WebhookDelivery.Status.DELIVERED
    attempts = list(delivery.attempts.all())
    assert [a.status_code for a in attempts] == [500, 503, 200]
    assert attempts[0].response_body.startswith("boom") and attempts[2].response_body == "ok"
    gaps = [(b.started_at - a.started_at).total_seconds() for a, b in pairwise(attempts)]
    assert gaps[0] >= BASE and gaps[1] >= 2 * BASE, gaps  # waited, and longer the second time
    ids = {r.headers["X-Botifarra-Delivery"] for r in receiver.received}
    assert ids == {str(delivery.uuid)} and len(receiver.received) == 3
    assert all(r.verified for r in receiver.received)


def test_tries_run_out_then_a_resend_delivers(worker, running_event, boss, receiver):
    webhook = register(running_event, boss, receiver)
    receiver.answers = [500] * TRIES
    delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    assert wait_for(lambda: settled(delivery), timeout=30)
    assert delivery.status == WebhookDelivery.Status.FAILED
    assert delivery.attempts.count() == TRIES and len(receiver.received) == TRIES
    svc.delivery_resend(delivery=delivery, actor=boss)
    assert wait_for(lambda: settled(delivery), timeout=30)
    assert delivery.status == WebhookDelivery.Status.DELIVERED
    assert [a.status_code for a in delivery.attempts.all()] == [500] * TRIES + [200]
