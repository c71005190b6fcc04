"""Nothing a table is told depends on a board it has not played (issue 13, audit item 1).

The attacker holds table 2's code (or its token) and knows the protocol. Board 1 of the open
round has not been played at table 2. Every route that replays or checks anything against the
board is probed twice, once with board 1 dealt one way and once another way: each answer must be
the same bytes (CSRF tokens aside). The attack of the audit (a one-card record per card of the
pack, read from the wording of the answers) is replayed and must learn nothing; the attempts are
written on the audit trail. Only the explicit, audited unlock (a stored result, or the board
declared played) lets the table see the cards.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

import engine
from tournaments.models import AuditEntry, Board, BoardUnlock

BOARD = 1
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"|"csrfToken": "[^"]+"')


def other_deal(board: Board) -> dict[str, list[str]]:
    """Another deal of the same board (same number, same dealer)."""
    for n in range(1, 100):
        hands = engine.deal_board(f"another seed {n}", board.number).hands_json()
        if hands != board.hands:
            return hands
    raise AssertionError("no other deal found")


def record(play: list[str], **extra) -> dict:
    board_dealer = extra.pop("dealer")
    return {
        "format": "botifarra-play/1",
        "deal": {"dealer": board_dealer, **extra.pop("deal", {})},
        "choice": {"delegated": False, "trump": "oros"},
        "play": play,
        **extra,
    }


# The table pages say when they were shown ("No network: shown as of 21:04"): a minute may
# turn between two probes.
SHOWN_AT = re.compile(rb'id="as-of">[^<]*<')


def strip(body: bytes) -> bytes:
    return SHOWN_AT.sub(b"as-of", CSRF.sub(b"csrf", body))


@pytest.fixture
def attacker(scene):
    """Table 2's web session (its code typed) and its API token; board 1 not played there."""
    world = scene.world
    web = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert web.post("/table/", {"code": world.other.code_ns}).status_code == 302
    return web, scene.api("other_table")


def both_deals(scene, probe):
    """``probe()`` with board 1 as dealt, then with another deal: both answers."""
    board = scene.world.board(BOARD)
    real = board.hands
    first = probe()
    Board.objects.filter(pk=board.pk).update(hands=other_deal(board))
    try:
        second = probe()
    finally:
        Board.objects.filter(pk=board.pk).update(hands=real)
    return first, second


@pytest.mark.django_db
def test_the_audits_attack_learns_nothing_and_is_written_down(scene, attacker):
    _web, api = attacker
    world = scene.world
    dealer = world.board(BOARD).dealer
    url = "/api/v1/play-records"

    def probe():
        answers = set()
        for card in range(48):
            body = {
                "table": world.other.pk,
                "board": BOARD,
                "record": record([engine.card_token(card)], dealer=dealer),
            }
            response = api.post(url, body, format="json")
            assert response.status_code == 400
            answers.add(response.content)
        return answers

    first, second = both_deals(scene, probe)
    # Every card of the pack gets the same answer, whatever the deal: nothing to read.
    assert len(first) == 1 and first == second
    assert b"not in" not in next(iter(first))
    refused = AuditEntry.objects.filter(event=world.event, action="record_refused")
    assert refused.count() == 96
    assert not BoardUnlock.objects.filter(table=world.other).exists()


PROBES = {
    "two cards": lambda d: record(["1o", "9o"], dealer=d),
    "a whole pack in order": lambda d: record([engine.card_token(c) for c in range(48)], dealer=d),
    "hands guessed": lambda d: record(
        ["1o"], dealer=d, deal={"hands": engine.deal_board("guess", BOARD).hands_json()}
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", PROBES)
def test_play_records_answer_the_same_for_any_deal(scene, attacker, name):
    _web, api = attacker
    world = scene.world
    body = {
        "table": world.other.pk,
        "board": BOARD,
        "record": PROBES[name](world.board(BOARD).dealer),
    }

    def probe():
        response = api.post("/api/v1/play-records", body, format="json")
        return response.status_code, response.content

    first, second = both_deals(scene, probe)
    assert first == second
    assert first[0] == 400


@pytest.mark.django_db
def test_problems_of_form_are_still_told_in_full(scene, attacker):
    """What does not depend on the cards (a bad token) is reported as always, with its path,
    the same for any deal. A card played twice is not among it: after the first illegal play it
    would not count, and where that play is depends on the cards (engine.check_form)."""
    _web, api = attacker
    world = scene.world
    dealer = world.board(BOARD).dealer
    body = {
        "table": world.other.pk,
        "board": BOARD,
        "record": record(["1o", "1o", "zz"], dealer=dealer),
    }

    def probe():
        return api.post("/api/v1/play-records", body, format="json").json()

    first, second = both_deals(scene, probe)
    assert first == second
    fields = {e["field"] for e in first["errors"]}
    assert "record.play[2]" in fields and "record.play[1]" not in fields


@pytest.mark.django_db
def test_every_other_route_answers_the_same_for_any_deal(scene, attacker):
    web, api = attacker
    world = scene.world
    event = world.event
    code = world.other.code_ns
    dealer = world.board(BOARD).dealer
    paste = engine.record.dumps(record(["1o"], dealer=dealer))
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="en")

    def probe():
        answers = [
            api.get(f"/api/v1/events/{event.pk}/boards/{BOARD}"),
            api.post(
                "/api/v1/verify",
                {"event": event.pk, "board": BOARD, "record": record(["1o"], dealer=dealer)},
                format="json",
            ),
            anonymous.post(
                "/api/v1/verify",
                {"event": event.pk, "board": BOARD, "record": record(["1o"], dealer=dealer)},
                content_type="application/json",
            ),
            web.get(f"/table/{code}/"),
            web.get(f"/table/{code}/board/{BOARD}/"),
            web.get(f"/table/{code}/board/{BOARD}/play/"),
            web.post(f"/table/{code}/board/{BOARD}/play/", {"record": paste}),
            web.post(
                f"/table/{code}/board/{BOARD}/play/legal/",
                '{"play": ["1o"]}',
                content_type="application/json",
            ),
            web.post(
                f"/table/{code}/board/{BOARD}/play/submit/",
                paste,
                content_type="application/json",
            ),
            anonymous.get(f"/e/{event.pk}/hand-records/?round=1"),
            anonymous.get(f"/e/{event.pk}/boards/{BOARD}/"),
            anonymous.get(f"/api/v1/events/{event.pk}/standings"),
        ]
        return [(r.status_code, strip(r.content)) for r in answers]

    first, second = both_deals(scene, probe)
    for i, (a, b) in enumerate(zip(first, second, strict=True)):
        assert a == b, i


@pytest.mark.django_db
def test_declaring_the_board_played_is_the_audited_act_that_shows_it(scene, attacker):
    web, api = attacker
    world = scene.world
    board = world.board(BOARD)
    url = f"/api/v1/events/{world.event.pk}/boards/{BOARD}"
    assert "hands" not in api.get(url).json()
    response = api.post(
        "/api/v1/boards/played", {"table": world.other.pk, "board": BOARD}, format="json"
    )
    assert response.status_code == 200 and response.json()["reason"] == "declared"
    assert api.get(url).json()["hands"] == board.hands
    unlock = BoardUnlock.objects.get(table=world.other, board=board)
    assert unlock.reason == "declared"
    assert AuditEntry.objects.filter(action="board_unlocked", note="declared").exists()
    # Now a record is checked against the cards in full, and says which card is wrong.
    dealer = board.dealer
    body = {"table": world.other.pk, "board": BOARD, "record": record(["1o"], dealer=dealer)}
    answer = api.post("/api/v1/play-records", body, format="json").json()
    assert answer["errors"][0]["field"].startswith("record.play")
    assert "checked only for its form" not in answer["detail"]
    # The organiser's round page shows the table owes a result for the board.
    organiser = scene.web("organiser")
    page = organiser.get(f"/manage/{world.event.pk}/rounds/1/").content.decode()
    assert "played, result owed" in page


@pytest.mark.django_db
def test_a_probe_sent_with_an_idempotency_key_is_written_down_too(scene, attacker):
    """A refusal rolls back the key's transaction: the probe's audit entry must survive it."""
    _web, api = attacker
    world = scene.world
    body = {
        "table": world.other.pk,
        "board": BOARD,
        "record": record(["1o", "9o"], dealer=world.board(BOARD).dealer),
    }
    refused = AuditEntry.objects.filter(event=world.event, action="record_refused")
    for expected in (1, 2):  # the same key again: refused again, and seen again
        response = api.post("/api/v1/play-records", body, format="json", HTTP_IDEMPOTENCY_KEY="k")
        assert response.status_code == 400
        assert refused.count() == expected
    assert not BoardUnlock.objects.filter(table=world.other).exists()


def test_a_forfeited_table_does_not_unlock_a_board(running_event, organiser):
    """Fair-play audit, 2026-12-05: a withdrawn pair's token still declared boards played and
    read their hands while other tables played them; reinstated, the pair then played a board
    it had seen. A forfeited match takes no results and unlocks nothing."""
    from rest_framework.test import APIClient

    from api.authentication import table_token
    from tournaments.actors import Actor
    from tournaments.models import Table
    from tournaments.services import changes

    t1 = Table.objects.get(round__event=running_event, round__number=1, number=1)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.credentials(HTTP_AUTHORIZATION=f"Table {table_token(t1, 'NS')}")
    changes.entry_withdraw(entry=t1.ns, actor=Actor(user=organiser), reason="ill")
    declared = api.post("/api/v1/boards/played", {"table": t1.pk, "board": 1}, format="json")
    assert declared.status_code == 400, declared.content
    assert "forfeited" in declared.content.decode()
    board = api.get(f"/api/v1/events/{running_event.pk}/boards/1").json()
    assert not board["hands_visible"] and "hands" not in board
    assert not t1.unlocks.exists()
