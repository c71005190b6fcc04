"""Team event standings: VPs, the tiebreak chains of Swiss and round robin, byes, shared ranks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.lots import lot_order
from scoring.ranking import head_to_head_blocks
from scoring.scale import EDGES
from scoring.team_standings import TeamEventError, compute_team_standings
from scoring.team_types import TeamEventInput, TeamMatchInput, TeamRoundInput
from scoring.types import BoardResult

BOARDS = [1, 2, 3, 4]  # over four boards the blitz is 8 × √4 = 16 units


def diff_for(units: int) -> int:
    """The smallest difference in points worth ``units`` (signed)."""
    return 0 if units == 0 else (1 if units > 0 else -1) * EDGES[abs(units) - 1]


def tm(rnd: int, no: int, a: int, b: int, *units: int) -> TeamMatchInput:
    """A match whose boards give team A these units (closed room: all passed out at 0)."""
    open_room, closed_room = [], []
    for board, u in zip(BOARDS, units, strict=False):
        d = diff_for(u)
        open_room.append(BoardResult(board, 2 * no - 1, 10 * a, 10 * b, max(d, 0), max(-d, 0)))
        closed_room.append(BoardResult(board, 2 * no, 10 * b + 1, 10 * a + 1, 0, 0))
    return TeamMatchInput(rnd, no, a, b, BOARDS, open_room, closed_room)


def event(rounds, *, teams=(1, 2, 3, 4), **options) -> TeamEventInput:
    return TeamEventInput(
        teams=list(teams),
        numbers={t: t for t in teams},
        withdrawn=options.pop("withdrawn", {}),
        rounds=[
            TeamRoundInput(number, list(matches), bye)
            for number, (matches, bye) in enumerate(rounds, start=1)
        ],
        **options,
    )


def by_team(result):
    return {s.team: s for s in result.standings}


def test_vps_units_and_results_add_up_over_rounds():
    # R1: 1 beats 2 by 16 units (blitz: 20–0); 3 and 4 draw 10–10.
    # R2: 1 loses to 3 by 2 units: τ^(6/16) -> 12.16 to 3, 7.84 to 1; 2 beats 4 by 16.
    result = compute_team_standings(
        event(
            [
                ([tm(1, 1, 1, 2, 16), tm(1, 2, 3, 4, 0)], None),
                ([tm(2, 1, 3, 1, 2), tm(2, 2, 2, 4, 16)], None),
            ]
        )
    )
    s = by_team(result)
    assert [s[t].vp for t in (1, 2, 3, 4)] == [27.84, 20.0, 22.16, 10.0]
    assert (s[1].wins, s[1].draws, s[1].losses, s[1].matches) == (1, 0, 1, 2)
    assert (s[3].wins, s[3].draws, s[3].losses) == (1, 1, 0)
    assert (s[1].units_for, s[1].units_against, s[1].units_diff) == (16, 2, 14)
    # Buchholz: the sum of the opponents' VPs. Team 1 met 2 (20) and 3 (22.16).
    assert s[1].buchholz == 42.16
    assert [(x.team, x.rank) for x in result.standings] == [(1, 1), (3, 2), (2, 3), (4, 4)]
    assert len(result.matches) == 4 and result.after_round == 2


def test_standings_after_an_earlier_round():
    data = event(
        [
            ([tm(1, 1, 1, 2, 16), tm(1, 2, 3, 4, 0)], None),
            ([tm(2, 1, 3, 1, 2), tm(2, 2, 2, 4, 16)], None),
        ]
    )
    s = by_team(compute_team_standings(data, after_round=1))
    assert [s[t].vp for t in (1, 2, 3, 4)] == [20.0, 0.0, 10.0, 10.0]


def test_swiss_unit_difference_breaks_a_tie_on_vps():
    # Teams 1 and 2 both win one blitz and lose one: 20 VPs each. 1 wins by 16 and loses by 16
    # (difference 0); 2 wins by 21 and loses by 16 (difference +5): 2 is ahead.
    result = compute_team_standings(
        event(
            [
                ([tm(1, 1, 1, 3, 16), tm(1, 2, 2, 4, 21), tm(1, 3, 5, 6, 0)], None),
                ([tm(2, 1, 1, 5, -16), tm(2, 2, 2, 6, -16), tm(2, 3, 3, 4, 0)], None),
            ],
            teams=(1, 2, 3, 4, 5, 6),
        )
    )
    s = by_team(result)
    assert s[1].vp == s[2].vp == 20
    assert s[2].rank < s[1].rank


def test_swiss_units_won_break_a_tie_on_vps_and_difference():
    # Both +16 then −16; team 2's win was 20–4 (units won 20 + 0), team 1's 16–0.
    result = compute_team_standings(
        event(
            [
                ([tm(1, 1, 1, 3, 16), tm(1, 2, 2, 4, 20, -4), tm(1, 3, 5, 6, 0)], None),
                ([tm(2, 1, 1, 5, -16), tm(2, 2, 2, 6, -16), tm(2, 3, 3, 4, 0)], None),
            ],
            teams=(1, 2, 3, 4, 5, 6),
        )
    )
    s = by_team(result)
    assert (s[1].vp, s[1].units_diff) == (s[2].vp, s[2].units_diff) == (20, 0)
    assert (s[1].units_for, s[2].units_for) == (16, 20)
    assert s[2].rank < s[1].rank


def test_swiss_buchholz_breaks_a_tie_and_equal_teams_share_a_rank():
    # 1 beats 3 and 2 beats 4 by the same margin; 3 then beats 5, 4 and 6 draw:
    # 1's opponent has more VPs than 2's.
    rounds = [
        ([tm(1, 1, 1, 3, 16), tm(1, 2, 2, 4, 16), tm(1, 3, 5, 6, 0)], None),
        ([tm(2, 1, 3, 5, 16), tm(2, 2, 4, 6, 0)], None),
    ]
    s = by_team(compute_team_standings(event(rounds, teams=(1, 2, 3, 4, 5, 6))))
    assert s[1].vp == s[2].vp and s[1].units_diff == s[2].units_diff
    assert s[1].buchholz > s[2].buchholz and s[1].rank < s[2].rank
    # Without round 2 they are equal on everything: one rank, lot order on the page.
    result = compute_team_standings(event(rounds[:1], teams=(1, 2, 3, 4, 5, 6)))
    top = [x for x in result.standings if x.team in (1, 2)]
    assert [x.rank for x in top] == [1, 1]
    lot = lot_order({t: t for t in (1, 2, 3, 4, 5, 6)}, "")
    assert [x.team for x in top] == [t for t in lot if t in (1, 2)]


def test_round_robin_head_to_head_among_three_tied_teams():
    # Five teams, one match a round. A=1, B=2, C=3 end on 30 VPs each; D=4 on 40, E=5 on 70.
    # Among A, B and C: A beat B 20–0 and drew C; B drew C: A 30, C 20, B 10.
    matches = [
        tm(1, 1, 1, 2, 16),  # A 20 B 0
        tm(2, 1, 1, 3, 0),  # A 10 C 10
        tm(3, 1, 2, 3, 0),  # B 10 C 10
        tm(4, 1, 1, 4, -16),  # A 0 D 20
        tm(5, 1, 1, 5, -16),  # A 0 E 20
        tm(6, 1, 2, 4, 16),  # B 20 D 0
        tm(7, 1, 2, 5, -16),  # B 0 E 20
        tm(8, 1, 3, 4, 0),  # C 10 D 10
        tm(9, 1, 3, 5, -16),  # C 0 E 20
        tm(10, 1, 4, 5, 0),  # D 10 E 10
    ]
    data = event(
        [([m], None) for m in matches], teams=(1, 2, 3, 4, 5), ranking_method="round_robin"
    )
    result = compute_team_standings(data)
    s = by_team(result)
    assert [s[t].vp for t in (1, 2, 3, 4, 5)] == [30, 30, 30, 40, 70]
    assert [x.team for x in result.standings] == [5, 4, 1, 3, 2]
    assert [x.rank for x in result.standings] == [1, 2, 3, 4, 5]
    # The Swiss chain has no head-to-head: A, B and C all have a unit difference of −16; A and B
    # won 16 units each and have the same Buchholz (170): they share 3rd place, C is 5th.
    swiss = compute_team_standings(event([([m], None) for m in matches], teams=(1, 2, 3, 4, 5)))
    assert [(x.team, x.rank) for x in swiss.standings if x.team in (1, 2, 3)][-1] == (3, 5)
    assert {x.team: x.rank for x in swiss.standings}.items() >= {1: 3, 2: 3}.items()


def test_round_robin_head_to_head_that_separates_nobody_falls_to_the_unit_difference():
    # A cycle: A beats B, B beats C, C beats A, all 20–0, and nobody else. 20 VPs each,
    # 20 each among themselves. Unit differences: A +16 − 16 = 0, B +20 − 16 = +4, C +16 − 20 = −4.
    matches = [tm(1, 1, 1, 2, 16), tm(2, 1, 2, 3, 20), tm(3, 1, 3, 1, 16)]
    result = compute_team_standings(
        event([([m], None) for m in matches], teams=(1, 2, 3), ranking_method="round_robin")
    )
    assert [x.team for x in result.standings] == [2, 1, 3]


def test_head_to_head_is_reapplied_to_the_block_still_tied():
    # A mini-table where 1 is ahead among {1, 2, 3}, 2 and 3 are level, and 3 beat 2 when
    # only their own match counts.
    def mini(group):
        if set(group) == {1, 2, 3}:
            return {1: (-2,), 2: (-1,), 3: (-1,)}
        assert set(group) == {2, 3}
        return {2: (0,), 3: (-1,)}

    assert head_to_head_blocks([1, 2, 3], mini) == [[1], [3], [2]]


def test_a_bye_scores_the_chosen_vps_and_no_match():
    rounds = [([tm(1, 1, 1, 2, 0)], 3)]
    s = by_team(compute_team_standings(event(rounds, teams=(1, 2, 3))))
    assert (s[3].vp, s[3].byes, s[3].matches, s[3].units_for) == (12.0, 1, 0, 0)
    s = by_team(compute_team_standings(event(rounds, teams=(1, 2, 3), bye_vp=10.5)))
    assert s[3].vp == 10.5
    # The bye adds nothing to the opponents' Buchholz.
    assert s[1].buchholz == s[2].vp


def test_withdrawn_team_keeps_its_results_flagged():
    rounds = [([tm(1, 1, 1, 2, 5), tm(1, 2, 3, 4, 0)], None), ([tm(2, 1, 1, 3, 0)], None)]
    s = by_team(compute_team_standings(event(rounds, withdrawn={2: 1})))
    assert s[2].withdrawn and s[2].matches == 1
    s = by_team(compute_team_standings(event(rounds, withdrawn={2: 1}), after_round=0))
    assert not s[2].withdrawn


def test_bad_events_are_rejected_with_a_reason():
    with pytest.raises(TeamEventError, match="team 9 is not in the event"):
        compute_team_standings(event([([tm(1, 1, 1, 9, 0)], None)]))
    with pytest.raises(TeamEventError, match="plays twice"):
        compute_team_standings(event([([tm(1, 1, 1, 2, 0), tm(1, 2, 1, 3, 0)], None)]))
    with pytest.raises(TeamEventError, match="has a bye and a match"):
        compute_team_standings(event([([tm(1, 1, 1, 2, 0)], 1)]))
    with pytest.raises(TeamEventError, match="unknown ranking method"):
        compute_team_standings(event([], ranking_method="elo"))
    with pytest.raises(TeamEventError, match="0 to 20"):
        compute_team_standings(event([], bye_vp=25))
    with pytest.raises(TeamEventError, match="duplicate team"):
        compute_team_standings(event([], teams=(1, 1)))


@given(
    st.lists(
        st.lists(st.integers(min_value=-24, max_value=24), min_size=4, max_size=4),
        min_size=2,
        max_size=2,
    ),
    st.sampled_from(["swiss", "round_robin"]),
)
@settings(max_examples=100, deadline=None)
def test_vps_handed_out_add_up_and_ranks_follow_vps(units, method):
    rounds = [([tm(1, 1, 1, 2, *units[0]), tm(1, 2, 3, 4, *units[1])], 5)]
    result = compute_team_standings(event(rounds, teams=(1, 2, 3, 4, 5), ranking_method=method))
    assert round(sum(s.vp for s in result.standings), 2) == 2 * 20 + 12
    ranks = [s.rank for s in result.standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    vps = [s.vp for s in result.standings]
    assert vps == sorted(vps, reverse=True)
