"""A record is JSON: a required key that is absent is said to be required, and a value the record
gave is quoted as JSON writes it (play-record.md: "each with the JSON path of the offending value
and a sentence a person understands"), never as Python's ``None``."""

import copy
import json
from pathlib import Path

import pytest

import engine
from engine.problems import ProblemCode

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "examples" / "00000-complete.json"
RECORD = json.loads(EXAMPLE.read_text())["record"]


def _with(path: str, value: object) -> dict:
    """The example record with the key at ``path`` removed (``value`` is ...) or set."""
    record = copy.deepcopy(RECORD)
    if path.startswith("doubles[0]"):
        call = {"seat": "E", "call": "contro"}
        record["deal"]["dealer"] = "N"
        record["doubles"] = [call]
        node, key = call, path.rsplit(".", 1)[1]
    else:
        *parents, key = path.split(".")
        node = record
        for p in parents:
            node = node[p]
    if value is ...:
        del node[key]
    else:
        node[key] = value
    return record


def _messages(record: dict) -> dict[str, str]:
    verdict = engine.replay(record).to_json()
    assert verdict["outcome"] == "invalid"
    return {p["path"]: p["message"] for p in verdict["problems"]}


@pytest.mark.parametrize(
    ("path", "required"),
    [
        ("choice.trump", "trump is required"),
        ("deal.dealer", "dealer is required"),
        ("doubles[0].call", "call is required"),
        ("doubles[0].seat", "seat is required"),
    ],
)
def test_a_missing_key_is_said_to_be_required(path, required):
    message = _messages(_with(path, ...))[path]
    assert message.startswith(required), message
    assert "None" not in message


@pytest.mark.parametrize("path", ["choice.trump", "deal.dealer", "doubles[0].call"])
@pytest.mark.parametrize(("value", "written"), [(None, "null"), (True, "true")])
def test_a_wrong_value_is_quoted_as_json_writes_it(path, value, written):
    message = _messages(_with(path, value))[path]
    assert message.startswith(f"{written} is not a"), message


def test_every_new_code_speaks_catalan_and_spanish():
    from django.utils import translation

    from tournaments.labels import problem_text

    codes = [
        ProblemCode.TRUMP_MISSING,
        ProblemCode.DEALER_MISSING,
        ProblemCode.CALL_MISSING,
        ProblemCode.SEAT_MISSING,
    ]
    for lang, word in (("ca", "Digues"), ("es", "Di ")):
        with translation.override(lang):
            for code in codes:
                assert problem_text(engine.Problem(code, {}, "x")).startswith(word), code


def test_an_unknown_ruleset_is_its_one_problem_not_a_sant_vicenc_refusal_too():
    record = _with("ruleset", "Obligada")
    record["choice"] = {"delegated": False, "trump": "botifarra"}
    dealer = record["deal"]["dealer"]
    order = ["N", "E", "S", "W"]
    opponent = order[(order.index(dealer) + 1) % 4]
    partner = order[(order.index(dealer) + 2) % 4]
    record["doubles"] = [
        {"seat": opponent, "call": "contro"},
        {"seat": partner, "call": "recontro"},
        {"seat": opponent, "call": "sant_vicenc"},
    ]
    assert list(_messages(record)) == ["ruleset"]
