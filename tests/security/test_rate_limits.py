"""Guessing does not pay: one attempt counter (``tournaments.ratelimit``) for table codes and
passwords on every route — the table-code form, the API's table and account tokens, the site's
login and the admin's — atomic under parallel attempts, and still counting with Redis down.

Sequential tests freeze the counter's clock inside one window (``ratelimit._now``), so the
figure is what one window allows; then the clock moves on and the client may try again. Race
tests send many attempts at once from threads, each with its own database connection, and
count those that were processed (not refused): never more than the limit. They run against
PostgreSQL (the database counter) and Redis, and fail instead of skipping in ``.ci/run``.
The figures of docs/operations.md come from ``benchmarks/attempt_limits.py`` (real HTTP
server, several processes); run this file with ``-s`` to see the sequential ones.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments import ratelimit
from tournaments.models import AttemptCounter

START = 1_800_000_000.0 - 1_800_000_000.0 % 900 + 1  # one second into a window of every period
PASSWORD = "pass-word-123"
REFUSED_TEXT = "Too many failed attempts"


@pytest.fixture
def clock(monkeypatch):
    now = {"t": START}
    monkeypatch.setattr(ratelimit, "_now", lambda: now["t"])
    return now


@pytest.fixture
def no_redis(settings):
    """The database counter, whether or not the run has Redis."""
    settings.REDIS_URL = ""


@pytest.fixture
def staff(db):
    return UserFactory(username="alice", is_staff=True, is_superuser=True)


def wrong_code(world) -> str:
    return "ZZZZZZ" if world.table.code_ns != "ZZZZZZ" else "YYYYYY"


# --- the routes, each a way to try a secret ---------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    kind: str  # "code" or "password"
    send: Callable[..., object]  # (client, secret, **extra) -> response


def web_code(client, code, **extra):
    return client.post("/table/", {"code": code}, **extra)


def api_code(client, code, **extra):
    return client.post("/api/v1/table-token", {"code": code, "side": "NS"}, format="json", **extra)


def site_login(client, password, **extra):
    return client.post("/accounts/login/", {"username": "alice", "password": password}, **extra)


def api_login(client, password, **extra):
    return client.post(
        "/api/v1/auth/token", {"username": "alice", "password": password}, format="json", **extra
    )


def admin_login(client, password, **extra):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": "alice", "password": password, "next": "/admin/"},
        **extra,
    )


ROUTES = [
    Route("table_code_web", "code", web_code),
    Route("table_code_api", "code", api_code),
    Route("password_site_login", "password", site_login),
    Route("password_api_token", "password", api_login),
    Route("password_admin_login", "password", admin_login),
]


def refused(response) -> bool:
    """A 429 (with Retry-After), or the admin's login form with the counter's error."""
    if response.status_code == 429:
        assert int(response["Retry-After"]) > 0
        return True
    assert response.status_code < 500, response.content[:500]
    return REFUSED_TEXT in response.content.decode()


def processed(response) -> bool:
    return not refused(response)


def accepted(route: Route, response) -> bool:
    """The right secret got through."""
    return (
        response.status_code in (200, 302)
        and not refused(response)
        and (route.kind == "code" or response.status_code == 302 or "token" in response.json())
    )


def client_for(route: Route):
    return APIClient() if "api" in route.name else Client()


def secrets(route: Route, world) -> tuple[str, str]:
    """(a wrong secret, the right one)."""
    if route.kind == "code":
        return wrong_code(world), world.table.code_ns
    return "guess", PASSWORD


# --- one window, one route at a time ----------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("route", ROUTES, ids=[r.name for r in ROUTES])
def test_each_route_refuses_once_its_limit_is_spent(route, world, staff, clock):
    limit = ratelimit.TABLE_CODE if route.kind == "code" else ratelimit.LOGIN_CLIENT
    wrong, right = secrets(route, world)
    client = client_for(route)
    n = 0
    while processed(route.send(client, wrong)):
        n += 1
        assert n <= 200, "never refused"
    print(f"{route.name}_wrong_attempts_per_window: {n}")
    assert n == limit.limit
    # While refused, even the right secret is refused: no guessing by trying.
    assert refused(route.send(client, right))
    # Another address has its own budget.
    assert accepted(route, route.send(client_for(route), right, REMOTE_ADDR="10.1.2.3"))
    clock["t"] += limit.period
    assert accepted(route, route.send(client, right)), "a window later the client may try again"


@pytest.mark.django_db
def test_the_refusal_page_speaks_the_readers_language(world, clock):
    client = Client(HTTP_ACCEPT_LANGUAGE="ca")
    for _ in range(ratelimit.TABLE_CODE.limit):
        web_code(client, wrong_code(world))
    response = web_code(client, world.table.code_ns)
    assert response.status_code == 429
    assert "Massa intents" in response.content.decode()


@pytest.mark.django_db
def test_web_and_api_share_one_table_code_budget(world, clock):
    web, api = Client(), APIClient()
    answers = [
        (web_code if i % 2 else api_code)(web if i % 2 else api, wrong_code(world))
        for i in range(2 * ratelimit.TABLE_CODE.limit)
    ]
    assert sum(processed(a) for a in answers) == ratelimit.TABLE_CODE.limit
    assert refused(web_code(web, world.table.code_ns))
    assert refused(api_code(api, world.table.code_ns))


@pytest.mark.django_db
def test_the_addresses_of_one_ipv6_64_share_one_table_code_budget(world, clock):
    """Fair-play audit, 2026-12-05: every address of a /64 (what one home connection holds)
    had a budget of its own, so one connection guessed codes without end."""
    answers = [
        web_code(Client(REMOTE_ADDR=f"2001:db8:1:2::{i:x}"), wrong_code(world))
        for i in range(1, 2 * ratelimit.TABLE_CODE.limit + 1)
    ]
    assert sum(processed(a) for a in answers) == ratelimit.TABLE_CODE.limit
    assert refused(web_code(Client(REMOTE_ADDR="2001:db8:1:2:ffff::1"), world.table.code_ns))
    # Another /64, and an IPv4 client (also written as IPv4-mapped IPv6), keep their own.
    assert processed(web_code(Client(REMOTE_ADDR="2001:db8:1:3::1"), wrong_code(world)))
    assert processed(web_code(Client(REMOTE_ADDR="192.0.2.7"), wrong_code(world)))
    mapped = RequestFactory().get("/", REMOTE_ADDR="::ffff:192.0.2.7")
    assert ratelimit.client_ip(mapped) == "192.0.2.7"


@pytest.mark.django_db
def test_site_api_and_admin_logins_share_one_budget(staff, clock, _fast_passwords):
    routes = [site_login, api_login, admin_login]
    clients = [Client(), APIClient(), Client()]
    answers = [
        routes[i % 3](clients[i % 3], "guess") for i in range(3 * ratelimit.LOGIN_CLIENT.limit)
    ]
    assert sum(processed(a) for a in answers) == ratelimit.LOGIN_CLIENT.limit
    assert all(refused(routes[i](clients[i], PASSWORD)) for i in range(3))


@pytest.mark.django_db
def test_forty_wrong_admin_passwords_then_the_right_one_does_not_log_in(
    staff, clock, _fast_passwords
):
    client = Client()
    for _ in range(40):
        assert admin_login(client, "guess").status_code == 200
    response = admin_login(client, PASSWORD)
    assert response.status_code == 200 and REFUSED_TEXT in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still sent to the login form
    clock["t"] += ratelimit.LOGIN_CLIENT.period
    assert admin_login(client, PASSWORD).status_code == 302
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_guessing_one_account_from_many_addresses_is_stopped(staff, clock, _fast_passwords):
    per_address = ratelimit.LOGIN_CLIENT.limit // 2  # each address stays under its own limit
    answers = []
    for i in range(2 * ratelimit.LOGIN_ACCOUNT.limit // per_address):
        client = Client(REMOTE_ADDR=f"10.0.{i}.1")
        answers += [site_login(client, "guess") for _ in range(per_address)]
    assert sum(processed(a) for a in answers) == ratelimit.LOGIN_ACCOUNT.limit
    assert refused(site_login(Client(REMOTE_ADDR="10.9.9.9"), PASSWORD))
    UserFactory(username="bob")
    other = Client(REMOTE_ADDR="10.9.9.9").post(
        "/accounts/login/", {"username": "bob", "password": PASSWORD}
    )
    assert other.status_code == 302, "another account is not affected"


@pytest.mark.django_db
def test_a_refused_client_cannot_push_an_account_over_its_limit(staff, clock, _fast_passwords):
    client = Client(REMOTE_ADDR="10.6.6.6")
    for _ in range(5 * ratelimit.LOGIN_ACCOUNT.limit):
        site_login(client, "guess")
    # Only the attempts the address was allowed counted for the account.
    assert site_login(Client(REMOTE_ADDR="10.7.7.7"), PASSWORD).status_code == 302


@pytest.mark.django_db
def test_right_secrets_do_not_use_up_the_budget(world, staff, clock, _fast_passwords):
    client, api = Client(), APIClient()
    for _ in range(3 * ratelimit.TABLE_CODE.limit):  # a room behind one router
        assert web_code(client, world.table.code_ns).status_code == 302
        assert api_code(api, world.table.code_ns).status_code == 200
    for _ in range(3 * ratelimit.LOGIN_CLIENT.limit):
        assert site_login(Client(), PASSWORD).status_code == 302


# --- Redis down -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_with_redis_unreachable_the_database_counts(world, clock, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    client = Client()
    for _ in range(ratelimit.TABLE_CODE.limit):
        assert web_code(client, wrong_code(world)).status_code == 400
    assert web_code(client, world.table.code_ns).status_code == 429
    assert api_code(APIClient(), world.table.code_ns).status_code == 429
    assert AttemptCounter.objects.get().hits == ratelimit.TABLE_CODE.limit + 2


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_server_whose_redis_dies_keeps_counting(world, private_redis, app_server):
    """The web app in a subprocess with its own redis-server, killed between two attempts."""
    import requests

    app_server.start(redis_url=private_redis.url(0))

    def try_code(code: str) -> int:
        return requests.post(
            f"{app_server.url}/api/v1/table-token", json={"code": code, "side": "NS"}, timeout=30
        ).status_code

    # Whole attempts inside one real minute: a new window would start a new budget. With less
    # than 35 s of this minute left, start at the next one. (Sleeping 35 s less what was left
    # could land a few seconds before the minute's end, and the test then failed now and then.)
    left = 60 - time.time() % 60
    if left < 35:
        time.sleep(left + 0.1)
    assert [try_code(wrong_code(world)) for _ in range(5)] == [400] * 5  # counted in Redis
    private_redis.stop()
    answers = [try_code(wrong_code(world)) for _ in range(ratelimit.TABLE_CODE.limit)]
    assert answers == [400] * ratelimit.TABLE_CODE.limit  # now counted in the database
    assert try_code(world.table.code_ns) == 429
    assert AttemptCounter.objects.get().hits == ratelimit.TABLE_CODE.limit + 1


@pytest.mark.django_db
def test_ended_windows_leave_the_database(clock, no_redis):
    ratelimit.count(limit=ratelimit.TABLE_CODE, ident="10.0.0.1")
    ratelimit.count(limit=ratelimit.LOGIN_ACCOUNT, ident="alice")
    assert AttemptCounter.objects.count() == 2
    clock["t"] += 2 * ratelimit.TABLE_CODE.period + 1
    ratelimit.count(
        limit=ratelimit.TABLE_CODE, ident="10.0.0.1"
    )  # a new window: the ended one goes
    assert AttemptCounter.objects.count() == 2
    clock["t"] += 2 * ratelimit.LOGIN_ACCOUNT.period
    assert ratelimit.purge_expired() == 2
    assert not AttemptCounter.objects.exists()


@pytest.mark.django_db
def test_the_store_holds_no_address_or_username(clock, no_redis):
    ratelimit.count(limit=ratelimit.TABLE_CODE, ident="203.0.113.77")
    ratelimit.count(limit=ratelimit.LOGIN_ACCOUNT, ident="alice")
    keys = " ".join(AttemptCounter.objects.values_list("key", flat=True))
    assert "203.0.113.77" not in keys and "alice" not in keys


@pytest.mark.django_db
def test_an_operator_can_clear_a_locked_account(staff, clock, _fast_passwords):
    for i in range(ratelimit.LOGIN_ACCOUNT.limit // 5):
        client = Client(REMOTE_ADDR=f"10.0.{i}.1")
        for _ in range(5):
            site_login(client, "guess")
    assert refused(site_login(Client(REMOTE_ADDR="10.9.9.9"), PASSWORD))
    call_command("attempts_clear", "--username", "Alice", stdout=io.StringIO())
    assert site_login(Client(REMOTE_ADDR="10.9.9.9"), PASSWORD).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("client", "typed"),
    [
        ("203.0.113.7", "203.0.113.7"),
        # The address a log shows clears its /64, as it is counted; the /64 typed as such too.
        ("2001:db8::7", "2001:db8::7"),
        ("2001:db8::7", "2001:db8::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("192.0.2.7", "::ffff:192.0.2.7"),
        # A network as typed by hand: its /64, whatever its capitals or prefix within it.
        ("2001:db8::7", "2001:DB8::/64"),
        ("2001:db8::7", "2001:db8::7/64"),
        ("2001:db8::7", "2001:db8::/80"),
        ("203.0.113.7", "203.0.113.7/32"),
    ],
)
def test_an_operator_can_clear_a_locked_address(client, typed, clock):
    request = RequestFactory().post("/", REMOTE_ADDR=client)
    for _ in range(ratelimit.TABLE_CODE.limit + 1):
        tried = ratelimit.table_code_attempt(request=request)
    assert tried.blocked
    out = io.StringIO()
    call_command("attempts_clear", "--address", typed, stdout=out)
    assert f"address {typed}" in out.getvalue()
    assert not ratelimit.table_code_attempt(request=request).blocked


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--address", "not-an-ip"], "not an IP address"),
        (["--address", ""], "not an IP address"),
        (["--address", "203.0.113.0/24"], "counted per IPv4 address"),
        (["--address", "2001:db8::/48"], "counted per IPv4 address"),
        (["--username", ""], "--username is empty"),
        ([], "at least one"),
    ],
)
def test_clearing_refuses_what_can_match_nothing(options, said):
    out = io.StringIO()
    with pytest.raises(CommandError, match=said):
        call_command("attempts_clear", *options, stdout=out)
    assert "cleared" not in out.getvalue()


@pytest.mark.django_db
def test_clearing_says_so_when_redis_does_not_answer(settings):
    """Redis holds the counters: if it does not answer, the operator is told nothing was
    cleared there (the command used to say "cleared" and the account stayed locked)."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    out = io.StringIO()
    with pytest.raises(CommandError, match="Redis does not answer"):
        call_command("attempts_clear", "--username", "Alice", stdout=out)
    assert "cleared the password" not in out.getvalue()


# --- races: many attempts at once -------------------------------------------------------------

BACKENDS = [
    pytest.param("database", marks=pytest.mark.postgres, id="database"),
    pytest.param("redis", marks=[pytest.mark.postgres, pytest.mark.redis], id="redis"),
]


@pytest.fixture
def backend(request, settings):
    """Chooses the counter's store; the database one even when the run has Redis."""
    if request.param == "database":
        settings.REDIS_URL = ""
    else:
        import os

        settings.REDIS_URL = os.environ["REDIS_URL"]
    return request.param


def race(n: int, attempt: Callable[[int], object]) -> list[object]:
    """Run ``attempt(i)`` for i < n in n threads released at the same instant."""
    gate = threading.Barrier(n)
    answers: list[object] = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            gate.wait()
            answers[i] = attempt(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_parallel_increments_each_get_their_own_value(backend, clock):
    limit = ratelimit.Limit("race", 1000)
    values = race(40, lambda i: ratelimit.count(limit=limit, ident="one client").hits)
    assert sorted(values) == list(range(1, 41))  # no two attempts saw the same count


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_parallel_wrong_codes_from_web_and_api_never_exceed_the_limit(world, backend, clock):
    code = wrong_code(world)
    answers = race(
        3 * ratelimit.TABLE_CODE.limit,
        lambda i: web_code(Client(), code) if i % 2 else api_code(APIClient(), code),
    )
    print(f"table_code_parallel_processed_{backend}: {sum(map(processed, answers))}")
    assert sum(processed(a) for a in answers) == ratelimit.TABLE_CODE.limit


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_parallel_wrong_passwords_on_every_login_never_exceed_the_limit(
    staff, backend, clock, _fast_passwords
):
    routes = [site_login, api_login, admin_login]
    answers = race(
        3 * ratelimit.LOGIN_CLIENT.limit,
        lambda i: routes[i % 3](APIClient() if i % 3 == 1 else Client(), "guess"),
    )
    print(f"password_parallel_processed_{backend}: {sum(map(processed, answers))}")
    assert sum(processed(a) for a in answers) == ratelimit.LOGIN_CLIENT.limit


@pytest.mark.django_db
def test_code_attempts_sent_with_an_idempotency_key_stay_counted(world, clock, no_redis):
    """A refusal rolls back the Idempotency-Key's transaction, and the database counter's
    attempt with it: the attempt is counted again after it (``tournaments.kept``), so a key
    buys no fresh budget while Redis is down."""
    entered = world.client("table").post(
        "/api/v1/results", world.short(), format="json", HTTP_IDEMPOTENCY_KEY="entered"
    )
    assert entered.status_code == 201, entered.content
    confirm = f"/api/v1/results/{entered.json()['id']}/confirm"
    same_phone = world.client("table")  # NS's token, the other pair's code typed on it
    codes = []
    for i in range(ratelimit.TABLE_CODE.limit + 1):
        response = same_phone.post(
            confirm, {"code": wrong_code(world)}, format="json", HTTP_IDEMPOTENCY_KEY=f"k{i}"
        )
        codes.append(response.status_code)
    assert codes == [400] * ratelimit.TABLE_CODE.limit + [429]
    assert AttemptCounter.objects.get().hits == ratelimit.TABLE_CODE.limit + 1
