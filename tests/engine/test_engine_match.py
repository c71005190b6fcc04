"""Games under the events' match rules: target, deal limit, time, cap, draws (R12 + options)."""

from __future__ import annotations

import pytest

from engine.match import OPEN_SWISS, MatchRules, Partida


def play(game: Partida, deals: list[tuple[int, int]]) -> Partida:
    for ns, ew in deals:
        game.add({"NS": ns, "EW": ew})
    return game


def test_target_reached_before_the_deal_limit_ends_the_game_r12() -> None:
    """R12: 60 + 45 = 105 ≥ 101 after deal 2, long before 12 deals."""
    game = play(Partida.new(OPEN_SWISS), [(60, 0), (45, 0)])
    assert (game.winner, game.ended_by, game.deals) == ("NS", "target", 2)


def test_deal_limit_reached_first_the_pair_ahead_wins_r12() -> None:
    """12 deals, nobody at 101: EW ahead 48 to 40 wins at the limit."""
    deals = [(10, 0), (0, 12)] * 4 + [(0, 0)] * 4
    game = play(Partida.new(OPEN_SWISS), deals)
    assert game.scores == {"NS": 40, "EW": 48}
    assert (game.winner, game.ended_by, game.deals) == ("EW", "deal_limit", 12)
    with pytest.raises(ValueError):
        game.add({"NS": 1, "EW": 0})


def test_time_called_first_finishes_the_deal_in_progress_and_no_new_deal_starts() -> None:
    """Time is called during deal 5: deal 5 counts, the pair ahead after it wins."""
    game = play(Partida.new(OPEN_SWISS), [(20, 0), (0, 8), (12, 0), (0, 30)])
    game.call_time()
    assert not game.finished
    game.add({"NS": 0, "EW": 4})
    assert (game.winner, game.ended_by, game.deals, game.scores) == (
        "EW",
        "time",
        5,
        {"NS": 32, "EW": 42},
    )


def test_time_called_between_deals_ends_the_game_at_once() -> None:
    game = play(Partida.new(OPEN_SWISS), [(20, 0)])
    game.call_time(deal_in_progress=False)
    assert (game.winner, game.ended_by, game.deals) == ("NS", "time", 1)


def test_time_as_an_input_is_the_same_as_calling_it() -> None:
    deals = [(20, 0), (0, 8), (12, 0), (0, 30), (0, 4)]
    called = Partida.new(OPEN_SWISS)
    play(called, deals[:4])
    called.call_time()
    play(called, deals[4:])
    given = play(Partida.new(OPEN_SWISS, time_after=5), deals)
    assert (given.winner, given.ended_by, given.scores) == (
        called.winner,
        called.ended_by,
        called.scores,
    )


def test_draw_counts_as_half_a_win_under_the_open_swiss_rules() -> None:
    """Level 24–24 at the deal limit of a 4-deal game: drawn, nobody wins."""
    rules = MatchRules(target=101, deal_limit=4, cap=121, draw="half")
    game = play(Partida.new(rules), [(12, 0), (0, 24), (12, 0), (0, 0)])
    assert game.finished and game.drawn and game.winner is None and game.ended_by == "draw"


def test_draw_broken_by_two_tiebreak_deals_girona() -> None:
    """Girona: 8 deals, level: two more deals are both played, then the pair ahead wins.

    After the first extra deal EW leads 46–40; NS's 8 in the second makes it 48–46 NS.
    """
    rules = MatchRules(target=None, deal_limit=8, draw="tiebreak", tiebreak_deals=2)
    game = play(Partida.new(rules), [(10, 0), (0, 10)] * 4)
    assert not game.finished
    play(game, [(0, 6)])
    assert not game.finished
    play(game, [(8, 0)])
    assert (game.winner, game.ended_by, game.deals) == ("NS", "tiebreak", 10)


def test_still_level_after_the_tiebreak_deals_the_next_deal_that_scores_decides() -> None:
    rules = MatchRules(target=None, deal_limit=2, draw="tiebreak", tiebreak_deals=2)
    game = play(Partida.new(rules), [(6, 0), (0, 6), (4, 0), (0, 4)])
    assert not game.finished and game.deals == 4
    play(game, [(0, 0)])
    assert not game.finished
    play(game, [(0, 2)])
    assert (game.winner, game.ended_by) == ("EW", "sudden_death")


def test_the_target_still_ends_a_game_during_the_tiebreak_deals_r12() -> None:
    rules = MatchRules(target=101, deal_limit=2, draw="tiebreak", tiebreak_deals=2)
    game = play(Partida.new(rules), [(50, 0), (0, 50), (0, 60)])
    assert (game.winner, game.ended_by, game.deals) == ("EW", "target", 3)


def test_cap_limits_the_points_counted_not_the_winner() -> None:
    """96 + 80 = 176 for NS: 121 counted, the game still NS's."""
    game = play(Partida.new(OPEN_SWISS), [(96, 0), (80, 0)])
    assert game.scores == {"NS": 176, "EW": 0}
    assert game.counted == {"NS": 121, "EW": 0}
    assert game.winner == "NS"


def test_without_the_new_options_r12_plays_on_when_level_at_the_deal_limit() -> None:
    """R12: level at the deal limit, the game continues until one pair scores."""
    game = play(Partida(target=51, deal_limit=2), [(10, 0), (0, 10), (0, 0)])
    assert not game.finished
    play(game, [(3, 0)])
    assert (game.winner, game.ended_by) == ("NS", "sudden_death")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"target": 0},
        {"deal_limit": 0},
        {"target": 101, "cap": 100},
        {"draw": "coin"},
        {"tiebreak_deals": -1},
    ],
)
def test_impossible_rules_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        MatchRules(**kwargs)  # type: ignore[arg-type]
