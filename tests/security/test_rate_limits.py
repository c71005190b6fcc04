"""Guessing does not pay: wrong table codes and wrong passwords are counted per client, and the
count a client gets per minute is measured here (run with -s to see the figures).

The clock is frozen inside one minute (both the web counters, fixed windows in
tournaments/ratelimit.py, and DRF's sliding-window throttles read ``time.time``), so the figure
is what one minute allows; then the clock moves on a minute and the client may try again.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.factories import UserFactory
from tournaments import ratelimit

BOUND = 20
START = 1_800_000_000.0 - 1_800_000_000.0 % 60 + 1  # one second into a minute


@pytest.fixture
def clock(monkeypatch):
    now = {"t": START}

    class FrozenTime:
        @staticmethod
        def time():
            return now["t"]

    monkeypatch.setattr(ratelimit, "time", FrozenTime)
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: now["t"])
    cache.clear()
    return now


def attempts_until_refused(send, limit: int = 200) -> int:
    """How many wrong attempts are answered before the first 429."""
    for n in range(limit):
        response = send()
        assert response.status_code < 500
        if response.status_code == 429:
            assert int(response["Retry-After"]) > 0
            return n
    pytest.fail(f"still not refused after {limit} wrong attempts")


def measure(name: str, send, clock, good=None) -> int:
    n = attempts_until_refused(send)
    print(f"{name}: {n}")
    assert 1 <= n <= BOUND, (name, n)
    if good is not None:  # refused even with the right secret while blocked
        assert good().status_code == 429
    clock["t"] += 61
    assert send().status_code != 429, "a minute later the client may try again"
    return n


@pytest.mark.django_db
def test_table_code_attempts_per_minute_web(world, clock):
    client = Client()
    measure(
        "table_code_attempts_per_minute_web",
        lambda: client.post("/table/", {"code": "ZZZZZZ"}),
        clock,
        good=lambda: client.post("/table/", {"code": world.table.code_ns}),
    )
    # Another address is not affected.
    assert (
        client.post("/table/", {"code": world.table.code_ns}, REMOTE_ADDR="10.1.2.3").status_code
        == 302
    )


@pytest.mark.django_db
def test_table_code_attempts_per_minute_api(world, clock):
    client = APIClient()
    measure(
        "table_code_attempts_per_minute_api",
        lambda: client.post("/api/v1/table-token", {"code": "ZZZZZZ", "side": "NS"}, format="json"),
        clock,
        good=lambda: client.post(
            "/api/v1/table-token", {"code": world.table.code_ns, "side": "NS"}, format="json"
        ),
    )


@pytest.mark.django_db
def test_password_attempts_per_minute_web(client, clock, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="alice")
    measure(
        "password_attempts_per_minute_web",
        lambda: client.post("/accounts/login/", {"username": "alice", "password": "guess"}),
        clock,
        good=lambda: client.post(
            "/accounts/login/", {"username": "alice", "password": "pass-word-123"}
        ),
    )


@pytest.mark.django_db
def test_password_attempts_per_minute_api(clock, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="alice")
    client = APIClient()
    measure(
        "password_attempts_per_minute_api",
        lambda: client.post(
            "/api/v1/auth/token", {"username": "alice", "password": "x"}, format="json"
        ),
        clock,
        good=lambda: client.post(
            "/api/v1/auth/token", {"username": "alice", "password": "pass-word-123"}, format="json"
        ),
    )
