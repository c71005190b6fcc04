"""The room's screen does not tell the room when a table of the open round stored a result.

Fair play: nobody learns of a board's scores before their table played it, nor when another
table finished one. The screen shows the standings of closed rounds and who sits where in the
open one; its version (the fragment's ETag) follows what it shows, not the open round's
standings, which move with every counted result (tests/security/test_round_progress_privacy.py
holds the standings page and API to the same)."""

import pytest
from django.urls import reverse
from django.utils import timezone as django_tz

from tournaments import public_selectors
from tournaments.actors import Actor
from tournaments.models import StandingsSnapshot, Table
from tournaments.services import events
from tournaments.services.results import result_confirm, result_submit_short
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

FIXED = django_tz.now().replace(second=30, microsecond=0)


class _Frozen:
    """django.utils.timezone for public_selectors only, with now() frozen: the version's
    minute cannot tick mid-test (snapshots keep their real computed_at)."""

    def __getattr__(self, name):
        return getattr(django_tz, name)

    @staticmethod
    def now():
        return FIXED


def _enter(table, board):
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 44, "EW": 28}}
    stored = result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
    )
    result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


def _round_2_open(event, organiser):
    event.published = True
    event.save(update_fields=["published"])
    actor = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    e = list(event.entries.order_by("number"))
    rnd2 = events.round_propose(
        event=event, actor=actor, number=2, tables=[(e[0].pk, e[2].pk), (e[1].pk, e[3].pk)]
    )
    events.round_open(rnd=rnd2, actor=actor)
    standings_recompute(event.pk)  # what the task does after each request (on commit)
    return rnd2


def test_the_screen_does_not_change_when_an_open_rounds_result_is_stored(
    client, monkeypatch, running_event, organiser
):
    monkeypatch.setattr(public_selectors, "timezone", _Frozen())
    event = running_event
    rnd2 = _round_2_open(event, organiser)
    url = reverse("public:screen", args=[event.pk]) + "?fragment=1"
    first = client.get(url)
    assert first.status_code == 200
    live_before = StandingsSnapshot.objects.get(event=event, after_round=2).computed_at
    # Nothing the screen shows changes: the standings after round 1, who sits where in round 2.
    _enter(Table.objects.get(round=rnd2, number=1), rnd2.board_numbers[0])
    standings_recompute(event.pk)
    live_after = StandingsSnapshot.objects.get(event=event, after_round=2).computed_at
    assert live_after != live_before  # the open round's standings did move
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    if again.status_code == 200:
        assert again.content == first.content  # nothing shown changed
    assert again.status_code == 304, (
        "the screen's ETag moved because a table of the open round stored a result"
    )


def test_the_screen_changes_when_a_round_closes(client, monkeypatch, running_event, organiser):
    """What the screen shows does move it: the standings after a round, once it closes."""
    monkeypatch.setattr(public_selectors, "timezone", _Frozen())
    event = running_event
    rnd2 = _round_2_open(event, organiser)
    url = reverse("public:screen", args=[event.pk]) + "?fragment=1"
    first = client.get(url)
    _enter(Table.objects.get(round=rnd2, number=1), rnd2.board_numbers[0])
    events.round_close(rnd=rnd2, actor=Actor(user=organiser), accept_missing=True)
    standings_recompute(event.pk)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert "Standings after round 2" in again.content.decode()
