"""The knockout after the groups (docs/scoring.md §7.6): in every knockout match "the better seed
sits North–South" and goes through when the table's boards run out still level, also in the
rounds after the first, where an upset can bring the better seed from the lower line of the
bracket; a pair that sits a knockout round out (a requested bye) is out, and its opponent goes
through."""

from __future__ import annotations

from dataclasses import replace

from scoring.groups import group_tables, groups_plan, knockout_places, knockout_rounds, qualify
from scoring.methods import next_pairing, planned_rounds
from scoring.pairing import initial_order
from scoring.types import (
    BoardResult,
    ByeRequest,
    EventInput,
    RoundInput,
    TableRound,
)
from tests.scoring.test_roundrobin_groups import event_with
from tournaments.stages import stage_view


def _event() -> EventInput:
    """8 pairs in two groups of 4 (3 group rounds), the best 2 of each group: semi-finals and a
    final, each game of 2 boards (a level game: 2 tie-break deals, boards 3 and 4)."""
    return event_with(8, seed="ko", method="groups", group_size=4, qualifiers=2, repesca=0)


def _play(ev, pairing, winner_of):
    """Play ``pairing`` as round n: ``winner_of(ns, ew)`` wins 10–0 on both boards, or None: level
    on every board (the tie-break deals too)."""
    number = len(ev.rounds) + 1
    tables = []
    for t, (ns, ew) in enumerate(pairing.tables, start=1):
        w = winner_of(ns, ew)
        if w is None:
            res = [BoardResult(b, t, ns, ew, 0, 0) for b in (1, 2, 3, 4)]
        else:
            res = [
                BoardResult(b, t, ns, ew, 10 if w == ns else 0, 0 if w == ns else 10)
                for b in (1, 2)
            ]
        tables.append(TableRound(number, t, ns, ew, res))
    played = RoundInput(number, [1, 2, 3, 4], tables, None, pairing.rests)
    return replace(ev, rounds=[*ev.rounds, played])


def _after_groups():
    ev = _event()
    assert planned_rounds(ev) == 3 + 2
    for _ in range(3):
        ev = _play(ev, next_pairing(ev), min)
    order = initial_order(ev)
    tables = group_tables(ev, groups_plan(ev, order))
    seed_rank = {e: i for i, e in enumerate(order)}
    seeds = qualify(tables, qualifiers=2, repesca=0, seed_rank=seed_rank).seeds
    assert len(seeds) == 4
    return ev, seeds


def _bracket(ev):
    order = initial_order(ev)
    plan = groups_plan(ev, order)
    return knockout_rounds(ev, plan, knockout_places(ev, plan, order))


def _to_final_after_upsets():
    """Semi-finals seed 1 v seed 4 and seed 2 v seed 3: seed 4 and seed 2 win."""
    ev, (s1, s2, s3, s4) = _after_groups()
    semi = next_pairing(ev)
    assert sorted(semi.tables) == sorted([(s1, s4), (s2, s3)])  # the better seed NS
    ev = _play(ev, semi, lambda a, b: s4 if s4 in (a, b) else s2)
    return ev, (s1, s2, s3, s4)


def test_the_better_seed_sits_ns_in_the_final_after_an_upset():
    ev, (_s1, s2, _s3, s4) = _to_final_after_upsets()
    assert next_pairing(ev).tables == [(s2, s4)]  # seed 2 NS although it came from below


def test_a_level_final_goes_to_the_better_seed_after_an_upset():
    ev, (_s1, s2, _s3, s4) = _to_final_after_upsets()
    ev = _play(ev, next_pairing(ev), lambda a, b: None)
    final = _bracket(ev)[-1][0]
    assert (final.top, final.bottom, final.winner) == (s2, s4, s2)


def test_the_bracket_shows_the_better_seed_on_top_of_the_final():
    ev, (_s1, s2, _s3, s4) = _to_final_after_upsets()
    ev = _play(ev, next_pairing(ev), lambda a, b: s4)  # seed 4 wins the final
    view = stage_view(ev, after_round=5)
    final = view["bracket"][-1][0]
    assert (final["top"], final["bottom"], final["winner"]) == (s2, s4, s4)
    assert final["score"] == [0, 20]  # the top line's total first


def test_the_better_seed_sitting_out_a_semi_final_is_out():
    """Seed 1 asks to sit out the semi-final: seed 4 rests through to the final, and seed 1
    does not come back in it."""
    ev, (s1, _s2, _s3, s4) = _after_groups()
    ev = replace(ev, bye_requests=[ByeRequest(entry=s1, round=4, match_points=0)])
    semi = next_pairing(ev)
    assert s4 in semi.rests and all(s1 not in t for t in semi.tables)
    ev = _play(ev, semi, min)
    seated = {e for t in next_pairing(ev).tables for e in t}
    assert s4 in seated and s1 not in seated
    assert _bracket(ev)[0][0].winner == s4
