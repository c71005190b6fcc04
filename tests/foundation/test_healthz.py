"""GET /healthz: 200 when the database and (if configured) Redis answer, 503 naming the one down."""

import pytest

from tournaments.views import health


@pytest.mark.django_db
def test_healthz_is_ok_when_everything_answers(client, settings, monkeypatch):
    monkeypatch.setattr(health, "_redis_ok", lambda: True)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_healthz_without_redis_configured_says_so(client, settings):
    settings.REDIS_URL = ""
    body = client.get("/healthz").json()
    assert body["checks"]["redis"] == "not configured"


@pytest.mark.django_db
def test_healthz_names_redis_when_it_does_not_answer(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"] == ["redis"]


@pytest.mark.django_db
def test_healthz_names_the_database_when_it_does_not_answer(client, monkeypatch):
    monkeypatch.setattr(health, "_database_ok", lambda: False)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "database" in response.json()["down"]


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_reaches_the_real_redis(client, settings):
    import os

    settings.REDIS_URL = os.environ["REDIS_URL"]
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["redis"] == "ok"


MANIFEST_STORAGE = "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"


@pytest.fixture
def production_static(settings, tmp_path):
    """The production storage (hashed names from a manifest) over an empty STATIC_ROOT."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST_STORAGE}}
    return tmp_path


@pytest.mark.django_db
def test_healthz_names_the_static_files_when_collectstatic_has_not_run(
    client, production_static, monkeypatch
):
    monkeypatch.setattr(health, "_redis_ok", lambda: True)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["static"] and body["checks"]["static"] == "missing"
    assert "collectstatic" in body["problems"]["static"]
    # What it warns about: the pages themselves cannot be rendered.
    with pytest.raises(ValueError):
        client.get("/accounts/login/")


@pytest.mark.django_db
def test_healthz_is_ok_once_the_manifest_is_written(client, production_static, monkeypatch):
    import json

    monkeypatch.setattr(health, "_redis_ok", lambda: True)
    (production_static / "staticfiles.json").write_text(
        json.dumps({"version": "1.1", "paths": {"css/site.css": "css/site.0123456789ab.css"}})
    )
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["static"] == "ok"
