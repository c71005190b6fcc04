"""Team events' rounds under real concurrency on PostgreSQL (tests/tournaments/
test_lifecycle_races_pg.py does the same for pairs): reopening round 1 while round 2 is
proposed leaves no proposal of round 2 beside the reopened round (docs/organisers.md: "A
proposal for the next round is dropped")."""

import random

import pytest

from tests.teams.conftest import play_team_round, team_event
from tests.tournaments.test_lifecycle_races_pg import REPEATS, _race, _refusals_only
from tournaments.models import Event, Round
from tournaments.services import changes
from tournaments.services.pairings import pairings_propose

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_reopening_a_team_round_and_proposing_the_next(actor):
    for n in range(REPEATS):
        event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
        play_team_round(event, actor, 1, random.Random(n))
        first = event.rounds.get(number=1)

        def reopen(first=first) -> None:
            changes.round_reopen(
                rnd=Round.objects.select_related("event").get(pk=first.pk),
                actor=actor,
                reason="closed too early",
            )

        def propose(event=event) -> None:
            pairings_propose(Event.objects.get(pk=event.pk).pk, 2, actor=actor)

        _refusals_only(_race(reopen, propose))
        first.refresh_from_db()
        if first.status == Round.Status.OPEN:
            assert not Round.objects.filter(event=event, number=2).exists()
