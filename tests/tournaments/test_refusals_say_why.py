"""A refused form says why on the page it answers with: a 400 with nothing to read leaves the
organiser guessing (a tampered hidden field, an action or a team the page does not offer)."""

import pytest
from django.test import Client

from tests.teams.conftest import team_event
from tests.tournaments.test_organiser_events import FORM
from tournaments.actors import Actor
from tournaments.services import league as league_svc
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


def logged(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_event_form_names_a_bad_preset(organiser):
    refused = logged(organiser).post("/manage/new/", {**FORM, "pairing_preset": "abc"})
    assert refused.status_code == 400
    assert "Presets: Select a valid choice. abc is not one of the available choices." in (
        refused.content.decode()
    )


def test_the_leagues_page_names_an_action_it_does_not_offer(organiser):
    league = league_svc.league_create(
        actor=Actor(user=organiser), name="Lliga", games_per_match=3, hands_per_game=2
    )
    refused = logged(organiser).post(f"/leagues/{league.pk}/manage/", {"action": "abc"})
    assert refused.status_code == 400
    assert "Choose one of the page&#x27;s actions." in refused.content.decode()


def test_the_line_up_page_names_a_team_of_another_match(organiser):
    actor = Actor(user=organiser)
    event = team_event(actor)
    pairings_propose(event.pk, 1, actor=actor)
    url = f"/manage/{event.pk}/rounds/1/matches/1/lineup/"
    refused = logged(organiser).post(url, {"team": "abc"})
    assert refused.status_code == 400
    assert "Choose one of the two teams of this match." in refused.content.decode()
