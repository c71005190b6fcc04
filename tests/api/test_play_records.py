"""Play records through the API: the engine's verdict comes back unchanged; an illegal card opens
a dispute; an invalid record lists every problem and stores nothing. And POST verify."""

import json
from pathlib import Path

import pytest
from django.utils import timezone

import engine
from tests.api.conftest import errors_of
from tournaments.models import BoardResult, Dispute, Event, PlayRecord, Submission

URL = "/api/v1/play-records"
EXAMPLES = sorted((Path(__file__).parent.parent / "data" / "examples").glob("*.json"))


def test_complete_record_returns_the_engines_verdict(world):
    record = world.record(1)
    response = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"result", "verdict"}
    assert body["verdict"] == world.verdict(record)
    assert body["verdict"]["outcome"] == "complete"
    result = BoardResult.objects.get()
    assert result.source == BoardResult.Source.PLAY_RECORD
    assert body["result"]["totals"] == body["verdict"]["totals"]
    assert body["result"]["score"] == body["verdict"]["score"]
    stored = PlayRecord.objects.get()
    assert stored.record == record and stored.verdict == body["verdict"]

    # The other pair sends the same record: confirmed.
    again = world.client("table_ew").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert again.status_code == 200 and again.json()["result"]["status"] == "confirmed"


def test_a_record_without_ruleset_is_stored_with_the_events_and_replays_as_judged(world):
    from tournaments import play

    Event.objects.filter(pk=world.event.pk).update(ruleset="obligada")
    world.event.refresh_from_db()
    record = world.record(1)
    del record["ruleset"]  # optional: the event's applies (play-record.md)
    response = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert response.status_code == 201, response.content
    verdict = response.json()["verdict"]
    assert verdict["outcome"] == "complete"
    stored = PlayRecord.objects.get()
    assert stored.record == record | {"ruleset": "obligada"}
    assert play.replay(world.board(1), stored.record).to_json() == verdict
    # What the table sent comes back as it sent it.
    assert world.client("table").get(f"{URL}/{stored.pk}").json()["record"] == record


def test_an_illegal_card_opens_a_dispute(world):
    record = world.record(1, illegal_at=10)
    response = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["verdict"] == world.verdict(record)
    assert body["verdict"]["outcome"] == "illegal"
    assert body["result"]["status"] == "disputed"
    dispute = Dispute.objects.get()
    assert dispute.reason == Dispute.Reason.ILLEGAL_PLAY
    assert body["result"]["open_dispute"] == dispute.pk
    listed = world.client("referee").get("/api/v1/disputes").json()
    assert [d["id"] for d in listed["results"]] == [dispute.pk]


def _sent(world, who, record, board=1, **extra):
    body = {"table": world.table.pk, "board": board, "record": record} | extra
    response = world.client(who).post(URL, body, format="json")
    assert response.status_code in (200, 201), response.content
    return response.json()


@pytest.mark.parametrize("who", ["table", "organiser"])
def test_a_correction_with_an_illegal_card_stores_the_penalty_and_opens_a_dispute(world, who):
    """Issue #5: an illegal card opens a dispute for the referee, also when it comes as the
    correction (with its version) of the same pair's, or the organisers', complete record."""
    first = _sent(world, who, world.record(1))
    assert first["result"]["status"] == "entered"
    bad = world.record(1, illegal_at=10)
    body = _sent(world, who, bad, version=first["result"]["version"])
    assert body["verdict"] == world.verdict(bad)
    result = BoardResult.objects.get()
    assert body["result"]["status"] == result.status == "disputed"
    offender = engine.Seat[body["verdict"]["seat"]].pair
    assert result.offending_pair == offender and result.totals_ns is None  # the penalty, waiting
    dispute = Dispute.objects.get()
    assert dispute.reason == Dispute.Reason.ILLEGAL_PLAY
    assert body["result"]["open_dispute"] == dispute.pk
    actions = list(result.audit.values_list("action", flat=True))
    assert {"result_disputed", "dispute_opened"} <= set(actions)
    changed = result.audit.get(action="result_disputed").changes
    assert changed["status"] == ["entered", "disputed"]
    assert changed["offending_pair"] == ["", offender]
    # The other pair cannot confirm it past the referee.
    confirm = world.client("table_ew").post(
        f"/api/v1/results/{result.pk}/confirm", {}, format="json"
    )
    assert confirm.status_code == 409
    assert BoardResult.objects.get().status == "disputed"


def test_the_other_pairs_illegal_record_is_an_illegal_play_dispute(world):
    """Not a conflict: the referee's desk offers the penalty first (referees.md §2)."""
    first = _sent(world, "table", world.record(1))
    body = _sent(world, "table_ew", world.record(1, illegal_at=10))
    assert body["result"]["status"] == "disputed"
    assert Dispute.objects.get().reason == Dispute.Reason.ILLEGAL_PLAY
    kept = BoardResult.objects.get()
    assert (kept.totals_ns, kept.offending_pair) == (first["result"]["totals"]["NS"], "")


def test_an_invalid_record_lists_every_problem_and_stores_nothing(world):
    record = world.record(1)
    record["play"][3] = "13x"
    record["play"][17] = "banana"
    record["choice"]["trump"] = "hearts"
    record["doubles"] = [{"seat": "Z", "call": "contro"}]
    expected = world.verdict(record)
    assert expected["outcome"] == "invalid"
    response = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert response.status_code == 400
    fields = [e["field"] for e in response.json()["errors"]]
    assert fields == [f"record.{p['path']}" for p in expected["problems"]]
    assert len(fields) >= 3 and "record.choice.trump" in fields
    assert not (
        BoardResult.objects.exists() or PlayRecord.objects.exists() or Submission.objects.exists()
    )


def test_a_record_that_is_not_an_object(world):
    response = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": [1, 2]}, format="json"
    )
    assert response.status_code == 400
    assert "record" in errors_of(response)


def test_hands_that_differ_from_the_board_are_refused(world):
    record = world.record(1)
    record["deal"]["hands"] = engine.deal_board("another seed", 1).hands_json()
    body = {"table": world.table.pk, "board": 1, "record": record}
    response = world.client("table").post(URL, body, format="json")
    # The table has not played board 1 yet: it is not told which hand differs.
    assert response.status_code == 400
    assert list(errors_of(response)) == ["record.play"]
    declared = world.client("table").post(
        "/api/v1/boards/played", {"table": world.table.pk, "board": 1}, format="json"
    )
    assert declared.status_code == 200 and declared.json()["reason"] == "declared"
    response = world.client("table").post(URL, body, format="json")
    assert response.status_code == 400
    assert any(f.startswith("record.deal.hands") for f in errors_of(response))


def test_play_record_detail_is_for_those_who_may_see_the_cards(world):
    record = world.record(1)
    created = (
        world.client("table")
        .post(URL, {"table": world.table.pk, "board": 1, "record": record}, format="json")
        .json()
    )
    pk = PlayRecord.objects.get().pk
    url = f"{URL}/{pk}"
    own = world.client("table").get(url)
    assert own.status_code == 200
    assert own.json()["record"] == record and own.json()["verdict"] == created["verdict"]
    assert world.client("organiser").get(url).status_code == 200
    assert world.client("referee").get(url).status_code == 200
    assert world.client("other_table").get(url).status_code == 404
    assert world.client("other_organiser").get(url).status_code == 404
    assert world.client("anonymous").get(url).status_code == 404
    assert world.client("table").get(f"{URL}/999999").status_code == 404


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_verify_reproduces_every_reference_verdict(client, db, path):
    example = json.loads(path.read_text())
    # The reference files can be posted as they are: the extra "verdict" key is ignored.
    response = client.post("/api/v1/verify", example, content_type="application/json")
    assert response.status_code == 200
    verdict = response.json()
    engines = engine.replay(example["record"]).to_json()
    # the same problems at the same paths, in the reader's words
    paths = [[p["path"] for p in v.get("problems", [])] for v in (verdict, engines)]
    assert paths[0] == paths[1]
    assert {**verdict, "problems": None} == {**engines, "problems": None}
    expected = example["verdict"]
    assert verdict["outcome"] == expected["outcome"]
    if expected["outcome"] == "invalid":
        assert {p["path"] for p in expected["problems"]} & {p["path"] for p in verdict["problems"]}
    else:
        assert {k: verdict[k] for k in expected} == expected


def test_verify_stores_nothing_and_needs_hands_outside_an_event(world):
    record = world.record(1)
    response = world.client("anonymous").post("/api/v1/verify", {"record": record}, format="json")
    assert response.status_code == 200
    assert response.json()["outcome"] == "invalid"
    assert any(p["path"].startswith("deal") for p in response.json()["problems"])
    assert not BoardResult.objects.exists() and not PlayRecord.objects.exists()


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("ca", "Falta el format: és botifarra-play/1."),
        ("es", "Falta el formato: es botifarra-play/1."),
        ("en", "The format is missing: it is botifarra-play/1."),
    ],
)
def test_verify_answers_its_problems_in_the_readers_language(client, db, lang, message):
    """docs/api.md: messages in the language asked for, as POST play-records answers them; the
    paths stay the engine's."""
    response = client.post(
        "/api/v1/verify", {"record": {}}, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 200
    problems = response.json()["problems"]
    assert [p["path"] for p in problems] == [
        p["path"] for p in engine.replay({}).to_json()["problems"]
    ]
    assert {"path": "format", "message": message} in problems


def test_verify_against_an_event_board_only_for_who_may_see_it(world):
    record = world.record(1)
    body = {"record": record, "event": world.event.pk, "board": 1}
    assert world.client("anonymous").post("/api/v1/verify", body, format="json").status_code == 403
    assert world.client("table").post("/api/v1/verify", body, format="json").status_code == 403
    ok = world.client("referee").post("/api/v1/verify", body, format="json")
    assert ok.status_code == 200 and ok.json() == world.verdict(record)
    half = world.client("referee").post(
        "/api/v1/verify", {"record": record, "event": 1}, format="json"
    )
    assert half.status_code == 400 and "board" in errors_of(half)
    assert not BoardResult.objects.exists()


def test_the_record_is_kept_as_received_and_replayed_in_its_canonical_form(world):
    """Issue #5, docs/api.md: the record exactly as received (any key of the club's program,
    the hands) comes back from GET play-records/{id}; what replays read is canonical."""
    from tournaments import archive

    record = world.record(1)
    record["comment"] = "typed by club software v2"
    record["choice"]["by"] = "N"
    record["deal"]["hands"] = world.board(1).hands
    posted = world.client("organiser").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert posted.status_code == 201, posted.content
    stored = PlayRecord.objects.get()
    assert stored.as_received() == record and list(stored.as_received()) == list(record)
    assert stored.record == engine.record.canonical(record, hands=False)
    url = f"{URL}/{stored.pk}"
    for who in ("organiser", "referee", "table"):
        assert world.client(who).get(url).json()["record"] == record
    for who in ("other_table", "other_organiser", "other_referee", "staff", "anonymous"):
        assert world.client(who).get(url).status_code in (401, 404)
    exported = archive.event_archive(world.event, exported_at=timezone.now())
    records = [
        s["play_record"]["record"]
        for r in exported["results"]
        for s in r["submissions"]
        if s.get("play_record")
    ]
    assert records == [stored.record]


def test_migration_0020_gives_earlier_records_their_canonical_form_as_received(world):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0020_play_record_received")
    record = world.record(1)
    world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    PlayRecord.objects.update(received="")  # the column's one-off default
    migration.received_from_record(apps, None)
    stored = PlayRecord.objects.get()
    assert stored.as_received() == stored.record == record


def test_migration_0018_gives_records_stored_before_the_fix_their_events_ruleset(world):
    import importlib

    from django.apps import apps

    migration = importlib.import_module(
        "tournaments.migrations.0018_play_records_keep_the_events_ruleset"
    )
    Event.objects.filter(pk=world.event.pk).update(ruleset="obligada")
    world.event.refresh_from_db()
    record = world.record(1)
    world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    PlayRecord.objects.update(record=record | {"ruleset": "lliure"})  # as stored before the fix
    migration.keep_the_events_ruleset(apps, None)
    assert PlayRecord.objects.get().record == record | {"ruleset": "obligada"}


def _keys(value):
    """Every object's keys in their order, nested (what a program reading the text sees)."""
    if isinstance(value, dict):
        return [(k, _keys(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_keys(v) for v in value]
    return None


@pytest.mark.parametrize("illegal_at", [None, 10])
def test_a_stored_verdict_and_record_come_back_in_the_specifications_key_order(world, illegal_at):
    """play-record.md fixes the verdict's keys and their order; a database may sort JSON keys
    (PostgreSQL's jsonb does), a serializer may reorder them: what is read back is in order."""
    record = world.record(1, **({"illegal_at": illegal_at} if illegal_at else {}))
    posted = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "record": record}, format="json"
    )
    assert posted.status_code == 201, posted.content
    verdict = posted.json()["verdict"]
    assert _keys(verdict) == _keys(world.verdict(record))
    stored = PlayRecord.objects.get()
    detail = world.client("table").get(f"{URL}/{stored.pk}").json()
    assert _keys(detail["verdict"]) == _keys(verdict) and detail["verdict"] == verdict
    assert list(detail["record"]) == ["format", "ruleset", "deal", "choice", "doubles", "play"]
    result = world.client("referee").get(f"/api/v1/results/{stored.result_id}").json()
    listed = next(s["play_record"] for s in result["submissions"] if s["play_record"])
    assert _keys(listed["verdict"]) == _keys(verdict)
