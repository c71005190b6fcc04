"""The public round page (/e/<pk>/rounds/<n>/) of the open round on the security scene (board 1
played by table 1 only): its match totals and match points are scores, shown only to the event's
organisers and referees until the round closes, as the standings are (tournaments.policy)."""

from __future__ import annotations

import re

import pytest

from tests.security.conftest import Scene
from tournaments.actors import Actor
from tournaments.services.results import result_confirm
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def _scored(scene: Scene) -> None:
    """Table 1's EW confirms board 1: the open round's live snapshot counts its score."""
    result_confirm(result=scene.played, actor=Actor(table=scene.world.table, side="EW"))
    standings_recompute(scene.event.pk)


def _match_cells(scene: Scene, who: str) -> dict[str, list[str]]:
    """Table number -> the four score cells of its row in the page's match list."""
    response = scene.web(who).get(f"/e/{scene.event.pk}/rounds/1/")
    assert response.status_code == 200, (who, response.status_code)
    body = response.content.decode()
    table = re.search(r'<table class="data matches">.*?</table>', body, re.S).group(0)
    rows = re.findall(r'<tr><th scope="row" class="num">(\d+)</th>(.*?)</tr>', table, re.S)
    return {n: re.findall(r'<td class="num">([^<]*)</td>', cells) for n, cells in rows}


@pytest.mark.parametrize("who", ["anonymous", "other_table", "table", "player", "other_organiser"])
def test_the_open_rounds_match_totals_reach_no_table_nor_the_public(scene, who):
    _scored(scene)
    assert scene.event.snapshots.get(after_round=1).matches
    cells = _match_cells(scene, who)
    assert set(cells) == {"1", "2"}
    assert all(values == ["—"] * 4 for values in cells.values()), (who, cells)


@pytest.mark.parametrize("who", ["organiser", "referee"])
def test_the_event_staff_see_the_live_match_totals(scene, who):
    _scored(scene)
    cells = _match_cells(scene, who)
    live = {m["table"]: m for m in scene.event.snapshots.get(after_round=1).matches}
    assert live[1]["boards_played"] == 1  # table 1 has stored board 1
    # Its totals as the live standings count them (its match is not over: no match points).
    assert cells["1"][:2] == [str(live[1]["total_ns"]), str(live[1]["total_ew"])], cells


def test_a_match_not_over_shows_no_match_points_even_to_the_staff(scene):
    _scored(scene)
    cells = _match_cells(scene, "organiser")
    assert cells["2"] == ["0", "0", "—", "—"], cells  # table 2 has played nothing: no 1-1 draw
    assert cells["1"][2:] == ["—", "—"], cells  # one board of six: the match is not over
