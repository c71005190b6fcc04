"""Victory points: a team match's margin in units turned into a 20–0 share, WBF style.

The WBF continuous scale (2013), with its constants adapted to the difference scale's units:

* the blitz margin ``B = BLITZ_PER_SQRT_BOARD × √boards`` (the WBF uses 15 IMPs × √boards; our
  constant comes from the scale's derivation, docs/teams.md);
* for a margin ``m`` below ``B`` the winner gets ``10 + 10 × (1 − r^(m / B)) / (1 − r)`` VPs
  with ``r = τ³`` and ``τ = (√5 − 1) / 2``; from ``B`` on, 20; the loser gets 20 minus that;
* VPs are given to two decimals. Rounding each value on its own could make one more unit worth
  more than the one before; so the rounded increments (hundredths gained by each extra unit) are
  put in non-increasing order, which keeps 10.00 at 0 and 20.00 at the blitz and makes every
  extra unit worth no more than the previous one.

>>> victory_points(0, boards=8)
(10.0, 10.0)
>>> victory_points(-23, boards=8)
(0.0, 20.0)
"""

from __future__ import annotations

import math
from functools import lru_cache

from scoring.scale import BLITZ_PER_SQRT_BOARD

TAU = (math.sqrt(5) - 1) / 2
RATIO = TAU**3


def blitz(*, boards: int, blitz_per_sqrt_board: float = BLITZ_PER_SQRT_BOARD) -> float:
    """The margin in units that wins 20–0 over ``boards`` boards.

    >>> round(blitz(boards=9), 2)
    24.0
    """
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    if blitz_per_sqrt_board <= 0:
        raise ValueError("the blitz constant must be positive")
    return blitz_per_sqrt_board * math.sqrt(boards)


@lru_cache(maxsize=256)
def vp_table(*, boards: int, blitz_per_sqrt_board: float = BLITZ_PER_SQRT_BOARD) -> tuple[int, ...]:
    """The winner's VPs in hundredths for margins 0, 1, 2, … up to the first that blitzes (2000).

    >>> vp_table(boards=8)[:4], vp_table(boards=8)[-1], len(vp_table(boards=8))
    ((1000, 1081, 1157, 1228), 2000, 24)
    """
    top = blitz(boards=boards, blitz_per_sqrt_board=blitz_per_sqrt_board)
    last = math.ceil(top)
    rounded = [
        math.floor(1000 + 1000 * (1 - RATIO ** (m / top)) / (1 - RATIO) + 0.5) for m in range(last)
    ]
    rounded.append(2000)
    increments = sorted((b - a for a, b in zip(rounded, rounded[1:], strict=False)), reverse=True)
    table = [1000]
    for step in increments:
        table.append(table[-1] + step)
    return tuple(table)


def victory_points(
    margin: int, *, boards: int, blitz_per_sqrt_board: float = BLITZ_PER_SQRT_BOARD
) -> tuple[float, float]:
    """VPs of the two teams of a match that team A won by ``margin`` units (negative: lost).

    >>> victory_points(5, boards=8), victory_points(-5, boards=8)
    ((13.58, 6.42), (6.42, 13.58))
    """
    hundredths = vp_hundredths(margin, boards=boards, blitz_per_sqrt_board=blitz_per_sqrt_board)
    return hundredths / 100, (2000 - hundredths) / 100


def vp_hundredths(
    margin: int, *, boards: int, blitz_per_sqrt_board: float = BLITZ_PER_SQRT_BOARD
) -> int:
    """Team A's VPs in hundredths (whole numbers add up exactly; standings sum these)."""
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise ValueError(f"a margin is a whole number of units, not {margin!r}")
    table = vp_table(boards=boards, blitz_per_sqrt_board=blitz_per_sqrt_board)
    winner = table[min(abs(margin), len(table) - 1)]
    return winner if margin >= 0 else 2000 - winner
