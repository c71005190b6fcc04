"""Issue 15: the same two players are registered once, whatever the order, case or spaces, by
the form, the CSV import's preview and the import itself."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.actors import Actor
from tournaments.services import ServiceError, events

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event(organiser):
    return EventFactory(organisers=[organiser], status="registration")


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def test_players_key_ignores_order_case_and_spaces():
    assert events.players_key("Anna  Puig", "Jordi Vila") == events.players_key(
        " jordi vila", "ANNA PUIG"
    )
    assert events.players_key("Anna Puig", "Jordi Vila") != events.players_key(
        "Anna Puig", "Jordi Vilà"
    )


def test_csv_preview_refuses_the_same_two_players_twice(logged_in, open_event):
    text = "Anna Puig,Jordi Vila,Els Rapids\nMarta Soler,Pere Riera\njordi  VILA,Anna Puig,Altres\n"
    upload = SimpleUploadedFile("pairs.csv", text.encode(), content_type="text/csv")
    response = logged_in.post(
        reverse("tournaments:entries_import", args=[open_event.pk]), {"file": upload}
    )
    html = response.content.decode()
    assert (
        "<strong>Line 3</strong>: The same two players as on line 1: a pair is registered once."
        in html
    )
    assert 'id="confirm-import"' not in html
    assert not open_event.entries.exists()


def test_csv_preview_refuses_a_pair_already_registered(logged_in, open_event, organiser):
    events.entry_register(
        event=open_event, actor=Actor(organiser), player1="Anna Puig", player2="Jordi Vila"
    )
    text = "Marta Soler,Pere Riera\nJordi Vila,anna puig\n"
    upload = SimpleUploadedFile("pairs.csv", text.encode(), content_type="text/csv")
    html = logged_in.post(
        reverse("tournaments:entries_import", args=[open_event.pk]), {"file": upload}
    ).content.decode()
    assert "These two players are already registered as pair 1 (Anna Puig – Jordi Vila)." in html
    assert 'id="confirm-import"' not in html
    # The confirm step refuses it too, even when posted directly: nothing is registered.
    response = logged_in.post(
        reverse("tournaments:entries_import_confirm", args=[open_event.pk]), {"csv_text": text}
    )
    assert response.status_code == 400
    assert open_event.entries.count() == 1


def test_registration_form_refuses_the_same_two_players(logged_in, open_event):
    url = reverse("tournaments:entries", args=[open_event.pk])
    logged_in.post(url, {"player1": "Anna Puig", "player2": "Jordi Vila"})
    response = logged_in.post(url, {"player1": "Jordi  Vila", "player2": "ANNA PUIG"})
    assert response.status_code == 400
    assert "These two players are already registered as pair 1" in response.content.decode()
    assert open_event.entries.count() == 1
    # Beside the field it is about, not at the top of the form (audit).
    errors = response.context["form"].errors
    assert "already registered" in " ".join(errors.get("player2", [])), errors
    same = logged_in.post(url, {"player1": "Marta Soler", "player2": "marta  soler"})
    assert same.status_code == 400
    assert "same person" in " ".join(same.context["form"].errors.get("player2", []))


def test_register_service_refuses_the_same_two_players(open_event, organiser):
    actor = Actor(organiser)
    events.entry_register(event=open_event, actor=actor, player1="A", player2="B")
    with pytest.raises(ServiceError) as refused:
        events.entry_register(event=open_event, actor=actor, player1="b", player2="a ")
    assert refused.value.field == "player2"
    assert open_event.entries.count() == 1
