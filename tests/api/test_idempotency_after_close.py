"""A table token that no longer acts (its round closed, or it expired) still gets the stored
answer of a submission it made, sent again with the same Idempotency-Key and body: a phone whose
answer was lost on the way replays its queue later (issue 20, docs/api.md §Idempotency). Anything
else stays the 401 it was: another key, another body, another side's or table's token, a token
deleted by new codes."""

import datetime as dt
import uuid

import pytest
from django.conf import settings
from django.utils import timezone

from tests.api.conftest import errors_of
from tournaments.actors import Actor
from tournaments.models import BoardResult, IdempotentResponse, Submission, TableToken
from tournaments.services import events

CLOSED = "This table's round is not open any more."
INVALID = "This table token is not valid (or no longer): enter your code again."


def _post(client, data, key, url="/api/v1/results"):
    return client.post(url, data, format="json", HTTP_IDEMPOTENCY_KEY=key)


def _close(world, capture):
    with capture(execute=True):
        events.round_close(
            rnd=world.table.round, actor=Actor(user=world.users["organiser"]), accept_missing=True
        )


def _stored():
    return (
        list(BoardResult.objects.order_by("pk").values_list("pk", "status", "version")),
        Submission.objects.count(),
        IdempotentResponse.objects.count(),
    )


def _refused(response, message):
    assert response.status_code == 401, response.content[:300]
    assert errors_of(response) == {"authorization": message}
    assert "Idempotent-Replayed" not in response


@pytest.fixture
def sent(world, django_capture_on_commit_callbacks):
    """NS's token sent a result with a key, its answer was lost, then the round closed."""
    client = world.client("table")
    key = str(uuid.uuid4())
    first = _post(client, world.short(1), key)
    assert first.status_code == 201
    _close(world, django_capture_on_commit_callbacks)
    return client, key, first


def test_a_stored_submission_replayed_after_the_round_closed_gets_its_first_answer(world, sent):
    client, key, first = sent
    before = _stored()
    again = _post(client, world.short(1), key)
    assert again.status_code == first.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert _stored() == before


def test_a_confirmation_replayed_after_the_round_closed_gets_its_first_answer(
    world, django_capture_on_commit_callbacks
):
    created = _post(world.client("table"), world.short(1), "entered").json()
    ew = world.client("table_ew")
    url = f"/api/v1/results/{created['id']}/confirm"
    first = _post(ew, {"version": created["version"]}, "confirmed", url)
    assert first.status_code == 200
    _close(world, django_capture_on_commit_callbacks)
    before = _stored()
    again = _post(ew, {"version": created["version"]}, "confirmed", url)
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    assert _stored() == before


def test_a_new_key_after_the_round_closed_is_refused(world, sent):
    client, _key, _first = sent
    before = _stored()
    _refused(_post(client, world.short(2), str(uuid.uuid4())), CLOSED)
    _refused(client.post("/api/v1/results", world.short(2), format="json"), CLOSED)
    assert _stored() == before


def test_the_same_key_with_another_body_after_the_round_closed_is_refused(world, sent):
    # Not the 422 an open round's token gets: nothing about the key is told to a token that no
    # longer acts, only the answer to exactly what it sent.
    client, key, _first = sent
    before = _stored()
    _refused(_post(client, world.short(1, totals={"NS": 30, "EW": 42}), key), CLOSED)
    _refused(_post(client, world.short(2), key), CLOSED)
    assert _stored() == before


def test_the_same_key_elsewhere_or_unreadable_after_the_round_closed_is_refused(world, sent):
    client, key, _first = sent
    before = _stored()
    # The same key and body on another path: another scope, nothing stored there.
    _refused(_post(client, world.short(1), key, "/api/v1/disputes"), CLOSED)
    # A body that cannot be read is not the 400 it would be for an open round's token.
    broken = client.post(
        "/api/v1/results", "{", content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )
    _refused(broken, CLOSED)
    _refused(client.get("/api/v1/results", HTTP_IDEMPOTENCY_KEY=key), CLOSED)
    assert _stored() == before


def test_another_side_or_table_cannot_replay_a_stored_answer(world, sent):
    _client, key, _first = sent
    before = _stored()
    for who in ("table_ew", "other_table"):
        _refused(_post(world.client(who), world.short(1), key), CLOSED)
    assert _stored() == before


def test_a_token_deleted_by_new_codes_cannot_replay(world, sent):
    client, key, _first = sent
    TableToken.objects.filter(table=world.table).delete()  # what new codes do to its tokens
    _refused(_post(client, world.short(1), key), INVALID)
    unknown = world.client()
    unknown.credentials(HTTP_AUTHORIZATION="Table not-a-token")
    _refused(_post(unknown, world.short(1), key), INVALID)


def test_an_expired_token_replays_its_stored_answer_and_nothing_else(world):
    client = world.client("table")
    first = _post(client, world.short(1), "queued")
    assert first.status_code == 201
    TableToken.objects.filter(table=world.table).update(
        created_at=timezone.now() - dt.timedelta(hours=settings.TABLE_TOKEN_HOURS, seconds=1)
    )
    before = _stored()
    again = _post(client, world.short(1), "queued")
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    _refused(_post(client, world.short(2), "new"), INVALID)
    _refused(_post(client, world.short(1, totals={"NS": 30, "EW": 42}), "queued"), INVALID)
    _refused(client.get("/api/v1/disputes"), INVALID)
    assert _stored() == before
