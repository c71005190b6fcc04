"""The lot drawn from the event seed: anyone can recompute it.

Each entry's lot key is the SHA-256 hex digest of the UTF-8 string ``f"{seed}:lot:{number}"``,
where ``number`` is the entry number shown to players. Entries are ordered by that key (as a
hexadecimal string, i.e. numerically), ties (impossible in practice) by entry number.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping


def lot_key(seed: str, number: int) -> str:
    return hashlib.sha256(f"{seed}:lot:{number}".encode()).hexdigest()


def lot_order(entries_numbers: Mapping[int, int], seed: str) -> list[int]:
    """Entry ids in lot order; ``entries_numbers`` maps entry id -> entry number.

    >>> lot_order({10: 1, 11: 2, 12: 3}, "demo")
    [11, 12, 10]
    """
    return sorted(
        entries_numbers,
        key=lambda e: (lot_key(seed, entries_numbers[e]), entries_numbers[e], e),
    )


def seeding_order(
    entries_numbers: Mapping[int, int], seed: str, ratings: Mapping[int, int] | None = None
) -> list[int]:
    """The initial order of an event: by rating, best first, when ``ratings`` is given (the lot
    orders equal or missing ratings, missing ones last); else the lot.

    >>> seeding_order({10: 1, 11: 2, 12: 3}, "demo", {10: 1500, 12: 1500})
    [12, 10, 11]
    """
    lot = lot_order(entries_numbers, seed)
    if not ratings:
        return lot
    pos = {e: i for i, e in enumerate(lot)}
    return sorted(lot, key=lambda e: (e not in ratings, -ratings.get(e, 0), pos[e]))
