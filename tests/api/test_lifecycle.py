"""The lifecycle endpoints refuse as the pages do: 401 anonymous, 403 for anyone but the
event's organisers, 404 for an event one may not see, 409 for a wrong state, 400 naming the
field; a POST sent twice with one Idempotency-Key acts once."""

import pytest

from tests.api.conftest import errors_of
from tests.factories import EventFactory
from tournaments.models import AuditEntry, Entry, Event


def _url(world, tail):
    return f"/api/v1/events/{world.event.pk}/{tail}"


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("referee", 403), ("player", 403), ("table", 403), ("organiser", 200)],
)
def test_only_organisers_propose(world, who, expected):
    response = world.client(who).post(_url(world, "rounds/2/propose"), format="json")
    if who == "organiser":
        expected = 409  # round 1 is still open: the state check comes after the permission
    assert response.status_code == expected, response.content
    assert errors_of(response)


def test_another_organisers_event_403_when_visible_404_when_not(world):
    url = _url(world, "pairs/1/withdraw")
    assert world.client("other_organiser").post(url, {}, format="json").status_code == 403
    draft = EventFactory(organisers=[world.users["organiser"]], status="registration")
    response = world.client("other_organiser").patch(
        f"/api/v1/events/{draft.pk}", {"name": "Mine"}, format="json"
    )
    assert response.status_code == 404


def test_wrong_states_are_409(world):
    organiser = world.client("organiser")
    for tail in ("start", "registration", "rounds/1/open", "rounds/1/reopen", "finish"):
        body = {"reason": "x"} if tail.endswith("reopen") else {}
        response = organiser.post(_url(world, tail), body, format="json")
        assert response.status_code == 409, (tail, response.content)
        # The refusal names what is in the wrong state (docs/api.md), not "non_field_errors".
        assert set(errors_of(response)) <= {"status", "round", "results", "confirm"}, tail
    # While the event runs a new pair is a late entry (tests/api/test_lifecycle_changes.py);
    # once it is finished, none.
    finished = EventFactory(organisers=[world.users["organiser"]], status="finished")
    register = organiser.post(
        f"/api/v1/events/{finished.pk}/pairs", {"player1": "A", "player2": "B"}, format="json"
    )
    assert register.status_code == 409 and "status" in errors_of(register)


def test_a_batch_of_pairs_names_every_bad_pair_and_stores_none(world):
    organiser = world.client("organiser")
    draft = EventFactory(organisers=[world.users["organiser"]], status="registration")
    url = f"/api/v1/events/{draft.pk}/pairs"
    many = {
        "pairs": [
            {"player1": "Anna", "player2": "anna"},
            {"player1": "Berta", "player2": "Carles"},
            {"player1": "Dolors", "player2": "Dolors"},
            {"player1": "carles", "player2": "berta"},
        ]
    }
    response = organiser.post(url, many, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == [
        "pairs[0].player2",
        "pairs[2].player2",
        "pairs[3].player2",
    ]
    # Pair 1 of the batch was never stored: the repeat names it by its place in the request.
    assert errors[2]["message"] == ("The same two players as pairs[1]: a pair is registered once.")
    assert not Entry.objects.filter(event=draft).exists()


def test_a_batch_of_pairs_for_a_finished_event_is_a_409_at_status(world):
    """What refuses the whole batch is said once, at its own field, even beside bad pairs or a
    bad file."""
    organiser = world.client("organiser")
    finished = EventFactory(organisers=[world.users["organiser"]], status="finished")
    url = f"/api/v1/events/{finished.pk}/pairs"
    good = {"player1": "Aa Bb", "player2": "Cc Dd"}
    bad = {"player1": "Ee Ff", "player2": "ee ff"}
    for pairs in ([good], [good, bad], [bad, good], [bad], [bad, bad]):
        response = organiser.post(url, {"pairs": pairs}, format="json")
        assert response.status_code == 409, (pairs, response.content)
        assert [e["field"] for e in response.json()["errors"]] == ["status"]
    for csv in ("Aa Bb,Cc Dd\n", "Aa Bb\n"):
        response = organiser.post(url + "/import", {"csv": csv}, format="json")
        assert response.status_code == 409, (csv, response.content)
        assert [e["field"] for e in response.json()["errors"]] == ["status"]
    assert not Entry.objects.filter(event=finished).exists()


def test_closing_lists_the_missing_boards_until_decided(world):
    organiser = world.client("organiser")
    round_url = _url(world, "rounds/1")
    missing = organiser.get(round_url).json()["missing"]
    assert [m["table"] for m in missing] == [1, 2]
    refused = organiser.post(_url(world, "rounds/1/close"), {}, format="json")
    assert refused.status_code == 409 and "results" in errors_of(refused)
    assert organiser.get(round_url).json()["status"] == "open"
    closed = organiser.post(_url(world, "rounds/1/close"), {"accept_missing": True}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert AuditEntry.objects.filter(event=world.event, action="round_closed").exists()


def test_bad_input_names_the_field(world):
    organiser = world.client("organiser")
    draft = EventFactory(organisers=[world.users["organiser"]], status="registration")
    url = f"/api/v1/events/{draft.pk}/pairs"
    many = {"pairs": [{"player1": "A", "player2": "B"}, {"player1": "C"}]}
    response = organiser.post(url, many, format="json")
    assert response.status_code == 400 and "pairs[1].player2" in errors_of(response)
    assert not Entry.objects.filter(event=draft).exists()  # all or none
    too_long = {"pairs": [{"player1": "A", "player2": "B"}, {"player1": "x" * 500, "player2": "D"}]}
    response = organiser.post(url, too_long, format="json")
    assert response.status_code == 400 and "pairs[1].player1" in errors_of(response)
    assert not Entry.objects.filter(event=draft).exists()
    csv = organiser.post(url + "/import", {"csv": "A,B\nC\n"}, format="json")
    assert csv.status_code == 400 and "Line 2" in errors_of(csv)["csv"]
    unknown = organiser.patch(f"/api/v1/events/{draft.pk}", {"colour": "red"}, format="json")
    assert unknown.status_code == 400 and "colour" in errors_of(unknown)
    zero = organiser.patch(f"/api/v1/events/{draft.pk}", {"game_target": 0}, format="json")
    assert zero.status_code == 400 and "game_target" in errors_of(zero)


def test_a_post_sent_twice_with_one_key_acts_once(world):
    organiser = world.client("organiser")
    draft = EventFactory(organisers=[world.users["organiser"]], status="registration")
    url = f"/api/v1/events/{draft.pk}/pairs"
    body = {"player1": "A", "player2": "B"}
    first = organiser.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = organiser.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == again.status_code == 201
    assert first.content == again.content and again["Idempotent-Replayed"] == "true"
    assert Entry.objects.filter(event=draft).count() == 1


def test_withdraw_and_reinstate_during_the_round(world):
    organiser = world.client("organiser")
    out = organiser.post(_url(world, "pairs/4/withdraw"), {"reason": "ill"}, format="json")
    assert out.status_code == 200, out.content
    assert out.json()["forfeited_table"] == 2 and out.json()["pair"]["withdrawn"] is True
    twice = organiser.post(_url(world, "pairs/4/withdraw"), {}, format="json")
    assert twice.status_code == 409
    back = organiser.post(_url(world, "pairs/4/reinstate"), {"reason": "better"}, format="json")
    assert back.status_code == 200 and back.json()["unforfeited_table"] == 2
    pairs = world.client().get(_url(world, "pairs")).json()
    assert [p["withdrawn"] for p in pairs] == [False] * 4


def test_the_event_forms_and_pairing_pages_options_are_set_through_the_api(world):
    """Everything the organiser's pages set (the event form and the pairing page) a body sets;
    a preset's pairing method comes with it, as on the page; the pages' checks apply."""
    organiser = world.client("organiser")
    presets = {p["name"]: p["options"] for p in organiser.get("/api/v1/event-presets").json()}
    assert presets["girona_groups"]["format"] == "groups"
    made = organiser.post(
        "/api/v1/events", {"name": "Fires", "preset": "girona_groups"}, format="json"
    )
    assert made.status_code == 201, made.content
    assert (made.json()["format"], made.json()["deal_limit"]) == ("groups", 8)
    body = {
        "name": "Dijous",
        "round_minutes": 45,
        "late_entry_points": 1,
        "draw": "tiebreak",
        "registration_cap": 40,
        "fee_amount": "5.00",
        "format": "roundrobin",
        "round_robin": "double",
        "club": 7,  # a name, as DRF reads a number sent for a text
    }
    made = organiser.post("/api/v1/events", body, format="json")
    assert made.status_code == 201, made.content
    event = Event.objects.get(pk=made.json()["id"])
    assert (event.round_minutes, event.late_entry_points, event.draw) == (45, 1, "tiebreak")
    assert (event.registration_cap, str(event.fee_amount), event.club.name) == (40, "5.00", "7")
    assert (event.format, event.round_robin) == ("roundrobin", "double")
    changed = organiser.patch(
        f"/api/v1/events/{event.pk}", {"format": "swiss", "accelerated": True}, format="json"
    )
    assert changed.status_code == 200, changed.content
    event.refresh_from_db()
    assert (event.format, event.accelerated, event.round_robin) == ("swiss", True, "double")
    refused = organiser.patch(f"/api/v1/events/{event.pk}", {"group_size": 17}, format="json")
    assert refused.status_code == 400 and "group_size" in errors_of(refused)
    refused = organiser.patch(f"/api/v1/events/{event.pk}", {"format": "ladder"}, format="json")
    assert refused.status_code == 400 and "format" in errors_of(refused)
    event.refresh_from_db()
    assert (event.format, event.group_size) == ("swiss", 4)
    teams = {"name": "Equips", "competitor": "teams", "match_mode": "game"}
    refused = organiser.post("/api/v1/events", teams, format="json")
    assert refused.status_code == 400 and "match_mode" in errors_of(refused)
    made = organiser.post("/api/v1/events", teams | {"match_mode": "boards"}, format="json")
    refused = organiser.patch(
        f"/api/v1/events/{made.json()['id']}", {"match_mode": "game"}, format="json"
    )
    assert refused.status_code == 400 and "match_mode" in errors_of(refused)
