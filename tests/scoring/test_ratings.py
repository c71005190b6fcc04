"""Player ratings (scoring.ratings): recomputation equals incremental, the update's direction,
partnership-awareness, the input built from an event, and that the ratings predict."""

from __future__ import annotations

import math
import random
from datetime import date

import pytest

from scoring.ratings import (
    DEFAULT_PARAMS,
    BoardLine,
    OutOfOrderError,
    RatedBoard,
    RatedMatch,
    Rating,
    RatingEvent,
    RatingInputError,
    RatingParams,
    RatingState,
    expected_pct,
    pair_strength,
    rate_event,
    rate_history,
    rating_event_from_input,
    replay_history,
)
from scoring.simulation import kendall_tau, synthetic_club, win_rates
from scoring.types import BoardResult, EventInput, RoundInput, TableRound

MU0, SIGMA0 = DEFAULT_PARAMS.mu, DEFAULT_PARAMS.sigma
DAY = date(2026, 1, 13)


@pytest.fixture(scope="module")
def club_events():
    club = synthetic_club(players=60, events=24, pairs_per_event=8, seed=5)
    return [
        rating_event_from_input(e.input, event=e.event, when=e.when, lineups=e.lineups)
        for e in club.events
    ]


def _board(*lines: tuple[tuple[int, int], tuple[int, int], int], board: int = 1) -> RatedBoard:
    return RatedBoard(board=board, lines=tuple(BoardLine(ns, ew, net) for ns, ew, net in lines))


def _one_board_event(*lines, event: int = 1) -> RatingEvent:
    return RatingEvent(event=event, when=DAY, boards=(_board(*lines),))


def _stored(state: RatingState) -> RatingState:
    """The state as the database keeps it: plain numbers per player, rebuilt."""
    rows = {p: (r.mu, r.sigma, r.events, r.boards) for p, r in state.ratings.items()}
    return RatingState(
        ratings={p: Rating(*row) for p, row in rows.items()}, last=state.last, events=state.events
    )


# Recomputation from scratch and incremental updates are one computation.


def test_incremental_updates_equal_recomputation_from_scratch(club_events):
    state = RatingState()
    for event in club_events:
        state = _stored(rate_event(state=state, event=event))
    assert state == rate_history(club_events)
    assert state.events == len(club_events)


def test_history_continued_from_a_stored_state_equals_the_whole_history(club_events):
    head = _stored(rate_history(club_events[:10]))
    assert rate_history(club_events[10:], start=head) == rate_history(club_events)


def test_history_order_is_by_date_then_event_not_by_input_order(club_events):
    shuffled = club_events[:]
    random.Random(3).shuffle(shuffled)
    assert rate_history(shuffled) == rate_history(club_events)


def test_replay_gives_the_state_after_each_event(club_events):
    steps = list(replay_history(club_events[:5]))
    assert [e.event for e, _ in steps] == [e.event for e in club_events[:5]]
    assert steps[-1][1] == rate_history(club_events[:5])
    assert [s.events for _, s in steps] == [1, 2, 3, 4, 5]


def test_the_same_event_twice_is_refused(club_events):
    state = rate_history(club_events[:3])
    with pytest.raises(OutOfOrderError):
        rate_event(state=state, event=club_events[2])
    with pytest.raises(RatingInputError):
        rate_history([club_events[0], club_events[0]])


def test_an_event_older_than_the_last_rated_is_refused(club_events):
    state = rate_history(club_events[3:6])
    with pytest.raises(OutOfOrderError):
        rate_event(state=state, event=club_events[1])


def test_two_runs_give_identical_ratings(club_events):
    assert rate_history(club_events) == rate_history(list(club_events))


# The update on one board.


def test_winning_line_gains_for_ns_and_loses_for_ew_by_symmetry():
    # Table 1: 1-2 (NS) v 3-4 (EW) scores +10; table 2: 5-6 v 7-8 scores -10. All new players:
    # the two lines are equal beforehand, so every player moves by the same amount.
    state = rate_event(
        state=RatingState(), event=_one_board_event(((1, 2), (3, 4), 10), ((5, 6), (7, 8), -10))
    )
    up = state.ratings[1].mu - MU0
    assert up > 0
    assert state.ratings[2].mu - MU0 == pytest.approx(up)
    for p in (3, 4, 5, 6):
        assert state.ratings[p].mu - MU0 == pytest.approx(-up)
    for p in (7, 8):
        assert state.ratings[p].mu - MU0 == pytest.approx(up)
    assert all(r.sigma < SIGMA0 for r in state.ratings.values())
    assert all(r.boards == 1 and r.events == 1 for r in state.ratings.values())


def test_a_tie_between_equal_lines_moves_no_rating():
    state = rate_event(
        state=RatingState(), event=_one_board_event(((1, 2), (3, 4), 6), ((5, 6), (7, 8), 6))
    )
    assert all(r.mu == pytest.approx(MU0) for r in state.ratings.values())


def test_a_two_table_win_matches_the_documented_formula():
    # docs/clubs.md: with everyone new, p = 1/2 and the winning NS players gain σ²·(1 − ½)/c
    # with c = √(8σ² + 2β²) (λ = 2/T = 1), and their variance shrinks by σ²·γ·¼/c², γ = 2σ/c.
    params = RatingParams(tau=0.0)
    state = rate_event(
        state=RatingState(),
        event=_one_board_event(((1, 2), (3, 4), 10), ((5, 6), (7, 8), -10)),
        params=params,
    )
    s2 = params.sigma**2
    c = math.sqrt(8 * s2 + 2 * params.beta**2)
    assert state.ratings[1].mu == pytest.approx(params.mu + s2 * 0.5 / c)
    gamma = 2 * params.sigma / c
    assert state.ratings[1].sigma ** 2 == pytest.approx(s2 * (1 - s2 * gamma * 0.25 / c**2))


def test_worked_example_of_the_favourites_winning_gives_the_documented_ratings():
    # docs/clubs.md 1.2, example 2, computed by hand: m = 11, V = 146.44, c = 40.92, p = 0.567.
    start = RatingState(ratings={1: Rating(30, 4), 2: Rating(28, 5), 3: Rating(22, 6)})
    state = rate_event(
        state=start, event=_one_board_event(((1, 2), (3, 4), 10), ((5, 6), (7, 8), -10))
    )
    got = [round(state.ratings[p].mu, 2) for p in (1, 2, 3, 4)]
    assert got == [30.17, 28.26, 21.62, 24.26]


def test_a_win_with_a_strong_partner_earns_less_than_with_a_weak_one():
    # Player 1 wins the same board once with a strong partner (2), once with a weak one (3):
    # the strong partnership was expected to win, so the win says less about player 1.
    start = RatingState(
        ratings={2: Rating(mu=MU0 + 8, sigma=2.0), 3: Rating(mu=MU0 - 8, sigma=2.0)}
    )
    lines = (((4, 5), (6, 7), -4), ((8, 9), (10, 11), 0))
    strong = rate_event(state=start, event=_one_board_event(((1, 2), (12, 13), 12), *lines))
    weak = rate_event(state=start, event=_one_board_event(((1, 3), (12, 13), 12), *lines))
    assert 0 < strong.ratings[1].mu - MU0 < weak.ratings[1].mu - MU0


def test_beating_strong_opponents_earns_more_than_beating_weak_ones():
    strong = RatingState(ratings={3: Rating(MU0 + 6, 2.0), 4: Rating(MU0 + 6, 2.0)})
    weak = RatingState(ratings={3: Rating(MU0 - 6, 2.0), 4: Rating(MU0 - 6, 2.0)})
    event = _one_board_event(((1, 2), (3, 4), 8), ((5, 6), (7, 8), 0))
    assert (
        rate_event(state=strong, event=event).ratings[1].mu
        > rate_event(state=weak, event=event).ratings[1].mu
    )


def test_one_lines_evidence_does_not_grow_with_the_field():
    # A line that tops a board among 4 tables or among 40 tables (everyone new) moves about as
    # much: the T − 1 comparisons share the line's single result (λ = 2/T).
    def top_gain(tables: int) -> float:
        lines = [((4 * t + 1, 4 * t + 2), (4 * t + 3, 4 * t + 4), -t) for t in range(tables)]
        return rate_event(state=RatingState(), event=_one_board_event(*lines)).ratings[1].mu - MU0

    small, large = top_gain(4), top_gain(40)
    assert 0.5 < large / small < 2.0


def test_dynamics_raise_uncertainty_but_never_above_a_new_players():
    params = RatingParams(tau=1.0)
    start = RatingState(ratings={1: Rating(MU0, 3.0), 5: Rating(MU0, SIGMA0)})
    # A tie between equal lines: only the dynamics and the (small) board shrink act.
    state = rate_event(
        state=start, event=_one_board_event(((1, 2), (3, 4), 0), ((5, 6), (7, 8), 0)), params=params
    )
    assert state.ratings[5].sigma <= SIGMA0
    no_tau = rate_event(
        state=start,
        event=_one_board_event(((1, 2), (3, 4), 0), ((5, 6), (7, 8), 0)),
        params=RatingParams(tau=0.0),
    )
    assert state.ratings[1].sigma > no_tau.ratings[1].sigma


def test_a_won_match_raises_the_winners_and_lowers_the_losers():
    event = RatingEvent(event=1, when=DAY, matches=(RatedMatch((1, 2), (3, 4), mp_ns=0),))
    state = rate_event(state=RatingState(), event=event)
    assert state.ratings[1].mu < MU0 < state.ratings[3].mu
    assert state.ratings[1].boards == 0 and state.ratings[1].events == 1
    drawn = rate_event(
        state=RatingState(),
        event=RatingEvent(event=1, when=DAY, matches=(RatedMatch((1, 2), (3, 4), mp_ns=1),)),
    )
    assert drawn.ratings[1].mu == pytest.approx(MU0)


def test_players_not_in_the_event_keep_their_rating():
    start = RatingState(ratings={99: Rating(31.0, 4.0, events=3, boards=40)})
    state = rate_event(
        state=start, event=_one_board_event(((1, 2), (3, 4), 1), ((5, 6), (7, 8), 0))
    )
    assert state.ratings[99] == start.ratings[99]


def test_a_player_at_two_tables_of_a_board_is_refused():
    with pytest.raises(RatingInputError):
        rate_event(
            state=RatingState(), event=_one_board_event(((1, 2), (3, 4), 1), ((1, 6), (7, 8), 0))
        )


def test_a_player_on_both_sides_is_refused():
    with pytest.raises(RatingInputError):
        rate_event(
            state=RatingState(), event=_one_board_event(((1, 2), (2, 4), 1), ((5, 6), (7, 8), 0))
        )


def test_match_points_other_than_2_1_0_are_refused():
    event = RatingEvent(event=1, when=DAY, matches=(RatedMatch((1, 2), (3, 4), mp_ns=3),))
    with pytest.raises(RatingInputError):
        rate_event(state=RatingState(), event=event)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError):
        RatingParams(beta=0.0)


def test_expected_percentage_is_fifty_for_a_new_player_and_grows_with_the_rating():
    assert expected_pct(Rating(MU0, SIGMA0)) == pytest.approx(50.0)
    assert 50 < expected_pct(Rating(MU0 + 5, 1.0)) < expected_pct(Rating(MU0 + 10, 1.0)) < 100


def test_pair_strength_adds_the_players_and_their_variances():
    state = RatingState(ratings={1: Rating(30.0, 3.0)})
    mu, sigma = pair_strength((1, 2), state=state)
    assert mu == pytest.approx(30.0 + MU0)
    assert sigma == pytest.approx(math.sqrt(9.0 + SIGMA0**2))


# The rating input built from an event's standings input.


def _table(rnd, table, ns, ew, nets, adjusted=()):
    results = []
    for board, net in nets.items():
        adj = ("avg_plus", "avg_minus") if board in adjusted else (None, None)
        results.append(BoardResult(board, table, ns, ew, max(net, 0), max(-net, 0), *adj))
    return TableRound(rnd, table, ns, ew, results)


LINEUPS = {10: (1, 2), 11: (3, 4), 12: (5, 6), 13: (7, 8)}


def test_built_input_compares_each_board_and_leaves_out_adjusted_scores():
    data = EventInput(
        entries=[10, 11, 12, 13],
        numbers={10: 1, 11: 2, 12: 3, 13: 4},
        withdrawn={},
        rounds=[
            RoundInput(
                1,
                [1, 2],
                [
                    _table(1, 1, 10, 11, {1: 8, 2: -4}),
                    _table(1, 2, 12, 13, {1: 2, 2: 20}, adjusted={2}),
                ],
            )
        ],
    )
    built = rating_event_from_input(data, event=7, when=DAY, lineups=LINEUPS)
    assert built.event == 7 and built.when == DAY
    assert [b.board for b in built.boards] == [1]  # board 2 has one played result left
    assert built.boards[0].lines == (
        BoardLine((1, 2), (3, 4), 8),
        BoardLine((5, 6), (7, 8), 2),
    )
    assert built.matches == ()


def test_built_input_uses_the_match_when_no_board_can_be_compared():
    data = EventInput(
        entries=[10, 11],
        numbers={10: 1, 11: 2},
        withdrawn={},
        rounds=[RoundInput(1, [1, 2], [_table(1, 1, 10, 11, {1: 8, 2: -20})])],
    )
    built = rating_event_from_input(data, event=1, when=DAY, lineups=LINEUPS)
    assert built.boards == ()
    assert built.matches == (RatedMatch((1, 2), (3, 4), mp_ns=0),)


def test_built_input_rates_no_forfeited_match_but_compares_its_played_boards():
    """docs/clubs.md: a forfeit is won as a bye is, and byes change no rating; the NS pair
    that withdrew was ahead on the boards played, which must not rate it as the winner."""
    one_table = EventInput(
        entries=[10, 11],
        numbers={10: 1, 11: 2},
        withdrawn={10: 1},
        rounds=[RoundInput(1, [1, 2], [TableRound(1, 1, 10, 11, [], forfeited_by="NS")])],
    )
    one_table.rounds[0].tables[0].results.append(BoardResult(1, 1, 10, 11, 30, 0, None, None))
    built = rating_event_from_input(one_table, event=1, when=DAY, lineups=LINEUPS)
    assert built.boards == () and built.matches == ()
    two_tables = EventInput(
        entries=[10, 11, 12, 13],
        numbers={10: 1, 11: 2, 12: 3, 13: 4},
        withdrawn={10: 1},
        rounds=[
            RoundInput(
                1,
                [1, 2],
                [
                    TableRound(1, 1, 10, 11, _table(1, 1, 10, 11, {1: 8}).results, None, "NS"),
                    _table(1, 2, 12, 13, {1: 2, 2: 20}),
                ],
            )
        ],
    )
    built = rating_event_from_input(two_tables, event=1, when=DAY, lineups=LINEUPS)
    assert [b.board for b in built.boards] == [1] and built.matches == ()


def test_built_input_in_game_mode_ignores_boards_after_the_target():
    data = EventInput(
        entries=[10, 11, 12, 13],
        numbers={10: 1, 11: 2, 12: 3, 13: 4},
        withdrawn={},
        rounds=[
            RoundInput(
                1,
                [1, 2],
                [
                    _table(1, 1, 10, 11, {1: 110, 2: 5}),  # the game ends after board 1
                    _table(1, 2, 12, 13, {1: 30, 2: 40}),
                ],
            )
        ],
        match_mode="game",
    )
    built = rating_event_from_input(data, event=1, when=DAY, lineups=LINEUPS)
    assert [b.board for b in built.boards] == [1]


def test_built_input_seats_the_substitute_for_the_round():
    data = EventInput(
        entries=[10, 11, 12, 13],
        numbers={10: 1, 11: 2, 12: 3, 13: 4},
        withdrawn={},
        rounds=[
            RoundInput(1, [1], [_table(1, 1, 10, 11, {1: 8}), _table(1, 2, 12, 13, {1: 2})]),
            RoundInput(2, [2], [_table(2, 1, 10, 12, {2: 8}), _table(2, 2, 11, 13, {2: 2})]),
        ],
    )
    built = rating_event_from_input(
        data, event=1, when=DAY, lineups=LINEUPS, substitutes={(2, 10): (1, 9)}
    )
    assert built.boards[0].lines[0].ns == (1, 2)
    assert built.boards[1].lines[0].ns == (1, 9)


def test_built_input_without_a_line_up_is_refused():
    data = EventInput(
        entries=[10, 14],
        numbers={10: 1, 14: 2},
        withdrawn={},
        rounds=[RoundInput(1, [1], [_table(1, 1, 10, 14, {1: 8})])],
    )
    with pytest.raises(RatingInputError):
        rating_event_from_input(data, event=1, when=DAY, lineups=LINEUPS)


# The ratings predict: a synthetic club with known strengths.


def test_ratings_order_players_closer_to_their_true_strength_than_the_win_rate():
    # 300 players changing partners, 150 evenings of 20 pairs (4 rounds of 6 boards, Swiss).
    # Over seeds 2020-2027 the rating's tau beats the win rate's by 0.06 to 0.13 (0.079 here).
    club = synthetic_club(players=300, events=150, pairs_per_event=20, seed=2026)
    state = rate_history(
        rating_event_from_input(e.input, event=e.event, when=e.when, lineups=e.lineups)
        for e in club.events
    )
    rates = win_rates(club)
    players = sorted(rates)
    truth = [club.skills[p] for p in players]
    tau_rating = kendall_tau(truth, [state.ratings[p].mu for p in players])
    tau_winrate = kendall_tau(truth, [rates[p] for p in players])
    assert tau_rating > tau_winrate + 0.04
    assert tau_rating > 0.7


def test_kendall_tau_counts_ties_as_tau_b():
    # x has one tied pair: 5 concordant, 0 discordant, 1 tie in x of 6 pairs.
    assert kendall_tau([1, 1, 2, 3], [1, 2, 3, 4]) == pytest.approx(5 / math.sqrt(5 * 6))
