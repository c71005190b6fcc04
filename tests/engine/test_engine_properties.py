"""Hypothesis properties of whole hands: R6–R10 against the naive oracle of reference_rules."""

import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Hand,
    Rules,
    card_token,
    deal_board,
    hand_score,
    multiplier,
    parse_token,
    penalty_score,
    replay,
)
from engine.record import make_record

sys.path.insert(0, str(Path(__file__).parent))
import reference_rules as ref  # noqa: E402

games = st.fixed_dictionaries(
    {
        "seed": st.text(max_size=8),
        "board": st.integers(min_value=1, max_value=64),
        "trump": st.sampled_from(["oros", "copes", "espases", "bastos", "botifarra"]),
        "ruleset": st.sampled_from(["lliure", "obligada"]),
        "calls": st.integers(min_value=0, max_value=2),
        "rng": st.randoms(use_true_random=False),
    }
)
CALLS = [
    [],
    [{"seat": "?", "call": "contro"}],
    [{"seat": "?", "call": "contro"}, {"seat": "?", "call": "recontro"}],
]


def play_game(game: dict[str, Any]) -> tuple[Hand, dict[str, Any]]:
    deal = deal_board(game["seed"], game["board"])
    hand = Hand(deal, game["trump"], Rules(game["ruleset"]))
    while not hand.is_over:
        hand.play(game["rng"].choice(hand.legal_cards()))
    opponents, choosers = deal.dealer.right.name, deal.dealer.name
    doubles = [
        {"seat": opponents if d["call"] == "contro" else choosers, "call": d["call"]}
        for d in CALLS[game["calls"]]
    ]
    record = make_record(
        dealer=deal.dealer.name,
        hands=deal.hands_json(),
        trump=game["trump"],
        doubles=doubles,
        play=[card_token(c) for c in hand.played],
        ruleset=game["ruleset"],
    )
    return hand, record


@given(games)
@settings(max_examples=150, deadline=None)
def test_random_legal_game_replays_complete_and_scores_r9(game: dict[str, Any]) -> None:
    """R6, R9: a random legal game replays as complete; totals sum to 72; score is R9's."""
    hand, record = play_game(game)
    verdict = replay(record)
    assert verdict.outcome == "complete"
    assert verdict.totals is not None and sum(verdict.totals.values()) == 72
    assert sum(verdict.tricks.values()) == 12  # type: ignore[union-attr]
    mult = multiplier(game["trump"], [d["call"] for d in record["doubles"]])
    assert verdict.multiplier == mult
    assert verdict.score == hand_score(verdict.totals, mult)
    assert list(verdict.trick_winners) == hand.trick_winners
    assert verdict.capot == (12 in verdict.tricks.values())  # type: ignore[union-attr]


@given(games)
@settings(max_examples=60, deadline=None)
def test_legal_sets_and_rule_names_match_the_oracle_r7_r8(game: dict[str, Any]) -> None:
    """R7, R8 (and play-record.md's rule order): at every turn of a random game the engine's
    legal set and the rule each held card would break equal a naive reading of the text."""
    deal = deal_board(game["seed"], game["board"])
    hand = Hand(deal, game["trump"], Rules(game["ruleset"]))
    obligada = game["ruleset"] == "obligada"
    while not hand.is_over:
        seat = hand.to_move
        held = [card_token(c) for c in range(48) if hand.hands[seat] >> c & 1]
        trick = [(s.name, card_token(c)) for s, c in hand.trick]
        expected = ref.legal(seat.name, held, trick, game["trump"], obligada)
        assert {card_token(c) for c in hand.legal_cards()} == expected
        for token in held:
            rule = ref.broken_rule(seat.name, held, trick, game["trump"], obligada, token)
            assert hand.why_illegal(parse_token(token)) == rule
        hand.play(game["rng"].choice(hand.legal_cards()))


@given(games, st.data())
@settings(max_examples=150, deadline=None)
def test_forbidden_card_is_reported_illegal_at_that_card_r10(
    game: dict[str, Any], data: Any
) -> None:
    """R10: replacing a card of a legal game by another card of the same hand that the rules
    forbid is reported illegal at that card, with the rule, the legal cards and the penalty."""
    hand, record = play_game(game)
    played = list(hand.played)
    candidates: list[tuple[int, int, str]] = []
    replayed = Hand(deal_board(game["seed"], game["board"]), game["trump"], Rules(game["ruleset"]))
    for i, card in enumerate(played):
        seat = replayed.to_move
        for other in range(48):
            if replayed.hands[seat] >> other & 1 and not replayed.is_legal(other):
                rule = replayed.why_illegal(other)
                assert rule is not None
                candidates.append((i, other, rule))
        replayed.play(card)
    if not candidates:
        return
    i, bad, rule = data.draw(st.sampled_from(candidates))
    replayed = Hand(deal_board(game["seed"], game["board"]), game["trump"], Rules(game["ruleset"]))
    for card in played[:i]:
        replayed.play(card)
    seat = replayed.to_move
    legal = [card_token(c) for c in replayed.legal_cards()]
    record["play"] = record["play"][:i] + [card_token(bad)] + record["play"][i + 1 :]
    verdict = replay(record).to_json()
    mult = multiplier(game["trump"], [d["call"] for d in record["doubles"]])
    assert verdict == {
        "outcome": "illegal",
        "trick": i // 4 + 1,
        "position": i % 4 + 1,
        "seat": seat.name,
        "card": card_token(bad),
        "rule": rule,
        "legal": legal,
        "multiplier": mult,
        "score": penalty_score(seat.pair, mult),
    }
    assert verdict["score"][seat.pair] == 0


def test_undo_restores_the_state_exactly() -> None:
    """R6: play/undo round trip over a whole hand (python-chess push/pop)."""
    import random

    hand = Hand(deal_board("undo", 5), "copes", Rules("obligada"))
    rng = random.Random(5)
    snapshots = []
    while not hand.is_over:
        snapshots.append((repr(hand), hand.legal_mask(), hand.totals, hand.trick))
        hand.play(rng.choice(hand.legal_cards()))
    for snap in reversed(snapshots):
        hand.undo()
        assert (repr(hand), hand.legal_mask(), hand.totals, hand.trick) == snap


def test_repr_is_valid_python_that_rebuilds_the_hand() -> None:
    """python-chess style: repr() evaluates back to an equal state."""
    from engine import Seat

    hand = Hand(deal_board("repr", 2), "botifarra", Rules("obligada"))
    for _ in range(9):
        hand.play(hand.legal_cards()[0])
    again = eval(repr(hand), {"Hand": Hand, "Seat": Seat, "Rules": Rules})
    assert repr(again) == repr(hand) and again.played == hand.played
