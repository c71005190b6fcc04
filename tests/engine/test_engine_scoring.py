"""Doubling (R4, R5), hand scores (R9), penalties (R10), rulesets (R11) and games (R12)."""

import pytest

from engine import (
    InvalidRecord,
    Partida,
    Rules,
    Seat,
    check_contract,
    choosing_pair,
    hand_score,
    multiplier,
    penalty_score,
    possible_hand_score,
    possible_multipliers,
    score_short_result,
)


@pytest.mark.parametrize(
    ("trump", "calls", "expected"),
    [
        ("oros", [], 1),
        ("oros", ["contro"], 2),
        ("oros", ["contro", "recontro"], 4),
        ("oros", ["contro", "recontro", "sant_vicenc"], 8),
        ("botifarra", [], 2),
        ("botifarra", ["contro"], 4),
        ("botifarra", ["contro", "recontro"], 8),
        ("botifarra", ["contro", "recontro", "sant_vicenc"], 16),
    ],
)
def test_multiplier_is_base_times_doubling_factor_r5(
    trump: str, calls: list[str], expected: int
) -> None:
    """R5: base 1 (suit) or 2 (botifarra) × 1, 2, 4, 8."""
    assert multiplier(trump, calls) == expected


@pytest.mark.parametrize(
    ("trump", "calls", "winning_total", "expected"),
    [
        ("copes", [], 45, 9),  # cups trumps, no doubling
        ("oros", ["contro"], 45, 18),  # coins trumps, doubled
        ("botifarra", [], 50, 28),  # botifarra, no doubling
        ("bastos", ["contro"], 42, 12),  # choosing pair takes 30: opponents 42
        ("botifarra", ["contro", "recontro", "sant_vicenc"], 40, 64),
    ],
)
def test_seed_003_scoring_table_rows_r9(
    trump: str, calls: list[str], winning_total: int, expected: int
) -> None:
    """R9, seed 003's table: (total − 36) × multiplier."""
    score = hand_score({"NS": winning_total, "EW": 72 - winning_total}, multiplier(trump, calls))
    assert score == {"NS": expected, "EW": 0}


def test_seed_003_tie_scores_nothing_r9() -> None:
    """R9: at 36–36 nobody scores, whatever the multiplier."""
    assert hand_score({"NS": 36, "EW": 36}, 16) == {"NS": 0, "EW": 0}


def test_seed_000_recontro_45_scores_36_and_ends_the_match_r9_r12() -> None:
    """R9, R12, seed 000: (45 − 36) × 4 = 36; from 70 it reaches 106 and ends the match."""
    score = hand_score({"NS": 45, "EW": 27}, multiplier("espases", ["contro", "recontro"]))
    assert score == {"NS": 36, "EW": 0}
    game = Partida()
    game.add({"NS": 70, "EW": 0})
    assert not game.finished
    game.add(score)
    assert game.scores == {"NS": 106, "EW": 0} and game.winner == "NS" and game.finished
    with pytest.raises(ValueError):
        game.add({"NS": 1, "EW": 0})


def test_capot_scores_36_times_multiplier_r9() -> None:
    """R9: all 12 tricks score (72 − 36) × multiplier, no extra bonus."""
    assert hand_score({"NS": 0, "EW": 72}, 4) == {"NS": 0, "EW": 144}


def test_hand_score_rejects_totals_not_summing_to_72_r9() -> None:
    """R9: totals sum to 72."""
    with pytest.raises(ValueError):
        hand_score({"NS": 40, "EW": 40}, 1)


def test_penalty_score_goes_to_the_offenders_opponents_r10() -> None:
    """R10: offender's opponents score 36 × multiplier, the offenders 0."""
    assert penalty_score("NS", 1) == {"NS": 0, "EW": 36}
    assert penalty_score("EW", 16) == {"NS": 576, "EW": 0}


def test_choosing_pair_is_the_dealers_pair_even_when_delegated_r4() -> None:
    """R4: the pair of the player who named it (the dealer or their partner)."""
    assert choosing_pair(Seat.N, False) == choosing_pair(Seat.N, True) == "NS"
    assert choosing_pair(Seat.W, True) == "EW"


def _paths(
    trump: str, doubles: list[dict[str, str]], rules: Rules | None = None, dealer: Seat = Seat.N
) -> list[str]:
    problems = check_contract(
        dealer=dealer, delegated=False, trump=trump, doubles=doubles, rules=rules or Rules()
    )
    return [p.path for p in problems]


def test_valid_doubling_sequence_has_no_problem_r5() -> None:
    """R5: contro by an opponent, recontro by the choosing pair, sant vicenç by an opponent."""
    doubles = [
        {"seat": "E", "call": "contro"},
        {"seat": "S", "call": "recontro"},
        {"seat": "W", "call": "sant_vicenc"},
    ]
    assert _paths("copes", doubles) == []


def test_call_by_the_wrong_pair_is_invalid_r5() -> None:
    """R5: a call by a seat of the wrong pair makes the record invalid."""
    assert _paths("copes", [{"seat": "N", "call": "contro"}]) == ["doubles[0].seat"]
    assert _paths(
        "copes", [{"seat": "E", "call": "contro"}, {"seat": "W", "call": "recontro"}]
    ) == ["doubles[1].seat"]


def test_call_out_of_order_or_repeated_is_invalid_r5() -> None:
    """R5: out of order or repeated calls are invalid."""
    assert _paths("oros", [{"seat": "N", "call": "recontro"}]) == ["doubles[0].call"]
    assert _paths("oros", [{"seat": "E", "call": "contro"}, {"seat": "W", "call": "contro"}]) == [
        "doubles[1].call"
    ]
    assert _paths(
        "oros", [{"seat": "E", "call": "contro"}, {"seat": "W", "call": "sant_vicenc"}]
    ) == ["doubles[1].call"]


def test_unknown_trump_seat_or_call_is_invalid_r4_r5() -> None:
    """R4, R5: unknown trump choice, seat or call."""
    assert _paths("trumfo", []) == ["choice.trump"]
    assert _paths("oros", [{"seat": "X", "call": "contro"}]) == ["doubles[0].seat"]
    assert _paths("oros", [{"seat": "E", "call": "double"}]) == ["doubles[0].call"]
    assert _paths("oros", ["contro"]) == ["doubles[0]"]  # type: ignore[list-item]


def test_sant_vicenc_in_botifarra_follows_ruleset_default_r11() -> None:
    """R11: lliure forbids Sant Vicenç in botifarra (max ×8), obligada allows it (×16)."""
    doubles = [
        {"seat": "E", "call": "contro"},
        {"seat": "S", "call": "recontro"},
        {"seat": "W", "call": "sant_vicenc"},
    ]
    assert _paths("botifarra", doubles, Rules("lliure")) == ["doubles[2].call"]
    assert _paths("botifarra", doubles, Rules("obligada")) == []
    assert _paths("botifarra", doubles, Rules("obligada", sant_vicenc_in_botifarra=False)) == [
        "doubles[2].call"
    ]
    assert _paths("botifarra", doubles, Rules("lliure", sant_vicenc_in_botifarra=True)) == []
    assert _paths("oros", doubles, Rules("lliure")) == []  # only botifarra is affected


def test_rules_rejects_unknown_ruleset_r11() -> None:
    """R11: lliure or obligada."""
    with pytest.raises(ValueError):
        Rules("obligat")


def test_short_result_from_totals_r9() -> None:
    """R9 via the table's short form."""
    result = score_short_result(
        dealer=Seat.S,
        delegated=True,
        trump="botifarra",
        doubles=[{"seat": "E", "call": "contro"}],
        rules=Rules(),
        totals={"NS": 30, "EW": 42},
    )
    assert (result.multiplier, result.score, result.capot) == (4, {"NS": 0, "EW": 24}, False)
    capot = score_short_result(
        dealer=Seat.S,
        delegated=False,
        trump="oros",
        doubles=[],
        rules=Rules(),
        totals={"NS": 72, "EW": 0},
    )
    assert capot.capot and capot.score == {"NS": 36, "EW": 0}


def test_short_result_penalty_r10() -> None:
    """R10 via the short form: the offending pair's opponents score 36 × multiplier."""
    result = score_short_result(
        dealer=Seat.N, delegated=False, trump="oros", doubles=[], rules=Rules(), offending_pair="EW"
    )
    assert result.score == {"NS": 36, "EW": 0} and result.offending_pair == "EW"


def test_short_result_lists_every_problem_r5_r9() -> None:
    """R5, R9: InvalidRecord lists every problem with its path."""
    with pytest.raises(InvalidRecord) as info:
        score_short_result(
            dealer=Seat.N,
            delegated=False,
            trump="oros",
            doubles=[{"seat": "N", "call": "contro"}],
            rules=Rules(),
            totals={"NS": 80, "EW": 10},
        )
    assert [p.path for p in info.value.problems] == ["doubles[0].seat", "totals.NS"]
    with pytest.raises(InvalidRecord) as info:
        score_short_result(
            dealer=Seat.N,
            delegated=False,
            trump="oros",
            doubles=[],
            rules=Rules(),
            totals={"NS": 40, "EW": 40},
        )
    assert [p.path for p in info.value.problems] == ["totals"]
    with pytest.raises(InvalidRecord):
        score_short_result(dealer=Seat.N, delegated=False, trump="oros", doubles=[], rules=Rules())
    with pytest.raises(InvalidRecord) as info:
        score_short_result(
            dealer=Seat.N,
            delegated=False,
            trump="oros",
            doubles=[],
            rules=Rules(),
            offending_pair="NE",
        )
    assert [p.path for p in info.value.problems] == ["offending_pair"]


def test_game_quick_deal_limit_pair_ahead_wins_r12() -> None:
    """R12: with a deal limit the pair ahead wins; level, play on until one pair scores."""
    game = Partida(target=51, deal_limit=2)
    game.add({"NS": 10, "EW": 0})
    game.add({"NS": 0, "EW": 10})
    assert not game.finished and game.deals == 2
    game.add({"NS": 0, "EW": 0})
    assert not game.finished
    game.add({"NS": 0, "EW": 4})
    assert game.winner == "EW"


def test_game_both_pairs_cannot_score_in_one_deal_r12() -> None:
    """R12: only one pair can score in a deal."""
    with pytest.raises(ValueError):
        Partida().add({"NS": 3, "EW": 3})


def test_possible_multipliers_follow_the_ruleset_r5_r11() -> None:
    """R5, R11: ×16 (botifarra with Sant Vicenç) only where the ruleset allows it."""
    assert possible_multipliers(Rules()) == (1, 2, 4, 8)
    assert possible_multipliers(Rules("obligada")) == (1, 2, 4, 8, 16)
    assert possible_multipliers(Rules("lliure", sant_vicenc_in_botifarra=True))[-1] == 16
    assert possible_multipliers() == (1, 2, 4, 8, 16)  # no ruleset: any


@pytest.mark.parametrize(
    ("score", "lliure", "any_ruleset"),
    [
        (0, True, True),
        (1, True, True),
        (36, True, True),
        (37, False, False),  # 37 × 1 is over 36; odd, so no larger multiplier
        (40, True, True),  # 20 × 2, 10 × 4, 5 × 8
        (72, True, True),
        (73, False, False),
        (145, False, False),
        (288, True, True),  # 36 × 8: a capot or a penalty at ×8
        (304, False, True),  # 19 × 16 only
        (575, False, False),
        (576, False, True),  # 36 × 16
        (577, False, False),
        (-4, False, False),
    ],
)
def test_possible_hand_scores_r9(score: int, lliure: bool, any_ruleset: bool) -> None:
    """R9: a pair scores (total − 36) × multiplier, total 37–72; R10: a penalty is 36 × it."""
    assert possible_hand_score(score, Rules()) is lliure
    assert possible_hand_score(score) is any_ruleset
