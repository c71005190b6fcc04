"""What the archive import checks of each time (issue 21, docs/api.md "Event archive"): a time
that cannot be held in UTC is refused with a 400 naming its path, never a 500, storing nothing."""

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.api.event_run import API, run_event
from tournaments.models import AuditEntry, BoardResult, Club, Entry, Event, Player, Ruling


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def _counts():
    models = (Event, Entry, Player, BoardResult, Ruling, AuditEntry, Club)
    return {m.__name__: m.objects.count() for m in models}


def _refused(run, document, field):
    before = _counts()
    answer = run.organiser.post(f"{API}/events/import", document, format="json")
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    error = answer.json()["errors"][0]
    assert error["field"] == field, error
    assert _counts() == before
    return error["message"]


def test_a_time_that_overflows_once_in_utc_is_a_400_not_a_500(db, commits, tmp_path, settings):
    """0001-01-01T00:00:00+05:00 passes ``fromisoformat`` but is before year 1 in UTC, as the
    database holds it: refused by the schema's date-time check at its path."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    run.organiser.raise_request_exception = False
    for path, value in (
        (("event", "created_at"), "0001-01-01T00:00:00+05:00"),
        (("event", "finished_at"), "9999-12-31T23:00:00-05:00"),
    ):
        bad = copy.deepcopy(doc)
        bad[path[0]][path[1]] = value
        message = _refused(run, bad, ".".join(path))
        assert value in message
    bad = copy.deepcopy(doc)
    bad["results"][0]["submissions"][0]["created_at"] = "0001-01-01T00:00:00+01:00"
    _refused(run, bad, "results[0].submissions[0].created_at")
    # A time without an offset is in the site's time zone: 5 hours before UTC in New York.
    site_zone, settings.TIME_ZONE = settings.TIME_ZONE, "America/New_York"
    bad = copy.deepcopy(doc)
    bad["event"]["finished_at"] = "9999-12-31T23:00:00"
    _refused(run, bad, "event.finished_at")
    settings.TIME_ZONE = site_zone
    # The command line says the same, as an error.
    bad = copy.deepcopy(doc)
    bad["event"]["created_at"] = "0001-01-01T00:00:00+05:00"
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match=r"^event\.created_at: .*0001-01-01T00:00:00\+05:00"):
        call_command("import_event", str(path), user=run.username, stdout=io.StringIO())
    assert _counts() == before
