"""Security headers and cookie flags as production serves them (DEBUG off).

The production values are read from the settings module loaded in a subprocess with DEBUG=0 (the
test process runs with DEBUG=1); the responses are then checked with those values in force.
``manage.py check --deploy`` itself is run in tests/foundation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]
NAMES = [
    "DEBUG",
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_HTTPONLY",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "X_FRAME_OPTIONS",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SAMESITE",
]


@pytest.fixture(scope="module")
def production() -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS")
    }
    env.update(
        DEBUG="0",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n) for n in {NAMES!r}}}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_production_settings_are_strict(production):
    assert production["DEBUG"] is False
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    # Not HttpOnly on purpose: static/js/table.js reads the token from the cookie when a page
    # has no form (Django: an HttpOnly CSRF cookie adds nothing, the token is in every form).
    assert production["CSRF_COOKIE_HTTPONLY"] is False
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 31536000
    assert production["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert production["SECURE_REFERRER_POLICY"] == "same-origin"
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["SESSION_COOKIE_SAMESITE"] == "Lax"


PAGES = [
    "/",
    "/healthz",
    "/table/",
    "/accounts/login/",
    "/api/v1/events",
    "/api/schema/",
    "/no-such-page/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_every_kind_of_answer_carries_the_headers(production, url):
    prod = production | {"SECURE_SSL_REDIRECT": False}
    with override_settings(**prod, ALLOWED_HOSTS=["testserver"]):
        response = Client().get(url, secure=True)
        assert response.status_code < 500
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["X-Frame-Options"] == "DENY"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.django_db
def test_cookies_are_secure_and_the_session_cookie_http_only(production, settings):
    from tests.factories import UserFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="alice")
    with override_settings(**production, ALLOWED_HOSTS=["testserver"]):
        client = Client()
        page = client.get("/accounts/login/", secure=True)
        csrf = page.cookies["csrftoken"]
        assert csrf["secure"] and csrf["samesite"] == "Lax"
        response = client.post(
            "/accounts/login/", {"username": "alice", "password": "pass-word-123"}, secure=True
        )
        assert response.status_code == 302
        session = response.cookies["sessionid"]
        assert session["secure"] and session["httponly"] and session["samesite"] == "Lax"
    # Plain HTTP is sent to HTTPS.
    with override_settings(**production, ALLOWED_HOSTS=["testserver"]):
        response = Client().get("/table/")
        assert response.status_code == 301
        assert response["Location"].startswith("https://")
