"""The team routes asked by every kind of principal on a published team event whose round 1 is
open: board 1 entered at the open room only (its score must reach nobody but that table and
the event's staff), board 2 at both tables of match 1. No 5xx; the public and strangers are
refused the match; nobody learns board 1's open-room score from a team page, PDF or export."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.teams.conftest import team_event
from tests.teams.test_team_pages import enter, table_client
from tournaments.models import Event, TeamMatch
from tournaments.services import events
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(actor):
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    referee = UserFactory(username="team-referee")
    event.referees.add(referee)
    pairings_propose(event.pk, 1, actor=actor)
    events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    m1, m2 = TeamMatch.objects.filter(round__event=event).order_by("number")
    enter(m1.open_table, 1, 61)  # NS 61 − 36 = 25: the secret of this scene
    enter(m1.open_table, 2, 40)
    enter(m1.closed_table, 2, 40)
    clients = {"anonymous": Client(HTTP_ACCEPT_LANGUAGE="en")}
    for who, user in (("organiser", event.organisers.get()), ("referee", referee)):
        clients[who] = Client(HTTP_ACCEPT_LANGUAGE="en")
        clients[who].force_login(user)
    clients["stranger"] = Client(HTTP_ACCEPT_LANGUAGE="en")
    clients["stranger"].force_login(UserFactory())
    clients["open_table"] = table_client(m1.open_table)
    clients["closed_table"] = table_client(m1.closed_table)
    clients["other_match"] = table_client(m2.open_table)
    return Event.objects.get(pk=event.pk), m1, m2, clients


ROUTES = {
    # route: who may read it (200); everyone else gets 302/403/404
    "/e/{pk}/teams/": "all",
    "/e/{pk}/butler/": "all",
    "/e/{pk}/teams/matches/": "all",
    "/e/{pk}/teams/matches/1/1/": {"organiser", "referee"},
    "/e/{pk}/pdf/teams/": "all",
    "/e/{pk}/pdf/team-matches/?round=1": {"organiser", "referee"},
    "/e/{pk}/export/teams.csv": "all",
    "/e/{pk}/export/butler.csv": "all",
    "/manage/{pk}/teams/": {"organiser", "referee"},
    "/manage/{pk}/rounds/1/matches/1/lineup/": {"organiser"},
    "/table/{open}/match/": {"open_table", "organiser"},
    "/table/{closed}/match/": {"closed_table", "organiser"},
}


def test_team_routes_by_principal(scene):
    event, m1, _m2, clients = scene
    secret = b">25<"
    for route, allowed in ROUTES.items():
        url = route.format(pk=event.pk, open=m1.open_table.code_ns, closed=m1.closed_table.code_ns)
        for who, client in clients.items():
            response = client.get(url)
            body = response.content
            assert response.status_code < 500, (url, who)
            if allowed == "all" or who in allowed:
                assert response.status_code == 200, (url, who, response.status_code)
            else:
                assert response.status_code in (302, 403, 404), (url, who, response.status_code)
            if who not in ("organiser", "referee", "open_table"):
                assert secret not in body, (url, who)


def test_the_match_page_shows_only_boards_both_tables_entered(scene):
    event, m1, _m2, clients = scene
    for who in ("organiser", "closed_table", "open_table"):
        url = (
            f"/e/{event.pk}/teams/matches/1/1/"
            if who == "organiser"
            else f"/table/{getattr(m1, who).code_ns}/match/"
        )
        page = clients[who].get(url).content.decode()
        assert 'data-board="1" class="waiting"' in page, who
        assert 'data-board="2" data-units="0"' in page, who
        assert ">25<" not in page, who
