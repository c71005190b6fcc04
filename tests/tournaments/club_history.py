"""A club's evenings played through the services, with the players given (for the player pages,
merges and stored ratings)."""

import random
from datetime import date
from typing import Any

from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Club, Entry, Event, Pair, Player, Substitution
from tournaments.services import changes, events
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute


def club_with_secretary(name: str = "Penya") -> tuple[Any, Club]:
    """A club and its organiser (the user ``sec``)."""
    from tests.factories import ClubFactory, UserFactory

    secretary = UserFactory(username="sec")
    club = ClubFactory(name=name)
    club.organisers.add(secretary)
    return secretary, club


def members_evening(**options: Any) -> tuple[Any, Club, list[Player], Event]:
    """Eight members of a club (``Soci 0``…``Soci 7``) play one of its evenings as four pairs
    (0 with 4, 1 with 5, …) on 2026-10-01, from seed 9 (``options`` as :func:`club_evening`):
    the secretary, the club, the members and the event."""
    secretary, club = club_with_secretary()
    field = players(*[f"Soci {i}" for i in range(8)], club=club)
    pairs = [(field[i], field[i + 4]) for i in range(4)]
    options = {"when": date(2026, 10, 1), "seed": 9} | options
    return secretary, club, field, club_evening(club, secretary, pairs, **options)


def players(*names: str, club: Club | None = None) -> list[Player]:
    return [Player.objects.create(name=n, club=club) for n in names]


def club_evening(
    club: Club,
    organiser,
    lineup: list[tuple[Player, Player]],
    *,
    when: date,
    rounds: int = 2,
    boards: int = 2,
    play: int | None = None,
    finish: bool = True,
    seed: int = 1,
    before_play=None,
    before_round=None,
    **options: object,
) -> Event:
    """An evening of ``club``: one pair per ``lineup`` item, ``play`` rounds played and closed
    (all by default), published, and finished when every round was played and ``finish``;
    ``before_play(event)`` runs once the event has started, before round 1 is proposed, and
    ``before_round[n](event)`` before round n is proposed."""
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor,
        name=f"{club.name} {when.isoformat()}",
        club=club,
        date=when,
        rounds_count=rounds,
        boards_per_round=boards,
        **options,
    )
    for number, (a, b) in enumerate(lineup, start=1):
        pair = Pair.objects.create(name=f"{a.name} – {b.name}", player1=a, player2=b)
        Entry.objects.create(event=event, pair=pair, number=number)
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()
    if before_play is not None:
        before_play(event)
    rng = random.Random(seed)
    for n in range(1, (rounds if play is None else play) + 1):
        if before_round and n in before_round:
            before_round[n](event)
            event.refresh_from_db()
        pairings_propose(event.pk, n, actor=actor)
        rnd = events.round_open(rnd=event.rounds.get(number=n), actor=actor)
        play_round(rnd, rng)
        events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    events.event_publish(event=event, actor=actor)
    if finish and (play is None or play == rounds):
        events.event_finish(event=event, actor=actor)
    event.refresh_from_db()
    return event


def evening_with_a_replacement(
    club: Club, organiser, field: list[Player], *, when: date
) -> tuple[Event, Substitution]:
    """An evening of ``field`` (eight players: 1 with 5, 2 with 6…) where pair 1's second
    player is replaced by a new "Zoe" before round 1 (so never plays), then played."""
    made = []

    def replace_one(event: Event) -> None:
        made.append(
            changes.player_substitute(
                entry=event.entries.get(number=1), actor=Actor(user=organiser), seat=2, name="Zoe"
            )
        )

    event = club_evening(
        club,
        organiser,
        [(field[i], field[i + 4]) for i in range(4)],
        when=when,
        before_play=replace_one,
    )
    return event, made[0]
