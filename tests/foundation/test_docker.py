"""docker/: a multi-stage, non-root image and a compose file with web, worker, postgres, redis."""

import os
import shutil
import subprocess
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
        env=os.environ | {"SECRET_KEY": "x"},
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
