"""Player ratings across events, partnership-aware: a Weng–Lin Bayesian update on each board.

Every player has a skill known as a normal distribution N(μ, σ²): μ is the rating, σ its
uncertainty. A pair is the sum of its two players. On a board played at T tables, table i's
result in North–South terms (its net score) measures the *line*

    x_i = θ(NS₁) + θ(NS₂) − θ(EW₁) − θ(EW₂) + ε_i,      ε_i ~ noise with scale β,

and the traveller compares every line with every other one, exactly as matchpoints do: line i
beats line q when its NS net is higher (1), ties (½) or loses (0). Each comparison is a two-team
game of Weng & Lin's Bradley–Terry model (J. Mach. Learn. Res. 12, 2011, algorithm 1), the
"teams" being the four players of each line with signs +1 (NS) and −1 (EW):

    m_i = Σ w_k μ_k                      (w = +1 for NS players, −1 for EW players)
    V_i = Σ σ_k²                         (the four players of line i)
    c_iq = √(V_i + V_q + 2β²)
    p_iq = 1 / (1 + exp((m_q − m_i) / c_iq))          the chance that line i beats line q
    Ω_i = λ Σ_q (s_iq − p_iq) / c_iq
    Δ_i = λ Σ_q γ_iq p_iq (1 − p_iq) / c_iq²,         γ_iq = √V_i / c_iq
    μ_k ← μ_k + w_k σ_k² Ω_i
    σ_k² ← σ_k² · max(1 − σ_k² Δ_i, κ)

with λ = 2 / T. Without λ the T − 1 comparisons of one line would count as independent
evidence although they share the line's one result; with it, each line carries about as much
evidence as one result against a known field, exactly one comparison when T = 2.

The boards of an event are applied one after the other, in the order given; before an event
every player in it gets σ² ← min(σ² + τ², σ₀²), so that ratings follow players who improve.
A table whose boards were compared with no other table (a one-table event, or results the lead
only has as match scores) counts its match result as one comparison of the two pairs (weight 1).

Events are applied in order of (date, event id). Applying the same list of events always gives
bit-for-bit the same ratings: ``rate_history`` over a club's whole history and ``rate_event``
applied one event at a time from the stored state are the same computation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from scoring.groups import round_rules
from scoring.matches import match_under
from scoring.types import EventInput

Players = tuple[int, int]


class RatingInputError(ValueError):
    """The rating input is inconsistent (a player twice at a table, an unknown entry…)."""


class OutOfOrderError(ValueError):
    """The event is not after the last event applied: recompute from scratch instead."""


@dataclass(frozen=True, slots=True)
class RatingParams:
    """The model's constants (see the module docstring and docs/clubs.md).

    ``mu``/``sigma``: a new player's rating and uncertainty; ``beta``: the noise of one line's
    result on one board; ``tau``: the uncertainty added before each event a player plays;
    ``kappa``: the smallest factor by which one board may shrink a variance.
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0
    tau: float = 25.0 / 300.0
    kappa: float = 1e-4

    def __post_init__(self) -> None:
        if not (self.sigma > 0 and self.beta > 0 and self.tau >= 0 and 0 < self.kappa < 1):
            raise RatingInputError(
                "rating parameters: need sigma > 0, beta > 0, tau >= 0, 0 < kappa < 1"
            )


DEFAULT_PARAMS = RatingParams()


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating: skill μ ± σ, and how much play it rests on."""

    mu: float
    sigma: float
    events: int = 0
    boards: int = 0

    @property
    def conservative(self) -> float:
        """μ − 3σ: the skill the player is at least, with about 99.9 % confidence."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One table's result on a board: the players of each side and the NS net score."""

    ns: Players
    ew: Players
    net_ns: float


@dataclass(frozen=True, slots=True)
class RatedBoard:
    """A board's traveller: the lines of every table that played it (two or more count)."""

    board: int
    lines: tuple[BoardLine, ...]


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A table's match when no board of it can be compared: ``mp_ns`` is 2, 1 or 0."""

    ns: Players
    ew: Players
    mp_ns: int


@dataclass(frozen=True, slots=True)
class RatingEvent:
    """Everything the ratings read of one finished event."""

    event: int
    when: date
    boards: tuple[RatedBoard, ...] = ()
    matches: tuple[RatedMatch, ...] = ()

    @property
    def key(self) -> tuple[date, int]:
        return (self.when, self.event)

    def players(self) -> frozenset[int]:
        found: set[int] = set()
        for b in self.boards:
            for line in b.lines:
                found.update(line.ns)
                found.update(line.ew)
        for m in self.matches:
            found.update(m.ns)
            found.update(m.ew)
        return frozenset(found)


@dataclass(frozen=True, slots=True)
class RatingState:
    """The ratings after the events applied so far; ``last`` is the key of the latest one."""

    ratings: Mapping[int, Rating] = field(default_factory=dict)
    last: tuple[date, int] | None = None
    events: int = 0

    def rating(self, player: int, *, params: RatingParams = DEFAULT_PARAMS) -> Rating:
        """The player's rating, or a new player's when the player has not played yet."""
        r = self.ratings.get(player)
        return r if r is not None else Rating(mu=params.mu, sigma=params.sigma)


def _check_players(ns: Players, ew: Players, where: str) -> None:
    if len(ns) != 2 or len(ew) != 2 or len({*ns, *ew}) != 4:
        raise RatingInputError(f"{where}: a table needs four different players, got {ns} v {ew}")


def _check_event(event: RatingEvent) -> None:
    for b in event.boards:
        seen: set[int] = set()
        for line in b.lines:
            _check_players(line.ns, line.ew, f"event {event.event} board {b.board}")
            for p in (*line.ns, *line.ew):
                if p in seen:
                    raise RatingInputError(
                        f"event {event.event} board {b.board}: player {p} at two tables"
                    )
                seen.add(p)
    for m in event.matches:
        _check_players(m.ns, m.ew, f"event {event.event} match")
        if m.mp_ns not in (0, 1, 2):
            raise RatingInputError(f"event {event.event}: match points {m.mp_ns} not 0, 1 or 2")


def _update_lines(
    mu: dict[int, float],
    var: dict[int, float],
    lines: Sequence[tuple[Players, Players, float]],
    weight: float,
    params: RatingParams,
) -> None:
    """One Weng–Lin Bradley–Terry update over lines compared all against all (module doc)."""
    n = len(lines)
    two_beta2 = 2.0 * params.beta * params.beta
    kappa = params.kappa
    m = []
    v = []
    for (n1, n2), (e1, e2), _net in lines:
        m.append(mu[n1] + mu[n2] - mu[e1] - mu[e2])
        v.append(var[n1] + var[n2] + var[e1] + var[e2])
    sqrt_v = [math.sqrt(x) for x in v]
    omega = [0.0] * n
    delta = [0.0] * n
    exp = math.exp
    sqrt = math.sqrt
    for i in range(n):
        m_i, v_i, net_i, sv_i = m[i], v[i], lines[i][2], sqrt_v[i]
        for q in range(i + 1, n):
            c2 = v_i + v[q] + two_beta2
            c = sqrt(c2)
            p = 1.0 / (1.0 + exp((m[q] - m_i) / c))
            net_q = lines[q][2]
            s = 1.0 if net_i > net_q else (0.0 if net_i < net_q else 0.5)
            g = (s - p) / c
            omega[i] += g
            omega[q] -= g
            h = p * (1.0 - p) / (c2 * c)
            delta[i] += sv_i * h
            delta[q] += sqrt_v[q] * h
    for i, (ns, ew, _net) in enumerate(lines):
        om = weight * omega[i]
        de = weight * delta[i]
        for k, sign in ((ns[0], 1.0), (ns[1], 1.0), (ew[0], -1.0), (ew[1], -1.0)):
            s2 = var[k]
            mu[k] += sign * s2 * om
            var[k] = s2 * max(1.0 - s2 * de, kappa)


def _update_match(
    mu: dict[int, float], var: dict[int, float], match: RatedMatch, params: RatingParams
) -> None:
    """Weng–Lin two-team update: the NS pair against the EW pair, won (1), drawn (½) or lost."""
    a, b = match.ns
    c, d = match.ew
    diff = mu[a] + mu[b] - mu[c] - mu[d]
    v_ns = var[a] + var[b]
    v_ew = var[c] + var[d]
    c2 = v_ns + v_ew + 2.0 * params.beta * params.beta
    cc = math.sqrt(c2)
    p = 1.0 / (1.0 + math.exp(-diff / cc))
    g = (match.mp_ns / 2.0 - p) / cc
    h = p * (1.0 - p) / (c2 * cc)
    for k, sign, v_team in ((a, 1.0, v_ns), (b, 1.0, v_ns), (c, -1.0, v_ew), (d, -1.0, v_ew)):
        s2 = var[k]
        mu[k] += sign * s2 * g
        var[k] = s2 * max(1.0 - s2 * math.sqrt(v_team) * h, params.kappa)


def rate_event(
    *, state: RatingState, event: RatingEvent, params: RatingParams = DEFAULT_PARAMS
) -> RatingState:
    """The ratings after ``event``, which must come after every event already applied.

    Raises ``OutOfOrderError`` for an event at or before ``state.last`` (the same event twice,
    or an older one finished late): recompute with ``rate_history`` then.
    """
    if state.last is not None and event.key <= state.last:
        raise OutOfOrderError(
            f"event {event.event} of {event.when} is not after the last one rated {state.last}"
        )
    _check_event(event)
    players = sorted(event.players())
    mu: dict[int, float] = {}
    var: dict[int, float] = {}
    max_var = params.sigma * params.sigma
    tau2 = params.tau * params.tau
    for p in players:
        r = state.rating(p, params=params)
        mu[p] = r.mu
        var[p] = min(r.sigma * r.sigma + tau2, max_var)
    boards_played = dict.fromkeys(players, 0)
    for b in event.boards:
        if len(b.lines) < 2:
            continue
        lines = [(line.ns, line.ew, float(line.net_ns)) for line in b.lines]
        _update_lines(mu, var, lines, 2.0 / len(lines), params)
        for ns, ew, _net in lines:
            for p in (*ns, *ew):
                boards_played[p] += 1
    for match in event.matches:
        _update_match(mu, var, match, params)
    ratings = dict(state.ratings)
    for p in players:
        old = state.rating(p, params=params)
        ratings[p] = Rating(
            mu=mu[p],
            sigma=math.sqrt(var[p]),
            events=old.events + 1,
            boards=old.boards + boards_played[p],
        )
    return RatingState(ratings=ratings, last=event.key, events=state.events + 1)


def replay_history(
    events: Iterable[RatingEvent],
    *,
    params: RatingParams = DEFAULT_PARAMS,
    start: RatingState | None = None,
) -> Iterator[tuple[RatingEvent, RatingState]]:
    """Each event of ``events`` in (date, id) order with the ratings just after it.

    ``start`` is a stored state to continue from (the events must all come after it); the
    empty state by default, i.e. a recomputation from scratch. The player pages' rating
    history is read from here.
    """
    state = start if start is not None else RatingState()
    ordered = sorted(events, key=lambda e: e.key)
    for prev, nxt in zip(ordered, ordered[1:], strict=False):
        if prev.key == nxt.key:
            raise RatingInputError(f"event {nxt.event} of {nxt.when} is given twice")
    for event in ordered:
        state = rate_event(state=state, event=event, params=params)
        yield event, state


def rate_history(
    events: Iterable[RatingEvent],
    *,
    params: RatingParams = DEFAULT_PARAMS,
    start: RatingState | None = None,
) -> RatingState:
    """The ratings after every event of ``events`` (a club's whole history when no ``start``)."""
    state = start if start is not None else RatingState()
    for _event, after in replay_history(events, params=params, start=start):
        state = after
    return state


def pair_strength(
    pair: Players, *, state: RatingState, params: RatingParams = DEFAULT_PARAMS
) -> tuple[float, float]:
    """A pair's strength μ₁ + μ₂ and its uncertainty √(σ₁² + σ₂²)."""
    r1, r2 = (state.rating(p, params=params) for p in pair)
    return r1.mu + r2.mu, math.sqrt(r1.sigma**2 + r2.sigma**2)


def expected_pct(rating: Rating, *, params: RatingParams = DEFAULT_PARAMS) -> float:
    """The percentage the player is expected to score on a board with a partner of the same
    rating against a field of new (average) players, as the EBU's NGS grades are read.

    With μ = μ₀ it is 50; each σ₀ above it is worth a few percent.
    """
    line = 2.0 * (rating.mu - params.mu)
    return 100.0 / (1.0 + math.exp(-line / (math.sqrt(2.0) * params.beta)))


def rating_event_from_input(
    event_input: EventInput,
    *,
    event: int,
    when: date,
    lineups: Mapping[int, Players],
    substitutes: Mapping[tuple[int, int], Players] | None = None,
) -> RatingEvent:
    """The rating input of an event from its standings input (``tournaments.scoring_io.event_input``).

    ``lineups`` maps each entry to its two players; ``substitutes`` maps (round, entry) to the
    players who sat in that round instead. Per round, each board's played results (game mode
    stops at the target, as the standings do) are compared when two or more tables have one;
    referee's adjusted scores are left out (they are not a played result). A table none of
    whose boards could be compared counts its match result instead, unless it was forfeited
    (its boards played before the forfeit are compared as any others).
    """
    subs = substitutes or {}

    def players_of(rnd: int, entry: int) -> Players:
        found = subs.get((rnd, entry)) or lineups.get(entry)
        if found is None:
            raise RatingInputError(f"event {event} round {rnd}: entry {entry} has no line-up")
        return found

    boards: list[RatedBoard] = []
    matches: list[RatedMatch] = []
    for rnd in sorted(event_input.rounds, key=lambda r: r.number):
        per_board: dict[int, list[tuple[int, BoardLine]]] = {}
        tables = sorted(rnd.tables, key=lambda t: t.table)
        played_boards: list[tuple[Players, Players, list[int], int]] = []
        rules = round_rules(event_input, rnd.number)
        for t in tables:
            ns, ew = players_of(rnd.number, t.ns), players_of(rnd.number, t.ew)
            # As the standings count the match (its rules, the round's boards for the time).
            m, played = match_under(
                t,
                mode=event_input.match_mode,
                rules=rules,
                boards=rnd.boards,
            )
            counted = [r for r in played if not r.adjusted]
            for r in counted:
                line = BoardLine(ns=ns, ew=ew, net_ns=r.score_ns - r.score_ew)
                per_board.setdefault(r.board, []).append((t.table, line))
            if t.forfeited_by is None:  # a forfeit, like a bye, says nothing of skill
                played_boards.append((ns, ew, [r.board for r in counted], m.mp_ns))
        compared = {b for b, lines in per_board.items() if len(lines) >= 2}
        for b in sorted(compared):
            boards.append(
                RatedBoard(board=b, lines=tuple(line for _t, line in sorted(per_board[b])))
            )
        for ns, ew, board_numbers, mp_ns in played_boards:
            if board_numbers and not compared.intersection(board_numbers):
                matches.append(RatedMatch(ns=ns, ew=ew, mp_ns=mp_ns))
    return RatingEvent(event=event, when=when, boards=tuple(boards), matches=tuple(matches))
