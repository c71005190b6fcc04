"""An organiser's correction of a finished event committed while the club's ratings are being
computed, on PostgreSQL (real row locks, two threads): the ratings end up with the correction
(docs/clubs.md: the history is recomputed "when a result of an already rated event is
corrected"). The run of the ratings stamps the event rated when it ends; a correction stamped
before that, from another connection, was taken as already rated and never counted."""

import threading
from datetime import date

import pytest
from django.db import connection

from tests.factories import ClubFactory
from tests.tournaments.club_history import club_evening, players
from tournaments.actors import Actor
from tournaments.models import BoardResult, PlayerRating
from tournaments.services import disputes
from tournaments.services import ratings as ratings_service

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _ratings(club) -> dict:
    return {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.events, r.boards)
        for r in PlayerRating.objects.filter(club=club)
    }


def test_a_correction_made_while_the_ratings_are_computed_is_counted(organiser, monkeypatch):
    club = ClubFactory(name="Penya")
    club.organisers.add(organiser)
    members = players(*[f"P{i}" for i in range(8)], club=club)
    event = club_evening(
        club, organiser, [(members[i], members[i + 4]) for i in range(4)], when=date(2026, 9, 1)
    )
    ratings_service.ratings_recompute(club.pk)
    actor = Actor(user=organiser)
    result = BoardResult.objects.filter(table__round__event=event).order_by("pk").first()
    correction = disputes.correction_open(result=result, actor=actor, reason="wrong score")

    read, corrected = threading.Event(), threading.Event()
    real = ratings_service.club_results_input

    def read_then_wait(club_id):
        data = real(club_id)
        if threading.current_thread().name == "ratings":
            read.set()  # the run has read the results: the correction comes now
            # The correction commits meanwhile, or (as it should) waits for this run's lock:
            # then this wait runs out and the run goes on.
            corrected.wait(timeout=3)
        return data

    monkeypatch.setattr(ratings_service, "club_results_input", read_then_wait)
    failures: list[BaseException] = []

    def run(work) -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
        finally:
            connection.close()

    def correct() -> None:
        read.wait(timeout=10)
        disputes.dispute_rule(
            dispute=correction,
            actor=actor,
            kind="adjusted",
            explanation="the table's totals were swapped",
            data={
                "adjusted_ns": "avg_plus",
                "adjusted_ew": "avg_minus",
                "score": {"NS": 0, "EW": 0},
            },
        )
        corrected.set()

    ratings = threading.Thread(
        target=run, args=(lambda: ratings_service.ratings_recompute(club.pk),), name="ratings"
    )
    organiser_thread = threading.Thread(target=run, args=(correct,), name="organiser")
    ratings.start()
    organiser_thread.start()
    ratings.join(60)
    organiser_thread.join(60)
    assert failures == []
    # The correction's own run (queued on its commit, run in-process in tests) is over: the
    # stored ratings must be those of the corrected history.
    stored = _ratings(club)
    monkeypatch.setattr(ratings_service, "club_results_input", real)
    ratings_service.ratings_recompute(club.pk)
    assert stored == _ratings(club)
