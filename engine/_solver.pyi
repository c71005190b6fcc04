"""Types of the C extension engine._solver (engine/_solver.c)."""

from collections.abc import Sequence

#: 1 when setup.py built this module profile-guided (gcc -fprofile-use after a training run).
PROFILE_GUIDED: int

class Search:
    """The perfect-play search of one trump choice (``t`` 0–4) under one ruleset."""

    def __init__(
        self,
        t: int,
        obligada: bool,
        table_bits: int = 21,
        budget: int = 3_000_000,
        grow_after: int = 65_536,
    ) -> None: ...
    def future(
        self, hands: Sequence[int], to_move: int, trick: Sequence[int], guess: int = -1, /
    ) -> int: ...
    def at_least(
        self, hands: Sequence[int], to_move: int, trick: Sequence[int], target: int, /
    ) -> bool: ...
    def clear(self) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def grown(self) -> bool: ...

def legal_mask(
    hand: int,
    position: int,
    led: int,
    win: int,
    partner_winning: bool,
    t: int,
    obligada: bool,
    /,
) -> int: ...
def suit_codes_after(
    hands: tuple[int, int, int, int], seat: int, card: int, /
) -> tuple[int, int]: ...
