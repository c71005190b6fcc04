"""A team event's archive (docs/formats.md, "The event archive"): its teams, each round's matches
with their line-ups and substitutes, and the team standings, validated against the shipped
schema; it round-trips into an empty database (the same team standings, Butler ranking and
matches, the document exported again the one imported), and an archive whose team parts name
what it does not hold, or whose team standings its results do not give, stores nothing.
A team event still has no tournament file (its teams are paired on victory points)."""

from __future__ import annotations

import copy
import io
import json
import random

import jsonschema
import pytest
from django.core.management import call_command
from django.db.models import Q
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import EventFactory, UserFactory
from tests.teams.conftest import play_team_round, team_event
from tournaments import archive
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Event, LineUp, Player, Round, StandingsSnapshot, Team, TeamMatch
from tournaments.services import events, teams
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


def _valid(document: dict) -> None:
    jsonschema.Draft202012Validator(
        archive.schema(), format_checker=jsonschema.FormatChecker()
    ).validate(document)


def finished_team_event(actor: Actor) -> Event:
    """Four teams (the first of five players) over two rounds; before round 2 the first team
    brings its fifth player in, so one of its players sits out as a substitute."""
    event = events.event_create(
        actor=actor,
        name="Lliga d'hivern",
        competitor=Event.Competitor.TEAMS,
        boards_per_round=3,
        rounds_count=2,
    )
    events.registration_open(event=event, actor=actor)
    teams.team_register(
        event=event, actor=actor, name="Cinc", players=["Anna", "Berta", "Carles", "Dídac", "Eva"]
    )
    for i in range(2, 5):
        teams.team_register(
            event=event, actor=actor, name=f"Equip {i}", players=[f"T{i}P{k}" for k in range(4)]
        )
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    rng = random.Random(21)
    play_team_round(event, actor, 1, rng)
    pairings_propose(event.pk, 2, actor=actor)
    five = Team.objects.get(event=event, name="Cinc")
    match = TeamMatch.objects.get(Q(team_a=five) | Q(team_b=five), round__number=2)
    p = {m.player.name: m.player_id for m in five.members.select_related("player")}
    teams.lineup_set(
        match=match,
        team=five,
        actor=actor,
        first=(p["Eva"], p["Berta"]),
        second=(p["Carles"], p["Dídac"]),
    )
    rnd = events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    play_round(rnd, rng)
    events.round_close(rnd=rnd, actor=actor)
    events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)
    standings_recompute(event.pk)
    return Event.objects.get(pk=event.pk)


def test_a_team_events_archive_round_trips_into_an_empty_database(
    transactional_db, tmp_path, django_capture_on_commit_callbacks
):
    organiser = UserFactory(username="lliga-organiser")
    with django_capture_on_commit_callbacks(execute=True):
        event = finished_team_event(Actor(user=organiser))
    response = _api(organiser).get(f"/api/v1/events/{event.pk}/archive")
    assert response.status_code == 200, response.content
    document = response.json()
    _valid(document)
    assert [t["name"] for t in document["teams"]] == ["Cinc", "Equip 2", "Equip 3", "Equip 4"]
    assert [p["name"] for p in document["teams"][0]["players"]][-1] == "Eva"
    assert all(p["team"] is not None for p in document["pairs"])
    assert [len(r["matches"]) for r in document["rounds"]] == [2, 2]
    assert document["standings"] == []
    assert [s["after_round"] for s in document["team_standings"]] == [1, 2]
    lineups = [lineup for m in document["rounds"][1]["matches"] for lineup in m["lineups"]]
    assert {"Anna"} in [set(lineup["substitutes"]) for lineup in lineups]
    # Round 1's eight pairs and the one Eva makes with Berta in round 2.
    assert len(document["team_standings"][1]["butler"]) == len(document["pairs"]) == 9

    def ranked(snapshot_event):  # the last snapshot's lines, teams by number
        number = dict(snapshot_event.teams.values_list("pk", "number"))
        rows = StandingsSnapshot.objects.get(event=snapshot_event, after_round=2).rows
        return [(number[r["team"]], r["rank"], r["vp"], r["units_diff"]) for r in rows]

    before = ranked(event)
    counts = {model: model.objects.count() for model in (Team, TeamMatch, LineUp, Round, Event)}

    call_command("flush", interactive=False, verbosity=0)
    UserFactory(username="lliga-organiser")
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    call_command("import_event", str(path), user="lliga-organiser", stdout=out)
    assert out.getvalue().startswith("imported event ")

    imported = Event.objects.get()
    assert imported.is_team_event
    assert {model: model.objects.count() for model in counts} == counts
    # The snapshots the pages read, recomputed here: the same standings as before the move.
    assert ranked(imported) == before
    substitutes = LineUp.objects.filter(substitutes__name="Anna")
    assert substitutes.count() == 1 and substitutes.get().match.round.number == 2
    # Exported again, it is the same document but for what the import itself changed.
    exported = archive.event_archive(imported, exported_at=imported.created_at)
    assert exported["audit"][-1]["action"] == "event_imported"
    exported["audit"].pop()
    exported["exported_at"] = document["exported_at"]
    exported["event"]["published"] = document["event"]["published"]
    for key in document:
        assert exported[key] == document[key], key


def _refused(organiser, document, field):
    before = (Event.objects.count(), Team.objects.count())
    response = _api(organiser).post("/api/v1/events/import", document, format="json")
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert (Event.objects.count(), Team.objects.count()) == before


def test_a_team_archive_that_disagrees_is_refused_and_stores_nothing(
    organiser, actor, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        event = finished_team_event(actor)
    document = archive.event_archive(event, exported_at=event.created_at)

    def changed(edit):
        doc = copy.deepcopy(document)
        edit(doc)
        return doc

    # A pair of a team the archive does not hold; a player the team does not have.
    _refused(organiser, changed(lambda d: d["pairs"][0].update(team=9)), "pairs")
    _refused(
        organiser,
        changed(lambda d: d["pairs"][0]["players"][0].update(name="Ningú")),
        "pairs",
    )
    # A match at a table of no round; a line-up of a pair of the other team.
    _refused(
        organiser,
        changed(lambda d: d["rounds"][0]["matches"][0].update(closed_table=99)),
        "rounds",
    )

    def other_team(d):
        match = d["rounds"][0]["matches"][0]
        match["lineups"][0]["first"] = match["lineups"][1]["first"]

    _refused(organiser, changed(other_team), "rounds")
    # A substitute the team does not have.
    _refused(
        organiser,
        changed(lambda d: d["rounds"][1]["matches"][0]["lineups"][0].update(substitutes=["X"])),
        "rounds",
    )
    # Team standings its results do not give.
    _refused(
        organiser,
        changed(lambda d: d["team_standings"][1]["rows"][0].update(vp=20.0)),
        "team_standings",
    )
    # Two teams of one name (as registering compares them); the team with the bye in a match:
    # both reached the database, refused there as "a value this installation cannot store".
    _refused(
        organiser,
        changed(lambda d: d["teams"][1].update(name=d["teams"][0]["name"].upper())),
        "teams",
    )
    _refused(
        organiser,
        changed(lambda d: d["rounds"][0].update(team_bye=d["rounds"][0]["matches"][0]["team_a"])),
        "rounds",
    )
    # A team event without its teams; teams in a pairs event.
    _refused(organiser, changed(lambda d: d.pop("teams")), "teams")
    pairs_event = EventFactory(organisers=[organiser], status="finished")
    pairs_doc = archive.event_archive(pairs_event, exported_at=pairs_event.created_at)
    pairs_doc["teams"] = document["teams"]
    _refused(organiser, pairs_doc, "teams")


def test_the_public_team_archive_names_no_licence(organiser, actor):
    event = team_event(actor)
    Player.objects.filter(teams__event=event).update(licence="L-123")
    document = archive.event_archive(event, exported_at=event.created_at)
    assert {p["licence"] for t in document["teams"] for p in t["players"]} == {"L-123"}
    public = archive.public_archive(document)
    assert {p["licence"] for t in public["teams"] for p in t["players"]} == {""}


def test_a_team_event_has_no_tournament_file(actor, client, organiser):
    event = team_event(actor)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED, published=True)
    client.force_login(organiser)
    response = client.get(f"/e/{event.pk}/export/tournament.btf")
    assert response.status_code == 404
    assert "team event has no tournament file" in response.content.decode()
    # Nor does its dashboard offer one (it did, to a 404: audit).
    dashboard = client.get(f"/manage/{event.pk}/").content.decode()
    assert "Finished" in dashboard or "finished" in dashboard
    assert 'id="tournament-file"' not in dashboard
