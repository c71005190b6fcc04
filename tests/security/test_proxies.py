"""X-Forwarded-For and X-Forwarded-Proto are believed only behind TRUSTED_PROXIES proxies
(config/proxies.py), for HTTPS decisions and for the client address the attempt counter uses."""

from __future__ import annotations

import doctest

import pytest
from django.test import Client

import config.proxies
from tournaments import ratelimit

FORGED = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}


@pytest.fixture
def redirecting(settings):
    settings.SECURE_SSL_REDIRECT = True


def test_the_examples_of_the_module_hold():
    assert doctest.testmod(config.proxies).failed == 0


@pytest.mark.django_db
def test_without_trusted_proxies_a_forwarded_https_is_not_believed(settings, redirecting):
    settings.TRUSTED_PROXIES = 0
    response = Client().get("/table/", **FORGED)
    assert response.status_code == 301 and response["Location"].startswith("https://")


@pytest.mark.django_db
def test_behind_a_trusted_proxy_its_forwarded_https_counts(settings, redirecting):
    settings.TRUSTED_PROXIES = 1
    assert Client().get("/table/", **FORGED).status_code == 200
    plain = Client().get("/table/", HTTP_X_FORWARDED_PROTO="http")
    assert plain.status_code == 301


@pytest.mark.django_db
def test_a_client_cannot_prepend_https_past_the_trusted_proxy(settings, redirecting):
    settings.TRUSTED_PROXIES = 1
    # The client sent "https"; the proxy appended the real scheme of its connection.
    response = Client().get("/table/", HTTP_X_FORWARDED_PROTO="https, http")
    assert response.status_code == 301


def wrong_codes_until_refused(client: Client, **headers: str) -> int:
    for n in range(200):
        if client.post("/table/", {"code": "ZZZZZZ"}, **headers).status_code == 429:
            return n
    pytest.fail("never refused")


@pytest.mark.django_db
def test_without_trusted_proxies_forged_addresses_share_the_peers_budget(settings):
    settings.TRUSTED_PROXIES = 0
    client = Client()
    for i in range(ratelimit.TABLE_CODE.limit):
        client.post("/table/", {"code": "ZZZZZZ"}, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}")
    assert (
        client.post("/table/", {"code": "ZZZZZZ"}, HTTP_X_FORWARDED_FOR="10.9.9.9").status_code
        == 429
    )


@pytest.mark.django_db
def test_behind_a_trusted_proxy_each_client_has_its_own_budget(settings):
    settings.TRUSTED_PROXIES = 1
    client = Client()  # every request arrives from the proxy, 127.0.0.1
    assert wrong_codes_until_refused(client, HTTP_X_FORWARDED_FOR="198.51.100.7") == (
        ratelimit.TABLE_CODE.limit
    )
    # What the client wrote to the left of the proxy's entry changes nothing.
    forged = client.post(
        "/table/", {"code": "ZZZZZZ"}, HTTP_X_FORWARDED_FOR="10.1.1.1, 198.51.100.7"
    )
    assert forged.status_code == 429
    other = client.post("/table/", {"code": "ZZZZZZ"}, HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert other.status_code == 400


@pytest.mark.django_db
def test_behind_two_proxies_the_outer_proxys_entry_names_the_client(settings):
    settings.TRUSTED_PROXIES = 2
    client = Client()
    xff = "6.6.6.6, 198.51.100.7, 10.0.0.2"  # forged, client (by the CDN), CDN (by the inner)
    assert wrong_codes_until_refused(client, HTTP_X_FORWARDED_FOR=xff) == (
        ratelimit.TABLE_CODE.limit
    )
    again = client.post(
        "/table/", {"code": "ZZZZZZ"}, HTTP_X_FORWARDED_FOR="7.7.7.7, 198.51.100.7, 10.0.0.3"
    )
    assert again.status_code == 429


def test_headers_with_fewer_hops_than_proxies_or_no_address_are_ignored():
    meta = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    config.proxies.apply_forwarded(meta, trusted=2)
    assert meta["REMOTE_ADDR"] == "10.0.0.1"
    meta = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "not-an-address"}
    config.proxies.apply_forwarded(meta, trusted=1)
    assert meta["REMOTE_ADDR"] == "10.0.0.1"
    meta = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "[2001:db8::1]"}
    config.proxies.apply_forwarded(meta, trusted=1)
    assert meta["REMOTE_ADDR"] == "2001:db8::1"


def test_trusted_proxies_must_be_a_count(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from config.env import env_int

    monkeypatch.setenv("TRUSTED_PROXIES", "-1")
    with pytest.raises(ImproperlyConfigured):
        env_int("TRUSTED_PROXIES", 0, minimum=0)
    monkeypatch.setenv("TRUSTED_PROXIES", "one")
    with pytest.raises(ImproperlyConfigured):
        env_int("TRUSTED_PROXIES", 0, minimum=0)
