"""The perfect-play analysis of an event's boards (issue 19): how long one analysis worker
(one process, one core) takes to analyse every board of an event, through the code the
``analysis`` queue's tasks run (``services.analysis.board_analyse``: five whole-deal solves and
the par, stored).

Issue 19 asks that the analysis of a 24-board event finish in the background before its first
round ends. The default run is short (2 boards); ``--boards 24`` measures a whole 24-board
event (many minutes under lliure). CPU seconds of this process by default, as
``benchmarks/analysis.py`` (the machine may be shared); ``--wall`` for elapsed time. Prints:

- ``event_analysis_s``: seconds for all the boards (``--boards``, default 2);
- ``event_analysis_boards``: how many boards that was;
- ``event_analysis_board_max_s``: the slowest board;
- ``solver_backend``: ``c`` or ``python``.

Builds the event in a throw-away test database of the configured DATABASE_URL (SQLite by
default). The seed is fixed (``--seed``), so runs compare.
"""

import argparse
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


def main() -> int:
    from engine.solver import BACKEND
    from tournaments.models import BoardAnalysis, Club, Event
    from tournaments.services.analysis import board_analyse
    from tournaments.services.events import boards_generate

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=2, help="boards of the event (default 2)")
    parser.add_argument("--wall", action="store_true", help="elapsed time, not CPU time")
    parser.add_argument("--ruleset", choices=("lliure", "obligada"), default="lliure")
    parser.add_argument("--seed", default="analysis-event")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each board")
    args = parser.parse_args()
    if not 1 <= args.boards <= 200:
        parser.error("--boards is from 1 to 200")

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        event = Event.objects.create(
            name="Analysis benchmark",
            club=Club.objects.create(name="Benchmark"),
            seed=args.seed,
            ruleset=args.ruleset,
            rounds_count=1,
            boards_per_round=args.boards,
        )
        boards_generate(event=event)
        clock = time.perf_counter if args.wall else time.process_time
        slowest = 0.0
        start = clock()
        for board in event.boards.order_by("number"):
            one = clock()
            board_analyse(board_id=board.pk)
            took = clock() - one
            slowest = max(slowest, took)
            if args.verbose:
                print(f"board {board.number}: {took:.2f} s", file=sys.stderr)
        total = clock() - start
        assert BoardAnalysis.objects.filter(board__event=event).count() == args.boards
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"event_analysis_s: {total:.2f} s")
    print(f"event_analysis_boards: {args.boards} boards")
    print(f"event_analysis_board_max_s: {slowest:.2f} s")
    print(f"solver_backend: {BACKEND}")
    print(f"clock: {'wall' if args.wall else 'cpu'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
