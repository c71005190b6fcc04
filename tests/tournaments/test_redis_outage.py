"""tournaments.redis_outage: one pause after a failure of Redis, and a log line either way."""

import logging

from tournaments import queue, redis_outage
from tournaments.models import Event


def test_a_failure_pauses_redis_and_says_so(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    assert redis_outage.available()
    try:
        raise ConnectionError("refused")
    except ConnectionError:
        with caplog.at_level(logging.WARNING):
            redis_outage.failed("the cache")
    assert not redis_outage.available()
    assert "Redis does not answer" in caplog.text and "ConnectionError" in caplog.text
    redis_outage.reset()
    assert redis_outage.available()


def test_without_redis_a_task_that_raises_is_logged_and_nothing_pauses(
    settings, caplog, monkeypatch, django_capture_on_commit_callbacks, db
):
    """The demo runs tasks in-process: a task's own error must reach the log (it was dropped
    silently by the pause's guard), and nothing is paused (there is no Redis)."""
    settings.REDIS_URL = ""

    def broken(event_id: int) -> None:
        raise RuntimeError("a bug in the recomputation")

    monkeypatch.setattr("tournaments.tasks.standings_recompute", broken)
    event = Event.objects.create(name="Vespre")
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        queue.request_standings(event)
    assert "a bug in the recomputation" in caplog.text
    assert redis_outage.available()
