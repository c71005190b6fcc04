"""A player's page and a season's ranking link only what opens for their reader (docs/clubs.md
0.2, 0.3): an event not published yet is named, not linked, for a reader who is not its staff (its
pages answer 404 to them), and so is a hidden partner (no page: 404)."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.teams.conftest import play_team_round, team_event
from tests.tournaments.club_history import (
    club_evening,
    club_with_secretary,
    members_evening,
    players,
)
from tournaments.actors import Actor
from tournaments.models import Event, Player, Season, TeamMember

pytestmark = pytest.mark.django_db


def _event_links(client, url, event):
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    assert event.name in html or event.date.strftime("%-d/%-m") in html  # listed all the same
    return sorted(set(re.findall(rf'href="(/e/{event.pk}/[^"]*)"', html)))


def _all_open(client, links):
    return {url: code for url in links if (code := client.get(url).status_code) != 200}


def _club_evening(published: bool, **options):
    _secretary, club, field, event = members_evening(**options)
    Event.objects.filter(pk=event.pk).update(published=published)
    me = UserFactory(username="me")
    Player.objects.filter(pk=field[0].pk).update(user=me)
    client = Client()
    client.force_login(me)
    return club, field, Event.objects.get(pk=event.pk), client


@pytest.mark.parametrize("published", [False, True])
def test_a_players_own_page_links_an_event_only_once_its_pages_open(published):
    _club, field, event, client = _club_evening(published, play=1)
    links = _event_links(client, f"/players/{field[0].pk}/", event)
    assert bool(links) is published
    assert _all_open(client, links) == {}


def test_a_team_event_not_published_is_named_not_linked(organiser):
    actor = Actor(user=organiser)
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    play_team_round(event, actor, 1, random.Random(5))
    member = TeamMember.objects.filter(team__event=event, order=1).first()
    me = UserFactory(username="me")
    Player.objects.filter(pk=member.player_id).update(user=me)
    client = Client()
    client.force_login(me)
    assert _event_links(client, f"/players/{member.player_id}/", event) == []
    client.force_login(organiser)  # its staff: the pages open, so they are linked
    links = _event_links(client, f"/players/{member.player_id}/", event)
    assert links and _all_open(client, links) == {}


@pytest.mark.parametrize("published", [False, True])
def test_a_season_links_an_event_only_once_published(published):
    club, _field, event, client = _club_evening(published, rounds=1)
    assert event.status == Event.Status.FINISHED
    season = Season.objects.create(
        club=club, name="Tardor", starts=date(2026, 9, 1), ends=date(2026, 12, 31)
    )
    links = _event_links(client, f"/clubs/{club.pk}/seasons/{season.pk}/", event)
    assert bool(links) is published
    assert _all_open(client, links) == {}


def test_a_hidden_partner_is_named_not_linked():
    secretary, club = club_with_secretary()
    field = players(*[f"H{i}" for i in range(8)], club=club)
    Player.objects.filter(pk=field[4].pk).update(
        name="Hidden Partner", visibility=Player.Visibility.HIDDEN
    )
    club_evening(
        club, secretary, [(field[i], field[i + 4]) for i in range(4)], when=date(2026, 10, 1)
    )
    client = Client()
    assert client.get(f"/players/{field[4].pk}/").status_code == 404  # clubs.md 0.3
    html = client.get(f"/players/{field[0].pk}/").content.decode()
    assert "Hidden Partner" in html and f'href="/players/{field[4].pk}/"' not in html
    links = set(re.findall(r'href="(/players/\d+/)"', html))
    assert _all_open(client, links) == {}
