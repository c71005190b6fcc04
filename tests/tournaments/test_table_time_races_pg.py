"""Time calls racing what they must not cross, on PostgreSQL with real threads: a phone entering
a board while the other phone says time was called before it (the board is never stored nor
shown; before, 7 races in 10 stored it: the check ran before the table's lock), and a time call
while the organiser closes the round (never stored in a closed round; before, up to 9 in 10:
the round's status was read through a join made before the table's lock was granted)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import start_four_pairs
from tests.tournaments.test_lifecycle_races_pg import _race, _refusals_only
from tests.tournaments.test_table_offline import holder, short
from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardResult, BoardUnlock, Event, Round, Table
from tournaments.services import clock, events

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _entered_while_time_is_called(organiser) -> bool:
    """One race; whether board 2 was stored or shown although time was called in deal 1."""
    event = start_four_pairs(organiser, boards_per_round=2)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    over = timezone.now() - datetime.timedelta(hours=3)
    rnd = event.rounds.get(number=1)
    clock.clock_start(rnd=rnd, actor=Actor(user=organiser), minutes=50, now=over)
    ns, ew = holder(table, "NS"), holder(table, "EW")
    time_url = reverse("table:table_time", args=[table.code_ew])
    _race(lambda: short(ns, table, n=2), lambda: ew.post(time_url, {"deal": "1"}))
    called = Table.objects.get(pk=table.pk).time_after == 1
    seen = BoardUnlock.objects.filter(table=table, board__number=2).exists()
    stored = BoardResult.objects.filter(table=table, board__number=2).exists()
    return called and (seen or stored)


def test_a_board_entered_while_time_is_called_before_it_is_never_stored(organiser):
    landed = [i for i in range(10) if _entered_while_time_is_called(organiser)]
    assert landed == []


def _time_called_after_the_close(organiser) -> bool:
    event = start_four_pairs(organiser, boards_per_round=2)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    rnd = event.rounds.get(number=1)
    over = timezone.now() - datetime.timedelta(hours=3)
    actor = Actor(user=organiser)
    clock.clock_start(rnd=rnd, actor=actor, minutes=50, now=over)
    ew = holder(table, "EW")
    time_url = reverse("table:table_time", args=[table.code_ew])
    page_round = Round.objects.select_related("event").get(pk=rnd.pk)
    _refusals_only(
        _race(
            lambda: events.round_close(rnd=page_round, actor=actor, accept_missing=True),
            lambda: ew.post(time_url, {"deal": "1"}),
        )
    )
    trail = list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", flat=True)
    )
    called = "table_time_called" in trail
    return called and trail.index("table_time_called") > trail.index("round_closed")


def test_time_is_never_called_at_a_table_of_a_round_closed_meanwhile(organiser):
    landed = [i for i in range(10) if _time_called_after_the_close(organiser)]
    assert landed == []


def _rulings_open_after_the_finish(organiser) -> bool:
    event = start_four_pairs(organiser, boards_per_round=2)
    actor = Actor(user=organiser)
    rnd = event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    page_round = Round.objects.select_related("event").get(pk=rnd.pk)  # as the page read it
    _refusals_only(
        _race(
            lambda: events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor),
            lambda: events.round_rulings(rnd=page_round, actor=actor, reopen=True, reason="late"),
        )
    )
    finished = Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    return finished and Round.objects.get(pk=rnd.pk).ruling_open


def test_rulings_are_never_left_open_on_a_finished_event(organiser):
    """docs/organisers.md: rulings end with the event (a round reopened for rulings while the
    event was being finished stayed open, its "End the rulings" refused ever after)."""
    landed = [i for i in range(10) if _rulings_open_after_the_finish(organiser)]
    assert landed == []
