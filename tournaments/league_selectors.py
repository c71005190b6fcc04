"""Reads of a league: its results as ``scoring.league``'s plain objects, the table after a match
day and the fixture list with each match's result."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from scoring.league import league_table
from scoring.team_types import LeagueGame, LeagueHand, LeagueInput, LeagueMatch, LeagueMatchResult
from tournaments.models import League, LeagueFixture, LeagueTeam
from tournaments.snapshot import one_moment


def league_input(league: League, fixtures: list[LeagueFixture]) -> LeagueInput:
    teams = list(league.teams.values_list("pk", "number"))
    return LeagueInput(
        teams=[pk for pk, _n in teams],
        numbers=dict(teams),
        matches=[
            LeagueMatch(
                day=f.day,
                home=f.home_id,
                away=f.away_id,
                games=[
                    LeagueGame([LeagueHand(h, a) for h, a in g.hands])
                    for g in sorted(f.games.all(), key=lambda g: g.number)
                ],
                forfeit=f.forfeit or None,
            )
            for f in fixtures
        ],
        games_per_match=league.games_per_match,
        seed=league.seed,
    )


@dataclass
class LeagueRow:
    team: LeagueTeam
    shared: bool
    data: Any  # scoring.team_types.LeagueStanding

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["data"], name)


@dataclass
class FixtureLine:
    fixture: LeagueFixture
    result: LeagueMatchResult | None


@dataclass
class LeagueView:
    league: League
    after_day: int
    days: list[int]  # the match days with a result
    rows: list[LeagueRow]
    fixtures: dict[int, list[FixtureLine]]  # by day


def league_view(league: League, *, after_day: int | None = None) -> LeagueView:
    # Fixtures and their games in one snapshot: a correction committed between the two
    # queries (a forfeit taken back, its games entered) would pair the one's state with the
    # other's, which no moment of the league ever held.
    with one_moment():
        fixtures = list(
            league.fixtures.select_related("home", "away")
            .prefetch_related("games")
            .order_by("day", "pk")
        )
        teams = {t.pk: t for t in league.teams.select_related("club")}
        data = league_input(league, fixtures)
    days = sorted({m.day for m in data.matches if m.games or m.forfeit})
    if after_day is None:  # the latest table
        after_day = days[-1] if days else 0
    table = league_table(data, after_day=after_day)
    counts = Counter(s.rank for s in table.standings)
    results = {(r.day, r.home, r.away): r for r in league_table(data).matches}
    by_day: dict[int, list[FixtureLine]] = {}
    for f in fixtures:
        by_day.setdefault(f.day, []).append(
            FixtureLine(f, results.get((f.day, f.home_id, f.away_id)))
        )
    return LeagueView(
        league=league,
        after_day=after_day,
        days=days,
        rows=[LeagueRow(teams[s.team], counts[s.rank] > 1, s) for s in table.standings],
        fixtures=by_day,
    )
