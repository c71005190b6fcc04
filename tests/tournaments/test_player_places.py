"""The place on a player page is read as on the event's own pages (docs/clubs.md §0.2): the
newest standings after a round the reader may see scored, and in a team event the team's."""

import random
import re

import pytest
from django.test import Client

from tests.teams.conftest import play_team_round, team_event
from tests.tournaments.club_history import (
    members_evening,
)
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Entry, TeamMember
from tournaments.services import events
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def place_cell(client: Client, player_pk: int, event_name: str) -> str:
    html = client.get(f"/players/{player_pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    line = html[html.index(event_name) :]
    cell = re.search(r'<td class="place">(.*?)</td>', line, re.S).group(1)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip()


@pytest.mark.parametrize("counted", [False, True])
def test_an_organiser_reads_the_round_before_until_the_open_rounds_first_result(counted):
    secretary, _club, field, event = members_evening(rounds=3, play=1)
    actor = Actor(user=secretary)
    pairings_propose(event.pk, 2, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    if counted:
        play_round(rnd, random.Random(3))
        standings_recompute(event.pk)
    after = event.snapshots.order_by("-after_round").first()
    assert after.after_round == (2 if counted else 1)
    entry = Entry.objects.get(event=event, pair__player1=field[0])
    rank = next(r["rank"] for r in after.rows if r["entry"] == entry.pk)
    organiser = Client()
    organiser.force_login(secretary)
    expected = f"{rank} of 4 after round {after.after_round}"
    assert place_cell(organiser, field[0].pk, event.name) == expected
    first = event.snapshots.get(after_round=1)
    public_rank = next(r["rank"] for r in first.rows if r["entry"] == entry.pk)
    assert place_cell(Client(), field[0].pk, event.name) == f"{public_rank} of 4 after round 1"


def test_a_team_events_place_is_the_players_teams_among_the_teams(organiser):
    actor = Actor(user=organiser)
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    play_team_round(event, actor, 1, random.Random(5))
    events.event_publish(event=event, actor=actor)
    member = TeamMember.objects.filter(team__event=event).select_related("player").first()
    snapshot = event.snapshots.get(after_round=1)
    rank = next(r["rank"] for r in snapshot.rows if r["team"] == member.team_id)
    html = Client().get(f"/players/{member.player_id}/", HTTP_ACCEPT_LANGUAGE="en").content
    assert f'href="/e/{event.pk}/teams/"' in html.decode()
    assert place_cell(Client(), member.player_id, event.name) == f"{rank} of 4 teams after round 1"
