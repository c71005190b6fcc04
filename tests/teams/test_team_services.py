"""Team events on the database: registration, pairing by the one pairing code, line-ups
(audited, refused once the match has started), match scoring and the standings snapshots."""

from __future__ import annotations

import pytest

from scoring.butler import butler_ranking
from scoring.methods import next_pairing
from scoring.team_standings import compute_team_standings
from tests.factories import ClubFactory
from tests.teams.conftest import play_team_round, team_event
from tournaments.models import (
    AuditEntry,
    Event,
    LineUp,
    PlayerRating,
    StandingsSnapshot,
    TeamMatch,
)
from tournaments.services import Conflict, ServiceError, events, teams
from tournaments.services.pairings import pairings_propose
from tournaments.team_io import butler_results, team_event_input, team_pairing_input

pytestmark = pytest.mark.django_db


def test_a_team_has_four_to_six_different_players(actor):
    event = events.event_create(actor=actor, name="E", competitor=Event.Competitor.TEAMS)
    with pytest.raises(ServiceError) as exc:
        teams.team_register(event=event, actor=actor, name="A", players=["a", "b", "c"])
    assert exc.value.field == "players"
    with pytest.raises(ServiceError):
        teams.team_register(event=event, actor=actor, name="A", players=list("abcdefg"))
    with pytest.raises(ServiceError) as exc:
        teams.team_register(event=event, actor=actor, name="A", players=["a", "b", "c", "A"])
    assert "twice" in exc.value.message
    team = teams.team_register(event=event, actor=actor, name="A", players=list("abcdef"))
    assert [m.player.name for m in team.members.order_by("order")] == list("abcdef")
    with pytest.raises(ServiceError) as exc:
        teams.team_register(event=event, actor=actor, name="a", players=list("wxyz"))
    assert exc.value.field == "name"
    assert event.teams.count() == 1  # nothing stored by the refusals


def test_a_teams_names_are_stored_as_every_name_of_the_site(actor):
    """Flows audit, 2026-12-06: a team's player names were only stripped, so "anna  puig" was
    a second player beside "Anna Puig" and a control character was stored."""
    event = events.event_create(actor=actor, name="E", competitor=Event.Competitor.TEAMS)
    with pytest.raises(ServiceError) as exc:
        teams.team_register(
            event=event,
            actor=actor,
            name="A",
            players=["Anna Puig", "anna  puig", "Biel", "Carles"],
        )
    assert "twice" in exc.value.message
    team = teams.team_register(
        event=event,
        actor=actor,
        name="  Casal\x07  de Reus ",
        players=["Anna\u200f Puig", "Jose\u0301", "Biel", "Carles"],
    )
    assert team.name == "Casal de Reus"
    assert [m.player.name for m in team.members.order_by("order")][:2] == ["Anna Puig", "José"]


def test_a_pairs_event_takes_no_teams(actor):
    event = events.event_create(actor=actor, name="Parelles")
    with pytest.raises(Conflict):
        teams.team_register(event=event, actor=actor, name="A", players=list("abcd"))


def test_rounds_seat_each_match_at_two_tables_with_crossed_pairs(actor, rng):
    event = team_event(actor, 4)
    rnd = play_team_round(event, actor, 1, rng)
    matches = list(TeamMatch.objects.filter(round=rnd).order_by("number"))
    assert len(matches) == 2 and rnd.tables.count() == 4
    for m in matches:
        a = LineUp.objects.get(match=m, team=m.team_a)
        b = LineUp.objects.get(match=m, team=m.team_b)
        assert (m.open_table.ns_id, m.open_table.ew_id) == (a.first_id, b.first_id)
        assert (m.closed_table.ns_id, m.closed_table.ew_id) == (b.second_id, a.second_id)
        assert {m.open_table.number, m.closed_table.number} == {2 * m.number - 1, 2 * m.number}
        for entry in (a.first, a.second):
            assert entry.team_id == m.team_a_id


def test_the_stored_pairing_is_what_the_one_pairing_code_derives(actor, rng):
    event = team_event(actor, 6, format=Event.Format.SWISS)
    for number in (1, 2):
        play_team_round(event, actor, number, rng)
    rounds = list(event.rounds.order_by("number"))
    for i, rnd in enumerate(rounds):
        derived = next_pairing(team_pairing_input(event, rounds=rounds[:i]))
        stored = [(m.team_a_id, m.team_b_id) for m in rnd.team_matches.order_by("number")]
        assert stored == derived.tables
    met = [
        frozenset((m.team_a_id, m.team_b_id)) for m in TeamMatch.objects.filter(round__event=event)
    ]
    assert len(met) == len(set(met)) == 6  # no rematch in two rounds of six teams


def test_round_robin_of_five_teams_gives_a_bye_each_round(actor, rng):
    event = team_event(actor, 5, format=Event.Format.ROUND_ROBIN)
    assert event.rounds_count == 5
    rnd = play_team_round(event, actor, 1, rng)
    assert rnd.team_matches.count() == 2
    playing = {t for m in rnd.team_matches.all() for t in (m.team_a_id, m.team_b_id)}
    assert len(playing) == 4


def test_standings_snapshot_holds_the_team_standings_matches_and_butler(actor, rng):
    event = team_event(actor, 4)
    play_team_round(event, actor, 1, rng)
    play_team_round(event, actor, 2, rng)
    snap = StandingsSnapshot.objects.get(event=event, after_round=2)
    expected = compute_team_standings(team_event_input(event), after_round=2)
    assert [r["team"] for r in snap.rows] == [s.team for s in expected.standings]
    assert sum(r["vp"] for r in snap.rows) == pytest.approx(2 * 2 * 20)  # 2 matches × 2 rounds
    assert len(snap.matches) == 2
    for m in snap.matches:
        assert len(m["lines"]) == 3 and m["boards_played"] == 3
        assert m["vp_a"] + m["vp_b"] == pytest.approx(20)
    butler = butler_ranking(
        butler_results(event, rounds=list(event.rounds.all())),
        numbers=dict(event.entries.values_list("pk", "number")),
        seed=event.seed,
    )
    assert [r["pair"] for r in snap.butler["rows"]] == [s.pair for s in butler.standings]
    assert len(snap.butler["rows"]) == 8  # each team's two pairs
    first = StandingsSnapshot.objects.get(event=event, after_round=1)
    assert len(first.butler["rows"]) == 8 and first.results_counted == 4 * 3


def test_a_line_up_change_reseats_the_tables_and_is_audited(actor, rng):
    event = team_event(actor, 4)
    pairings_propose(event.pk, 1, actor=actor)
    match = TeamMatch.objects.get(round__event=event, number=1)
    team = match.team_b
    p = [m.player_id for m in team.members.order_by("order")]
    lineup = teams.lineup_set(
        match=match, team=team, actor=actor, first=(p[0], p[2]), second=(p[1], p[3])
    )
    match.open_table.refresh_from_db()
    match.closed_table.refresh_from_db()
    assert match.open_table.ew_id == lineup.first_id
    assert match.closed_table.ns_id == lineup.second_id
    assert {lineup.first.pair.player1_id, lineup.first.pair.player2_id} == {p[0], p[2]}
    entry = AuditEntry.objects.filter(event=event, action="team_lineup").get()
    assert entry.changes["team"] == [None, team.name]


def test_line_up_with_a_substitute_records_who_sits_out(actor):
    event = events.event_create(
        actor=actor, name="E", competitor=Event.Competitor.TEAMS, boards_per_round=2
    )
    events.registration_open(event=event, actor=actor)
    big = teams.team_register(event=event, actor=actor, name="Sis", players=list("abcdef"))
    teams.team_register(event=event, actor=actor, name="Quatre", players=list("ghij"))
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    pairings_propose(event.pk, 1, actor=actor)
    match = TeamMatch.objects.get(round__event=event)
    p = {m.player.name: m.player_id for m in big.members.select_related("player")}
    lineup = teams.lineup_set(
        match=match, team=big, actor=actor, first=(p["e"], p["b"]), second=(p["c"], p["f"])
    )
    assert sorted(lineup.substitutes.values_list("name", flat=True)) == ["a", "d"]


def test_line_up_refused_once_a_table_has_a_result_and_for_strangers(actor, rng):
    event = team_event(actor, 2, rounds_count=1)
    play_team_round(event, actor, 1, rng)
    match = TeamMatch.objects.get(round__event=event)
    p = [m.player_id for m in match.team_a.members.order_by("order")]
    before = (match.open_table.ns_id, match.closed_table.ew_id)
    with pytest.raises(Conflict):
        teams.lineup_set(
            match=match, team=match.team_a, actor=actor, first=(p[0], p[3]), second=(p[1], p[2])
        )
    other = match.team_b.members.first().player_id
    with pytest.raises(ServiceError) as exc:
        teams.lineup_set(
            match=match, team=match.team_a, actor=actor, first=(p[0], other), second=(p[1], p[2])
        )
    assert exc.value.field == "players"
    match.open_table.refresh_from_db()
    match.closed_table.refresh_from_db()
    assert (match.open_table.ns_id, match.closed_table.ew_id) == before


def test_a_team_event_finishes_and_stays_out_of_the_club_ratings(actor, rng):
    club = ClubFactory()
    club.organisers.add(actor.user)
    event = team_event(actor, 2, rounds_count=1, boards_per_round=2, club=club)
    play_team_round(event, actor, 1, rng)
    finished = events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)
    assert finished.status == Event.Status.FINISHED
    assert not PlayerRating.objects.filter(club=club).exists()
    assert Event.objects.get(pk=event.pk).rated_at is None


SEED = "groups-knockout-1"


def test_groups_then_knockout_sends_the_teams_with_the_positive_margin_through(actor, rng):
    # A fixed seed whose group matches have winners (a drawn match is another test's case).
    event = team_event(
        actor, 4, seed=SEED, format=Event.Format.GROUPS, group_size=2, qualifiers=1, repesca=0
    )
    assert event.rounds_count == 2  # one group round, the final
    rnd = play_team_round(event, actor, 1, rng)
    snap = StandingsSnapshot.objects.get(event=event, after_round=1)
    assert all(m["margin"] != 0 for m in snap.matches)
    winners = {m["team_a"] if m["margin"] > 0 else m["team_b"] for m in snap.matches}
    assert rnd.team_matches.count() == 2
    pairings_propose(event.pk, 2, actor=actor)
    final = TeamMatch.objects.get(round__event=event, round__number=2)
    assert {final.team_a_id, final.team_b_id} == winners
