"""The perfect-play solver (issue 19): the C search against the pure-Python reference, values
known by hand, consistency of values one card deeper, the backend switch and bad input.

The reference (engine.solver.ReferenceSearch) applies engine.rules.legal_mask (R7, R8) and the
trick rule R6 to every card; the C search shares no code with it.
"""

import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine import Hand, IllegalPlay, Rules, Seat, card_token, deal_board, parse_token, replay
from engine.cards import CARD_POINTS, CARD_STRENGTH, CARD_SUIT
from engine.rules import TRUMP_INDEX, legal_mask
from engine.solver import BACKEND, ReferenceSearch, Solver, sample_play, solve, solve_reference

sys.path.insert(0, str(Path(__file__).parent))
from solver_cases import (  # noqa: E402
    TRUMPS,
    needs_c_solver,
    random_position,
    split_deal,
    top_six_deal,
)

ROOT = Path(__file__).resolve().parents[2]


def c_solver() -> ModuleType:
    """The C extension, or a skip with its reason where it could not be built."""
    return pytest.importorskip("engine._solver", reason="the C extension is not built here")


def test_c_legal_cards_are_the_engine_rule_r7_r8() -> None:
    """R7, R8: the C search's legal cards equal engine.rules.legal_mask on random situations."""
    c = c_solver()
    rng = random.Random(19)
    for _ in range(20000):
        hand = sum(1 << x for x in rng.sample(range(48), rng.randint(1, 12)))
        args = (
            hand,
            rng.randrange(4),
            rng.randrange(4),
            rng.randrange(48),
            rng.random() < 0.5,
            rng.randrange(5),
            rng.random() < 0.5,
        )
        assert c.legal_mask(*args) == legal_mask(*args), args


def test_c_keys_of_the_last_cards_children_are_the_positions_own() -> None:
    """The table key of a trick start that the last card of a trick leads to is derived from the
    trick's key (the card's suit code without the card), not computed again: it must equal the
    code computed from the hands. A wrong key would only lose transpositions (no value would
    change, so the value tests cannot see it)."""
    c = c_solver()
    rng = random.Random(1919)
    for _ in range(20000):
        cards = rng.sample(range(48), rng.randint(1, 48))
        hands = [0, 0, 0, 0]
        for card in cards:
            hands[rng.randrange(4)] |= 1 << card
        seat = rng.choice([p for p in range(4) if hands[p]])
        card = rng.choice([x for x in range(48) if hands[seat] >> x & 1])
        derived, computed = c.suit_codes_after(tuple(hands), seat, card)
        assert derived == computed, (hands, seat, card)


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_fast_and_reference_agree_on_random_endings(ruleset: str) -> None:
    """R6–R9: the same value from 1 to 5 tricks before the end, in the middle of tricks too."""
    c_solver()
    rng = random.Random(f"endings-{ruleset}")
    for i in range(150):
        deal, trump, rules, played = random_position(rng, tricks_left=1 + i % 5, ruleset=ruleset)
        fast_value = Solver(deal, trump=trump, rules=rules).value(played)
        assert fast_value == solve_reference(deal, trump=trump, rules=rules, played=played), (
            deal.hands,
            trump,
            played,
        )


def holds_twins(hand: Hand) -> bool:
    """Whether the seat to move holds two cards of one suit, one of them with points, with no
    card of another hand nor of the trick between them (the C search's *twins*)."""
    me = hand.hands[hand.to_move]
    others = sum(h for s, h in hand.hands.items() if s != hand.to_move)
    for _, c in hand.trick:
        others |= 1 << c
    mine = [c for c in range(48) if me >> c & 1]
    for a in mine:
        for b in mine:
            if CARD_SUIT[a] != CARD_SUIT[b] or CARD_STRENGTH[a] >= CARD_STRENGTH[b]:
                continue
            if not (CARD_POINTS[a] or CARD_POINTS[b]):
                continue
            between = [
                c
                for c in range(48)
                if CARD_SUIT[c] == CARD_SUIT[a]
                and CARD_STRENGTH[a] < CARD_STRENGTH[c] < CARD_STRENGTH[b]
            ]
            if not any(others >> c & 1 for c in between):
                return True
    return False


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_fast_and_reference_agree_where_the_mover_holds_twins(ruleset: str) -> None:
    """The C search tries one card of two *twins* (cards of one suit with no card of another
    hand between them, differing only by their points) when the trick they fall in is decided,
    and settles the other from the first's bound otherwise (docs/analysis.md): the values must
    stay the reference's, also in the middle of tricks."""
    c_solver()
    rng = random.Random(f"twins-{ruleset}")
    checked = 0
    while checked < 200:
        deal, trump, rules, played = random_position(
            rng, tricks_left=3 + checked % 3, ruleset=ruleset
        )
        hand = Hand(deal, trump, rules)
        for card in played:
            hand.play(card)
        if not holds_twins(hand):
            continue
        checked += 1
        fast_value = Solver(deal, trump=trump, rules=rules).value(played)
        assert fast_value == solve_reference(deal, trump=trump, rules=rules, played=played), (
            deal.hands,
            trump,
            played,
        )


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_fast_and_reference_agree_six_tricks_before_the_end(ruleset: str) -> None:
    c_solver()
    rng = random.Random(f"six-{ruleset}")
    for _ in range(8):
        deal, trump, rules, played = random_position(rng, tricks_left=6, ruleset=ruleset)
        assert Solver(deal, trump=trump, rules=rules).value(played) == solve_reference(
            deal, trump=trump, rules=rules, played=played
        )


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
@pytest.mark.parametrize("trump", TRUMPS)
def test_top_six_of_every_suit_take_all_72_r6_r9(trump: str, ruleset: str) -> None:
    """R6, R9: holding the six highest cards of every suit, with three cards of each suit in every
    hand, NS win every trick (see solver_cases): 72, from the start, by both solvers."""
    rules = Rules(ruleset)
    for dealer in Seat:
        deal = top_six_deal(dealer)
        assert solve(deal, trump=trump, rules=rules) == 72
        assert solve_reference(deal, trump=trump, rules=rules) == 72


@needs_c_solver
@pytest.mark.parametrize("trump", TRUMPS)
def test_each_pair_takes_its_two_suits_36_each_r6_r9(trump: str) -> None:
    """R6, R9: each pair holds the six highest cards of two suits: 36-36 from the start."""
    for ruleset in ("lliure", "obligada"):
        assert solve(split_deal(Seat.E), trump=trump, rules=Rules(ruleset)) == 36


def test_reference_agrees_on_a_full_deal_with_36_each() -> None:
    """A full deal (12 tricks) solved by the pure-Python reference too (about 3 s)."""
    assert solve_reference(split_deal(Seat.W), trump="espases", rules=Rules("obligada")) == 36


@pytest.mark.slow
def test_reference_agrees_on_a_full_deal_with_36_each_lliure() -> None:
    assert solve_reference(split_deal(Seat.S), trump="botifarra") == 36


def check_one_card_deeper(solver: Solver, hand: Hand) -> int:
    """The value of the position equals the best, for the side to move, of the values after each
    legal card (North–South maximise, East–West minimise); returns it."""
    value = solver.value_of(hand)
    children = []
    for card in hand.legal_cards():
        hand.play(card)
        children.append(solver.value_of(hand))
        hand.undo()
    best = max(children) if hand.to_move.pair == "NS" else min(children)
    assert value == best
    return value


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_values_of_deals_in_play_are_consistent_one_card_deeper(ruleset: str) -> None:
    """Along a random line from two tricks into a seeded deal to the end: each value is the best
    of the values one card deeper, lies in 0..72, and the reference gives the same value once
    five tricks are left; the last value is the replayed total."""
    c_solver()
    rng = random.Random(f"line-{ruleset}")
    deal = deal_board("consistency", 7)
    trump = "bastos"
    rules = Rules(ruleset)
    solver = Solver(deal, trump=trump, rules=rules)
    hand = Hand(deal, trump, rules)
    while len(hand.played) < 8:
        hand.play(rng.choice(hand.legal_cards()))
    while not hand.is_over:
        value = check_one_card_deeper(solver, hand)
        assert 0 <= value <= 72
        if len(hand.played) >= 28:
            assert value == solve_reference(deal, trump=trump, rules=rules, played=hand.played)
        hand.play(rng.choice(hand.legal_cards()))
    assert solver.value_of(hand) == hand.totals["NS"]


@needs_c_solver
def test_full_deal_value_is_the_best_opening_lead() -> None:
    """From the very start of a seeded deal: the value is the best over the opening leads."""
    deal = deal_board("consistency", 8)
    solver = Solver(deal, trump="oros", rules=Rules("obligada"))
    check_one_card_deeper(solver, Hand(deal, "oros", Rules("obligada")))


@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_questions_given_up_change_no_value(ruleset: str) -> None:
    """Without a guess, a question that takes more than the search's budget of positions is
    given up half searched: with a budget of 300 positions the searches give up again and again
    (other positions are searched), and the values are those of the plain search."""
    c = c_solver()
    rules = Rules(ruleset)
    cases = [(1, "oros", 0), (4, "bastos", 0), (2, "copes", 6), (3, "espases", 17)]
    for board, trump, cards in cases:
        deal = deal_board("budget", board)
        hand = Hand(deal, trump, rules)
        for card in sample_play(deal, trump=trump, rules=rules, cards=cards):
            hand.play(card)
        hands = [hand.hands[seat] for seat in (Seat.N, Seat.E, Seat.S, Seat.W)]
        trick = [card for _, card in hand.trick]
        value = Solver(deal, trump=trump, rules=rules).value_of(hand)
        search = c.Search(TRUMP_INDEX[trump], rules.obligada, budget=300)
        future = search.future(hands, hand.to_move.value, trick)
        assert future + hand.totals["NS"] == value


def test_value_of_a_complete_hand_is_its_total_r9() -> None:
    deal = deal_board("complete", 3)
    hand = Hand(deal, "copes")
    while not hand.is_over:
        hand.play(hand.legal_cards()[-1])
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": deal.dealer.name, "hands": deal.hands_json()},
        "choice": {"delegated": False, "trump": "copes"},
        "play": [card_token(c) for c in hand.played],
    }
    totals = replay(record).totals
    assert totals is not None
    assert solve(deal, trump="copes", played=hand.played) == totals["NS"]


def test_at_least_answers_like_the_value() -> None:
    rng = random.Random(5)
    deal, trump, rules, played = random_position(rng, tricks_left=4, ruleset="lliure")
    solver = Solver(deal, trump=trump, rules=rules)
    value = solver.value(played)
    assert solver.at_least(played, value) and not solver.at_least(played, value + 1)
    assert solver.at_least(played, 0) and not solver.at_least(played, 73)


def test_the_reference_search_is_the_fallback_and_can_be_forced() -> None:
    """BOTIFARRA_SOLVER=python makes engine.solver use the reference, with the same values."""
    code = (
        "import sys; sys.path.insert(0, 'tests/engine')\n"
        "from engine.solver import BACKEND, solve\n"
        "from solver_cases import top_six_deal\n"
        "print(BACKEND, solve(top_six_deal(), trump='oros'))\n"
    )
    env = dict(os.environ, BOTIFARRA_SOLVER="python")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )
    assert out.stdout.split() == ["python", "72"]


def test_c_search_tables_handed_on_forget_what_they_held() -> None:
    """A table is handed from one search to the next and emptied by generations (cleared for
    real every few): search objects asked about many positions in turn, cleared between them,
    and fresh search objects in turn, all give the reference's values."""
    c = c_solver()
    rng = random.Random("generations")
    searches = {}
    for i in range(24):
        deal, trump, rules, played = random_position(rng, tricks_left=4, ruleset="lliure")
        t = TRUMP_INDEX[trump]
        hand = Solver(deal, trump=trump, rules=rules).position(played)
        position = (
            [hand.hands[s] for s in (Seat.N, Seat.E, Seat.S, Seat.W)],
            hand.to_move.value,
            [card for _, card in hand.trick],
        )
        expected = ReferenceSearch(t, False).future(*position, -1)
        search = searches.setdefault(t, c.Search(t, False))
        assert search.future(*position) == expected
        search.clear()
        assert search.future(*position) == expected
        fresh = c.Search(t, False)
        assert fresh.future(*position) == expected
        if i % 3 == 0:
            searches[t] = fresh  # the old one's table goes back as the spare


@pytest.mark.parametrize(
    ("board", "trump", "ruleset"), [(3, "copes", "obligada"), (4, "espases", "lliure")]
)
def test_c_search_tables_that_grow_keep_their_values(board: int, trump: str, ruleset: str) -> None:
    """A search starts in the small part of its table and moves to the whole table when
    entries are pushed out of it (grow_after), taking the entries with it (their keys change
    layout). With grow_after=1 the table grows early in the search: the value, and the answers
    asked of the grown table afterwards, are those of a search that keeps its default table;
    the next search starts in a small part again."""
    c = c_solver()
    rules = Rules(ruleset)
    deal = deal_board("growth", board)
    hand = Hand(deal, trump, rules)
    for card in sample_play(deal, trump=trump, rules=rules, cards=4):
        hand.play(card)
    position = (
        [hand.hands[s] for s in (Seat.N, Seat.E, Seat.S, Seat.W)],
        hand.to_move.value,
        [card for _, card in hand.trick],
    )
    expected = Solver(deal, trump=trump, rules=rules).value_of(hand) - hand.totals["NS"]
    search = c.Search(TRUMP_INDEX[trump], rules.obligada, grow_after=1)
    assert search.future(*position) == expected
    assert search.grown
    assert search.at_least(*position, expected) and not search.at_least(*position, expected + 1)
    assert search.future(*position) == expected
    del search  # its table becomes the spare, handed to the next search
    fresh = c.Search(TRUMP_INDEX[trump], rules.obligada, grow_after=1)
    assert not fresh.grown
    assert fresh.future(*position) == expected


def test_reference_search_directly() -> None:
    """The reference on its own (the fallback path): a last trick worked out by hand (R6, R9)."""
    p = parse_token
    # Oros trumps, W leads 1c, S plays 2c, E trumps with 3o, N plays 9c: EW take 4 + 5 + 1.
    hands = [1 << p("9c"), 1 << p("3o"), 1 << p("2c"), 1 << p("1c")]
    search = ReferenceSearch(TRUMP_INDEX["oros"], False)
    assert search.future(hands, Seat.W.value, (), -1) == 0
    # The same cards in botifarra: 9c takes the trick for NS.
    search = ReferenceSearch(TRUMP_INDEX["botifarra"], False)
    assert search.future(hands, Seat.W.value, (), -1) == 10


def test_illegal_or_unknown_input_is_refused() -> None:
    deal = deal_board("bad", 1)
    hand = Hand(deal, "oros")
    leader_cards = hand.legal_cards()
    hand.play(leader_cards[0])
    illegal = [c for c in range(48) if hand.hands[hand.to_move] >> c & 1 and not hand.is_legal(c)]
    if illegal:
        with pytest.raises(IllegalPlay):
            solve(deal, trump="oros", played=[leader_cards[0], illegal[0]])
    with pytest.raises(ValueError, match="unknown trump"):
        solve(deal, trump="trumfo")
    with pytest.raises(ValueError):
        solve(deal, trump="oros", played=[leader_cards[0], leader_cards[0]])


def test_c_search_refuses_positions_that_cannot_be() -> None:
    c = c_solver()
    search = c.Search(0, False)
    with pytest.raises(ValueError):
        search.future([1, 1, 0, 0], 0, [])  # a card in two hands
    with pytest.raises(ValueError):
        search.future([1, 2, 4, 0], 0, [])  # hands of different sizes
    with pytest.raises(ValueError):
        search.future([1, 2, 4, 8], 0, [1, 2, 3, 4])  # four cards on the table
    assert search.future([1, 2, 4, 8], 0, []) in range(0, 10)


def test_backend_is_reported() -> None:
    assert BACKEND in ("c", "python")
