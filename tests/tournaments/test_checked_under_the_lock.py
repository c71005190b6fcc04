"""What a table's request checked before it took the table's lock is checked again under it
when another change may have moved it meanwhile: each test hands the service the table as the
request read it before that change committed (the race that real threads found on PostgreSQL:
a phone entering a board while the other phone, or the organiser, called time)."""

import datetime

import pytest
from django.utils import timezone

from tests.conftest import start_four_pairs
from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardResult, BoardUnlock, Table
from tournaments.services import NotAllowed, ServiceError, clock, disputes, events
from tournaments.services.results import board_declare_played, result_submit_short

pytestmark = pytest.mark.django_db

SHORT = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 45, "EW": 27}}


def _table(event, number=1) -> Table:
    """The table as a request reads it (a new object each time)."""
    return Table.objects.select_related("round__event").get(round__event=event, number=number)


@pytest.fixture
def clock_over(organiser):
    event = start_four_pairs(organiser, boards_per_round=5, round_minutes=50)
    long_ago = timezone.now() - datetime.timedelta(minutes=55)
    clock.clock_start(rnd=event.rounds.get(number=1), actor=Actor(user=organiser), now=long_ago)
    return event


def test_a_board_after_a_time_called_meanwhile_is_refused_and_its_cards_stay_hidden(clock_over):
    read_by_the_entry, read_by_the_unlock = _table(clock_over), _table(clock_over)
    called = _table(clock_over)
    clock.table_time_called(table=called, actor=Actor(table=called, side="EW"), deal=1)
    with pytest.raises(ServiceError, match="board 2 is not played"):
        result_submit_short(
            table=read_by_the_entry,
            board_number=2,
            actor=Actor(table=read_by_the_entry, side="NS"),
            data=SHORT,
        )
    with pytest.raises(ServiceError, match="board 2 is not played"):
        board_declare_played(
            table=read_by_the_unlock,
            board_number=2,
            actor=Actor(table=read_by_the_unlock, side="EW"),
        )
    assert not BoardResult.objects.filter(table=called, board__number=2).exists()
    assert not BoardUnlock.objects.filter(table=called, board__number=2).exists()
    # The deal in progress when time was called is still entered.
    entered = result_submit_short(
        table=read_by_the_entry,
        board_number=1,
        actor=Actor(table=read_by_the_entry, side="NS"),
        data=SHORT,
    )
    assert entered.created


def test_a_referee_call_or_a_time_call_let_in_before_new_codes_is_refused(running_event, organiser):
    """docs/organisers.md: new codes stop the old ones, and every phone that used them, at
    once; a request holding them that waited for the table's lock stores nothing."""
    let_in = _table(running_event)
    result = result_submit_short(
        table=let_in, board_number=1, actor=Actor(table=let_in, side="NS"), data=SHORT
    ).result
    events.table_new_codes(table=_table(running_event), actor=Actor(user=organiser))
    trail = AuditEntry.objects.count()
    with pytest.raises(NotAllowed, match="renewed meanwhile"):
        disputes.dispute_request(
            result=BoardResult.objects.get(pk=result.pk),
            actor=Actor(table=let_in, side="EW"),
            reason="A revoke",
        )
    with pytest.raises(NotAllowed, match="renewed meanwhile"):
        clock.table_time_called(table=let_in, actor=Actor(table=let_in, side="EW"), deal=1)
    assert BoardResult.objects.get(pk=result.pk).status == BoardResult.Status.ENTERED
    assert AuditEntry.objects.count() == trail
