"""Fixtures for the API tests: the running event of tests/conftest.py, seen by every kind of
caller (anonymous, table tokens, a player's account, organisers, referees, staff)."""

import random
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from api.authentication import table_token
from engine import random_play
from tests.factories import EventFactory, UserFactory
from tournaments import play as adapter
from tournaments.models import Board, Event, Table

PRINCIPALS = [
    "anonymous",
    "table",
    "other_table",
    "player",
    "organiser",
    "other_organiser",
    "referee",
    "other_referee",
    "staff",
]


@dataclass
class World:
    event: Event
    table: Table  # table 1 of round 1: the "own" table
    other: Table  # table 2 of round 1
    users: dict[str, Any]

    def board(self, number: int = 1) -> Board:
        return Board.objects.get(event=self.event, number=number)

    def client(self, who: str = "anonymous", side: str | None = None) -> APIClient:
        client = APIClient(HTTP_ACCEPT_LANGUAGE="en")  # messages checked in English
        if who == "table":
            client.credentials(HTTP_AUTHORIZATION=f"Table {table_token(self.table, side or 'NS')}")
        elif who == "table_ew":
            client.credentials(HTTP_AUTHORIZATION=f"Table {table_token(self.table, 'EW')}")
        elif who == "other_table":
            client.credentials(HTTP_AUTHORIZATION=f"Table {table_token(self.other, side or 'NS')}")
        elif who != "anonymous":
            token, _ = Token.objects.get_or_create(user=self.users[who])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    def short(self, board: int = 1, **extra: Any) -> dict[str, Any]:
        data = {
            "table": self.table.pk,
            "board": board,
            "delegated": False,
            "trump": "oros",
            "doubles": [],
            "totals": {"NS": 40, "EW": 32},
        }
        return data | extra

    def record(
        self, board: int = 1, *, trump: str = "copes", seed: int = 1, illegal_at: int | None = None
    ) -> dict[str, Any]:
        b = self.board(board)
        play = random_play(
            adapter.deal(b),
            trump,
            adapter.rules(self.event),
            random.Random(seed),
            illegal_at=illegal_at,
        )
        return {
            "format": "botifarra-play/1",
            "ruleset": self.event.ruleset,
            "deal": {"dealer": b.dealer},
            "choice": {"delegated": False, "trump": trump},
            "doubles": [],
            "play": play,
        }

    def verdict(self, record: dict[str, Any], board: int = 1) -> dict[str, Any]:
        return engine.replay(
            record, deal=adapter.deal(self.board(board)), rules=adapter.rules(self.event)
        ).to_json()


@pytest.fixture
def world(running_event, organiser) -> World:
    event = running_event
    event.published = True
    event.save(update_fields=["published"])
    rnd = event.rounds.get(number=1)
    table, other = list(rnd.tables.order_by("number"))
    player = UserFactory(username="player")
    ns_pair = table.ns.pair
    ns_pair.player1.user = player
    ns_pair.player1.save()
    referee = UserFactory(username="referee")
    event.referees.add(referee)
    other_organiser = UserFactory(username="other_organiser")
    other_referee = UserFactory(username="other_referee")
    EventFactory(organisers=[other_organiser], referees=[other_referee], published=True)
    staff = UserFactory(username="staff", is_staff=True)
    users = {
        "player": player,
        "organiser": organiser,
        "other_organiser": other_organiser,
        "referee": referee,
        "other_referee": other_referee,
        "staff": staff,
    }
    return World(event=event, table=table, other=other, users=users)


def errors_of(response) -> dict[str, str]:
    """{field: message} of an error response, after checking its shape."""
    body = response.json()
    assert set(body) == {"detail", "errors"}, body
    assert body["errors"] and body["detail"] == body["errors"][0]["message"]
    return {e["field"]: e["message"] for e in body["errors"]}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
