"""The event form's match limits and the presets named after real events' rules
(scoring/presets.py): each fills the options it names and is explained on the form; impossible
limits are form errors on their field."""

import pytest
from django.urls import reverse

from tests.api.event_run import API, login
from tests.tournaments.test_organiser_events import FORM
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


@pytest.mark.parametrize(
    "preset,expected",
    [
        (
            "open_swiss",
            {
                "match_mode": "game",
                "game_target": "101",
                "deal_limit": "12",
                "game_cap": "121",
                "draw": "half",
                "round_minutes": "60",
                "rounds_count": "7",
                "boards_per_round": "12",
            },
        ),
        (
            "girona_groups",
            {
                "game_target": "",
                "deal_limit": "8",
                "game_cap": "",
                "draw": "tiebreak",
                "tiebreak_deals": "2",
                "boards_per_round": "10",
                "round_minutes": "",
            },
        ),
        ("duplicate_swiss", {"match_mode": "boards"}),
    ],
)
def test_a_rules_preset_fills_the_limits(logged_in, preset, expected):
    response = logged_in.post(reverse("tournaments:event_create"), dict(FORM, preset=preset))
    assert response.status_code == 200 and not Event.objects.exists()
    form = response.context["form"]
    for key, value in expected.items():
        assert str(form[key].value() if form[key].value() is not None else "") == value, key
    page = response.content.decode()
    assert "ends at 101 points, 12 deals or 60 minutes" in page  # every preset is explained


def test_the_open_swiss_preset_creates_an_event_with_its_limits(logged_in):
    filled = logged_in.post(reverse("tournaments:event_create"), dict(FORM, preset="open_swiss"))
    data = {k: ("" if v is None else v) for k, v in filled.context["form"].data.items()}
    data.pop("preset")
    response = logged_in.post(reverse("tournaments:event_create"), data)
    assert response.status_code == 302
    event = Event.objects.get()
    assert (
        event.match_mode,
        event.game_target,
        event.deal_limit,
        event.game_cap,
        event.draw,
        event.round_minutes,
    ) == ("game", 101, 12, 121, "half", 60)


@pytest.mark.parametrize(
    "preset,method,rounds",
    [("girona_groups", "groups", None), ("club_evening", "roundrobin", "field")],
)
def test_a_preset_sets_its_pairing_method_when_the_event_is_saved(
    logged_in, preset, method, rounds
):
    """The presets named after a pairing method set it (the pairing page shows it), even though
    the event form itself has no such field: the form carries the preset's name."""
    filled = logged_in.post(reverse("tournaments:event_create"), dict(FORM, preset=preset))
    assert f'name="pairing_preset" value="{preset}"' in filled.content.decode()
    data = {k: ("" if v is None else v) for k, v in filled.context["form"].data.items()}
    data.pop("preset")
    assert logged_in.post(reverse("tournaments:event_create"), data).status_code == 302
    event = Event.objects.get()
    assert event.format == method
    if rounds:
        assert event.round_robin == rounds


def test_a_preset_without_a_pairing_method_keeps_the_events(logged_in):
    filled = logged_in.post(reverse("tournaments:event_create"), dict(FORM, preset="quick"))
    data = {k: ("" if v is None else v) for k, v in filled.context["form"].data.items()}
    data.pop("preset")
    assert logged_in.post(reverse("tournaments:event_create"), data).status_code == 302
    assert Event.objects.get().format == "swiss"


@pytest.mark.parametrize(
    "changes,field",
    [
        ({"match_mode": "game", "game_cap": "90"}, "game_cap"),
        ({"match_mode": "game", "game_target": "", "deal_limit": ""}, "deal_limit"),
        (
            {"match_mode": "game", "deal_limit": "6", "draw": "tiebreak", "boards_per_round": "7"},
            "boards_per_round",
        ),
        ({"round_minutes": "0"}, "round_minutes"),
        # A team match compares both rooms on every board (docs/teams.md §10).
        ({"competitor": "teams", "match_mode": "game"}, "match_mode"),
        # A round sat out is worth a win at most (docs/scoring.md, requested bye).
        ({"requested_bye_points": "3"}, "requested_bye_points"),
    ],
)
def test_impossible_limits_are_form_errors(logged_in, changes, field):
    response = logged_in.post(reverse("tournaments:event_create"), dict(FORM, **changes))
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not Event.objects.exists()


def test_a_requested_bye_is_worth_a_win_at_most_through_the_api(
    db, django_capture_on_commit_callbacks
):
    organiser = login(django_capture_on_commit_callbacks).organiser
    url = f"{API}/events"
    refused = organiser.post(url, {"name": "R", "requested_bye_points": 3}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "requested_bye_points"
    made = organiser.post(url, {"name": "R", "requested_bye_points": 2}, format="json")
    assert made.status_code == 201, made.content
    assert Event.objects.get().requested_bye_points == 2


def test_an_event_stored_with_a_larger_requested_bye_keeps_its_details_editable(
    logged_in, running_event, organiser
):
    """Stored before the cap: once the options are fixed its name and venue still change, by
    the form and by the API (the figure stays: its standings were made with it)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    Event.objects.filter(pk=running_event.pk).update(requested_bye_points=3)
    url = reverse("tournaments:event_edit", args=[running_event.pk])
    response = logged_in.post(url, dict(FORM, name="Nou nom"))
    assert response.status_code == 302
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    patched = api.patch(f"{API}/events/{running_event.pk}", {"venue": "Casal"}, format="json")
    assert patched.status_code == 200, patched.content
    running_event.refresh_from_db()
    assert (running_event.name, running_event.venue) == ("Nou nom", "Casal")
    assert running_event.requested_bye_points == 3
