"""The perfect-play solver against an independent brute force.

The brute force below is written from rules.md alone (R1 strengths and points, R6 trick winner,
R7 legal cards, R8 obligada, R9 totals); it shares no code with engine.rules or engine.solver.
It searches every legal card of small endings (2–3 tricks left, sometimes mid-trick) and must
give the same North–South total as the C search and the pure-Python reference.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine import Hand, Rules, deal_board
from engine.solver import Solver

TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")
T_INDEX = {"oros": 0, "copes": 1, "espases": 2, "bastos": 3, "botifarra": 4}
ORDER = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2]  # R1, strongest first
POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}


def suit(c: int) -> int:
    return c // 12


def rank(c: int) -> int:
    return c % 12 + 1


def strength(c: int) -> int:
    return 11 - ORDER.index(rank(c))


def pts(c: int) -> int:
    return POINTS.get(rank(c), 0)


def beats(card: int, win: int, t: int) -> bool:
    """R6: would ``card`` become the winning card over ``win`` if played now."""
    if suit(win) == t:
        return suit(card) == t and strength(card) > strength(win)
    if suit(card) == t:
        return True
    return suit(card) == suit(win) and strength(card) > strength(win)


def legal(
    hand: frozenset[int], trick: tuple[tuple[int, int], ...], seat: int, t: int, obligada: bool
) -> list[int]:
    """R7 (+ R8): ``trick`` is ((seat, card), …) in order played."""
    if not trick:
        return sorted(hand)
    led = suit(trick[0][1])
    win_seat, win = trick[0]
    for s, c in trick[1:]:
        if beats(c, win, t):
            win_seat, win = s, c
    partner = (win_seat - seat) % 4 == 2
    of_led = [c for c in hand if suit(c) == led]
    if of_led:
        allowed = of_led
        if not partner:
            better = [c for c in of_led if beats(c, win, t)]
            if better:
                allowed = better
    else:
        allowed = list(hand)
        if not partner:
            trumps = [c for c in hand if suit(c) == t and beats(c, win, t)]
            if trumps:
                allowed = trumps
    if not obligada:
        return sorted(allowed)
    second = len(trick) == 1

    def lowest(c: int) -> bool:
        return all(strength(c) <= strength(d) for d in hand if suit(d) == suit(c))

    def obliged_ok(c: int) -> bool:
        # R8, one case a line: a card that wins; a partner's trick gets points or the lowest;
        # an opponent's trick gets the lowest; second hand off the led suit may give points.
        return (
            beats(c, win, t)
            or (partner and (pts(c) > 0 or lowest(c)))
            or (not partner and lowest(c))
            or (second and not of_led and pts(c) > 0)
        )

    return sorted(c for c in allowed if obliged_ok(c))


def brute(
    hands: tuple[frozenset[int], ...],
    seat: int,
    trick: tuple[tuple[int, int], ...],
    t: int,
    obligada: bool,
) -> int:
    """NS's points (cards + 1 per trick) still to take with perfect play from here."""

    @cache
    def go(hands, seat, trick):
        if not any(hands) and not trick:
            return 0
        ns = seat in (0, 2)
        best = None
        for c in legal(hands[seat], trick, seat, t, obligada):
            rest = tuple(h - {c} if s == seat else h for s, h in enumerate(hands))
            now = (*trick, (seat, c))
            if len(now) < 4:
                v = go(rest, (seat + 3) % 4, now)  # play moves right: N -> W -> S -> E (R2)
            else:
                w_seat, w = now[0]
                for s, d in now[1:]:
                    if beats(d, w, t):
                        w_seat, w = s, d
                gain = 1 + sum(pts(d) for _s, d in now)
                v = (gain if w_seat in (0, 2) else 0) + go(rest, w_seat, ())
            if best is None or (v > best if ns else v < best):
                best = v
        return best

    return go(hands, seat, trick)


def positions(n: int, seed: int):
    rng = random.Random(seed)
    for i in range(n):
        ruleset = ("lliure", "obligada")[i % 2]
        trump = TRUMPS[(i // 2) % 5]
        deal = deal_board(f"brute-{seed}", 1 + i % 16)
        hand = Hand(deal, trump, Rules(ruleset))
        stop = 48 - 4 * rng.choice((2, 3)) + rng.randrange(4)
        while len(hand.played) < stop:
            hand.play(rng.choice(hand.legal_cards()))
        yield deal, trump, ruleset, hand


def _state(hand: Hand):
    seats = list(hand.hands)  # Seat enum keys
    by_index = {s.value: hand.hands[s] for s in seats}
    hands = tuple(frozenset(c for c in range(48) if by_index[i] >> c & 1) for i in range(4))
    trick = tuple((s.value, c) for s, c in hand.trick)
    return hands, hand.to_move.value, trick


@pytest.mark.parametrize("seed", [1, 2])
def test_solver_equals_an_independent_brute_force_on_small_endings(seed: int) -> None:
    """R6–R9: 2–3 tricks left, every trump, both rulesets: C, reference and brute force agree."""
    for deal, trump, ruleset, hand in positions(150, seed):
        hands, to_move, trick = _state(hand)
        expected = hand.totals["NS"] + brute(
            hands, to_move, trick, T_INDEX[trump], ruleset == "obligada"
        )
        played = hand.played
        fast = Solver(deal, trump=trump, rules=Rules(ruleset)).value(played)
        ref = Solver(deal, trump=trump, rules=Rules(ruleset), reference=True).value(played)
        where = (trump, ruleset, list(played[-4:]), hands, to_move, trick)
        assert ref == expected, where
        assert fast == expected, where


def test_independent_legal_cards_equal_the_engine_on_random_endings() -> None:
    """R7/R8: the brute force's legal sets equal the engine's on the positions searched."""
    for _deal, trump, ruleset, hand in positions(400, 3):
        hands, to_move, trick = _state(hand)
        mine = legal(hands[to_move], trick, to_move, T_INDEX[trump], ruleset == "obligada")
        assert mine == sorted(hand.legal_cards()), (trump, ruleset, hands[to_move], trick)
