"""``manage.py demo`` adds a team event with two rounds played and a league with three match
days; their public pages answer."""

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.demo import DEMO_LEAGUE, DEMO_TEAMS
from tournaments.models import Event, League, LeagueGame, Round

pytestmark = pytest.mark.django_db


def test_demo_has_a_team_event_and_a_league(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    event = Event.objects.get(name=DEMO_TEAMS)
    assert event.is_team_event and event.teams.count() == 4
    assert list(event.rounds.values_list("status", flat=True)) == [Round.Status.CLOSED] * 2
    assert event.snapshots.get(after_round=2).rows[0]["vp"] > 0
    league = League.objects.get(name=DEMO_LEAGUE)
    played_days = set(
        LeagueGame.objects.filter(fixture__league=league).values_list("fixture__day", flat=True)
    )
    assert played_days == {1, 2, 3}
    assert f"/e/{event.pk}/teams/" in out and f"/leagues/{league.pk}/" in out
    client = Client(HTTP_ACCEPT_LANGUAGE="ca")
    for url in (
        f"/e/{event.pk}/teams/",
        f"/e/{event.pk}/butler/",
        f"/e/{event.pk}/teams/matches/2/1/",
        f"/leagues/{league.pk}/",
    ):
        assert client.get(url).status_code == 200, url
