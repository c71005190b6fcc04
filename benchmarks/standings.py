"""Standings recomputation: 1,000 pairs, 10 rounds of 6 boards (30,000 results).

Builds the synthetic event in a throw-away test database of the configured DATABASE_URL
(SQLite by default, PostgreSQL when set), then times:

- ``standings_db_s``: a full recomputation through the task's code path (load every counted
  result from the database, compute the snapshot after each round, store them);
- ``standings_pure_s``: the pure computation of the final standings alone;
- ``team_standings_pure_s``: the pure computation of a team event's standings (200 teams, 9
  matches each of 12 boards at two tables: 21,600 results; every match scored board by board
  on the difference scale, VPs, ranking);
- ``team_standings_s`` (target <= 2 s): the same team event stored in the database, recomputed
  through the task's code path (load every counted result, score every match, the standings
  and the Butler ranking after each of the 9 rounds, store the snapshots);
- ``team_standings_every_round_pure_s``: the same, once after each of the 9 rounds (what a
  snapshot per round, as the pairs task stores, costs);
- ``butler_pure_s``: the Butler ranking of the same event's 400 pairs.

Targets on the reference machine: at most 3 s and 0.5 s for the pairs event.
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

from benchmarks.synthetic import (  # noqa: E402
    ROUNDS,
    build_event,
    build_team_event,
    store_event,
    store_team_event,
)


def main() -> int:
    from scoring.butler import butler_ranking
    from scoring.standings import compute_standings
    from scoring.team_standings import compute_team_standings
    from tournaments.models import StandingsSnapshot
    from tournaments.services.standings import standings_recompute

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
        team_data = build_team_event()
        team_db_event = store_team_event(team_data, name="Team benchmark", seed="bench")
        start = time.perf_counter()
        team_counted = standings_recompute(team_db_event.pk)
        team_db_s = time.perf_counter() - start
        assert team_counted > 20_000
        assert StandingsSnapshot.objects.filter(event=team_db_event).count() == len(
            team_data.rounds
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"standings_db_s: {db_s:.3f} s")
    print(f"standings_pure_s: {pure_s:.3f} s")
    del test_name
    team_event = build_team_event()
    start = time.perf_counter()
    result = compute_team_standings(team_event)
    team_pure_s = time.perf_counter() - start
    assert len(result.standings) == 200 and len(result.matches) == 900
    start = time.perf_counter()
    for rnd in team_event.rounds:
        compute_team_standings(team_event, after_round=rnd.number)
    team_rounds_s = time.perf_counter() - start
    results = [
        r for rnd in team_event.rounds for m in rnd.matches for r in m.open_room + m.closed_room
    ]
    start = time.perf_counter()
    butler = butler_ranking(results)
    butler_s = time.perf_counter() - start
    assert len(butler.standings) == 400
    print(f"team_standings_s: {team_db_s:.3f} s")
    print(f"team_standings_pure_s: {team_pure_s:.3f} s")
    print(f"team_standings_every_round_pure_s: {team_rounds_s:.3f} s")
    print(f"butler_pure_s: {butler_s:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
