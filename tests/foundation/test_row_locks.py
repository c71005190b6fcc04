"""Row locks on PostgreSQL: each names the rows it means, and none blocks the foreign-key checks
of rows that point at it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _locks() -> list[tuple[str, str]]:
    """(where, the call's text) of every ``select_for_update(`` of the application's code."""
    found = []
    for folder in ("tournaments", "api", "scoring"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            for match in re.finditer(r"select_for_update\(((?:[^()]|\([^()]*\))*)\)", text):
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(ROOT)}:{line}", match.group(1)))
    return found


def test_every_row_lock_names_its_own_rows():
    """``select_for_update()`` without ``of`` locks the rows of every joined table (PostgreSQL):
    a lock of one table's result would hold its round and event and serialise a whole round."""
    assert _locks(), "no lock found: the search is broken"
    assert [where for where, args in _locks() if not args.startswith("of=")] == []


def test_no_row_lock_blocks_the_rows_pointing_at_it():
    """``FOR UPDATE`` also blocks the foreign-key check (``FOR KEY SHARE``) of every row inserted
    meanwhile that points at the locked one: the event's lock held every audit entry of the
    event, and a withdrawal and a table's submission deadlocked
    (tests/tournaments/test_lifecycle_races_pg.py). ``FOR NO KEY UPDATE`` serialises the writers
    just the same."""
    assert [where for where, args in _locks() if "no_key=True" not in args] == []
