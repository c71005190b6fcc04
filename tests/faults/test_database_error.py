"""A database error in the middle of a submission leaves nothing half-written.

PostgreSQL itself fails the write: a trigger raises (as a full disk would, SQLSTATE 53100) on
one of the tables a submission writes after its BoardResult row. Every row of that call must be
gone (result, submission, play record, dispute, audit entry, the standings' stale mark), a
result stored before must be unchanged, and the same submission must succeed once the database
is back.
"""

import random

import pytest
from django.db import DatabaseError, connection
from django.forms.models import model_to_dict
from django.urls import reverse

from tests.plays import ew, ns
from tournaments import play as adapter
from tournaments.models import (
    AuditEntry,
    BoardResult,
    Dispute,
    Event,
    PlayRecord,
    Submission,
)
from tournaments.services import results

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITTEN = (BoardResult, Submission, PlayRecord, Dispute, AuditEntry)
SHORT = {"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 40, "EW": 32}}
OTHER = {"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 30, "EW": 42}}


@pytest.fixture
def fail_writes(transactional_db):
    """``fail_writes(Model, "INSERT"|"UPDATE")``: PostgreSQL refuses such writes until the end."""
    armed: list[tuple[str, str]] = []
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE OR REPLACE FUNCTION faults_fail() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'simulated failure writing %', TG_TABLE_NAME "
            "USING ERRCODE = '53100'; END $$ LANGUAGE plpgsql"
        )

    def arm(model, operation: str = "INSERT") -> None:
        table = model._meta.db_table
        name = f"faults_fail_{operation.lower()}_{table}"
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TRIGGER {name} BEFORE {operation} ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION faults_fail()"
            )
        armed.append((name, table))

    def disarm() -> None:
        with connection.cursor() as cursor:
            while armed:
                name, table = armed.pop()
                cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")

    arm.disarm = disarm  # type: ignore[attr-defined]
    yield arm
    disarm()
    with connection.cursor() as cursor:
        cursor.execute("DROP FUNCTION IF EXISTS faults_fail()")


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in WRITTEN}


def stale_mark(event) -> object:
    return Event.objects.values_list("standings_requested_at", flat=True).get(pk=event.pk)


def legal_record(table, number: int) -> dict:
    board = table.round.event.boards.get(number=number)
    return adapter.record(
        board, trump="copes", cards=adapter.random_play(board, "copes", random.Random(7))
    )


def submit_short(table, actor, data=SHORT):
    return results.result_submit_short(table=table, board_number=1, actor=actor, data=data)


def submit_record(table, actor):
    return results.result_submit_play_record(
        table=table, board_number=1, actor=actor, record=legal_record(table, 1)
    )


@pytest.mark.parametrize("failing", [AuditEntry, Submission], ids=["audit", "submission"])
def test_a_first_short_result_is_all_or_nothing(table1, fail_writes, failing):
    before, mark = counts(), stale_mark(table1.round.event)
    fail_writes(failing)
    with pytest.raises(DatabaseError, match="simulated failure"):
        submit_short(table1, ns(table1))
    assert counts() == before
    assert stale_mark(table1.round.event) == mark
    fail_writes.disarm()
    outcome = submit_short(table1, ns(table1))  # the table tries again: it works, once
    assert outcome.created and BoardResult.objects.count() == 1


@pytest.mark.parametrize(
    "failing", [PlayRecord, Submission, AuditEntry], ids=["play_record", "submission", "audit"]
)
def test_a_play_record_is_all_or_nothing(table1, fail_writes, failing):
    before = counts()
    fail_writes(failing)
    with pytest.raises(DatabaseError, match="simulated failure"):
        submit_record(table1, ns(table1))
    assert counts() == before
    fail_writes.disarm()
    outcome = submit_record(table1, ns(table1))
    assert outcome.result.source == BoardResult.Source.PLAY_RECORD
    assert PlayRecord.objects.count() == 1


@pytest.mark.parametrize(
    ("failing", "operation", "data"),
    [
        (Submission, "INSERT", SHORT),  # the confirmation's submission row
        (AuditEntry, "INSERT", SHORT),  # the confirmation's audit entry
        (Dispute, "INSERT", OTHER),  # a differing entry opens a dispute
    ],
    ids=["confirm-submission", "confirm-audit", "dispute"],
)
def test_a_stored_result_is_unchanged_when_the_second_entry_fails(
    table1, fail_writes, failing, operation, data
):
    first = submit_short(table1, ns(table1)).result
    stored = model_to_dict(BoardResult.objects.get(pk=first.pk))
    before, mark = counts(), stale_mark(table1.round.event)
    fail_writes(failing, operation)
    with pytest.raises(DatabaseError, match="simulated failure"):
        submit_short(table1, ew(table1), data)
    assert model_to_dict(BoardResult.objects.get(pk=first.pk)) == stored
    assert counts() == before
    assert stale_mark(table1.round.event) == mark
    fail_writes.disarm()
    result = submit_short(table1, ew(table1), data).result
    assert result.status == (
        BoardResult.Status.CONFIRMED if data is SHORT else BoardResult.Status.DISPUTED
    )
    assert result.version == first.version + 1


def test_a_failed_stale_mark_after_commit_keeps_the_result_and_the_standings_know(
    table1, fail_writes
):
    """The stale mark is written after the result commits (it is one hot row for every table):
    if it fails, the confirmed result stays, and the standings still see the change."""
    from tournaments.scoring_io import standings_stale
    from tournaments.services.standings import standings_recompute

    first = submit_short(table1, ns(table1)).result
    standings_recompute(table1.round.event_id)
    assert not standings_stale(Event.objects.get(pk=table1.round.event_id))
    fail_writes(Event, "UPDATE")
    result = submit_short(table1, ew(table1), SHORT).result
    assert result.pk == first.pk and result.status == BoardResult.Status.CONFIRMED
    assert standings_stale(Event.objects.get(pk=table1.round.event_id))


def test_a_failed_confirmation_leaves_the_entered_result(table1, fail_writes):
    first = submit_short(table1, ns(table1)).result
    stored = model_to_dict(BoardResult.objects.get(pk=first.pk))
    before = counts()
    fail_writes(AuditEntry)
    with pytest.raises(DatabaseError):
        results.result_confirm(result=first, actor=ew(table1))
    assert model_to_dict(BoardResult.objects.get(pk=first.pk)) == stored
    assert counts() == before
    fail_writes.disarm()
    assert results.result_confirm(result=first, actor=ew(table1)).status == "confirmed"


def _table_client(client, table, side):
    response = client.post(reverse("table:enter"), {"code": table.code_for(side)})
    assert response.status_code == 302, response.content[:500]
    return client


def test_the_table_page_answers_an_error_and_writes_nothing(client, table1, fail_writes):
    """Through the web: the page fails (5xx), nothing is stored, sending again works."""
    _table_client(client, table1, "NS")
    client.raise_request_exception = False
    form = {
        "delegated": "0",
        "trump": "copes",
        "outcome": "played",
        "totals_ns": "40",
        "totals_ew": "32",
    }
    url = reverse("table:board_short", args=[table1.code_ns, 1])
    before = counts()
    fail_writes(AuditEntry)
    response = client.post(url, form)
    assert response.status_code >= 500
    assert counts() == before
    fail_writes.disarm()
    response = client.post(url, form)
    assert response.status_code == 302
    assert BoardResult.objects.filter(table=table1).count() == 1
    assert Submission.objects.count() == 1


def test_the_api_answers_an_error_writes_nothing_and_the_same_key_works_again(
    client, table1, fail_writes
):
    """An API client retrying with the same Idempotency-Key gets its result stored once."""
    from api.authentication import table_token

    client.raise_request_exception = False
    body = {"table": table1.pk, "board": 1, "trump": "copes", "totals": {"NS": 40, "EW": 32}}
    headers = {
        "HTTP_AUTHORIZATION": f"Table {table_token(table1, 'NS')}",
        "HTTP_IDEMPOTENCY_KEY": "retry-after-db-error",
    }
    before = counts()
    fail_writes(Submission)
    response = client.post("/api/v1/results", body, content_type="application/json", **headers)
    assert response.status_code == 503
    assert "nothing was stored" in response.json()["detail"]
    assert counts() == before
    fail_writes.disarm()
    response = client.post("/api/v1/results", body, content_type="application/json", **headers)
    assert response.status_code == 201, response.content[:500]
    again = client.post("/api/v1/results", body, content_type="application/json", **headers)
    assert again.status_code == 201 and again.json() == response.json()  # replayed, not redone
    assert BoardResult.objects.count() == 1 and Submission.objects.count() == 1
