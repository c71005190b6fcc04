"""The pair's own evening pages (scorecard, standings, rulings in the table pages) on the
security scene: round 1 open, board 1 played by table 1 only, board 2 entered by table 1 and
disputed. Nobody learns another table's score of a board from them, nor any matchpoint or
standing of the open round, whoever opens them (the event's organiser included: the pages show
what the pair sees)."""

from __future__ import annotations

import re

import pytest

from tests.security.conftest import Scene
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

PAGES = ("scorecard", "standings", "rulings")


def _pages(scene: Scene, who: str, code: str) -> dict[str, str]:
    client = scene.web(who)
    out = {}
    for name in PAGES:
        response = client.get(f"/table/{code}/{name}/")
        assert response.status_code == 200, (who, name, response.status_code)
        out[name] = response.content.decode()
    return out


def test_a_table_that_has_not_played_a_board_learns_nothing_of_it(scene):
    standings_recompute(scene.event.pk)  # the open round's live snapshot exists
    assert scene.event.snapshots.filter(after_round=1).exists()
    pages = _pages(scene, "other_table", scene.world.other.code_ns)
    for name, body in pages.items():
        assert not re.search(r'data-board="[12]"', body), name
        assert "data-entry=" not in body, name  # no standings of the open round
    assert 'id="no-rulings"' in pages["rulings"]


@pytest.mark.parametrize("who", ["table", "organiser"])
def test_the_table_sees_its_own_boards_without_matchpoints_of_the_open_round(scene, who):
    standings_recompute(scene.event.pk)
    pages = _pages(scene, who, scene.world.table.code_ns)
    scorecard = pages["scorecard"]
    assert re.findall(r'<tr data-board="(\d+)"', scorecard)[:2] == ["1", "2"]
    assert 'class="mp"' not in scorecard  # the matchpoints' cell of a closed round
    assert "data-entry=" not in pages["standings"]
    assert 'data-board="2"' in pages["rulings"]  # its own dispute, waiting for the referee
