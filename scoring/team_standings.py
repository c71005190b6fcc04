"""Standings of a team event (Swiss or round robin) after any round.

Every match is scored with ``scoring.teams.score_team_match`` (units, then VPs over the match's
scheduled boards). Ranking methods (``TeamEventInput.ranking_method``):

* ``swiss`` (default): VPs, then unit difference (units won − units lost, all matches), units
  won, Buchholz (the sum of the opponents' VPs; a bye adds nothing).
* ``round_robin``: VPs, then head-to-head (the VPs won in the matches among the tied teams only,
  re-applied to any block still tied, see ``scoring.ranking``), then unit difference, units won.

Teams equal on every criterion share a rank; the lot drawn from the event seed only orders them
on the page. A bye scores ``bye_vp`` (12 by default) with no units and no match played. A
withdrawn team keeps its results and stays in the standings, flagged.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from scoring.lots import lot_order
from scoring.ranking import SortKey, ranked_groups, shared_ranks
from scoring.team_types import (
    TEAM_RANKING_METHODS,
    TeamEventInput,
    TeamMatchResult,
    TeamStanding,
    TeamStandingsResult,
)
from scoring.teams import score_team_match


class TeamEventError(ValueError):
    """A team event that cannot be ranked (unknown team, a team twice in a round…)."""


def compute_team_standings(
    event: TeamEventInput,
    *,
    after_round: int | None = None,
    scored: Mapping[tuple[int, int], TeamMatchResult] | None = None,
) -> TeamStandingsResult:
    """Standings after ``after_round`` (all rounds given when None). ``scored``: the matches
    already scored, by (round, match) (``team_standings_after_each_round`` scores each once)."""
    if event.ranking_method not in TEAM_RANKING_METHODS:
        raise TeamEventError(
            f"unknown ranking method {event.ranking_method!r}; expected one of "
            f"{TEAM_RANKING_METHODS}"
        )
    if event.bye_vp < 0 or event.bye_vp > 20:
        raise TeamEventError(f"a bye scores 0 to 20 VPs, not {event.bye_vp}")
    rounds = sorted(event.rounds, key=lambda r: r.number)
    if after_round is None:
        after_round = rounds[-1].number if rounds else 0
    rounds = [r for r in rounds if r.number <= after_round]

    teams = list(event.teams)
    index = {t: i for i, t in enumerate(teams)}
    if len(index) != len(teams):
        raise TeamEventError("duplicate team id in TeamEventInput.teams")
    n = len(teams)
    vp = [0] * n  # hundredths: sums stay exact, so equal teams tie
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    played = [0] * n
    units_for = [0] * n
    units_against = [0] * n
    byes = [0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]
    # (i, j, VPs of i in hundredths) for every match, both ways: head-to-head reads them.
    meetings: list[tuple[int, int, int]] = []
    results: list[TeamMatchResult] = []
    bye_hundredths = round(event.bye_vp * 100)

    def idx(team: int, where: str) -> int:
        try:
            return index[team]
        except KeyError:
            raise TeamEventError(f"{where}: team {team} is not in the event") from None

    for rnd in rounds:
        seen: set[int] = set()
        for match in rnd.matches:
            where = f"round {rnd.number} match {match.match}"
            a, b = idx(match.team_a, where), idx(match.team_b, where)
            for t in (a, b):
                if t in seen:
                    raise TeamEventError(f"{where}: team {teams[t]} plays twice in the round")
                seen.add(t)
            m = (
                scored[(rnd.number, match.match)]
                if scored is not None
                else score_team_match(match, blitz_per_sqrt_board=event.blitz_per_sqrt_board)
            )
            results.append(m)
            h_a = round(m.vp_a * 100)
            vp[a] += h_a
            vp[b] += 2000 - h_a
            units_for[a] += m.units_a
            units_against[a] += m.units_b
            units_for[b] += m.units_b
            units_against[b] += m.units_a
            played[a] += 1
            played[b] += 1
            if m.margin > 0:
                wins[a] += 1
                losses[b] += 1
            elif m.margin < 0:
                wins[b] += 1
                losses[a] += 1
            else:
                draws[a] += 1
                draws[b] += 1
            opponents[a].append(b)
            opponents[b].append(a)
            meetings.append((a, b, h_a))
            meetings.append((b, a, 2000 - h_a))
        if rnd.bye is not None:
            i = idx(rnd.bye, f"round {rnd.number} bye")
            if i in seen:
                raise TeamEventError(f"round {rnd.number}: team {rnd.bye} has a bye and a match")
            vp[i] += bye_hundredths
            byes[i] += 1

    buchholz = [sum(vp[o] for o in opponents[i]) for i in range(n)]
    diff = [units_for[i] - units_against[i] for i in range(n)]

    def mini_table(group: Collection[int]) -> dict[int, SortKey]:
        members = set(group)
        won = dict.fromkeys(members, 0)
        for i, j, h in meetings:
            if i in members and j in members:
                won[i] += h
        return {i: (-won[i],) for i in members}

    if event.ranking_method == "swiss":
        groups = ranked_groups(
            list(range(n)),
            before=lambda i: (-vp[i], -diff[i], -units_for[i], -buchholz[i]),
            after=lambda i: (),
        )
    else:
        groups = ranked_groups(
            list(range(n)),
            before=lambda i: (-vp[i],),
            head_to_head=mini_table,
            after=lambda i: (-diff[i], -units_for[i]),
        )
    numbers = {t: event.numbers.get(t, t) for t in teams}
    lot_pos = {t: k + 1 for k, t in enumerate(lot_order(numbers, event.seed))}
    standings = []
    for i, rank in shared_ranks(groups, lot={i: lot_pos[teams[i]] for i in range(n)}):
        team = teams[i]
        w = event.withdrawn.get(team)
        standings.append(
            TeamStanding(
                team=team,
                rank=rank,
                vp=vp[i] / 100,
                matches=played[i],
                wins=wins[i],
                draws=draws[i],
                losses=losses[i],
                units_for=units_for[i],
                units_against=units_against[i],
                units_diff=diff[i],
                buchholz=buchholz[i] / 100,
                byes=byes[i],
                withdrawn=w is not None and w <= after_round,
                lot=lot_pos[team],
            )
        )
    return TeamStandingsResult(after_round=after_round, standings=standings, matches=results)


def team_standings_after_each_round(event: TeamEventInput) -> list[TeamStandingsResult]:
    """The standings after each round of ``event``, in round order, every match scored once
    (what a snapshot per round costs; the same as ``compute_team_standings`` round by round)."""
    scored = {
        (rnd.number, match.match): score_team_match(
            match, blitz_per_sqrt_board=event.blitz_per_sqrt_board
        )
        for rnd in event.rounds
        for match in rnd.matches
    }
    return [
        compute_team_standings(event, after_round=rnd.number, scored=scored)
        for rnd in sorted(event.rounds, key=lambda r: r.number)
    ]
