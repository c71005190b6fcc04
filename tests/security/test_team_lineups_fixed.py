"""Fair play in a team match's line-ups (the fair-play audit's item 3).

A line-up says which of a team's pairs sits in the open room and which in the closed room. Two
holes are closed here:

* once a table of the match has seen a board (declared it played, or stored its result), the
  line-ups are fixed: otherwise the players who saw the board in one room could be seated in
  the room that has not played it, and the others read it through the first room's unlock;
* a line-up change while the round is open gives the re-seated tables new codes and revokes
  their tokens: otherwise a pair moved from the open room to the closed room keeps the open
  room's session (and card) and reads its hands and score before playing the board itself.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.authentication import table_token
from tests.factories import UserFactory
from tests.teams.conftest import actor, team_event  # noqa: F401 - the teams tests' fixture
from tests.teams.test_team_pages import table_client
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Board, Player, TableToken, TeamMatch
from tournaments.services import Conflict, events, results, teams
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(actor):  # noqa: F811
    """A published team event of two teams, round 1 open, nothing played yet."""
    event = team_event(actor, 2, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    pairings_propose(event.pk, 1, actor=actor)
    events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    return TeamMatch.objects.select_related("round__event").get(round__event=event)


def _players(team) -> list[int]:
    return [m.player_id for m in team.members.order_by("order")]


def _leaked(body: str, hands: dict[str, list[str]]) -> list[str]:
    return [seat for seat, cards in hands.items() if json.dumps(cards) in body]


@pytest.mark.parametrize("room", ["open", "closed"])
def test_line_ups_are_fixed_once_a_table_declared_a_board_played(match, actor, room):  # noqa: F811
    event = match.round.event
    table = match.open_table if room == "open" else match.closed_table
    a = _players(match.team_a)
    # Team A's second pair plays in the closed room: one of its players has an account.
    closed_player = UserFactory(username="closedroom")
    Player.objects.filter(pk=a[2]).update(user=closed_player)
    results.board_declare_played(table=table, board_number=1, actor=Actor(table=table, side="NS"))
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=closed_player).key}")
    board = f"/api/v1/events/{event.pk}/boards/1"
    seen = room == "closed"  # the closed room's players see what their own table unlocked
    assert api.get(board).json()["hands_visible"] is seen
    seats = (match.open_table.ns_id, match.open_table.ew_id, match.closed_table.ns_id)

    with pytest.raises(Conflict) as refused:
        teams.lineup_set(
            match=match, team=match.team_a, actor=actor, first=(a[2], a[3]), second=(a[0], a[1])
        )
    assert refused.value.field == "match"
    assert "can no longer change" in refused.value.message
    b = _players(match.team_b)
    with pytest.raises(Conflict):  # the other team's line-up as well
        teams.lineup_set(
            match=match, team=match.team_b, actor=actor, first=(b[2], b[3]), second=(b[0], b[1])
        )
    match.open_table.refresh_from_db()
    match.closed_table.refresh_from_db()
    assert (match.open_table.ns_id, match.open_table.ew_id, match.closed_table.ns_id) == seats
    assert api.get(board).json()["hands_visible"] is seen
    assert not AuditEntry.objects.filter(event=event, action="team_lineup").exists()


def test_a_moved_pair_loses_its_old_rooms_codes_session_and_token(match, actor):  # noqa: F811
    """Line-ups may still change while the round is open and no board was seen. The re-seated
    tables get new codes: the pair moved from the open room to the closed room can no longer
    open the open room's pages (by its phone's session, its card's code or its API token)."""
    event = match.round.event
    open_t, closed_t = match.open_table, match.closed_table
    before = {t.pk: (t.code_ns, t.code_ew, t.codes_version) for t in (open_t, closed_t)}
    phone = table_client(open_t)  # team A's first pair, North–South in the open room
    token = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    token.credentials(HTTP_AUTHORIZATION=f"Table {table_token(open_t, 'NS')}")
    assert token.get("/api/v1/disputes").status_code == 200

    a = _players(match.team_a)
    teams.lineup_set(
        match=match, team=match.team_a, actor=actor, first=(a[2], a[3]), second=(a[0], a[1])
    )  # team A's first pair now plays in the closed room
    open_t.refresh_from_db()
    closed_t.refresh_from_db()
    for table in (open_t, closed_t):
        code_ns, code_ew, version = before[table.pk]
        assert table.codes_version == version + 1
        assert {table.code_ns, table.code_ew}.isdisjoint({code_ns, code_ew})
    assert not TableToken.objects.filter(table__in=[open_t, closed_t]).exists()
    entry = AuditEntry.objects.get(event=event, action="team_lineup")
    assert entry.changes["new_codes_tables"] == [None, [open_t.number, closed_t.number]]

    data = {"trump": "oros", "totals": {"NS": 44, "EW": 28}}
    results.result_submit_short(
        table=open_t, board_number=1, actor=Actor(table=open_t, side="NS"), data=data
    )
    hands = Board.objects.get(event=event, number=1).hands
    old_code = before[open_t.pk][0]
    for code in (open_t.code_ns, old_code):
        page = phone.get(f"/table/{code}/board/1/play/")
        assert page.status_code in (302, 403), (code, page.status_code)
        assert not _leaked(page.content.decode(), hands)
        assert phone.get(f"/table/{code}/").status_code in (302, 403)
    assert token.get("/api/v1/disputes").status_code == 401
    assert token.get(f"/api/v1/events/{event.pk}/boards/1").status_code == 401
    # The old card's code opens nothing; the new one opens the open room for whoever sits there.
    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert stranger.post("/table/", {"code": old_code}).status_code != 302
    assert table_client(open_t).get(f"/table/{open_t.code_ns}/").status_code == 200


def test_the_same_line_up_again_or_a_line_up_before_the_round_opens_keeps_the_codes(actor):  # noqa: F811
    """New codes only for tables whose pairs changed while their codes could be in use."""
    event = team_event(actor, 2, rounds_count=2, boards_per_round=2)
    pairings_propose(event.pk, 1, actor=actor)
    match = TeamMatch.objects.get(round__event=event)
    tables = (match.open_table, match.closed_table)
    codes = [(t.code_ns, t.code_ew, t.codes_version) for t in tables]
    a = _players(match.team_a)
    teams.lineup_set(  # a proposed round: nobody holds its codes yet
        match=match, team=match.team_a, actor=actor, first=(a[2], a[3]), second=(a[0], a[1])
    )
    events.round_open(rnd=match.round, actor=actor)
    teams.lineup_set(  # the line-up it already has
        match=match, team=match.team_a, actor=actor, first=(a[2], a[3]), second=(a[0], a[1])
    )
    for table in tables:
        table.refresh_from_db()
    assert [(t.code_ns, t.code_ew, t.codes_version) for t in tables] == codes
