"""A team event seen by the pairing: one implementation (``scoring.methods.next_pairing``) for
pairs and teams alike, parametrised by the competitor.

A team event becomes the :class:`~scoring.types.EventInput` the pairing reads: the competitors
are the teams; each match is one "table" with team A as North–South and team B as East–West (so
the Swiss's direction rule balances which team sits North–South in the open room); its one
result carries the match's margin in units, so that the knockout and the groups see the team
with the positive margin win. The Swiss ranks the teams by their standings (victory points and
the tiebreaks of ``scoring.team_standings``) and pairs teams with close VPs.

>>> from scoring.team_types import TeamEventInput
>>> ev = team_pairing_event(TeamEventInput(teams=[1, 2, 3, 4], numbers={}, withdrawn={},
...     rounds=[]), pairing=PairingOptions(rounds=3))
>>> ev.entries, ev.ranking
([1, 2, 3, 4], None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.team_standings import compute_team_standings
from scoring.team_types import TeamEventInput
from scoring.types import BoardResult, EventInput, PairingOptions, RoundInput, TableRound


def team_pairing_event(
    event: TeamEventInput,
    *,
    pairing: PairingOptions,
    clubs: Mapping[int, int] | None = None,
    forbidden: Sequence[tuple[int, int]] = (),
    ratings: Mapping[int, int] | None = None,
) -> EventInput:
    """The team event as the pairing's input (``event.rounds``: the rounds played so far)."""
    rounds = sorted(event.rounds, key=lambda r: r.number)
    ranking: list[int] | None = None
    scores: dict[int, float] | None = None
    if rounds:
        standings = compute_team_standings(event)
        ranking = [s.team for s in standings.standings]
        scores = {s.team: s.vp for s in standings.standings}
        margins = {(m.round, m.match): m.margin for m in standings.matches}
    else:
        margins = {}
    return EventInput(
        entries=list(event.teams),
        numbers=dict(event.numbers),
        withdrawn=dict(event.withdrawn),
        rounds=[
            RoundInput(
                number=r.number,
                boards=[1],
                tables=[
                    TableRound(
                        round=r.number,
                        table=m.match,
                        ns=m.team_a,
                        ew=m.team_b,
                        results=[
                            _margin_result(
                                m.match, m.team_a, m.team_b, margins.get((r.number, m.match), 0)
                            )
                        ],
                    )
                    for m in r.matches
                ],
                bye=r.bye,
                closed=True,
            )
            for r in rounds
        ],
        ranking_method="points",
        seed=event.seed,
        pairing=pairing,
        clubs=dict(clubs or {}),
        forbidden=list(forbidden),
        ratings=dict(ratings or {}),
        ranking=ranking,
        scores=scores,
    )


def _margin_result(match: int, a: int, b: int, margin: int) -> BoardResult:
    return BoardResult(
        board=1, table=match, ns=a, ew=b, score_ns=max(margin, 0), score_ew=max(-margin, 0)
    )
