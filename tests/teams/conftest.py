"""A team event through the services: teams registered, started, rounds paired and played."""

from __future__ import annotations

import random

import pytest

from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Event, Round
from tournaments.services import events, teams
from tournaments.services import league as league_svc
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


def team_event(actor, n=4, seed=None, rosters=None, **options):
    """A running team event of ``n`` teams of four (boards dealt; from ``seed`` when given, for a
    test whose outcome depends on the cards); or of the teams ``rosters`` names the players of
    (``{"Cinc": ["Anna", …]}``)."""
    options = {"boards_per_round": 3, "rounds_count": 3} | options
    event = events.event_create(
        actor=actor, name="Equips", competitor=Event.Competitor.TEAMS, **options
    )
    if seed is not None:
        Event.objects.filter(pk=event.pk).update(seed=seed)
    events.registration_open(event=event, actor=actor)
    rosters = rosters or {f"Equip {i}": [f"T{i}P{k}" for k in range(1, 5)] for i in range(1, n + 1)}
    for name, players in rosters.items():
        teams.team_register(event=event, actor=actor, name=name, players=players)
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    return Event.objects.get(pk=event.pk)


def play_team_round(event, actor, number, rng):
    """Propose, open, play (every table enters and confirms its boards) and close a round."""
    pairings_propose(event.pk, number, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
    play_round(rnd, rng)
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    return Round.objects.get(pk=rnd.pk)


@pytest.fixture
def rng():
    return random.Random(18)


@pytest.fixture
def league(actor):
    """A league of four teams (Reus, Valls, Tarragona, Cambrils): 3 games of 2 hands a match."""
    made = league_svc.league_create(actor=actor, name="Lliga", games_per_match=3, hands_per_game=2)
    for name in ("Reus", "Valls", "Tarragona", "Cambrils"):
        league_svc.league_team_add(league=made, actor=actor, name=name)
    return made
