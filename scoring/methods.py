"""The next round of an event, whatever its pairing method: one entry point for the database side,
the checker and the generator.

* ``swiss``: :func:`scoring.pairing.pair_next_round` (acceleration, prohibited pairings, late
  entries and requested byes included);
* ``roundrobin``: the Berger schedule of the whole field in its initial order
  (:mod:`scoring.roundrobin`); a competitor whose opponent is absent rests;
* ``groups``: the group rounds, then the knockout (:mod:`scoring.groups`).

Everything is derived from the :class:`~scoring.types.EventInput` alone: the same event always
gives the same round.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.groups import groups_next_round, groups_plan
from scoring.pairing import initial_order, pair_next_round
from scoring.roundrobin import playing_only, round_robin_schedule
from scoring.types import EventInput, Pairing


def next_pairing(event: EventInput, *, order: Sequence[int] | None = None) -> Pairing:
    """The pairing of the round after the last one in ``event``.

    ``order`` replaces the event's initial order (the lot or ratings) when the organiser gives
    one; it must then be given for every round (the round robin and the groups derive every
    round from it).
    """
    method = event.pairing.method
    if method == "swiss":
        return pair_next_round(event, order=order)
    start = list(order) if order is not None else initial_order(event)
    number = max((r.number for r in event.rounds), default=0) + 1
    if method == "roundrobin":
        schedule = round_robin_schedule(
            start, double=event.pairing.double, rounds=event.pairing.rounds
        )
        if number > len(schedule):
            raise ValueError(f"the round robin has {len(schedule)} rounds, not {number}")
        return playing_only(schedule[number - 1], set(event.active(number)))
    return groups_next_round(event, start)


def planned_rounds(event: EventInput, *, order: Sequence[int] | None = None) -> int:
    """How many rounds the event has: the Swiss's ``rounds`` (or None -> ValueError), the
    round robin's schedule, or the groups' rounds plus the knockout's."""
    opts = event.pairing
    start = list(order) if order is not None else initial_order(event)
    if opts.method == "swiss":
        if opts.rounds is None:
            raise ValueError("the Swiss has no planned number of rounds")
        return opts.rounds
    if opts.method == "roundrobin":
        return len(round_robin_schedule(start, double=opts.double, rounds=opts.rounds))
    plan = groups_plan(event, start)
    n_direct = sum(min(opts.qualifiers, len(g)) for g in plan.groups)
    # The repesca can only add places up to the next power of two; the knockout has
    # log2(places) rounds whether or not the repesca fills them all. It plans a place only for
    # a non-qualifier that could reach repesca_min_points: in a group of k it plays k - 1
    # games and, not first, wins at most all but one, which it draws: 2k - 3 match points.
    possible = sum(
        len(g) - min(opts.qualifiers, len(g))
        for g in plan.groups
        if 2 * len(g) - 3 >= opts.repesca_min_points
    )
    repesca = min(opts.repesca or 0, possible) if opts.repesca is not None else 0
    places = n_direct + repesca
    return plan.group_rounds + max(places - 1, 0).bit_length()
