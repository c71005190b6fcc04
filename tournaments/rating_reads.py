"""The club's stored ratings as ``scoring`` reads them (no writes: services/ratings.py updates
them), and the seeding ratings they give an event's pairs."""

from scoring.lots import lot_order
from scoring.ratings import Rating, RatingState
from scoring.seeding import rating_order
from tournaments.models import Club, Event, PlayerRating


def stored_state(club: Club) -> RatingState:
    ratings = {
        r.player_id: Rating(mu=r.mu, sigma=r.sigma, events=r.events, boards=r.boards)
        for r in PlayerRating.objects.filter(club=club)
    }
    rated = Event.objects.filter(club=club, rated_at__isnull=False).order_by("-date", "-pk")
    last = rated.values_list("date", "pk").first()
    return RatingState(ratings=ratings, last=tuple(last) if last else None, events=rated.count())


def club_seeding_ratings(event: Event) -> dict[int, int]:
    """Seeding ratings of the event's pairs from the club's ratings of their players
    (``scoring.seeding``): strongest first, as descending numbers; empty without a club."""
    if event.club_id is None:
        return {}
    entries = list(event.entries.filter(withdrawn_after_round__isnull=True).select_related("pair"))
    lot = lot_order({e.pk: e.number for e in entries}, event.seed)
    by_pk = {e.pk: e for e in entries}
    pairs = {pk: (by_pk[pk].pair.player1_id, by_pk[pk].pair.player2_id) for pk in lot}
    order = rating_order(pairs, state=stored_state(event.club))
    return {pk: len(order) - i for i, pk in enumerate(order)}
