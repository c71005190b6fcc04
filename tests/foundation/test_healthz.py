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


class _SlowRedis:
    """A loopback server that answers like a Redis, ``delay`` seconds late."""

    def __init__(self, delay: float) -> None:
        import socket
        import threading

        self.delay = delay
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        import threading

        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn) -> None:
        import time

        with conn:
            while data := conn.recv(65536):
                # One answer a command (a client may send several in one packet): HELLO (the
                # client's RESP3 handshake) gets a map, anything else +PONG; PING is late.
                commands = data.split(b"*")[1:]
                if any(b"PING" in command.upper() for command in commands):
                    time.sleep(self.delay)
                conn.sendall(
                    b"".join(
                        b"%2\r\n$6\r\nserver\r\n$5\r\nredis\r\n$5\r\nproto\r\n:3\r\n"
                        if b"HELLO" in command.upper()
                        else b"+PONG\r\n"
                        for command in commands
                    )
                )


@pytest.mark.django_db
def test_healthz_waits_for_redis_as_long_as_the_site_does(client, settings):
    """docs/deploy.md: REDIS_SOCKET_TIMEOUT is how long a call to Redis may wait; /healthz
    gave up after 1 s whatever it said (audit)."""
    slow = _SlowRedis(delay=1.5)
    try:
        settings.REDIS_URL = f"redis://127.0.0.1:{slow.port}/0"
        settings.REDIS_SOCKET_TIMEOUT = 3.0
        assert client.get("/healthz").json()["checks"]["redis"] == "ok"
        settings.REDIS_SOCKET_TIMEOUT = 0.5  # the default: the probe still waits 1 s
        assert client.get("/healthz").json()["checks"]["redis"] == "down"
    finally:
        slow.server.close()
