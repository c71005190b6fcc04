"""Migration 0025: a pair withdrawn and reinstated before 0023 had its missed rounds stored
nowhere (0023 added the field empty); the audit trail's reinstatement names the pair and the
round it withdrew after, from which the migration finds them, as ``reinstate_plan`` does now."""

import importlib

import pytest
from django.apps import apps

from tests.conftest import start_four_pairs
from tournaments.actors import Actor
from tournaments.models import AuditEntry
from tournaments.services import changes, events
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db

backfill = importlib.import_module(
    "tournaments.migrations.0025_entry_missed_rounds_backfill"
).backfill


def as_before_0023(event) -> None:
    """What the code before 0023 left: no missed rounds, none in the audit entry."""
    event.entries.update(missed_rounds=[])
    for audit in AuditEntry.objects.filter(event=event, action="entry_reinstated"):
        audit.changes.pop("missed_rounds")
        audit.save(update_fields=["changes"])


def reinstated_after_missing_round_2(organiser, *, withdraw_again: bool = False):
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=4)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    changes.entry_withdraw(entry=event.entries.get(number=3), actor=actor)
    pairings_propose(event.pk, 2, actor=actor)
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    changes.entry_reinstate(entry=event.entries.get(number=3), actor=actor)
    events.round_close(rnd=event.rounds.get(number=2), actor=actor, accept_missing=True)
    pairings_propose(event.pk, 3, actor=actor)
    events.round_open(rnd=event.rounds.get(number=3), actor=actor)
    if withdraw_again:
        events.round_close(rnd=event.rounds.get(number=3), actor=actor, accept_missing=True)
        changes.entry_withdraw(entry=event.entries.get(number=3), actor=actor)
        pairings_propose(event.pk, 4, actor=actor)
        events.round_open(rnd=event.rounds.get(number=4), actor=actor)
    return event


@pytest.mark.parametrize("withdraw_again", [False, True])
def test_the_migration_finds_the_rounds_the_code_now_stores(organiser, withdraw_again):
    event = reinstated_after_missing_round_2(organiser, withdraw_again=withdraw_again)
    stored = event.entries.get(number=3).missed_rounds
    assert stored == [2]
    as_before_0023(event)
    backfill(apps, None)
    assert event.entries.get(number=3).missed_rounds == stored
    assert [e.missed_rounds for e in event.entries.exclude(number=3)] == [[], [], []]


def test_a_reinstatement_recorded_with_its_missed_rounds_is_left_as_it_is(organiser):
    event = reinstated_after_missing_round_2(organiser)
    event.entries.filter(number=3).update(missed_rounds=[])  # un-opened since, say
    backfill(apps, None)
    assert event.entries.get(number=3).missed_rounds == []
