"""A change that waited for another may find its row removed meanwhile: it is refused with a
409 that says so, never a 500 (an uncaught ``DoesNotExist``), and writes nothing. Each test
hands the service the object a request read before the other change removed it, which is what
the request holds once the lock it waited for is released (the PostgreSQL races of
tests/tournaments/test_lifecycle_races_pg.py reach the same point with real threads)."""

import pytest
from rest_framework.test import APIClient

from api.authentication import issue_table_token
from tests.factories import EventFactory, PairFactory, WebhookDeliveryFactory, WebhookFactory
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Entry, Event, Round, Table
from tournaments.services import Conflict, ServiceError, changes, events, late_entries, webhooks

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


@pytest.fixture
def signed_up(organiser):
    event = EventFactory(organisers=[organiser], status="registration")
    for number in (1, 2, 3, 4):
        Entry.objects.create(event=event, pair=PairFactory(), number=number)
    return event


def _removed_before_the_start(event, actor) -> Entry:
    """Pair 1 as a request read it, then removed by another request (a withdrawal before the
    start deletes the pair)."""
    held = event.entries.get(number=1)
    changes.entry_withdraw(entry=event.entries.get(number=1), actor=actor, reason="ill")
    assert not event.entries.filter(number=1).exists()
    return held


def _refused_as_removed(call, event, field) -> None:
    audits = AuditEntry.objects.filter(event=event).count()
    with pytest.raises(Conflict) as refused:
        call()
    assert refused.value.field == field and "meanwhile" in refused.value.message
    assert AuditEntry.objects.filter(event=event).count() == audits


def test_a_pair_withdrawn_twice_at_once_before_the_start(signed_up, actor):
    held = _removed_before_the_start(signed_up, actor)
    _refused_as_removed(
        lambda: changes.entry_withdraw(entry=held, actor=actor, reason="twice"), signed_up, "pair"
    )
    assert signed_up.entries.count() == 3


def test_a_pair_reinstated_or_substituted_while_removed(signed_up, actor):
    held = _removed_before_the_start(signed_up, actor)
    _refused_as_removed(
        lambda: changes.entry_reinstate(entry=held, actor=actor, reason="back"), signed_up, "pair"
    )
    _refused_as_removed(
        lambda: changes.player_substitute(entry=held, actor=actor, seat=1, name="Nova Sala"),
        signed_up,
        "pair",
    )


def test_a_bye_requested_for_a_pair_removed_meanwhile(signed_up, actor):
    held = _removed_before_the_start(signed_up, actor)
    _refused_as_removed(
        lambda: late_entries.bye_request_add(entry=held, actor=actor, round_number=1),
        signed_up,
        "pair",
    )


def test_a_webhook_removed_twice_at_once_is_removed_and_audited_once(running_event, actor):
    hook = WebhookFactory(event=running_event)
    held = type(hook).objects.get(pk=hook.pk)
    webhooks.webhook_delete(webhook=hook, actor=actor)
    _refused_as_removed(
        lambda: webhooks.webhook_delete(webhook=held, actor=actor), running_event, "webhook"
    )
    assert AuditEntry.objects.filter(event=running_event, action="webhook_removed").count() == 1


def test_a_delivery_sent_again_while_its_webhook_is_removed(running_event, actor):
    delivery = WebhookDeliveryFactory(webhook=WebhookFactory(event=running_event))
    webhooks.webhook_delete(webhook=delivery.webhook, actor=actor)
    _refused_as_removed(
        lambda: webhooks.delivery_resend(delivery=delivery, actor=actor), running_event, "delivery"
    )


def _round_two_proposed(event, actor):
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    pk = dict(event.entries.values_list("number", "pk"))
    events.round_propose(
        event=event, actor=actor, number=2, tables=[(pk[1], pk[3]), (pk[2], pk[4])]
    )
    return Round.objects.get(event=event, number=2), pk


def test_new_codes_for_a_table_of_a_proposal_made_again(running_event, actor):
    _held, pk = _round_two_proposed(running_event, actor)
    held = Table.objects.get(round__event=running_event, round__number=2, number=1)
    # Proposed again: its tables are made anew.
    events.round_propose(
        event=running_event, actor=actor, number=2, tables=[(pk[1], pk[4]), (pk[2], pk[3])]
    )
    assert not Table.objects.filter(pk=held.pk).exists()
    _refused_as_removed(
        lambda: events.table_new_codes(table=held, actor=actor), running_event, "table"
    )


def _seats(rnd):
    return list(rnd.tables.order_by("number").values_list("ns_id", "ew_id", "codes_version"))


def test_a_swap_or_a_pairing_by_hand_refuses_a_round_opened_meanwhile(running_event, actor):
    """The page read round 2 proposed; it was opened (its codes handed out) before the change
    came: moving pairs between open tables would make a code act for another pair."""
    held, pk = _round_two_proposed(running_event, actor)
    events.round_open(rnd=Round.objects.get(pk=held.pk), actor=actor)
    seats = _seats(held)
    with pytest.raises(Conflict):
        events.round_swap(rnd=held, actor=actor, entry_a=pk[1], entry_b=pk[2])
    with pytest.raises(Conflict):
        changes.pairing_set(rnd=held, actor=actor, tables=[(1, 2), (3, 4)])
    assert _seats(held) == seats


def test_a_swap_or_a_pairing_by_hand_on_a_proposal_dropped_meanwhile(running_event, actor):
    """A late entry dropped round 2's proposal after the page read it."""
    held, pk = _round_two_proposed(running_event, actor)
    late_entries.late_entry_register(
        event=running_event, actor=actor, player1="Nova Una", player2="Nova Dos"
    )
    assert not Round.objects.filter(pk=held.pk).exists()
    _refused_as_removed(
        lambda: events.round_swap(rnd=held, actor=actor, entry_a=pk[1], entry_b=pk[2]),
        running_event,
        "round",
    )
    _refused_as_removed(
        lambda: changes.pairing_set(rnd=held, actor=actor, tables=[(1, 3), (2, 4)], bye=5),
        running_event,
        "round",
    )


def test_a_swap_after_the_round_was_proposed_again_swaps_in_its_new_tables(running_event, actor):
    held, pk = _round_two_proposed(running_event, actor)
    events.round_propose(
        event=running_event, actor=actor, number=2, tables=[(pk[1], pk[4]), (pk[2], pk[3])]
    )
    events.round_swap(rnd=held, actor=actor, entry_a=pk[1], entry_b=pk[2])
    assert [s[:2] for s in _seats(held)] == [(pk[2], pk[4]), (pk[1], pk[3])]


def test_a_token_issued_while_new_codes_were_given_does_not_act(running_event, actor):
    """The token view read the table by its old code; new codes then deleted the table's
    tokens and committed; the view's insert came after (docs/api.md: every token of the old
    codes stops working)."""
    read_by_the_view = Table.objects.get(round__event=running_event, number=1)
    events.table_new_codes(table=Table.objects.get(pk=read_by_the_view.pk), actor=actor)
    stale, _row = issue_table_token(read_by_the_view, "NS")
    fresh, _row = issue_table_token(Table.objects.get(pk=read_by_the_view.pk), "NS")
    body = {"table": read_by_the_view.pk, "board": 1, "trump": "oros"}
    body["totals"] = {"NS": 40, "EW": 32}
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {stale}")
    refused = client.post("/api/v1/results", body, format="json")
    assert refused.status_code == 401, refused.content
    assert not read_by_the_view.results.exists()
    client.credentials(HTTP_AUTHORIZATION=f"Table {fresh}")
    assert client.post("/api/v1/results", body, format="json").status_code == 201


def test_tokens_issued_before_the_upgrade_keep_working(running_event, actor):
    """Migration 0026 gives each stored token its table's codes version: a phone holding a
    token through the upgrade keeps it; one of codes renewed before then was already deleted."""
    import importlib

    from django.apps import apps

    from tournaments.models import TableToken

    backfill = importlib.import_module(
        "tournaments.migrations.0026_tabletoken_codes_version"
    ).backfill
    table = Table.objects.get(round__event=running_event, number=1)
    events.table_new_codes(table=table, actor=actor)  # codes version 2
    token, _row = issue_table_token(Table.objects.get(pk=table.pk), "NS")
    TableToken.objects.update(codes_version=1)  # what AddField's default left
    backfill(apps, None)
    assert set(TableToken.objects.values_list("codes_version", flat=True)) == {2}
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    body = {"table": table.pk, "board": 1, "trump": "oros", "totals": {"NS": 40, "EW": 32}}
    assert client.post("/api/v1/results", body, format="json").status_code == 201


def test_a_proposal_is_not_changed_once_the_event_finished_meanwhile(running_event, actor):
    """docs/organisers.md: once finished, no round can be opened or closed; its proposal
    (dropped by the finish) is not paired again or changed by hand either, whatever the page
    read before the finish."""
    held, pk = _round_two_proposed(running_event, actor)
    events.event_finish(event=Event.objects.get(pk=running_event.pk), actor=actor)
    with pytest.raises(ServiceError, match="finished"):
        events.round_swap(rnd=held, actor=actor, entry_a=pk[1], entry_b=pk[2])
    with pytest.raises(ServiceError, match="finished"):
        changes.pairing_set(rnd=held, actor=actor, tables=[(1, 4), (2, 3)])
    with pytest.raises(ServiceError, match="finished"):
        events.round_propose(
            event=held.event, actor=actor, number=2, tables=[(pk[1], pk[4]), (pk[2], pk[3])]
        )
    assert not Round.objects.filter(pk=held.pk).exists() and _seats(held) == []
