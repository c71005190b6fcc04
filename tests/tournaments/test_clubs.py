"""Clubs belong to their organisers: only they create events in a club's name (the service, the
event form, the admin, the demo, and the migration that gives existing clubs their organisers)."""

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from tests.factories import ClubFactory, EventFactory, UserFactory
from tournaments.actors import Actor
from tournaments.models import Club, Event
from tournaments.services import NotAllowed, clubs, events

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Torneig de Sant Joan",
    "club_name": "Casal de Reus",
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
def reus(db):
    """Casal de Reus, organised by ``reus_organiser``."""
    club = ClubFactory(name="Casal de Reus")
    club.organisers.add(UserFactory(username="reus_organiser"))
    return club


@pytest.fixture
def stranger(db):
    return UserFactory(username="stranger")


# --- the service -------------------------------------------------------------------------------


def test_a_new_club_name_makes_its_creator_the_first_organiser(stranger):
    club = clubs.club_for(name="Penya de Tarragona", actor=Actor(user=stranger))
    assert list(club.organisers.all()) == [stranger]
    event = events.event_create(actor=Actor(user=stranger), name="Obert", club=club)
    assert event.club == club


def test_an_existing_club_refuses_someone_who_is_not_its_organiser(reus, stranger):
    with pytest.raises(NotAllowed) as refused:
        clubs.club_for(name="casal de reus", actor=Actor(user=stranger))
    assert refused.value.field == "club" and "Casal de Reus" in refused.value.message
    with pytest.raises(NotAllowed):
        events.event_create(actor=Actor(user=stranger), name="Pirata", club=reus)
    assert not Event.objects.exists()
    assert not reus.organisers.filter(pk=stranger.pk).exists()


@pytest.mark.parametrize("spaced", ["  Casal   de Reus ", "casal\tde\u00a0reus"])
def test_a_club_name_with_other_spaces_is_the_same_club(reus, stranger, spaced):
    # The pages collapse the spaces: "Casal   de Reus" would read as Casal de Reus everywhere.
    with pytest.raises(NotAllowed):
        clubs.club_for(name=spaced, actor=Actor(user=stranger))
    assert list(Club.objects.values_list("name", flat=True)) == ["Casal de Reus"]
    member = reus.organisers.get()
    assert clubs.club_for(name=spaced, actor=Actor(user=member)) == reus


def test_a_new_club_name_is_stored_with_its_spaces_collapsed(stranger):
    club = clubs.club_for(name=" Penya  de\tTarragona ", actor=Actor(user=stranger))
    assert club.name == "Penya de Tarragona"


def test_a_pairs_club_with_other_spaces_is_the_same_club(reus):
    event = EventFactory(club=None)
    organiser = Actor(user=UserFactory())
    entry = events.entry_create(
        event=event, actor=organiser, player1="Anna", player2="Berta", club=" Casal  de   Reus"
    )
    assert entry.pair.club == reus
    assert Club.objects.count() == 1


def test_a_clubs_organiser_creates_events_in_its_name(reus):
    member = reus.organisers.get()
    club = clubs.club_for(name="Casal de Reus", actor=Actor(user=member))
    assert events.event_create(actor=Actor(user=member), name="Festa", club=club).club == reus


def test_a_club_without_organisers_accepts_only_a_superuser(stranger):
    orphan = ClubFactory(name="Club sense ningú")
    with pytest.raises(NotAllowed):
        clubs.club_for(name=orphan.name, actor=Actor(user=stranger))
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    assert clubs.club_for(name=orphan.name, actor=Actor(user=admin)) == orphan


def test_a_co_organiser_keeps_the_events_club_without_joining_it(reus, stranger):
    event = EventFactory(club=reus, organisers=[reus.organisers.get(), stranger])
    club = clubs.club_for(name="Casal de Reus", actor=Actor(user=stranger), current=event.club)
    events.event_update(event=event, actor=Actor(user=stranger), club=club, name="Renamed")
    event.refresh_from_db()
    assert (event.name, event.club) == ("Renamed", reus)


def test_an_event_cannot_be_moved_into_someone_elses_club(reus, stranger):
    event = EventFactory(organisers=[stranger])
    with pytest.raises(NotAllowed):
        events.event_update(event=event, actor=Actor(user=stranger), club=reus)
    event.refresh_from_db()
    assert event.club != reus


# --- the event form ----------------------------------------------------------------------------


def test_the_event_form_refuses_a_club_the_user_does_not_belong_to(client, reus, stranger):
    client.force_login(stranger)
    response = client.post(reverse("tournaments:event_create"), FORM)
    assert response.status_code == 400  # the form comes back with its error
    errors = response.context["form"].errors
    assert "Only the organisers of Casal de Reus" in " ".join(errors["club_name"])
    assert "Only the organisers of Casal de Reus" in response.content.decode()
    assert not Event.objects.exists()


def test_the_event_form_creates_a_new_club_with_the_user_as_organiser(client, stranger):
    client.force_login(stranger)
    response = client.post(reverse("tournaments:event_create"), dict(FORM, club_name="Nou Club"))
    assert response.status_code == 302
    club = Club.objects.get(name="Nou Club")
    assert Event.objects.get().club == club and list(club.organisers.all()) == [stranger]


def test_the_event_form_suggests_only_the_users_clubs(client, reus, stranger):
    mine = clubs.club_for(name="El meu club", actor=Actor(user=stranger))
    client.force_login(stranger)
    page = client.get(reverse("tournaments:event_create")).content.decode()
    assert mine.name in page and reus.name not in page


def test_the_edit_form_refuses_a_move_into_another_club(client, reus, stranger):
    event = EventFactory(organisers=[stranger], status="registration")
    client.force_login(stranger)
    response = client.post(reverse("tournaments:event_edit", args=[event.pk]), FORM)
    assert response.status_code == 400
    assert "club_name" in response.context["form"].errors
    event.refresh_from_db()
    assert event.club != reus


# --- staff, the demo, existing data ------------------------------------------------------------


def test_staff_manage_a_clubs_organisers_in_the_admin(client, reus, stranger):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    url = reverse("admin:tournaments_club_change", args=[reus.pk])
    members = [str(u.pk) for u in reus.organisers.all()] + [str(stranger.pk)]
    response = client.post(url, {"name": reus.name, "city": "Reus", "organisers": members})
    assert response.status_code == 302, response.content[:1000]
    assert reus.organisers.filter(pk=stranger.pk).exists()
    assert clubs.club_for(name="Casal de Reus", actor=Actor(user=stranger)) == reus


def test_the_demo_club_has_its_organiser(settings):
    from tournaments.demo import build_demo

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    report = build_demo()
    club = report.event.club
    assert club.organisers.filter(username="organiser").exists()
    assert report.event.organisers.filter(username="organiser").exists()


def test_existing_clubs_get_the_organisers_of_their_events():
    migration = importlib.import_module("tournaments.migrations.0004_club_organisers")
    ran, other = UserFactory(username="ran"), UserFactory(username="other")
    club, elsewhere = ClubFactory(name="Antic"), ClubFactory(name="Altre")
    EventFactory(club=club, organisers=[ran])
    EventFactory(club=elsewhere, organisers=[other])
    migration.organisers_from_events(apps, None)
    assert list(club.organisers.all()) == [ran]
    assert list(elsewhere.organisers.all()) == [other]
