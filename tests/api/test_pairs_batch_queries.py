"""Registering many pairs at once (``POST events/{id}/pairs`` with ``pairs``, the CSV import)
reads the event's pairs once per batch, not once per pair: per pair that read grew with the
field, so a batch took time quadratic in its size (500 pairs: past the server's timeout)."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.event_run import API, login
from tournaments.models import Entry

# The queries of one pair (two players, the pair, the entry, the audit entry, the checks).
PER_PAIR = 10


def _pairs(start, n):
    return [{"player1": f"Anna {i}", "player2": f"Berta {i}"} for i in range(start, start + n)]


def _entry_reads(queries):
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith("SELECT") and '"tournaments_entry"' in q["sql"]
    ]


def _register(org, url, body):
    with CaptureQueriesContext(connection) as captured:
        response = org.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert response.status_code == 201, response.content
    return captured.captured_queries


@pytest.mark.parametrize("how", ["bulk", "csv"])
def test_a_batch_of_pairs_reads_the_registered_ones_once(
    db, django_capture_on_commit_callbacks, how
):
    run = login(django_capture_on_commit_callbacks)
    org = run.organiser
    pk = run.post(org, f"{API}/events", {"name": "Open"}, expect=201)["id"]
    url = f"{API}/events/{pk}/pairs"

    def batch(start, n):
        if how == "bulk":
            return _register(org, url, {"pairs": _pairs(start, n)})
        text = "".join(f"{p['player1']},{p['player2']}\n" for p in _pairs(start, n))
        return _register(org, f"{url}/import", {"csv": text})

    small, large = batch(0, 3), batch(3, 30)
    # The event's pairs are read as often for 30 pairs as for 3 (and 3 were there already).
    assert len(_entry_reads(large)) == len(_entry_reads(small)), _entry_reads(large)
    # Every other query is the pair's own: linear with a small constant.
    assert len(large) - len(small) <= PER_PAIR * 27, (len(small), len(large))
    assert sorted(Entry.objects.filter(event_id=pk).values_list("number", flat=True)) == list(
        range(1, 34)
    )


def test_a_batch_repeating_two_players_registers_none(db, django_capture_on_commit_callbacks):
    run = login(django_capture_on_commit_callbacks)
    org = run.organiser
    pk = run.post(org, f"{API}/events", {"name": "Open"}, expect=201)["id"]
    pairs = [*_pairs(0, 3), {"player1": "berta  1", "player2": "ANNA 1"}]
    response = org.post(
        f"{API}/events/{pk}/pairs",
        {"pairs": pairs},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["pairs[3].player2"]
    assert not Entry.objects.filter(event_id=pk).exists()
