"""Swiss options: Baku acceleration, prohibited pairings, late entries, requested byes."""

from __future__ import annotations

from dataclasses import replace

from scoring.pairing import history_from, pair_next_round, pair_round, virtual_points
from scoring.standings import compute_standings
from scoring.types import (
    BoardResult,
    ByeRequest,
    EventInput,
    LateEntry,
    PairHistory,
    PairingOptions,
    RoundInput,
    TableRound,
)


def event(n: int, **kwargs) -> EventInput:
    entries = list(range(1, n + 1))
    return EventInput(entries, {e: e for e in entries}, {}, [], seed="options", **kwargs)


def play(ev: EventInput, pairing, ns_wins=True) -> EventInput:
    number = len(ev.rounds) + 1
    tables = []
    for t, (ns, ew) in enumerate(pairing.tables, start=1):
        score = (10, 0) if ns_wins else (0, 10)
        tables.append(TableRound(number, t, ns, ew, [BoardResult(number, t, ns, ew, *score)]))
    rnd = RoundInput(number, [number], tables, pairing.bye)
    return replace(ev, rounds=[*ev.rounds, rnd])


def test_baku_group_a_is_the_first_half_rounded_up_to_an_even_number():
    # 10 competitors: 2 × ⌈10/4⌉ = 6 in group A (FIDE's own example: 161 players -> 82).
    assert sorted(virtual_points(order=list(range(1, 11)), round_number=1, rounds=5)) == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert len(virtual_points(order=list(range(161)), round_number=1, rounds=9)) == 82


def test_baku_points_a_win_then_a_draw_then_none():
    # 9 rounds: rounds 1-5 accelerated; a win's worth in rounds 1-3, a draw's in 4-5.
    got = [virtual_points(order=[1, 2], round_number=r, rounds=9).get(1, 0) for r in range(1, 10)]
    assert got == [2, 2, 2, 1, 1, 0, 0, 0, 0]


def test_acceleration_pairs_the_top_half_among_itself_in_round_two():
    """docs/scoring.md's example: 8 pairs by rating, 8 rounds, accelerated (group A = 1-4, 2
    virtual points in rounds 1 and 2). Round 1: 1v2, 3v4, 5v6, 7v8. Round 2: A's winners (2 + 2)
    meet each other, as do B's losers (0 + 0); A's losers and B's winners (both 2) meet across
    the groups."""
    ratings = {e: 2000 - 10 * e for e in range(1, 9)}
    accel = event(
        8, ratings=ratings, pairing=PairingOptions(rounds=8, seeding="rating", accelerated=True)
    )
    r1 = pair_next_round(accel)
    assert [frozenset(t) for t in r1.tables] == [
        frozenset(p) for p in ((1, 2), (3, 4), (5, 6), (7, 8))
    ]
    ev = play(accel, r1)
    winners = {t[0] for t in r1.tables}
    r2 = pair_next_round(ev)
    # Pairing scores in round 2: A winners 2+2=4, A losers 0+2=2, B winners 2+0=2, B losers 0.
    a_winners = winners & {1, 2, 3, 4}
    b_losers = {5, 6, 7, 8} - winners
    assert {frozenset(t) for t in r2.tables if set(t) <= a_winners} == {frozenset(a_winners)}
    assert {frozenset(t) for t in r2.tables if set(t) <= b_losers} == {frozenset(b_losers)}
    a_losers, b_winners = {1, 2, 3, 4} - winners, winners & {5, 6, 7, 8}
    assert all(len(set(t) & a_losers) == len(set(t) & b_winners) for t in r2.tables)
    # The standings never see virtual points.
    assert max(s.match_points for s in compute_standings(ev).standings) == 2


def test_named_pairs_never_meet():
    ev = event(4, forbidden=[(1, 2)])
    tables = {frozenset(t) for t in pair_next_round(ev).tables}
    assert frozenset((1, 2)) not in tables


def test_same_club_pairs_do_not_meet_in_the_first_rounds_only():
    clubs = {1: 10, 2: 10, 3: 20, 4: 20}
    ev = event(4, clubs=clubs, pairing=PairingOptions(club_rounds=1))
    r1 = pair_next_round(ev)
    assert all(clubs[a] != clubs[b] for a, b in r1.tables)
    # From round 2 on clubs no longer matter: with both cross-club meetings played, round 3
    # pairs club mates rather than make a rematch.
    ev = play(ev, r1)
    r2 = pair_next_round(ev)
    ev = play(ev, r2)
    r3 = pair_next_round(ev)
    assert {frozenset(t) for t in r3.tables} == {frozenset((1, 2)), frozenset((3, 4))}
    assert r3.rematches == []


def test_an_unavoidable_prohibited_meeting_is_made_and_reported():
    p = pair_round(ranked=[1, 2], history={}, round_number=1, forbidden=[(1, 2)])
    assert p.tables and p.rematches == p.tables


def test_a_same_club_meeting_is_preferred_to_a_rematch():
    # 1 and 3 have each met 2 and 4: either one rematch (1-2, 3-4) or two club meetings.
    history = {
        1: PairHistory(opponents=frozenset({2, 4})),
        3: PairHistory(opponents=frozenset({2, 4})),
        2: PairHistory(opponents=frozenset({1, 3})),
        4: PairHistory(opponents=frozenset({1, 3})),
    }
    clubs = {1: 7, 3: 7, 2: 8, 4: 8}
    p = pair_round(ranked=[1, 2, 3, 4], history=history, round_number=2, clubs=clubs)
    assert {frozenset(t) for t in p.tables} == {frozenset((1, 3)), frozenset((2, 4))}
    assert len(p.rematches) == 2  # both reported: prohibited in this round, made as the lesser evil


def test_late_entry_is_paired_from_its_round_with_its_starting_score():
    ev = event(5, late_entries=[LateEntry(entry=5, round=2, match_points=1)])
    r1 = pair_next_round(ev)
    assert 5 not in {e for t in r1.tables for e in t} and r1.bye is None
    ev = play(ev, r1)
    assert history_from(ev)[5].score == 1
    r2 = pair_next_round(ev)
    assert 5 in {e for t in r2.tables for e in t} or r2.bye == 5
    by_entry = {s.entry: s for s in compute_standings(ev).standings}
    assert by_entry[5].match_points == 1


def test_requested_bye_sits_the_round_out_and_scores_what_the_event_says():
    ev = event(5, bye_requests=[ByeRequest(entry=3, round=1, match_points=1)])
    r1 = pair_next_round(ev)
    assert 3 not in {e for t in r1.tables for e in t} and r1.bye is None
    ev = play(ev, r1)
    s = {x.entry: x for x in compute_standings(ev).standings}[3]
    assert (s.match_points, s.requested_byes, s.byes, s.wins) == (1, 1, 0, 0)
    # A requested bye is not a pairing bye: the pair can still get the bye later.
    assert history_from(ev)[3].byes == 0
