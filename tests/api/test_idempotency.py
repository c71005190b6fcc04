"""Idempotency-Key: a repeat returns the first response byte for byte and stores nothing new;
the same key with a different body is a 422."""

import pytest

from tests.api.conftest import errors_of
from tournaments.models import BoardResult, Dispute, IdempotentResponse, Ruling, Submission


def _post(client, url, data, key):
    return client.post(url, data, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_same_key_twice_returns_the_first_response_and_stores_once(world):
    client = world.client("table")
    first = _post(client, "/api/v1/results", world.short(), "k-1")
    second = _post(client, "/api/v1/results", world.short(), "k-1")
    assert first.status_code == second.status_code == 201
    assert first.content == second.content
    assert second["Idempotent-Replayed"] == "true"
    assert BoardResult.objects.count() == 1 and Submission.objects.count() == 1
    assert IdempotentResponse.objects.count() == 1


def test_same_key_with_a_different_body_is_a_422(world):
    client = world.client("table")
    _post(client, "/api/v1/results", world.short(), "k-2")
    other = _post(client, "/api/v1/results", world.short(totals={"NS": 30, "EW": 42}), "k-2")
    assert other.status_code == 422
    assert "Idempotency-Key" in errors_of(other)
    assert BoardResult.objects.get().totals_ns == 40 and Submission.objects.count() == 1


def test_keys_are_scoped_to_the_caller_and_the_path(world):
    _post(world.client("table"), "/api/v1/results", world.short(), "shared")
    # The other pair, same key: a different principal, so its own submission (a confirmation).
    ew = _post(world.client("table_ew"), "/api/v1/results", world.short(), "shared")
    assert ew.status_code == 200 and ew.json()["status"] == "confirmed"
    assert IdempotentResponse.objects.count() == 2


def test_a_failed_request_does_not_use_up_its_key(world):
    client = world.client("table")
    bad = _post(client, "/api/v1/results", world.short(totals={"NS": 1, "EW": 1}), "k-3")
    assert bad.status_code == 400 and not IdempotentResponse.objects.exists()
    good = _post(client, "/api/v1/results", world.short(), "k-3")
    assert good.status_code == 201


def test_every_submitting_endpoint_is_idempotent(world):
    table, ew, referee = world.client("table"), world.client("table_ew"), world.client("referee")
    record = world.record(2)
    created = _post(table, "/api/v1/results", world.short(), "a").json()
    calls = [
        (ew, f"/api/v1/results/{created['id']}/confirm", {"version": created["version"]}),
        (table, "/api/v1/play-records", {"table": world.table.pk, "board": 2, "record": record}),
    ]
    for client, url, data in calls:
        first, again = _post(client, url, data, "b"), _post(client, url, data, "b")
        assert first.status_code < 300 and first.content == again.content, url
    result2 = BoardResult.objects.get(board__number=2)
    dispute_body = {"result": result2.pk, "reason": "Was it a revoke?"}
    first, again = (_post(table, "/api/v1/disputes", dispute_body, "c") for _ in range(2))
    assert first.status_code == 201 and first.content == again.content
    assert Dispute.objects.count() == 1
    rule = {
        "kind": "accept",
        "explanation": "The record stands.",
        "data": {"submission": result2.submissions.get().pk},
    }
    url = f"/api/v1/disputes/{first.json()['id']}/rule"
    first, again = _post(referee, url, rule, "d"), _post(referee, url, rule, "d")
    assert first.status_code == 201 and first.content == again.content
    assert Ruling.objects.count() == 1


@pytest.mark.parametrize("key", ["x" * 201, "a\x00b"])
def test_unusable_keys_are_a_400(world, key):
    response = world.client("table").post(
        "/api/v1/results", world.short(), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert response.status_code == 400 and "Idempotency-Key" in errors_of(response)
    assert not BoardResult.objects.exists()
