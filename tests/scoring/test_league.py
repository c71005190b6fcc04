"""The league (Lliga): 3/1/0, games won, head-to-head, the difference scale; table per day."""

from __future__ import annotations

import pytest

from scoring.league import LeagueError, league_table, league_tables, score_league_match
from scoring.team_types import LeagueGame, LeagueHand, LeagueInput, LeagueMatch

HOME_WIN = LeagueGame([LeagueHand(10, 0)])  # 10–0: home wins the game, 2 units (6–10)
AWAY_WIN = LeagueGame([LeagueHand(0, 10)])
DRAWN = LeagueGame([LeagueHand(5, 0), LeagueHand(0, 5)])  # 5–5; units +1 and −1


def fixture(day: int, home: int, away: int, *games: LeagueGame, **kw) -> LeagueMatch:
    return LeagueMatch(day, home, away, list(games), **kw)


def league(matches, *, teams=(1, 2, 3, 4), **options) -> LeagueInput:
    return LeagueInput(list(teams), {t: t for t in teams}, list(matches), **options)


def by_team(table):
    return {s.team: s for s in table.standings}


def test_a_match_of_six_games_worked_example():
    # Home wins games 1–3, loses 4–5, game 6 is drawn: 3–2, a win: 3 points to 0.
    # Game 1 is a single hand 72–0 (36 × 2): 72 − 0 -> 10 units (63–77).
    games = [
        LeagueGame([LeagueHand(72, 0)]),
        HOME_WIN,
        HOME_WIN,
        AWAY_WIN,
        AWAY_WIN,
        DRAWN,
    ]
    r = score_league_match(fixture(1, 1, 2, *games), league([]))
    assert (r.games_home, r.games_away, r.games_drawn) == (3, 2, 1)
    assert (r.league_points_home, r.league_points_away) == (3, 0)
    assert (r.points_home, r.points_away) == (72 + 10 + 10 + 5, 10 + 10 + 5)
    # Units: 10 + 2 + 2 + 1 (the 5–0 hand) for home; 2 + 2 + 1 for away.
    assert (r.units_home, r.units_away) == (15, 5)


def test_three_one_nil_and_the_season_counts():
    table = league_table(
        league(
            [
                fixture(1, 1, 2, HOME_WIN, HOME_WIN, AWAY_WIN),  # 1 beats 2, 2–1
                fixture(1, 3, 4, HOME_WIN, AWAY_WIN),  # 3 and 4 draw 1–1
                fixture(2, 2, 3, DRAWN, DRAWN),  # 2 and 3 draw 0–0 with two drawn games
                fixture(2, 4, 1, HOME_WIN, HOME_WIN),  # 4 beats 1, 2–0
            ]
        )
    )
    s = by_team(table)
    assert [s[t].points for t in (1, 2, 3, 4)] == [3, 1, 2, 4]
    assert [(s[t].won, s[t].drawn, s[t].lost) for t in (1, 2, 3, 4)] == [
        (1, 0, 1),
        (0, 1, 1),
        (0, 2, 0),
        (1, 1, 0),
    ]
    assert [(s[t].games_won, s[t].games_lost) for t in (1, 2, 3, 4)] == [
        (2, 3),
        (1, 2),
        (1, 1),
        (3, 1),
    ]
    assert [x.team for x in table.standings] == [4, 1, 3, 2]


def test_the_official_points_are_options():
    data = league([fixture(1, 1, 2, HOME_WIN)], points_win=2, points_draw=1, points_loss=0)
    assert by_team(league_table(data))[1].points == 2


def test_games_won_break_a_tie_on_points():
    # 1 and 2 both win one match and lose one; 1 won 3–0, 2 only 2–1.
    table = league_table(
        league(
            [
                fixture(1, 1, 3, HOME_WIN, HOME_WIN, HOME_WIN),
                fixture(1, 2, 4, HOME_WIN, HOME_WIN, AWAY_WIN),
                fixture(2, 1, 4, AWAY_WIN, AWAY_WIN, AWAY_WIN),
                fixture(2, 2, 3, AWAY_WIN, AWAY_WIN, AWAY_WIN),
            ]
        )
    )
    s = by_team(table)
    assert s[1].points == s[2].points == 3
    assert (s[1].games_won, s[2].games_won) == (3, 2)
    assert s[1].rank < s[2].rank


def test_head_to_head_breaks_a_tie_on_points_and_games():
    # 1 and 2: 3 points and 3 games won each. 2 beat 1 when they met: 2 is ahead, although 1
    # has the better unit difference (a 72–0 hand against 3).
    big = LeagueGame([LeagueHand(72, 0)])
    table = league_table(
        league(
            [
                fixture(1, 1, 2, HOME_WIN, AWAY_WIN, AWAY_WIN),  # 2 beats 1, 2–1
                fixture(2, 1, 3, big, HOME_WIN, AWAY_WIN),  # 1 beats 3, 2–1
                fixture(2, 2, 4, HOME_WIN, AWAY_WIN, AWAY_WIN),  # 4 beats 2 2–1
                fixture(3, 3, 4, DRAWN),
            ]
        )
    )
    # The worked example of docs/teams.md, section 7.
    s = by_team(table)
    assert (s[1].points, s[1].games_won) == (s[2].points, s[2].games_won) == (3, 3)
    # Club 1: 10–0 (2) on day 1, 72–0 (10) and 10–0 (2) on day 2; lost 0–10 three times (6).
    assert (s[1].units_for, s[1].units_against, s[2].units_for, s[2].units_against) == (14, 6, 6, 6)
    assert (s[4].points, s[4].games_won, s[3].points, s[3].games_won) == (4, 2, 1, 1)
    assert [x.team for x in table.standings] == [4, 2, 1, 3]


def test_head_to_head_among_four_is_reapplied_to_the_two_still_level():
    # Six teams, matches of two games (won 2–0, drawn 1–1, lost 0–2). A=1, B=2, C=3, D=4 end on
    # 7 points and 5 games won each. Among themselves: A 7 pts, B 4, C 4, D 1 (games 5, 3, 3, 1):
    # A first, D last, B and C level; between B and C only, B won: B before C — although C
    # has by far the better unit difference (a 1000–0 hand against E).
    w, d, lost = [HOME_WIN, HOME_WIN], [HOME_WIN, AWAY_WIN], [AWAY_WIN, AWAY_WIN]
    huge = LeagueGame([LeagueHand(1000, 0)])
    matches = [
        fixture(1, 1, 2, *w),  # A beats B
        fixture(1, 1, 3, *d),  # A draws C
        fixture(1, 1, 4, *w),  # A beats D
        fixture(1, 1, 5, *lost),  # E beats A
        fixture(1, 1, 6, *lost),  # F beats A
        fixture(2, 2, 3, *w),  # B beats C
        fixture(2, 2, 4, *d),  # B draws D
        fixture(2, 2, 5, *w),  # B beats E
        fixture(2, 2, 6, *lost),  # F beats B
        fixture(3, 3, 4, *w),  # C beats D
        fixture(3, 3, 5, huge, HOME_WIN),  # C beats E
        fixture(3, 3, 6, *lost),  # F beats C
        fixture(4, 4, 5, *w),  # D beats E
        fixture(4, 4, 6, *w),  # D beats F
        fixture(4, 5, 6, *d),  # E draws F
    ]
    table = league_table(league(matches, teams=(1, 2, 3, 4, 5, 6)))
    s = by_team(table)
    assert [s[t].points for t in (1, 2, 3, 4)] == [7, 7, 7, 7]
    assert [s[t].games_won for t in (1, 2, 3, 4)] == [5, 5, 5, 5]
    assert s[3].units_diff > s[2].units_diff
    assert [x.team for x in table.standings] == [6, 1, 2, 3, 4, 5]
    assert [x.rank for x in table.standings] == [1, 2, 3, 4, 5, 6]


def test_a_head_to_head_cycle_falls_to_the_unit_difference_then_shares_the_rank():
    # 1 beats 2, 2 beats 3, 3 beats 1, each 1–0 with a 10–0 hand: all level everywhere,
    # head-to-head too; unit differences all 0: one shared rank.
    table = league_table(
        league(
            [fixture(1, 1, 2, HOME_WIN), fixture(2, 2, 3, HOME_WIN), fixture(3, 3, 1, HOME_WIN)],
            teams=(1, 2, 3),
        )
    )
    assert [x.rank for x in table.standings] == [1, 1, 1]
    # The same cycle where 2 won with a bigger hand: 2 is first on the difference scale.
    table = league_table(
        league(
            [
                fixture(1, 1, 2, HOME_WIN),
                fixture(2, 2, 3, LeagueGame([LeagueHand(40, 0)])),
                fixture(3, 3, 1, HOME_WIN),
            ],
            teams=(1, 2, 3),
        )
    )
    assert [(x.team, x.rank) for x in table.standings][0] == (2, 1)


def test_a_forfeit_loses_the_match_and_every_game():
    r = score_league_match(fixture(1, 1, 2, forfeit="home"), league([]))
    assert (r.games_home, r.games_away, r.league_points_home, r.league_points_away) == (0, 6, 0, 3)
    r = score_league_match(fixture(1, 1, 2, forfeit="away"), league([], games_per_match=4))
    assert (r.games_home, r.games_away, r.league_points_home) == (4, 0, 3)


def test_game_mode_stops_each_game_at_the_target():
    # To 101 (R12): 60 + 48 = 108 after hand 2, hand 3 (0–100) is not played.
    game = LeagueGame([LeagueHand(60, 0), LeagueHand(48, 0), LeagueHand(0, 100)])
    r = score_league_match(fixture(1, 1, 2, game), league([], match_mode="game"))
    assert (r.points_home, r.points_away, r.games_home) == (108, 0, 1)
    # Units count the hands played only: 60 -> 9, 48 -> 8.
    assert (r.units_home, r.units_away) == (17, 0)


def test_tables_after_each_match_day_skip_unplayed_fixtures():
    data = league(
        [
            fixture(1, 1, 2, HOME_WIN),
            fixture(1, 3, 4),  # postponed: no games yet
            fixture(2, 1, 3, HOME_WIN),
            fixture(3, 2, 4),  # not played yet
        ]
    )
    tables = league_tables(data)
    assert [t.after_day for t in tables] == [1, 2]
    assert by_team(tables[0])[1].points == 3 and by_team(tables[0])[3].played == 0
    assert by_team(tables[1])[1].points == 6
    assert league_table(data).after_day == 3
    assert len(league_table(data, after_day=1).matches) == 1


def test_bad_leagues_are_rejected_with_a_reason():
    with pytest.raises(LeagueError, match="team 9 is not in the league"):
        league_table(league([fixture(1, 1, 9, HOME_WIN)]))
    with pytest.raises(LeagueError, match="cannot meet itself"):
        league_table(league([fixture(1, 1, 1, HOME_WIN)]))
    with pytest.raises(LeagueError, match="only one side scores"):
        league_table(league([fixture(1, 1, 2, LeagueGame([LeagueHand(3, 4)]))]))
    with pytest.raises(LeagueError, match="forfeited match has no games"):
        league_table(league([fixture(1, 1, 2, HOME_WIN, forfeit="home")]))
    with pytest.raises(LeagueError, match="forfeit must be"):
        league_table(league([fixture(1, 1, 2, forfeit="both")]))
    with pytest.raises(LeagueError, match="unknown match mode"):
        league_table(league([], match_mode="rubber"))
