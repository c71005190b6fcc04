"""Two devices of one table submitting the same board at the same moment, on PostgreSQL (real
row locks): never two results, never a half-written one. Run with
DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_api."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tournaments.models import AuditEntry, BoardResult, IdempotentResponse, Submission

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(calls):
    """Run each (client, url, body, headers) in its own thread, released together."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        client, url, body, headers = call
        try:
            barrier.wait(timeout=10)
            response = client.post(url, body, format="json", **headers)
            return response.status_code, response.content
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.mark.parametrize("agree", [True, False], ids=["same", "different"])
def test_both_pairs_submit_the_same_board_at_once(world, agree):
    outcomes = []
    for table, ns, ew in ((world.table, "table", "table_ew"), (world.other, "other_table", None)):
        for board in (1, 2):
            first = world.short(board=board) | {"table": table.pk}
            second = first if agree else first | {"totals": {"NS": 30, "EW": 42}}
            ns_client = world.client(ns, side="NS")
            ew_client = world.client(ew) if ew else world.client(ns, side="EW")
            outcomes.append(
                (
                    board,
                    table,
                    _race(
                        [
                            (ns_client, "/api/v1/results", first, {}),
                            (ew_client, "/api/v1/results", second, {}),
                        ]
                    ),
                )
            )
    for board, table, responses in outcomes:
        codes = sorted(code for code, _ in responses)
        assert codes == [200, 201], responses  # exactly one created, the other confirmed/disputed
        results = list(BoardResult.objects.filter(table=table, board__number=board))
        assert len(results) == 1
        result = results[0]
        assert result.status == ("confirmed" if agree else "disputed")
        assert result.version == 2 and result.multiplier >= 1
        assert result.score_ns is not None and result.totals_ns is not None
        assert Submission.objects.filter(result=result).count() == 2
        assert AuditEntry.objects.filter(result=result, action="result_entered").count() == 1


def test_the_same_idempotency_key_at_once_runs_once(world):
    client_a, client_b = world.client("table"), world.client("table")
    headers = {"HTTP_IDEMPOTENCY_KEY": "same-moment"}
    responses = _race(
        [
            (client_a, "/api/v1/results", world.short(), headers),
            (client_b, "/api/v1/results", world.short(), headers),
        ]
    )
    assert [code for code, _ in responses] == [201, 201]
    assert responses[0][1] == responses[1][1]
    assert BoardResult.objects.count() == 1 and Submission.objects.count() == 1
    assert IdempotentResponse.objects.count() == 1


def test_a_play_record_and_a_short_result_at_once(world):
    record = world.record(1)
    responses = _race(
        [
            (
                world.client("table"),
                "/api/v1/play-records",
                {"table": world.table.pk, "board": 1, "record": record},
                {},
            ),
            (world.client("table_ew"), "/api/v1/results", world.short(), {}),
        ]
    )
    assert sorted(code for code, _ in responses) == [200, 201]
    result = BoardResult.objects.get()
    assert result.status in ("disputed", "confirmed")
    assert Submission.objects.filter(result=result).count() == 2
