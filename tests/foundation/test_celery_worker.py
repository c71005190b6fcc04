"""A real Celery worker, started by the test, bound to the test database and Redis (issue 2)."""

import pytest

from tests.conftest import wait_for
from tournaments.actors import Actor
from tournaments.models import StandingsSnapshot
from tournaments.services import results


def _play_round_one(event):
    for table in event.rounds.get(number=1).tables.all():
        for number in table.round.board_numbers:
            data = {
                "delegated": False,
                "trump": "oros",
                "doubles": [],
                "totals": {"NS": 40, "EW": 32},
            }
            results.result_submit_short(
                table=table, board_number=number, actor=Actor(table=table, side="NS"), data=data
            )
            results.result_submit_short(
                table=table, board_number=number, actor=Actor(table=table, side="EW"), data=data
            )


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_worker_computes_standings_that_land_in_the_database(celery_worker_process, running_event):
    _play_round_one(running_event)
    snapshot = wait_for(
        lambda: StandingsSnapshot.objects.filter(
            event=running_event, after_round=1, results_counted=4
        ).first(),
        timeout=30,
    )
    assert snapshot is not None, "the worker never stored the standings"
    ranks = {row["entry"]: row["rank"] for row in snapshot.rows}
    assert sorted(ranks.values()) == [1, 1, 3, 3]  # both NS pairs won both boards
    running_event.refresh_from_db()
    assert running_event.standings_updated_at >= running_event.standings_requested_at
