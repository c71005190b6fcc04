import pytest

from tests.factories import UserFactory
from tournaments.ratelimit import LOGIN_CLIENT

LOGIN_ATTEMPTS_PER_MINUTE = LOGIN_CLIENT.limit


@pytest.fixture
def same_minute(monkeypatch):
    """All attempts of a test fall in one counting window, even across a minute boundary."""
    from tournaments import ratelimit

    monkeypatch.setattr(ratelimit, "_slot", lambda period: 424242)


@pytest.mark.django_db
def test_failed_logins_are_capped_per_client_per_minute(client, same_minute):
    UserFactory(username="alice")
    for _ in range(LOGIN_ATTEMPTS_PER_MINUTE):
        response = client.post("/accounts/login/", {"username": "alice", "password": "guess"})
        assert response.status_code == 200
    blocked = client.post("/accounts/login/", {"username": "alice", "password": "pass-word-123"})
    assert blocked.status_code == 429
    assert int(blocked["Retry-After"]) > 0
    # Another client is not affected.
    other = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "pass-word-123"},
        REMOTE_ADDR="10.9.9.9",
    )
    assert other.status_code == 302


@pytest.mark.django_db
def test_a_correct_login_is_not_counted_as_a_failure(client, same_minute):
    UserFactory(username="bob")
    for _ in range(LOGIN_ATTEMPTS_PER_MINUTE + 2):
        response = client.post("/accounts/login/", {"username": "bob", "password": "pass-word-123"})
        assert response.status_code == 302
        client.logout()
