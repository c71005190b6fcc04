"""Reads a team event's results as ``scoring``'s plain objects (the team counterpart of
``scoring_io``): the matches for the team standings and the pairing, the results for Butler."""

from __future__ import annotations

from scoring import types as st
from scoring.methods import planned_rounds
from scoring.team_pairing import team_pairing_event
from scoring.team_types import TeamEventInput, TeamMatchInput, TeamRoundInput
from tournaments.models import BoardResult, Event, Round, TeamMatch
from tournaments.scoring_io import pairing_options


def counted_results(rounds: list[Round]) -> dict[int, list[st.BoardResult]]:
    """Counted results of the rounds' tables, by table id (pairs are entry ids)."""
    out: dict[int, list[st.BoardResult]] = {}
    rows = BoardResult.objects.filter(
        table__round__in=rounds, status__in=BoardResult.COUNTED
    ).values_list(
        "table_id",
        "board__number",
        "table__number",
        "table__ns_id",
        "table__ew_id",
        "score_ns",
        "score_ew",
        "adjusted_ns",
        "adjusted_ew",
    )
    for table_id, board, table_no, ns, ew, s_ns, s_ew, adj_ns, adj_ew in rows:
        out.setdefault(table_id, []).append(
            st.BoardResult(
                board=board,
                table=table_no,
                ns=ns,
                ew=ew,
                score_ns=s_ns,
                score_ew=s_ew,
                adjusted_ns=adj_ns or None,
                adjusted_ew=adj_ew or None,
            )
        )
    return out


def match_input(match: TeamMatch, results: dict[int, list[st.BoardResult]]) -> TeamMatchInput:
    return TeamMatchInput(
        round=match.round.number,
        match=match.number,
        team_a=match.team_a_id,
        team_b=match.team_b_id,
        boards=list(match.round.event.board_numbers(match.round.number)),
        open_room=results.get(match.open_table_id, []),
        closed_room=results.get(match.closed_table_id, []),
    )


def ranking_method(event: Event) -> str:
    return "round_robin" if event.format == Event.Format.ROUND_ROBIN else "swiss"


def team_event_input(
    event: Event,
    *,
    rounds: list[Round] | None = None,
    results: dict[int, list[st.BoardResult]] | None = None,
) -> TeamEventInput:
    """Every counted result of the event's open and closed rounds (or of ``rounds``);
    ``results``: those rounds' ``counted_results`` when the caller has them already."""
    if rounds is None:
        rounds = list(event.rounds.exclude(status=Round.Status.PENDING).order_by("number"))
    if results is None:
        results = counted_results(rounds)
    matches: dict[int, list[TeamMatchInput]] = {}
    for m in TeamMatch.objects.filter(round__in=rounds).select_related("round__event"):
        matches.setdefault(m.round_id, []).append(match_input(m, results))
    teams = list(event.teams.values_list("pk", "number", "withdrawn_after_round"))
    return TeamEventInput(
        teams=[pk for pk, _n, _w in teams],
        numbers={pk: n for pk, n, _w in teams},
        withdrawn={pk: w for pk, _n, w in teams if w is not None},
        rounds=[
            TeamRoundInput(
                number=r.number,
                matches=sorted(matches.get(r.pk, []), key=lambda m: m.match),
                bye=r.team_bye_id,
            )
            for r in rounds
        ],
        ranking_method=ranking_method(event),
        bye_vp=float(event.team_bye_vp),
        seed=event.seed,
    )


def butler_results(
    event: Event,
    *,
    rounds: list[Round],
    results: dict[int, list[st.BoardResult]] | None = None,
) -> list[st.BoardResult]:
    """Every counted result of the rounds' team-match tables (``ns``/``ew``: entry ids)."""
    out: list[st.BoardResult] = []
    if results is None:
        results = counted_results(rounds)
    for table_results in results.values():
        out.extend(table_results)
    # A board's number is shared by every table of its round: number the tables apart.
    return sorted(out, key=lambda r: (r.board, r.table))


def team_pairing_input(event: Event, *, rounds: list[Round]) -> st.EventInput:
    """The team event as the one pairing implementation reads it (``scoring.team_pairing``)."""
    clubs = dict(event.teams.exclude(club=None).values_list("pk", "club_id"))
    return team_pairing_event(
        team_event_input(event, rounds=rounds),
        pairing=pairing_options(event),
        clubs=clubs,
    )


def team_rounds_planned(event: Event) -> int:
    """How many rounds the event's method plays with the teams entered now."""
    return planned_rounds(team_pairing_input(event, rounds=[]))
