"""A small event run through the API alone, for the tests that need a whole one (the archive,
the reads): five pairs (a bye each round), two rounds of two boards; a play record, an illegal
one ruled with the penalty, a dispute ruled with a correction, a withdrawal with its forfeit, a
round closed with an explicit decision, finished and published. Every response is checked
against the published schema by the autouse fixture of tests/conftest.py.

The work queued after a commit (boards dealt, standings) runs at once: pass pytest-django's
``django_capture_on_commit_callbacks`` under the ``db`` fixture; ``None`` under
``transactional_db`` (each request commits, and its callbacks run then).
"""

from __future__ import annotations

import contextlib
import random
import uuid
from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

from engine import random_play
from tests.factories import UserFactory
from tournaments import play
from tournaments.models import Board, Event

API = "/api/v1"
PASSWORD = "pass-word-123"


def client(token: str | None = None, kind: str = "Token") -> APIClient:
    out = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if token:
        out.credentials(HTTP_AUTHORIZATION=f"{kind} {token}")
    return out


@dataclass
class Run:
    pk: int
    organiser: APIClient
    username: str
    commits: Any

    def post(self, who: APIClient, url: str, body: Any = None, expect: int = 200) -> Any:
        commits = self.commits(execute=True) if self.commits else contextlib.nullcontext()
        with commits:
            response = who.post(
                url, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
            )
        assert response.status_code == expect, (url, response.status_code, response.content)
        return response.json()

    def tables(self, number: int) -> list[dict]:
        rnd = self.organiser.get(f"{API}/events/{self.pk}/rounds/{number}").json()
        return self.organiser.get(f"{API}/rounds/{rnd['id']}/tables").json()["results"]

    def token(self, code: str) -> APIClient:
        return client(self.post(client(), f"{API}/table-token", {"code": code})["token"], "Table")

    def short(self, ns: APIClient, ew: APIClient, table: int, board: int, ns_points: int) -> None:
        body = {
            "table": table,
            "board": board,
            "trump": "oros",
            "totals": {"NS": ns_points, "EW": 72 - ns_points},
        }
        self.post(ns, f"{API}/results", body, expect=201)
        self.post(ew, f"{API}/results", body)

    def record(self, board: int, *, seed: int, illegal_at: int | None = None) -> dict[str, Any]:
        b = Board.objects.select_related("event").get(event_id=self.pk, number=board)
        cards = random_play(
            play.deal(b), "copes", play.rules(b.event), random.Random(seed), illegal_at=illegal_at
        )
        return {
            "format": "botifarra-play/1",
            "ruleset": b.event.ruleset,
            "deal": {"dealer": b.dealer},
            "choice": {"delegated": False, "trump": "copes"},
            "doubles": [],
            "play": cards,
        }


def login(commits: Any, username: str = "club-organiser") -> Run:
    UserFactory(username=username, password=PASSWORD)
    run = Run(pk=0, organiser=client(), username=username, commits=commits)
    token = run.post(client(), f"{API}/auth/token", {"username": username, "password": PASSWORD})
    run.organiser = client(token["token"])
    return run


def run_event(
    commits: Any, *, name: str = "Dijous", finish: bool = True, publish: bool = False
) -> Run:
    """The event; ``finish=False`` stops with round 2 open and its results entered (round 1
    closed), ``publish`` then publishes it as it runs."""
    run = login(commits)
    org = run.organiser
    event = run.post(
        org,
        f"{API}/events",
        {"name": name, "rounds_count": 2, "boards_per_round": 2, "club": "Casal"},
        expect=201,
    )
    run.pk = pk = event["id"]
    run.post(org, f"{API}/events/{pk}/registration")
    pairs = [("Anna", "Berta"), ("Carles", "Dolors"), ("Eva", "Ferran"), ("Gemma", "Hug")]
    pairs.append(("Irene", "Jordi"))
    run.post(
        org,
        f"{API}/events/{pk}/pairs",
        {"pairs": [{"player1": a, "player2": b} for a, b in pairs]},
        expect=201,
    )
    run.post(org, f"{API}/events/{pk}/start")

    # Round 1: 1–2 and 3–4, pair 5 has the bye.
    run.post(org, f"{API}/events/{pk}/rounds/1/propose")
    run.post(org, f"{API}/events/{pk}/rounds/1/pairing", {"tables": [[1, 2], [3, 4]], "bye": 5})
    run.post(org, f"{API}/events/{pk}/rounds/1/open")
    t1, t2 = run.tables(1)
    ns1, ew1 = run.token(t1["code_ns"]), run.token(t1["code_ew"])
    ns2, ew2 = run.token(t2["code_ns"]), run.token(t2["code_ew"])
    # Table 1 plays board 1 card by card (both sides send the record), and board 2 with an
    # illegal card: a dispute the organiser rules with the penalty.
    record = run.record(1, seed=3)
    sent = {"table": t1["id"], "board": 1, "record": record}
    run.post(ns1, f"{API}/play-records", sent, expect=201)
    run.post(ew1, f"{API}/play-records", sent)
    illegal = run.record(2, seed=4, illegal_at=9)
    answer = run.post(
        ns1, f"{API}/play-records", {"table": t1["id"], "board": 2, "record": illegal}, expect=201
    )
    assert answer["verdict"]["outcome"] == "illegal"
    dispute = answer["result"]["open_dispute"]
    offender = "NS" if answer["verdict"]["seat"] in ("N", "S") else "EW"
    run.post(
        org,
        f"{API}/disputes/{dispute}/rule",
        {"kind": "penalty", "explanation": "Revoke.", "data": {"offending_pair": offender}},
        expect=201,
    )
    # Table 2: board 1 agreed; board 2 disputed by EW, ruled with a corrected result.
    run.short(ns2, ew2, t2["id"], 1, 50)
    short = {"table": t2["id"], "board": 2, "trump": "copes", "totals": {"NS": 36, "EW": 36}}
    entered = run.post(ns2, f"{API}/results", short, expect=201)
    dispute = run.post(
        ew2, f"{API}/disputes", {"result": entered["id"], "reason": "Wrong count"}, expect=201
    )
    run.post(
        org,
        f"{API}/disputes/{dispute['id']}/rule",
        {
            "kind": "corrected",
            "explanation": "Counted again.",
            "data": {"trump": "copes", "totals": {"NS": 44, "EW": 28}},
        },
        expect=201,
    )
    run.post(org, f"{API}/events/{pk}/rounds/1/close")

    # Round 2: pair 4 withdraws while it plays (its table is forfeited); one board of the
    # other table is never entered, and the organiser closes deciding it was not played.
    run.post(org, f"{API}/events/{pk}/rounds/2/propose")
    run.post(org, f"{API}/events/{pk}/rounds/2/open")
    tables = run.tables(2)
    withdrawal = run.post(org, f"{API}/events/{pk}/pairs/4/withdraw", {"reason": "left"})
    playing = [t for t in tables if t["number"] != withdrawal["forfeited_table"]]
    for table in playing:
        ns, ew = run.token(table["code_ns"]), run.token(table["code_ew"])
        run.short(ns, ew, table["id"], 3, 42)
    if finish:
        run.post(org, f"{API}/events/{pk}/rounds/2/close", {"accept_missing": True})
        run.post(org, f"{API}/events/{pk}/finish")
    if finish or publish:
        run.post(org, f"{API}/events/{pk}/publish", {"published": True})
    assert Event.objects.get(pk=pk).status == ("finished" if finish else "running")
    return run
