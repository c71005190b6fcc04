"""Plain data objects the scoring algorithms read and return.

Entries are identified by an integer id (the bridge uses the database primary key). Scores are the
R9 hand scores: on each board at most one of ``score_ns``/``score_ew`` is non-zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANKING_METHODS = ("wins", "matchpoints", "points")
MATCH_MODES = ("boards", "game")

# Referee's artificial adjusted scores: the percentage the side gets on that board.
ADJUSTED_PCT: dict[str, float] = {"avg_plus": 60.0, "avg": 50.0, "avg_minus": 40.0}


@dataclass(frozen=True, slots=True)
class BoardResult:
    board: int
    table: int
    ns: int
    ew: int
    score_ns: int
    score_ew: int
    adjusted_ns: str | None = None
    adjusted_ew: str | None = None

    @property
    def adjusted(self) -> bool:
        return self.adjusted_ns is not None or self.adjusted_ew is not None


@dataclass(frozen=True, slots=True)
class TableRound:
    round: int
    table: int
    ns: int
    ew: int
    results: list[BoardResult] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RoundInput:
    number: int
    boards: list[int]
    tables: list[TableRound]
    bye: int | None = None


@dataclass(frozen=True, slots=True)
class EventInput:
    entries: list[int]
    numbers: dict[int, int]
    withdrawn: dict[int, int]
    rounds: list[RoundInput]
    ranking_method: str = "wins"
    match_mode: str = "boards"
    game_target: int = 101
    game_cap: int = 121
    bye_points: int = 36
    seed: str = ""


@dataclass(frozen=True, slots=True)
class TravellerLine:
    table: int
    ns: int
    ew: int
    score_ns: int
    score_ew: int
    net_ns: int
    mp_ns: float
    mp_ew: float
    pct_ns: float
    pct_ew: float


@dataclass(frozen=True, slots=True)
class Traveller:
    board: int
    lines: list[TravellerLine]
    top: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    round: int
    table: int
    ns: int
    ew: int
    total_ns: int
    total_ew: int
    boards_played: int
    mp_ns: int
    mp_ew: int


@dataclass(frozen=True, slots=True)
class Standing:
    entry: int
    rank: int
    match_points: float
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    point_diff: int
    buchholz: float
    duplicate_pct: float
    boards_played: int
    byes: int
    withdrawn: bool
    lot: int


@dataclass(frozen=True, slots=True)
class StandingsResult:
    after_round: int
    standings: list[Standing]
    matches: list[MatchResult]
    travellers: dict[int, Traveller]


@dataclass(frozen=True, slots=True)
class PairHistory:
    opponents: frozenset[int] = frozenset()
    directions: tuple[str, ...] = ()
    byes: int = 0
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class Pairing:
    tables: list[tuple[int, int]]
    bye: int | None = None
    rematches: list[tuple[int, int]] = field(default_factory=list)
