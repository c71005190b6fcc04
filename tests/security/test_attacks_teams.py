"""Attacks on a team event's match pages: a board of a match shows once both its tables have a
result, never one table's alone — not even a referee's adjusted score at one table (average
plus, minus), nor through the running totals of a later board that both tables entered."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.teams.conftest import actor, team_event  # noqa: F401 - the teams tests' fixture
from tests.teams.test_team_pages import enter, table_client
from tournaments.actors import Actor
from tournaments.models import BoardResult, Event, Ruling, TeamMatch
from tournaments.services import disputes, events
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(actor):  # noqa: F811
    """Round 1 open; at the open room board 1 is entered then given average plus / minus by the
    referee; board 2 is entered at both tables. The closed room has not played board 1."""
    event = team_event(actor, 2, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    pairings_propose(event.pk, 1, actor=actor)
    events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    m = TeamMatch.objects.get(round__event=event)
    enter(m.open_table, 1, 50)
    result = BoardResult.objects.get(table=m.open_table, board__number=1)
    dispute = disputes.dispute_request(
        result=result, actor=Actor(table=m.open_table, side="EW"), reason="check"
    )
    disputes.dispute_rule(
        dispute=dispute,
        actor=actor,
        kind=Ruling.Kind.ADJUSTED,
        explanation="fouled board",
        data={"adjusted_ns": "avg_plus", "adjusted_ew": "avg_minus"},
    )
    assert BoardResult.objects.get(pk=result.pk).adjusted_ns == "avg_plus"
    enter(m.open_table, 2, 40)
    enter(m.closed_table, 2, 40)  # board 2: the same score, no units
    return Event.objects.get(pk=event.pk), m


def _board_row(html: str, board: int) -> str:
    found = re.search(rf'<tr data-board="{board}"[^>]*>.*?</tr>', html, re.S)
    assert found, html
    return found.group(0)


def test_the_closed_room_learns_nothing_of_an_adjusted_score_at_the_open_room(match):
    event, m = match
    page = table_client(m.closed_table).get(f"/table/{m.closed_table.code_ns}/match/")
    assert page.status_code == 200
    html = page.content.decode()
    row = _board_row(html, 1)
    assert "waiting" in row and "adjusted" not in row, row
    # board 2 shows (both entered the same score): its running totals hold nothing of board 1
    row2 = _board_row(html, 2)
    assert 'data-units="0"' in row2
    totals = re.search(r"data-total-a>([^<]*)<.*?data-total-b>([^<]*)<", html, re.S)
    assert totals and totals.groups() == ("0", "0"), totals and totals.groups()


def test_the_adjusted_board_shows_once_the_other_table_has_played_it(match):
    """Not hidden for ever: the closed room enters board 1, then both tables and the public
    match page of the event's organiser show it as adjusted."""
    event, m = match
    enter(m.closed_table, 1, 30)
    page = table_client(m.closed_table).get(f"/table/{m.closed_table.code_ns}/match/")
    assert "adjusted" in _board_row(page.content.decode(), 1)
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(event.organisers.get())
    html = staff.get(f"/e/{event.pk}/teams/matches/1/1/").content.decode()
    assert "adjusted" in _board_row(html, 1)
