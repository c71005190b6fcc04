"""A team's substitute who sat out every match did not play (docs/clubs.md 0.1, 0.2 and 2;
docs/teams.md 10.4): the event is not on their page, and they are nobody's partner, although
the round's proposal made a pair entry for them before the line-ups were set."""

import random

import pytest
from django.test import Client

from tests.teams.conftest import team_event
from tournaments.demo import play_round
from tournaments.models import Event, TeamMatch
from tournaments.services import events, teams
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def test_a_substitute_who_never_played_is_not_shown_as_having_played(actor):
    five = ["Anna", "Biel", "Carles", "Dolors", "Eva"]
    rosters = {"Cinc": five, "Quatre": ["G1", "G2", "G3", "G4"]}
    event = team_event(actor, rosters=rosters, rounds_count=1, boards_per_round=2)
    pairings_propose(event.pk, 1, actor=actor)
    match = TeamMatch.objects.get(round__event=event)
    big = event.teams.get(name="Cinc")
    p = {m.player.name: m.player_id for m in big.members.select_related("player")}
    lineup = teams.lineup_set(
        match=match,
        team=big,
        actor=actor,
        first=(p["Anna"], p["Biel"]),
        second=(p["Carles"], p["Eva"]),
    )
    assert list(lineup.substitutes.values_list("name", flat=True)) == ["Dolors"]
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    play_round(rnd, random.Random(1))
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)
    events.event_publish(event=Event.objects.get(pk=event.pk), actor=actor)

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    dolors = client.get(f"/players/{p['Dolors']}/").content.decode()
    assert "Equips" not in dolors
    carles = client.get(f"/players/{p['Carles']}/").content.decode()
    partners = carles.split('id="partners"')[1].split("</section>")[0]
    assert "Eva" in partners and "Dolors" not in partners
    assert "Equips" in carles
