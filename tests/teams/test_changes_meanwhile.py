"""A request that read (and was let in) before another change committed: the interleavings of
races on PostgreSQL, played in order so that they happen every time. Each is refused with a
sentence and stores nothing (it was a 500, or stored against what the other change made)."""

import pytest

from tests.teams.conftest import play_team_round, team_event
from tournaments.actors import Actor
from tournaments.models import BoardResult, BoardUnlock, LeagueFixture, LeagueGame, Table, TeamMatch
from tournaments.services import Conflict, NotAllowed, changes, events, results, teams
from tournaments.services import league as league_service
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db

SHORT = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}


def _members(team) -> list[int]:
    return [m.player_id for m in team.members.order_by("order")]


def test_a_line_up_for_a_match_of_a_round_proposed_again(actor):
    event = team_event(actor, 4)
    pairings_propose(event.pk, 1, actor=actor)
    match = TeamMatch.objects.select_related("round__event", "team_a").get(
        round__event=event, round__number=1, number=1
    )  # the line-up page read it
    pairings_propose(event.pk, 1, actor=actor)  # meanwhile another organiser proposes again
    p = _members(match.team_a)
    with pytest.raises(Conflict, match="proposed again"):
        teams.lineup_set(
            match=match, team=match.team_a, actor=actor, first=(p[2], p[3]), second=(p[0], p[1])
        )


@pytest.fixture
def moved(actor):
    """Team A's pairs swap rooms in an open round after the open room's NS phone was let in:
    (that phone's table as the request read it, the phone)."""
    event = team_event(actor, 2, rounds_count=1, boards_per_round=2)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    match = TeamMatch.objects.select_related("round__event", "team_a").get(round=rnd)
    table = Table.objects.select_related("round__event", "ns__pair", "ew__pair").get(
        pk=match.open_table_id
    )
    p = _members(match.team_a)
    teams.lineup_set(
        match=match, team=match.team_a, actor=actor, first=(p[2], p[3]), second=(p[0], p[1])
    )
    assert Table.objects.get(pk=table.pk).codes_version == table.codes_version + 1
    return table, Actor(table=table, side="NS")


def test_an_old_code_stores_no_result_once_the_line_up_moved_its_pair(moved):
    table, phone = moved
    with pytest.raises(NotAllowed, match="codes were renewed"):
        results.result_submit_short(table=table, board_number=1, actor=phone, data=SHORT)
    assert not BoardResult.objects.filter(table=table).exists()


def test_an_old_code_declares_no_board_played_once_the_line_up_moved_its_pair(moved):
    table, phone = moved
    with pytest.raises(NotAllowed, match="codes were renewed"):
        results.board_declare_played(table=table, board_number=1, actor=phone)
    assert not BoardUnlock.objects.filter(table=table).exists()


def test_a_league_game_for_a_fixture_of_a_list_made_again(actor, league):
    league_service.fixtures_generate(league=league, actor=actor)
    fixture = LeagueFixture.objects.select_related("league").filter(league=league).first()
    league_service.fixtures_generate(league=league, actor=actor)  # made again meanwhile
    with pytest.raises(Conflict, match="made again"):
        league_service.league_game_enter(fixture=fixture, actor=actor, number=1, hands=[[10, 0]])
    assert not LeagueGame.objects.exists()


def test_a_league_forfeit_for_a_fixture_of_a_list_made_again(actor, league):
    league_service.fixtures_generate(league=league, actor=actor)
    fixture = LeagueFixture.objects.select_related("league").filter(league=league).first()
    league_service.fixtures_generate(league=league, actor=actor)
    with pytest.raises(Conflict, match="made again"):
        league_service.league_forfeit(fixture=fixture, actor=actor, side="home")
    assert not LeagueFixture.objects.exclude(forfeit="").exists()


def test_reopening_a_team_round_drops_the_next_rounds_proposal(actor, rng):
    """It was a 500: the proposal's matches held its tables (docs/organisers.md: "A proposal
    for the next round is dropped")."""
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    play_team_round(event, actor, 1, rng)
    pairings_propose(event.pk, 2, actor=actor)
    changes.round_reopen(rnd=event.rounds.get(number=1), actor=actor, reason="closed too early")
    assert not event.rounds.filter(number=2).exists()
    assert not TeamMatch.objects.filter(round__event=event, round__number=2).exists()
