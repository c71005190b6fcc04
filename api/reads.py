"""Reads a program needs, as JSON: the crosstable, a board's traveller, a pair's scorecard (the
public pages' data, from their selectors in ``tournaments.public_selectors``, under the same
fairness policy: nothing of a board before its round is closed, except for the event's
organisers and referees), and the event's audit trail for its organisers.
"""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api import read_serializers as rs
from api.schema import errors
from api.views import ApiView, _event
from tournaments import analysis_selectors, policy
from tournaments import public_selectors as sel
from tournaments.models import AuditEntry, Event

TAGS = ["results"]


def _view(request: Request, pk: int) -> sel.EventView:
    event: Event = _event(request, pk)
    if event.is_team_event:
        # Its pages rank teams: the team standings, matches and Butler ranking.
        raise NotFound(_("This is a team event: its results are at /team-standings."))
    staff = policy.is_event_staff(access.actor_for(request), event)
    return sel.event_view(event, staff=staff)


class CrosstableView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="Crosstable",
        description="Pairs × rounds: each pair's opponent, side and, for the rounds whose "
        "scores you may see (closed rounds; organisers and referees the open one too), the "
        "match's outcome and points. Opponents of an open round are public, as on the room's "
        "screen.",
        responses={200: rs.CrosstableSerializer, **errors(404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        ev = _view(request, pk)
        view = sel.crosstable(ev)
        rows = [
            {
                "pair": row.entry.number,
                "name": row.entry.pair.name,
                "rank": row.rank,
                "match_points": row.match_points,
                "cells": [
                    None
                    if cell is None
                    else {
                        "round": cell.round,
                        "table": cell.table,
                        "direction": cell.direction,
                        "opponent": cell.opponent.number if cell.opponent else None,
                        "bye": cell.bye,
                        "outcome": cell.outcome,
                        "points_for": cell.points_for,
                        "points_against": cell.points_against,
                        "forfeit": cell.forfeit,
                    }
                    for cell in row.cells
                ],
            }
            for row in view.rows
        ]
        return Response(
            rs.CrosstableSerializer(
                {
                    "event": ev.event.pk,
                    "rounds": view.rounds,
                    "scored_round": view.scored_round,
                    "rows": rows,
                }
            ).data
        )


def _line(ev: sel.EventView, line: sel.ResultLine) -> dict[str, Any]:
    r, compared = line.result, line.line
    return {
        "table": line.table.number,
        "ns": ev.number(line.table.ns_id),
        "ew": ev.number(line.table.ew_id),
        "status": r.status,
        "declarer": line.declarer,
        "delegated": r.delegated,
        "trump": r.trump,
        "calls": [d for d in r.doubles or [] if isinstance(d, dict)],
        "totals_ns": r.totals_ns,
        "totals_ew": r.totals_ew,
        "offending_pair": r.offending_pair,
        "capot": r.capot,
        "score_ns": r.score_ns,
        "score_ew": r.score_ew,
        "net_ns": line.net_ns,
        "adjusted_ns": r.adjusted_ns,
        "adjusted_ew": r.adjusted_ew,
        "mp_ns": compared.mp_ns if compared else None,
        "mp_ew": compared.mp_ew if compared else None,
        "pct_ns": compared.pct_ns if compared else None,
        "pct_ew": compared.pct_ew if compared else None,
        "recomputing": bool(line.recomputing),
        "vs_par": line.vs_par,
    }


class TravellerView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="A board's traveller",
        description="Every counted result of the board with its matchpoints, in pair numbers. "
        "Shown once the board's round is closed (before that, 403), to its organisers and "
        "referees while it is open. `vs_par` where the board's analysis may be shown.",
        responses={200: rs.TravellerSerializer, **errors(403, 404)},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        ev = _view(request, pk)
        round_number = ev.round_of_board(number)
        if number < 1 or round_number > ev.event.rounds_count:
            raise NotFound(_("There is no board %(n)s.") % {"n": number})
        if not ev.board_visible(number):
            access.refuse(
                request,
                _("The results of board %(b)s are shown once round %(r)s is closed.")
                % {"b": number, "r": round_number},
            )
        trav = sel.board_traveller(ev, number)
        if trav is None:
            raise NotFound(_("There is no board %(n)s.") % {"n": number})
        analysis_selectors.traveller_against_par(
            trav, may_see=policy.can_see_analysis(access.actor_for(request), trav.board)
        )
        return Response(
            rs.TravellerSerializer(
                {
                    "event": ev.event.pk,
                    "board": number,
                    "round": trav.round.number,
                    "top": trav.top,
                    "pending": trav.pending,
                    "lines": [_line(ev, line) for line in trav.lines],
                }
            ).data
        )


class ScorecardView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="A pair's scorecard",
        description="The pair's boards, board by board with matchpoints, of the rounds whose "
        "boards you may see (closed rounds; organisers and referees the open one too), and its "
        "rank after each round whose scores you may see.",
        responses={200: rs.ScorecardSerializer, **errors(404)},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        ev = _view(request, pk)
        entry = ev.by_number.get(number)
        if entry is None:
            raise NotFound(_("There is no pair number %(n)s.") % {"n": number})
        actor = access.actor_for(request)
        card = sel.scorecards(
            ev, [entry], may_see_analysis=lambda board: policy.can_see_analysis(actor, board)
        )[0]
        pair = entry.pair
        return Response(
            rs.ScorecardSerializer(
                {
                    "event": ev.event.pk,
                    "pair": entry.number,
                    "name": pair.name,
                    "players": [pair.player1.name, pair.player2.name],
                    "total_for": card.total_for,
                    "total_against": card.total_against,
                    "pct": card.pct,
                    "lines": [
                        {
                            "round": line.round,
                            "board": line.board,
                            "table": line.table,
                            "direction": line.direction,
                            "opponent": line.opponent.number if line.opponent else None,
                            "trump": line.line.result.trump,
                            "score_for": line.score_for,
                            "score_against": line.score_against,
                            "mp": line.mp,
                            "pct": line.pct,
                            "recomputing": bool(line.line.recomputing),
                            "vs_par": line.vs_par,
                        }
                        for line in card.lines
                    ],
                    "history": [{"after_round": a, "rank": r} for a, r in card.history],
                }
            ).data
        )


@extend_schema(
    tags=["event lifecycle"],
    summary="The event's audit trail",
    description="Organisers: every change of the event, its pairs, rounds and results, oldest "
    "first (who, what, old → new per field, when), a page at a time. `?action=` keeps one "
    "kind (e.g. `result_confirmed`, `round_closed`).",
    parameters=[rs.AuditQuerySerializer],
    responses={200: rs.AuditEntrySerializer(many=True), **errors(403, 404)},
)
class AuditView(generics.ListAPIView):
    serializer_class = rs.AuditEntrySerializer

    def get_queryset(self):
        event = _event(self.request, self.kwargs["pk"])
        if not access.actor_for(self.request).is_organiser(event):
            access.refuse(self.request, _("The audit trail is for the event's organisers."))
        query = rs.AuditQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        entries = AuditEntry.objects.filter(event=event).select_related(
            "result__table__round", "result__board"
        )
        if query.validated_data.get("action"):
            entries = entries.filter(action=query.validated_data["action"])
        return entries.order_by("created_at", "pk")
