"""The clubs' stored ratings (tournaments.services.ratings): the task rates a finished event once,
incremental equals recomputed from scratch, late and corrected events recompute the history,
seeding by rating, the club page and command; and the same through a real worker and Redis."""

import io
from datetime import date

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from scoring.seeding import rating_order, round_one_order
from tests.conftest import wait_for
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.club_history import club_evening, players
from tournaments.actors import Actor
from tournaments.models import Event, Player, PlayerRating, RatingHistory
from tournaments.rating_reads import stored_state
from tournaments.services import events
from tournaments.services.pairings import pairings_propose
from tournaments.services.ratings import (
    APPLIED,
    RECOMPUTED,
    SKIPPED,
    ratings_recompute,
    ratings_update,
)
from tournaments.tasks import RATINGS_RUNS, update_ratings


@pytest.fixture
def club(organiser):
    club = ClubFactory(name="Penya Botifarrera")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def members(club):
    return players(*[f"Player {i}" for i in range(10)], club=club)


def _lineup(members, shift):
    """Four pairs out of the ten members, partners changing from evening to evening."""
    order = members[shift:] + members[:shift]
    return [(order[i], order[i + 5]) for i in range(4)]


def _evening(club, organiser, members, n, **kw):
    return club_evening(
        club, organiser, _lineup(members, n), when=date(2026, 9, 1 + 7 * n), seed=n, **kw
    )


def _stored(club):
    ratings = {
        r.player_id: (r.mu, r.sigma, r.events, r.boards)
        for r in PlayerRating.objects.filter(club=club)
    }
    history = sorted(
        (h.player_id, h.event_id, h.mu, h.sigma)
        for h in RatingHistory.objects.filter(event__club=club)
    )
    return ratings, history


@pytest.mark.django_db
def test_finishing_an_event_rates_its_players_once(
    club, organiser, members, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        event = _evening(club, organiser, members, 0)
    event.refresh_from_db()
    assert event.rated_at is not None
    rated = PlayerRating.objects.filter(club=club)
    assert rated.count() == 8 and {r.events for r in rated} == {1}
    assert RatingHistory.objects.filter(event=event).count() == 8
    assert any(abs(r.mu - 25.0) > 1e-9 for r in rated)  # the results moved them
    before = _stored(club)
    assert update_ratings.delay(event.pk).get() == SKIPPED  # a repeat changes nothing
    assert _stored(club) == before


@pytest.mark.django_db
def test_incremental_ratings_equal_the_recomputation_from_scratch(club, organiser, members):
    outcomes = []
    for n in range(3):
        event = _evening(club, organiser, members, n)
        outcomes.append(ratings_update(event.pk))
    assert outcomes == [APPLIED] * 3
    incremental = _stored(club)
    assert {r[2] for r in incremental[0].values()} >= {3}
    call_command("ratings_recompute", "--club", str(club.pk), stdout=io.StringIO())
    assert _stored(club) == incremental  # bit for bit, ratings and history


@pytest.mark.django_db
def test_an_older_event_finished_late_recomputes_the_history(club, organiser, members):
    late = _evening(club, organiser, members, 0, finish=False)
    later = _evening(club, organiser, members, 1)
    assert ratings_update(later.pk) == APPLIED
    events.event_finish(event=late, actor=Actor(user=organiser))
    assert ratings_update(late.pk) == RECOMPUTED
    after = _stored(club)
    ratings_recompute(club.pk)
    assert _stored(club) == after
    assert {r[2] for r in after[0].values()} == {1, 2}


@pytest.mark.django_db
def test_a_result_corrected_after_rating_recomputes_the_history(club, organiser, members):
    event = _evening(club, organiser, members, 0)
    assert ratings_update(event.pk) == APPLIED
    assert ratings_update(event.pk) == SKIPPED
    Event.objects.filter(pk=event.pk).update(corrected_at=timezone.now())
    assert ratings_update(event.pk) == RECOMPUTED
    assert ratings_update(event.pk) == SKIPPED


@pytest.mark.django_db
def test_a_rated_event_moved_to_another_club_or_date_is_rated_again_from_scratch(
    club, organiser, members, django_capture_on_commit_callbacks
):
    other = ClubFactory(name="Club del Casal")
    other.organisers.add(organiser)
    first = _evening(club, organiser, members, 0)
    second = _evening(club, organiser, members, 1)
    assert [ratings_update(e.pk) for e in (first, second)] == [APPLIED, APPLIED]
    actor = Actor(user=organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the date: after the second
        events.event_update(event=first, actor=actor, date=date(2026, 9, 30))
    moved_in_time = _stored(club)
    ratings_recompute(club.pk)
    assert _stored(club) == moved_in_time
    with django_capture_on_commit_callbacks(execute=True):  # the club
        events.event_update(event=Event.objects.get(pk=first.pk), actor=actor, club=other)
    stored = (_stored(club), _stored(other))
    assert len(stored[1][0]) == 8  # the moved evening's players, rated in its new club
    ratings_recompute(club.pk)
    ratings_recompute(other.pk)
    assert (_stored(club), _stored(other)) == stored


@pytest.mark.django_db
def test_a_finished_event_without_a_club_is_rated_once_it_is_given_one(
    club, organiser, members, django_capture_on_commit_callbacks
):
    """Audit of 2026-12-06: a club-less evening, never rated, then given its club after the
    finish, stayed out of the club's ratings (only a rated event's move asked for them)."""
    evening = _evening(club, organiser, members, 0)  # finished; its rating not run
    Event.objects.filter(pk=evening.pk).update(club=None)  # as if played without a club
    with django_capture_on_commit_callbacks(execute=True):
        events.event_update(
            event=Event.objects.get(pk=evening.pk), actor=Actor(user=organiser), club=club
        )
    assert Event.objects.get(pk=evening.pk).rated_at is not None
    assert RatingHistory.objects.filter(event=evening).count() == 8
    rated = _stored(club)
    ratings_recompute(club.pk)
    assert _stored(club) == rated


@pytest.mark.django_db
def test_events_without_a_club_or_not_finished_are_not_rated(club, organiser, members):
    running = _evening(club, organiser, members, 0, finish=False)
    assert ratings_update(running.pk) == SKIPPED
    Event.objects.filter(pk=running.pk).update(club=None, status=Event.Status.FINISHED)
    assert ratings_update(running.pk) == SKIPPED
    assert not PlayerRating.objects.exists()


@pytest.mark.django_db
def test_round_one_seeded_by_rating_puts_the_top_half_against_the_bottom_half(
    club, organiser, members
):
    for n in range(2):
        ratings_update(_evening(club, organiser, members, n).pk)
    event = _evening(club, organiser, members, 2, play=0, seeding=Event.Seeding.RATING)
    entries = {e.pk: (e.pair.player1_id, e.pair.player2_id) for e in event.entries.all()}
    strongest = rating_order(entries, state=stored_state(club))
    pairings_propose(event.pk, 1, actor=Actor(user=organiser))
    tables = {frozenset((t.ns_id, t.ew_id)) for t in event.rounds.get(number=1).tables.all()}
    folded = round_one_order(strongest)
    assert tables == {frozenset(folded[0:2]), frozenset(folded[2:4])}
    assert frozenset((strongest[0], strongest[2])) in tables  # 1 v 3, 2 v 4 with four pairs


@pytest.mark.django_db
def test_the_club_page_lists_ratings_as_each_reader_may_see_them(client, club, organiser, members):
    ratings_update(_evening(club, organiser, members, 0).pk)
    shown = members[0]
    shown.visibility = Player.Visibility.RATING
    shown.save()
    url = reverse("clubs:club", args=[club.pk])
    public = client.get(url).content.decode()
    assert shown.name in public and members[1].name not in public
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert members[1].name in page and "Recompute the ratings" in page


@pytest.mark.django_db
def test_only_the_clubs_organisers_ask_for_a_recomputation(
    client, club, organiser, members, django_capture_on_commit_callbacks
):
    event = _evening(club, organiser, members, 0)
    url = reverse("clubs:ratings_recompute", args=[club.pk])
    client.force_login(UserFactory())
    assert client.post(url).status_code == 404
    assert not PlayerRating.objects.exists()
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 302
    assert RatingHistory.objects.filter(event=event).count() == 8


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_a_worker_a_finished_event_is_rated_and_a_repeat_changes_nothing(
    celery_worker_process, club, organiser, members
):
    first = _evening(club, organiser, members, 0)
    assert wait_for(lambda: Event.objects.get(pk=first.pk).rated_at is not None, timeout=60)
    second = _evening(club, organiser, members, 1)
    assert wait_for(lambda: Event.objects.get(pk=second.pk).rated_at is not None, timeout=60)
    by_worker = _stored(club)
    runs = RATINGS_RUNS.format(second.pk)
    # The run counts itself after its ratings are committed: wait for the count too.
    assert wait_for(lambda: cache.get(runs) is not None, timeout=10)
    assert cache.get(runs) == 1
    update_ratings.delay(second.pk)  # delivered twice: the second run changes nothing
    assert wait_for(lambda: cache.get(runs) == 2, timeout=30)
    assert _stored(club) == by_worker
    ratings_recompute(club.pk)
    assert _stored(club) == by_worker


def test_a_recompute_from_scratch_leaves_team_events_out_as_the_updates_do(
    club, organiser, django_capture_on_commit_callbacks
):
    """clubs.md: the recomputation gives exactly the ratings of the event-by-event updates,
    which rate pairs events only (a team event ranks teams)."""
    import random

    from tests.teams.conftest import play_team_round, team_event
    from tournaments.models import TeamMember

    actor = Actor(user=organiser)
    members = players(*[f"P{i}" for i in range(8)], club=club)
    with django_capture_on_commit_callbacks(execute=True):
        club_evening(
            club, organiser, [(members[i], members[i + 4]) for i in range(4)], when=date(2026, 9, 1)
        )
    with django_capture_on_commit_callbacks(execute=True):
        team = team_event(
            actor, 2, rounds_count=1, boards_per_round=2, club=club, date=date(2026, 9, 8)
        )
        play_team_round(team, actor, 1, random.Random(18))
        events.event_finish(event=Event.objects.get(pk=team.pk), actor=actor)

    def rated():
        return {
            r.player_id: (r.mu, r.sigma, r.events) for r in PlayerRating.objects.filter(club=club)
        }

    updated = rated()
    team_players = set(TeamMember.objects.filter(team__event=team).values_list("player", flat=True))
    assert updated and not team_players & set(updated)
    ratings_recompute(club.pk)
    assert rated() == updated
