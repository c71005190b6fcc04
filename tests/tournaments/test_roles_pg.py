"""Roles under races, on PostgreSQL (real row locks): the last two organisers removing each
other at once leave one; one invitation link used twice at once grants the role once; an
organiser removed while using their own link is not an organiser after."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.factories import EventFactory, UserFactory
from tournaments.actors import Actor
from tournaments.models import AuditEntry
from tournaments.services import ServiceError
from tournaments.services import roles as svc

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(calls):
    """Run each callable in its own thread, released together; (True, value) or (False, exc)."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        try:
            barrier.wait(timeout=10)
            return True, call()
        except ServiceError as exc:
            return False, exc
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_the_last_two_organisers_removing_each_other_leave_one():
    anna, bob = UserFactory(username="anna"), UserFactory(username="bob")
    event = EventFactory(organisers=[anna, bob])
    outcomes = _race(
        [
            lambda: svc.role_remove(
                event=event, actor=Actor(user=anna), user=bob, role="organiser"
            ),
            lambda: svc.role_remove(
                event=event, actor=Actor(user=bob), user=anna, role="organiser"
            ),
        ]
    )
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    assert event.organisers.count() == 1
    assert AuditEntry.objects.filter(event=event, action="role_removed").count() == 1


def test_one_invitation_used_twice_at_once_grants_the_role_once():
    organiser = UserFactory(username="organiser")
    event = EventFactory(organisers=[organiser])
    made = svc.invitation_create(event=event, actor=Actor(user=organiser), role="referee")
    outcomes = _race(
        [
            lambda name=name: svc.invitation_accept(
                token=made.token, username=name, password="a-Long-pass-42"
            )
            for name in ("first", "second")
        ]
    )
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    assert event.referees.count() == 1
    assert get_user_model().objects.filter(username__in=["first", "second"]).count() == 1
    assert AuditEntry.objects.filter(event=event, action="invitation_accepted").count() == 1


def test_an_organiser_removed_while_using_their_own_link_is_out_after_it():
    organiser, mallory = UserFactory(username="organiser"), UserFactory(username="mallory")
    event = EventFactory(organisers=[organiser, mallory])
    made = svc.invitation_create(event=event, actor=Actor(user=mallory), role="organiser")
    outcomes = _race(
        [
            lambda: svc.role_remove(
                event=event, actor=Actor(user=organiser), user=mallory, role="organiser"
            ),
            lambda: svc.invitation_accept(token=made.token, user=mallory),
        ]
    )
    assert outcomes[0][0], outcomes  # the removal is never refused (nor deadlocked)
    assert not event.is_organiser(mallory)
