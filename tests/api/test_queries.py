"""Lists read in a fixed number of queries, however many rows (no N+1)."""

import pytest

from tournaments.actors import Actor
from tournaments.services import disputes, results


@pytest.fixture
def busy(world):
    """Every board of round 1 entered at both tables, two of them disputed."""
    for table in (world.table, world.other):
        for board in (1, 2):
            out = results.result_submit_short(
                table=table,
                board_number=board,
                actor=Actor(table=table, side="NS"),
                data={"trump": "oros", "totals": {"NS": 40, "EW": 32}},
            )
            if board == 2:
                disputes.dispute_request(
                    result=out.result, actor=Actor(table=table, side="EW"), reason="check"
                )
    return world


@pytest.mark.parametrize(
    "url", ["/api/v1/results", "/api/v1/disputes", "/api/v1/events", "rounds", "tables"]
)
def test_lists_do_not_query_per_row(busy, url, django_assert_max_num_queries):
    world = busy
    url = {
        "rounds": f"/api/v1/events/{world.event.pk}/rounds",
        "tables": f"/api/v1/rounds/{world.table.round_id}/tables",
    }.get(url, url)
    client = world.client("organiser")
    client.get(url)  # warm up: the token lookup and the like
    with django_assert_max_num_queries(8):
        response = client.get(url)
    assert response.status_code == 200 and response.json()["count"] >= 1
