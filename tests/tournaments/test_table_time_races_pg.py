"""A phone entering a board while the other phone says time was called before it, through the
table's pages, on PostgreSQL with real threads: the board the time call took away is never
stored nor shown (before, 7 races in 10 stored it: the check ran before the table's lock)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import start_four_pairs
from tests.tournaments.test_lifecycle_races_pg import _race
from tests.tournaments.test_table_offline import holder, short
from tournaments.actors import Actor
from tournaments.models import BoardResult, BoardUnlock, Table
from tournaments.services import clock

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
