"""The organiser's pages for undo and late changes: each shows its plan, asks, then acts."""

import pytest
from django.urls import reverse

from tournaments.actors import Actor
from tournaments.models import AuditEntry
from tournaments.services import events
from tournaments.services.results import result_confirm, result_submit_short

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def _messages(response):
    return [str(m) for m in response.context["messages"]]


def _enter_all(rnd):
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    for table in rnd.tables.all():
        for board in rnd.board_numbers:
            stored = result_submit_short(
                table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
            )
            result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


def _closed_round_1(event, organiser):
    rnd = event.rounds.get(number=1)
    _enter_all(rnd)
    events.round_close(rnd=rnd, actor=Actor(user=organiser))
    return rnd


def test_reopen_page_asks_for_a_reason_then_reopens(logged_in, running_event, organiser):
    _closed_round_1(running_event, organiser)
    page = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    assert 'id="reopen-round"' in page.content.decode()
    url = reverse("tournaments:round_reopen", args=[running_event.pk, 1])
    confirm = logged_in.get(url).content.decode()
    assert "Reopen round 1 for results?" in confirm and 'name="reason"' in confirm
    refused = logged_in.post(url, {"reason": ""})
    assert refused.status_code == 400
    assert running_event.rounds.get(number=1).status == "closed"
    done = logged_in.post(url, {"reason": "table 2 asked"}, follow=True)
    assert "Round 1 is open again." in _messages(done)
    assert running_event.rounds.get(number=1).status == "open"


def test_unopen_is_offered_only_while_no_table_has_started(logged_in, running_event):
    round_page = reverse("tournaments:round_detail", args=[running_event.pk, 1])
    assert 'id="unopen-round"' in logged_in.get(round_page).content.decode()
    url = reverse("tournaments:round_unopen", args=[running_event.pk, 1])
    confirm = logged_in.get(url).content.decode()
    assert "Put round 1 back to proposed?" in confirm
    assert "Every table gets new codes" in confirm and "print the table cards again" in confirm
    done = logged_in.post(url, {"reason": "wrong tables"}, follow=True)
    assert running_event.rounds.get(number=1).status == "pending"
    assert any("Every table of round 1 has new codes" in m for m in _messages(done))
    html = logged_in.get(round_page).content.decode()
    assert 'id="unopen-round"' not in html and 'id="edit-pairing"' in html


def test_unopen_of_a_round_with_results_is_refused_with_a_message(
    logged_in, running_event, organiser
):
    _enter_all(running_event.rounds.get(number=1))
    url = reverse("tournaments:round_unopen", args=[running_event.pk, 1])
    response = logged_in.post(url, {"reason": "x"}, follow=True)
    assert any("already stored a result" in m for m in _messages(response))
    assert running_event.rounds.get(number=1).status == "open"


def _round_2_proposed(event, organiser):
    _closed_round_1(event, organiser)
    e = list(event.entries.order_by("number"))
    return events.round_propose(
        event=event,
        actor=Actor(user=organiser),
        number=2,
        tables=[(e[0].pk, e[2].pk), (e[1].pk, e[3].pk)],
    )


def test_pairing_editor_warns_then_saves_what_was_confirmed(logged_in, running_event, organiser):
    rnd = _round_2_proposed(running_event, organiser)
    url = reverse("tournaments:round_pairing", args=[running_event.pk, 2])
    form = logged_in.get(url)
    assert form.status_code == 200 and 'name="t1_ns"' in form.content.decode()
    rematch = {"t1_ns": 1, "t1_ew": 2, "t2_ns": 3, "t2_ew": 4}
    warned = logged_in.post(url, rematch)
    html = warned.content.decode()
    assert "have already met" in html and "Save despite the warnings" in html
    assert [(t.ns.number, t.ew.number) for t in rnd.tables.order_by("number")] == [(1, 3), (2, 4)]
    # Confirming a pairing other than the one warned about is checked again.
    key = warned.context["form"].key()
    again = logged_in.post(url, {"t1_ns": 2, "t1_ew": 1, "t2_ns": 3, "t2_ew": 4, "confirm": key})
    assert "have already met" in again.content.decode()
    saved = logged_in.post(url, rematch | {"confirm": key}, follow=True)
    assert "The pairing of round 2 is saved." in _messages(saved)
    assert [(t.ns.number, t.ew.number) for t in rnd.tables.order_by("number")] == [(1, 2), (3, 4)]
    assert AuditEntry.objects.filter(event=running_event, action="round_pairing_set").exists()


def test_pairing_editor_refuses_a_pair_seated_twice(logged_in, running_event, organiser):
    _round_2_proposed(running_event, organiser)
    url = reverse("tournaments:round_pairing", args=[running_event.pk, 2])
    response = logged_in.post(url, {"t1_ns": 1, "t1_ew": 2, "t2_ns": 1, "t2_ew": 4})
    assert response.status_code == 400
    assert "Each pair sits once: 1 appear twice." in response.content.decode()


def test_withdraw_reinstate_and_substitute_from_the_pairs_page(logged_in, running_event):
    entries_url = reverse("tournaments:entries", args=[running_event.pk])
    entry = running_event.entries.get(number=3)
    assert "Substitute a player" in logged_in.get(entries_url).content.decode()
    logged_in.post(
        reverse("tournaments:entry_withdraw", args=[running_event.pk, entry.pk]),
        {"reason": "gone home"},
    )
    entry.refresh_from_db()
    assert entry.withdrawn_after_round == 1
    reinstate = reverse("tournaments:entry_reinstate", args=[running_event.pk, entry.pk])
    assert reinstate in logged_in.get(entries_url).content.decode()
    page = logged_in.get(reinstate).content.decode()
    assert "The forfeit at table 2 is taken back" in page
    logged_in.post(reinstate, {})
    entry.refresh_from_db()
    assert entry.withdrawn_after_round is None
    substitute = reverse("tournaments:entry_substitute", args=[running_event.pk, entry.pk])
    refused = logged_in.post(substitute, {"seat": 1, "name": ""})
    assert refused.status_code == 400
    done = logged_in.post(substitute, {"seat": 1, "name": "Nuria Roig"}, follow=True)
    assert "Nuria Roig now plays in pair 3." in _messages(done)
    assert "Nuria Roig" in logged_in.get(entries_url).content.decode()
    assert "Round 1: Nuria Roig for" in logged_in.get(substitute).content.decode()
