"""Player ratings: do they predict, and how long a club's whole history takes to recompute.

- ``rating_kendall_tau``: Kendall's tau between the ratings and the true skills of a synthetic
  club (``scoring.simulation``: 500 players changing partners, 200 Swiss evenings of 20 pairs,
  4 rounds of 6 boards, seed 1). Beside it the same tau for two raw figures of the same players:
  ``winrate_kendall_tau`` (share of matches won) and ``avgpct_kendall_tau`` (average duplicate
  percentage over the boards played).
- ``ratings_recompute_s``: the pure recomputation from scratch of a club history of 5,000
  players and 500 evenings of 40 pairs (4 rounds of 6 boards: 24 boards of 20 tables each):
  building the rating input from each event's ``EventInput`` and rating every event. No
  database: reading the events from it is the bridge's part, measured separately.

Target: ``ratings_recompute_s`` at most 30 s on one core of the reference machine.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.ratings import rate_history, rating_event_from_input  # noqa: E402
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


def _rate(club: SyntheticClub):
    return rate_history(
        rating_event_from_input(ev.input, event=ev.event, when=ev.when, lineups=ev.lineups)
        for ev in club.events
    )


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

    history = synthetic_club(players=5000, events=500, pairs_per_event=40, seed=2)
    start = time.perf_counter()
    big = _rate(history)
    recompute_s = time.perf_counter() - start

    print(f"rating_kendall_tau: {tau_rating:.3f}")
    print(f"winrate_kendall_tau: {tau_winrate:.3f}")
    print(f"avgpct_kendall_tau: {tau_pct:.3f}")
    print(f"ratings_tau_players: {len(players)} players")
    print(f"ratings_recompute_s: {recompute_s:.2f} s")
    print(f"ratings_recompute_events: {big.events} events")
    print(f"ratings_recompute_players: {len(big.ratings)} players")
    return 0


if __name__ == "__main__":
    sys.exit(main())
