"""Two devices of one table submitting the same board at the same moment, on PostgreSQL (real
row locks): never two results, never a half-written one. Run with
DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_api."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tournaments.models import AuditEntry, BoardResult, IdempotentResponse, Submission, Table

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


def test_a_submission_locks_its_table_and_result_only(world):
    """While one table's submission is being written, nothing else of the event waits for it:
    its round, its event and the board (played at every table) stay unlocked, and another table
    submits the same board at once. (A lock without ``of`` also locks every row its ordering
    joins: the round, the event, the board.)"""
    from django.db import transaction

    from tournaments.actors import Actor
    from tournaments.models import Board, Event, Round
    from tournaments.services import results

    board = Board.objects.get(event=world.table.round.event, number=1)
    seen = {}

    def meanwhile():
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                for model, pk in (
                    (Round, world.table.round_id),
                    (Event, world.table.round.event_id),
                    (Board, board.pk),
                ):
                    cursor.execute(
                        f'SELECT id FROM "{model._meta.db_table}" WHERE id = %s FOR UPDATE NOWAIT',
                        [pk],
                    )
                    seen[model.__name__] = cursor.fetchone()[0] == pk
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '5s'")
            response = world.client("other_table").post(
                "/api/v1/results", world.short() | {"table": world.other.pk}, format="json"
            )
            seen["other table"] = response.status_code
        finally:
            connection.close()

    with transaction.atomic():
        results.result_submit_short(
            table=world.table,
            board_number=1,
            actor=Actor(table=world.table, side="NS"),
            data={k: v for k, v in world.short().items() if k not in ("table", "board")},
        )
        thread = threading.Thread(target=meanwhile)
        thread.start()
        thread.join(timeout=30)
    assert seen == {"Round": True, "Event": True, "Board": True, "other table": 201}
    assert BoardResult.objects.filter(board=board).count() == 2


def _sent_while_the_round_closes(world, send):
    """``send()`` (a request) made while every table of the round is locked, as round_close
    locks them; the round closes once the request waits for its table. What it answered."""
    from django.db import transaction

    from tournaments.models import Round

    seen = {}

    def request():
        try:
            response = send()
            seen["status"], seen["body"] = response.status_code, response.json()
        except BaseException as exc:
            seen["error"] = repr(exc)
        finally:
            connection.close()

    with transaction.atomic():
        # As round_close does: every table's lock, then the round's status.
        list(Table.objects.select_for_update(of=("self",)).filter(round=world.table.round))
        thread = threading.Thread(target=request)
        thread.start()
        with connection.cursor() as cursor:
            for _ in range(200):  # until the request waits for the table's lock
                # (pg_stat_activity is read once per transaction unless told to read again)
                cursor.execute("SELECT pg_stat_clear_snapshot()")
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                if cursor.fetchone()[0]:
                    break
                time.sleep(0.05)
            else:
                raise AssertionError(f"the request never waited for the table's lock: {seen}")
        Round.objects.filter(pk=world.table.round_id).update(status=Round.Status.CLOSED)
    thread.join(timeout=30)
    return seen


def test_a_round_closed_while_a_submission_waits_for_its_table_refuses_it(world):
    """The submission's reads after the table's lock are one round trip (``read_together``)
    but statements of their own: the round's status read once the lock is granted is the
    closed one, not what the round was when the statement string was sent."""
    client = world.client("table")  # its token's row needs the table's row: made before
    seen = _sent_while_the_round_closes(
        world, lambda: client.post("/api/v1/results", world.short(), format="json")
    )
    assert seen["status"] == 400, seen
    assert seen["body"]["errors"][0]["field"] == "round", seen
    assert not BoardResult.objects.exists()


def test_a_round_closed_while_a_confirmation_waits_for_its_table_refuses_it(world):
    """The same for a table confirming with its own token, whose result is read in the round
    trip that locks the table (``results.result_confirm_at_table``)."""
    entered = world.client("table").post("/api/v1/results", world.short(), format="json")
    assert entered.status_code == 201, entered.content
    client = world.client("table_ew")
    seen = _sent_while_the_round_closes(
        world,
        lambda: client.post(
            f"/api/v1/results/{entered.json()['id']}/confirm",
            {},
            format="json",
            HTTP_IDEMPOTENCY_KEY="confirm-1",
        ),
    )
    assert seen["status"] == 400, seen
    assert seen["body"]["errors"][0]["field"] == "round", seen
    assert BoardResult.objects.get().status == BoardResult.Status.ENTERED


def test_a_request_withdrawn_while_the_other_pair_enters_the_board_is_refused(world, monkeypatch):
    """referees.md: a request cannot be withdrawn once a result was sent after it. The other
    pair's entry still under way (holding the result's lock) must be seen, not lost."""
    from tournaments.actors import Actor
    from tournaments.models import Dispute
    from tournaments.services import Conflict, disputes, results

    table = world.table
    ns, ew = Actor(table=table, side="NS"), Actor(table=table, side="EW")
    short = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 44, "EW": 28}}
    results.result_submit_short(table=table, board_number=1, actor=ns, data=short)
    result = BoardResult.objects.get(table=table, board__number=1)
    called = disputes.dispute_request(result=result, actor=ns, reason="we made a mistake")
    real, inside, out = results.insert_linked, threading.Event(), {}

    def slow(rows):
        inside.set()
        time.sleep(1.0)  # the entry holds the table's and the result's locks meanwhile
        return real(rows)

    monkeypatch.setattr(results, "insert_linked", slow)

    def submit():
        try:
            other = short | {"totals": {"NS": 30, "EW": 42}}
            results.result_submit_short(table=table, board_number=1, actor=ew, data=other)
            out["submit"] = "stored"
        finally:
            connection.close()

    def withdraw():
        inside.wait(10)
        time.sleep(0.2)
        try:
            disputes.dispute_withdraw(dispute=Dispute.objects.get(pk=called.pk), actor=ns)
            out["withdraw"] = "withdrawn"
        except Conflict:
            out["withdraw"] = "refused"
        finally:
            connection.close()

    threads = [threading.Thread(target=submit), threading.Thread(target=withdraw)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert out == {"submit": "stored", "withdraw": "refused"}
    assert Dispute.objects.get(pk=called.pk).status == Dispute.Status.OPEN
    assert Submission.objects.filter(result=result).count() == 2
