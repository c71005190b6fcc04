"""A whole event run through the API alone (issue 21): creation, registration (one pair, many,
CSV), start, two rounds proposed, changed, opened, played from the tables' own tokens, a dispute
and its ruling, a withdrawal with its forfeit, closing with an explicit decision, finishing and
publishing, then the public reads. Every response is checked against the published schema by
the autouse fixture of tests/conftest.py."""

import uuid

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.models import AuditEntry

API = "/api/v1"


def _client(token: str | None = None, kind: str = "Token") -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"{kind} {token}")
    return client


@pytest.fixture(autouse=True)
def _after_commit(django_capture_on_commit_callbacks):
    """The work queued after a commit (boards dealt, standings) runs at once, as in the demo."""
    global _commits
    _commits = django_capture_on_commit_callbacks


def _post(client: APIClient, url: str, body: dict | None = None, expect: int = 200) -> dict:
    with _commits(execute=True):
        response = client.post(
            url, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
        )
    assert response.status_code == expect, (url, response.status_code, response.content)
    return response.json()


def _tables(organiser: APIClient, event: int, number: int) -> list[dict]:
    rnd = organiser.get(f"{API}/events/{event}/rounds/{number}").json()
    return organiser.get(f"{API}/rounds/{rnd['id']}/tables").json()["results"]


def _token(code: str) -> APIClient:
    return _client(_post(_client(), f"{API}/table-token", {"code": code})["token"], "Table")


def _play_board(ns: APIClient, ew: APIClient, table: int, board: int, ns_points: int) -> dict:
    short = {
        "table": table,
        "board": board,
        "trump": "oros",
        "totals": {"NS": ns_points, "EW": 72 - ns_points},
    }
    _post(ns, f"{API}/results", short, expect=201)
    return _post(ew, f"{API}/results", short)


def test_a_whole_event_through_the_api(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="club-organiser", password="pass-word-123")
    anonymous = _client()
    login = {"username": "club-organiser", "password": "pass-word-123"}
    organiser = _client(_post(anonymous, f"{API}/auth/token", login)["token"])

    # Creation, with a preset; the form's limits are the API's.
    presets = anonymous.get(f"{API}/event-presets").json()
    assert {p["name"] for p in presets} >= {"lliure", "obligada", "quick"}
    too_many = organiser.post(
        f"{API}/events", {"name": "Dijous", "rounds_count": 31}, format="json"
    )
    assert too_many.status_code == 400 and too_many.json()["errors"][0]["field"] == "rounds_count"
    event = _post(
        organiser,
        f"{API}/events",
        {"name": "Dijous", "preset": "obligada", "rounds_count": 2, "boards_per_round": 2},
        expect=201,
    )
    pk = event["id"]
    assert event["ruleset"] == "obligada" and event["status"] == "draft"
    changed = organiser.patch(f"{API}/events/{pk}", {"venue": "Casal"}, format="json")
    assert changed.status_code == 200 and changed.json()["venue"] == "Casal"

    # Registration: one pair, many, and a CSV file.
    _post(organiser, f"{API}/events/{pk}/registration")
    one = _post(
        organiser,
        f"{API}/events/{pk}/pairs",
        {"player1": "Anna", "player2": "Berta"},
        expect=201,
    )
    assert one[0]["number"] == 1 and [p["name"] for p in one[0]["players"]] == ["Anna", "Berta"]
    _post(
        organiser,
        f"{API}/events/{pk}/pairs",
        {
            "pairs": [
                {"player1": "Carles", "player2": "Dolors"},
                {"player1": "Eva", "player2": "Ferran"},
            ]
        },
        expect=201,
    )
    _post(
        organiser,
        f"{API}/events/{pk}/pairs/import",
        {"csv": "player1,player2\nGemma,Hug\nIrene,Jordi\n"},
        expect=201,
    )
    pairs = organiser.get(f"{API}/events/{pk}/pairs").json()
    assert [p["number"] for p in pairs] == [1, 2, 3, 4, 5]
    # Pair 5 withdraws before the start: it is removed.
    gone = _post(organiser, f"{API}/events/{pk}/pairs/5/withdraw", {"reason": "ill"})
    assert gone["removed"] is True and gone["pair"] is None

    # Start; a referee's token may read but not act.
    started = _post(organiser, f"{API}/events/{pk}/start")
    assert started["status"] == "running"
    assert organiser.post(f"{API}/events/{pk}/start", format="json").status_code == 409
    assert (
        organiser.patch(f"{API}/events/{pk}", {"rounds_count": 3}, format="json").status_code == 409
    )

    # Round 1: proposed, changed by hand, opened.
    proposal = _post(organiser, f"{API}/events/{pk}/rounds/1/propose")
    assert proposal["status"] == "pending" and len(proposal["tables"]) == 2
    swapped = _post(
        organiser,
        f"{API}/events/{pk}/rounds/1/pairing",
        {"tables": [[1, 2], [3, 4]], "bye": None},
    )
    assert [(t["ns"], t["ew"]) for t in swapped["tables"]] == [(1, 2), (3, 4)]
    opened = _post(organiser, f"{API}/events/{pk}/rounds/1/open")
    assert opened["status"] == "open" and len(opened["missing"]) == 2

    # The tables play from their own tokens; table 2 disputes board 2.
    t1, t2 = _tables(organiser, pk, 1)
    ns1, ew1, ns2, ew2 = (
        _token(t1["code_ns"]),
        _token(t1["code_ew"]),
        _token(t2["code_ns"]),
        _token(t2["code_ew"]),
    )
    for board, points in ((1, 40), (2, 30)):
        assert _play_board(ns1, ew1, t1["id"], board, points)["status"] == "confirmed"
    _play_board(ns2, ew2, t2["id"], 1, 50)
    short = {"table": t2["id"], "board": 2, "trump": "copes", "totals": {"NS": 36, "EW": 36}}
    entered = _post(ns2, f"{API}/results", short, expect=201)
    dispute = _post(
        ew2, f"{API}/disputes", {"result": entered["id"], "reason": "Wrong count"}, expect=201
    )
    refused = organiser.post(f"{API}/events/{pk}/rounds/1/close", {}, format="json")
    assert refused.status_code == 409 and refused.json()["errors"][0]["field"] == "results"
    ruled = _post(
        organiser,
        f"{API}/disputes/{dispute['id']}/rule",
        {
            "kind": "corrected",
            "explanation": "Counted again.",
            "data": {"trump": "copes", "totals": {"NS": 44, "EW": 28}},
        },
        expect=201,
    )
    assert ruled["result"]["status"] == "ruled"
    closed = _post(organiser, f"{API}/events/{pk}/rounds/1/close", {"accept_missing": False})
    assert closed["status"] == "closed"

    # Round 2: proposed from the standings; pair 4 withdraws while it plays (a forfeit).
    proposal = _post(organiser, f"{API}/events/{pk}/rounds/2/propose")
    assert len(proposal["tables"]) == 2
    _post(organiser, f"{API}/events/{pk}/rounds/2/open")
    tables = _tables(organiser, pk, 2)
    withdrawal = _post(organiser, f"{API}/events/{pk}/pairs/4/withdraw", {"reason": "left"})
    assert withdrawal["removed"] is False and withdrawal["forfeited_table"] is not None
    assert withdrawal["pair"]["withdrawn"] is True
    playing = next(t for t in tables if t["number"] != withdrawal["forfeited_table"])
    ns, ew = _token(playing["code_ns"]), _token(playing["code_ew"])
    _play_board(ns, ew, playing["id"], 3, 42)
    # Board 4 is never entered: the organiser decides explicitly that it counts as not played.
    assert organiser.post(f"{API}/events/{pk}/rounds/2/close", {}, format="json").status_code == 409
    _post(organiser, f"{API}/events/{pk}/rounds/2/close", {"accept_missing": True})

    # Finish and publish; the public then reads everything.
    finished = _post(organiser, f"{API}/events/{pk}/finish")
    assert finished["status"] == "finished" and finished["seed"]
    assert anonymous.get(f"{API}/events/{pk}").status_code == 404
    _post(organiser, f"{API}/events/{pk}/publish", {"published": True})
    after1 = anonymous.get(f"{API}/events/{pk}/standings", {"after": 1}).json()
    after2 = anonymous.get(f"{API}/events/{pk}/standings").json()
    assert after1["after_round"] == 1 and after2["after_round"] == 2
    assert after2["rounds"] == [1, 2]
    assert sorted(r["pair"] for r in after2["rows"]) == [1, 2, 3, 4]
    assert next(r for r in after2["rows"] if r["pair"] == 4)["withdrawn"] is True
    assert {(m["ns"], m["ew"]) for m in after1["matches"]} == {(1, 2), (3, 4)}
    assert after2["criteria"][0] == "match_points"
    assert len(anonymous.get(f"{API}/events/{pk}/pairs").json()) == 4

    # Everything the API did is in the audit trail, as if done on the pages.
    actions = set(AuditEntry.objects.filter(event_id=pk).values_list("action", flat=True))
    assert {
        "event_created",
        "entry_registered",
        "event_status",
        "round_proposed",
        "round_pairing_set",
        "round_opened",
        "round_closed",
        "event_published",
    } <= actions
