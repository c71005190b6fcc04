"""docker/: a multi-stage, non-root image and a compose file with web, worker, postgres, redis."""

import os
import shlex
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def test_compose_file_defines_the_services_and_a_migration_step():
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert {"web", "worker", "postgres", "redis", "migrate"} <= set(services)
    assert services["migrate"]["command"][-2:] == ["migrate", "--no-input"]
    assert services["web"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )
    for name in ("web", "worker", "migrate"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://")


def test_compose_file_parses_with_docker_compose():
    if (
        shutil.which("docker")
        and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    ):
        command = ["docker", "compose"]
    elif shutil.which("docker-compose"):
        command = ["docker-compose"]
    else:
        pytest.skip("no docker compose on this machine; the YAML checks above still ran")
    proc = subprocess.run(
        [*command, "-f", str(DOCKER / "compose.yaml"), "config"],
        capture_output=True,
        text=True,
        env=os.environ
        | {"SECRET_KEY": "x", "ALLOWED_HOSTS": "botifarra.example", "POSTGRES_PASSWORD": "x"},
    )
    assert proc.returncode == 0, proc.stderr


def test_dockerfile_is_multi_stage_non_root_and_serves_with_gunicorn():
    text = (DOCKER / "Dockerfile").read_text()
    assert text.count("\nFROM ") + text.startswith("FROM ") >= 2
    assert "\nUSER botifarra" in text
    assert "gunicorn config.wsgi:application" in text
    assert "collectstatic" in text and "compilemessages" in text


def test_a_beat_service_schedules_the_standings_catch_up(settings):
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    assert compose["services"]["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tournaments.tasks.catch_up_standings" in tasks
    from config.celery import app

    app.loader.import_default_modules()
    assert "tournaments.tasks.catch_up_standings" in app.tasks


def test_the_image_builds_the_c_solver_and_refuses_to_ship_without_it():
    """Without setup.py and a compiler in the build stage, pip builds no extension (it is
    optional) and the image would run the pure-Python solver, a hundred times slower; the
    source in /app shadows the installed wheel, so the built module is copied beside it."""
    text = (DOCKER / "Dockerfile").read_text()
    _, build, runtime = text.split("\nFROM ")
    assert "gcc" in build
    assert any(
        line.startswith("COPY ") and "setup.py" in line.split() for line in build.splitlines()
    )
    assert "COPY --from=build /built/engine/_solver" in runtime
    assert "s.BACKEND == 'c'" in runtime
    ignored = (DOCKER.parent / ".dockerignore").read_text().split()
    assert "**/*.so" in ignored  # a checkout's own build must not land in the image


def test_compose_shares_the_media_and_leaves_the_sites_address_to_the_request():
    """docs/deploy.md: background PDFs are written by a worker and served by the web processes
    (one volume); SITE_URL is none unless set (else every QR code says localhost); the image's
    health check is the web server's, not the workers'."""
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert "media" in compose["volumes"]
    for name in ("web", "worker"):
        assert "media:/app/media" in services[name]["volumes"]
    assert services["web"]["environment"]["SITE_URL"] == "${SITE_URL:-}"
    assert services["web"]["environment"]["WEB_CONCURRENCY"] == "${WEB_CONCURRENCY:-3}"
    for name in ("migrate", "worker", "analysis", "beat"):
        assert services[name]["healthcheck"] == {"disable": True}
    assert "healthcheck" not in services["web"]
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert "chown botifarra:botifarra /app/media" in dockerfile
    assert "/healthz" not in dockerfile.split("HEALTHCHECK", 1)[1].splitlines()[0]


def test_the_deployers_env_file_stays_out_of_the_image():
    """docs/deploy.md puts SECRET_KEY and the e-mail password in the root .env; the image is
    built from that root (``COPY . .``): .dockerignore keeps the file out of its layers."""
    ignored = {
        line.strip()
        for line in (DOCKER.parent / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert "COPY --chown=botifarra:botifarra . ." in (DOCKER / "Dockerfile").read_text()
    assert {".env", ".env.*"} <= ignored


def _health_check_command() -> list[str]:
    line = next(
        line
        for line in (DOCKER / "Dockerfile").read_text().splitlines()
        if line.startswith("HEALTHCHECK")
    )
    return shlex.split(line.split(" CMD ", 1)[1])


@pytest.mark.parametrize(
    ("allowed", "host"),
    [
        (".botifarra.example,other.example", "botifarra.example"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
@pytest.mark.parametrize("status", [200, 301, 500, 503])
def test_the_image_health_check_asks_as_the_sites_host(allowed, host, status):
    """Deploy audit, 2026-12-06: the check asked with Host 127.0.0.1, which ALLOWED_HOSTS
    refuses with a 400 before the application runs: healthy whatever the site answered, and a
    DisallowedHost logged at every check. It asks as the first allowed host; a server error is
    unhealthy."""
    seen: list[str] = []

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server's name
            seen.append(self.headers["Host"])
            self.send_response(status)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        command = _health_check_command()
        assert command[0] == "python"
        proc = subprocess.run(
            [sys.executable, *command[1:]],
            env={
                "PATH": os.environ["PATH"],
                "ALLOWED_HOSTS": allowed,
                "PORT": str(server.server_address[1]),
            },
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        server.shutdown()
    assert seen == [host]
    assert proc.returncode == (1 if status >= 500 else 0), proc.stderr


def test_compose_refuses_to_start_without_the_sites_host():
    """Without ALLOWED_HOSTS the settings refuse to start; the Compose file's fallback to
    localhost made a stack that answered every real request with a 400 while healthy."""
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    assert compose["services"]["web"]["environment"]["ALLOWED_HOSTS"].startswith(
        "${ALLOWED_HOSTS:?"
    )


def test_compose_takes_the_databases_password_from_the_environment():
    """Issue 9: secrets only from the environment. The database's password was written in the
    file (audit)."""
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    required = "${POSTGRES_PASSWORD:?"
    assert compose["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith(required)
    assert f":{required}" in compose["services"]["web"]["environment"]["DATABASE_URL"]
    assert "botifarra:botifarra@" not in (DOCKER / "compose.yaml").read_text()


def test_the_web_command_hands_pid_1_to_gunicorn(tmp_path):
    """``docker stop`` sends SIGTERM to the container's PID 1. A shell that runs gunicorn as its
    child stays PID 1 and ignores it (dash neither forwards it nor replaces itself), so gunicorn
    was killed 10 s later without its graceful shutdown: the command must ``exec`` gunicorn.
    Checked by running the image's command line with a stand-in ``gunicorn`` that prints its
    process id: it must be the shell's own."""
    import json

    line = next(
        line for line in (DOCKER / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")
    )
    argv = json.loads(line.removeprefix("CMD "))
    stand_in = tmp_path / "gunicorn"
    stand_in.write_text("#!/bin/sh\necho $$\n")
    stand_in.chmod(0o755)
    env = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}", PORT="8000")
    shell = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    out, _ = shell.communicate(timeout=10)
    assert int(out.strip()) == shell.pid
