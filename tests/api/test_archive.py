"""The event archive (issue 21): the whole event as one JSON document valid under the shipped
JSON Schema, and its import into an empty database giving the same standings and verdicts."""

import copy
import io
import json

import jsonschema
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.api.event_run import API, client, login, run_event
from tests.factories import UserFactory
from tournaments import archive, play
from tournaments.models import (
    AuditEntry,
    BoardResult,
    Club,
    Dispute,
    Event,
    Player,
    PlayerRating,
    PlayRecord,
    Ruling,
    StandingsSnapshot,
    Submission,
)


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def _valid(document: dict) -> None:
    validator = jsonschema.Draft202012Validator(
        archive.schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert not problems, problems[:5]


def _counts() -> dict[str, int]:
    models = (BoardResult, Submission, PlayRecord, Dispute, Ruling, AuditEntry, Event)
    return {m.__name__: m.objects.count() for m in models}


def test_an_archive_round_trips_into_an_empty_database(transactional_db, tmp_path):
    run = run_event(None)
    document = client().get(f"{API}/events/{run.pk}/archive").json()  # public: finished
    _valid(document)
    assert document["event"]["seed"] == Event.objects.get(pk=run.pk).seed
    assert [p["number"] for p in document["pairs"]] == [1, 2, 3, 4, 5]
    assert document["pairs"][3]["withdrawn_after_round"] == 2
    assert [r["bye"] for r in document["rounds"]][0] == 5
    outcomes = [
        s["play_record"]["outcome"]
        for r in document["results"]
        for s in r["submissions"]
        if s["play_record"]
    ]
    assert sorted(set(outcomes)) == ["complete", "illegal"]
    kinds = sorted(
        ru["kind"] for r in document["results"] for d in r["disputes"] for ru in d["rulings"]
    )
    assert kinds == ["corrected", "penalty"]
    assert [s["after_round"] for s in document["standings"]] == [1, 2]
    before = _counts()

    # An empty database: nothing of the event, its players or its accounts is left.
    call_command("flush", interactive=False, verbosity=0)
    assert Event.objects.count() == 0
    # The organiser moves to another installation: an account of the same name there (the
    # public archive names no account: its rulings are credited to the importer).
    UserFactory(username="club-organiser")
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    call_command("import_event", str(path), user="club-organiser", stdout=out)
    assert out.getvalue().startswith("imported event ")

    event = Event.objects.get()
    assert _counts() == {**before, "AuditEntry": before["AuditEntry"] + 1}
    # A finished event of a club is in its ratings at once, as when it finished there.
    assert event.club is not None and event.rated_at is not None
    assert PlayerRating.objects.filter(club=event.club).exists()
    # The standings recomputed here (the snapshots the pages read) equal the archived ones.
    numbers = archive.Numbers(dict(event.entries.values_list("pk", "number")))
    stored = [
        archive.standings_doc(s.after_round, s.__dict__, numbers)
        for s in StandingsSnapshot.objects.filter(event=event).order_by("after_round")
    ]
    assert stored == document["standings"]
    # Every play record replays, on the boards dealt here from the seed, to its stored verdict.
    records = PlayRecord.objects.select_related("result__board__event")
    assert records.count() == len(outcomes)
    for pr in records:
        assert play.replay(pr.result.board, pr.record).to_json() == pr.verdict
    # Exported again, it is the same document but for what the import itself changed.
    again = archive.public_archive(archive.event_archive(event, exported_at=event.created_at))
    assert again["audit"][-1]["action"] == "event_imported"
    again["audit"].pop()
    for key in ("exported_at",):
        again[key] = document[key]
    again["event"]["published"] = document["event"]["published"]
    for key in document:
        assert again[key] == document[key], key


def test_who_may_download_the_archive(db, commits):
    run = run_event(commits, finish=False)  # round 2 open
    organiser = run.organiser.get(f"{API}/events/{run.pk}/archive")
    assert organiser.status_code == 200
    assert organiser.json()["event"]["seed"] is None  # not before the event is finished
    assert Event.objects.get(pk=run.pk).seed not in organiser.content.decode()
    _valid(organiser.json())
    assert client().get(f"{API}/events/{run.pk}/archive").status_code == 404  # unpublished
    run.post(run.organiser, f"{API}/events/{run.pk}/publish", {"published": True})
    assert client().get(f"{API}/events/{run.pk}/archive").status_code == 401  # not finished
    UserFactory(username="stranger", password="pass-word-123")
    token = run.post(
        client(), f"{API}/auth/token", {"username": "stranger", "password": "pass-word-123"}
    )
    assert client(token["token"]).get(f"{API}/events/{run.pk}/archive").status_code == 403

    # The organiser's dashboard links it; the link works with the page's session.
    web = Client()
    web.force_login(User.objects.get(username=run.username))
    dashboard = web.get(reverse("tournaments:event_dashboard", args=[run.pk])).content.decode()
    link = f'href="{API}/events/{run.pk}/archive"'
    assert link in dashboard
    assert web.get(f"{API}/events/{run.pk}/archive").json()["event"]["name"] == "Dijous"
    web.force_login(User.objects.get(username="stranger"))
    Event.objects.get(pk=run.pk).referees.add(User.objects.get(username="stranger"))
    as_referee = web.get(reverse("tournaments:event_dashboard", args=[run.pk]))
    assert as_referee.status_code == 200 and link not in as_referee.content.decode()


def test_the_api_import_refuses_an_archive_that_disagrees_and_stores_nothing(db, commits):
    run = run_event(commits)
    document = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    other = login(commits, "second-club")
    url = f"{API}/events/import"

    unfinished = copy.deepcopy(document)
    unfinished["event"]["seed"] = None
    tampered_score = copy.deepcopy(document)
    # The side that scored gains a point, so the board stays one-sided (R9): not what its
    # trump and hand totals score.
    counted = next(
        r
        for r in tampered_score["results"]
        if r["status"] == "confirmed" and (r["score_ns"] or r["score_ew"])
    )
    counted["score_ns" if counted["score_ns"] else "score_ew"] += 1
    tampered_standings = copy.deepcopy(document)
    tampered_standings["standings"][0]["rows"][0]["match_points"] += 1
    tampered_verdict = copy.deepcopy(document)
    with_record = next(
        s for r in tampered_verdict["results"] for s in r["submissions"] if s["play_record"]
    )
    with_record["play_record"]["verdict"]["outcome"] = "invalid"
    both_pairs = copy.deepcopy(document)
    scored = next(r for r in both_pairs["results"] if r["score_ns"])
    scored["score_ew"] = 4  # R9: only one pair scores on a board
    wrong_seed = copy.deepcopy(document)
    wrong_seed["event"]["seed"] = "not the seed"
    not_an_archive = {"format": "something else"}
    unknown_option = copy.deepcopy(document)
    unknown_option["event"]["options"]["colour"] = "red"
    bad_option = copy.deepcopy(document)
    bad_option["event"]["options"]["rounds_count"] = 99
    no_such_pair = copy.deepcopy(document)
    no_such_pair["rounds"][0]["tables"][0]["ns"] = 99
    too_long = copy.deepcopy(document)
    too_long["results"][0]["entered_by"] = "x" * 500
    long_club = copy.deepcopy(document)
    long_club["pairs"][0]["club"] = "c" * 500  # a new club: created by the import
    before = _counts()
    # The club exists here, and this account does not organise it: as when creating an event.
    refused = other.organiser.post(url, document, format="json")
    assert refused.status_code == 403 and refused.json()["errors"][0]["field"] == "club"
    Club.objects.get(name="Casal").organisers.add(User.objects.get(username="second-club"))
    for body, status, field in (
        (unfinished, 409, "event.seed"),
        (tampered_score, 400, "results"),
        (tampered_standings, 400, "standings"),
        (tampered_verdict, 400, "results"),
        (both_pairs, 400, "results"),
        (wrong_seed, 400, "event.seed"),
        (not_an_archive, 400, "format"),
        (unknown_option, 400, "event.options"),
        (bad_option, 400, "event.options.rounds_count"),
        (no_such_pair, 400, "rounds"),
        (too_long, 400, "archive"),
        (long_club, 400, "archive"),
    ):
        answer = other.organiser.post(url, body, format="json")
        assert answer.status_code == status, answer.content
        assert answer.json()["errors"][0]["field"] == field
    # A body of `null` is said at `body`, as on every route.
    null = other.organiser.post(url, "null", content_type="application/json")
    assert null.status_code == 400 and null.json()["errors"][0]["field"] == "body"
    assert _counts() == before

    created = run.post(other.organiser, url, document, expect=201)
    assert created["status"] == "finished" and created["published"] is False
    assert created["seed"] == document["event"]["seed"]
    imported = Event.objects.get(pk=created["id"])
    assert list(imported.organisers.values_list("username", flat=True)) == ["second-club"]
    standings = other.organiser.get(f"{API}/events/{created['id']}/standings").json()
    original = run.organiser.get(f"{API}/events/{run.pk}/standings").json()
    assert [(r["pair"], r["rank"], r["match_points"]) for r in standings["rows"]] == [
        (r["pair"], r["rank"], r["match_points"]) for r in original["rows"]
    ]
    # Anonymous: logged-in accounts only.
    assert client().post(url, document, format="json").status_code == 401


@pytest.mark.parametrize(
    "edit", ["teams", "team_standings", "round_matches", "round_team_bye", "pair_team"]
)
def test_a_pairs_events_archive_with_a_team_events_keys_is_refused_at_teams(db, commits, edit):
    """docs/formats.md: a pairs event's archive holds no team keys; an import of one that does
    is refused at ``teams``, whichever key it is, and stores nothing."""
    run = run_event(commits)
    document = copy.deepcopy(run.organiser.get(f"{API}/events/{run.pk}/archive").json())
    if edit in ("teams", "team_standings"):
        document[edit] = []
    elif edit == "round_matches":
        document["rounds"][0]["matches"] = []
    elif edit == "round_team_bye":
        document["rounds"][0]["team_bye"] = 1
    else:
        document["pairs"][0]["team"] = 1
    before = _counts()
    refused = run.organiser.post(f"{API}/events/import", document, format="json")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["teams"]
    assert _counts() == before


def test_the_public_archive_names_no_account_and_no_licence(db, commits):
    """Once finished and published anyone may read the archive, but not what identifies people
    beyond the public pages: licence numbers, the accounts of organisers and referees."""
    run = run_event(commits)  # finished and published; rulings by the organiser
    event = Event.objects.get(pk=run.pk)
    player = event.entries.get(number=1).pair.player1
    player.licence = "LIC-4711"
    player.save()
    mine = run.organiser.get(f"{API}/events/{run.pk}/archive")
    public = client().get(f"{API}/events/{run.pk}/archive")
    assert mine.status_code == public.status_code == 200
    assert "LIC-4711" in mine.content.decode() and run.username in mine.content.decode()
    text = public.content.decode()
    assert "LIC-4711" not in text and run.username not in text
    _valid(public.json())
    rulings = [r for res in public.json()["results"] for d in res["disputes"] for r in d["rulings"]]
    assert rulings and all(r["referee"] is None for r in rulings)
    assert {a["actor"] for a in public.json()["audit"]} >= {"staff"}
    # What makes the standings is all there: the same results and standings as the organisers'.
    assert public.json()["standings"] == mine.json()["standings"]
    assert len(public.json()["results"]) == len(mine.json()["results"])


def test_the_public_archive_names_no_account_anywhere(db, commits):
    """Audit: a substitution's author, a result entered or confirmed by the organiser, a
    referee appointed by name and an invitation's address were all in the public archive."""
    run = run_event(commits, finish=False)  # round 2 open
    base = f"{API}/events/{run.pk}"
    run.post(run.organiser, f"{base}/pairs/1/substitute", {"seat": 1, "name": "Zoe"}, expect=200)
    UserFactory(username="appointed-referee")
    run.post(run.organiser, f"{base}/roles", {"role": "referee", "user": "appointed-referee"})
    run.post(
        run.organiser,
        f"{base}/invitations",
        {"role": "referee", "email": "invited.referee@example.org"},
        expect=201,
    )
    # A hook's address carries its receiver's secret; the webhooks page is the organisers' only.
    hook = "https://hooks.example.org/services/T000/B000/secretTOKEN"
    added = run.post(run.organiser, f"{base}/webhooks", {"url": hook}, expect=201)
    run.post(run.organiser, f"{base}/webhooks/{added['id']}/delete")
    event = Event.objects.get(pk=run.pk)
    result = BoardResult.objects.filter(table__round__event=event).order_by("pk").first()
    BoardResult.objects.filter(pk=result.pk).update(
        entered_by=run.username, confirmed_by=run.username
    )
    run.post(run.organiser, f"{base}/rounds/2/close", {"accept_missing": True})
    run.post(run.organiser, f"{base}/finish")
    run.post(run.organiser, f"{base}/publish", {"published": True})
    mine = run.organiser.get(f"{base}/archive").content.decode()
    public = client().get(f"{base}/archive")
    assert public.status_code == 200
    text = public.content.decode()
    for secret in (run.username, "appointed-referee", "invited.referee@example.org", hook):
        assert secret in mine, secret  # the organisers' archive keeps everything
        assert secret not in text, secret
    hooks = [a["changes"]["url"] for a in public.json()["audit"] if a["action"][:8] == "webhook_"]
    assert hooks == [[None, "https://hooks.example.org"], ["https://hooks.example.org", None]]
    _valid(public.json())


def test_an_import_adds_no_member_to_a_club_the_importer_does_not_run(transactional_db, commits):
    run = run_event(commits, name="Dilluns")
    document = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    club = Club.objects.get(name="Casal")
    members_before = Player.objects.filter(club=club).count()
    UserFactory(username="importer", password="pass-word-123")
    token = run.post(
        client(), f"{API}/auth/token", {"username": "importer", "password": "pass-word-123"}
    )["token"]
    document["event"]["name"] = "Dilluns (còpia)"
    document["event"]["club"] = None  # an event in another club's name is refused (clubs.md)
    for pair in document["pairs"]:
        pair["club"] = "Casal"  # the pairs say they are of the club the importer does not run
    answer = client(token).post(
        f"{API}/events/import",
        json.dumps(document),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="import-1",
    )
    assert answer.status_code == 201, answer.content
    imported = Event.objects.get(name="Dilluns (còpia)")
    players = [
        p for e in imported.entries.select_related("pair") for p in (e.pair.player1, e.pair.player2)
    ]
    assert players and all(p.club_id is None for p in players)
    assert Player.objects.filter(club=club).count() == members_before
    rulings = Ruling.objects.filter(dispute__result__table__round__event=imported)
    assert rulings.exists()
    assert {r.referee.username for r in rulings} == {"importer"}


@pytest.mark.parametrize(
    ("url", "public"),
    [
        ("https://hooks.example.org/services/T0/B0/secret", "https://hooks.example.org"),
        ("https://user:pw@hooks.example.org:8443/x?token=s", "https://hooks.example.org"),
        ("https://[2606:4700:4700::1111]:8443/hook/secret", "https://[2606:4700:4700::1111]"),
        (None, None),
    ],
)
def test_the_public_archive_keeps_a_webhooks_scheme_and_host_only(url, public):
    assert archive._public_address(url) == public
