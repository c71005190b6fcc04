"""Legal cards and trick winners: rules.md R6, R7 (lliure), R8 (obligada), and the rule names
of play-record.md, with the trick examples of the seed texts."""

import pytest

from engine import Deal, Hand, IllegalPlay, Rules, Seat, card_token, parse_token
from engine.cards import tokens
from engine.rules import TRUMP_INDEX, illegal_rule, legal_mask


def m(*cards: str) -> int:
    return sum(1 << parse_token(c) for c in cards)


def situation(
    hand: list[str],
    *,
    led: str,
    winning: str,
    partner_winning: bool = False,
    trump: str = "oros",
    position: int = 2,
    obligada: bool = False,
) -> tuple[list[str], dict[str, str | None]]:
    """Legal cards and the broken rule of every held card, in one situation."""
    args = (
        m(*hand),
        position,
        "oceb".index(led),
        parse_token(winning),
        partner_winning,
        TRUMP_INDEX[trump],
        obligada,
    )
    legal = tokens(legal_mask(*args))
    rules = {c: illegal_rule(args[0], parse_token(c), *args[1:]) for c in hand}
    return legal, rules


def test_leader_may_play_any_card_r7_1() -> None:
    """R7.1, R8: the leader is never restricted."""
    hand = m("9o", "2c", "5e", "10b")
    assert legal_mask(hand, 0, 0, 0, False, 0, False) == hand
    assert legal_mask(hand, 0, 0, 0, False, 0, True) == hand


def test_holding_led_suit_must_follow_r7_2() -> None:
    """R7.2 and seed 003's cups example: everyone holding cups follows cups."""
    legal, rules = situation(["2c", "3c", "9o", "1b"], led="c", winning="12c", trump="oros")
    assert legal == ["3c", "2c"]  # neither beats the king: any cup
    assert rules["9o"] == "follow_suit" and rules["1b"] == "follow_suit"


def test_must_beat_opponent_with_the_led_suit_r7_2() -> None:
    """R7.2, seed 003: clubs trumps, partner led the sota of swords, an opponent went over it;
    holding the ace and the 4 of swords, the ace must be played."""
    legal, rules = situation(["1e", "4e"], led="e", winning="12e", trump="bastos")
    assert legal == ["1e"]
    assert rules["4e"] == "must_beat"


def test_nine_overtakes_the_ace_r7_2() -> None:
    """R1, R7.2, seed 000 'Nine outranks ace': B must play the held 9♠ over A♠."""
    legal, rules = situation(["9e", "5e", "7o"], led="e", winning="1e", position=1)
    assert legal == ["9e"]
    assert rules["5e"] == "must_beat" and rules["7o"] == "follow_suit"


def test_nine_overtakes_ace_trick_is_worth_13_to_the_taker_r9() -> None:
    """R6, R9, seed 000: A leads 1e, B 9e, C 2e, D 12e: B captures 4+5+0+3+1 = 13."""
    # Dealer N: W (A) leads, then S (B), E (C), N (D); pairs A–C = EW and B–D = NS.
    hands = {
        Seat.W: m("1e", *[f"{r}o" for r in range(1, 12)]),
        Seat.S: m("9e", *[f"{r}c" for r in range(1, 12)]),
        Seat.E: m("2e", *[f"{r}b" for r in range(1, 12)]),
        Seat.N: m("12e", "12o", "12c", "12b", *[f"{r}e" for r in (3, 4, 5, 6, 7, 8, 10, 11)]),
    }
    hand = Hand(Deal(0, Seat.N, hands), "oros")
    hand.play(parse_token("1e"))
    assert [card_token(c) for c in hand.legal_cards()] == ["9e"]
    for token in ["9e", "2e", "12e"]:
        hand.play(parse_token(token))
    assert hand.trick_winners == [Seat.S]
    assert hand.totals == {"NS": 4 + 5 + 0 + 3 + 1, "EW": 0} == {"NS": 13, "EW": 0}


def test_opponent_trumped_side_suit_any_card_of_led_suit_r7_2() -> None:
    """R7.2: if an opponent has trumped a side suit, any card of the suit led may be played."""
    legal, rules = situation(["9c", "3c", "1o"], led="c", winning="2o", trump="oros")
    assert legal == ["9c", "3c"]
    assert rules["1o"] == "follow_suit"


def test_trump_led_must_overtake_when_opponent_winning_r7_2() -> None:
    """R7.2 (includes not overtaking when trumps are led), seed 003's last detail."""
    legal, rules = situation(["1o", "2o", "5c"], led="o", winning="7o", trump="oros")
    assert legal == ["1o"]
    assert rules["2o"] == "must_beat" and rules["5c"] == "follow_suit"


def test_void_must_trump_any_trump_beats_a_side_card_r7_3() -> None:
    """R7.3, seed 003: oros trumps, ace of clubs led; void in clubs, the 3 of coins must be
    played (a small trump beats the best card of another suit)."""
    legal, rules = situation(["3o", "9e", "5e"], led="b", winning="1b")
    assert legal == ["3o"]
    assert rules["9e"] == "must_trump" and rules["5e"] == "must_trump"


def test_void_must_overtrump_an_opponents_trump_r7_3() -> None:
    """R7.3, seed 003: an opponent trumped with the 7 of coins; holding the ace and the 2 of
    coins, the ace must be played."""
    legal, rules = situation(["1o", "2o", "8e"], led="b", winning="7o")
    assert legal == ["1o"]
    assert rules["2o"] == "must_overtrump" and rules["8e"] == "must_overtrump"


def test_no_compulsory_undertrump_r7_3() -> None:
    """R7.3: unable to beat an opponent's trump, any card may be played."""
    legal, _ = situation(["2o", "8e", "4c"], led="b", winning="9o")
    assert legal == ["2o", "4c", "8e"]


def test_partner_winning_only_follow_suit_r7_4() -> None:
    """R7.4: partner winning: follow suit if possible, otherwise anything (no need to trump)."""
    legal, _ = situation(["1e", "4e", "2o"], led="e", winning="12e", partner_winning=True)
    assert legal == ["1e", "4e"]
    legal, _ = situation(["1o", "8b", "2c"], led="e", winning="12e", partner_winning=True)
    assert legal == ["1o", "2c", "8b"]


def test_botifarra_void_player_may_play_anything_r6() -> None:
    """R6: in botifarra there are no trumps; a void player plays any card."""
    legal, _ = situation(["9o", "2b"], led="e", winning="1e", trump="botifarra")
    assert legal == ["9o", "2b"]


def test_trick_winner_highest_trump_else_highest_of_led_suit_r6() -> None:
    """R6: dealer's right leads; highest trump wins, else the highest card of the suit led."""
    hands = {s: m(*[f"{r}{'oceb'[s.value]}" for r in range(1, 13)]) for s in Seat}
    hand = Hand(Deal(0, Seat.E, hands), "botifarra")
    assert hand.to_move is Seat.N  # the dealer's right leads trick 1
    for token in ["2o", "9b", "9e", "9c"]:  # N, W, S, E: only oros counts in botifarra
        hand.play(parse_token(token))
    assert hand.trick_winners == [Seat.N] and hand.to_move is Seat.N
    hand = Hand(Deal(0, Seat.E, hands), "copes")
    for token in ["2o", "9b", "9e", "2c"]:
        hand.play(parse_token(token))
    assert hand.trick_winners == [Seat.E]  # the only trump wins


def test_obligada_partner_winning_point_card_or_lowest_r8() -> None:
    """R8: partner winning, a card that does not beat W must be a point card or the lowest
    held of its own suit."""
    hand = ["8e", "5e", "3e", "12e"]
    legal, rules = situation(hand, led="e", winning="9e", partner_winning=True, obligada=True)
    assert legal == ["12e", "3e"]
    assert rules["8e"] == rules["5e"] == "lowest_card"


def test_obligada_opponent_winning_lowest_only_r8() -> None:
    """R8: opponent winning and no card beats: only the lowest of the suit."""
    legal, rules = situation(["12e", "6e", "4e"], led="e", winning="9e", obligada=True)
    assert legal == ["4e"]
    assert rules["12e"] == "lowest_card" and rules["6e"] == "lowest_card"


def test_obligada_beating_card_always_allowed_r8() -> None:
    """R8: a card from R7's set that beats W is always allowed, even over the partner."""
    legal, _ = situation(
        ["9e", "8e", "5e"], led="e", winning="1e", partner_winning=True, obligada=True
    )
    assert legal == ["9e", "5e"]


def test_obligada_void_discard_lowest_of_its_own_suit_r8() -> None:
    """R8: void and unable to win: the lowest card of whichever suit is chosen."""
    legal, _ = situation(
        ["12c", "4c", "11b", "7b"], led="e", winning="9o", position=3, obligada=True
    )
    assert legal == ["4c", "7b"]


def test_obligada_second_player_void_may_play_point_cards_r8() -> None:
    """R8 exception: the second player void in L may also play any point card R7 allows."""
    legal, _ = situation(["12c", "4c", "3c"], led="e", winning="5e", position=1, obligada=True)
    assert legal == ["12c", "3c"]
    legal, _ = situation(["12c", "4c", "3c"], led="e", winning="5e", position=2, obligada=True)
    assert legal == ["3c"]


def test_obligada_second_player_who_must_trump_still_must_trump_r8() -> None:
    """R8: the exception never adds cards: a second player who must trump still must."""
    legal, rules = situation(["12c", "3o"], led="e", winning="5e", position=1, obligada=True)
    assert legal == ["3o"]
    assert rules["12c"] == "must_trump"


def test_lowest_is_by_strength_not_rank_r8() -> None:
    """R8: "lowest" is by R1 strength (the 2 is the lowest, the ace beats the king)."""
    legal, _ = situation(["1e", "12e"], led="e", winning="9e", obligada=True)
    assert legal == ["12e"]


def test_lliure_has_no_lowest_card_restriction_r11() -> None:
    """R11: under lliure only R7 applies."""
    legal, _ = situation(["12e", "6e", "4e"], led="e", winning="9e")
    assert legal == ["12e", "6e", "4e"]


def test_hand_play_rejects_illegal_and_records_it_when_allowed_r10() -> None:
    """R10: an illegal card stops the hand; Hand.play raises unless asked to record it."""
    hands = {
        Seat.W: m("1e", *[f"{r}o" for r in range(1, 12)]),
        Seat.S: m("9e", *[f"{r}c" for r in range(1, 12)]),
        Seat.E: m("2e", *[f"{r}b" for r in range(1, 12)]),
        Seat.N: m("12e", "12o", "12c", "12b", *[f"{r}e" for r in (3, 4, 5, 6, 7, 8, 10, 11)]),
    }
    hand = Hand(Deal(0, Seat.N, hands), "oros", Rules("lliure"))
    hand.play(parse_token("1e"))
    with pytest.raises(ValueError, match="not in S's hand"):
        hand.play(parse_token("2e"))
    assert hand.why_illegal(parse_token("5c")) == "follow_suit"
    with pytest.raises(IllegalPlay) as info:
        hand.play(parse_token("5c"))
    assert info.value.rule == "follow_suit"
    hand.play(parse_token("5c"), allow_illegal=True)
    assert hand.is_over and hand.illegal is not None and hand.illegal.rule == "follow_suit"
    assert hand.score(2) == {"NS": 0, "EW": 72}
    hand.undo()
    assert not hand.is_over and hand.to_move is Seat.S
