"""Disputes through the API: players call a referee, referees rule (and revise), withdrawals."""

import pytest

from tests.api.conftest import errors_of
from tournaments.actors import Actor
from tournaments.models import BoardResult, Dispute, Ruling
from tournaments.services import events


def _entered(world, board: int = 1) -> dict:
    return (
        world.client("table")
        .post("/api/v1/results", world.short(board=board), format="json")
        .json()
    )


def _disputed(world, reason: str) -> tuple[dict, dict]:
    """A result entered by NS and the dispute EW asks for on it."""
    result = _entered(world)
    dispute = world.client("table_ew").post(
        "/api/v1/disputes", {"result": result["id"], "reason": reason}, format="json"
    )
    return result, dispute.json()


def test_a_player_calls_the_referee(world):
    result = _entered(world)
    response = world.client("table_ew").post(
        "/api/v1/disputes",
        {"result": result["id"], "reason": "They revoked at trick 5"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["reason"] == "player_request" and body["status"] == "open"
    assert body["details"] == "They revoked at trick 5"
    assert body["result"]["status"] == "disputed"
    assert any(h["action"] == "dispute_opened" for h in body["history"])
    again = world.client("table").post(
        "/api/v1/disputes", {"result": result["id"], "reason": "Again"}, format="json"
    )
    assert again.status_code == 409


def test_dispute_request_errors(world):
    result = _entered(world)
    blank = world.client("table").post(
        "/api/v1/disputes", {"result": result["id"], "reason": "   "}, format="json"
    )
    assert blank.status_code == 400 and "reason" in errors_of(blank)
    missing = world.client("table").post(
        "/api/v1/disputes", {"result": 999999, "reason": "x"}, format="json"
    )
    assert missing.status_code == 400 and "result" in errors_of(missing)
    outsider = world.client("other_table").post(
        "/api/v1/disputes", {"result": result["id"], "reason": "x"}, format="json"
    )
    # Another table's result of an open round: the answer of a missing id (docs/api.md).
    assert outsider.status_code == 400 and "result" in errors_of(outsider)
    events.round_close(
        rnd=world.table.round, actor=Actor(user=world.users["organiser"]), accept_missing=True
    )
    closed = world.client("player").post(
        "/api/v1/disputes", {"result": result["id"], "reason": "late"}, format="json"
    )
    assert closed.status_code == 409 and "round" in errors_of(closed)


def test_referee_rules_and_revises(world):
    result, dispute = _disputed(world, "Wrong totals")
    url = f"/api/v1/disputes/{dispute['id']}/rule"
    ruling = world.client("referee").post(
        url,
        {
            "kind": "corrected",
            "explanation": "Counted the cards again.",
            "data": {"trump": "oros", "totals": {"NS": 36, "EW": 36}},
        },
        format="json",
    )
    assert ruling.status_code == 201, ruling.content
    body = ruling.json()
    assert body["status"] == "ruled" and body["referee"] == "referee"
    assert body["result"]["status"] == "ruled"
    assert body["result"]["totals"] == {"NS": 36, "EW": 36}
    revised = (
        world.client("organiser")
        .post(
            url,
            {
                "kind": "adjusted",
                "explanation": "Average for both.",
                "data": {"adjusted_ns": "avg", "adjusted_ew": "avg"},
            },
            format="json",
        )
        .json()
    )
    assert [r["kind"] for r in revised["rulings"]] == ["corrected", "adjusted"]
    assert revised["rulings"][1]["supersedes"] == revised["rulings"][0]["id"]
    assert Ruling.objects.count() == 2


def test_rule_errors_name_the_field(world):
    result, dispute = _disputed(world, "?")
    url = f"/api/v1/disputes/{dispute['id']}/rule"
    client = world.client("referee")
    bad_kind = client.post(url, {"kind": "banish", "explanation": "x"}, format="json")
    assert bad_kind.status_code == 400 and "kind" in errors_of(bad_kind)
    no_text = client.post(
        url,
        {"kind": "penalty", "explanation": " ", "data": {"offending_pair": "NS"}},
        format="json",
    )
    assert no_text.status_code == 400 and "explanation" in errors_of(no_text)
    adjusted = client.post(
        url,
        {"kind": "adjusted", "explanation": "x", "data": {"adjusted_ns": "lots"}},
        format="json",
    )
    assert adjusted.status_code == 400 and "data.adjusted_ns" in errors_of(adjusted)
    totals = client.post(
        url,
        {
            "kind": "corrected",
            "explanation": "x",
            "data": {"trump": "oros", "totals": {"NS": 1, "EW": 1}},
        },
        format="json",
    )
    assert totals.status_code == 400 and "data.totals" in errors_of(totals)
    record = client.post(
        url,
        {"kind": "corrected", "explanation": "x", "data": {"play_record": {"format": "nope"}}},
        format="json",
    )
    assert record.status_code == 400
    assert "data.play_record.format" in errors_of(record)
    assert BoardResult.objects.get().status == "disputed"
    assert (
        client.post(
            "/api/v1/disputes/999999/rule", {"kind": "accept", "explanation": "x"}, format="json"
        ).status_code
        == 404
    )


def test_withdraw_a_request(world):
    result, dispute = _disputed(world, "Oops")
    url = f"/api/v1/disputes/{dispute['id']}/withdraw"
    assert world.client("other_table").post(url, format="json").status_code == 404
    # The pair the referee was called about may not call it off (audit): 403, nothing changes.
    before = (list(BoardResult.objects.values()), list(Dispute.objects.values()))
    refused = world.client("table").post(url, format="json")
    assert refused.status_code == 403, refused.content
    assert (list(BoardResult.objects.values()), list(Dispute.objects.values())) == before
    response = world.client("table_ew").post(url, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"
    assert BoardResult.objects.get().status == "entered"
    assert world.client("table_ew").post(url, format="json").status_code == 409


@pytest.mark.parametrize("who", ["other_table", "other_referee", "other_organiser", "staff"])
def test_ruling_or_withdrawing_an_unreadable_dispute_is_a_404_as_a_missing_id(world, who):
    """docs/api.md: a dispute the caller may not read answers as one that does not exist (ids
    are sequential: a 403 would tell when another table stores one)."""
    result, dispute = _disputed(world, "?")
    missing = Dispute.objects.order_by("pk").last().pk + 1000
    before = (list(BoardResult.objects.values()), list(Dispute.objects.values()))
    client = world.client(who)
    rule = {"kind": "penalty", "explanation": "x", "data": {"offending_pair": "NS"}}
    for path, body in (("rule", rule), ("withdraw", None)):
        hidden = client.post(f"/api/v1/disputes/{dispute['id']}/{path}", body, format="json")
        absent = client.post(f"/api/v1/disputes/{missing}/{path}", body, format="json")
        assert hidden.status_code == absent.status_code == 404, (path, hidden.content)
        assert hidden.json() == absent.json()
    assert before == (list(BoardResult.objects.values()), list(Dispute.objects.values()))
    # Who may read it and may not act is still refused by the service, with a reason.
    assert (
        world.client("player")
        .post(f"/api/v1/disputes/{dispute['id']}/rule", rule, format="json")
        .status_code
        == 403
    )


def test_dispute_lists_by_reader(world):
    result = _entered(world)
    world.client("table_ew").post(
        "/api/v1/disputes", {"result": result["id"], "reason": "?"}, format="json"
    )
    seen = {
        who: world.client(who).get("/api/v1/disputes").json()["count"]
        for who in (
            "table",
            "player",
            "organiser",
            "referee",
            "staff",
            "other_table",
            "other_organiser",
            "other_referee",
        )
    }
    assert seen == {
        "table": 1,
        "player": 1,
        "organiser": 1,
        "referee": 1,
        "staff": 0,  # Django staff as such are not the event's referees
        "other_table": 0,
        "other_organiser": 0,
        "other_referee": 0,
    }
    assert world.client().get("/api/v1/disputes").status_code == 401
    assert world.client("referee").get("/api/v1/disputes", {"status": "ruled"}).json()["count"] == 0
    assert world.client("referee").get("/api/v1/disputes", {"status": "x"}).status_code == 400
    assert Dispute.objects.count() == 1


def test_numbers_too_large_to_store_are_a_400(world):
    result, dispute = _disputed(world, "?")
    for value in (10**30, "1" * 40, 1e20):
        response = world.client("referee").post(
            f"/api/v1/disputes/{dispute['id']}/rule",
            {
                "kind": "adjusted",
                "explanation": "x",
                "data": {
                    "adjusted_ns": "avg",
                    "adjusted_ew": "avg",
                    "score": {"NS": value, "EW": 0},
                },
            },
            format="json",
        )
        assert response.status_code == 400 and "data.score.NS" in errors_of(response)
    assert not Ruling.objects.exists()


def test_an_adjusted_score_that_is_not_an_object_is_a_400_even_when_empty(world):
    """An empty list, text, 0 or false were taken for "no score given" (0–0) and stored."""
    result, dispute = _disputed(world, "?")
    for score in ([], "", 0, False):
        response = world.client("referee").post(
            f"/api/v1/disputes/{dispute['id']}/rule",
            {
                "kind": "adjusted",
                "explanation": "x",
                "data": {"adjusted_ns": "avg", "adjusted_ew": "avg", "score": score},
            },
            format="json",
        )
        assert response.status_code == 400 and "data.score" in errors_of(response), score
    assert not Ruling.objects.exists()


def test_an_adjusted_score_for_both_pairs_is_a_400_citing_r9(world):
    result, dispute = _disputed(world, "?")
    response = world.client("referee").post(
        f"/api/v1/disputes/{dispute['id']}/rule",
        {
            "kind": "adjusted",
            "explanation": "Fouled board.",
            "data": {"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": 10, "EW": 10}},
        },
        format="json",
    )
    assert response.status_code == 400
    assert "(R9)" in errors_of(response)["data.score"]
    assert not Ruling.objects.exists()
    assert BoardResult.objects.get(pk=result["id"]).status == BoardResult.Status.DISPUTED


def test_ruling_data_of_the_wrong_shape_is_a_400(world):
    result, dispute = _disputed(world, "?")
    url = f"/api/v1/disputes/{dispute['id']}/rule"
    for kind, data, field in (
        ("adjusted", {"adjusted_ns": [], "adjusted_ew": "avg"}, "data.adjusted_ns"),
        ("adjusted", {"adjusted_ns": "avg", "adjusted_ew": {"a": 1}}, "data.adjusted_ew"),
        ("penalty", {"offending_pair": {"x": 1}}, "data.offending_pair"),
        ("accept", {"submission": "1"}, "data.submission"),
        ("accept", {"submission": True}, "data.submission"),
    ):
        response = world.client("referee").post(
            url, {"kind": kind, "explanation": "x", "data": data}, format="json"
        )
        assert response.status_code == 400, (data, response.content)
        assert field in errors_of(response)
    assert not Ruling.objects.exists()


def test_a_penalty_ruled_without_naming_the_pair_records_the_pair_it_penalised(world):
    """``data.offending_pair`` may be left out (the verdict's offender is taken): the ruling
    still says whom it penalised, for the desk, the players' rulings page and the API."""
    import random

    from engine import random_play
    from tournaments import play as adapter
    from tournaments.referee_desk import ruling_summary

    board = world.board(1)
    rules = adapter.rules(world.event)
    for seed in range(1, 200):
        cards = random_play(adapter.deal(board), "copes", rules, random.Random(seed), illegal_at=9)
        if len(cards) < 48:
            break
    record = adapter.record(board, trump="copes", cards=cards)
    sent = world.client("table").post(
        "/api/v1/play-records",
        {"table": world.table.pk, "board": 1, "record": record},
        format="json",
    )
    assert sent.status_code == 201, sent.content
    result = BoardResult.objects.get(table=world.table, board__number=1)
    offender = result.offending_pair
    assert offender in ("NS", "EW")
    ruled = world.client("referee").post(
        f"/api/v1/disputes/{result.disputes.get().pk}/rule",
        {"kind": "penalty", "explanation": "R10", "data": {}},
        format="json",
    )
    assert ruled.status_code == 201, ruled.content
    ruling = Ruling.objects.get()
    assert ruling.data == {"offending_pair": offender}
    assert ruling_summary(ruling).endswith(offender)
