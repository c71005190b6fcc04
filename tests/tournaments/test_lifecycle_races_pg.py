"""An organiser's change racing a table or another change, on PostgreSQL (real row locks),
each pair of calls released together by a barrier and repeated: neither side may die of a
deadlock, and the outcome is one the docs allow (docs/organisers.md: a pair withdrawn during
an open round forfeits its match; "A round that seats a withdrawn pair is not opened";
reopening a round drops the next round's proposal).

The event's row is locked ``FOR NO KEY UPDATE``: a plain ``FOR UPDATE`` also blocks the
foreign-key checks of every row pointing at the event (each audit entry), so a submission
holding its table's lock and writing its audit entry, and a withdrawal holding the event's lock
and waiting for that table, waited for each other until PostgreSQL killed one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tests.conftest import start_four_pairs
from tournaments.actors import Actor
from tournaments.models import BoardResult, Entry, Event, Round, Table
from tournaments.services import Conflict, ServiceError, changes, events, late_entries, results
from tournaments.services.pairings import pairings_propose

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

REPEATS = 8
SHORT = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}


def _race(*calls: Callable[[], Any]) -> list[BaseException | None]:
    """Run each call in its own thread (its own connection), released together; what each
    raised, or None."""
    barrier = threading.Barrier(len(calls))
    raised: list[BaseException | None] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            call()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            raised[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(t.is_alive() for t in threads), "a call never returned"
    return raised


def _refusals_only(raised: list[BaseException | None]) -> None:
    """Each call succeeded or was refused as the services refuse (a ServiceError), never a
    database error such as a deadlock."""
    unexpected = [e for e in raised if e is not None and not isinstance(e, ServiceError)]
    assert unexpected == [], [f"{type(e).__name__}: {e}" for e in unexpected]


def _event(organiser) -> tuple[Event, list[Entry], Actor]:
    """A running event of four pairs, round 1 open (tables 1 and 2)."""
    event = start_four_pairs(organiser, boards_per_round=2)
    return event, list(event.entries.order_by("number")), Actor(user=organiser)


def _round_2_proposed(event: Event, entries: list[Entry], actor: Actor) -> Round:
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    return events.round_propose(
        event=Event.objects.get(pk=event.pk),
        actor=actor,
        number=2,
        tables=[(entries[0].pk, entries[2].pk), (entries[1].pk, entries[3].pk)],
    )


def _opener(rnd: Round, actor: Actor) -> Callable[[], Any]:
    """Open ``rnd`` as the organiser's page does: a round already dropped is not found (the
    page's 404), else the service decides."""

    def open_round() -> None:
        found = Round.objects.select_related("event").filter(pk=rnd.pk).first()
        if found is not None:
            events.round_open(rnd=found, actor=actor)

    return open_round


def _late_entry(event: Event, actor: Actor, n: int) -> Callable[[], Any]:
    return lambda: late_entries.late_entry_register(
        event=Event.objects.get(pk=event.pk), actor=actor, player1=f"Late {n}", player2=f"Later {n}"
    )


def _withdraw(entry: Entry, actor: Actor) -> Callable[[], Any]:
    return lambda: changes.entry_withdraw(
        entry=Entry.objects.select_related("event").get(pk=entry.pk), actor=actor, reason="ill"
    )


def test_a_withdrawal_and_the_other_pairs_submission(organiser):
    for _ in range(REPEATS):
        event, entries, actor = _event(organiser)
        table = Table.objects.get(round__event=event, round__number=1, number=1)

        def submit(table=table) -> None:
            fresh = Table.objects.select_related("round__event").get(pk=table.pk)
            results.result_submit_short(
                table=fresh, board_number=1, actor=Actor(table=fresh, side="EW"), data=SHORT
            )

        raised = _race(_withdraw(entries[0], actor), submit)
        _refusals_only(raised)
        assert raised[0] is None  # the withdrawal always goes through
        table.refresh_from_db()
        assert table.forfeited_by == "NS"
        stored = BoardResult.objects.filter(table=table).count()
        assert stored == (1 if raised[1] is None else 0)


def test_opening_a_round_and_withdrawing_a_pair_it_seats(organiser):
    for _ in range(REPEATS):
        event, entries, actor = _event(organiser)
        rnd = _round_2_proposed(event, entries, actor)

        _refusals_only(_race(_opener(rnd, actor), _withdraw(entries[0], actor)))
        withdrawn = Entry.objects.get(pk=entries[0].pk)
        assert withdrawn.withdrawn_after_round is not None
        found = Round.objects.filter(pk=rnd.pk).first()
        if found is not None and found.status == Round.Status.OPEN:
            # Opened first: the withdrawal then forfeited the pair's match.
            assert found.tables.get(ns=withdrawn).forfeited_by == "NS"


def test_opening_a_round_and_a_late_entry(organiser):
    for n in range(REPEATS):
        event, entries, actor = _event(organiser)
        rnd = _round_2_proposed(event, entries, actor)

        _refusals_only(_race(_opener(rnd, actor), _late_entry(event, actor, n)))


def test_reopening_a_round_and_proposing_the_next(organiser):
    for _ in range(REPEATS):
        event, entries, actor = _event(organiser)
        first = event.rounds.get(number=1)
        events.round_close(rnd=first, actor=actor, accept_missing=True)

        def reopen(first=first, actor=actor) -> None:
            changes.round_reopen(
                rnd=Round.objects.select_related("event").get(pk=first.pk),
                actor=actor,
                reason="closed too early",
            )

        def propose(event=event, actor=actor, entries=entries) -> None:
            events.round_propose(
                event=Event.objects.get(pk=event.pk),
                actor=actor,
                number=2,
                tables=[(entries[0].pk, entries[2].pk), (entries[1].pk, entries[3].pk)],
            )

        _refusals_only(_race(reopen, propose))
        first.refresh_from_db()
        if first.status == Round.Status.OPEN:
            # Reopened: no proposal of round 2 may outlive it (it could be opened beside it).
            assert not Round.objects.filter(event=event, number=2).exists()


def test_a_round_does_not_open_while_an_earlier_one_is_open(organiser):
    """The backstop: whatever left an earlier round open, the next one does not open beside it."""
    event, entries, actor = _event(organiser)
    rnd = _round_2_proposed(event, entries, actor)
    Round.objects.filter(event=event, number=1).update(status=Round.Status.OPEN)
    with pytest.raises(Conflict, match="Close round 1 first"):
        events.round_open(rnd=Round.objects.select_related("event").get(pk=rnd.pk), actor=actor)


def test_proposing_a_round_and_a_late_entry(organiser):
    """A Swiss round seats every active pair or gives it the bye: a late entry joining it
    either drops the proposal or is seen by it (it was read before the event's lock, and the
    round opened without the new pair)."""
    for n in range(REPEATS):
        event, entries, actor = _event(organiser)
        events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)

        def propose(event=event, actor=actor) -> None:
            pairings_propose(event.pk, 2, actor=actor)

        _refusals_only(_race(propose, _late_entry(event, actor, n)))
        proposal = Round.objects.filter(event=event, number=2).first()
        if proposal is not None:
            seated = {x for t in proposal.tables.all() for x in (t.ns_id, t.ew_id)}
            seated |= {proposal.bye_id} if proposal.bye_id else set()
            active = {e.pk for e in events.round_active_entries(event, 2)}
            assert seated == active
