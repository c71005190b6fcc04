"""A submission's transaction inside a caller's (the Idempotency-Key's): no savepoint, and a
refusal leaves the caller's transaction as it was and usable (a page shows the refusal)."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardResult, Submission
from tournaments.services import Conflict, results

DATA = {"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 40, "EW": 32}}


def _table(event):
    return event.rounds.get(number=1).tables.order_by("number").first()


def _submit(table, side="NS", data=DATA):
    return results.result_submit_short(
        table=table, board_number=1, actor=Actor(table=table, side=side), data=data
    )


def _counts():
    return (BoardResult.objects.count(), Submission.objects.count(), AuditEntry.objects.count())


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_a_refusal_changes_nothing_and_the_caller_goes_on(
    running_event,
):
    table = _table(running_event)
    with transaction.atomic():
        _submit(table)
        before = _counts()
        # The same side again, without the version: refused.
        with CaptureQueriesContext(connection) as queries, pytest.raises(Conflict):
            _submit(table, data=DATA | {"totals": {"NS": 30, "EW": 42}})
        assert not any("SAVEPOINT" in q["sql"] for q in queries.captured_queries)
        # The caller's transaction is usable, and holds exactly what it held.
        assert _counts() == before
        result = BoardResult.objects.get()
        assert (result.totals_ns, result.version) == (40, 1)
    assert BoardResult.objects.get().totals_ns == 40


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_a_database_error_spoils_it(running_event, monkeypatch):
    """Any other error leaves the caller's transaction to roll back whole: what the submission
    wrote before failing (the board's unlock) is not kept, even by a caller that goes on."""
    from django.db import DatabaseError
    from django.db.transaction import TransactionManagementError

    from tournaments.models import BoardUnlock

    table = _table(running_event)
    before = (_counts(), BoardUnlock.objects.count())

    def failing(objs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(results, "insert_linked", failing)
    with transaction.atomic():
        with pytest.raises(DatabaseError):
            _submit(table)
        with pytest.raises(TransactionManagementError):
            BoardUnlock.objects.count()  # the caller cannot go on in a spoilt transaction
    assert (_counts(), BoardUnlock.objects.count()) == before


@pytest.mark.django_db(transaction=True)
def test_on_its_own_a_submission_is_its_own_transaction(running_event):
    table = _table(running_event)
    outcome = _submit(table)
    assert outcome.created and BoardResult.objects.get().version == 1
    with pytest.raises(Conflict):
        _submit(table, data=DATA | {"totals": {"NS": 30, "EW": 42}})
    assert BoardResult.objects.get().totals_ns == 40
