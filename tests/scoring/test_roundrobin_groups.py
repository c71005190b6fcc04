"""Round robin (Berger tables) and groups then knockout, on plain integer ids."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.groups import (
    GroupRow,
    bracket_places,
    group_stage,
    groups_plan,
    knockout_places,
    knockout_rounds,
    qualify,
    snake_groups,
)
from scoring.methods import next_pairing, planned_rounds
from scoring.pairing import initial_order
from scoring.presets import PRESETS
from scoring.roundrobin import berger_rounds, round_robin_schedule
from scoring.types import BoardResult, EventInput, PairingOptions, RoundInput, TableRound


def test_berger_table_for_six_is_fides():
    # FIDE Handbook C.05, annex 1 (Berger tables), 5 or 6 players.
    assert berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("n", range(2, 17))
@pytest.mark.parametrize("double", [False, True])
def test_everybody_meets_everybody_with_balanced_directions(n, double):
    schedule = round_robin_schedule(list(range(100, 100 + n)), double=double)
    meetings: dict[frozenset[int], list[tuple[int, int]]] = {}
    dirs: dict[int, str] = dict.fromkeys(range(100, 100 + n), "")
    for p in schedule:
        seated = [e for t in p.tables for e in t] + p.rests
        assert sorted(seated) == sorted(dirs)  # everyone plays or rests, once
        for ns, ew in p.tables:
            meetings.setdefault(frozenset((ns, ew)), []).append((ns, ew))
            dirs[ns] += "N"
            dirs[ew] += "E"
    assert len(meetings) == n * (n - 1) // 2
    for games in meetings.values():
        if double:
            assert len(games) == 2 and games[0] == games[1][::-1]  # home and away
        else:
            assert len(games) == 1
    for d in dirs.values():
        assert abs(d.count("N") - d.count("E")) <= 1
        assert "NNN" not in d and "EEE" not in d


def test_odd_field_each_competitor_rests_once():
    schedule = round_robin_schedule([1, 2, 3, 4, 5])
    assert sorted(e for p in schedule for e in p.rests) == [1, 2, 3, 4, 5]


def test_round_robin_over_fewer_rounds_than_the_field_needs():
    assert len(round_robin_schedule(list(range(8)), rounds=3)) == 3
    with pytest.raises(ValueError):
        round_robin_schedule(list(range(8)), rounds=8)


def test_snake_groups_share_the_seeds_and_differ_in_size_by_one_at_most():
    groups = snake_groups(list(range(1, 23)), size=4)
    assert len(groups) == 6 and sorted(len(g) for g in groups) == [3, 3, 4, 4, 4, 4]
    assert sorted(g[0] for g in groups) == [1, 2, 3, 4, 5, 6]  # one top seed per group


def test_group_stage_plays_each_group_round_robin_in_parallel():
    stage = group_stage([[1, 2, 3, 4], [5, 6, 7]])
    assert len(stage) == 3
    met = {frozenset(t) for p in stage for t in p.tables}
    assert met == {
        frozenset((a, b)) for g in ([1, 2, 3, 4], [5, 6, 7]) for a in g for b in g if a < b
    }


def row(entry, group, position, games, mp, pf=0, pa=0):
    return GroupRow(
        entry, group, position, games, mp, mp // 2, mp % 2, games - mp // 2 - mp % 2, pf, pa
    )


def test_repesca_compares_groups_of_different_sizes_per_game():
    # Group 1 has 4 (3 games each), group 2 has 3 (2 games each). Runners-up: 11 has 4 match
    # points in 3 games (1.33 a game), 21 has 2 in 2 (1.0), 12 has 2 in 3 (0.67): on totals
    # 12 and 21 would tie; per game 21 is ahead.
    tables = [
        [row(10, 1, 1, 3, 6), row(11, 1, 2, 3, 4), row(12, 1, 3, 3, 2), row(13, 1, 4, 3, 0)],
        [row(20, 2, 1, 2, 4), row(21, 2, 2, 2, 2), row(22, 2, 3, 2, 0)],
    ]
    q = qualify(tables, qualifiers=1, repesca=None, repesca_min_points=1)
    # Two winners make a bracket of 2: nobody needed from the repesca.
    assert q.seeds == [10, 20] and q.repesca == []
    assert [r.entry for r in q.candidates] == [11, 21, 12]  # 13 and 22 have no points
    q = qualify(tables, qualifiers=1, repesca=2, repesca_min_points=1)
    assert q.seeds == [10, 20, 11, 21]


def test_bracket_seeds_one_against_last_with_byes_for_the_top_seeds():
    places = bracket_places([1, 2, 3, 4, 5, 6], {})
    pairs = [(places[i], places[i + 1]) for i in range(0, 8, 2)]
    assert pairs == [(1, None), (4, 5), (2, None), (3, 6)]


def test_bracket_splits_a_same_group_first_round_meeting():
    # Seeds 1..4; 1 and 4 come from group A: 1 v 4 is swapped for 1 v 3.
    places = bracket_places([1, 2, 3, 4], {1: 0, 4: 0, 2: 1, 3: 2})
    assert places == [1, 3, 2, 4]


def event_with(n, seed="groups", **options) -> EventInput:
    entries = list(range(1, n + 1))
    return EventInput(
        entries,
        {e: e for e in entries},
        {},
        [],
        seed=seed,
        match_mode="game",
        game_target=None,
        game_cap=None,
        deal_limit=2,
        draw="tiebreak",
        tiebreak_deals=2,
        pairing=PairingOptions(**options),
    )


def play_lower_id_wins(ev: EventInput, pairing) -> EventInput:
    number = len(ev.rounds) + 1
    tables = []
    for t, (ns, ew) in enumerate(pairing.tables, start=1):
        win_ns = ns < ew
        results = [
            BoardResult(b, t, ns, ew, 10 if win_ns else 0, 0 if win_ns else 10) for b in (1, 2)
        ]
        tables.append(TableRound(number, t, ns, ew, results))
    return replace(ev, rounds=[*ev.rounds, RoundInput(number, [1, 2], tables, None, pairing.rests)])


def test_groups_then_knockout_to_a_single_winner():
    """10 pairs, groups of 4 (3 groups: 3, 3, 4), the winners plus one repesca make a bracket
    of 4; the lowest id always wins, so pair 1 wins the event."""
    ev = event_with(10, method="groups", group_size=4, qualifiers=1, repesca=None)
    rounds = planned_rounds(ev)
    assert rounds == 3 + 2
    for _ in range(rounds):
        ev = play_lower_id_wins(ev, next_pairing(ev))
    final = ev.rounds[-1].tables
    assert len(final) == 1 and 1 in (final[0].ns, final[0].ew)
    with pytest.raises(ValueError):
        next_pairing(ev)


def test_level_knockout_game_after_the_tiebreak_deals_goes_to_the_better_seed():
    # 4 pairs in 2 groups of 2; the group winners meet in the final and draw every board.
    ev = event_with(4, method="groups", group_size=2)
    ev = play_lower_id_wins(ev, next_pairing(ev))
    ko = next_pairing(ev)
    ((top, bottom),) = ko.tables
    level = [BoardResult(b, 1, top, bottom, 0, 0) for b in (1, 2, 3, 4)]
    ev = replace(
        ev, rounds=[*ev.rounds, RoundInput(2, [1, 2, 3, 4], [TableRound(2, 1, top, bottom, level)])]
    )
    order = initial_order(ev)
    plan = groups_plan(ev, order)
    ((final,),) = knockout_rounds(ev, plan, knockout_places(ev, plan, order))
    assert final.winner == top
    assert order.index(top) < order.index(bottom)  # the better seed, as seeded by the lot


def test_girona_keeps_a_pair_with_fewer_points_than_a_win_out_of_the_repesca():
    # Three groups of two: 11 and 21 lost, 30 and 31 drew (a level game after the tie-break
    # deals, 1 match point each; 30 is first on the lot). One repesca place fills the bracket.
    tables = [
        [row(10, 1, 1, 1, 2), row(11, 1, 2, 1, 0)],
        [row(20, 2, 1, 1, 2), row(21, 2, 2, 1, 0)],
        [row(30, 3, 1, 1, 1), row(31, 3, 2, 1, 1)],
    ]
    girona = PRESETS["girona_groups"].pairing
    q = qualify(
        tables,
        qualifiers=girona.qualifiers,
        repesca=girona.repesca,
        repesca_min_points=girona.repesca_min_points,
    )
    assert q.repesca == [] and q.candidates == []
    # With a single point allowed, the drawing runner-up would have gone through.
    assert qualify(tables, qualifiers=1, repesca=None, repesca_min_points=1).repesca == [31]


def test_planned_rounds_leave_out_repesca_places_nobody_can_earn():
    """Groups of 2 with 1 qualifier: the loser of a group plays one game and is not first, so
    it has at most 1 match point (a draw). A repesca of 2 at 2 match points at least can take
    nobody: 2 places, one knockout round (the final), not two."""
    ev = event_with(4, method="groups", group_size=2, qualifiers=1, repesca=2, repesca_min_points=2)
    assert planned_rounds(ev) == 1 + 1
    for _ in range(2):
        ev = play_lower_id_wins(ev, next_pairing(ev))
    with pytest.raises(ValueError, match="knockout is over"):
        next_pairing(ev)
    # At 1 match point a drawn loser could come through: the places stay planned.
    reachable = event_with(
        4, method="groups", group_size=2, qualifiers=1, repesca=2, repesca_min_points=1
    )
    assert planned_rounds(reachable) == 1 + 2
