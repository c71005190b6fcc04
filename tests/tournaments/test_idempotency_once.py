"""run_once: the key's insert rides ahead of the submission's first statement; a taken key
stops the submission there and undoes what that statement did."""

import json

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test.utils import CaptureQueriesContext

from tournaments import idempotency as once
from tournaments.models import IdempotentResponse, Player

pytestmark = pytest.mark.django_db


def _run(name, reached, status=201):
    def run():
        Player.objects.create(name=name)  # the submission's first statement: a write
        reached.append(name)
        return HttpResponse(json.dumps({"name": name}), status=status)

    return run


def _once(key, run, request_hash="h1"):
    return once.run_once(scope="t1N /api/v1/results", key=key, request_hash=request_hash, run=run)


def test_a_taken_key_stops_the_submission_and_undoes_its_first_statement():
    reached = []
    with CaptureQueriesContext(connection) as queries:
        first = _once("k", _run("first", reached))
    # On PostgreSQL the key's insert and the submission's insert are one round trip; then the
    # key's completion. (The test's own transaction adds a savepoint around them.)
    statements = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == (2 if connection.vendor == "postgresql" else 3)
    assert first.status_code == 201 and reached == ["first"]
    again = _once("k", _run("second", reached))
    assert again.status_code == 201 and again.content == first.content
    assert again[once.REPLAYED_HEADER] == "true"
    assert reached == ["first"]  # the second submission stopped at its first statement
    assert list(Player.objects.values_list("name", flat=True)) == ["first"]  # undone
    assert IdempotentResponse.objects.count() == 1


def test_a_submission_without_statements_still_claims_its_key():
    def run():
        return HttpResponse('{"ok": true}', status=200)

    assert _once("quiet", run).status_code == 200
    row = IdempotentResponse.objects.get(key="quiet")
    assert row.status_code == 200 and json.loads(row.body["content"]) == {"ok": True}
    assert _once("quiet", run)[once.REPLAYED_HEADER] == "true"


def test_a_refusal_keeps_neither_its_writes_nor_the_key():
    reached = []
    assert _once("k", _run("refused", reached, status=400)).status_code == 400
    assert not Player.objects.exists() and not IdempotentResponse.objects.exists()
    assert _once("k", _run("retried", reached)).status_code == 201
    assert reached == ["refused", "retried"]


def test_the_same_key_with_another_body_is_refused_without_running():
    reached = []
    _once("k", _run("first", reached))
    with pytest.raises(once.KeyReused):
        _once("k", _run("other", reached), request_hash="h2")
    assert reached == ["first"] and Player.objects.count() == 1
