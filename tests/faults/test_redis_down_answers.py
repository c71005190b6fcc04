"""docs/operations.md, "When Redis dies mid-event", answered in words: REDIS_URL, the cache and
the Celery broker point at a port where nothing listens (as when Redis has died), tasks are
queued for a real worker (not in-process), and the database is real (transactions commit, so
the after-commit queuing runs inside the request, as in production). What was stored stands and
the answer says so; nothing answers a server error whose page says nothing was stored.
"""

import pytest
from django.test import Client
from django.urls import reverse

from config.env import redis_cache
from tests.factories import EventFactory, PairFactory
from tournaments.actors import Actor
from tournaments.models import BoardResult, Entry, Event, Registration, Table
from tournaments.services import events

pytestmark = pytest.mark.django_db(transaction=True)

DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def _forget_connections(app) -> None:
    """The next publish connects again, to whatever broker_url says then."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_dead(settings, monkeypatch):
    from config.celery import app

    settings.REDIS_URL = DEAD
    settings.CACHES = {"default": redis_cache(DEAD, 0.5)}
    previous = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url = DEAD
    app.conf.task_always_eager = False
    _forget_connections(app)
    # Fail fast instead of Celery's connection retries.
    monkeypatch.setitem(app.conf, "broker_connection_max_retries", 0)
    monkeypatch.setitem(
        app.conf, "task_publish_retry_policy", {"max_retries": 0, "interval_start": 0}
    )
    yield
    app.conf.broker_url, app.conf.task_always_eager = previous
    _forget_connections(app)


def _browser() -> Client:
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")


def test_a_table_still_stores_a_short_result(running_event, redis_dead):
    """The documented claim itself (checked here so that the other tests' set-up is sound)."""
    table = Table.objects.get(round__event=running_event, round__number=1, number=1)
    client = _browser()
    assert client.post(reverse("table:enter"), {"code": table.code_ns}).status_code == 302
    response = client.post(
        f"/table/{table.code_ns}/board/1/",
        {
            "delegated": "0",
            "trump": "copes",
            "outcome": "played",
            "totals_ns": "40",
            "totals_ew": "32",
        },
    )
    assert response.status_code < 500
    assert BoardResult.objects.filter(table=table, board__number=1).exists()


def test_a_pair_can_sign_up_while_redis_is_down(redis_dead, organiser):
    """The sign-up is stored; its e-mail task cannot be queued. docs/operations.md: 'A
    registration e-mail whose task was lost is not sent again: the pair's registration page
    always shows its status' -- the pair must be sent to that page, not shown a server error
    (whose page says nothing was stored, so they sign up again)."""
    event = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION, published=True)
    response = _browser().post(
        reverse("public:register", args=[event.pk]),
        {"player1": "Anna", "player2": "Biel", "email": "anna@example.org"},
    )
    stored = Registration.objects.filter(event=event).count()
    assert (response.status_code, stored) == (302, 1)


def test_an_organiser_can_start_an_event_while_redis_is_down(redis_dead, organiser):
    """docs/operations.md: 'If boards of a started event are missing (the board generation task
    was lost with Redis, for example), queue it again' -- the start itself must not be a 500
    after it committed."""
    event = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION)
    for i in (1, 2, 3, 4):
        Entry.objects.create(event=event, pair=PairFactory(), number=i)
    client = _browser()
    client.force_login(organiser)
    response = client.post(reverse("tournaments:event_start", args=[event.pk]))
    event.refresh_from_db()
    assert (response.status_code, event.status) == (302, Event.Status.RUNNING)


def test_an_organiser_can_finish_an_event_while_redis_is_down(running_event, organiser):
    """Finishing queues the club's ratings; docs/operations.md ('Ratings and e-mails after an
    outage') promises the lost task is caught up later -- the finish must not be a 500."""
    rnd = running_event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    client = _browser()
    client.force_login(organiser)
    # Redis dies now.
    from django.test.utils import override_settings

    from config.celery import app

    previous = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = DEAD, False
    _forget_connections(app)
    try:
        with override_settings(
            REDIS_URL=DEAD,
            CACHES={"default": redis_cache(DEAD, 0.5)},
        ):
            response = client.post(reverse("tournaments:event_finish", args=[running_event.pk]))
    finally:
        app.conf.broker_url, app.conf.task_always_eager = previous
        _forget_connections(app)
    running_event.refresh_from_db()
    assert (response.status_code, running_event.status) == (302, Event.Status.FINISHED)


def test_a_large_pdf_while_redis_is_down_is_refused_in_words_not_a_500(
    running_event, organiser, redis_dead, monkeypatch
):
    """docs/operations.md: 'PDF jobs do not start; the PDFs can be printed once Redis is back.'
    A refusal the reader can act on, never a server error (COMMON: never a 500)."""
    import uuid

    from tournaments import pdf

    running_event.published = True
    running_event.save()
    monkeypatch.setattr(pdf, "LARGE_PAIRS", 2)
    client = _browser()
    client.force_login(organiser)
    url = reverse("public:pdf", args=[running_event.pk, "scorecards"])
    assert client.get(url).status_code == 200
    started = client.post(url)
    job = uuid.uuid4()
    looked_up = client.get(f"{url}?job={job}")
    status = client.get(reverse("public:pdf_status", args=[running_event.pk, job]))
    for answer in (started, looked_up):
        assert answer.status_code == 503
        assert "cannot be built just now" in answer.content.decode()
    assert status.status_code == 503 and status.json()["state"] == "unavailable"
