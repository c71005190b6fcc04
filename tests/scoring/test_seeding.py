"""Seeding by rating (scoring.seeding): the order, round 1, groups."""

from __future__ import annotations

import pytest

from scoring.pairing import pair_round
from scoring.ratings import Rating, RatingState
from scoring.seeding import rating_order, round_one_order, snake_groups


def test_rating_order_puts_the_strongest_pair_first_and_new_players_at_the_default():
    state = RatingState(ratings={1: Rating(35.0, 2.0), 2: Rating(30.0, 2.0), 3: Rating(15.0, 2.0)})
    # pair 20: 35 + 25 (new) = 60, pair 21: 30 + 15 = 45, pair 22: two new players = 50.
    assert rating_order({21: (2, 3), 22: (8, 9), 20: (1, 7)}, state=state) == [20, 22, 21]


def test_rating_order_keeps_the_given_order_between_equal_pairs():
    state = RatingState()
    assert rating_order({5: (1, 2), 3: (3, 4), 4: (5, 6)}, state=state) == [5, 3, 4]


def test_round_one_seats_the_top_half_against_the_bottom_half():
    order = [11, 12, 13, 14, 15, 16]
    pairing = pair_round(ranked=round_one_order(order), history={}, round_number=1)
    assert {frozenset(t) for t in pairing.tables} == {
        frozenset((11, 14)),
        frozenset((12, 15)),
        frozenset((13, 16)),
    }


def test_round_one_gives_the_bye_to_the_weakest_pair():
    order = [1, 2, 3, 4, 5]
    pairing = pair_round(ranked=round_one_order(order), history={}, round_number=1)
    assert pairing.bye == 5
    assert {frozenset(t) for t in pairing.tables} == {frozenset((1, 3)), frozenset((2, 4))}


def test_snake_groups_balance_the_seeds():
    groups = snake_groups(list(range(1, 17)), groups=4)
    assert groups == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    assert len({sum(g) for g in groups}) == 1


def test_snake_groups_of_an_uneven_field_differ_by_one_at_most():
    sizes = [len(g) for g in snake_groups(list(range(10)), groups=4)]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == 10


def test_seeding_refuses_an_entry_twice_and_zero_groups():
    with pytest.raises(ValueError):
        round_one_order([1, 2, 1])
    with pytest.raises(ValueError):
        snake_groups([1, 2], groups=0)
