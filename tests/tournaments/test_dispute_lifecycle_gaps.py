"""Disputes where a result could change without a ruling or a correction, or a ruling be
recorded against what the referee saw (found by an audit against docs/referees.md):

- a player's request is withdrawn only while the round is open (a referee's, while rulings are
  open), never after the event, and not once another result was sent for the board meanwhile;
- after the event the organiser corrects a board whatever dispute is still open on it;
- a ruling posted twice, or by a second referee meanwhile, is refused, not a silent revision;
- the ruling the result follows is the only one shown in force, across the board's disputes;
- the correction reads in words on the audit trail; the admin cannot delete a dispute."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from tests.api.conftest import _fast_passwords, world  # noqa: F401 - the API tests' fixtures
from tests.plays import ew, illegal_play, ns, record_for
from tournaments import referee_desk as desk
from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardResult, Dispute, Event, Round, Ruling
from tournaments.services import Conflict, disputes, events, results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def short(table, *, actor=None, totals=None):
    data = {
        "delegated": False,
        "trump": "oros",
        "doubles": [],
        "totals": totals or {"NS": 40, "EW": 32},
    }
    return results.result_submit_short(
        table=table, board_number=1, actor=actor or ns(table), data=data
    ).result


def fresh(result):
    return BoardResult.objects.select_related("table__round__event", "board").get(pk=result.pk)


def fresh_d(dispute):
    return Dispute.objects.select_related("result__table__round__event", "result__board").get(
        pk=dispute.pk
    )


def finish(event, organiser):
    org = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=org, accept_missing=True)
    event.refresh_from_db()
    events.event_finish(event=event, actor=org)
    event.refresh_from_db()


ADJUSTED = {"adjusted_ns": "avg", "adjusted_ew": "avg"}


def test_a_request_is_not_withdrawn_once_the_round_is_closed_nor_after_the_event(
    running_event, table1, organiser, referee
):
    result = short(table1)
    request = disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="Revoke?")
    events.round_close(
        rnd=running_event.rounds.get(number=1), actor=Actor(user=organiser), accept_missing=True
    )
    for actor in (ew(table1), Actor(user=referee)):
        with pytest.raises(Conflict) as refused:
            disputes.dispute_withdraw(dispute=fresh_d(request), actor=actor)
        assert refused.value.field == "round"
    assert fresh(result).status == BoardResult.Status.DISPUTED


def test_the_api_refuses_a_withdrawal_after_the_event(world):  # noqa: F811
    created = world.client("table").post("/api/v1/results", world.short(board=1), format="json")
    # The player's pair (NS) asks: only that pair, or a referee, may withdraw the request.
    request = world.client("table").post(
        "/api/v1/disputes", {"result": created.json()["id"], "reason": "?"}, format="json"
    )
    finish(world.event, world.users["organiser"])
    response = world.client("player").post(
        f"/api/v1/disputes/{request.json()['id']}/withdraw", format="json"
    )
    assert response.status_code == 409
    assert BoardResult.objects.get().status == BoardResult.Status.DISPUTED


def test_a_request_is_not_withdrawn_once_another_result_was_sent_meanwhile(table1):
    result = short(table1, totals={"NS": 40, "EW": 32})
    request = disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="Revoke?")
    short(table1, actor=ew(table1), totals={"NS": 30, "EW": 42})  # kept, for the referee
    with pytest.raises(Conflict):
        disputes.dispute_withdraw(dispute=fresh_d(request), actor=ew(table1))
    assert fresh(result).status == BoardResult.Status.DISPUTED


def test_a_request_is_withdrawn_while_the_round_is_open(table1):
    result = short(table1)
    request = disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="Oops")
    disputes.dispute_withdraw(dispute=fresh_d(request), actor=ew(table1))
    assert fresh(result).status == BoardResult.Status.ENTERED


def test_after_the_event_the_organiser_corrects_a_board_left_with_an_open_request(
    client, running_event, table1, organiser
):
    result = short(table1)
    disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="They revoked")
    finish(running_event, organiser)
    org = Actor(user=organiser)
    opened = disputes.correction_open(result=fresh(result), actor=org, reason="Wrong totals")
    assert opened.reason != Dispute.Reason.CORRECTION  # the players' request, still open
    assert disputes.may_rule(dispute=fresh_d(opened), actor=org)
    disputes.dispute_rule(
        dispute=fresh_d(opened), actor=org, kind="adjusted", explanation="Fixed", data=ADJUSTED
    )
    assert fresh(result).adjusted_ns == "avg"
    client.force_login(organiser)
    page = client.get(reverse("referee:dispute", args=[opened.pk])).content.decode()
    assert "Result corrected after the event" in page and "result_corrected" not in page
    # The organiser's why is kept beside the request it rules on (audit trail and page).
    asked = AuditEntry.objects.get(result=result, action="correction_requested")
    assert asked.note == "Wrong totals" and asked.actor == org.label
    assert "Correction asked for after the event" in page and "Wrong totals" in page


def _illegal_dispute(event, table):
    board = event.boards.get(number=1)
    record = record_for(board, "copes", illegal_play(board, event))
    out = results.result_submit_play_record(
        table=table, board_number=1, actor=ns(table), record=record
    )
    return out.result.disputes.get()


def test_a_ruling_posted_twice_is_refused_not_a_revision(client, running_event, table1, referee):
    dispute = _illegal_dispute(running_event, table1)
    client.force_login(referee)
    url = reverse("referee:dispute", args=[dispute.pk])
    page = client.get(url).content.decode()
    assert 'name="revises" value=""' in page  # nothing in force yet
    body = {
        "form": "penalty",
        "revises": "",
        "penalty-offending_pair": dispute.result.offending_pair,
        "penalty-explanation": "R10.",
    }
    assert client.post(url, body).status_code == 302
    again = client.post(url, body)  # the same page, tapped again
    assert again.status_code == 400 and "ruled meanwhile" in again.content.decode()
    assert Ruling.objects.count() == 1
    current = Ruling.objects.get()
    assert f'name="revises" value="{current.pk}"' in client.get(url).content.decode()
    revised = client.post(url, body | {"revises": str(current.pk)})  # a deliberate revision
    assert revised.status_code == 302 and Ruling.objects.count() == 2


def test_the_api_refuses_a_ruling_against_another_in_force(world):  # noqa: F811
    created = world.client("table").post("/api/v1/results", world.short(board=1), format="json")
    request = world.client("table_ew").post(
        "/api/v1/disputes", {"result": created.json()["id"], "reason": "?"}, format="json"
    )
    url = f"/api/v1/disputes/{request.json()['id']}/rule"
    body = {"kind": "adjusted", "explanation": "x", "data": ADJUSTED, "revises": None}
    referee = world.client("referee")
    assert referee.post(url, body, format="json").status_code == 201
    refused = referee.post(url, body, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["field"] == "revises"
    assert Ruling.objects.count() == 1


def test_only_the_ruling_the_result_follows_is_in_force_across_disputes(table1, referee):
    result = short(table1)
    ref = Actor(user=referee)
    first = disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="first")
    disputes.dispute_rule(
        dispute=fresh_d(first), actor=ref, kind="adjusted", explanation="A1", data=ADJUSTED
    )
    second = disputes.dispute_request(result=fresh(result), actor=ns(table1), reason="second")
    plus = {"adjusted_ns": "avg_plus", "adjusted_ew": "avg_minus"}
    disputes.dispute_rule(
        dispute=fresh_d(second), actor=ref, kind="adjusted", explanation="B1", data=plus
    )
    minus = {"adjusted_ns": "avg_minus", "adjusted_ew": "avg_plus"}
    disputes.dispute_rule(
        dispute=fresh_d(first), actor=ref, kind="adjusted", explanation="A2", data=minus
    )
    in_force = [
        v.ruling.explanation for v in desk.rulings_for_result(fresh(result)) if not v.superseded
    ]
    assert in_force == ["A2"] and fresh(result).adjusted_ns == "avg_minus"


def test_the_admin_cannot_delete_a_dispute(client, running_event, table1, django_user_model):
    dispute = _illegal_dispute(running_event, table1)
    client.force_login(django_user_model.objects.create_superuser("boss", "b@x.org", "pw"))
    client.post(reverse("admin:tournaments_dispute_delete", args=[dispute.pk]), {"post": "yes"})
    assert Dispute.objects.filter(pk=dispute.pk).exists()


def test_the_admin_cannot_add_a_result(client, running_event, table1, django_user_model):
    """Audit-trail audit, 2026-12-06: the admin's add form stored a counted result with no
    audit entry (nor submission), whatever its values."""
    client.force_login(django_user_model.objects.create_superuser("boss", "b@x.org", "pw"))
    form = reverse("admin:tournaments_boardresult_add")
    assert client.get(form).status_code == 403
    answer = client.post(
        form,
        {
            "table": table1.pk,
            "board": running_event.boards.get(number=1).pk,
            "status": "confirmed",
            "trump": "oros",
            "totals_ns": 72,
            "totals_ew": 0,
            "score_ns": 36,
            "score_ew": 0,
            "multiplier": 1,
            "version": 1,
        },
    )
    assert answer.status_code == 403
    assert not BoardResult.objects.exists()


def _organiser_acts_first(monkeypatch, act):
    """``act`` commits just before the service's transaction starts: the moment a second
    request (the organiser's) can fall between a service's first reads and its writes."""
    real = transaction.atomic

    def atomic(*args, **kwargs):
        monkeypatch.setattr(transaction, "atomic", real)
        act()
        return real(*args, **kwargs)

    monkeypatch.setattr(transaction, "atomic", atomic)


def _close(round_id, organiser):
    events.round_close(
        rnd=Round.objects.get(pk=round_id), actor=Actor(user=organiser), accept_missing=True
    )


def test_a_ruling_under_way_when_the_event_finishes_is_refused(
    running_event, table1, referee, organiser, monkeypatch
):
    """Audit-trail audit, 2026-12-06: the rulings' window was read before the transaction,
    so a ruling the referee sent as the organiser finished the event changed a finished
    event's result as a 'ruling', not a correction. Now it reads the round under its lock."""
    dispute = _illegal_dispute(running_event, table1)
    boss = Actor(user=organiser)
    rnd = running_event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=boss, accept_missing=True)
    events.round_rulings(rnd=Round.objects.get(pk=rnd.pk), actor=boss, reopen=True, reason="late")
    before = fresh(dispute.result).status
    _organiser_acts_first(
        monkeypatch,
        lambda: events.event_finish(event=Event.objects.get(pk=running_event.pk), actor=boss),
    )
    with pytest.raises(Conflict) as refused:
        disputes.dispute_rule(
            dispute=fresh_d(dispute),
            actor=Actor(user=referee),
            kind="adjusted",
            explanation="No time.",
            data=ADJUSTED,
        )
    assert "only a correction changes a result" in refused.value.message
    assert Event.objects.get(pk=running_event.pk).status == Event.Status.FINISHED
    assert fresh(dispute.result).status == before
    assert not Ruling.objects.exists()


def test_a_players_request_under_way_when_the_round_closes_is_refused(
    running_event, table1, organiser, monkeypatch
):
    """Audit-trail audit, 2026-12-06: a request sent as the organiser closed the round
    disputed a confirmed result of the closed round (it stopped counting), unlisted by the
    close."""
    result = short(table1)
    short(table1, actor=ew(table1))
    assert fresh(result).status == BoardResult.Status.CONFIRMED
    _organiser_acts_first(monkeypatch, lambda: _close(table1.round_id, organiser))
    with pytest.raises(Conflict) as refused:
        disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="They revoked.")
    assert refused.value.field == "round"
    assert fresh(result).status == BoardResult.Status.CONFIRMED
    assert not AuditEntry.objects.filter(result=result, action="result_disputed").exists()


def test_a_withdrawal_under_way_when_the_round_closes_is_refused(
    running_event, table1, organiser, monkeypatch
):
    result = short(table1)
    request = disputes.dispute_request(result=fresh(result), actor=ew(table1), reason="Revoke?")
    _organiser_acts_first(monkeypatch, lambda: _close(table1.round_id, organiser))
    with pytest.raises(Conflict) as refused:
        disputes.dispute_withdraw(dispute=fresh_d(request), actor=ew(table1))
    assert refused.value.field == "round"
    assert fresh(result).status == BoardResult.Status.DISPUTED
