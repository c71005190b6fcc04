"""A web worker imports every view while it starts, not in the first request it serves (issue 23).

At the start of a round all the tables arrive at once: a worker that imported the views, the
API and their serializers lazily spent about a second of CPU on its first request, and the
players queued behind it waited that long."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
import django
django.setup()
lazy = {m: m in sys.modules for m in MODULES}
frozen = gc.get_freeze_count()
import config.wsgi
print(json.dumps({"after_setup": lazy, "after_wsgi": {m: m in sys.modules for m in MODULES},
                  "frozen_before": frozen, "frozen_after": gc.get_freeze_count()}))
"""
# What a round's requests go through: the API, the table's pages, the public standings, and
# the tasks a stored result queues.
MODULES = [
    "api.views",
    "tournaments.urls.table",
    "tournaments.urls.public",
    "tournaments.tasks",
]


def _probe() -> dict:
    """What a fresh process has imported and frozen before and after loading the application."""
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
    env.pop("DATABASE_URL", None)  # SQLite: importing needs no server
    proc = subprocess.run(
        [sys.executable, "-c", f"MODULES = {MODULES!r}\n{PROBE}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_loading_the_wsgi_application_imports_the_views_that_setup_alone_does_not():
    seen = _probe()
    assert not any(seen["after_setup"].values()), seen  # else this test proves nothing
    assert all(seen["after_wsgi"].values()), seen


def test_the_loaded_application_is_kept_out_of_the_garbage_collectors_sight():
    """``gc.freeze()`` once the views are loaded: a full collection, which a request's
    allocations set off now and then, does not walk the framework again (issue 23)."""
    seen = _probe()
    assert seen["frozen_before"] == 0, seen
    # Every view and serializer class, their functions and the URL patterns: far more than
    # Django's setup alone leaves.
    assert seen["frozen_after"] > 100_000, seen
