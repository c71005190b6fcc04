"""Seeding by rating: an order of the entries for round 1 and groups of even strength.

A pair's seeding strength is the sum of its players' ratings μ₁ + μ₂ (``scoring.ratings``); a
player who has never been rated counts as a new player (μ₀). Pairs of equal strength keep the
order they are given in, so give them in lot order (``scoring.lots.lot_order``) and the lot
settles the ties.

* ``rating_order``: strongest pair first.
* ``round_one_order``: that order folded so that ``scoring.pairing.pair_round``'s round 1
  (1 v 2, 3 v 4…) seats the top half against the bottom half, 1 v N/2 + 1, 2 v N/2 + 2…, as
  rated Swiss events do; with an odd number the weakest pair comes last and gets the bye.
* ``snake_groups``: groups filled in a snake, 1 2 3 4 | 8 7 6 5 | 9 10 11 12…, so that every
  group gets one pair of each strength band.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.ratings import DEFAULT_PARAMS, Players, RatingParams, RatingState


def rating_order(
    entries: Mapping[int, Players],
    *,
    state: RatingState,
    params: RatingParams = DEFAULT_PARAMS,
) -> list[int]:
    """Entry ids, strongest pair first (ties keep the order of ``entries``).

    >>> from scoring.ratings import Rating, RatingState
    >>> state = RatingState(ratings={1: Rating(30.0, 2.0), 2: Rating(20.0, 2.0)})
    >>> rating_order({10: (2, 3), 11: (1, 4), 12: (5, 6)}, state=state)
    [11, 12, 10]
    """

    def strength(entry: int) -> float:
        a, b = entries[entry]
        return state.rating(a, params=params).mu + state.rating(b, params=params).mu

    return sorted(entries, key=lambda e: -strength(e))


def round_one_order(order: Sequence[int]) -> list[int]:
    """``order`` (strongest first) rearranged so that pairing it 1 v 2, 3 v 4… gives
    1 v h + 1, 2 v h + 2… (h = half the pairs, rounded down); an odd last pair stays last.

    >>> round_one_order([1, 2, 3, 4, 5, 6, 7])
    [1, 4, 2, 5, 3, 6, 7]
    """
    if len(set(order)) != len(order):
        raise ValueError("an entry appears twice in the order")
    half = len(order) // 2
    folded: list[int] = []
    for i in range(half):
        folded.extend((order[i], order[half + i]))
    folded.extend(order[2 * half :])
    return folded


def snake_groups(order: Sequence[int], *, groups: int) -> list[list[int]]:
    """``order`` (strongest first) dealt into ``groups`` groups in a snake.

    >>> snake_groups([1, 2, 3, 4, 5, 6, 7], groups=3)
    [[1, 6, 7], [2, 5], [3, 4]]
    """
    if groups < 1:
        raise ValueError("at least one group is needed")
    if len(set(order)) != len(order):
        raise ValueError("an entry appears twice in the order")
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for i, entry in enumerate(order):
        band, pos = divmod(i, groups)
        dealt[pos if band % 2 == 0 else groups - 1 - pos].append(entry)
    return dealt
