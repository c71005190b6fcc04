"""A published event for the public-pages tests: round 1 closed, round 2 open with results."""

import random

from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Board, Event, Round
from tournaments.services import events
from tournaments.services.standings import standings_recompute
from tournaments.templatetags.cards import hand_lines

OPEN_ROUND_BOARDS = (3, 4)


def build_played_event(event: Event, organiser, *, publish: bool = True) -> Event:
    actor = Actor(user=organiser)
    rng = random.Random(7)
    entries = list(event.entries.order_by("number"))
    r1 = event.rounds.get(number=1)
    play_round(r1, rng)
    events.round_close(rnd=r1, actor=actor)
    r2 = events.round_propose(
        event=event,
        actor=actor,
        number=2,
        tables=[(entries[0].pk, entries[2].pk), (entries[1].pk, entries[3].pk)],
    )
    events.round_open(rnd=r2, actor=actor)
    play_round(Round.objects.get(pk=r2.pk), rng)
    standings_recompute(event.pk)
    if publish:
        events.event_publish(event=event, actor=actor)
    event.refresh_from_db()
    return event


def open_round_hand_html(event: Event) -> list[str]:
    """The exact HTML of every hand of the open round's boards, as a page would print it."""
    return [
        str(hand_lines(tokens))
        for board in Board.objects.filter(event=event, number__in=OPEN_ROUND_BOARDS)
        for tokens in board.hands.values()
    ]


def assert_no_open_round_hands(content: str, event: Event) -> None:
    for html in open_round_hand_html(event):
        assert html not in content
