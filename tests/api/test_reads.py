"""The crosstable, travellers and scorecards as JSON within the fairness policy, and the audit
trail for the organisers (issue 21)."""

import pytest

from tests.api.event_run import API, PASSWORD, client, login, run_event
from tests.factories import UserFactory
from tournaments.models import AuditEntry


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def _stranger(run) -> object:
    UserFactory(username="stranger", password=PASSWORD)
    body = {"username": "stranger", "password": PASSWORD}
    return client(run.post(client(), f"{API}/auth/token", body)["token"])


def test_a_round_a_pair_did_not_play_is_a_null_cell(db, commits):
    run = login(commits)
    org = run.organiser
    pk = run.pk = run.post(
        org, f"{API}/events", {"name": "Late", "rounds_count": 3, "boards_per_round": 1}, expect=201
    )["id"]
    run.post(org, f"{API}/events/{pk}/registration")
    pairs = [{"player1": f"A{i}", "player2": f"B{i}"} for i in range(4)]
    run.post(org, f"{API}/events/{pk}/pairs", {"pairs": pairs}, expect=201)
    run.post(org, f"{API}/events/{pk}/start")
    run.post(org, f"{API}/events/{pk}/rounds/1/propose")
    run.post(org, f"{API}/events/{pk}/rounds/1/open")
    run.post(org, f"{API}/events/{pk}/publish", {"published": True})
    late = run.post(org, f"{API}/events/{pk}/pairs", {"player1": "C", "player2": "D"}, expect=201)
    assert late[0]["joins_round"] == 2
    for reader in (org, client()):
        rows = {
            row["pair"]: row for row in reader.get(f"{API}/events/{pk}/crosstable").json()["rows"]
        }
        assert rows[5]["cells"] == [None] and rows[1]["cells"][0]["round"] == 1
    assert client().get(f"/e/{pk}/crosstable/").status_code == 200
    assert client().get(f"/e/{pk}/pdf/crosstable/").status_code == 200


def test_the_public_sees_nothing_of_the_open_round(db, commits):
    run = run_event(commits, finish=False, publish=True)  # round 1 closed, round 2 open
    public, org, pk = client(), run.organiser, run.pk

    cross = public.get(f"{API}/events/{pk}/crosstable").json()
    assert cross["rounds"] == [1, 2] and cross["scored_round"] == 1
    by_pair = {row["pair"]: row for row in cross["rows"]}
    assert by_pair[5]["cells"][0]["bye"] is True
    assert by_pair[1]["cells"][0]["opponent"] == 2 and by_pair[1]["cells"][0]["direction"] == "NS"
    assert by_pair[1]["cells"][0]["points_for"] is not None
    seated = [row["cells"][1] for row in cross["rows"] if row["cells"][1]]
    assert seated and all(c["points_for"] is None and c["outcome"] is None for c in seated)
    live = org.get(f"{API}/events/{pk}/crosstable").json()
    assert live["scored_round"] == 2
    assert any(row["cells"][1]["points_for"] for row in live["rows"] if row["cells"][1])

    # Board 1 (round 1, closed) for everyone; board 3 (round 2, open) for its organisers.
    trav = public.get(f"{API}/events/{pk}/boards/1/traveller").json()
    assert trav["round"] == 1 and sorted((line["ns"], line["ew"]) for line in trav["lines"]) == [
        (1, 2),
        (3, 4),
    ]
    assert all(line["mp_ns"] is not None for line in trav["lines"])
    assert public.get(f"{API}/events/{pk}/boards/3/traveller").status_code == 401
    assert _stranger(run).get(f"{API}/events/{pk}/boards/3/traveller").status_code == 403
    table = run.tables(2)[0]
    own_table = run.token(table["code_ns"])
    assert own_table.get(f"{API}/events/{pk}/boards/3/traveller").status_code == 403
    assert org.get(f"{API}/events/{pk}/boards/3/traveller").json()["lines"]
    assert public.get(f"{API}/events/{pk}/boards/99/traveller").status_code == 404

    card = public.get(f"{API}/events/{pk}/pairs/1/scorecard").json()
    assert card["players"] == ["Anna", "Berta"]
    assert {line["round"] for line in card["lines"]} == {1}
    assert [h["after_round"] for h in card["history"]] == [1]  # no rank after the open round
    assert card["total_for"] == sum(line["score_for"] for line in card["lines"])
    staff_card = org.get(f"{API}/events/{pk}/pairs/1/scorecard").json()
    assert [h["after_round"] for h in staff_card["history"]] == [1, 2]
    assert public.get(f"{API}/events/{pk}/pairs/9/scorecard").status_code == 404


def test_the_audit_trail_is_for_the_organisers(db, commits):
    run = run_event(commits)
    url = f"{API}/events/{run.pk}/audit"
    page = run.organiser.get(url, {"limit": 5}).json()
    assert page["count"] == AuditEntry.objects.filter(event_id=run.pk).count()
    assert len(page["results"]) == 5 and page["results"][0]["action"] == "event_created"
    closed = run.organiser.get(url, {"action": "round_closed"}).json()
    assert [e["changes"]["round"][1] for e in closed["results"]] == [1, 2]
    confirmed = run.organiser.get(url, {"action": "result_confirmed", "limit": 200}).json()
    assert confirmed["results"] and all(
        set(e["result"]) == {"id", "round", "table", "board"} for e in confirmed["results"]
    )
    assert client().get(url).status_code == 401
    assert _stranger(run).get(url).status_code == 403
    assert run.organiser.get(url, {"limit": 0}).status_code == 400


def test_a_proposed_rounds_bye_and_tables_are_the_staffs(db, django_capture_on_commit_callbacks):
    """docs/api.md: a proposal's tables are for the event's organisers and referees; its bye and
    table count too, in GET events/{id}/rounds and rounds/{number}."""
    run = login(django_capture_on_commit_callbacks)
    org = run.organiser
    run.pk = run.post(org, f"{API}/events", {"name": "T", "boards_per_round": 1}, expect=201)["id"]
    E = f"{API}/events/{run.pk}"
    run.post(org, f"{E}/registration")
    pairs = [{"player1": f"A{i}", "player2": f"B{i}"} for i in range(5)]
    run.post(org, f"{E}/pairs", {"pairs": pairs}, expect=201)
    run.post(org, f"{E}/start")
    run.post(org, f"{E}/publish", {"published": True})
    run.post(org, f"{E}/rounds/1/propose")
    staff_list = org.get(f"{E}/rounds").json()["results"][0]
    assert staff_list["bye"] is not None and staff_list["tables"] == 2
    assert org.get(f"{E}/rounds/1").json()["bye"] is not None
    anonymous = client()
    listed = anonymous.get(f"{E}/rounds").json()["results"][0]
    assert (listed["status"], listed["bye"], listed["tables"]) == ("pending", None, 0)
    assert anonymous.get(f"{E}/rounds/1").json()["bye"] is None
    run.post(org, f"{E}/rounds/1/open")
    listed = anonymous.get(f"{E}/rounds").json()["results"][0]
    assert listed["bye"] == staff_list["bye"] and listed["tables"] == 2
    assert anonymous.get(f"{E}/rounds/1").json()["bye"] == staff_list["bye"]["number"]
