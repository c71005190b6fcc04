"""The club typed for a pair only says where its players come from: it needs no membership, it is
found whatever its capitals, spacing or accents, and it does not take the club's name away from
the club's real organisers: the first to create an event in its name becomes its first
organiser, as if the name were new. A club somebody organises, or with events in its name, stays
its organisers'."""

import unicodedata

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, EventFactory, UserFactory
from tournaments.actors import Actor
from tournaments.models import Club, Event
from tournaments.services import NotAllowed, clubs, events

pytestmark = pytest.mark.django_db

EVENT_FORM = {
    "name": "Obert de Valls",
    "club_name": "penya de valls",
    "date": "2025-06-24",
    "venue": "Sala gran",
    "ruleset": "lliure",
    "game_target": "101",
    "match_mode": "boards",
    "game_cap": "121",
    "rounds_count": "4",
    "boards_per_round": "6",
    "ranking_method": "wins",
    "bye_points": "36",
}


@pytest.fixture
def reus_event(organiser):
    """An event of Casal de Reus, where a pair from Valls registers."""
    return EventFactory(organisers=[organiser], status="registration")


@pytest.fixture
def valls_pair(reus_event, organiser):
    return events.entry_create(
        event=reus_event,
        actor=Actor(user=organiser),
        player1="Anna",
        player2="Berta",
        club="Penya de Valls",
    )


@pytest.fixture
def valls_organiser(db):
    return UserFactory(username="valls_organiser")


# --- looking a pair's club up ------------------------------------------------------------------


def test_a_pairs_club_in_other_capitals_is_the_same_club(organiser):
    reus = ClubFactory(name="Casal de Reus")
    event = EventFactory(organisers=[organiser], status="registration", club=None)
    entry = events.entry_create(
        event=event,
        actor=Actor(user=organiser),
        player1="Anna",
        player2="Berta",
        club="casal de reus",
    )
    assert entry.pair.club == reus
    assert entry.pair.player1.club == reus
    assert Club.objects.count() == 1


def test_a_pairs_club_in_decomposed_unicode_is_the_same_club(organiser):
    lleida = ClubFactory(name="Penya Àger")
    event = EventFactory(organisers=[organiser], status="registration", club=None)
    entry = events.entry_create(
        event=event,
        actor=Actor(user=organiser),
        player1="Anna",
        player2="Berta",
        club=unicodedata.normalize("NFD", "Penya Àger"),
    )
    assert entry.pair.club == lleida
    assert Club.objects.count() == 1


def test_a_club_name_in_decomposed_unicode_is_stored_composed(valls_organiser):
    club = clubs.club_for(
        name=unicodedata.normalize("NFD", "Penya Àger"), actor=Actor(user=valls_organiser)
    )
    assert club.name == unicodedata.normalize("NFC", "Penya Àger")


# --- claiming a club first typed for a pair ----------------------------------------------------


def test_a_club_first_typed_for_a_pair_is_claimed_by_its_organiser(valls_pair, valls_organiser):
    club = clubs.club_for(name="Penya de Valls", actor=Actor(user=valls_organiser))
    assert club == valls_pair.pair.club
    assert list(club.organisers.all()) == [valls_organiser]
    created = events.event_create(actor=Actor(user=valls_organiser), name="Obert", club=club)
    assert created.club == club


def test_once_claimed_the_club_refuses_everybody_else(valls_pair, valls_organiser):
    clubs.club_for(name="Penya de Valls", actor=Actor(user=valls_organiser))
    with pytest.raises(NotAllowed):
        clubs.club_for(name="Penya de Valls", actor=Actor(user=UserFactory(username="late")))
    assert list(valls_pair.pair.club.organisers.all()) == [valls_organiser]


def test_the_event_form_claims_a_club_first_typed_for_a_pair(client, valls_pair, valls_organiser):
    client.force_login(valls_organiser)
    response = client.post(reverse("tournaments:event_create"), EVENT_FORM)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(name="Obert de Valls")
    assert event.club == valls_pair.pair.club
    assert event.club.organisers.filter(pk=valls_organiser.pk).exists()


def test_the_api_claims_a_club_first_typed_for_a_pair(valls_pair, valls_organiser):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(valls_organiser)
    response = api.post(
        "/api/v1/events", {"name": "Obert de Valls", "club": "Penya de Valls"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert Event.objects.get(pk=response.json()["id"]).club == valls_pair.pair.club


def test_a_club_with_events_in_its_name_is_not_claimed(valls_organiser):
    # A club whose organisers have left still holds its events: the staff decide who runs it.
    orphan = ClubFactory(name="Club sense ningú")
    EventFactory(club=orphan)
    with pytest.raises(NotAllowed):
        clubs.club_for(name=orphan.name, actor=Actor(user=valls_organiser))
    assert not orphan.organisers.exists()


def test_a_club_with_organisers_is_not_claimed_through_a_pair(organiser, valls_organiser):
    reus = ClubFactory(name="Casal de Reus")
    reus.organisers.add(organiser)
    event = EventFactory(organisers=[organiser], status="registration")
    events.entry_create(
        event=event, actor=Actor(user=organiser), player1="A", player2="B", club="Casal de Reus"
    )
    with pytest.raises(NotAllowed):
        clubs.club_for(name="Casal de Reus", actor=Actor(user=valls_organiser))
    assert list(reus.organisers.all()) == [organiser]


def test_a_superuser_acts_for_a_free_club_without_becoming_its_organiser(valls_pair):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    assert clubs.club_for(name="Penya de Valls", actor=Actor(user=admin)) == valls_pair.pair.club
    assert not valls_pair.pair.club.organisers.exists()
