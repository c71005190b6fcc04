"""The groups-and-knockout view stored with each standings snapshot: the group tables, the
repesca list and the bracket, as JSON the public pages and PDFs read (nothing is recomputed per
request).

Everything comes from the pure ``scoring.groups`` functions that also pair the rounds, on the
*closed* rounds up to the snapshot's round: an open round's matches never show, for anyone
(the snapshot after an open round is the organiser's live view of the standings, but a knockout
match is decided when its round is closed). Pure: no Django, no database.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from scoring import types as st
from scoring.groups import (
    bracket_places,
    group_tables,
    groups_plan,
    knockout_rounds,
    qualify,
    round_rules,
)
from scoring.matches import counted_match
from scoring.pairing import initial_order


def _totals(event: st.EventInput, number: int, top: int, bottom: int) -> list[int] | None:
    """The counted totals of ``top`` v ``bottom`` in round ``number`` (top's first), or None."""
    rnd = next((r for r in event.rounds if r.number == number), None)
    table = next((t for t in rnd.tables if {t.ns, t.ew} == {top, bottom}), None) if rnd else None
    if rnd is None or table is None:
        return None
    m = counted_match(
        table,
        rnd,
        mode=event.match_mode,
        rules=round_rules(event, number),
        bye_points=event.bye_points,
    )[0]
    return [m.total_ns, m.total_ew] if table.ns == top else [m.total_ew, m.total_ns]


def stage_view(event: st.EventInput, after_round: int) -> dict[str, Any]:
    """The groups, repesca and bracket after ``after_round`` ({} unless the event plays groups
    then knockout, or when its pairs fit no groups: an event stored with a late entry before
    those were refused, docs/organisers.md)."""
    if event.pairing.method != "groups" or len(event.entries) < 2:
        return {}
    closed = [r for r in event.rounds if r.number <= after_round and r.closed]
    ev = replace(event, rounds=closed)
    order = initial_order(event)
    try:
        plan = groups_plan(ev, order)
    except ValueError:  # a group of one pair: no round robin
        return {}
    played = {r.number for r in closed}
    groups_done = all(n in played for n in range(1, plan.group_rounds + 1))
    opts = event.pairing
    tables = group_tables(ev, plan)
    q = qualify(
        tables,
        qualifiers=opts.qualifiers,
        repesca=opts.repesca,
        repesca_min_points=opts.repesca_min_points,
        seed_rank={e: i for i, e in enumerate(order)},
    )
    taken = set(q.repesca)
    direct = set(q.seeds) - taken
    bracket: list[list[dict[str, Any]]] = []
    if groups_done and len(q.seeds) >= 2:
        group_of = {e: gi for gi, g in enumerate(plan.groups) for e in g}
        places = bracket_places(q.seeds, group_of)
        for matches in knockout_rounds(ev, plan, places):
            bracket.append(
                [
                    asdict(m)
                    | {
                        "score": _totals(ev, m.round, m.top, m.bottom)
                        if m.top is not None and m.bottom is not None
                        else None
                    }
                    for m in matches
                ]
            )
    return {
        "group_rounds": plan.group_rounds,
        "groups_done": groups_done,
        "groups": [
            [
                asdict(row)
                | {
                    "point_diff": row.point_diff,
                    "qualified": row.entry in direct,
                    "repesca": row.entry in taken,
                }
                for row in table
            ]
            for table in tables
        ],
        "repesca": [
            asdict(row) | {"point_diff": row.point_diff, "taken": row.entry in taken}
            for row in q.candidates
        ],
        "repesca_places": len(q.repesca),
        "bracket": bracket,
    }
