"""A club name that fits its field as typed but outgrows its column once normalised (U+1D160
decomposes into three characters): refused at its field on every way in, nothing stored. It was
a 500 on PostgreSQL (a 503 "retry" from the API) and stored over-long on SQLite."""

import pytest
from django.db import DataError
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.test_clubs import FORM
from tournaments.actors import Actor
from tournaments.models import Club, Event, League
from tournaments.services import ServiceError, clubs, events
from tournaments.services import league as league_svc

pytestmark = pytest.mark.django_db

GROWS = "\U0001d160" * 120  # 120 as typed, 360 once composed
TOO_LONG = "The club name is too long: at most 120 characters (it has 360)."


@pytest.fixture
def web(organiser):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    return client


def test_the_services_refuse_it_at_club(organiser):
    actor = Actor(user=organiser)
    for make in (lambda: clubs.club_for(name=GROWS, actor=actor), lambda: clubs.home_club(GROWS)):
        with pytest.raises(ServiceError) as refused:
            make()
        assert (refused.value.field, refused.value.message) == ("club", TOO_LONG)
    assert not Club.objects.exists()


def test_the_event_forms_refuse_it_at_the_club_field(web, organiser):
    answer = web.post("/manage/new/", FORM | {"name": "Obert", "club_name": GROWS})
    assert answer.status_code == 400
    assert answer.context["form"].errors["club_name"] == [TOO_LONG]
    assert not Event.objects.exists() and not Club.objects.exists()
    event = events.event_create(actor=Actor(user=organiser), name="Obert")
    answer = web.post(f"/manage/{event.pk}/edit/", FORM | {"name": "Obert", "club_name": GROWS})
    assert answer.status_code == 400
    assert answer.context["form"].errors["club_name"] == [TOO_LONG]
    event.refresh_from_db()
    assert event.club is None and not Club.objects.exists()


def test_the_api_refuses_it_at_club(organiser):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(organiser)
    answer = api.post("/api/v1/events", {"name": "Obert", "club": GROWS}, format="json")
    assert answer.status_code == 400, answer.content
    assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [("club", TOO_LONG)]
    event = events.event_create(actor=Actor(user=organiser), name="Obert")
    answer = api.patch(f"/api/v1/events/{event.pk}", {"club": GROWS}, format="json")
    assert answer.status_code == 400, answer.content
    assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [("club", TOO_LONG)]
    assert not Club.objects.exists()


def test_a_team_and_a_league_refuse_it_at_their_club_field(web, organiser):
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor, name="Equips", competitor=Event.Competitor.TEAMS, boards_per_round=2
    )
    events.registration_open(event=event, actor=actor)
    team = {"name": "Els Rapids", "club": GROWS} | {
        f"player{k}": p for k, p in enumerate("ABCD", 1)
    }
    answer = web.post(f"/manage/{event.pk}/teams/", team)
    assert answer.status_code == 400
    assert answer.context["form"].errors["club"] == [TOO_LONG]
    assert not event.teams.exists()

    league = {"name": "Lliga", "starts": "2026-12-01", "games_per_match": 6, "hands_per_game": 8}
    answer = web.post("/leagues/new/", league | {"club_name": GROWS})
    assert answer.status_code == 400
    assert answer.context["form"].errors["club_name"] == [TOO_LONG]
    assert not League.objects.exists()

    made = league_svc.league_create(actor=actor, name="Lliga", games_per_match=3, hands_per_game=2)
    answer = web.post(
        f"/leagues/{made.pk}/manage/", {"action": "team", "name": "Reus", "club": GROWS}
    )
    assert answer.status_code == 400
    assert answer.context["team_form"].errors["club"] == [TOO_LONG]
    assert not made.teams.exists() and not Club.objects.exists()


def test_a_value_the_database_cannot_hold_is_a_400_not_a_retry(organiser, monkeypatch):
    """Should a check be missing again, the API does not say "try again" (a 503) for a value that
    would fail every time: a 400 at body, nothing stored."""

    def too_long(**_kwargs):
        raise DataError("value too long for type character varying(120)")

    monkeypatch.setattr(clubs, "club_for", too_long)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(organiser)
    answer = api.post("/api/v1/events", {"name": "Obert", "club": "Penya"}, format="json")
    assert answer.status_code == 400 and "Retry-After" not in answer
    assert [e["field"] for e in answer.json()["errors"]] == ["body"]
    assert "nothing was stored" in answer.json()["errors"][0]["message"]
    assert not Event.objects.exists()
