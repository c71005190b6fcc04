"""Plain data objects the scoring algorithms read and return.

Entries are identified by an integer id (the database side uses primary keys). Scores are the
R9 hand scores: on each board at most one of ``score_ns``/``score_ew`` is non-zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import MatchRules

RANKING_METHODS = ("wins", "matchpoints", "points")
MATCH_MODES = ("boards", "game")
PAIRING_METHODS = ("swiss", "roundrobin", "groups")
SEEDINGS = ("lot", "rating")

# Referee's artificial adjusted scores: the percentage the side gets on that board.
ADJUSTED_PCT: dict[str, float] = {"avg_plus": 60.0, "avg": 50.0, "avg_minus": 40.0}


class CannotPair(ValueError):
    """A method cannot pair these competitors. ``code`` says why, for a message in the reader's
    language ("too_few", "rounds", "group_of_one", "qualifiers"), with its ``params``."""

    def __init__(self, code: str, message: str, **params: int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


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
    """One table of a round. ``time_after``: the round's time was called during that deal of
    the table's match (it was finished, no deal after it started); None: no time called."""

    round: int
    table: int
    ns: int
    ew: int
    results: list[BoardResult] = field(default_factory=list)
    time_after: int | None = None
    # "NS" or "EW": that side's pair withdrew during the round and forfeited the match.
    forfeited_by: str | None = None


@dataclass(frozen=True, slots=True)
class RoundInput:
    """A round: its tables, the Swiss bye (a win, ``bye_points`` to 0) and the rests.

    A *rest* is a round without a game that scores nothing: the sit-out of a round robin with an
    odd number, a group that has finished its games, a knockout bye to the next round.
    """

    number: int
    boards: list[int]
    tables: list[TableRound]
    bye: int | None = None
    rests: list[int] = field(default_factory=list)
    # An open round counts only the matches that are over; a closed one every match with a
    # board played (the organiser closed it: the boards not played count as not played).
    closed: bool = True


@dataclass(frozen=True, slots=True)
class LateEntry:
    """``entry`` plays from round ``round`` on, starting with ``match_points`` (2 = one win)."""

    entry: int
    round: int
    match_points: int = 0


@dataclass(frozen=True, slots=True)
class ByeRequest:
    """``entry`` asked to sit out round ``round``; it scores ``match_points`` (2 = one win)."""

    entry: int
    round: int
    match_points: int = 0


@dataclass(frozen=True, slots=True)
class PairingOptions:
    """How an event pairs its rounds (see docs/scoring.md).

    * ``method``: ``swiss``, ``roundrobin`` or ``groups`` (groups, then knockout).
    * ``rounds``: the rounds planned (Swiss: needed by ``accelerated``; round robin: None for
      the whole field, once or twice with ``double``).
    * ``seeding``: the initial order, ``lot`` (scoring.lots) or ``rating`` (best first, then lot).
    * ``accelerated``: Baku acceleration of the Swiss (scoring.pairing.virtual_points).
    * ``club_rounds``: pairs of the same club do not meet in rounds 1..club_rounds.
    * ``group_size``, ``qualifiers``: groups of that size at most, the best ``qualifiers`` of
      each go through; ``repesca``: how many best non-qualifiers join them (None: as many as
      fill the bracket to a power of two); ``repesca_min_points``: fewer match points than that
      and a competitor is not in the repesca.
    """

    method: str = "swiss"
    rounds: int | None = None
    seeding: str = "lot"
    accelerated: bool = False
    club_rounds: int = 0
    double: bool = False
    group_size: int = 4
    qualifiers: int = 1
    repesca: int | None = 0
    repesca_min_points: int = 0

    def __post_init__(self) -> None:
        if self.method not in PAIRING_METHODS:
            raise ValueError(f"unknown pairing method {self.method!r}; expected {PAIRING_METHODS}")
        if self.seeding not in SEEDINGS:
            raise ValueError(f"unknown seeding {self.seeding!r}; expected one of {SEEDINGS}")
        if self.rounds is not None and self.rounds < 1:
            raise ValueError(f"an event needs at least one round, not {self.rounds}")
        if self.group_size < 2:
            raise ValueError(f"a group needs at least 2 competitors, not {self.group_size}")
        if not 1 <= self.qualifiers <= self.group_size:
            raise ValueError(f"qualifiers per group must be 1..group size, not {self.qualifiers}")
        if self.repesca is not None and self.repesca < 0:
            raise ValueError(f"the repesca cannot be negative: {self.repesca}")
        if self.club_rounds < 0:
            raise ValueError(f"club rounds cannot be negative: {self.club_rounds}")


@dataclass(frozen=True, slots=True)
class EventInput:
    """An event as the algorithms see it. Competitors are integer ids (pairs or teams).

    ``withdrawn``: id -> the round after which it withdrew. ``missed``: id -> the rounds it
    was not paired in because it had withdrawn, a withdrawal later taken back. ``clubs``: id ->
    club id (for the prohibited same-club pairings); ``forbidden``: pairs of ids that never
    meet; ``ratings``: id -> rating, for seeding by rating.
    """

    entries: list[int]
    numbers: dict[int, int]
    withdrawn: dict[int, int]
    rounds: list[RoundInput]
    ranking_method: str = "wins"
    match_mode: str = "boards"
    game_target: int | None = 101
    game_cap: int | None = 121
    bye_points: int = 36
    seed: str = ""
    deal_limit: int | None = None
    draw: str = "half"
    tiebreak_deals: int = 2
    pairing: PairingOptions = field(default_factory=PairingOptions)
    clubs: dict[int, int] = field(default_factory=dict)
    forbidden: list[tuple[int, int]] = field(default_factory=list)
    ratings: dict[int, int] = field(default_factory=dict)
    late_entries: list[LateEntry] = field(default_factory=list)
    bye_requests: list[ByeRequest] = field(default_factory=list)
    missed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # Competitors ranked elsewhere (teams, by victory points: ``scoring.team_pairing``): the
    # order the Swiss pairs them in and their pairing scores. None: the pairs' own standings.
    ranking: list[int] | None = None
    scores: dict[int, float] | None = None

    @property
    def match_rules(self) -> MatchRules:
        """The limits of a game in this event (game mode)."""
        return MatchRules(
            target=self.game_target,
            deal_limit=self.deal_limit,
            cap=self.game_cap,
            draw=self.draw,
            tiebreak_deals=self.tiebreak_deals,
        )

    def joins(self, entry: int) -> int:
        """The first round ``entry`` plays (1 unless it is a late entry)."""
        for late in self.late_entries:
            if late.entry == entry:
                return late.round
        return 1

    def active(self, round_number: int) -> list[int]:
        """The competitors that can be paired in ``round_number``: entered, not withdrawn
        before it (nor out of it then, a withdrawal taken back later), not sitting it out at
        their request (in ``entries`` order)."""
        late = {x.entry: x.round for x in self.late_entries}
        away = {x.entry for x in self.bye_requests if x.round == round_number}
        return [
            e
            for e in self.entries
            if late.get(e, 1) <= round_number and not self.out_of(e, round_number) and e not in away
        ]

    def out_of(self, entry: int, round_number: int) -> bool:
        """Whether ``entry`` had withdrawn when ``round_number`` was paired (also a withdrawal
        taken back since: ``missed``)."""
        return self.withdrawn.get(entry, round_number) < round_number or (
            round_number in self.missed.get(entry, ())
        )


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
    # Counted in the standings: a board was played and the match is over (every board played,
    # the game won, time called) or its round is closed. Nobody is credited with a match not
    # played, nor with a win after one board of four.
    final: bool = True
    forfeited_by: str | None = None


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
    rests: int = 0
    requested_byes: int = 0


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
    """A round's tables as (ns, ew), best first; the Swiss bye; the rests (no game, no score);
    ``rematches``: tables whose pairs had met, or may not meet, made because unavoidable."""

    tables: list[tuple[int, int]]
    bye: int | None = None
    rematches: list[tuple[int, int]] = field(default_factory=list)
    rests: list[int] = field(default_factory=list)
