"""The schema-conformance check (tests/contract.py) catches what issue 15 found: it fails on an
undocumented status, a "" where the schema says an enum or null, an undocumented field, and a
time that is not ISO 8601."""

import json

from tests import contract


def _problems(method, path, status, body):
    return contract.problems(method, path, status, "application/json", json.dumps(body).encode())


def _token_answer(**extra):
    body = {
        "token": "t",
        "table": 1,
        "table_number": 1,
        "event": 1,
        "round": 1,
        "round_id": 1,
        "side": "NS",
        "expires": "2026-12-01T22:00:00Z",
    }
    return body | extra


def test_a_conforming_answer_passes(db):
    assert _problems("post", "/api/v1/table-token", 200, _token_answer()) == []


def test_a_sentence_for_a_time_fails(db):
    found = _problems("post", "/api/v1/table-token", 200, _token_answer(expires="when it closes"))
    assert found and "date-time" in found[0]


def test_an_undocumented_field_fails(db):
    assert _problems("post", "/api/v1/table-token", 200, _token_answer(secret="x"))


def test_an_empty_string_for_an_enum_fails(db):
    assert _problems("post", "/api/v1/table-token", 200, _token_answer(side=""))


def test_an_undocumented_status_fails(db):
    error = {"detail": "x", "errors": [{"field": "body", "message": "x"}]}
    found = _problems("post", "/api/v1/table-token", 418, error)
    assert found and "not documented" in found[0]


def test_paths_are_matched_with_their_parameters(db):
    error = {"detail": "x", "errors": [{"field": "non_field_errors", "message": "x"}]}
    assert _problems("get", "/api/v1/events/12/standings", 404, error) == []
    assert _problems("get", "/api/v1/events/12/standings", 404, {"detail": "x"})
