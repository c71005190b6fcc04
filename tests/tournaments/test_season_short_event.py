"""An event the organiser finished before its planned last round (an evening that ran late) is a
finished event of the club and counts in its season (docs/clubs.md §2: "The season page ranks
the club's **finished** events between the two days"): its final standings are those after the
last round played."""

from datetime import date

import pytest

from tests.factories import ClubFactory
from tests.tournaments.club_history import club_evening, players
from tournaments.actors import Actor
from tournaments.club_selectors import season_view
from tournaments.models import Event, Season
from tournaments.services import events

pytestmark = pytest.mark.django_db


def test_an_event_finished_after_fewer_rounds_than_planned_counts_in_the_season(organiser):
    club = ClubFactory(name="Penya")
    club.organisers.add(organiser)
    members = players(*[f"Soci {i}" for i in range(8)], club=club)
    lineup = [(members[i], members[i + 4]) for i in range(4)]
    # Three rounds planned; the evening ran late and only two were played.
    event = club_evening(
        club, organiser, lineup, when=date(2026, 9, 1), rounds=3, play=2, finish=False
    )
    events.event_finish(event=event, actor=Actor(user=organiser))  # the service allows it
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    season = Season.objects.create(
        club=club, name="Tardor", starts=date(2026, 9, 1), ends=date(2026, 12, 31)
    )
    assert event.snapshots.order_by("-after_round").first().after_round == 2  # final standings
    view = season_view(season, Actor(user=organiser))
    assert [e.pk for e in view.events] == [event.pk]
    assert {p.pk for r in view.rows for p in r.players} == {m.pk for m in members}
