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
from tournaments.bulk import insert_rows
from tournaments.models import Club, Entry, Event, PlayerRating, RatingHistory, Substitution
from tournaments.rating_reads import stored_state
from tournaments.scoring_io import club_results_input, event_input

APPLIED, RECOMPUTED, SKIPPED = "applied", "recomputed", "skipped"
BATCH = 5000


Lineups = tuple[dict[int, Players], dict[tuple[int, int], Players]]
ENTRY_PLAYERS = ("pk", "pair__player1_id", "pair__player2_id")
SUBSTITUTION_FIELDS = (
    "entry_id",
    "from_round",
    "pk",
    "previous_pair__player1_id",
    "previous_pair__player2_id",
)


def _lineups(entries: Iterable[tuple], substitutions: Iterable[tuple], rounds: int) -> Lineups:
    """Each entry's two players in round 1, and who sat instead in later rounds.

    ``entries``: (entry id, player 1, player 2) of its current pair; ``substitutions``:
    ``SUBSTITUTION_FIELDS``. A substitution from round r means the entry's pair before it
    (``previous_pair``) played the rounds before r; the entry's current pair plays from its
    last substitution on.
    """
    changes: dict[int, list[tuple]] = {}
    for entry_id, *change in substitutions:
        changes.setdefault(entry_id, []).append(tuple(change))
    lineups: dict[int, Players] = {}
    subs: dict[tuple[int, int], Players] = {}
    for entry_id, player1, player2 in entries:
        own = sorted(changes.get(entry_id, []))  # by (from round, id)

        def players(rnd: int, own: list[tuple] = own, current: Players = (player1, player2)):
            later = [c for c in own if c[0] > rnd]
            return (later[0][2], later[0][3]) if later else current

        lineups[entry_id] = players(1)
        for rnd in range(2, rounds + 1):
            if players(rnd) != lineups[entry_id]:
                subs[(rnd, entry_id)] = players(rnd)
    return lineups, subs


def lineups_of(event: Event) -> Lineups:
    """The event's line-ups (``_lineups``), read in two queries."""
    return _lineups(
        event.entries.values_list(*ENTRY_PLAYERS),
        Substitution.objects.filter(entry__event=event).values_list(*SUBSTITUTION_FIELDS),
        event.rounds_count,
    )


def club_lineups(club_id: int, events: list[Event]) -> dict[int, Lineups]:
    """The line-ups of all the club's finished pairs events, read in two queries."""
    finished = {
        "event__club_id": club_id,
        "event__status": Event.Status.FINISHED,
        "event__competitor": Event.Competitor.PAIRS,
    }
    entries: dict[int, list[tuple]] = {}
    for event_id, *row in Entry.objects.filter(**finished).values_list("event_id", *ENTRY_PLAYERS):
        entries.setdefault(event_id, []).append(tuple(row))
    subs: dict[int, list[tuple]] = {}
    for event_id, *row in Substitution.objects.filter(
        **{f"entry__{k}": v for k, v in finished.items()}
    ).values_list("entry__event_id", *SUBSTITUTION_FIELDS):
        subs.setdefault(event_id, []).append(tuple(row))
    return {
        e.pk: _lineups(entries.get(e.pk, []), subs.get(e.pk, []), e.rounds_count) for e in events
    }


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
    """The club's ratings from scratch over its whole history; the number of events rated.

    One pass: the whole history is read in a few queries (``club_results_input``,
    ``club_lineups``), rated in order, and the ratings and every player's history are
    written in bulk (benchmarks/ratings.py times it on 500 events of 40 pairs)."""
    with transaction.atomic():
        # Row lock on the club: a recomputation and an event's update running at once would
        # each write ratings from a different history.
        club = Club.objects.select_for_update(of=("self",), no_key=True).get(pk=club_id)
        PlayerRating.objects.filter(club=club).delete()
        RatingHistory.objects.filter(event__club=club).delete()
        Event.objects.filter(club=club).update(rated_at=None)
        history = club_results_input(club.pk)
        events = [event for event, _data in history]
        lineups = club_lineups(club.pk, events)
        inputs = [
            rating_event_from_input(
                data,
                event=event.pk,
                when=event.date,
                lineups=lineups[event.pk][0],
                substitutes=lineups[event.pk][1],
            )
            for event, data in history
        ]
        rows: list[RatingHistory] = []
        state = None
        for rating_event, state in replay_history(inputs):
            rows += [
                RatingHistory(player_id=p, event_id=rating_event.event, mu=r.mu, sigma=r.sigma)
                for p in sorted(rating_event.players())
                for r in [state.ratings[p]]
            ]
        insert_rows(RatingHistory, rows, batch=BATCH)
        if state is not None:
            PlayerRating.objects.bulk_create(
                [
                    PlayerRating(
                        club=club,
                        player_id=p,
                        mu=r.mu,
                        sigma=r.sigma,
                        events=r.events,
                        boards=r.boards,
                    )
                    for p, r in state.ratings.items()
                ],
                batch_size=BATCH,
            )
        Event.objects.filter(pk__in=[e.pk for e in events]).update(rated_at=timezone.now())
    return len(events)


def ratings_update(event_id: int) -> str:
    """Take a finished event into its club's ratings: APPLIED, RECOMPUTED or SKIPPED."""
    with transaction.atomic():
        event = Event.objects.select_related("club").get(pk=event_id)
        if event.club_id is None or event.is_team_event:
            return SKIPPED
        club = Club.objects.select_for_update(of=("self",), no_key=True).get(
            pk=event.club_id
        )  # see ratings_recompute
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
