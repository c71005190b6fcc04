"""Un-open a round, move pairs, open it again: nobody keeps the way into a table they left (the
fair-play audit's item 4).

Un-opening used to revoke the API tokens but keep the codes and the phones' session grants
(they hold the table and its ``codes_version``), and a swap moves pairs between the existing
tables. So pair 1's phone, granted at table 1 before the swap, kept opening table 1's pages
once pair 1 played at table 2: table 1's results, and board 1's cards once table 1 had played
it, before pair 1 played board 1. Un-opening now gives every table of the round new codes:
the old codes, sessions and tokens all stop working, whatever is changed before the round
opens again (a swap, the pairing editor, a team's line-up)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from api.authentication import table_token
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Board, Table, TableToken
from tournaments.services import changes, events, results

pytestmark = pytest.mark.django_db


def _leaked(body: str, hands: dict[str, list[str]]) -> list[str]:
    return [seat for seat, cards in hands.items() if json.dumps(cards) in body]


def test_a_pair_moved_by_a_swap_after_un_open_loses_its_old_tables_session(
    running_event, organiser
):
    event = running_event
    org = Actor(user=organiser)
    rnd = event.rounds.get(number=1)
    t1 = Table.objects.get(round=rnd, number=1)
    t2 = Table.objects.get(round=rnd, number=2)
    pair1 = t1.ns_id
    old_code = t1.code_ns
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")  # pair 1's phone, table 1's NS code typed
    assert phone.post("/table/", {"code": t1.code_ns}).status_code == 302
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")  # pair 1's program
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_token(t1, 'NS')}")

    rnd = changes.round_unopen(rnd=rnd, actor=org, reason="wrong pairing")
    events.round_swap(rnd=rnd, actor=org, entry_a=t1.ns_id, entry_b=t2.ns_id)
    rnd.refresh_from_db()
    events.round_open(rnd=rnd, actor=org)
    t1.refresh_from_db()
    t2.refresh_from_db()
    assert t2.ns_id == pair1 and t1.ns_id != pair1  # pair 1 now plays at table 2

    data = {"trump": "oros", "totals": {"NS": 44, "EW": 28}}
    results.result_submit_short(
        table=t1, board_number=1, actor=Actor(table=t1, side="NS"), data=data
    )

    hands = Board.objects.get(event=event, number=1).hands
    for code in (t1.code_ns, old_code):
        page = phone.get(f"/table/{code}/board/1/play/")
        assert page.status_code != 200, code
        assert not _leaked(page.content.decode(), hands)
        assert phone.get(f"/table/{code}/").status_code != 200
    assert api.get("/api/v1/disputes").status_code == 401
    # The card pair 1 kept from table 1 opens nothing any more.
    assert Client().post("/table/", {"code": old_code}).status_code != 302


def test_un_open_gives_every_table_new_codes_and_revokes_their_tokens(running_event, organiser):
    rnd = running_event.rounds.get(number=1)
    tables = list(Table.objects.filter(round=rnd).order_by("number"))
    before = {t.pk: (t.code_ns, t.code_ew, t.codes_version) for t in tables}
    old_codes = {c for t in tables for c in (t.code_ns, t.code_ew)}
    for table in tables:
        table_token(table, "NS")
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert phone.post("/table/", {"code": tables[1].code_ew}).status_code == 302

    changes.round_unopen(rnd=rnd, actor=Actor(user=organiser), reason="opened by mistake")
    events.round_open(rnd=running_event.rounds.get(number=1), actor=Actor(user=organiser))

    for table in tables:
        table.refresh_from_db()
        assert table.codes_version == before[table.pk][2] + 1
        assert {table.code_ns, table.code_ew}.isdisjoint(old_codes)
    assert not TableToken.objects.filter(table__round=rnd).exists()
    assert phone.get(f"/table/{tables[1].code_ew}/").status_code != 200  # the session died
    assert Client().post("/table/", {"code": tables[1].code_ew}).status_code == 302  # new code
    entry = AuditEntry.objects.filter(event=running_event, action="round_unopened").get()
    assert entry.changes["new_codes_tables"] == [None, [1, 2]]
    assert "2 tokens revoked" in entry.note


def test_the_new_codes_note_is_written_in_the_organisers_language(running_event, organiser):
    table = Table.objects.filter(round__event=running_event, round__number=1).first()
    table_token(table, "NS")
    with translation.override("ca"):
        events.table_new_codes(table=table, actor=Actor(user=organiser))
    entry = AuditEntry.objects.get(event=running_event, action="table_new_codes")
    assert entry.note == "1 token revocat"
