"""The league (Lliga): club teams meet on match days; the table after any match day.

A match between two club teams is several games (six of eight hands in the Catalan Lliga), each
a home pair against an away pair at one table. A game is counted as the event's matches are
(``scoring.matches``): in ``boards`` mode the sum of the hand scores, in ``game`` mode to the
target with the cap (R12). The pair with the higher total wins the game; equal totals draw it.
The team that wins more games wins the match: **3** league points, a draw **1** each, a loss
**0** (``points_win``/``points_draw``/``points_loss``). A team that does not turn up
(``forfeit``) loses the match, and its opponent is credited with all ``games_per_match`` games.

Every hand also counts on the difference scale: the home side's units are
``difference_units(home score − away score)``, the away side's their negation.

Ranking, each criterion looked at only when the earlier ones are equal:

1. league points;
2. games won (over the whole season so far);
3. head-to-head: a mini-table of the matches *among the tied teams only*: league points in those
   matches, then games won in them. If it separates some of the tied teams, it is applied again
   to every block still tied, with the matches among that block only; matches not played yet
   count for nothing;
4. unit difference (units won − units lost, every hand of the season);
5. still equal: the teams share the rank (the lot from the league seed orders them on the page).

A match day may be spread over several evenings: the table after day ``d`` counts every match of
days 1…``d`` that has been played.
"""

from __future__ import annotations

from collections.abc import Collection

from scoring.lots import lot_order
from scoring.matches import match_and_played
from scoring.ranking import SortKey, ranked_groups, shared_ranks
from scoring.scale import difference_units
from scoring.team_types import (
    LEAGUE_SIDES,
    LeagueGame,
    LeagueInput,
    LeagueMatch,
    LeagueMatchResult,
    LeagueStanding,
    LeagueTable,
)
from scoring.types import MATCH_MODES, BoardResult, TableRound


class LeagueError(ValueError):
    """A league that cannot be ranked (unknown team, a hand scored for both sides…)."""


def _game(
    game: LeagueGame, *, mode: str, target: int, cap: int, where: str
) -> tuple[int, int, int, int]:
    """(home total, away total, units won by home, units won by away) of one game."""
    results = []
    for k, h in enumerate(game.hands, start=1):
        if h.home < 0 or h.away < 0 or (h.home and h.away):
            raise LeagueError(f"{where} hand {k}: only one side scores, never below 0 (R9)")
        results.append(BoardResult(k, 1, 1, 2, h.home, h.away))
    m, played = match_and_played(TableRound(0, 1, 1, 2, results), mode=mode, target=target, cap=cap)
    units = [difference_units(r.score_ns - r.score_ew) for r in played]
    return m.total_ns, m.total_ew, sum(max(u, 0) for u in units), sum(max(-u, 0) for u in units)


def score_league_match(match: LeagueMatch, league: LeagueInput) -> LeagueMatchResult | None:
    """The result of one fixture, or None while it has not been played."""
    where = f"day {match.day} {match.home} v {match.away}"
    if match.forfeit is not None:
        if match.forfeit not in LEAGUE_SIDES:
            raise LeagueError(f"{where}: forfeit must be one of {LEAGUE_SIDES}")
        if match.games:
            raise LeagueError(f"{where}: a forfeited match has no games")
        home_lost = match.forfeit == "home"
        return LeagueMatchResult(
            day=match.day,
            home=match.home,
            away=match.away,
            games_home=0 if home_lost else league.games_per_match,
            games_away=league.games_per_match if home_lost else 0,
            games_drawn=0,
            points_home=0,
            points_away=0,
            units_home=0,
            units_away=0,
            league_points_home=league.points_loss if home_lost else league.points_win,
            league_points_away=league.points_win if home_lost else league.points_loss,
            forfeit=match.forfeit,
        )
    if not match.games:
        return None
    g_home = g_away = g_drawn = p_home = p_away = u_home = u_away = 0
    for k, game in enumerate(match.games, start=1):
        home, away, won_home, won_away = _game(
            game,
            mode=league.match_mode,
            target=league.game_target,
            cap=league.game_cap,
            where=f"{where} game {k}",
        )
        p_home += home
        p_away += away
        u_home += won_home
        u_away += won_away
        if home > away:
            g_home += 1
        elif away > home:
            g_away += 1
        else:
            g_drawn += 1
    if g_home > g_away:
        lp = (league.points_win, league.points_loss)
    elif g_away > g_home:
        lp = (league.points_loss, league.points_win)
    else:
        lp = (league.points_draw, league.points_draw)
    return LeagueMatchResult(
        day=match.day,
        home=match.home,
        away=match.away,
        games_home=g_home,
        games_away=g_away,
        games_drawn=g_drawn,
        points_home=p_home,
        points_away=p_away,
        units_home=u_home,
        units_away=u_away,
        league_points_home=lp[0],
        league_points_away=lp[1],
        forfeit=None,
    )


def league_table(league: LeagueInput, *, after_day: int | None = None) -> LeagueTable:
    """The table after match day ``after_day`` (every day given when None)."""
    if league.match_mode not in MATCH_MODES:
        raise LeagueError(
            f"unknown match mode {league.match_mode!r}; expected one of {MATCH_MODES}"
        )
    teams = list(league.teams)
    index = {t: i for i, t in enumerate(teams)}
    if len(index) != len(teams):
        raise LeagueError("duplicate team id in LeagueInput.teams")
    if after_day is None:
        after_day = max((m.day for m in league.matches), default=0)
    n = len(teams)
    points = [0] * n
    played = [0] * n
    won = [0] * n
    drawn = [0] * n
    lost = [0] * n
    games_won = [0] * n
    games_lost = [0] * n
    units_for = [0] * n
    units_against = [0] * n
    # (i, j, league points of i, games won by i) for every match, both ways: head-to-head.
    meetings: list[tuple[int, int, int, int]] = []
    results: list[LeagueMatchResult] = []

    def idx(team: int, where: str) -> int:
        try:
            return index[team]
        except KeyError:
            raise LeagueError(f"{where}: team {team} is not in the league") from None

    for match in sorted(league.matches, key=lambda m: (m.day, m.home, m.away)):
        if match.day > after_day:
            continue
        where = f"day {match.day}"
        h, a = idx(match.home, where), idx(match.away, where)
        if h == a:
            raise LeagueError(f"{where}: team {match.home} cannot meet itself")
        r = score_league_match(match, league)
        if r is None:
            continue
        results.append(r)
        for i, j, lp_i, g_i, g_j, u_i, u_j in (
            (h, a, r.league_points_home, r.games_home, r.games_away, r.units_home, r.units_away),
            (a, h, r.league_points_away, r.games_away, r.games_home, r.units_away, r.units_home),
        ):
            points[i] += lp_i
            played[i] += 1
            games_won[i] += g_i
            games_lost[i] += g_j
            units_for[i] += u_i
            units_against[i] += u_j
            meetings.append((i, j, lp_i, g_i))
        if r.games_home > r.games_away:
            won[h] += 1
            lost[a] += 1
        elif r.games_away > r.games_home:
            won[a] += 1
            lost[h] += 1
        else:
            drawn[h] += 1
            drawn[a] += 1

    diff = [units_for[i] - units_against[i] for i in range(n)]

    def mini_table(group: Collection[int]) -> dict[int, SortKey]:
        members = set(group)
        mini_points = dict.fromkeys(members, 0)
        mini_games = dict.fromkeys(members, 0)
        for i, j, lp, g in meetings:
            if i in members and j in members:
                mini_points[i] += lp
                mini_games[i] += g
        return {i: (-mini_points[i], -mini_games[i]) for i in members}

    groups = ranked_groups(
        list(range(n)),
        before=lambda i: (-points[i], -games_won[i]),
        head_to_head=mini_table,
        after=lambda i: (-diff[i],),
    )
    numbers = {t: league.numbers.get(t, t) for t in teams}
    lot_pos = {t: k + 1 for k, t in enumerate(lot_order(numbers, league.seed))}
    standings = [
        LeagueStanding(
            team=teams[i],
            rank=rank,
            points=points[i],
            played=played[i],
            won=won[i],
            drawn=drawn[i],
            lost=lost[i],
            games_won=games_won[i],
            games_lost=games_lost[i],
            units_for=units_for[i],
            units_against=units_against[i],
            units_diff=diff[i],
            lot=lot_pos[teams[i]],
        )
        for i, rank in shared_ranks(groups, lot={i: lot_pos[teams[i]] for i in range(n)})
    ]
    return LeagueTable(after_day=after_day, standings=standings, matches=results)


def league_tables(league: LeagueInput) -> list[LeagueTable]:
    """The table after each match day on which a match has been played, in day order."""
    days = sorted({m.day for m in league.matches if m.games or m.forfeit is not None})
    return [league_table(league, after_day=d) for d in days]
