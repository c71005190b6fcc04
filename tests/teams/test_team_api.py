"""The team standings in the API (validated against the published schema by tests/contract.py):
the public reads closed rounds only, the organiser the open round live; a pairs event's team
standings and a team event's pairs standings are 404s with a sentence."""

import pytest
from rest_framework.test import APIClient

from tests.teams.conftest import play_team_round, team_event
from tournaments.demo import play_round
from tournaments.services import events
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def test_team_standings_api(actor, organiser, rng):
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    play_team_round(event, actor, 1, rng)
    pairings_propose(event.pk, 2, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    play_round(rnd, rng)
    standings_recompute(event.pk)
    url = f"/api/v1/events/{event.pk}/team-standings"
    public = APIClient().get(url)
    assert public.status_code == 200
    body = public.json()
    assert body["after_round"] == 1 and body["rounds"] == [1]
    assert [r["rank"] for r in body["rows"]] == sorted(r["rank"] for r in body["rows"])
    assert sum(r["vp"] for r in body["rows"]) == pytest.approx(40)
    assert len(body["matches"]) == 2 and len(body["butler"]) == 8
    assert {m["team_a"] for m in body["matches"]} <= {r["number"] for r in body["rows"]}
    assert APIClient().get(url + "?after=2").status_code == 404  # round 2 is still open
    staff = APIClient()
    staff.force_authenticate(organiser)
    live = staff.get(url + "?after=2")
    assert live.status_code == 200 and live.json()["after_round"] == 2
    wrong = APIClient().get(f"/api/v1/events/{event.pk}/standings")
    assert wrong.status_code == 404 and "team-standings" in str(wrong.json())


def test_pairs_event_has_no_team_standings(actor):
    event = events.event_create(actor=actor, name="Parelles", published=True)
    response = APIClient().get(f"/api/v1/events/{event.pk}/team-standings")
    assert response.status_code == 404
