"""Every request a round makes hundreds of times costs a bounded number of SQL queries.

The bounds are today's counts (SQLite or PostgreSQL, savepoints included): a change that adds a
query to one of these requests must say so here. benchmarks/request_cost.py prints the counts on
the production stack, with each request's CPU time.
"""

import uuid

import pytest
from django.urls import reverse

from api.authentication import table_token
from tournaments.models import BoardResult

pytestmark = pytest.mark.django_db


def _submit(world, client, board, table=None):
    table = table or world.table
    data = world.short(board) | {"table": table.pk}
    response = client.post(
        "/api/v1/results", data, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _client(world, table, side):
    client = world.client()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_token(table, side)}")
    return client


@pytest.fixture
def busy(world):
    """Results on the other table, so that reads have something to read."""
    ns = _client(world, world.other, "NS")
    ew = _client(world, world.other, "EW")
    for board in (1, 2):
        rid = _submit(world, ns, board, world.other)
        ew.post(f"/api/v1/results/{rid}/confirm", {}, format="json")
    return world


BOUNDS = {
    "table_token": 5,
    # PostgreSQL reads what a submission locks in one round trip (tournaments.prepared:
    # read_together) and writes its rows in one statement (tournaments.rows); SQLite cannot.
    "submit": {"postgresql": 6, "sqlite": 14},
    "confirm": {"postgresql": 6, "sqlite": 13},
    "play_record": 17,
    "standings_api": 4,
    "table_page": 4,
    "standings_page": 4,  # the event, its rounds, the staleness; here the session too
    "console": 18,
    # the pair's own evening (tournaments/pair_pages.py)
    "pair_scorecard": 9,
    "pair_standings": 7,
    "pair_rulings": 8,
}


def _bound(name):
    from django.db import connection

    bound = BOUNDS[name]
    return bound[connection.vendor] if isinstance(bound, dict) else bound


def test_table_token(busy, django_assert_max_num_queries):
    client = busy.client()
    with django_assert_max_num_queries(_bound("table_token")):
        response = client.post("/api/v1/table-token", {"code": busy.table.code_ns}, format="json")
    assert response.status_code == 200


def test_submit_and_confirm(busy, django_assert_max_num_queries):
    ns = _client(busy, busy.table, "NS")
    ew = _client(busy, busy.table, "EW")
    with django_assert_max_num_queries(_bound("submit")):
        rid = _submit(busy, ns, 1)
    with django_assert_max_num_queries(_bound("confirm")):
        response = ew.post(
            f"/api/v1/results/{rid}/confirm", {}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
        )
    assert response.status_code == 200, response.content
    assert BoardResult.objects.get(pk=rid).status == BoardResult.Status.CONFIRMED


def test_play_record(busy, django_assert_max_num_queries):
    ns = _client(busy, busy.table, "NS")
    body = {"table": busy.table.pk, "board": 2, "record": busy.record(2)}
    with django_assert_max_num_queries(_bound("play_record")):
        response = ns.post(
            "/api/v1/play-records", body, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
        )
    assert response.status_code == 201, response.content


def test_standings_api(busy, django_assert_max_num_queries):
    busy.client().get(f"/api/v1/events/{busy.event.pk}/standings")  # recomputed once, if stale
    with django_assert_max_num_queries(_bound("standings_api")):
        response = busy.client().get(f"/api/v1/events/{busy.event.pk}/standings")
    assert response.status_code == 200


def test_pages(busy, client, django_assert_max_num_queries):
    from tournaments.table_access import SESSION_KEY

    session = client.session
    session[SESSION_KEY] = {"table": busy.table.pk, "side": "NS", "v": busy.table.codes_version}
    session.save()
    url = reverse("table:table_home", args=[busy.table.code_ns])
    with django_assert_max_num_queries(_bound("table_page")):
        assert client.get(url).status_code == 200
    url = reverse("public:standings", args=[busy.event.pk])
    client.get(url)  # the cache warm, as on an evening
    with django_assert_max_num_queries(_bound("standings_page")):
        assert client.get(url).status_code == 200


def test_console(busy, client, django_assert_max_num_queries):
    client.force_login(busy.users["organiser"])
    url = reverse("tournaments:round_console", args=[busy.event.pk, 1])
    with django_assert_max_num_queries(_bound("console")):
        assert client.get(url).status_code == 200


@pytest.fixture
def second_round(busy):
    """Round 1 closed (its matchpoints in the standings), round 2 open with a board of the
    table played, disputed and ruled: every part of the pair's pages has something to show."""
    from tournaments.actors import Actor
    from tournaments.services import disputes, events
    from tournaments.services.standings import standings_recompute

    organiser = Actor(user=busy.users["organiser"])
    ns = _client(busy, busy.table, "NS")
    rid = _submit(busy, ns, 1)
    _client(busy, busy.table, "EW").post(
        f"/api/v1/results/{rid}/confirm", {}, format="json", HTTP_IDEMPOTENCY_KEY="k2"
    )
    event = busy.event
    events.round_close(rnd=event.rounds.get(number=1), actor=organiser, accept_missing=True)
    t1, t2 = busy.table, busy.other
    rnd = events.round_propose(
        event=event, actor=organiser, number=2, tables=[(t1.ns_id, t2.ns_id), (t1.ew_id, t2.ew_id)]
    )
    events.round_open(rnd=rnd, actor=organiser)
    table = rnd.tables.get(number=1)
    rid = _submit(busy, _client(busy, table, "NS"), 3, table)
    result = BoardResult.objects.get(pk=rid)
    dispute = disputes.dispute_request(
        result=result, actor=Actor(table=table, side="EW"), reason="revoke?"
    )
    disputes.dispute_rule(
        dispute=dispute,
        actor=organiser,
        kind="penalty",
        explanation="Revoke.",
        data={"offending_pair": "EW"},
    )
    standings_recompute(event.pk)
    return table


@pytest.mark.parametrize("name", ["pair_scorecard", "pair_standings", "pair_rulings"])
def test_pair_pages(second_round, client, name, django_assert_max_num_queries):
    from tournaments.table_access import SESSION_KEY

    table = second_round
    session = client.session
    session[SESSION_KEY] = {"table": table.pk, "side": "NS", "v": table.codes_version}
    session.save()
    url = reverse(f"table:{name}", args=[table.code_ns])
    with django_assert_max_num_queries(_bound(name)):
        response = client.get(url)
    assert response.status_code == 200
    assert 'id="round-closed"' not in response.content.decode()
