"""Attacks on the JSON reads (api/reads.py) and the pair's own evening pages at the table: in the
security scene round 1 is open, board 1 played by table 1 only and board 2 entered by it.
Nobody but table 1, its players and the event's staff learns a score of round 1 — not in the
crosstable, a scorecard, a traveller, the pair pages of table 2 — nor, from the wording or the
status of a refusal, which boards of the round have a result.
"""

from __future__ import annotations

import re

import pytest

from tests.security.conftest import Scene

OUTSIDERS = ["anonymous", "other_table", "other_organiser", "other_referee", "staff"]
API = "/api/v1"


def _api(scene: Scene, who: str, url: str):
    return scene.api(who).get(url)


@pytest.mark.django_db
@pytest.mark.parametrize("who", OUTSIDERS)
def test_no_score_of_the_open_round_in_the_json_reads(scene, who):
    pk = scene.event.pk
    cross = _api(scene, who, f"{API}/events/{pk}/crosstable")
    assert cross.status_code == 200
    body = cross.json()
    assert body["scored_round"] == 0
    for row in body["rows"]:
        assert row["match_points"] in (None, 0), row
        for cell in row["cells"]:
            if cell is not None:
                assert cell["points_for"] is None and cell["points_against"] is None, cell
                assert cell["outcome"] in (None, ""), cell
    for number in range(1, 5):
        card = _api(scene, who, f"{API}/events/{pk}/pairs/{number}/scorecard")
        assert card.status_code == 200, card.content
        data = card.json()
        assert data["lines"] == [] and data["history"] == [], (number, data)
        assert data["total_for"] in (None, 0) and data["total_against"] in (None, 0), data


@pytest.mark.django_db
@pytest.mark.parametrize("who", OUTSIDERS)
def test_a_travellers_refusal_says_nothing_of_which_boards_have_results(scene, who):
    """Board 1 has a result, board 2 a disputed one, board 3 none: the same refusal."""
    pk = scene.event.pk
    per_round = scene.event.boards_per_round
    answers = [
        _api(scene, who, f"{API}/events/{pk}/boards/{n}/traveller") for n in range(1, per_round + 1)
    ]
    statuses = {a.status_code for a in answers}
    assert len(statuses) == 1 and statuses <= {401, 403}, statuses
    worded = {re.sub(r"board \d+", "board N", a.json()["errors"][0]["message"]) for a in answers}
    assert len(worded) == 1, worded


@pytest.mark.django_db
def test_table_two_s_evening_pages_show_nothing_of_table_one(scene):
    """Table 2's pair pages (its scorecard, standings, rulings) and its match page: nothing of
    board 1's result at table 1, nor of the dispute on board 2."""
    web = scene.web("other_table")
    code = scene.world.other.code_ns
    played = scene.played
    for page in ("scorecard", "standings", "rulings"):
        response = web.get(f"/table/{code}/{page}/")
        assert response.status_code == 200, (page, response.status_code)
        text = response.content.decode()
        assert scene.dispute.reason not in text or page != "rulings"
        for value in {played.score_ns, played.score_ew} - {None, 0}:
            assert f">{value}<" not in text, (page, value)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_table", "anonymous", "other_organiser"])
def test_the_audit_trail_and_archive_are_refused_to_outsiders(scene, who):
    pk = scene.event.pk
    for url in (f"{API}/events/{pk}/audit", f"{API}/events/{pk}/archive"):
        answer = _api(scene, who, url)
        assert answer.status_code in (401, 403, 404), (url, answer.status_code)
        assert scene.event.seed not in answer.content.decode()
