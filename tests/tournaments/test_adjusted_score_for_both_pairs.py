"""An adjusted ruling stored before the rulings refused a match score for both pairs (R9): the
pages that read its match still answer, and the standings are still computed, in a game and in
a team event (whose adjusted boards count their codes, not their scores)."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.standings import compute_standings
from tests.factories import UserFactory
from tests.teams.conftest import team_event
from tests.tournaments.test_match_limits_clock import _enter, _game_event, _match, _table
from tournaments import scoring_io
from tournaments.actors import Actor
from tournaments.models import BoardResult, StandingsSnapshot
from tournaments.services import disputes, events
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def _old_ruling_for_both(event, table, ns, ew):
    """Board 1 at ``table`` adjusted (average each), then its match score set for both pairs as
    a ruling could store before it was refused."""
    _enter(table, 1, 40)
    result = table.results.get(board__number=1)
    dispute = disputes.dispute_request(
        result=result, actor=Actor(table=table, side="EW"), reason="fouled board"
    )
    referee = UserFactory(username="ref")
    event.referees.add(referee)
    disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=referee),
        kind="adjusted",
        explanation="Fouled board.",
        data={"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": 0, "EW": 0}},
    )
    BoardResult.objects.filter(pk=result.pk).update(score_ns=ns, score_ew=ew)


def _pages_answer(event, organiser, table):
    staff = Client(raise_request_exception=False)
    staff.force_login(organiser)
    assert staff.get(reverse("tournaments:round_detail", args=[event.pk, 1])).status_code == 200
    players = Client(raise_request_exception=False)
    players.post(reverse("table:enter"), {"code": table.code_ns})
    assert players.get(reverse("table:table_home", args=[table.code_ns])).status_code == 200


@pytest.mark.parametrize("ns, ew, totals", [(10, 10, (0, 0)), (120, 110, (10, 0))])
def test_a_game_counts_the_net_of_an_old_score_for_both_pairs(organiser, ns, ew, totals):
    event = _game_event(organiser)
    t1 = _table(event)
    _old_ruling_for_both(event, t1, ns, ew)
    m = _match(event)
    assert ((m.total_ns, m.total_ew), m.boards_played) == (totals, 1)
    _pages_answer(event, organiser, t1)
    standings_recompute(event.pk)
    assert StandingsSnapshot.objects.filter(event=event, after_round=1).exists()
    compute_standings(scoring_io.event_input(event))


def test_a_team_event_scores_an_adjusted_board_from_its_codes_only(organiser):
    actor = Actor(user=organiser)
    event = team_event(actor, n=2)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    t1 = rnd.tables.select_related("round__event").get(number=1)
    _old_ruling_for_both(event, t1, 10, 10)
    _pages_answer(event, organiser, t1)
    standings_recompute(event.pk)
    assert StandingsSnapshot.objects.filter(event=event, after_round=1).exists()
