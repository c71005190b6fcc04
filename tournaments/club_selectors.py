"""Reads of the club pages: the ratings list as the reader may see it (``policy.PlayerAccess``)."""

from dataclasses import dataclass

from scoring.ratings import Rating, expected_pct
from tournaments import policy
from tournaments.actors import Actor
from tournaments.models import Club, Player, PlayerRating


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
