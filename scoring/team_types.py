"""Plain data objects of team events and the league (docs/teams.md).

Teams, pairs and league teams are identified by integers (the database side uses primary keys). Board
results are ``scoring.types.BoardResult``: in a team event their ``ns``/``ew`` are the *pairs*
that sat there (Butler ranks them), the team of each pair is known from the match.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.types import BoardResult

#: Team events: ``swiss`` ranks by VPs, then unit difference, units won, Buchholz;
#: ``round_robin`` by VPs, then head-to-head VPs among the tied teams, unit difference, units won.
TEAM_RANKING_METHODS = ("swiss", "round_robin")
#: A team match board: ``played`` at both tables and compared; ``adjusted``: a referee's
#: artificial score at one table at least; ``missing``: a table has no result (yet).
BOARD_STATUSES = ("played", "adjusted", "missing")
LEAGUE_SIDES = ("home", "away")


# -- team matches ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TeamMatchInput:
    """A match between two teams of four: both tables play the same ``boards``.

    In the *open room* team A's pair sits North–South against team B's pair; in the *closed
    room* B's other pair sits North–South against A's other pair.
    """

    round: int
    match: int
    team_a: int
    team_b: int
    boards: list[int]
    open_room: list[BoardResult] = field(default_factory=list)
    closed_room: list[BoardResult] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TeamBoardLine:
    """One board of a match scorecard.

    ``difference`` is team A's points on the board (open-room NS net − closed-room NS net), 0
    unless ``played``; ``units`` is team A's signed result in units (team B's is its negation);
    ``units_a``/``units_b`` put it in the winner's column. The running figures include this board;
    the running VPs are what the match would give if it stopped here.
    """

    board: int
    status: str
    open_net_ns: int | None
    closed_net_ns: int | None
    difference: int
    units: int
    units_a: int
    units_b: int
    running_a: int
    running_b: int
    running_vp_a: float
    running_vp_b: float


@dataclass(frozen=True, slots=True)
class TeamMatchResult:
    round: int
    match: int
    team_a: int
    team_b: int
    boards: int
    boards_played: int
    boards_adjusted: int
    boards_missing: int
    units_a: int
    units_b: int
    margin: int
    vp_a: float
    vp_b: float
    lines: list[TeamBoardLine]


# -- team events -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TeamRoundInput:
    number: int
    matches: list[TeamMatchInput]
    bye: int | None = None


@dataclass(frozen=True, slots=True)
class TeamEventInput:
    teams: list[int]
    numbers: dict[int, int]
    withdrawn: dict[int, int]
    rounds: list[TeamRoundInput]
    ranking_method: str = "swiss"
    bye_vp: float = 12.0
    blitz_per_sqrt_board: float | None = None  # None: the scale's constant
    seed: str = ""


@dataclass(frozen=True, slots=True)
class TeamStanding:
    team: int
    rank: int
    vp: float
    matches: int
    wins: int
    draws: int
    losses: int
    units_for: int
    units_against: int
    units_diff: int
    buchholz: float
    byes: int
    withdrawn: bool
    lot: int


@dataclass(frozen=True, slots=True)
class TeamStandingsResult:
    after_round: int
    standings: list[TeamStanding]
    matches: list[TeamMatchResult]


# -- Butler ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ButlerLine:
    """One result against the board's datum; ``net_ns`` is None for an artificial adjusted
    score (then the units are the adjustment's)."""

    table: int
    ns: int
    ew: int
    net_ns: int | None
    units_ns: int
    units_ew: int


@dataclass(frozen=True, slots=True)
class ButlerBoard:
    board: int
    datum: int
    results: int
    dropped: int
    lines: list[ButlerLine]


@dataclass(frozen=True, slots=True)
class ButlerStanding:
    pair: int
    rank: int
    boards: int
    units: int
    average: float
    qualified: bool
    lot: int


@dataclass(frozen=True, slots=True)
class ButlerResult:
    standings: list[ButlerStanding]
    boards: dict[int, ButlerBoard]


# -- the league --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LeagueHand:
    """A hand's scores (R9; R10 after an illegal play) for the home and the away pair."""

    home: int
    away: int


@dataclass(frozen=True, slots=True)
class LeagueGame:
    """One game of a league match: a home pair against an away pair, hand by hand."""

    hands: list[LeagueHand]


@dataclass(frozen=True, slots=True)
class LeagueMatch:
    """A fixture of a match day. No games and no forfeit: not played (yet)."""

    day: int
    home: int
    away: int
    games: list[LeagueGame] = field(default_factory=list)
    forfeit: str | None = None  # "home" or "away": that team did not turn up


@dataclass(frozen=True, slots=True)
class LeagueInput:
    teams: list[int]
    numbers: dict[int, int]
    matches: list[LeagueMatch]
    points_win: int = 3
    points_draw: int = 1
    points_loss: int = 0
    games_per_match: int = 6
    match_mode: str = "boards"
    game_target: int = 101
    game_cap: int = 121
    seed: str = ""


@dataclass(frozen=True, slots=True)
class LeagueMatchResult:
    day: int
    home: int
    away: int
    games_home: int
    games_away: int
    games_drawn: int
    points_home: int
    points_away: int
    units_home: int
    units_away: int
    league_points_home: int
    league_points_away: int
    forfeit: str | None


@dataclass(frozen=True, slots=True)
class LeagueStanding:
    team: int
    rank: int
    points: int
    played: int
    won: int
    drawn: int
    lost: int
    games_won: int
    games_lost: int
    units_for: int
    units_against: int
    units_diff: int
    lot: int


@dataclass(frozen=True, slots=True)
class LeagueTable:
    after_day: int
    standings: list[LeagueStanding]
    matches: list[LeagueMatchResult]
