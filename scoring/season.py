"""The club's season: points for each event placement, "best N of M", a ranking of players.

A season groups events (the club's weekly evenings, a league). Each event's final standings
give every entry a place; a point table turns the place into points; every player who played
for the entry gets its points (a season ranks players, since partners change; ``by="pair"``
ranks partnerships instead). A player's season total is the sum of their ``best`` event scores
(all of them when ``best`` is None).

Point tables (``POINT_TABLES``; a club may also build its own ``PointTable``):

* ``field`` (default): N − place + 1 in a field of N entries: one point for each entry
  finishing at or below you. The winner of a 20-pair evening gets 20, the last pair 1; a
  bigger evening is worth more, and every evening played is worth at least a point.
* ``top10``: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1 for places 1 to 10, 0 below, whatever the field.
* ``top10_scaled``: the ``top10`` table × N / 16: as printed for a 16-pair field, worth more in a
  bigger one (as bridge masterpoints are).

Ties: entries that share a rank (1, 2, 2, 4) share the places they cover (2 and 3) and each
gets the average of those places' points.

The season ranking: total points, then countback (the better best event score, then the
better second-best, and so on, over every event played, counted or not); competitors equal on
all of that share a rank and are listed by id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from scoring.types import StandingsResult

POINT_KINDS = ("field", "fixed", "scaled")
SEASON_BY = ("player", "pair")
# Points are averages of floats: round them before comparing so that equal players tie.
_DIGITS = 9


class SeasonInputError(ValueError):
    """The season input is inconsistent (ranks that do not add up, a player placed twice…)."""


@dataclass(frozen=True, slots=True)
class PointTable:
    """Points for a place in a field of N entries.

    ``kind`` "field": N − place + 1. "fixed": ``places[place − 1]``, ``beyond`` past the
    table. "scaled": the fixed points × N / ``reference_field``.
    """

    kind: str = "field"
    places: tuple[float, ...] = ()
    beyond: float = 0.0
    reference_field: int = 0

    def __post_init__(self) -> None:
        if self.kind not in POINT_KINDS:
            raise SeasonInputError(
                f"unknown point table kind {self.kind!r}; expected {POINT_KINDS}"
            )
        if self.kind != "field" and not self.places:
            raise SeasonInputError(f"a {self.kind!r} point table needs its points by place")
        if self.kind == "scaled" and self.reference_field < 1:
            raise SeasonInputError("a scaled point table needs its reference field size")

    def points(self, place: int, field: int) -> float:
        """Points for ``place`` (1 = first) in a field of ``field`` entries.

        >>> POINT_TABLES["field"].points(1, 20), POINT_TABLES["field"].points(20, 20)
        (20.0, 1.0)
        >>> POINT_TABLES["top10_scaled"].points(1, 24)
        37.5
        """
        if not 1 <= place <= field:
            raise SeasonInputError(f"place {place} is outside a field of {field}")
        if self.kind == "field":
            return float(field - place + 1)
        base = self.places[place - 1] if place <= len(self.places) else self.beyond
        if self.kind == "fixed":
            return float(base)
        return base * field / self.reference_field

    def shared(self, first_place: int, count: int, field: int) -> float:
        """Each tied entry's points: the average over the places ``count`` entries cover."""
        places = range(first_place, first_place + count)
        return sum(self.points(p, field) for p in places) / count


_TOP10 = (25.0, 18.0, 15.0, 12.0, 10.0, 8.0, 6.0, 4.0, 2.0, 1.0)
POINT_TABLES: Mapping[str, PointTable] = {
    "field": PointTable("field"),
    "top10": PointTable("fixed", places=_TOP10),
    "top10_scaled": PointTable("scaled", places=_TOP10, reference_field=16),
}


@dataclass(frozen=True, slots=True)
class Placement:
    """An entry's final rank and the players credited with it (two; more with a substitute;
    none for a pair that played no round, whose place still counts in the field)."""

    rank: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    """One event of the season: its placements; ``field`` is their number unless given."""

    event: int
    when: date
    placements: tuple[Placement, ...]
    field: int | None = None


@dataclass(frozen=True, slots=True)
class EventPoints:
    event: int
    points: float
    counted: bool


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """A player (``competitor`` = (player,)) or a partnership (the two players, sorted)."""

    competitor: tuple[int, ...]
    rank: int
    total: float
    events_played: int
    results: tuple[EventPoints, ...]


def placements_from_standings(
    result: StandingsResult, *, lineups: Mapping[int, Sequence[int]]
) -> tuple[Placement, ...]:
    """The placements of an event's final standings; ``lineups`` maps entry -> its players."""
    try:
        return tuple(
            Placement(rank=s.rank, players=tuple(lineups[s.entry])) for s in result.standings
        )
    except KeyError as exc:
        raise SeasonInputError(f"entry {exc} has no line-up") from None


def event_points(event: SeasonEvent, *, table: PointTable) -> list[tuple[Placement, float]]:
    """Each placement with its points; shared ranks share the places they cover.

    Entries sharing a rank must all be given. Without ``event.field`` the placements are the
    whole field and their ranks must cover places 1…N exactly (1, 2, 2, 4); with it, some
    entries may be left out (their places stay empty) but no two ranks may overlap.
    """
    ordered = sorted(event.placements, key=lambda p: p.rank)
    field = event.field if event.field is not None else len(ordered)
    count: dict[int, int] = {}
    for p in ordered:
        count[p.rank] = count.get(p.rank, 0) + 1
    free = 1  # the first place no earlier rank covers
    for rank in sorted(count):
        if rank < free:
            raise SeasonInputError(
                f"event {event.event}: rank {rank} overlaps the places of the ranks above it"
            )
        free = rank + count[rank]
    if free - 1 > field:
        raise SeasonInputError(
            f"event {event.event}: the placements need {free - 1} places in a field of {field}"
        )
    return [(p, table.shared(p.rank, count[p.rank], field)) for p in ordered]


def season_ranking(
    events: Iterable[SeasonEvent],
    *,
    table: PointTable = POINT_TABLES["field"],
    best: int | None = None,
    by: str = "player",
) -> list[SeasonStanding]:
    """The season ranking over ``events``, counting each competitor's ``best`` event scores.

    Which scores count among equal ones: the earlier event's (it changes no total).
    """
    if by not in SEASON_BY:
        raise SeasonInputError(f"unknown season ranking {by!r}; expected one of {SEASON_BY}")
    if best is not None and best < 1:
        raise SeasonInputError("best must be at least 1 (or None for every event)")
    ordered = sorted(events, key=lambda e: (e.when, e.event))
    scores: dict[tuple[int, ...], list[tuple[int, float]]] = {}
    for index, event in enumerate(ordered):
        if index and ordered[index - 1].event == event.event:
            raise SeasonInputError(f"event {event.event} is given twice")
        seen: set[tuple[int, ...]] = set()
        for placement, points in event_points(event, table=table):
            if not placement.players:
                continue
            if len(set(placement.players)) != len(placement.players):
                raise SeasonInputError(f"event {event.event}: bad line-up {placement.players}")
            competitors: list[tuple[int, ...]]
            if by == "player":
                competitors = [(p,) for p in placement.players]
            else:
                competitors = [tuple(sorted(placement.players))]
            for c in competitors:
                if c in seen:
                    raise SeasonInputError(f"event {event.event}: {c} is placed twice")
                seen.add(c)
                scores.setdefault(c, []).append((index, points))

    standings: list[tuple[tuple[float, ...], SeasonStanding]] = []
    for competitor, played in scores.items():
        by_value = sorted(played, key=lambda item: (-item[1], item[0]))
        counted = {i for i, _ in (by_value if best is None else by_value[:best])}
        total = sum(points for i, points in played if i in counted)
        results = tuple(
            EventPoints(event=ordered[i].event, points=points, counted=i in counted)
            for i, points in played
        )
        # Countback compares the scores best first, a missing event counting as 0 points.
        countback = [-round(pts, _DIGITS) for _, pts in by_value]
        countback += [0.0] * (len(ordered) - len(countback))
        key = (-round(total, _DIGITS), *countback)
        standing = SeasonStanding(
            competitor=competitor, rank=0, total=total, events_played=len(played), results=results
        )
        standings.append((key, standing))
    return _ranked(standings)


def _ranked(keyed: list[tuple[tuple[float, ...], SeasonStanding]]) -> list[SeasonStanding]:
    keyed.sort(key=lambda t: (t[0], t[1].competitor))
    out: list[SeasonStanding] = []
    prev: tuple[float, ...] | None = None
    rank = 0
    for pos, (key, s) in enumerate(keyed, start=1):
        if key != prev:
            rank, prev = pos, key
        out.append(replace(s, rank=rank))
    return out
