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

from benchmarks.synthetic import BOARDS, PAIRS, ROUNDS, build_event  # noqa: E402


def populate(data):
    from tournaments.models import Board, BoardResult, Entry, Event, Pair, Player, Round, Table

    event = Event.objects.create(name="Benchmark", rounds_count=ROUNDS, boards_per_round=BOARDS,
                                 status=Event.Status.RUNNING, seed="bench")
    players = Player.objects.bulk_create([Player(name=f"P{i}") for i in range(2 * PAIRS)])
    pairs = Pair.objects.bulk_create([
        Pair(name=f"Pair {i + 1}", player1=players[2 * i], player2=players[2 * i + 1])
        for i in range(PAIRS)
    ])
    entries = Entry.objects.bulk_create([
        Entry(event=event, pair=pair, number=i + 1) for i, pair in enumerate(pairs)
    ])
    entry_of = {i + 1: e for i, e in enumerate(entries)}
    boards = {
        b.number: b for b in Board.objects.bulk_create([
            Board(event=event, number=n, dealer="N", hands={}) for n in range(1, ROUNDS * BOARDS + 1)
        ])
    }
    for rnd_data in data.rounds:
        rnd = Round.objects.create(event=event, number=rnd_data.number, status=Round.Status.CLOSED)
        tables = Table.objects.bulk_create([
            Table(round=rnd, number=t.table, ns=entry_of[t.ns], ew=entry_of[t.ew],
                  code=f"{rnd_data.number:02d}{t.table:04d}")
            for t in rnd_data.tables
        ])
        BoardResult.objects.bulk_create([
            BoardResult(
                table=table, board=boards[r.board], status=BoardResult.Status.CONFIRMED,
                source=BoardResult.Source.SHORT, trump="oros", multiplier=1,
                score_ns=r.score_ns, score_ew=r.score_ew, adjusted_ns=r.adjusted_ns or "",
                adjusted_ew=r.adjusted_ew or "", entered_by="bench",
            )
            for table, t in zip(tables, rnd_data.tables, strict=True) for r in t.results
        ], batch_size=2000)
    return event


def main() -> int:
    from scoring.bridge import standings_recompute
    from scoring.standings import compute_standings
    from tournaments.models import StandingsSnapshot

    old_name = connection.settings_dict["NAME"]
    test_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        data = build_event()
        event = populate(data)
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
