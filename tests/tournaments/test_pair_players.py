"""A pair is two different people, and a player is the same person however the name was typed:
the one-by-one form, the CSV file (its preview and its import) and the API refuse one player
twice in a pair, read accents typed on any keyboard alike, and skip a first line that names the
columns as the form does, in any of the site's languages."""

import unicodedata

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.factories import EventFactory
from tournaments.actors import Actor
from tournaments.models import Entry, Player
from tournaments.services import ServiceError, events

pytestmark = pytest.mark.django_db

SAME_PERSON = "The two players are the same person"


@pytest.fixture
def open_event(organiser):
    return EventFactory(organisers=[organiser], status="registration")


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def _preview(client, event, text: str) -> str:
    upload = SimpleUploadedFile("pairs.csv", text.encode(), content_type="text/csv")
    response = client.post(reverse("tournaments:entries_import", args=[event.pk]), {"file": upload})
    return response.content.decode()


def _import(client, event, text: str) -> list[str]:
    client.post(reverse("tournaments:entries_import_confirm", args=[event.pk]), {"csv_text": text})
    return sorted(Entry.objects.filter(event=event).values_list("pair__player1__name", flat=True))


# --- one player twice in one pair --------------------------------------------------------------


def test_the_one_by_one_form_refuses_a_pair_of_one_player_twice(logged_in, open_event):
    # "Anna Puig" and "anna  puig" are one player (players_key), not a pair.
    response = logged_in.post(
        reverse("tournaments:entries", args=[open_event.pk]),
        {"player1": "Anna Puig", "player2": "anna  puig"},
    )
    assert response.status_code == 400
    assert SAME_PERSON in response.content.decode()
    assert not Entry.objects.filter(event=open_event).exists()


def test_the_service_refuses_one_player_twice_at_player2(open_event, organiser):
    with pytest.raises(ServiceError) as refused:
        events.entry_register(
            event=open_event, actor=Actor(user=organiser), player1="Anna Puig", player2="ANNA PUIG"
        )
    assert refused.value.field == "player2" and SAME_PERSON in refused.value.message
    assert not Player.objects.exists()


def test_the_api_refuses_one_player_twice_with_a_400_at_player2(open_event, organiser):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(organiser)
    response = api.post(
        f"/api/v1/events/{open_event.pk}/pairs",
        {"player1": "Anna Puig", "player2": " anna puig"},
        format="json",
    )
    assert response.status_code == 400, response.content
    errors = [(e["field"], e["message"]) for e in response.json()["errors"]]
    assert [f for f, _m in errors] == ["player2"] and SAME_PERSON in errors[0][1]
    assert not Entry.objects.filter(event=open_event).exists()


def test_the_csv_preview_refuses_a_line_of_one_player_twice(logged_in, open_event):
    html = _preview(logged_in, open_event, "Anna Puig,ANNA PUIG\nMarta Soler,Pere Riera\n")
    assert "<strong>Line 1</strong>" in html and SAME_PERSON in html
    assert 'id="confirm-import"' not in html


def test_the_csv_import_registers_nothing_when_a_line_is_one_player_twice(logged_in, open_event):
    assert _import(logged_in, open_event, "Marta Soler,Pere Riera\nAnna Puig,anna  puig\n") == []


# --- the same name typed in another Unicode form -----------------------------------------------

NFC = "Àlex Puig"
NFD = unicodedata.normalize("NFD", NFC)  # a Mac or a phone: "A" + combining grave


def test_a_name_in_decomposed_unicode_is_the_same_player_in_the_csv(logged_in, open_event):
    assert NFC != NFD
    html = _preview(logged_in, open_event, f"{NFC},Jordi Vila\n{NFD},Jordi Vila\n")
    assert "The same two players as on line 1" in html
    assert 'id="confirm-import"' not in html


def test_a_name_in_decomposed_unicode_is_stored_composed(open_event, organiser):
    actor = Actor(user=organiser)
    entry = events.entry_register(
        event=open_event, actor=actor, player1=NFD, player2="Jordi Vila", name=f"{NFD} i Jordi"
    )
    assert entry.pair.player1.name == NFC and entry.pair.name == f"{NFC} i Jordi"
    with pytest.raises(ServiceError, match="already registered"):
        events.entry_register(event=open_event, actor=actor, player1="Jordi Vila", player2=NFC)


# --- a first line naming the columns -------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "player1,player2,name,club",
        "Player 1,Player 2,Name,Club",  # the form's labels
        "PLAYER 1;Player2;Pair name;Club",
        "Jugador 1,Jugador 2,Nom de la parella,Club",  # the labels in Catalan
        "jugador1\tjugador2\tNombre de la pareja\tClub",  # and in Spanish
    ],
)
def test_a_header_line_naming_the_columns_is_not_a_pair(
    logged_in, open_event, header, settings, compiled_locale
):
    settings.LOCALE_PATHS = [compiled_locale]  # the form's labels in Catalan and Spanish
    sep = ";" if ";" in header else "\t" if "\t" in header else ","
    rows = [f"Anna Puig{sep}Jordi Vila{sep}{sep}Reus", f"Marta Soler{sep}Pere Riera{sep}{sep}Valls"]
    text = "\n".join([header, *rows]) + "\n"
    assert _import(logged_in, open_event, text) == ["Anna Puig", "Marta Soler"]


def test_the_header_is_recognised_whatever_the_readers_language(open_event):
    with translation.override("ca"):
        preview = events.pairs_csv_parse("Player 1,Player 2\nAnna Puig,Jordi Vila\n")
    assert [(r.line, r.player1) for r in preview.rows] == [(2, "Anna Puig")]
    assert not preview.errors
