"""Row locks on PostgreSQL: each names the rows it means."""

import re
from pathlib import Path


def test_every_row_lock_names_its_own_rows():
    """``select_for_update()`` without ``of`` locks the rows of every joined table (PostgreSQL):
    a lock of one table's result would hold its round and event and serialise a whole round."""
    root = Path(__file__).resolve().parents[2]
    bare = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("tournaments", "api", "scoring")
        for path in (root / folder).rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"select_for_update\((?!of=)", line)
    ]
    assert bare == []
