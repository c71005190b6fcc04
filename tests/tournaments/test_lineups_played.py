"""Who played for a pair after a substitution (tournaments.lineups): a replaced player is not the
partner of the one who replaced them, and a substitute named for a round the event never
reached (an evening finished early) did not play: not on their page, not in a season (players
audit, 2026-12-06)."""

import random
from datetime import date

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, SeasonFactory
from tests.tournaments.club_history import club_evening, players
from tournaments.actors import Actor
from tournaments.club_selectors import season_view
from tournaments.demo import play_round
from tournaments.services import changes, events, late_entries
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organiser):
    club = ClubFactory(name="Penya")
    club.organisers.add(organiser)
    return club


def _evening(club, organiser, rounds, play):
    """An evening of four pairs, Anna and Biel pair 1, ``play`` rounds played; then Carles
    replaces Biel from the next round. (event, anna, biel, carles)"""
    anna, biel = players("Anna", "Biel", club=club)
    others = [tuple(players(f"X{i}", f"Y{i}", club=club)) for i in range(3)]
    event = club_evening(
        club, organiser, [(anna, biel), *others], when=date(2026, 10, 1), rounds=rounds, play=play
    )
    carles = changes.player_substitute(
        entry=event.entries.get(number=1), actor=Actor(user=organiser), seat=2, name="Carles"
    ).player_in
    return event, anna, biel, carles


def _names(players_):
    return sorted(p.name for p in players_)


def test_a_replaced_player_is_no_partner_of_the_one_who_replaced_them(client, club, organiser):
    actor = Actor(user=organiser)
    event, anna, biel, carles = _evening(club, organiser, rounds=2, play=1)  # Carles plays round 2
    pairings_propose(event.pk, 2, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    play_round(rnd, random.Random(2))
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    events.event_finish(event=event, actor=actor)

    def partners(player):
        page = client.get(reverse("players:player", args=[player.pk])).context["page"]
        return _names(p for p, _n in page.partners)

    assert partners(carles) == ["Anna"]
    assert partners(biel) == ["Anna"]
    assert partners(anna) == ["Biel", "Carles"]
    together = client.get(reverse("players:partnership", args=[biel.pk, carles.pk]))
    assert together.status_code == 404 or not together.context["page"].events


def test_a_substitute_for_a_round_never_played_did_not_play(client, club, organiser):
    actor = Actor(user=organiser)
    event, _anna, biel, carles = _evening(club, organiser, rounds=3, play=2)
    events.event_finish(event=event, actor=actor)  # the evening ran late: over after round 2
    page = client.get(reverse("players:player", args=[carles.pk])).context["page"]
    assert page.events == []
    biel_page = client.get(reverse("players:player", args=[biel.pk])).context["page"]
    assert [line.rank for line in biel_page.events] != [] and _names(
        biel_page.events[0].partners
    ) == ["Anna"]
    season = SeasonFactory(club=club, starts=date(2026, 1, 1), ends=date(2026, 12, 31))
    credited = {p.name for row in season_view(season, actor).rows for p in row.players}
    assert "Carles" not in credited and {"Anna", "Biel"} <= credited


def _credited(club, organiser, rank_by="player"):
    season = SeasonFactory(
        club=club, starts=date(2026, 1, 1), ends=date(2026, 12, 31), rank_by=rank_by
    )
    rows = season_view(season, Actor(user=organiser)).rows
    return {p.name for row in rows for p in row.players}


@pytest.mark.parametrize("rank_by", ["player", "pair"])
def test_a_pair_withdrawn_before_round_1_credits_nobody(club, organiser, rank_by):
    """The pair played no board: its place in the standings gives its players nothing."""
    lineup = [tuple(players(f"A{i}", f"B{i}", club=club)) for i in range(3)]

    def withdraw_pair_3(event):
        changes.entry_withdraw(entry=event.entries.get(number=3), actor=Actor(user=organiser))

    club_evening(
        club, organiser, lineup, when=date(2026, 9, 1), rounds=1, before_round={1: withdraw_pair_3}
    )
    credited = _credited(club, organiser, rank_by)
    assert {"A0", "B0", "A1", "B1"} <= credited and not {"A2", "B2"} & credited


def test_a_late_entrys_player_replaced_before_it_joined_is_not_credited(club, organiser):
    lineup = [tuple(players(f"A{i}", f"B{i}", club=club)) for i in range(2)]

    def late_pair(event):
        actor = Actor(user=organiser)
        entry = late_entries.late_entry_register(
            event=event, actor=actor, player1="Late A", player2="Late B"
        )
        changes.player_substitute(entry=entry, actor=actor, seat=2, name="Sub")  # before it plays

    club_evening(
        club, organiser, lineup, when=date(2026, 9, 1), rounds=2, before_round={2: late_pair}
    )
    credited = _credited(club, organiser)
    assert {"Late A", "Sub"} <= credited and "Late B" not in credited
