"""The live pages' versions (their ETags): a poll gets a 304 only while the fragment would
show the same; each change below used to leave the version as it was until the next minute."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone as django_tz

from tournaments import public_selectors, selectors
from tournaments.actors import Actor
from tournaments.models import Table
from tournaments.services import changes, clock
from tournaments.services.results import result_confirm, result_submit_short

pytestmark = pytest.mark.django_db

DATA = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
FIXED = django_tz.now().replace(second=30, microsecond=0)


class _Frozen:
    """django.utils.timezone with now() frozen: the version's minute cannot tick mid-test."""

    def __getattr__(self, name):
        return getattr(django_tz, name)

    @staticmethod
    def now():
        return FIXED


@pytest.fixture(autouse=True)
def frozen_minute(monkeypatch):
    monkeypatch.setattr(selectors, "timezone", _Frozen())
    monkeypatch.setattr(public_selectors, "timezone", _Frozen())


def _table(event, number=1):
    return Table.objects.select_related("round__event", "ns__pair", "ew__pair").get(
        round__event=event, round__number=1, number=number
    )


def _enter(table, board, side="NS"):
    return result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side=side), data=DATA
    )


def _changed(client, url, etag):
    return client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_console_changes_when_a_forfeit_moves_to_the_other_side(
    client, organiser, running_event
):
    actor = Actor(user=organiser)
    client.force_login(organiser)
    url = reverse("tournaments:round_console", args=[running_event.pk, 1])
    table = _table(running_event)
    changes.entry_withdraw(entry=table.ns, actor=actor, reason="ill")
    etag = client.get(url)["ETag"]
    assert not _changed(client, url, etag)
    changes.entry_reinstate(entry=table.ns, actor=actor)
    changes.entry_withdraw(entry=table.ew, actor=actor, reason="ill too")
    assert _changed(client, url, etag)


@pytest.fixture
def late_round(running_event, organiser):
    """Round 1's clock ran out twenty minutes ago."""
    clock.clock_start(
        rnd=running_event.rounds.get(number=1),
        actor=Actor(user=organiser),
        minutes=10,
        now=django_tz.now() - datetime.timedelta(minutes=30),
    )
    return running_event


def test_the_referee_queue_changes_when_a_table_finishes_after_time(client, referee, late_round):
    client.force_login(referee)
    url = reverse("referee:queue_fragment", args=[late_round.pk])
    etag = client.get(url)["ETag"]
    table = _table(late_round)
    stored = _enter(table, 1)
    result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    assert _changed(client, url, etag)


def test_the_referee_queue_changes_when_a_table_says_when_time_was_called(
    client, referee, late_round
):
    table = _table(late_round)
    _enter(table, 1)
    client.force_login(referee)
    url = reverse("referee:queue_fragment", args=[late_round.pk])
    etag = client.get(url)["ETag"]
    clock.table_time_called(table=table, actor=Actor(table=table, side="NS"), deal=2)
    assert _changed(client, url, etag)


def test_the_rooms_screen_changes_when_a_player_is_replaced(client, organiser, running_event):
    running_event.published = True
    running_event.save(update_fields=["published"])
    url = reverse("public:screen", args=[running_event.pk]) + "?fragment=1"
    etag = client.get(url)["ETag"]
    assert not _changed(client, url, etag)
    changes.player_substitute(
        entry=_table(running_event).ns, actor=Actor(user=organiser), seat=1, name="Zacaries"
    )
    assert _changed(client, url, etag)
    assert "Zacaries" in client.get(url).content.decode()
