"""Changes that check the event's state take the event's lock first and check under it
(PostgreSQL, real threads, each on its own connection): a requested bye, taking one back,
un-opening a round, finishing the event and opening a round, each against the change that
would otherwise slip between its check and its write."""

import pytest

from tests.conftest import start_four_pairs
from tests.factories import WebhookFactory
from tests.tournaments.test_lifecycle_races_pg import (
    _event,
    _race,
    _refusals_only,
    _round_2_proposed,
)
from tournaments import queue
from tournaments.actors import Actor
from tournaments.models import AuditEntry, ByeRequest, Entry, Event, Round, WebhookDelivery
from tournaments.services import changes, events, late_entries
from tournaments.services.pairings import pairings_propose

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
REPEATS = 6  # each on a new event: a race the code can lose is lost in some of them


def _entry(pk: int) -> Entry:
    return Entry.objects.select_related("event").get(pk=pk)


def _open(rnd: Round, actor: Actor):
    def call() -> None:
        events.round_open(rnd=Round.objects.select_related("event").get(pk=rnd.pk), actor=actor)

    return call


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_requested_bye_and_the_rounds_opening_never_both_hold(organiser, repeat):
    event, entries, actor = _event(organiser)
    rnd = _round_2_proposed(event, entries, actor)

    def bye() -> None:
        late_entries.bye_request_add(entry=_entry(entries[0].pk), actor=actor, round_number=2)

    _refusals_only(_race(_open(rnd, actor), bye))
    opened = Round.objects.filter(pk=rnd.pk, status=Round.Status.OPEN).exists()
    requested = ByeRequest.objects.filter(entry=entries[0], round_number=2).exists()
    # Seated in the open round and sitting it out: never both.
    assert not (opened and requested)


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_bye_taken_back_while_the_round_opens_leaves_no_pair_out(organiser, repeat):
    event, entries, actor = _event(organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    request = late_entries.bye_request_add(entry=entries[3], actor=actor, round_number=2)
    rnd = events.round_propose(
        event=Event.objects.get(pk=event.pk),
        actor=actor,
        number=2,
        tables=[(entries[0].pk, entries[1].pk)],
        bye=entries[2].pk,
    )

    def take_back() -> None:
        late_entries.bye_request_remove(
            request=ByeRequest.objects.select_related("entry__event").get(pk=request.pk),
            actor=actor,
        )

    _refusals_only(_race(_open(rnd, actor), take_back))
    opened = Round.objects.filter(pk=rnd.pk, status=Round.Status.OPEN).exists()
    requested = ByeRequest.objects.filter(entry=entries[3], round_number=2).exists()
    # Pair 4 has no table in round 2: open, its bye must stand.
    assert requested or not opened


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_withdrawal_cancels_a_bye_requested_at_the_same_time(organiser, repeat):
    event = start_four_pairs(organiser, boards_per_round=2)
    actor = Actor(user=organiser)
    entry = event.entries.get(number=1)

    def bye() -> None:
        late_entries.bye_request_add(entry=_entry(entry.pk), actor=actor, round_number=3)

    def withdraw() -> None:
        changes.entry_withdraw(entry=_entry(entry.pk), actor=actor, reason="ill")

    _refusals_only(_race(bye, withdraw))
    entry.refresh_from_db()
    assert entry.withdrawn_after_round is not None
    assert not ByeRequest.objects.filter(entry=entry).exists()


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_round_unopened_while_a_pair_is_reinstated_is_not_counted_missed(organiser, repeat):
    event, entries, actor = _event(organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    changes.entry_withdraw(entry=_entry(entries[3].pk), actor=actor, reason="ill")
    pairings_propose(event.pk, 2, actor=actor)
    rnd = Round.objects.select_related("event").get(event=event, number=2)
    events.round_open(rnd=rnd, actor=actor)

    def unopen() -> None:
        changes.round_unopen(
            rnd=Round.objects.select_related("event").get(pk=rnd.pk),
            actor=actor,
            reason="the pair is back",
        )

    def reinstate() -> None:
        changes.entry_reinstate(entry=_entry(entries[3].pk), actor=actor, reason="better")

    _refusals_only(_race(unopen, reinstate))
    back = Entry.objects.get(pk=entries[3].pk)
    assert back.withdrawn_after_round is None
    still_open = Round.objects.filter(pk=rnd.pk, status=Round.Status.OPEN).exists()
    # Round 2 is open (the un-opening came second and was refused) or it is not, and then
    # the pair does not count as having missed it.
    assert still_open or 2 not in (back.missed_rounds or [])


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_an_event_finished_while_a_round_opens_has_no_open_round(organiser, repeat):
    event, entries, actor = _event(organiser)
    rnd = _round_2_proposed(event, entries, actor)

    def finish() -> None:
        events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)

    _refusals_only(_race(finish, _open(rnd, actor)))
    finished = Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    opened = Round.objects.filter(pk=rnd.pk, status=Round.Status.OPEN).exists()
    assert finished != opened


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_finish_sent_twice_at_once_finishes_once(organiser, monkeypatch, repeat):
    monkeypatch.setattr(queue, "deliver_webhook", lambda delivery: None)
    event, _entries, actor = _event(organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    WebhookFactory(event=event)

    def finish() -> None:
        events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)

    raised = _race(finish, finish)
    _refusals_only(raised)
    assert sum(e is None for e in raised) == 1
    finished = AuditEntry.objects.filter(
        event=event, action="event_status", changes__status=["running", "finished"]
    )
    assert finished.count() == 1
    sent = WebhookDelivery.objects.filter(webhook__event=event, kind="event.finished")
    assert sent.count() == 1
