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
import json, sys
import django
django.setup()
lazy = {m: m in sys.modules for m in MODULES}
import config.wsgi
print(json.dumps({"after_setup": lazy, "after_wsgi": {m: m in sys.modules for m in MODULES}}))
"""
# What a round's requests go through: the API, the table's pages, the public standings, and
# the tasks a stored result queues.
MODULES = [
    "api.views",
    "tournaments.urls.table",
    "tournaments.urls.public",
    "tournaments.tasks",
]


def test_loading_the_wsgi_application_imports_the_views_that_setup_alone_does_not():
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
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert not any(seen["after_setup"].values()), seen  # else this test proves nothing
    assert all(seen["after_wsgi"].values()), seen
