"""Names as people type them: a club found whatever its capitals (accents included, on every
database), an account found by its exact username before its case twins, control characters
never stored in a name nor breaking a workbook, and the season's names linking to the players'
pages they may open (docs/organisers.md "Your club", "Organisers and referees"; docs/players.md
§13; docs/exports.md)."""

from datetime import date

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, EventFactory, UserFactory
from tests.tournaments.club_history import club_evening, players
from tests.tournaments.public_event import build_played_event
from tournaments.actors import Actor
from tournaments.models import Club, Event, Player, Registration, Season
from tournaments.services import NotAllowed, ServiceError, clubs
from tournaments.services.names import normal_name
from tournaments.services.roles import find_account

pytestmark = pytest.mark.django_db


def test_a_pairs_club_in_other_accented_capitals_is_the_same_club():
    club = Club.objects.create(name="Penya l'Àliga")
    assert clubs.home_club("PENYA L'ÀLIGA") == club
    assert clubs.home_club("penya l'àliga") == club
    assert Club.objects.count() == 1


def test_an_events_club_in_other_accented_capitals_needs_its_organisers():
    club = Club.objects.create(name="Agrupació Èlit")
    club.organisers.add(UserFactory(username="owner"))
    with pytest.raises(NotAllowed):
        clubs.club_for(name="agrupació èlit", actor=Actor(user=UserFactory(username="stranger")))
    assert list(Club.objects.all()) == [club]


def test_an_exact_username_is_found_before_its_case_twin():
    UserFactory(username="Jordi")
    exact = UserFactory(username="jordi")
    assert find_account("jordi") == exact


def test_case_twins_without_an_exact_match_are_refused_not_guessed():
    UserFactory(username="Jordi")
    UserFactory(username="JORDI")
    with pytest.raises(ServiceError) as refused:
        find_account("jordi")
    assert refused.value.field == "who"
    assert find_account("JoRdI".upper()).username == "JORDI"


def test_a_username_in_other_capitals_is_still_found():
    user = UserFactory(username="Montse")
    assert find_account("montse") == user


def test_control_characters_never_reach_a_stored_name():
    assert normal_name("Anna\x0bPuig") == "Anna Puig"
    assert normal_name("Anna\x07 Puig\u200b") == "Anna Puig"
    assert normal_name("Núria\u00a0Font") == "Núria Font"


def test_a_sign_up_with_a_control_character_stores_the_name_clean(client, organiser):
    event = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION)
    response = client.post(
        reverse("public:register", args=[event.pk]),
        {"player1": "Anna\x01Puig", "player2": "Jordi\x0bVila", "email": "anna@example.cat"},
    )
    assert response.status_code in (200, 302)
    registration = Registration.objects.get(event=event)
    assert (registration.player1, registration.player2) == ("AnnaPuig", "Jordi Vila")


def test_a_name_of_control_characters_only_is_refused(client, organiser):
    event = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION)
    response = client.post(
        reverse("public:register", args=[event.pk]),
        {"player1": "\x01\x02", "player2": "Jordi Vila", "email": "anna@example.cat"},
    )
    assert response.status_code == 400
    assert not Registration.objects.filter(event=event).exists()


@pytest.mark.parametrize("kind", ["standings", "results", "travellers"])
def test_a_control_character_stored_before_does_not_break_a_workbook(
    client, running_event, organiser, kind
):
    event = build_played_event(running_event, organiser)
    entry = event.entries.order_by("number").first()
    entry.pair.name = "Anna\x0bPuig – Jordi\x01Vila"
    entry.pair.save()
    response = client.get(reverse("public:export_xlsx", args=[event.pk, kind]))
    assert response.status_code == 200
    assert response.content[:2] == b"PK"


def _season(organiser):
    club = ClubFactory(name="Penya Botifarrera")
    club.organisers.add(organiser)
    members = players(*[f"Soci {i}" for i in range(10)], club=club)
    lineup = [(members[i], members[i + 5]) for i in range(4)]
    club_evening(club, organiser, lineup, when=date(2026, 9, 1), seed=1)
    season = Season.objects.create(
        club=club, name="Tardor", starts=date(2026, 9, 1), ends=date(2026, 12, 31)
    )
    return club, season, members


def test_the_season_links_the_names_whose_page_the_public_may_open(client, organiser):
    club, season, members = _season(organiser)
    hidden = members[1]
    hidden.visibility = Player.Visibility.HIDDEN
    hidden.save()
    html = client.get(reverse("clubs:season", args=[club.pk, season.pk])).content.decode()
    assert reverse("players:player", args=[members[0].pk]) in html
    assert client.get(reverse("players:player", args=[members[0].pk])).status_code == 200
    assert hidden.name in html
    assert reverse("players:player", args=[hidden.pk]) not in html


def test_the_season_workbook_holds_a_name_with_a_control_character(client, organiser):
    club, season, members = _season(organiser)
    Player.objects.filter(pk=members[0].pk).update(name="Soci\x0b0")
    response = client.get(reverse("clubs:season_xlsx", args=[club.pk, season.pk]))
    assert response.status_code == 200
