"""The API speaks as docs/api.md says (issues #16 and #21): a result's round can be asked for by
the number it gives, an absent note is null, the schema's words are translated and say when a
board's cards are seen as the policy does (an audit of 2026-12-07 found each otherwise)."""

import pytest
import yaml

from tests.api.event_run import API, run_event
from tournaments.models import AuditEntry


@pytest.fixture
def run(db, django_capture_on_commit_callbacks):
    return run_event(django_capture_on_commit_callbacks)


def test_results_are_filtered_by_the_round_number_each_result_gives(run):
    results = run.organiser.get(f"{API}/results?event={run.pk}").json()["results"]
    by_number = run.organiser.get(f"{API}/results?event={run.pk}&round_number=2").json()
    assert by_number["count"] == sum(r["round"] == 2 for r in results) > 0
    assert {r["round"] for r in by_number["results"]} == {2}
    bad = run.organiser.get(f"{API}/results?round_number=x")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "round_number"


def test_an_audit_entry_without_a_note_says_null_not_an_empty_text(run):
    assert AuditEntry.objects.filter(event_id=run.pk, note="").exists()
    page = run.organiser.get(f"{API}/events/{run.pk}/audit?limit=100").json()
    notes = [e["note"] for e in page["results"]]
    assert None in notes and "" not in notes


def test_the_schema_says_who_sees_a_boards_cards_and_speaks_the_readers_language(client):
    schema = yaml.safe_load(client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="ca").content)
    parts = schema["components"]["schemas"]
    hands = parts["Board"]["properties"]["hands"]["description"]
    assert "desbloquejat" in hands and "publicat" in hands
    status = parts["WebhookAttempt"]["properties"]["status_code"]["description"]
    assert status.startswith("L'estat HTTP del receptor")
