"""Teams and the league as docs/teams.md describes them, where an audit found them otherwise:
the table after a match day counts that day and the earlier ones only; a malformed day is a
400; hands typed with spaces around the dash are read; a game entered by mistake can be removed
(and the match forfeited); a team event takes no pair sign-up; a closed match shows a board one
table never played as not played, with the match's total."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from tests.teams.conftest import team_event
from tests.teams.test_team_pages import enter
from tournaments.forms_league import parse_hands
from tournaments.models import Event, LeagueAudit, Registration, TeamMatch
from tournaments.services import events
from tournaments.services import league as lsvc
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


# --- the league ---------------------------------------------------------------------------


@pytest.fixture
def published(league, actor):
    """The league of four teams (conftest), its fixture list made and published."""
    lsvc.fixtures_generate(league=league, actor=actor)
    league.published = True
    league.save()
    return league


def test_league_table_after_a_day_without_results_does_not_count_later_days(published, actor):
    """docs/teams.md §7: the table after a match day counts every match of that day and the
    earlier ones that has been played. Day 2 postponed, day 3 played: ?after=2 does not count
    day 3's matches."""
    d1 = published.fixtures.filter(day=1).first()
    d3 = published.fixtures.filter(day=3).first()
    lsvc.league_game_enter(fixture=d1, actor=actor, number=1, hands=[(10, 0)])
    lsvc.league_game_enter(fixture=d3, actor=actor, number=1, hands=[(10, 0)])
    data = Client().get(f"/leagues/{published.pk}/league.json?after=2").json()
    played = sum(row["played"] for row in data["table"])
    assert data["after_day"] == 2, data["after_day"]
    assert played == 2, f"the table after day 2 counts {played // 2} matches (day 3's too)"


def test_league_after_that_is_not_a_day_is_a_400(published, actor):
    """As the team pages: a day that is not a number is a 400, a day the fixture list does not
    have a 404, on the page and every export (the latest table was shown instead)."""
    d1 = published.fixtures.filter(day=1).first()
    lsvc.league_game_enter(fixture=d1, actor=actor, number=1, hands=[(10, 0)])
    for url in ("/", "/league.json", "/league-table.csv"):
        response = Client().get(f"/leagues/{published.pk}{url}?after=abc")
        assert response.status_code == 400, (url, response.status_code)
    assert Client().get(f"/leagues/{published.pk}/league.json?after=99").status_code == 404


def test_league_hand_with_spaces_around_the_dash_is_read():
    assert parse_hands("10 - 0, 0 - 4") == [(10, 0), (0, 4)]
    assert parse_hands("10-0 0-4; 36 -0") == [(10, 0), (0, 4), (36, 0)]
    with pytest.raises(ValidationError):
        parse_hands("٣-0")  # not a digit a score is written with


def test_a_game_entered_by_mistake_can_be_replaced_by_a_forfeit(published, actor):
    """A forfeit is refused while games are entered ("remove them first"): emptying a game's
    field removes the game (audited), so the match can then be forfeited."""
    fixture = published.fixtures.filter(day=1).first()
    lsvc.league_game_enter(fixture=fixture, actor=actor, number=1, hands=[(10, 0)])
    organiser = Client(HTTP_ACCEPT_LANGUAGE="en")
    organiser.force_login(actor.user)
    response = organiser.post(
        f"/leagues/{published.pk}/fixtures/{fixture.pk}/",
        {"forfeit": "away", "game1": "", "game2": "", "game3": ""},
    )
    fixture.refresh_from_db()
    assert response.status_code == 302 and fixture.forfeit == "away"
    assert not fixture.games.exists()
    removed = LeagueAudit.objects.get(action="league_game_removed")
    assert removed.changes["hands"] == [[[10, 0]], None]


# --- team events ----------------------------------------------------------------------------


def test_a_team_event_takes_no_pair_sign_up(actor):
    """A team event registers teams (organisers, docs/teams.md §10): no "Sign up the pair" on
    its public page, and a sign-up sent anyway stores nothing (such a pair could never be
    checked in)."""
    event = events.event_create(
        actor=actor, name="Equips", competitor=Event.Competitor.TEAMS, rounds_count=2
    )
    events.event_publish(event=event, actor=actor)
    events.registration_open(event=event, actor=actor)
    public = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = public.post(
        f"/e/{event.pk}/register/",
        {"player1": "Anna", "player2": "Berta", "email": "a@example.com"},
    )
    stored = list(Registration.objects.filter(event=event).values_list("status", flat=True))
    assert stored == [], (response.status_code, stored)
    assert "Sign up the pair" not in public.get(f"/e/{event.pk}/").content.decode()


def test_a_closed_match_does_not_wait_for_a_board_it_will_never_get(actor):
    """Round closed with board 2 never played at the closed room: docs/teams.md §2 says it
    then counts as not played; the scorecard says so and gives the match's total."""
    event = team_event(actor, 2, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    m = TeamMatch.objects.get(round__event=event)
    enter(m.open_table, 1, 50)
    enter(m.closed_table, 1, 30)
    enter(m.open_table, 2, 40)
    events.round_close(rnd=rnd, actor=actor, accept=["missing"])
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/e/{event.pk}/teams/matches/1/1/")
    page = html.content.decode()
    assert html.status_code == 200
    assert "waiting for both tables" not in page
    assert "So far" not in page and "Total" in page and "not played" in page
