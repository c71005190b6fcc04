"""A round reopened for results (closed too early) takes from a table only the boards it had
unlocked before the close (docs/organisers.md, "Reopen a closed round").

Closing a round shows its boards' cards and travellers to everyone who sat in it, and to the
public once the event is published: a board a table had not played by then is no longer unseen.
After a reopen the table may still enter, correct and confirm the boards it had played (declared
played or entered before the close); any other board only the organiser enters, for the table.
(Fair-play audit, item 5.)
"""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.authentication import table_token
from tests.tournaments.test_table_short import form as short_form
from tournaments.actors import Actor
from tournaments.models import BoardResult, BoardUnlock, Table
from tournaments.services import ServiceError, changes, events, results

pytestmark = pytest.mark.django_db

SHORT = {"trump": "oros", "totals": {"NS": 44, "EW": 28}}
ASK = "ask the organiser to enter it"
SHORT_FORM = short_form(totals_ns="44")  # the same on the table's page


def _tables(event):
    return (
        Table.objects.get(round__event=event, round__number=1, number=1),
        Table.objects.get(round__event=event, round__number=1, number=2),
    )


def _both_sides(table, board, data=SHORT):
    for side in ("NS", "EW"):
        results.result_submit_short(
            table=table, board_number=board, actor=Actor(table=table, side=side), data=data
        )


@pytest.fixture
def reopened(running_event, organiser):
    """Round 1 closed with board 2 never played at table 2 (accepted as missing), its cards and
    table 1's score on it shown while closed, then reopened for results."""
    event = running_event
    event.published = True
    event.save(update_fields=["published"])
    org = Actor(user=organiser)
    t1, t2 = _tables(event)
    _both_sides(t1, 1)
    _both_sides(t1, 2)
    _both_sides(t2, 1, {"trump": "copes", "totals": {"NS": 40, "EW": 32}})
    events.round_close(rnd=event.rounds.get(number=1), actor=org, accept_missing=True)

    # While closed: anyone reads board 2's hands and table 1's score on it.
    anon = APIClient()
    board = anon.get(f"/api/v1/events/{event.pk}/boards/2").json()
    assert board["hands_visible"] and board["hands"]
    trav = anon.get(f"/api/v1/events/{event.pk}/boards/2/traveller").json()
    assert [line["score_ns"] for line in trav["lines"]] == [8]

    changes.round_reopen(rnd=event.rounds.get(number=1), actor=org, reason="closed too early")
    t2.refresh_from_db()
    return event


def _api(table, side="NS"):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_token(table, side)}")
    return client


def test_a_table_cannot_enter_a_board_after_its_cards_and_scores_were_shown(reopened):
    """The auditor's case: table 2 posts board 2 through the API after the reopen."""
    _t1, t2 = _tables(reopened)
    response = _api(t2).post(
        "/api/v1/results",
        {
            "table": t2.pk,
            "board": 2,
            "delegated": False,
            "trump": "oros",
            "doubles": [],
            "totals": {"NS": 44, "EW": 28},
        },
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert ASK in response.json()["detail"]
    assert not BoardResult.objects.filter(table=t2, board__number=2).exists()


def test_nor_declare_it_played_nor_send_its_play_record(reopened):
    _t1, t2 = _tables(reopened)
    client = _api(t2, "EW")
    declared = client.post("/api/v1/boards/played", {"table": t2.pk, "board": 2}, format="json")
    assert declared.status_code == 400 and ASK in declared.json()["detail"]
    with pytest.raises(ServiceError, match=ASK):
        results.result_submit_play_record(
            table=t2, board_number=2, actor=Actor(table=t2, side="NS"), record={}
        )
    assert not BoardUnlock.objects.filter(table=t2, board__number=2).exists()


def test_the_table_page_refuses_it_too(reopened):
    _t1, t2 = _tables(reopened)

    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert phone.post("/table/", {"code": t2.code_ns}).status_code == 302
    page = phone.post(f"/table/{t2.code_ns}/board/2/", SHORT_FORM)
    assert ASK in page.content.decode()
    assert not BoardResult.objects.filter(table=t2, board__number=2).exists()


def test_the_organiser_enters_it_for_the_table(reopened, organiser):
    _t1, t2 = _tables(reopened)
    org = Actor(user=organiser)
    outcome = results.result_submit_short(table=t2, board_number=2, actor=org, data=SHORT)
    assert outcome.created
    # The table may confirm what the organiser entered for it, not enter it again.
    with pytest.raises(ServiceError, match=ASK):
        results.result_submit_short(
            table=t2, board_number=2, actor=Actor(table=t2, side="EW"), data=SHORT
        )
    confirmed = results.result_confirm(result=outcome.result, actor=Actor(table=t2, side="NS"))
    assert confirmed.status == BoardResult.Status.CONFIRMED


def test_the_organiser_enters_it_on_the_tables_page(reopened, organiser):
    _t1, t2 = _tables(reopened)

    desk = Client(HTTP_ACCEPT_LANGUAGE="en")
    desk.force_login(organiser)
    page = desk.post(f"/table/{t2.code_ns}/board/2/", SHORT_FORM)
    assert page.status_code == 302, page.content.decode()[-2000:]
    result = BoardResult.objects.get(table=t2, board__number=2)
    assert result.entered_by == organiser.username


def test_a_board_played_before_the_close_is_still_entered_and_confirmed(running_event, organiser):
    """What reopening is for: a table that had played a board (declared it played, or one pair
    entered it) before the close finishes it afterwards."""
    event = running_event
    org = Actor(user=organiser)
    t1, t2 = _tables(event)
    results.board_declare_played(table=t2, board_number=2, actor=Actor(table=t2, side="NS"))
    entered = results.result_submit_short(
        table=t1, board_number=2, actor=Actor(table=t1, side="NS"), data=SHORT
    ).result
    events.round_close(rnd=event.rounds.get(number=1), actor=org, accept_missing=True)
    changes.round_reopen(rnd=event.rounds.get(number=1), actor=org, reason="closed too early")
    t1.refresh_from_db()
    t2.refresh_from_db()
    # Table 2 enters the board it had declared played; its opponents confirm by entering it too.
    _both_sides(t2, 2)
    assert BoardResult.objects.get(table=t2, board__number=2).status == "confirmed"
    # Table 1's EW confirms the result its NS had entered.
    confirmed = results.result_confirm(result=entered, actor=Actor(table=t1, side="EW"))
    assert confirmed.status == BoardResult.Status.CONFIRMED
    # Table 2 had not played board 1: refused.
    with pytest.raises(ServiceError, match=ASK):
        results.result_submit_short(
            table=t2, board_number=1, actor=Actor(table=t2, side="NS"), data=SHORT
        )


def test_migration_0019_finds_when_each_round_was_first_closed(reopened, organiser):
    import importlib

    from django.apps import apps

    from tournaments.models import AuditEntry, Round

    migration = importlib.import_module("tournaments.migrations.0019_round_first_closed_at")
    event = reopened
    first = AuditEntry.objects.get(event=event, action="round_closed").created_at
    # Round 1 was closed, then reopened: open again, its closed_at cleared.
    Round.objects.filter(event=event).update(first_closed_at=None)
    migration.first_closes(apps, None)
    assert event.rounds.get(number=1).first_closed_at == first
    # Closed a second time: still the first close.
    events.round_close(
        rnd=event.rounds.get(number=1), actor=Actor(user=organiser), accept_missing=True
    )
    Round.objects.filter(event=event).update(first_closed_at=None)
    migration.first_closes(apps, None)
    rnd = event.rounds.get(number=1)
    assert rnd.first_closed_at == first < rnd.closed_at
