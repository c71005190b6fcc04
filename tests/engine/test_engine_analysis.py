"""What each card cost (docs/analysis.md): values before and after every card of a play record
for the side that played it, the cost, the best cards; checked against the reference search."""

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Deal, Hand, InvalidRecord, Rules, card_token, deal_board
from engine.analysis import card_costs
from engine.solver import Solver, solve_reference

sys.path.insert(0, str(Path(__file__).parent))
from solver_cases import needs_c_solver, top_six_deal  # noqa: E402


def record_of(deal: Deal, trump: str, ruleset: str, played: list[int]) -> dict[str, Any]:
    return {
        "format": "botifarra-play/1",
        "ruleset": ruleset,
        "deal": {"dealer": deal.dealer.name, "hands": deal.hands_json()},
        "choice": {"delegated": False, "trump": trump},
        "play": [card_token(c) for c in played],
    }


def best_play(solver: Solver, hand: Hand) -> None:
    """Play on to the end with a best card at every turn (by the solver's values)."""
    while not hand.is_over:
        value = solver.value_of(hand)
        for card in hand.legal_cards():
            hand.play(card)
            if solver.value_of(hand) == value:
                break
            hand.undo()


def opening(seed: int, ruleset: str, cards: int) -> tuple[Deal, str, Hand]:
    rng = random.Random(seed)
    deal = deal_board("costs", seed)
    trump = rng.choice(["oros", "copes", "espases", "bastos", "botifarra"])
    hand = Hand(deal, trump, Rules(ruleset))
    while len(hand.played) < cards:
        hand.play(rng.choice(hand.legal_cards()))
    return deal, trump, hand


@needs_c_solver
@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_best_play_costs_nothing(ruleset: str) -> None:
    deal, trump, hand = opening(1, ruleset, 24)
    best_play(Solver(deal, trump=trump, rules=Rules(ruleset)), hand)
    costs = card_costs(record_of(deal, trump, ruleset, hand.played), from_card=24)
    assert [c.index for c in costs] == list(range(24, 48))
    assert all(c.cost == 0 and c.card in c.best for c in costs)
    for before, after in zip(costs, costs[1:], strict=False):
        ns_after = before.value_after if before.side == "NS" else 72 - before.value_after
        ns_next = after.value_before if after.side == "NS" else 72 - after.value_before
        assert ns_after == ns_next and 0 <= ns_next <= 72


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_a_bad_card_costs_what_the_reference_says(ruleset: str) -> None:
    """The worst legal card by the reference search costs reference(before) − reference(after)
    for the side that played it; the best cards listed are those the reference values most."""
    rules = Rules(ruleset)
    for seed in range(2, 40):
        deal, trump, hand = opening(seed, ruleset, 28)
        after = {}
        for card in hand.legal_cards():
            hand.play(card)
            after[card] = solve_reference(deal, trump=trump, rules=rules, played=hand.played)
            hand.undo()
        ns_side = hand.to_move.pair == "NS"
        best = max(after.values()) if ns_side else min(after.values())
        worst_card = (min if ns_side else max)(after, key=after.__getitem__)
        if after[worst_card] != best:
            break
    else:
        pytest.fail("no position with a losing card")
    hand.play(worst_card)
    best_play(Solver(deal, trump=trump, rules=rules), hand)
    costs = card_costs(record_of(deal, trump, ruleset, hand.played), from_card=28)
    first = costs[0]
    expected = abs(best - after[worst_card])
    assert first.card == worst_card and first.cost == expected > 0
    assert set(first.best) == {c for c, v in after.items() if v == best}
    assert all(c.cost == 0 for c in costs[1:])


def test_costs_from_the_reference_search_are_the_same() -> None:
    deal, trump, hand = opening(7, "lliure", 32)
    while not hand.is_over:
        hand.play(hand.legal_cards()[0])
    record = record_of(deal, trump, "lliure", hand.played)
    assert card_costs(record, from_card=32) == card_costs(record, from_card=32, reference=True)


@needs_c_solver
def test_a_whole_record_of_the_top_six_deal() -> None:
    """top_six_deal: NS take 72 whatever is played, so no card costs anything."""
    deal = top_six_deal()
    hand = Hand(deal, "copes")
    while not hand.is_over:
        hand.play(hand.legal_cards()[-1])
    costs = card_costs(record_of(deal, "copes", "lliure", hand.played))
    assert len(costs) == 48
    assert all(c.cost == 0 for c in costs)
    assert {(c.side, c.value_before) for c in costs} == {("NS", 72), ("EW", 0)}
    line = json.loads(json.dumps([c.to_json() for c in costs]))
    assert line[0]["card"] == card_token(hand.played[0]) and line[0]["cost"] == 0


def test_illegal_record_is_judged_up_to_the_illegal_card_r10() -> None:
    for seed in range(1, 20):
        deal, trump, hand = opening(seed, "lliure", 37)
        held, legal = hand.hands[hand.to_move], hand.legal_mask()
        illegal = [c for c in range(48) if held >> c & 1 and not legal >> c & 1]
        if illegal:
            break
    else:
        pytest.fail("no illegal card to play")
    record = record_of(deal, trump, "lliure", [*hand.played, illegal[0]])
    costs = card_costs(record, from_card=32)
    assert [c.index for c in costs] == [32, 33, 34, 35, 36]


def test_invalid_record_raises() -> None:
    with pytest.raises(InvalidRecord):
        card_costs({"format": "botifarra-play/1"})


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_costs_add_up_to_the_final_total_r9(ruleset: str) -> None:
    """NS's value before the first judged card, minus what NS's cards cost, plus what EW's cost,
    is NS's final total (R9), as the replay counts it."""
    deal, trump, hand = opening(11, ruleset, 28)
    rng = random.Random(11)
    while not hand.is_over:
        hand.play(rng.choice(hand.legal_cards()))
    costs = card_costs(record_of(deal, trump, ruleset, hand.played), from_card=28)
    first = costs[0]
    start = first.value_before if first.side == "NS" else 72 - first.value_before
    ns_cost = sum(c.cost for c in costs if c.side == "NS")
    ew_cost = sum(c.cost for c in costs if c.side == "EW")
    assert start - ns_cost + ew_cost == hand.totals["NS"]
