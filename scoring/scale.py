"""The Botifarra difference scale: a difference of hand scores turned into units.

What IMPs are to bridge: the difference between two results of the same board (R9 hand scores,
R10 penalties) becomes a small whole number of *units*, growing linearly for everyday
differences and logarithmically for doubled hands, so that one big doubled hand does not
outweigh a match of small edges. The band edges are data (``scoring/difference_scale.json``),
derived by ``benchmarks/difference_scale.py`` from simulated boards; docs/teams.md explains the
derivation.

>>> difference_units(0), difference_units(1), difference_units(2), difference_units(-6)
(0, 0, 1, -2)
>>> difference_units(576), difference_units(1152)
(21, 24)
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from importlib.resources import files

from scoring.types import ADJUSTED_PCT


class ScaleTableError(ValueError):
    """The shipped scale table is malformed (a packaging or editing mistake)."""


def _load() -> tuple[tuple[int, ...], float, int]:
    """The edges, the VP blitz constant and the adjusted-score units of the shipped table."""
    text = files("scoring").joinpath("difference_scale.json").read_text(encoding="utf-8")
    data = json.loads(text)
    edges = data.get("edges")
    if (
        not isinstance(edges, list)
        or not edges
        or not all(isinstance(e, int) and not isinstance(e, bool) for e in edges)
        or edges[0] < 1
        or any(b <= a for a, b in zip(edges, edges[1:], strict=False))
    ):
        raise ScaleTableError("difference_scale.json: edges must be increasing whole numbers >= 1")
    blitz = data.get("blitz_per_sqrt_board")
    if not isinstance(blitz, int | float) or isinstance(blitz, bool) or blitz <= 0:
        raise ScaleTableError("difference_scale.json: blitz_per_sqrt_board must be positive")
    adjusted = data.get("adjusted_units")
    if not isinstance(adjusted, int) or isinstance(adjusted, bool) or adjusted <= 0:
        raise ScaleTableError("difference_scale.json: adjusted_units must be a whole number > 0")
    return tuple(edges), float(blitz), adjusted


_EDGES, _BLITZ, _ADJUSTED = _load()

#: ``EDGES[k - 1]`` is the smallest difference (in points, either sign) worth ``k`` units.
EDGES: tuple[int, ...] = _EDGES
#: The most units a board can be worth.
MAX_UNITS = len(EDGES)
#: The victory-point blitz margin is this many units times the square root of the boards.
BLITZ_PER_SQRT_BOARD: float = _BLITZ
#: A referee's artificial adjusted score, in units for the side it is given to (like the ±3 IMPs
#: of bridge).
ADJUSTED_UNITS: dict[str, int] = {"avg_plus": _ADJUSTED, "avg": 0, "avg_minus": -_ADJUSTED}
assert ADJUSTED_UNITS.keys() == ADJUSTED_PCT.keys()


def difference_units(difference: float) -> int:
    """The units of a difference in points: odd (the sign of the difference), 0 at 0.

    >>> difference_units(15), difference_units(-14)
    (4, -3)
    """
    n = bisect_right(EDGES, abs(difference))
    return n if difference >= 0 else -n


@dataclass(frozen=True, slots=True)
class ScaleBand:
    """One line of the printed table: differences ``low``–``high`` (None: and more) are worth
    ``units``."""

    low: int
    high: int | None
    units: int


def scale_bands() -> list[ScaleBand]:
    """The whole table, for pages and PDFs.

    >>> bands = scale_bands()
    >>> bands[0], bands[-1].high
    (ScaleBand(low=0, high=1, units=0), None)
    """
    lows = (0, *EDGES)
    return [
        ScaleBand(low, lows[i + 1] - 1 if i + 1 < len(lows) else None, i)
        for i, low in enumerate(lows)
    ]


_COMPLEMENT = {"avg_plus": "avg_minus", "avg": "avg", "avg_minus": "avg_plus"}


def adjusted_codes(own: str | None, other: str | None) -> tuple[str, str]:
    """Both sides' codes of an artificial adjusted score: a side without a code gets the
    complement of the other side's (average-plus ↔ average-minus, average ↔ average).

    >>> adjusted_codes(None, "avg_minus"), adjusted_codes("avg", "avg_minus")
    (('avg_plus', 'avg_minus'), ('avg', 'avg_minus'))
    """
    for code in (own, other):
        if code is not None and code not in _COMPLEMENT:
            raise ValueError(
                f"unknown adjusted score {code!r}; expected one of {tuple(_COMPLEMENT)}"
            )
    if own is None:
        if other is None:
            raise ValueError("an adjusted result needs a code for one side at least")
        return _COMPLEMENT[other], other
    return own, other if other is not None else _COMPLEMENT[own]


def adjusted_units(code: str) -> int:
    """Units of an artificial adjusted score for the side given ``code``.

    >>> adjusted_units("avg_plus"), adjusted_units("avg"), adjusted_units("avg_minus")
    (2, 0, -2)
    """
    try:
        return ADJUSTED_UNITS[code]
    except KeyError:
        raise ValueError(
            f"unknown adjusted score {code!r}; expected one of {tuple(ADJUSTED_UNITS)}"
        ) from None
