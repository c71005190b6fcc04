"""Starting the real stack's processes, for the benchmarks and the tests that need them: one
command line for a Celery worker (a test's worker and a benchmark's are the same program)."""

from __future__ import annotations

import os
import sys


def celery_worker_argv(
    *,
    name: str | None = None,
    concurrency: int = 1,
    pool: str = "prefork",
    loglevel: str = "info",
    queues: str | None = None,
) -> list[str]:
    """``python -m celery -A config worker …`` without gossip, mingle or heartbeats (fast to start
    and to stop; a test pings it by ``name``). ``queues``: ``-Q`` (e.g. ``analysis``, the
    perfect-play analysis); the default queue when None."""
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--without-heartbeat",
        "--without-gossip",
        "--without-mingle",
        "-l",
        loglevel,
    ]
    if name is not None:
        argv += ["-n", name]
    if queues is not None:
        argv += ["-Q", queues]
    return argv


def production_env(
    *, database_url: str, redis_url: str, secret: str, **extra: str
) -> dict[str, str]:
    """The environment of a production-like run on this machine (DEBUG off, loopback hosts)."""
    return dict(
        os.environ,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DEBUG="0",
        SECRET_KEY=secret + "-" + "k" * 40,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="config.settings",
        **extra,
    )
