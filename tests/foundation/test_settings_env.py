"""Settings come from the environment through small typed helpers (issue 2)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_float, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def test_database_url_postgres_is_parsed_into_a_django_database():
    db = database_from_url("postgres://bob:s%40cret@db.example:5433/botifarra?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "botifarra",
        "bob",
        "s@cret",
        "db.example",
        "5433",
    )
    assert db["OPTIONS"] == {"sslmode": "require"}


def test_database_url_sqlite_absolute_and_relative_paths():
    assert database_from_url("sqlite:////tmp/x.sqlite3")["NAME"] == "/tmp/x.sqlite3"
    assert database_from_url("sqlite:///db.sqlite3")["NAME"] == "db.sqlite3"


def test_database_url_with_unknown_scheme_is_refused():
    with pytest.raises(ImproperlyConfigured, match="mysql"):
        database_from_url("mysql://x/y")


def test_env_helpers_read_typed_values(monkeypatch):
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_LIST", "a.example, b.example ,")
    assert env_bool("X_BOOL") is True
    assert env_int("X_INT", 1) == 42
    assert env_list("X_LIST") == ["a.example", "b.example"]
    monkeypatch.setenv("X_BOOL", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="X_BOOL"):
        env_bool("X_BOOL")
    monkeypatch.setenv("X_INT", "many")
    with pytest.raises(ImproperlyConfigured, match="X_INT"):
        env_int("X_INT", 1)


def test_env_float_names_the_variable_and_its_bound(monkeypatch):
    assert env_float("X_FLOAT", 2.5) == 2.5
    monkeypatch.setenv("X_FLOAT", "0.5")
    assert env_float("X_FLOAT", 1.0, positive=True) == 0.5
    for bad, words in (("soon", "not a number"), ("nan", "not a number"), ("-1", "below 0")):
        monkeypatch.setenv("X_FLOAT", bad)
        with pytest.raises(ImproperlyConfigured, match=f"X_FLOAT.*{words}"):
            env_float("X_FLOAT", 1.0)
    monkeypatch.setenv("X_FLOAT", "0")
    assert env_float("X_FLOAT", 1.0) == 0
    with pytest.raises(ImproperlyConfigured, match="X_FLOAT.*more than 0"):
        env_float("X_FLOAT", 1.0, positive=True)


def test_a_bad_webhook_timeout_stops_the_start_with_its_name():
    proc = _manage("check", DEBUG="1", WEBHOOK_TIMEOUT_SECONDS="0")
    assert proc.returncode != 0
    assert "WEBHOOK_TIMEOUT_SECONDS='0' must be more than 0" in proc.stderr


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "DJANGO_SETTINGS_MODULE",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }  # set by the browser tests only
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_refuses_to_start_without_a_secret_key_when_debug_is_off():
    proc = _manage("check", DEBUG="0")
    assert proc.returncode != 0
    assert "SECRET_KEY is not set" in proc.stderr


def test_refuses_to_start_without_allowed_hosts_when_debug_is_off():
    proc = _manage("check", DEBUG="0", SECRET_KEY="s" * 50)
    assert proc.returncode != 0
    assert "ALLOWED_HOSTS is not set" in proc.stderr


def _check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    """``check --deploy`` failing on warnings, with the production settings of docs/deploy.md
    (and ``env``)."""
    production = {
        "DEBUG": "0",
        "SECRET_KEY": "a-long-random-production-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "botifarra.example",
        "CSRF_TRUSTED_ORIGINS": "https://botifarra.example",
    }
    return _manage("check", "--deploy", "--fail-level", "WARNING", **(production | env))


def test_check_deploy_reports_nothing_with_production_settings():
    proc = _check_deploy(SITE_URL="https://botifarra.example")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_check_deploy_warns_when_the_e_mails_would_link_to_localhost():
    """Deploy audit, 2026-12-06: without SITE_URL every background e-mail links to
    http://127.0.0.1:8000; the settings start (the site works), ``check --deploy`` says so."""
    proc = _check_deploy()
    assert proc.returncode != 0
    assert "botifarra.W001" in proc.stderr + proc.stdout
    assert "SITE_URL is not set" in proc.stderr + proc.stdout


def test_an_smtp_server_that_never_answers_has_a_bound():
    proc = _manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.EMAIL_TIMEOUT)",
        DEBUG="1",
        EMAIL_TIMEOUT="7",
    )
    assert proc.stdout.split()[-1] == "7", proc.stderr
    default = _manage(
        "shell", "-c", "from django.conf import settings as s; print(s.EMAIL_TIMEOUT)", DEBUG="1"
    )
    assert default.stdout.split()[-1] == "10", default.stderr


def test_defaults_are_catalan_sqlite_in_process_tasks_and_madrid_time():
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "LANGUAGE_CODE", "TIME_ZONE"}
    }
    code = (
        "from django.conf import settings as s; "
        "print(s.LANGUAGE_CODE, s.TIME_ZONE, s.DATABASES['default']['ENGINE'], "
        "s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'])"
    )
    proc = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=clean | {"DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.strip().splitlines()[-1].split() == [
        "ca",
        "Europe/Madrid",
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
    ], proc.stderr
