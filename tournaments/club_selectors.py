"""Reads of the club pages: the ratings list as the reader may see it (``policy.PlayerAccess``),
and a season's ranking (``scoring.season``) over its finished events."""

from dataclasses import dataclass

from django.db.models import Max

from scoring.ratings import Rating, expected_pct
from scoring.season import POINT_TABLES, Placement, SeasonEvent, season_ranking
from tournaments import policy
from tournaments.actors import Actor
from tournaments.lineups import lineups as entry_lineups
from tournaments.lineups import played_rounds
from tournaments.models import (
    Club,
    Event,
    Player,
    PlayerRating,
    Round,
    Season,
    StandingsSnapshot,
)


@dataclass(frozen=True)
class RatingRow:
    rank: int
    player: Player
    mu: float
    sigma: float
    conservative: float
    expected_pct: float
    events: int


def club_ratings(club: Club, actor: Actor) -> list[RatingRow]:
    """The club's rated players by conservative rating μ − 3σ, best first: all of them for the
    club's organisers and the site's staff, for the public those who show their rating."""
    rows = PlayerRating.objects.filter(club=club).select_related("player")
    sees_all = club.may_act_for(actor.user) or policy.PlayerAccess.sees_everyone(actor)
    if not sees_all:
        rows = rows.filter(player__visibility=Player.Visibility.RATING)
    ratings = [
        (Rating(mu=r.mu, sigma=r.sigma, events=r.events, boards=r.boards), r.player) for r in rows
    ]
    ratings.sort(key=lambda rp: (-rp[0].conservative, rp[1].name, rp[1].pk))
    return [
        RatingRow(
            rank=i,
            player=p,
            mu=r.mu,
            sigma=r.sigma,
            conservative=r.conservative,
            expected_pct=expected_pct(r),
            events=r.events,
        )
        for i, (r, p) in enumerate(ratings, start=1)
    ]


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    players: list[Player]
    total: float
    events_played: int
    points: list[tuple[float, bool] | None]  # per season event: (points, counted), None: absent


@dataclass
class SeasonView:
    season: Season
    events: list[Event]
    rows: list[SeasonRow]


def _final_placements(
    event: Event, rows: list[dict], *, by_pair: bool = False
) -> tuple[Placement, ...]:
    """The final standings' places, each credited to everyone who played for the entry; or,
    ``by_pair``, to the two players who played most of its rounds (the later line-up on a tie):
    a partnership is two players."""
    entries = event.entries.select_related("pair").prefetch_related("substitutions__previous_pair")
    played = played_rounds(event.rounds.only("number", "status"))
    lineups: dict[int, tuple[int, ...]] = {}
    for entry in entries:
        spans = entry_lineups(entry, played=played)  # each line-up in order, its rounds played
        if by_pair:
            most = max(rounds for _pair, rounds in spans)
            pair = [p for p, rounds in spans if rounds == most][-1]
            # A pair that played no round (withdrawn before round 1) credits no partnership.
            lineups[entry.pk] = (pair.player1_id, pair.player2_id) if most else ()
            continue
        ids: list[int] = []
        for pair, rounds in spans:
            if rounds <= 0:  # replaced before it played a round: that line-up never played
                continue
            ids += [p for p in (pair.player1_id, pair.player2_id) if p not in ids]
        lineups[entry.pk] = tuple(ids)
    return tuple(Placement(rank=r["rank"], players=lineups[r["entry"]]) for r in rows)


def season_events(season: Season, actor: Actor) -> list[Event]:
    """The season's events the reader may see that are finished (so every round is closed)."""
    return list(
        policy.visible_events(actor)
        .filter(
            club=season.club,
            status=Event.Status.FINISHED,
            competitor=Event.Competitor.PAIRS,  # a team event ranks teams, not pairs
            date__gte=season.starts,
            date__lte=season.ends,
        )
        .order_by("date", "pk")
    )


def season_view(season: Season, actor: Actor) -> SeasonView:
    events = season_events(season, actor)
    snapshots = {
        s.event_id: s
        for s in StandingsSnapshot.objects.filter(event__in=events).order_by(
            "event_id", "after_round"
        )
    }  # the last snapshot of each event: its final standings
    # Final once it counts the last round played: an evening that ran late may be finished
    # before its planned last round.
    last_closed = dict(
        Round.objects.filter(event__in=events, status=Round.Status.CLOSED)
        .values("event_id")
        .annotate(last=Max("number"))
        .values_list("event_id", "last")
    )
    inputs = [
        SeasonEvent(
            event=e.pk,
            when=e.date,
            placements=_final_placements(e, snapshots[e.pk].rows, by_pair=season.rank_by == "pair"),
        )
        for e in events
        if e.pk in snapshots and snapshots[e.pk].after_round == last_closed.get(e.pk)
    ]
    counted = {i.event for i in inputs}
    events = [e for e in events if e.pk in counted]
    standings = season_ranking(
        inputs,
        table=POINT_TABLES[season.point_table],
        best=season.best,
        by=season.rank_by,
    )
    people = Player.objects.in_bulk({p for s in standings for p in s.competitor})
    rows = []
    for s in standings:
        by_event = {r.event: (r.points, r.counted) for r in s.results}
        rows.append(
            SeasonRow(
                rank=s.rank,
                players=[people[p] for p in s.competitor],
                total=s.total,
                events_played=s.events_played,
                points=[by_event.get(e.pk) for e in events],
            )
        )
    return SeasonView(season=season, events=events, rows=rows)
