"""Another table's result id is answered exactly as an id that does not exist, on every route
that takes one (docs/api.md: "ids are sequential, and a 403 would tell when another table stores
one"): besides ``GET results/{id}``, ``play-records/{id}``, ``disputes/{id}`` and a dispute's
``rule`` / ``withdraw``, the writes that take a result id — confirming it, calling a referee on
it — tell table 2 nothing of whether table 1 has stored a result under that id."""

from __future__ import annotations

import pytest

from tournaments.models import BoardResult

pytestmark = pytest.mark.django_db


def _free_id() -> int:
    return (BoardResult.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1


def test_confirming_another_tables_result_answers_as_a_missing_id(scene):
    api = scene.api("other_table")
    existing = api.post(f"/api/v1/results/{scene.played.pk}/confirm", {}, format="json")
    missing = api.post(f"/api/v1/results/{_free_id()}/confirm", {}, format="json")
    assert missing.status_code == 404
    # Table 1's result of board 1 (its round open, table 2 has not played the board):
    assert (existing.status_code, existing.json()) == (missing.status_code, missing.json())


def test_calling_a_referee_on_another_tables_result_answers_as_a_missing_id(scene):
    api = scene.api("other_table")
    existing = api.post(
        "/api/v1/disputes", {"result": scene.played.pk, "reason": "x"}, format="json"
    )
    free = _free_id()
    missing = api.post("/api/v1/disputes", {"result": free, "reason": "x"}, format="json")
    assert missing.status_code in (400, 404)
    body = missing.json()
    # The same status and the same words (the id itself aside) whether or not the id exists.
    assert existing.status_code == missing.status_code
    assert str(existing.json()).replace(str(scene.played.pk), "N") == str(body).replace(
        str(free), "N"
    )
