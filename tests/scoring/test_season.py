"""The club's season (scoring.season): point tables, shared places, best N of M, countback."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from scoring.season import (
    POINT_TABLES,
    EventPoints,
    Placement,
    PointTable,
    SeasonEvent,
    SeasonInputError,
    event_points,
    placements_from_standings,
    season_ranking,
)
from scoring.standings import compute_standings
from scoring.types import BoardResult, EventInput, RoundInput, TableRound

FIRST = date(2026, 1, 6)


def _event(n: int, *ranked: tuple[int, tuple[int, ...]], field: int | None = None):
    return SeasonEvent(
        event=n,
        when=FIRST + timedelta(days=7 * n),
        placements=tuple(Placement(rank, players) for rank, players in ranked),
        field=field,
    )


def _by_player(standings):
    return {s.competitor[0]: s for s in standings}


def test_field_table_gives_one_point_per_entry_at_or_below():
    table = POINT_TABLES["field"]
    assert [table.points(p, 5) for p in range(1, 6)] == [5, 4, 3, 2, 1]


def test_top10_table_is_fixed_and_zero_past_tenth():
    table = POINT_TABLES["top10"]
    assert table.points(1, 6) == table.points(1, 60) == 25
    assert table.points(10, 30) == 1 and table.points(11, 30) == 0


def test_scaled_table_grows_with_the_field():
    table = POINT_TABLES["top10_scaled"]
    assert table.points(1, 16) == 25  # as printed for 16 pairs
    assert table.points(1, 32) == 50
    assert table.points(2, 8) == 9


def test_tied_entries_share_the_places_they_cover():
    # Ranks 1, 2, 2, 4 in a field of 4: places 2 and 3 (3 and 2 points) are shared, 2.5 each.
    ev = _event(1, (1, (1, 2)), (2, (3, 4)), (2, (5, 6)), (4, (7, 8)))
    assert [pts for _p, pts in event_points(ev, table=POINT_TABLES["field"])] == [4, 2.5, 2.5, 1]


def test_ranks_that_do_not_add_up_are_refused():
    # Without an explicit field the placements are the whole field: rank 3 after one entry
    # leaves place 2 empty and needs a third place.
    with pytest.raises(SeasonInputError):
        event_points(_event(1, (1, (1, 2)), (3, (3, 4))), table=POINT_TABLES["field"])
    # Three entries sharing rank 1 cover places 1-3: a rank 2 overlaps them.
    overlap = _event(1, (1, (1, 2)), (1, (3, 4)), (1, (5, 6)), (2, (7, 8)), field=6)
    with pytest.raises(SeasonInputError):
        event_points(overlap, table=POINT_TABLES["field"])
    with pytest.raises(SeasonInputError):
        event_points(_event(1, (4, (1, 2)), field=3), table=POINT_TABLES["field"])


def test_with_an_explicit_field_entries_may_be_left_out():
    # Players 1 and 2 finished fifth of ten; the other entries are not given.
    ev = _event(1, (5, (1, 2)), field=10)
    assert [pts for _p, pts in event_points(ev, table=POINT_TABLES["field"])] == [6]


def test_every_player_of_the_entry_gets_its_points():
    ev = _event(1, (1, (1, 2)), (2, (3, 4)))
    by = _by_player(season_ranking([ev]))
    assert by[1].total == by[2].total == 2
    assert by[3].total == by[4].total == 1
    assert by[1].rank == by[2].rank == 1 and by[3].rank == 3


def test_best_n_of_m_counts_only_the_best_scores():
    # Player 1 scores 4, 2 and 3 points in three 4-pair evenings; with best 2: 4 + 3 = 7.
    events = [
        _event(1, (1, (1, 2)), (2, (3, 4)), (3, (5, 6)), (4, (7, 8))),
        _event(2, (1, (3, 4)), (2, (5, 6)), (3, (1, 2)), (4, (7, 8))),
        _event(3, (1, (3, 4)), (2, (1, 2)), (3, (5, 6)), (4, (7, 8))),
    ]
    by = _by_player(season_ranking(events, best=2))
    assert by[1].total == 7
    assert by[1].results == (
        EventPoints(event=1, points=4.0, counted=True),
        EventPoints(event=2, points=2.0, counted=False),
        EventPoints(event=3, points=3.0, counted=True),
    )
    assert by[3].total == 8  # 3 + 4 + 4, best two: 4 + 4
    assert by[1].events_played == 3


def test_equal_scores_count_the_earlier_event():
    events = [_event(n, (1, (1, 2)), (2, (3, 4))) for n in (1, 2, 3)]
    by = _by_player(season_ranking(events, best=2))
    assert [r.counted for r in by[1].results] == [True, True, False]


def test_countback_separates_equal_totals_by_the_better_best_score():
    # Player 1: 6 + 1 = 7; player 3: 4 + 3 = 7. Player 1's best evening (6) beats 4.
    events = [
        _event(
            1,
            *[(1, (1, 2)), (2, (21, 22)), (3, (3, 4))],
            *[(4, (23, 24)), (5, (25, 26)), (6, (27, 28))],
        ),
        _event(2, (1, (9, 10)), (2, (3, 4)), (3, (11, 12)), (4, (1, 2))),
    ]
    by = _by_player(season_ranking(events))
    assert by[1].total == by[3].total == 7
    assert by[1].rank < by[3].rank


def test_countback_treats_a_missed_evening_as_zero_points():
    # Player 1: 5 (one evening). Player 3: 5 = 3 + 2 over two; countback: 5 beats 3.
    events = [
        _event(1, (1, (1, 2)), (2, (5, 6)), (3, (7, 8)), (4, (9, 10)), (5, (11, 12))),
        _event(2, (1, (13, 14)), (2, (3, 4)), (3, (15, 16))),
        _event(3, (1, (17, 18)), (2, (19, 20)), (3, (3, 4))),
    ]
    ranking = season_ranking(events, table=PointTable("fixed", places=(5, 3, 2), beyond=0))
    by = _by_player(ranking)
    assert by[1].total == by[3].total == 5
    assert by[1].rank < by[3].rank


def test_players_equal_on_everything_share_a_rank_listed_by_id():
    ranking = season_ranking([_event(1, (1, (4, 2)), (2, (3, 1)))])
    assert [(s.competitor, s.rank) for s in ranking] == [((2,), 1), ((4,), 1), ((1,), 3), ((3,), 3)]


def test_pairs_ranking_keeps_partnerships_apart():
    events = [
        _event(1, (1, (1, 2)), (2, (3, 4))),
        _event(2, (1, (2, 1)), (2, (3, 5)), (3, (4, 6))),
    ]
    ranking = season_ranking(events, by="pair")
    totals = {s.competitor: s.total for s in ranking}
    assert totals == {(1, 2): 5, (3, 4): 1, (3, 5): 2, (4, 6): 1}
    assert ranking[0].competitor == (1, 2) and ranking[0].rank == 1


def test_an_explicit_field_counts_entries_without_placements():
    ev = _event(1, (1, (1, 2)), field=10)
    assert season_ranking([ev])[0].total == 10


def test_season_input_errors():
    with pytest.raises(SeasonInputError):
        season_ranking([_event(1, (1, (1, 2)), (2, (1, 3)))])  # a player placed twice
    with pytest.raises(SeasonInputError):
        season_ranking([_event(1, (1, (1, 2)))], best=0)
    with pytest.raises(SeasonInputError):
        season_ranking([_event(1, (1, (1, 2)))], by="team")
    with pytest.raises(SeasonInputError):
        season_ranking([_event(1, (1, (1, 2))), _event(1, (1, (1, 2)))])
    with pytest.raises(SeasonInputError):
        PointTable("scaled", places=(3, 2, 1))
    with pytest.raises(SeasonInputError):
        POINT_TABLES["field"].points(5, 4)


def test_placements_come_from_the_final_standings_with_shared_ranks():
    def table(t, ns, ew, net):
        return TableRound(1, t, ns, ew, [BoardResult(1, t, ns, ew, max(net, 0), max(-net, 0))])

    data = EventInput(
        entries=[10, 11, 12, 13],
        numbers={10: 1, 11: 2, 12: 3, 13: 4},
        withdrawn={},
        rounds=[RoundInput(1, [1], [table(1, 10, 11, 8), table(2, 12, 13, 8)])],
    )
    lineups = {10: (1, 2), 11: (3, 4), 12: (5, 6), 13: (7, 8)}
    placements = placements_from_standings(compute_standings(data), lineups=lineups)
    # Both NS pairs won 8-0 with a 50 % traveller: they tie for first, the EW pairs for third.
    assert sorted((p.rank, p.players) for p in placements) == [
        (1, (1, 2)),
        (1, (5, 6)),
        (3, (3, 4)),
        (3, (7, 8)),
    ]
    with pytest.raises(SeasonInputError):
        placements_from_standings(compute_standings(data), lineups={10: (1, 2)})


def test_worked_example_of_the_documentation():
    # docs/clubs.md 2.4: Anna 1, Biel 2, Carles 3, Dolors 4, Eva 5, Ferran 6; field points,
    # best 3 of 4; totals and countback worked out by hand there.
    events = [
        _event(1, (1, (1, 2)), (2, (3, 4)), (2, (5, 6)), field=12),
        _event(2, (1, (7, 8)), (2, (2, 4)), (3, (1, 3)), field=8),
        _event(3, (5, (1, 2)), field=10),
        _event(4, (1, (3, 6)), (2, (1, 4)), (7, (2, 5)), field=14),
    ]
    ranking = season_ranking(events, best=3)
    assert [(s.competitor[0], s.rank, s.total) for s in ranking[:6]] == [
        (1, 1, 31),
        (3, 2, 30.5),
        (4, 3, 30.5),
        (2, 4, 27),
        (6, 5, 24.5),
        (5, 6, 18.5),
    ]
    anna = ranking[0]
    assert [(r.points, r.counted) for r in anna.results] == [
        (12, True),
        (6, True),
        (6, False),
        (13, True),
    ]
