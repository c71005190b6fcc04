"""Standings recomputation: 1,000 pairs, 10 rounds of 6 boards (30,000 results).

Builds the synthetic event in a throw-away test database of the configured DATABASE_URL
(SQLite by default, PostgreSQL when set), then times:

- ``standings_db_s``: a full recomputation through the task's code path (load every counted
  result from the database, compute the snapshot after each round, store them);
- ``standings_pure_s``: the pure computation of the final standings alone.

Targets on the reference machine: at most 3 s and 0.5 s.
"""

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from benchmarks.synthetic import ROUNDS, build_event, store_event  # noqa: E402


def main() -> int:
    from scoring.bridge import standings_recompute
    from scoring.standings import compute_standings
    from tournaments.models import StandingsSnapshot

    old_name = connection.settings_dict["NAME"]
    test_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        data = build_event()
        event = store_event(data, name="Benchmark", seed="bench")
        start = time.perf_counter()
        counted = standings_recompute(event.pk)
        db_s = time.perf_counter() - start
        assert counted > 29_000 and StandingsSnapshot.objects.filter(event=event).count() == ROUNDS
        start = time.perf_counter()
        compute_standings(data)
        pure_s = time.perf_counter() - start
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"standings_db_s: {db_s:.3f} s")
    print(f"standings_pure_s: {pure_s:.3f} s")
    del test_name
    return 0


if __name__ == "__main__":
    sys.exit(main())
