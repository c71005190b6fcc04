"""Real Celery workers for the tests: the test database's address they must use, waiting until
one answers a ping, and stopping one with everything it forked. The suite's workers
(``celery_worker_factory``) and the fault tests' (``tests/faults/conftest.py``) both start theirs
with these; the command line is ``benchmarks.stack.celery_worker_argv``, as the benchmarks'."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings

READY_S = 30


def test_database_url() -> str:
    """DATABASE_URL of pytest-django's test database (what subprocesses must use)."""
    url = urlparse(os.environ["DATABASE_URL"])
    return url._replace(path="/" + settings.DATABASES["default"]["NAME"]).geturl()


test_database_url.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def wait_until_answering(proc: subprocess.Popen, name: str, log: Path, broker_url: str) -> None:
    """Return once the worker ``name`` answers a ping on ``broker_url``; raise, naming its log,
    if it exits or stays silent for READY_S seconds (it is then killed)."""
    from celery import Celery

    pinger = Celery(broker=broker_url, set_as_current=False)  # never the tasks' app
    try:
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"celery worker exited: see {log}")
            try:
                if pinger.control.ping(destination=[name], timeout=0.5):
                    return
            except Exception:  # noqa: BLE001 - not up yet
                pass
            time.sleep(0.3)
    finally:
        pinger.close()
    stop_group(proc, signal.SIGKILL)
    raise RuntimeError(f"celery worker did not answer within {READY_S} s: see {log}")


def stop_group(proc: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    """Stop a process started with ``start_new_session=True`` and everything it forked."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
        proc.wait(timeout=timeout)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
