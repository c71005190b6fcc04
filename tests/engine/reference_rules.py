"""A deliberately naive second reading of rules.md R6–R8, used as an oracle by the tests.

It works on lists of (rank, suit) facts spelled out from the text, shares no table with the
engine, and is slow on purpose: it is only meant to be obviously right.
"""

from __future__ import annotations

STRENGTH_ORDER = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2]  # R1, strongest first
POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}  # R1
SUITS = ["o", "c", "e", "b"]
TRUMP_LETTER = {"oros": "o", "copes": "c", "espases": "e", "bastos": "b", "botifarra": None}
PLAY_ORDER = ["N", "W", "S", "E"]  # R2: anticlockwise
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def rank(token: str) -> int:
    return int(token[:-1])


def suit(token: str) -> str:
    return token[-1]


def stronger(a: str, b: str) -> bool:
    """a is stronger than b (same suit)."""
    return STRENGTH_ORDER.index(rank(a)) < STRENGTH_ORDER.index(rank(b))


def winning(trick: list[tuple[str, str]], trump: str | None) -> tuple[str, str]:
    """(seat, card) currently winning (R6)."""
    led = suit(trick[0][1])
    trumps = [sc for sc in trick if trump is not None and suit(sc[1]) == trump]
    pool = trumps if trumps else [sc for sc in trick if suit(sc[1]) == led]
    best = pool[0]
    for sc in pool[1:]:
        if stronger(sc[1], best[1]):
            best = sc
    return best


def beats(card: str, trick: list[tuple[str, str]], trump: str | None) -> bool:
    return winning([*trick, ("?", card)], trump)[0] == "?"


def broken_rule(
    seat: str,
    hand: list[str],
    trick: list[tuple[str, str]],
    trump_name: str,
    obligada: bool,
    card: str,
) -> str | None:
    """The first obligation (play-record.md order) that ``card`` breaks, or None."""
    if not trick:
        return None  # R7.1
    trump = TRUMP_LETTER[trump_name]
    led = suit(trick[0][1])
    win_seat, win_card = winning(trick, trump)
    partner_winning = win_seat == PARTNER[seat]
    holding_led = [c for c in hand if suit(c) == led]
    card_beats = beats(card, trick, trump)
    if holding_led and suit(card) != led:
        return "follow_suit"
    if not partner_winning:
        if holding_led:
            if any(beats(c, trick, trump) for c in holding_led) and not card_beats:
                return "must_beat"
        else:
            winning_trumps = [
                c for c in hand if trump is not None and suit(c) == trump and beats(c, trick, trump)
            ]
            if winning_trumps and not card_beats:
                return "must_overtrump" if suit(win_card) == trump else "must_trump"
    if obligada and not card_beats:
        same_suit = [c for c in hand if suit(c) == suit(card)]
        lowest = all(stronger(other, card) for other in same_suit if other != card)
        if partner_winning:
            allowed = POINTS.get(rank(card), 0) > 0 or lowest
        else:
            second_void = len(trick) == 1 and not holding_led
            allowed = lowest or (second_void and POINTS.get(rank(card), 0) > 0)
        if not allowed:
            return "lowest_card"
    return None


def legal(
    seat: str, hand: list[str], trick: list[tuple[str, str]], trump: str, obligada: bool
) -> set[str]:
    return {c for c in hand if broken_rule(seat, hand, trick, trump, obligada, c) is None}
