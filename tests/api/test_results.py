"""Short results through the API: score computed by the engine, confirmation, conflicts, every
bad input a 400 naming its field."""

import pytest
from django.utils import translation
from django.utils.translation import gettext as _

from tests.api.conftest import errors_of
from tournaments.actors import Actor
from tournaments.models import BoardResult, Dispute, Submission
from tournaments.services import events

URL = "/api/v1/results"


def test_first_entry_creates_with_the_engine_score_and_ignores_a_sent_score(world):
    response = world.client("table").post(
        URL, world.short(score={"NS": 999, "EW": 999}, multiplier=9), format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "entered" and body["entered_side"] == "NS"
    assert body["totals"] == {"NS": 40, "EW": 32}
    result = BoardResult.objects.get()
    assert body["score"] == {"NS": result.score_ns, "EW": result.score_ew}
    assert body["score"] != {"NS": 999, "EW": 999} and result.multiplier == 1


def test_other_pair_sending_the_same_confirms_and_different_disputes(world):
    world.client("table").post(URL, world.short(board=1), format="json")
    same = world.client("table_ew").post(URL, world.short(board=1), format="json")
    assert same.status_code == 200 and same.json()["status"] == "confirmed"

    world.client("table").post(URL, world.short(board=2), format="json")
    other = world.client("table_ew").post(
        URL, world.short(board=2, totals={"NS": 30, "EW": 42}), format="json"
    )
    assert other.status_code == 200
    assert other.json()["status"] == "disputed" and other.json()["open_dispute"]
    assert Dispute.objects.get().reason == Dispute.Reason.CONFLICT


def test_totals_not_summing_to_72(world):
    response = world.client("table").post(
        URL, world.short(totals={"NS": 40, "EW": 40}), format="json"
    )
    assert response.status_code == 400
    assert "72" in errors_of(response)["totals"]
    assert not BoardResult.objects.exists()


def test_a_call_by_the_wrong_pair_names_the_call(world):
    board = world.board(1)
    # The choosing pair is the dealer's; its own partner cannot say contro.
    seat = board.dealer if board.dealer else "N"
    response = world.client("table").post(
        URL, world.short(doubles=[{"seat": seat, "call": "contro"}]), format="json"
    )
    assert response.status_code == 400
    assert "doubles[0].seat" in errors_of(response)


def test_every_structural_problem_is_listed_with_its_path(world):
    response = world.client("table").post(
        URL,
        {
            "table": "x",
            "board": 0,
            "trump": "hearts",
            "doubles": [{"seat": "Q"}],
            "totals": {"NS": 80},
        },
        format="json",
    )
    assert response.status_code == 400
    fields = errors_of(response)
    for field in (
        "table",
        "board",
        "trump",
        "doubles[0].seat",
        "doubles[0].call",
        "totals.NS",
        "totals.EW",
    ):
        assert field in fields, fields


def test_totals_and_offending_pair_are_exclusive(world):
    response = world.client("table").post(URL, world.short(offending_pair="EW"), format="json")
    assert response.status_code == 400 and "totals" in errors_of(response)
    none = world.client("table").post(
        URL, {"table": world.table.pk, "board": 1, "trump": "oros"}, format="json"
    )
    assert none.status_code == 400 and "totals" in errors_of(none)


def test_offending_pair_gets_the_penalty(world):
    response = world.client("table").post(
        URL,
        {"table": world.table.pk, "board": 1, "trump": "botifarra", "offending_pair": "NS"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["offending_pair"] == "NS" and body["totals"] is None
    assert body["score"]["NS"] == 0 and body["score"]["EW"] > 0


def test_a_board_not_in_this_tables_round(world):
    response = world.client("table").post(URL, world.short(board=5), format="json")
    assert response.status_code == 400
    assert "not played in this round" in errors_of(response)["board"]


def test_unknown_table(world):
    response = world.client("organiser").post(URL, world.short(table=999999), format="json")
    assert response.status_code == 400 and "table" in errors_of(response)


def test_a_closed_round_refuses_results(world):
    actor = Actor(user=world.users["organiser"])
    rnd = world.event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    response = world.client("player").post(URL, world.short(), format="json")
    assert response.status_code == 400
    assert "round" in errors_of(response)
    # The table's token stops working with the round.
    assert world.client("table").post(URL, world.short(), format="json").status_code == 401


def test_malformed_json_is_a_400_on_body(world):
    response = world.client("table").post(URL, b'{"table": 1,', content_type="application/json")
    assert response.status_code == 400
    assert "body" in errors_of(response)
    form = world.client("table").post(URL, {"table": "1"})  # multipart: not JSON
    assert form.status_code == 415 and "body" in errors_of(form)


def test_nul_characters_and_huge_numbers_are_refused_before_storage(world):
    """A refused value is named by its path; deep nesting concerns the body as a whole."""
    for raw, field in (
        (b'{"table": 1, "trump": "o\\u0000ros"}', "trump"),
        (b'{"table": 1e999}', "table"),
        (b'{"trump": "\\ud800"}', "trump"),
        (b"[" * 5000 + b"]" * 5000, "body"),
    ):
        response = world.client("table").post(URL, raw, content_type="application/json")
        assert response.status_code == 400, raw[:40]
        assert field in errors_of(response)


def test_confirmed_result_sent_differently_is_a_409(world):
    world.client("table").post(URL, world.short(), format="json")
    world.client("table_ew").post(URL, world.short(), format="json")
    response = world.client("table").post(
        URL, world.short(totals={"NS": 30, "EW": 42}), format="json"
    )
    assert response.status_code == 409
    assert "confirmed" in errors_of(response)["non_field_errors"]


def test_correcting_ones_own_entry_needs_its_version(world):
    first = world.client("table").post(URL, world.short(), format="json").json()
    changed = world.short(totals={"NS": 30, "EW": 42})
    blind = world.client("table").post(URL, changed, format="json")
    assert blind.status_code == 409 and "version" in errors_of(blind)
    stale = world.client("table").post(
        URL, changed | {"version": first["version"] + 5}, format="json"
    )
    assert stale.status_code == 409 and "version" in errors_of(stale)
    ok = world.client("table").post(URL, changed | {"version": first["version"]}, format="json")
    assert ok.status_code == 200 and ok.json()["totals"] == {"NS": 30, "EW": 42}


def test_confirm_endpoint(world):
    created = world.client("table").post(URL, world.short(), format="json").json()
    url = f"{URL}/{created['id']}/confirm"
    own = world.client("table").post(url, {}, format="json")
    assert own.status_code == 403
    stale = world.client("table_ew").post(url, {"version": created["version"] + 1}, format="json")
    assert stale.status_code == 409 and "version" in errors_of(stale)
    ok = world.client("table_ew").post(url, {"version": created["version"]}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "confirmed"
    # What a confirmation writes (only its own fields), as stored.
    stored = BoardResult.objects.get(pk=created["id"])
    assert stored.status == BoardResult.Status.CONFIRMED and stored.confirmed_by
    assert stored.version == created["version"] + 1 == ok.json()["version"]
    assert stored.updated_at > stored.created_at
    assert (
        world.client("table_ew").post(f"{URL}/999999/confirm", {}, format="json").status_code == 404
    )


def test_confirming_a_disputed_result_is_a_409(world):
    world.client("table").post(URL, world.short(), format="json")
    result = (
        world.client("table_ew")
        .post(URL, world.short(totals={"NS": 20, "EW": 52}), format="json")
        .json()
    )
    response = world.client("organiser").post(f"{URL}/{result['id']}/confirm", {}, format="json")
    assert response.status_code == 409


def test_list_filters_and_detail_submissions(world):
    world.client("table").post(URL, world.short(board=1), format="json")
    world.client("table").post(URL, world.short(board=2), format="json")
    world.client("table_ew").post(URL, world.short(board=2), format="json")
    client = world.client("organiser")
    everything = client.get(URL).json()
    assert everything["count"] == 2
    assert client.get(URL, {"board": 2}).json()["count"] == 1
    assert client.get(URL, {"status": "confirmed"}).json()["results"][0]["board"] == 2
    assert client.get(URL, {"table": world.other.pk}).json()["count"] == 0
    assert (
        client.get(URL, {"event": world.event.pk, "round": world.table.round_id}).json()["count"]
        == 2
    )
    bad = client.get(URL, {"board": "x", "status": "nope"})
    assert bad.status_code == 400 and {"board", "status"} <= set(errors_of(bad))

    result = BoardResult.objects.get(board__number=2)
    detail = world.client("player").get(f"{URL}/{result.pk}").json()
    assert len(detail["submissions"]) == 2 == Submission.objects.filter(result=result).count()
    assert detail["submissions"][0]["data"]["totals"] == {"NS": 40, "EW": 32}


def test_results_of_an_open_round_are_hidden_from_others_until_it_closes(world):
    world.client("table").post(URL, world.short(board=1), format="json")
    world.client("table_ew").post(URL, world.short(board=1), format="json")
    assert world.client("anonymous").get(URL).json()["count"] == 0
    assert world.client("other_table").get(URL).json()["count"] == 0
    rnd = world.event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=Actor(user=world.users["organiser"]), accept_missing=True)
    public = world.client("anonymous").get(URL).json()
    assert public["count"] == 1
    detail = world.client("anonymous").get(f"{URL}/{public['results'][0]['id']}").json()
    assert detail["submissions"] is None  # the public sees the result, not who sent what


def test_a_token_confirms_for_its_own_side_only(world):
    entered = world.client("table").post("/api/v1/results", world.short(), format="json").json()
    url = f"/api/v1/results/{entered['id']}/confirm"
    own = world.client("table").post(url, {}, format="json")
    assert own.status_code == 403
    wrong = world.client("table").post(url, {"code": world.table.code_ns}, format="json")
    assert wrong.status_code == 400 and "code" in errors_of(wrong)
    other_tables = world.client("other_table").post(
        url, {"code": world.table.code_ew}, format="json"
    )
    # Another table's result of an open round answers as a missing id (docs/api.md).
    assert other_tables.status_code == 404
    assert BoardResult.objects.get().status == "entered"
    typed = world.client("table").post(url, {"code": world.table.code_ew}, format="json")
    assert typed.status_code == 200, typed.content
    result = BoardResult.objects.get()
    assert result.status == "confirmed" and result.confirmed_by.endswith("EW")


@pytest.mark.parametrize("lang", ["ca", "es", "en"])
def test_a_body_that_is_not_json_is_a_415_in_the_readers_language(
    world, settings, compiled_locale, lang
):
    settings.LOCALE_PATHS = [compiled_locale]
    response = world.client("table").post(
        URL, "table=1", content_type="text/plain", HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 415
    message = errors_of(response)["body"]
    with translation.override(lang):
        expected = _("The body must be JSON (Content-Type: application/json), not %(type)s.")
    assert message == expected % {"type": "text/plain"}
    assert lang == "en" or "Content-Type" in message and "must be JSON" not in message
