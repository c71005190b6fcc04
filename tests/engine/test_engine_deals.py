"""Seeded deals: rules.md R3 and deals.md."""

import hashlib
import struct
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Seat, card_token, commitment, deal_board, dealer_of_board


def reference_deal(seed: str, board: int) -> dict[str, list[str]]:
    """deals.md read a second time, as literally as possible."""
    words: list[int] = []
    k = 0

    def next_u32() -> int:
        nonlocal k
        if not words:
            digest = hashlib.sha256(f"{seed}:{board}:{k}".encode()).digest()
            words.extend(struct.unpack(">8I", digest))
            k += 1
        return words.pop(0)

    deck = list(range(48))
    for i in range(47, 0, -1):
        u = next_u32()
        while u >= 2**32 - (2**32 % (i + 1)):
            u = next_u32()
        j = u % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    dealer = "NWSE"[(board - 1) % 4]
    order = "NWSE"
    hands: dict[str, set[int]] = {s: set() for s in order}
    for packet in range(12):
        seat = order[(order.index(dealer) + 1 + packet % 4) % 4]
        hands[seat].update(deck[4 * packet : 4 * packet + 4])
    return {s: sorted(card_token(c) for c in hands[s]) for s in order}


def test_dealer_moves_right_each_board_r3() -> None:
    """R3: dealer N, W, S, E for boards ≡ 1, 2, 3, 0 (mod 4)."""
    assert [dealer_of_board(n) for n in range(1, 9)] == [
        Seat.N, Seat.W, Seat.S, Seat.E, Seat.N, Seat.W, Seat.S, Seat.E,
    ]  # fmt: skip


@given(seed=st.text(max_size=20), board=st.integers(min_value=1, max_value=500))
@settings(max_examples=60, deadline=None)
def test_deal_matches_a_literal_reading_of_deals_md_r3(seed: str, board: int) -> None:
    """R3, deals.md: same seed, same hands, whatever the implementation."""
    deal = deal_board(seed, board)
    expected = reference_deal(seed, board)
    assert {s: sorted(t) for s, t in deal.hands_json().items()} == expected


@given(seed=st.text(max_size=30), board=st.integers(min_value=1, max_value=10_000))
@settings(max_examples=100, deadline=None)
def test_deal_is_deterministic_with_12_distinct_cards_each_r3(seed: str, board: int) -> None:
    """R3: 12 cards each, all 48 distinct; the same seed gives the same deal."""
    deal = deal_board(seed, board)
    assert deal == deal_board(seed, board)
    assert deal.dealer == dealer_of_board(board)
    assert all(m.bit_count() == 12 for m in deal.hands.values())
    union = 0
    for m in deal.hands.values():
        assert union & m == 0
        union |= m
    assert union == (1 << 48) - 1


def test_deals_are_uniform_each_card_with_each_seat_about_a_quarter_r3() -> None:
    """R3: over many boards each card lands with each seat ~1/4 (loose bound: ±20 %)."""
    boards = 2000
    counts: Counter[tuple[int, Seat]] = Counter()
    for n in range(1, boards + 1):
        for seat, mask in deal_board("uniformity", n).hands.items():
            for c in range(48):
                if mask >> c & 1:
                    counts[(c, seat)] += 1
    expected = boards / 4
    assert len(counts) == 48 * 4
    assert all(0.8 * expected < v < 1.2 * expected for v in counts.values())


def test_deal_json_shape_and_order_r1_r3() -> None:
    """R1, R3: hands as canonical tokens in R1 order, seat keys N, W, S, E."""
    data = deal_board("shape", 7).to_json()
    assert list(data) == ["board", "dealer", "hands"]
    assert data["board"] == 7 and data["dealer"] == "S"
    assert list(data["hands"]) == ["N", "W", "S", "E"]
    # The first packet of four goes to the dealer's right (R3).
    assert len(data["hands"]["E"]) == 12


def test_commitment_is_sha256_of_the_utf8_seed() -> None:
    """deals.md commitment."""
    assert commitment("seed é") == hashlib.sha256("seed é".encode()).hexdigest()


def test_known_answers_of_docs_engine_md() -> None:
    """Two boards written out in docs/engine.md, for other implementations to check against."""
    hello = deal_board("hello", 1).to_json()
    assert hello["dealer"] == "N"
    assert hello["hands"] == {
        "N": ["9o", "12o", "10o", "2o", "9c", "6c", "5c", "9e", "3e", "1b", "11b", "3b"],
        "W": ["4o", "1c", "11c", "8c", "2c", "7e", "5e", "2e", "8b", "7b", "6b", "5b"],
        "S": ["1o", "8o", "6o", "12c", "10c", "4c", "1e", "11e", "10e", "6e", "12b", "4b"],
        "E": ["11o", "7o", "5o", "3o", "7c", "3c", "12e", "8e", "4e", "9b", "10b", "2b"],
    }
    assert commitment("hello") == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
    rejecting = deal_board("reject-test", 8390869).to_json()
    assert rejecting["hands"]["N"] == [
        "1o",
        "5o",
        "9c",
        "10c",
        "12e",
        "8e",
        "5e",
        "1b",
        "10b",
        "6b",
        "5b",
        "2b",
    ]


def test_the_rejecting_board_really_rejects_a_draw() -> None:
    """Board 8390869 of "reject-test" meets deals.md's rejection step (else the known answer
    above would not test it), and skipping the rejection deals another board."""
    seed, board = "reject-test", 8390869
    words = [
        word
        for k in range(8)
        for word in struct.unpack(">8I", hashlib.sha256(f"{seed}:{board}:{k}".encode()).digest())
    ]
    drawn, rejected = iter(words), []
    for i in range(47, 0, -1):
        u = next(drawn)
        while u >= 2**32 - (2**32 % (i + 1)):
            rejected.append((i, u))
            u = next(drawn)
    assert rejected == [(22, 4294967288)]
    deck = list(range(48))
    plain = iter(words)
    for i in range(47, 0, -1):  # the same shuffle without the rejection
        j = next(plain) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    order = "NWSE"
    north = sorted(
        card_token(c)
        for packet in range(12)
        if order[(1 + packet % 4) % 4] == "N"
        for c in deck[4 * packet : 4 * packet + 4]
    )
    assert north != sorted(deal_board(seed, board).hands_json()["N"])
