"""The Swiss with pairs of one club kept apart (docs/scoring.md §5, "Prohibited pairings"): a
club meeting is given up for nothing stronger than itself. Rematches come first, then a second
bye, then club meetings, then direction clashes; each checked against every possible pairing."""

import itertools
import random

import pytest
import rustworkx as rx

from scoring.pairing import ABSOLUTE, direction_need, pair_round
from scoring.types import PairHistory


def _history(opponents=(), byes=0, directions=()):
    return PairHistory(opponents=frozenset(opponents), byes=byes, directions=directions)


def _kinds(a, b, history, clubs):
    """(rematch, club meeting, direction clash) of a table: each as the pairing weighs it."""
    (need_a, strength_a), (need_b, strength_b) = (
        direction_need(history[a]),
        direction_need(history[b]),
    )
    return (
        int(b in history[a].opponents),
        int(clubs is not None and clubs[a] == clubs[b]),
        int(need_a is not None and need_a == need_b and min(strength_a, strength_b) == ABSOLUTE),
    )


def _counts(tables, history, clubs):
    return tuple(map(sum, zip(*(_kinds(a, b, history, clubs) for a, b in tables), strict=True)))


def _matchings(items):
    if not items:
        yield []
        return
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1 :]
        for tail in _matchings(rest):
            yield [(items[0], items[k]), *tail]


def test_a_rematch_is_never_made_to_avoid_a_club_meeting():
    # Pair 5 met 1, 2 and 3: it meets 4 unless one of them sits out. The bye to 1 leaves 2-3
    # (one club meeting) and 4-5, no rematch; 3 and 5 had a bye already.
    history = {
        1: _history({3, 5}),
        2: _history({5}),
        3: _history({1, 5}, byes=1),
        4: _history(),
        5: _history({1, 2, 3}, byes=1),
    }
    clubs = {1: 1, 2: 1, 3: 1, 4: 2, 5: 1}
    pairing = pair_round(ranked=[1, 2, 3, 4, 5], history=history, round_number=3, clubs=clubs)
    assert pairing.bye == 1
    assert _counts(pairing.tables, history, clubs)[0] == 0


def test_a_second_bye_is_never_given_to_avoid_a_club_meeting():
    # Pairs 1-3 (club 1) had a bye; 4 and 5 (club 2) had none. The bye to 5 leaves 1-4 and 2-3:
    # one club meeting, no rematch.
    history = {
        1: _history(byes=1),
        2: _history({4}, byes=1),
        3: _history(byes=1),
        4: _history({2}),
        5: _history(),
    }
    clubs = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}
    pairing = pair_round(ranked=[1, 2, 3, 4, 5], history=history, round_number=2, clubs=clubs)
    assert pairing.bye == 5
    assert _counts(pairing.tables, history, clubs) == (0, 1, 0)


def _random_field(rng, n, *, density, byes=False, directions=False):
    met = {e: set() for e in range(1, n + 1)}
    for a, b in itertools.combinations(range(1, n + 1), 2):
        if rng.random() < density:
            met[a].add(b)
            met[b].add(a)
    history = {
        e: _history(
            met[e],
            byes=int(byes and rng.random() < 0.3),
            directions=tuple(rng.choice(["NS", "EW"]) for _ in range(rng.randint(0, 5)))
            if directions
            else (),
        )
        for e in met
    }
    return list(met), history, {e: rng.choice([1, 2, 3]) for e in met}


def test_small_odd_fields_get_the_bye_and_tables_every_pairing_allows():
    """Over every bye and every set of tables: the fewest rematches, then a first bye where
    one keeps that number, then the fewest club meetings."""
    rng = random.Random(1)
    for _ in range(300):
        ranked, history, clubs = _random_field(rng, rng.choice([5, 7]), density=0.35, byes=True)
        pairing = pair_round(ranked=ranked, history=history, round_number=3, clubs=clubs)
        best = min(
            (
                _counts(tables, history, clubs)[0],
                history[bye].byes,
                _counts(tables, history, clubs)[1],
            )
            for bye in ranked
            for tables in _matchings([e for e in ranked if e != bye])
        )
        counts = _counts(pairing.tables, history, clubs)
        assert (counts[0], history[pairing.bye].byes, counts[1]) == best


def _optimum(ranked, history, clubs):
    """The fewest (rematches, club meetings, clashes) over every set of tables."""
    graph = rx.PyGraph()
    graph.add_nodes_from(ranked)
    for i, j in itertools.combinations(range(len(ranked)), 2):
        rematch, club, clash = _kinds(ranked[i], ranked[j], history, clubs)
        graph.add_edge(i, j, 10**12 - (10**8 * rematch + 10**4 * club + clash))
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    return _counts([(ranked[i], ranked[j]) for i, j in mate], history, clubs)


@pytest.mark.parametrize("clubs_apart", [False, True])
def test_larger_fields_make_no_meeting_or_clash_another_pairing_avoids(clubs_apart):
    """Fields beyond the nearest opponents each pair is first linked to (eight)."""
    rng = random.Random(14)
    for _ in range(200):
        ranked, history, clubs = _random_field(
            rng, rng.choice([18, 24, 30, 40]), density=rng.choice([0.2, 0.4, 0.6]), directions=True
        )
        clubs = clubs if clubs_apart else None
        pairing = pair_round(ranked=ranked, history=history, round_number=6, clubs=clubs)
        assert _counts(pairing.tables, history, clubs) == _optimum(ranked, history, clubs)
