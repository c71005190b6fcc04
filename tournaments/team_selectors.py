"""Reads for the team pages, PDFs and exports: team standings and Butler from the snapshots,
a match's scorecard from its two tables (``policy`` decides which boards show)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.team_types import TeamBoardLine, TeamMatchResult
from scoring.teams import score_team_match
from tournaments import policy
from tournaments.actors import Actor
from tournaments.models import Entry, LineUp, Round, StandingsSnapshot, Team, TeamMatch
from tournaments.public_selectors import EventView, standings_state
from tournaments.team_io import counted_results, match_input


@dataclass
class TeamRow:
    team: Team
    rank: int
    shared: bool
    data: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class ButlerRow:
    entry: Entry
    team: Team | None
    rank: int
    shared: bool
    data: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class TeamStandingsView:
    snapshot: StandingsSnapshot | None
    rows: list[TeamRow]
    butler: list[ButlerRow]
    after_rounds: list[int]
    state: str

    @property
    def after_round(self) -> int | None:
        return self.snapshot.after_round if self.snapshot is not None else None


def teams_of(event: Any) -> dict[int, Team]:
    return {t.pk: t for t in event.teams.select_related("club").order_by("number")}


def _shared(rows: list[dict[str, Any]]) -> Counter[int]:
    return Counter(r["rank"] for r in rows)


def team_standings(ev: EventView, *, after_round: int | None = None) -> TeamStandingsView:
    """The team standings and the Butler ranking after a round whose scores this viewer may see
    (``policy.last_scored_round``: closed rounds; organisers and referees the open one live)."""
    limit = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    state = standings_state(ev)
    snapshots = {
        s.after_round: s
        for s in StandingsSnapshot.objects.filter(event=ev.event, after_round__lte=limit).defer(
            "matches", "travellers"
        )
    }
    if after_round is None or after_round not in snapshots:
        after_round = max(snapshots) if snapshots else None
    snapshot = snapshots.get(after_round) if after_round is not None else None
    teams = teams_of(ev.event)
    rows: list[TeamRow] = []
    butler: list[ButlerRow] = []
    if snapshot is not None:
        counts = _shared(snapshot.rows)
        rows = [
            TeamRow(teams[r["team"]], r["rank"], counts[r["rank"]] > 1, r)
            for r in snapshot.rows
            if r.get("team") in teams
        ]
        b_rows = snapshot.butler.get("rows", [])
        b_counts = _shared(b_rows)
        butler = [
            ButlerRow(
                ev.entries[r["pair"]],
                teams.get(ev.entries[r["pair"]].team_id),
                r["rank"],
                b_counts[r["rank"]] > 1,
                r,
            )
            for r in b_rows
            if r["pair"] in ev.entries
        ]
    return TeamStandingsView(snapshot, rows, butler, sorted(snapshots), state)


@dataclass
class MatchSide:
    team: Team
    first: Entry | None
    second: Entry | None
    substitutes: list[str] = field(default_factory=list)


@dataclass
class MatchView:
    match: TeamMatch
    a: MatchSide
    b: MatchSide
    lines: list[TeamBoardLine | None]  # None: the board is not shown (yet)
    boards: list[int]
    result: TeamMatchResult
    complete: bool  # every board shown: the totals are the match's

    @property
    def shown(self) -> list[TeamBoardLine]:
        return [line for line in self.lines if line is not None]

    @property
    def last(self) -> TeamBoardLine | None:
        shown = self.shown
        return shown[-1] if shown else None

    @property
    def rows(self) -> list[tuple[int, TeamBoardLine | None]]:
        return list(zip(self.boards, self.lines, strict=True))


def _side(team: Team, lineups: dict[int, LineUp]) -> MatchSide:
    lineup = lineups.get(team.pk)
    if lineup is None:
        return MatchSide(team, None, None)
    return MatchSide(
        team,
        lineup.first,
        lineup.second,
        sorted(p.name for p in lineup.substitutes.all()),
    )


def match_queryset() -> Any:
    return TeamMatch.objects.select_related(
        "round__event",
        "team_a",
        "team_b",
        "open_table__ns__pair",
        "open_table__ew__pair",
        "closed_table__ns__pair",
        "closed_table__ew__pair",
    )


def match_view(match: TeamMatch) -> MatchView:
    """The match's scorecard with only the boards both tables have entered (the policy's
    rule). Callers check ``policy.can_follow_team_match`` first."""
    played = match_input(match, counted_results([match.round]))
    counted = policy.team_match_boards_counted(
        match.round, (r.board for r in played.open_room), (r.board for r in played.closed_room)
    )
    result = score_team_match(
        replace(
            played,
            open_room=[r for r in played.open_room if r.board in counted],
            closed_room=[r for r in played.closed_room if r.board in counted],
        )
    )
    lineups = {
        lu.team_id: lu
        for lu in LineUp.objects.filter(match=match)
        .select_related("first__pair", "second__pair")
        .prefetch_related("substitutes")
    }
    closed = match.round.status == Round.Status.CLOSED
    lines = [
        line if policy.team_match_board_shown(line.status, round_closed=closed) else None
        for line in result.lines
    ]
    return MatchView(
        match=match,
        a=_side(match.team_a, lineups),
        b=_side(match.team_b, lineups),
        lines=lines,
        boards=[line.board for line in result.lines],
        result=result,
        complete=all(line is not None for line in lines),
    )


def round_matches(ev: EventView, number: int, actor: Actor) -> list[tuple[TeamMatch, bool]]:
    """The round's matches, each with whether this viewer may follow it."""
    rnd = ev.rounds.get(number)
    if rnd is None or rnd.status == Round.Status.PENDING:
        return []
    matches = list(match_queryset().filter(round=rnd).order_by("number"))
    return [(m, policy.can_follow_team_match(actor, m)) for m in matches]


def played_rounds(ev: EventView) -> list[int]:
    return [n for n, r in sorted(ev.rounds.items()) if r.status != Round.Status.PENDING]
