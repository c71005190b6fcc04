"""The club typed for a pair only says where its players come from: it needs no membership and it
is found whatever its capitals, spacing or accents. It is not claimed by whoever types its name
next for an event (a club's organisers see its players' pages and merge them): nobody organises
it until the site's staff say who does, and the refusal says so."""

import unicodedata

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, EventFactory, UserFactory
from tests.tournaments.test_clubs import FORM
from tournaments.actors import Actor
from tournaments.models import Club, Event
from tournaments.services import NotAllowed, clubs, events

pytestmark = pytest.mark.django_db

# The event form of test_clubs, in the name of the pair's club (typed in other capitals).
EVENT_FORM = FORM | {"name": "Obert de Valls", "club_name": "penya de valls"}


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


# --- a club first typed for a pair is nobody's to take -------------------------------------------


def test_a_club_first_typed_for_a_pair_is_not_taken_by_the_next_to_type_it(
    valls_pair, valls_organiser
):
    with pytest.raises(NotAllowed) as refused:
        clubs.club_for(name="Penya de Valls", actor=Actor(user=valls_organiser))
    assert "ask the site's staff to make you its organiser" in str(refused.value)
    assert refused.value.field == "club"
    # The same answer wherever something is held in a club's name: a league too.
    from tournaments.services import league

    with pytest.raises(NotAllowed, match="Nobody organises Penya de Valls"):
        league.league_create(
            actor=Actor(user=valls_organiser), name="Lliga", club=valls_pair.pair.club
        )
    assert not valls_pair.pair.club.organisers.exists()


def test_the_event_form_and_the_api_say_whom_to_ask(client, valls_pair, valls_organiser):
    client.force_login(valls_organiser)
    page = client.post(reverse("tournaments:event_create"), EVENT_FORM)
    assert page.status_code == 400
    assert "Nobody organises Penya de Valls here yet" in page.content.decode()
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(valls_organiser)
    answer = api.post(
        "/api/v1/events", {"name": "Obert de Valls", "club": "Penya de Valls"}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["errors"][0]["field"] == "club"
    assert not Event.objects.filter(name="Obert de Valls").exists()
    assert not valls_pair.pair.club.organisers.exists()


def test_once_the_staff_add_an_organiser_the_club_is_theirs(valls_pair, valls_organiser):
    valls_pair.pair.club.organisers.add(valls_organiser)
    club = clubs.club_for(name="penya de valls", actor=Actor(user=valls_organiser))
    created = events.event_create(actor=Actor(user=valls_organiser), name="Obert", club=club)
    assert created.club == valls_pair.pair.club


def test_a_club_with_organisers_is_not_taken_through_a_pair(organiser, valls_organiser):
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
