"""Late entries, substitutions and closing a round with a decision per kind of board, through
the API and the pages' services (issue 21)."""

import pytest

from tests.api.event_run import API, client, login
from tournaments.models import AuditEntry, Entry, Round


@pytest.fixture
def running(db, django_capture_on_commit_callbacks):
    """Four pairs, round 1 open: 1–2 at table 1, 3–4 at table 2."""
    run = login(django_capture_on_commit_callbacks)
    org = run.organiser
    body = {"name": "Dimarts", "rounds_count": 3, "boards_per_round": 2}
    run.pk = pk = run.post(org, f"{API}/events", body, expect=201)["id"]
    run.post(org, f"{API}/events/{pk}/registration")
    names = [("Anna", "Berta"), ("Carles", "Dolors"), ("Eva", "Ferran"), ("Gemma", "Hug")]
    pairs = [{"player1": a, "player2": b} for a, b in names]
    run.post(org, f"{API}/events/{pk}/pairs", {"pairs": pairs}, expect=201)
    run.post(org, f"{API}/events/{pk}/start")
    run.post(org, f"{API}/events/{pk}/rounds/1/propose")
    run.post(org, f"{API}/events/{pk}/rounds/1/pairing", {"tables": [[1, 2], [3, 4]]})
    run.post(org, f"{API}/events/{pk}/rounds/1/open")
    return run


def test_a_late_entry_joins_at_the_next_round(running):
    run, pk = running, running.pk
    late = run.post(
        run.organiser,
        f"{API}/events/{pk}/pairs",
        {"player1": "Irene", "player2": "Jordi"},
        expect=201,
    )
    assert late[0]["number"] == 5 and late[0]["joins_round"] == 2
    assert AuditEntry.objects.filter(event_id=pk, action="late_entry_registered").count() == 1
    pairs = client().get(f"{API}/events/{pk}/pairs")
    assert pairs.status_code == 404  # not published: the public sees nothing of it
    listed = run.organiser.get(f"{API}/events/{pk}/pairs").json()
    assert [p["joins_round"] for p in listed] == [None, None, None, None, 2]


def test_a_substitute_takes_a_players_seat(running):
    run, pk = running, running.pk
    url = f"{API}/events/{pk}/pairs/1/substitute"
    made = run.post(run.organiser, url, {"seat": 2, "name": "Zoe", "reason": "ill"})
    assert made["from_round"] == 1 and (made["player_out"], made["player_in"]) == ("Berta", "Zoe")
    assert [p["name"] for p in made["pair"]["players"]] == ["Anna", "Zoe"]
    assert made["pair"]["number"] == 1
    wrong = run.organiser.post(url, {"seat": 3, "name": "Zoe"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "seat"
    blank = run.organiser.post(url, {"seat": 1, "name": "   "}, format="json")
    assert blank.status_code == 400 and blank.json()["errors"][0]["field"] == "name"
    Entry.objects.filter(event_id=pk, number=2).update(withdrawn_after_round=1)
    gone = run.organiser.post(
        f"{API}/events/{pk}/pairs/2/substitute", {"seat": 1, "name": "X"}, format="json"
    )
    assert gone.status_code == 409
    assert (
        run.organiser.post(f"{API}/events/{pk}/pairs/9/substitute", {}, format="json").status_code
        == 404
    )


def test_closing_decides_kind_by_kind(running):
    run, pk, org = running, running.pk, running.organiser
    t1, t2 = run.tables(1)
    ns1, ew1 = run.token(t1["code_ns"]), run.token(t1["code_ew"])
    ns2, ew2 = run.token(t2["code_ns"]), run.token(t2["code_ew"])
    run.short(ns1, ew1, t1["id"], 1, 40)  # counted
    short = {"table": t1["id"], "board": 2, "trump": "oros", "totals": {"NS": 30, "EW": 42}}
    run.post(ns1, f"{API}/results", short, expect=201)  # unconfirmed
    short = {"table": t2["id"], "board": 1, "trump": "oros", "totals": {"NS": 30, "EW": 42}}
    entered = run.post(ns2, f"{API}/results", short, expect=201)
    run.post(ew2, f"{API}/disputes", {"result": entered["id"], "reason": "No"}, expect=201)
    # Table 2's board 2 is never entered.

    rnd = org.get(f"{API}/events/{pk}/rounds/1").json()
    assert rnd["missing"] == [
        {"table": 1, "boards": [2], "missing": [], "unconfirmed": [2], "disputed": []},
        {"table": 2, "boards": [1, 2], "missing": [2], "unconfirmed": [], "disputed": [1]},
    ]
    url = f"{API}/events/{pk}/rounds/1/close"
    refused = org.post(url, {"accept": ["missing", "unconfirmed"]}, format="json")
    assert refused.status_code == 409
    error = refused.json()["errors"][0]
    assert error["field"] == "results" and "disputed" in error["message"]
    assert "table 2: 1" in error["message"] and "never entered" not in error["message"]
    assert Round.objects.get(event_id=pk, number=1).status == "open"
    wrong = org.post(url, {"accept": ["late"]}, format="json")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "accept[0]"

    closed = run.post(org, url, {"accept": ["missing", "unconfirmed", "disputed"]})
    assert closed["status"] == "closed"
    entry = AuditEntry.objects.get(event_id=pk, action="round_closed")
    assert entry.changes["not_played"][1] == {
        "missing": {"2": [2]},
        "unconfirmed": {"1": [2]},
        "disputed": {"2": [1]},
    }


def test_new_codes_for_a_table_while_its_round_is_open(running):
    run, org = running, running.organiser
    t1, _t2 = run.tables(1)
    ns = run.token(t1["code_ns"])
    fresh = run.post(org, f"{API}/tables/{t1['id']}/new-codes")
    assert fresh["code_ns"] not in (None, t1["code_ns"])
    assert ns.get(f"{API}/disputes").status_code == 401  # the old token stopped working
    entry = AuditEntry.objects.get(event_id=run.pk, action="table_new_codes")
    assert entry.changes == {"table": [None, 1], "round": [None, 1]}
    run.post(org, f"{API}/events/{run.pk}/rounds/1/close", {"accept_missing": True})
    closed = org.post(f"{API}/tables/{t1['id']}/new-codes", format="json")
    assert closed.status_code == 409
