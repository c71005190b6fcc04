"""Account tokens and table tokens: exchange, throttling of wrong attempts, expiry."""

import datetime as dt

from django.conf import settings
from django.utils import timezone

from api.authentication import expires_at, table_token
from tests.api.conftest import errors_of
from tournaments.actors import Actor
from tournaments.models import TableToken
from tournaments.services import events


def test_account_token_for_username_and_password(world):
    client = world.client()
    response = client.post(
        "/api/v1/auth/token", {"username": "organiser", "password": "pass-word-123"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    drafts = client.get("/api/v1/events").json()
    assert world.event.pk in [e["id"] for e in drafts["results"]]
    wrong = world.client().post(
        "/api/v1/auth/token", {"username": "organiser", "password": "nope"}, format="json"
    )
    assert wrong.status_code == 400 and "non_field_errors" in errors_of(wrong)


def test_an_account_token_is_revoked_by_deleting_it(world):
    """``DELETE auth/token`` with the token: it acts no more; the next login makes a new one."""
    login = {"username": "organiser", "password": "pass-word-123"}
    token = world.client().post("/api/v1/auth/token", login, format="json").json()["token"]
    holder = world.client()
    holder.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert holder.get(f"/api/v1/events/{world.event.pk}").status_code == 200
    # Without a token, or with a session alone, there is nothing to revoke.
    assert world.client().delete("/api/v1/auth/token").status_code == 401
    assert holder.delete("/api/v1/auth/token").status_code == 204
    assert holder.get(f"/api/v1/events/{world.event.pk}").status_code == 401
    assert holder.delete("/api/v1/auth/token").status_code == 401
    again = world.client().post("/api/v1/auth/token", login, format="json").json()["token"]
    assert again != token


def test_wrong_passwords_are_throttled_per_client(world):
    client = world.client()
    for _ in range(10):
        assert (
            client.post(
                "/api/v1/auth/token", {"username": "organiser", "password": "x"}, format="json"
            ).status_code
            == 400
        )
    blocked = client.post(
        "/api/v1/auth/token", {"username": "organiser", "password": "pass-word-123"}, format="json"
    )
    assert blocked.status_code == 429
    assert errors_of(blocked)


def test_table_token_from_the_code(world):
    code = world.table.code_ew
    response = world.client().post(
        "/api/v1/table-token", {"code": f" {code[:3].lower()} {code[3:]}"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["table"] == world.table.pk and body["side"] == "EW"
    # Opaque: the token carries neither code nor table, only a random string.
    assert world.table.code_ns not in body["token"] and code not in body["token"]
    assert body["round"] == 1 and body["event"] == world.event.pk
    expires = dt.datetime.fromisoformat(body["expires"])
    hours = (expires - timezone.now()).total_seconds() / 3600
    assert settings.TABLE_TOKEN_HOURS - 0.1 < hours <= settings.TABLE_TOKEN_HOURS
    client = world.client()
    client.credentials(HTTP_AUTHORIZATION=f"Table {body['token']}")
    entered = client.post("/api/v1/results", world.short(), format="json")
    assert entered.status_code == 201 and entered.json()["entered_side"] == "EW"


def test_a_code_acts_for_its_own_side_only(world):
    mismatch = world.client().post(
        "/api/v1/table-token", {"code": world.table.code_ns, "side": "EW"}, format="json"
    )
    assert mismatch.status_code == 400 and "side" in errors_of(mismatch)
    token = world.client().post("/api/v1/table-token", {"code": world.table.code_ns}, format="json")
    assert token.json()["side"] == "NS"
    wrong = world.client().post(
        "/api/v1/table-token", {"code": "ZZZZZZ", "side": "NS"}, format="json"
    )
    assert wrong.status_code == 400 and "code" in errors_of(wrong)


def test_guessing_codes_is_throttled_but_right_codes_are_not_counted(world):
    client = world.client()
    for _ in range(25):  # a whole room behind one router fetching its tokens
        assert (
            client.post(
                "/api/v1/table-token", {"code": world.table.code_ns, "side": "NS"}, format="json"
            ).status_code
            == 200
        )
    for _ in range(20):
        assert (
            client.post(
                "/api/v1/table-token", {"code": "AAAAAA", "side": "NS"}, format="json"
            ).status_code
            == 400
        )
    blocked = client.post(
        "/api/v1/table-token", {"code": world.table.code_ns, "side": "NS"}, format="json"
    )
    assert blocked.status_code == 429
    # Another client is not affected; a forged X-Forwarded-For does not make a new client.
    assert (
        client.post(
            "/api/v1/table-token",
            {"code": world.table.code_ns, "side": "NS"},
            format="json",
            HTTP_X_FORWARDED_FOR="10.9.9.9",
        ).status_code
        == 429
    )
    assert (
        client.post(
            "/api/v1/table-token",
            {"code": world.table.code_ns, "side": "NS"},
            format="json",
            REMOTE_ADDR="10.0.0.2",
        ).status_code
        == 200
    )


def test_table_token_stops_when_the_round_closes_or_new_codes_are_issued(world):
    client = world.client("table")
    assert client.get("/api/v1/disputes").status_code == 200
    organiser = world.client("organiser")
    answer = organiser.post(f"/api/v1/tables/{world.table.pk}/new-codes", format="json")
    assert answer.status_code == 200, answer.content
    world.table.refresh_from_db()
    assert answer.json()["code_ns"] == world.table.code_ns
    refused = client.get("/api/v1/disputes")
    assert refused.status_code == 401 and "authorization" in errors_of(refused)
    fresh = world.client()
    fresh.credentials(HTTP_AUTHORIZATION=f"Table {table_token(world.table, 'NS')}")
    assert fresh.get("/api/v1/disputes").status_code == 200
    events.round_close(
        rnd=world.table.round, actor=Actor(user=world.users["organiser"]), accept_missing=True
    )
    assert fresh.get("/api/v1/disputes").status_code == 401
    closed = world.client().post(
        "/api/v1/table-token", {"code": world.table.code_ns}, format="json"
    )
    assert closed.status_code == 400


def test_table_token_stops_at_its_expiry_time(world):
    client = world.client("table")
    assert client.get("/api/v1/disputes").status_code == 200
    TableToken.objects.filter(table=world.table).update(
        created_at=timezone.now() - dt.timedelta(hours=settings.TABLE_TOKEN_HOURS, seconds=1)
    )
    refused = client.get("/api/v1/disputes")
    assert refused.status_code == 401 and "authorization" in errors_of(refused)


def test_only_organisers_issue_new_codes(world):
    for who in ("table", "referee", "player"):
        response = world.client(who).post(
            f"/api/v1/tables/{world.table.pk}/new-codes", format="json"
        )
        assert response.status_code in (403, 404), (who, response.status_code)


def test_malformed_table_tokens_are_401(world):
    for header in ("Table", "Table a b", "Table not-a-token", "Table \u00e9"):
        client = world.client()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.post("/api/v1/results", world.short(), format="json")
        assert response.status_code == 401, header
        assert errors_of(response)


def test_the_table_token_answer_is_what_its_documented_serializer_gives(world):
    from api.serializers import TableTokenSerializer

    body = world.client().post("/api/v1/table-token", {"code": world.table.code_ns}, format="json")
    answer = body.json()
    token = TableToken.objects.get(table=world.table, side="NS")
    assert (
        answer
        == TableTokenSerializer(
            {
                "token": answer["token"],
                "table": world.table.pk,
                "table_number": world.table.number,
                "event": world.event.pk,
                "round": world.table.round.number,
                "round_id": world.table.round_id,
                "side": "NS",
                "expires": expires_at(token),
            }
        ).data
    )
