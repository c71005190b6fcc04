"""Scoring each match once for every round's snapshot gives what scoring round by round gives
(team standings and Butler), on the benchmark's synthetic team event."""

from benchmarks.synthetic import build_team_event
from scoring.butler import butler_after_each, butler_ranking
from scoring.team_standings import compute_team_standings, team_standings_after_each_round


def test_team_standings_after_each_round_equal_the_round_by_round_ones():
    event = build_team_event(7, teams=12, rounds=4, boards=3)
    every = team_standings_after_each_round(event)
    assert len(every) == 4
    for rnd, result in zip(event.rounds, every, strict=True):
        assert result == compute_team_standings(event, after_round=rnd.number)


def test_butler_after_each_round_equals_butler_of_every_result_so_far():
    event = build_team_event(8, teams=10, rounds=3, boards=4)
    per_round = [
        [r for m in rnd.matches for r in m.open_room + m.closed_room] for rnd in event.rounds
    ]
    every = butler_after_each(per_round, seed="s")
    for k, result in enumerate(every):
        so_far = [r for results in per_round[: k + 1] for r in results]
        assert result == butler_ranking(so_far, seed="s")
