"""Player ratings: do they predict, and how long a club's whole history takes to recompute.

- ``rating_kendall_tau``: Kendall's tau between the ratings and the true skills of a synthetic
  club (``scoring.simulation``: 500 players changing partners, 200 Swiss evenings of 20 pairs,
  4 rounds of 6 boards, seed 1). Beside it the same tau for two raw figures of the same players:
  ``winrate_kendall_tau`` (share of matches won) and ``avgpct_kendall_tau`` (average duplicate
  percentage over the boards played). Then how wide the uncertainty σ is in that club
  (``rating_within_1_sigma`` and ``rating_within_2_sigma``, σ by evenings played).
- ``ratings_recompute_s``: the club's ratings recomputed from scratch FROM THE DATABASE by
  the service the Celery task runs (``services.ratings.ratings_recompute``: read every
  finished event's results, rate the events in order, store the ratings and every player's
  rating history), for a club history of 5,000 players and 500 evenings of 40 pairs (4 rounds
  of 6 boards: 24 boards of 20 tables each, 240,000 results). The history is written first
  with bulk inserts (``benchmarks.synthetic.store_club_history``; ``ratings_history_build_s``)
  into a throw-away test database of the configured DATABASE_URL (PostgreSQL when set).
  The stored ratings are checked equal to the pure computation's on the same history.
- ``ratings_recompute_cpu_s``: the CPU time of this process during that recomputation (the
  database server's own time not included): on a loaded machine the wall time above counts
  the waits for a core too.
- ``ratings_recompute_pure_s``: the pure part alone on the same history (no database).

Target: ``ratings_recompute_s`` at most 30 s on one core of the reference machine.

With ``--explore`` (about a minute more) it also prints how the figures vary: the smallest and
largest margin of the ratings' tau over the win rate's on twenty other clubs
(``tau_margin_min``/``tau_margin_max``), and the ratings' tau for β from 5 to 100 on fields of 8,
16 and 40 pairs (``tau_beta_B_pairs_N``), which is how β = 25 was chosen.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from benchmarks.synthetic import store_club_history  # noqa: E402
from scoring.ratings import (  # noqa: E402
    DEFAULT_PARAMS,
    RatingParams,
    RatingState,
    rate_history,
    rating_event_from_input,
)
from scoring.simulation import SyntheticClub, kendall_tau, synthetic_club, win_rates  # noqa: E402
from scoring.standings import compute_standings  # noqa: E402


def _average_pct(club: SyntheticClub) -> dict[int, float]:
    total: dict[int, float] = {}
    boards: dict[int, int] = {}
    for ev in club.events:
        for row in compute_standings(ev.input).standings:
            for p in ev.lineups[row.entry]:
                total[p] = total.get(p, 0.0) + row.duplicate_pct * row.boards_played
                boards[p] = boards.get(p, 0) + row.boards_played
    return {p: total[p] / boards[p] for p in boards if boards[p]}


_BANDS = ((1, 1), (2, 3), (4, 9), (10, 19), (20, 49), (50, 10**9))


def _calibration(club: SyntheticClub, state: RatingState) -> list[tuple[str, str]]:
    """How wide σ is: its average by evenings played, the spread of μ, and how often the true
    skill (put on the rating scale by a least-squares line through the ratings) lies within
    μ ± σ and μ ± 2σ."""
    players = sorted(state.ratings)
    skill = [club.skills[p] for p in players]
    mu = [state.ratings[p].mu for p in players]
    sigma = [state.ratings[p].sigma for p in players]
    mean_s, mean_mu = statistics.fmean(skill), statistics.fmean(mu)
    slope = sum((s - mean_s) * (m - mean_mu) for s, m in zip(skill, mu, strict=True)) / sum(
        (s - mean_s) ** 2 for s in skill
    )
    errors = [abs(m - mean_mu - slope * (s - mean_s)) for s, m in zip(skill, mu, strict=True)]
    out = [("rating_mu_spread", f"{statistics.pstdev(mu):.2f} points")]
    for k in (1, 2):
        share = sum(e < k * sg for e, sg in zip(errors, sigma, strict=True)) / len(players)
        out.append((f"rating_within_{k}_sigma", f"{share:.3f} of players"))
    for lo, hi in _BANDS:
        band = [state.ratings[p].sigma for p in players if lo <= state.ratings[p].events <= hi]
        label = f"{lo}_{hi}" if hi < 10**9 else f"{lo}_plus"
        out.append((f"rating_sigma_{label}_evenings", f"{statistics.fmean(band):.2f} points"))
    return out


def _rate(club: SyntheticClub, params: RatingParams = DEFAULT_PARAMS) -> RatingState:
    return rate_history(
        (
            rating_event_from_input(ev.input, event=ev.event, when=ev.when, lineups=ev.lineups)
            for ev in club.events
        ),
        params=params,
    )


def _taus(club: SyntheticClub, params: RatingParams = DEFAULT_PARAMS) -> tuple[float, float]:
    state = _rate(club, params)
    rates = win_rates(club)
    players = sorted(rates)
    truth = [club.skills[p] for p in players]
    return (
        kendall_tau(truth, [state.ratings[p].mu for p in players]),
        kendall_tau(truth, [rates[p] for p in players]),
    )


def _explore() -> None:
    margins = []
    for seed in range(2020, 2032):
        rating, winrate = _taus(
            synthetic_club(players=200, events=80, pairs_per_event=16, seed=seed)
        )
        margins.append(rating - winrate)
    for seed in range(2020, 2028):
        club = synthetic_club(players=300, events=150, pairs_per_event=20, seed=seed)
        rating, winrate = _taus(club)
        margins.append(rating - winrate)
    print(f"tau_margin_min: {min(margins):.3f}")
    print(f"tau_margin_max: {max(margins):.3f}")
    for pairs, players, events in ((8, 300, 60), (16, 200, 80), (40, 300, 60)):
        clubs = [
            synthetic_club(players=players, events=events, pairs_per_event=pairs, seed=s)
            for s in (11, 12)
        ]
        for beta in (5.0, 12.0, 25.0, 50.0, 100.0):
            params = RatingParams(beta=beta)
            tau = statistics.fmean(_taus(club, params)[0] for club in clubs)
            print(f"tau_beta_{beta:g}_pairs_{pairs}: {tau:.3f}")


def _recompute_from_database(
    history: SyntheticClub, pure: RatingState
) -> tuple[float, float, float, int]:
    """Store the history (bulk inserts), then time the service's recomputation from scratch;
    the ratings it stores must be the pure computation's."""
    from tournaments.models import PlayerRating, RatingHistory
    from tournaments.services.ratings import ratings_recompute

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        start = time.perf_counter()
        club, player_of = store_club_history(history)
        build_s = time.perf_counter() - start
        start, cpu = time.perf_counter(), time.process_time()
        rated = ratings_recompute(club.pk)
        recompute_s = time.perf_counter() - start
        recompute_cpu_s = time.process_time() - cpu
        stored = {r.player_id: r for r in PlayerRating.objects.filter(club=club)}
        for p, rating in pure.ratings.items():
            mine = stored[player_of[p]]
            if abs(mine.mu - rating.mu) > 1e-6 or abs(mine.sigma - rating.sigma) > 1e-6:
                raise SystemExit(f"player {p}: stored {mine.mu} ± {mine.sigma}, pure {rating}")
        histories = RatingHistory.objects.filter(event__club=club).count()
        expected = sum(len(ev.lineups) * 2 for ev in history.events)
        if histories != expected:
            raise SystemExit(f"{histories} rating history rows, expected {expected}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return build_s, recompute_s, recompute_cpu_s, rated


def main() -> int:
    club = synthetic_club(players=500, events=200, pairs_per_event=20, seed=1)
    state = _rate(club)
    rates = win_rates(club)
    pct = _average_pct(club)
    players = sorted(rates)
    truth = [club.skills[p] for p in players]
    tau_rating = kendall_tau(truth, [state.ratings[p].mu for p in players])
    tau_winrate = kendall_tau(truth, [rates[p] for p in players])
    tau_pct = kendall_tau(truth, [pct[p] for p in players])

    calibration = _calibration(club, state)

    history = synthetic_club(players=5000, events=500, pairs_per_event=40, seed=2)
    start = time.perf_counter()
    big = _rate(history)
    pure_s = time.perf_counter() - start
    build_s, recompute_s, recompute_cpu_s, rated = _recompute_from_database(history, big)

    print(f"rating_kendall_tau: {tau_rating:.3f}")
    print(f"winrate_kendall_tau: {tau_winrate:.3f}")
    print(f"avgpct_kendall_tau: {tau_pct:.3f}")
    print(f"ratings_tau_players: {len(players)} players")
    for name, value in calibration:
        print(f"{name}: {value}")
    print(f"ratings_recompute_s: {recompute_s:.2f} s")
    print(f"ratings_recompute_cpu_s: {recompute_cpu_s:.2f} s")
    print(f"ratings_recompute_pure_s: {pure_s:.2f} s")
    print(f"ratings_history_build_s: {build_s:.1f} s")
    print(f"ratings_recompute_events: {rated} events")
    print(f"ratings_recompute_players: {len(big.ratings)} players")
    if "--explore" in sys.argv[1:]:
        _explore()
    return 0


if __name__ == "__main__":
    sys.exit(main())
