"""The scene of the security tests: the API tests' ``world`` (a published running event, round 1
open with tables 1 and 2, and every kind of principal), with

* board 1 played by table 1 (a whole play record, entered by NS): table 2 has not played it, so
  its cards must reach nobody but table 1, its players, the organiser and the referee;
* board 2 entered by table 1's NS and disputed by its EW (an open dispute);
* a web client and an API client for each principal.

Principals: anonymous, table (table 1's session / token), other_table (table 2's), player (an
account of table 1's NS pair), organiser / referee of the event, other_organiser /
other_referee (of another event), staff (is_staff, no model permission, not a superuser).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest
from django.core.cache import cache
from django.test import Client

from tests.api.conftest import PRINCIPALS, World, _fast_passwords, world  # noqa: F401
from tests.factories import RoleInvitationFactory
from tests.faults.conftest import app_server, private_redis, processes  # noqa: F401
from tournaments.actors import Actor
from tournaments.models import BoardResult, Dispute, PlayRecord, RoleInvitation
from tournaments.services import disputes, results

__all__ = ["PRINCIPALS", "Scene", "scene"]

HIDDEN_BOARD = 1  # played by table 1 only


@dataclass
class Scene:
    world: World
    played: BoardResult  # board 1 at table 1 (play record)
    record: PlayRecord
    disputed: BoardResult  # board 2 at table 1
    dispute: Dispute
    invitation: RoleInvitation  # a pending invitation of the event (its link is not known)
    _web: dict[str, Client] = field(default_factory=dict)

    @property
    def event(self):
        return self.world.event

    def web(self, who: str, *, csrf: bool = False, fresh: bool = False) -> Client:
        """A browser-like client logged in as ``who`` (tables: through the code form)."""
        if not fresh and not csrf and who in self._web:
            return self._web[who]
        client = Client(
            enforce_csrf_checks=csrf, HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False
        )
        if who in ("table", "other_table"):
            table = self.world.table if who == "table" else self.world.other
            csrf_client = Client(HTTP_ACCEPT_LANGUAGE="en")
            csrf_client.cookies = client.cookies
            response = csrf_client.post("/table/", {"code": table.code_ns})
            assert response.status_code == 302, response
            client.cookies = csrf_client.cookies
            cache.clear()
        elif who != "anonymous":
            client.force_login(self.world.users[who])
        if not fresh and not csrf:
            self._web[who] = client
        return client

    def api(self, who: str):
        client = self.world.client(who)
        client.raise_request_exception = False
        return client

    def hands(self, number: int = HIDDEN_BOARD) -> dict[str, list[str]]:
        return self.world.board(number).hands


def hand_signatures(hands: dict[str, list[str]]) -> list[str]:
    """How a seat's hand shows in a JSON body (both separators) — one signature per seat."""
    out = []
    for tokens in hands.values():
        out.append(json.dumps(tokens))
        out.append(json.dumps(tokens, separators=(",", ":")))
    return out


@pytest.fixture
def scene(world) -> Scene:  # noqa: F811 - the API tests' fixture
    ns = Actor(table=world.table, side="NS")
    ew = Actor(table=world.table, side="EW")
    record = world.record(HIDDEN_BOARD)
    played = results.result_submit_play_record(
        table=world.table, board_number=HIDDEN_BOARD, actor=ns, record=record
    ).result
    results.result_submit_short(
        table=world.table,
        board_number=2,
        actor=ns,
        data={"trump": "oros", "totals": {"NS": 40, "EW": 32}},
    )
    disputed = BoardResult.objects.get(table=world.table, board__number=2)
    dispute = disputes.dispute_request(result=disputed, actor=ew, reason="check")
    cache.clear()
    return Scene(
        world=world,
        played=played,
        record=PlayRecord.objects.filter(result=played).latest("pk"),
        disputed=disputed,
        dispute=dispute,
        invitation=RoleInvitationFactory(event=world.event),
    )
