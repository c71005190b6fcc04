"""Attacks on the event archive and its import (api/archive.py, manage.py import_event).

An archive is a document a stranger may hand in: one that is inconsistent (a result at a table the
archive does not hold, two pairs of one number, a ruling superseding one that does not exist, a
time that is not a time, options the event form refuses) must be refused with a 400 naming what
is wrong, never a 500, and store nothing (the import is one transaction). An archive read before
the event is finished never holds the seed.
"""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from tests.api.event_run import API, login, run_event
from tests.factories import UserFactory
from tournaments.models import AuditEntry, BoardResult, Club, Entry, Event, Player, Ruling


def _counts() -> dict[str, int]:
    models = (Event, Entry, Player, BoardResult, Ruling, AuditEntry, Club)
    return {m.__name__: m.objects.count() for m in models}


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def _first_result(doc):
    return doc["results"][0]


def _with_ruling(doc):
    for r in doc["results"]:
        for d in r["disputes"]:
            if d["rulings"]:
                return d["rulings"]
    raise AssertionError("the event has a ruling")


MUTATIONS = {
    # name: (mutation, field the refusal names — its start)
    "result at a table not in the archive": (
        lambda d: _first_result(d).update(table=99),
        "results",
    ),
    "result of a board not in the archive": (
        lambda d: _first_result(d).update(board=999),
        "results",
    ),
    "table with a pair not in the archive": (
        lambda d: d["rounds"][0]["tables"][0].update(ns=77),
        "rounds",
    ),
    "two pairs with one number": (
        lambda d: d["pairs"][1].update(number=d["pairs"][0]["number"]),
        "pairs",
    ),
    "bye of a pair not in the archive": (lambda d: d["rounds"][0].update(bye=55), "rounds"),
    "ruling superseding one that does not exist": (
        lambda d: _with_ruling(d)[0].update(supersedes=7),
        "results",
    ),
    "ruling superseding itself by a negative index": (
        lambda d: _with_ruling(d)[0].update(supersedes=-1),
        "results",
    ),
    "unlock of a table not in the archive": (
        lambda d: d["unlocks"].append(
            {**d["unlocks"][0], "round": 9} if d["unlocks"] else {"round": 9}
        ),
        "unlocks",
    ),
    "a time that is not a time": (
        lambda d: d["event"].update(created_at="yesterday at noon"),
        "event.created_at",
    ),
    "a date that is not a date": (lambda d: d["event"].update(date="31/02/2026"), "event.date"),
    "a result's time that is not a time": (
        lambda d: _first_result(d).update(created_at="not a time"),
        "results",
    ),
    "an event still running with its seed": (
        lambda d: d["event"].update(status="running"),
        "event.status",
    ),
    "substitution of a pair not in the archive": (
        lambda d: d["substitutions"].append(
            {
                "pair": 42,
                "from_round": 2,
                "player_out": "x",
                "player_in": "y",
                "previous_pair": {"name": "x & z", "players": ["x", "z"]},
                "reason": "",
                "created_by": "organiser",
                "created_at": d["event"]["created_at"],
            }
        ),
        "substitutions",
    ),
    "forbidden pair not in the archive": (
        lambda d: d["forbidden_pairs"].append([1, 88]),
        "forbidden_pairs",
    ),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_an_inconsistent_archive_is_refused_naming_the_field_and_stores_nothing(db, commits, name):
    run = run_event(commits)
    document = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    Club.objects.get(name="Casal")  # the importer below organises the club
    mutate, field = MUTATIONS[name]
    bad = copy.deepcopy(document)
    mutate(bad)
    before = _counts()
    answer = run.organiser.post(f"{API}/events/import", bad, format="json")
    assert answer.status_code in (400, 409), (name, answer.status_code, answer.content[:400])
    named = answer.json()["errors"][0]["field"]
    assert named.startswith(field), (name, named)
    assert _counts() == before


def test_import_event_command_refuses_an_inconsistent_archive_cleanly(db, commits, tmp_path):
    run = run_event(commits)
    document = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(document)
    _first_result(bad).update(table=99)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match="results") as english:
        call_command("import_event", str(path), user=run.username, stdout=io.StringIO())
    assert _counts() == before
    # The operator reads one language, the docs' (the site's default is Catalan).
    with translation.override("ca"), pytest.raises(CommandError) as in_catalan:
        call_command("import_event", str(path), user=run.username, stdout=io.StringIO())
    assert str(in_catalan.value) == str(english.value)
    # not JSON, a list, and a file that does not exist: refused with a sentence
    for text in ("{not json", "[1, 2]", '{"format": 3}'):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(CommandError):
            call_command("import_event", str(path), user=run.username, stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command(
            "import_event", str(tmp_path / "none.json"), user=run.username, stdout=io.StringIO()
        )
    assert _counts() == before


def test_the_archive_of_a_running_event_holds_no_seed_for_anyone(db, commits):
    run = run_event(commits, finish=False, publish=True)
    seed = Event.objects.get(pk=run.pk).seed
    organiser = run.organiser.get(f"{API}/events/{run.pk}/archive")
    assert organiser.status_code == 200 and seed not in organiser.content.decode()
    UserFactory(username="stranger", password="pass-word-123")
    stranger = login(commits, "stranger-org")
    refused = stranger.organiser.get(f"{API}/events/{run.pk}/archive")
    assert refused.status_code == 403
    assert seed not in refused.content.decode()


def test_importing_an_archive_does_not_hand_over_anothers_club(db, commits):
    """The club named in an archive exists here: only its organisers may import into it."""
    run = run_event(commits)
    document = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    other = login(commits, "second-club")
    answer = other.organiser.post(f"{API}/events/import", document, format="json")
    assert answer.status_code == 403
    assert answer.json()["errors"][0]["field"] == "club"
