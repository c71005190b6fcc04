"""Cards, suits and seats: rules.md R1 and R2."""

import pytest

from engine import (
    Seat,
    Suit,
    card_points,
    card_token,
    cards_to_mask,
    mask_to_cards,
    parse_card,
    parse_token,
    sort_cards,
)
from engine.cards import CARD_STRENGTH


def test_pack_has_48_cards_with_60_points_r1() -> None:
    """R1: 48 cards, 60 points in the pack."""
    assert len({card_token(c) for c in range(48)}) == 48
    assert sum(card_points(c) for c in range(48)) == 60


def test_card_index_is_suit_times_12_plus_rank_minus_1_r1() -> None:
    """R1 / deals.md: canonical order oros, copes, espases, bastos; ranks 1..12."""
    assert parse_token("1o") == 0
    assert parse_token("12o") == 11
    assert parse_token("1c") == 12
    assert parse_token("9e") == 32
    assert parse_token("12b") == 47


@pytest.mark.parametrize(
    ("rank", "points"), [(9, 5), (1, 4), (12, 3), (11, 2), (10, 1), (8, 0), (2, 0)]
)
def test_card_points_r1(rank: int, points: int) -> None:
    """R1: 9 = 5, 1 = 4, 12 = 3, 11 = 2, 10 = 1, others 0."""
    for letter in "oceb":
        assert card_points(parse_token(f"{rank}{letter}")) == points


def test_strength_order_nine_ace_king_down_to_two_r1() -> None:
    """R1: strongest first 9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2."""
    order = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2]
    strengths = [CARD_STRENGTH[parse_token(f"{r}c")] for r in order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == 12


def test_sort_is_suit_then_strength_strongest_first_r1() -> None:
    """R1: `9o 1o 12o … 2o 9c …`."""
    tokens = [card_token(c) for c in sort_cards(range(48))]
    assert tokens[:4] == ["9o", "1o", "12o", "11o"]
    assert tokens[11:14] == ["2o", "9c", "1c"]
    assert tokens[-1] == "2b"
    assert [card_token(c) for c in mask_to_cards(cards_to_mask(range(48)))] == tokens


def test_parse_token_is_strict_r1() -> None:
    """R1: written records use canonical tokens only."""
    for bad in ["9O", " 9o", "09o", "13o", "0o", "9x", "", "9", "o9", "9♦"]:
        with pytest.raises(ValueError):
            parse_token(bad)
    with pytest.raises(ValueError):
        parse_token(9)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("9o", "9o"),
        ("9O", "9o"),
        (" 10 b ", "10b"),
        ("12♣", "12b"),
        ("1 ♦", "1o"),
        ("7♥", "7c"),
        ("3♠", "3e"),
        ("sota de copes", "10c"),
        ("Cavall d'espases", "11e"),
        ("rei de bastos", "12b"),
        ("as d'oros", "1o"),
        ("manilla d’oros", "9o"),
        ("5 oros", "5o"),
        ("4BASTOS", "4b"),
    ],
)
def test_parse_card_accepts_spellings_for_people_r1(text: str, token: str) -> None:
    """R1: an input meant for people may also accept other spellings."""
    assert card_token(parse_card(text)) == token


@pytest.mark.parametrize("text", ["13o", "0c", "as", "rei", "9 x", "9 de", "reina de copes", "Q♠"])
def test_parse_card_rejects_what_it_cannot_read_r1(text: str) -> None:
    """R1: lenient input still rejects anything ambiguous or unknown."""
    with pytest.raises(ValueError):
        parse_card(text)


def test_suit_from_str_and_properties_r1() -> None:
    """R1: suits oros ♦, copes ♥, espases ♠, bastos ♣."""
    assert [s.letter for s in Suit] == ["o", "c", "e", "b"]
    assert [s.name_ca for s in Suit] == ["oros", "copes", "espases", "bastos"]
    for s in Suit:
        assert Suit.from_str(s.name_ca) is s
        assert Suit.from_str(s.letter.upper()) is s
        assert Suit.from_str(s.symbol) is s
    with pytest.raises(ValueError):
        Suit.from_str("clubs")


def test_seats_move_anticlockwise_to_the_right_r2() -> None:
    """R2: N → W → S → E → N; partnerships NS and EW."""
    assert [Seat.N.right, Seat.W.right, Seat.S.right, Seat.E.right] == [
        Seat.W,
        Seat.S,
        Seat.E,
        Seat.N,
    ]
    assert Seat.N.partner is Seat.S and Seat.E.partner is Seat.W
    assert {s.pair for s in Seat} == {"NS", "EW"}
    assert Seat.N.pair == Seat.S.pair == "NS"
    assert Seat.from_str("w") is Seat.W
    with pytest.raises(ValueError):
        Seat.from_str("X")
    assert repr(Seat.N) == "Seat.N" and eval(repr(Suit.COPES)) is Suit.COPES
