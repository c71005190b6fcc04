"""The clubs' player ratings (``scoring.ratings``) stored in the database.

A club's ratings are its finished events applied in order of (date, event id). A newly finished
event after the last one rated is applied to the stored ratings; anything else (an older event
finished late, a result corrected after the event was rated, a merge of two players) recomputes
the club's whole history from scratch. Both give the same numbers (docs/clubs.md, 1.5), so the
task may run twice, or late, without harm.
"""

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.ratings import (
    Players,
    RatingEvent,
    RatingState,
    rate_event,
    rating_event_from_input,
    replay_history,
)
from tournaments.models import Club, Entry, Event, PlayerRating, RatingHistory
from tournaments.rating_reads import stored_state
from tournaments.scoring_io import event_input

APPLIED, RECOMPUTED, SKIPPED = "applied", "recomputed", "skipped"


def lineups_of(event: Event) -> tuple[dict[int, Players], dict[tuple[int, int], Players]]:
    """Each entry's two players in round 1, and who sat instead in later rounds.

    A substitution from round r means the entry's pair before it (``previous_pair``) played the
    rounds before r; the entry's current pair plays from its last substitution on.
    """
    lineups: dict[int, Players] = {}
    subs: dict[tuple[int, int], Players] = {}
    entries = event.entries.select_related("pair").prefetch_related("substitutions__previous_pair")
    for entry in entries:
        changes = sorted(entry.substitutions.all(), key=lambda s: (s.from_round, s.pk))

        def players(rnd: int, entry: Entry = entry, changes: list = changes) -> Players:
            later = [s for s in changes if s.from_round > rnd]
            pair = later[0].previous_pair if later else entry.pair
            return (pair.player1_id, pair.player2_id)

        lineups[entry.pk] = players(1)
        for rnd in range(2, event.rounds_count + 1):
            if players(rnd) != lineups[entry.pk]:
                subs[(rnd, entry.pk)] = players(rnd)
    return lineups, subs


def rating_input(event: Event) -> RatingEvent:
    lineups, subs = lineups_of(event)
    return rating_event_from_input(
        event_input(event), event=event.pk, when=event.date, lineups=lineups, substitutes=subs
    )


def rated_events(club: Club) -> Iterable[Event]:
    # A team event ranks teams: the club's ratings (of pairs' results) leave it out for now.
    return Event.objects.filter(
        club=club, status=Event.Status.FINISHED, competitor=Event.Competitor.PAIRS
    ).order_by("date", "pk")


def _store(club: Club, event: Event, rating_event: RatingEvent, state: RatingState) -> None:
    players = rating_event.players()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                club=club, player_id=p, mu=r.mu, sigma=r.sigma, events=r.events, boards=r.boards
            )
            for p in players
            for r in [state.ratings[p]]
        ],
        update_conflicts=True,
        unique_fields=["club", "player"],
        update_fields=["mu", "sigma", "events", "boards"],
    )
    RatingHistory.objects.filter(event=event).delete()
    RatingHistory.objects.bulk_create(
        [
            RatingHistory(
                player_id=p, event=event, mu=state.ratings[p].mu, sigma=state.ratings[p].sigma
            )
            for p in sorted(players)
        ]
    )
    Event.objects.filter(pk=event.pk).update(rated_at=timezone.now())


def ratings_recompute(club_id: int) -> int:
    """The club's ratings from scratch over its whole history; the number of events rated."""
    with transaction.atomic():
        # Row lock on the club: a recomputation and an event's update running at once would
        # each write ratings from a different history.
        club = Club.objects.select_for_update().get(pk=club_id)
        PlayerRating.objects.filter(club=club).delete()
        RatingHistory.objects.filter(event__club=club).delete()
        Event.objects.filter(club=club).update(rated_at=None)
        events = {e.pk: e for e in rated_events(club)}
        inputs = [rating_input(e) for e in events.values()]
        for rating_event, state in replay_history(inputs):
            _store(club, events[rating_event.event], rating_event, state)
    return len(events)


def ratings_update(event_id: int) -> str:
    """Take a finished event into its club's ratings: APPLIED, RECOMPUTED or SKIPPED."""
    with transaction.atomic():
        event = Event.objects.select_related("club").get(pk=event_id)
        if event.club_id is None or event.is_team_event:
            return SKIPPED
        club = Club.objects.select_for_update().get(pk=event.club_id)  # see ratings_recompute
        event.refresh_from_db()
        corrected = event.corrected_at is not None and (
            event.rated_at is None or event.corrected_at > event.rated_at
        )
        if event.status != Event.Status.FINISHED or (event.rated_at and not corrected):
            return SKIPPED
        state = stored_state(club)
        unrated_before = Event.objects.filter(
            club=club,
            status=Event.Status.FINISHED,
            rated_at__isnull=True,
            competitor=Event.Competitor.PAIRS,
        ).filter(Q(date__lt=event.date) | Q(date=event.date, pk__lt=event.pk))
        if (
            corrected
            or unrated_before.exists()
            or (state.last is not None and (event.date, event.pk) <= state.last)
        ):
            ratings_recompute(club.pk)
            return RECOMPUTED
        rating_event = rating_input(event)
        _store(club, event, rating_event, rate_event(state=state, event=rating_event))
    return APPLIED
