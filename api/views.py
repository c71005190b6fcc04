"""The REST API: thin views that parse, call one service, and render.

Reads go through the querysets of ``api.access`` (who may see what); every write goes through a
service of ``tournaments.services``, whose ``ServiceError`` becomes a 400/403/409 with the field
it concerns (``api.errors``).
"""

from typing import Any

from django.contrib.auth import authenticate
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, set_response_etag
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotFound, PermissionDenied, Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from api import access
from api import serializers as s
from api.authentication import expires_at, issue_table_token
from api.errors import NON_FIELD, error_body
from api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from api.organiser import no_body
from api.parsers import StorableJSONParser
from api.principals import TableUser
from api.schema import NOT_MODIFIED, errors
from api.throttles import VerifyThrottle
from scoring.standings import CRITERIA
from tournaments import (
    play,
    policy,
    public_selectors,
    queue,
    ratelimit,
    table_access,
    team_selectors,
)
from tournaments.actors import Actor
from tournaments.analysis_selectors import board_analysis_json
from tournaments.labels import FieldProblem, side_label, verdict_json
from tournaments.models import (
    Board,
    BoardResult,
    Dispute,
    Event,
    PlayRecord,
    Round,
    Table,
)
from tournaments.prepared import Prepared, read_together
from tournaments.services import ServiceError, disputes, events, results

WRITE_ERRORS = errors(400, 401, 403, 409, 422)


class ApiView(APIView):
    parser_classes = [StorableJSONParser]


# Preconditions of a write: on a read, Django's helper would answer them with an empty 412,
# outside the API's contract. A poll is answered whatever they say.
WRITE_PRECONDITIONS = ("HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE")


class ConditionalGetView(ApiView):
    """A GET answer that readers poll: it carries an ETag (a hash of its bytes) and is a 304
    without a body when the reader's ``If-None-Match`` names it."""

    conditional_get = True  # api.schema declares the headers

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method != "GET" or response.status_code != 200:
            return response
        response.render()
        set_response_etag(response)
        response["Cache-Control"] = "no-cache"
        meta = request.META
        ignored = {k: meta.pop(k) for k in WRITE_PRECONDITIONS if k in meta}
        try:
            return get_conditional_response(request, etag=response["ETag"], response=response)
        finally:
            meta.update(ignored)


def refuse_if_blocked(attempt: ratelimit.Attempt) -> None:
    if attempt.blocked:
        raise Throttled(wait=attempt.retry_after)


@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any other path under the API (an id that is not a number, a typo): the API's JSON 404,
    not the site's HTML page."""
    message = _("Not found: nothing here has this number, or you may not see it.")
    return JsonResponse(
        error_body([{"field": NON_FIELD, "message": str(message)}]),
        status=status.HTTP_404_NOT_FOUND,
    )


# ---- authentication ----------------------------------------------------------------------------


class AccountTokenView(ApiView):
    """Exchange a username and password for an account token (attempts counted with the site's
    login, ``tournaments.ratelimit``); ``DELETE`` with the token revokes it (a lost phone, a
    script retired): the next ``POST`` makes a new one."""

    def _revoking(self) -> bool:
        return getattr(getattr(self, "request", None), "method", None) == "DELETE"

    def get_authenticators(self) -> list[Any]:
        return [TokenAuthentication()] if self._revoking() else []

    def get_permissions(self) -> list[Any]:
        return [permissions.IsAuthenticated() if self._revoking() else permissions.AllowAny()]

    @extend_schema(
        tags=["authentication"],
        request=s.LoginSerializer,
        responses={200: s.TokenSerializer, **errors(400, 429)},
        auth=[],
        summary="Account token",
    )
    def post(self, request: Request) -> Response:
        form = s.LoginSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tried = ratelimit.login_attempt(request=request, username=form.validated_data["username"])
        refuse_if_blocked(tried)
        user = authenticate(
            request._request,
            username=form.validated_data["username"],
            password=form.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise ValidationError(
                {"non_field_errors": [_("Unable to log in with this username and password.")]}
            )
        tried.give_back()
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})

    @extend_schema(
        tags=["authentication"],
        request=None,
        responses={204: None, **errors(401)},
        summary="Revoke the account token sent",
    )
    def delete(self, request: Request) -> Response:
        assert isinstance(request.auth, Token)
        request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableTokenView(ApiView):
    """Exchange a table code (read at the table) for a table token, valid while the round is
    open. Attempts share one budget with the table-code form (``tournaments.ratelimit``)."""

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=["authentication"],
        request=s.TableCodeSerializer,
        responses={200: s.TableTokenSerializer, **errors(400, 429)},
        auth=[],
        summary="Table token",
    )
    def post(self, request: Request) -> Response:
        form = s.TableCodeSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tried = ratelimit.table_code_attempt(request=request)
        refuse_if_blocked(tried)
        code = table_access.normalise_code(form.validated_data["code"])
        table, _closed = table_access.open_table_for_code(code, players=False)
        side = table.side_for_code(code) if table is not None else None
        if table is None or side is None:
            raise ValidationError(
                {"code": [_("No open table has this code: check it with the organiser.")]}
            )
        tried.give_back()
        expected = form.validated_data.get("side")
        if expected and expected != side:
            raise ValidationError(
                {
                    "side": [
                        _("This code is %(side)s's, not %(other)s's.")
                        % {"side": side_label(side), "other": side_label(expected)}
                    ]
                }
            )
        token, row = issue_table_token(table, side)
        return Response(s.table_token_answer(token, side, table, expires_at(row)))


# ---- events, rounds, tables, boards, standings ------------------------------------------------


def _event(request: Request, pk: int):
    return get_object_or_404(access.visible_events(request), pk=pk)


@extend_schema(
    tags=["events"],
    summary="Events",
    description="Published events, plus your own (organised, refereed, played).",
)
class EventListView(generics.ListAPIView):
    serializer_class = s.EventSerializer

    def get_queryset(self):
        return access.listed_events(self.request).order_by("-date", "name", "pk")


@extend_schema(
    tags=["events"],
    summary="Event",
    description="`commitment` always; `seed` only once the event is finished.",
    responses={200: s.EventSerializer, **errors(404)},
)
class EventDetailView(generics.RetrieveAPIView):
    serializer_class = s.EventSerializer

    def get_object(self):
        return _event(self.request, self.kwargs["pk"])


@extend_schema(
    tags=["events"],
    summary="Rounds of an event",
    responses={200: s.RoundSerializer(many=True), **errors(404)},
)
class EventRoundsView(generics.ListAPIView):
    serializer_class = s.RoundSerializer

    def get_queryset(self):
        self.event = _event(self.request, self.kwargs["pk"])
        return (
            self.event.rounds.select_related("event", "bye__pair")
            .annotate(table_count=Count("tables"))
            .order_by("number")
        )

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if hasattr(self, "event"):
            context["event_staff"] = policy.is_event_staff(
                access.actor_for(self.request), self.event
            )
        return context


@extend_schema(
    tags=["events"],
    summary="Tables of a round",
    description="Table codes are shown to the event's organisers only.",
    responses={200: s.TableSerializer(many=True), **errors(404)},
)
class RoundTablesView(generics.ListAPIView):
    serializer_class = s.TableSerializer

    def get_queryset(self):
        self.round = get_object_or_404(
            Round.objects.select_related("event").filter(
                event__in=access.visible_events(self.request).values("pk")
            ),
            pk=self.kwargs["pk"],
        )
        if self.round.status == Round.Status.PENDING and not policy.is_event_staff(
            access.actor_for(self.request), self.round.event
        ):
            # A proposal the organiser may still change is theirs and the referees' (as on the
            # pairings page), not the players'.
            return self.round.tables.none()
        return self.round.tables.select_related("round", "ns__pair", "ew__pair").order_by("number")

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if hasattr(self, "round"):
            actor = access.actor_for(self.request)
            context["actor"] = actor
            context["show_codes"] = policy.can_see_codes(actor, self.round.event)
            context["staff"] = policy.is_event_staff(actor, self.round.event)
        return context


class BoardView(ApiView):
    @extend_schema(
        tags=["events"],
        summary="Board",
        description="The dealer always; `hands` only for those who may see the "
        "cards (`hands_visible`): the event's organisers and referees, a table once "
        "it has unlocked the board (stored its result or declared it played), everyone "
        "once the board's round is closed and the event published. "
        "`analysis` (what each trump makes with perfect play, and the par) under the "
        "same rule, null until it is computed.",
        responses={200: s.BoardSerializer, **errors(404)},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = _event(request, pk)
        board = get_object_or_404(Board.objects.select_related("event"), event=event, number=number)
        actor = access.actor_for(request)
        context: dict[str, Any] = {"hands_visible": policy.can_see_cards(actor, board)}
        if policy.can_see_analysis(actor, board):
            context |= {"analysis_visible": True, "analysis": board_analysis_json(board)}
        return Response(s.BoardSerializer(board, context=context).data)


def _standings(event: Event, view: public_selectors.StandingsView, ev) -> dict[str, Any]:
    snapshot = view.snapshot
    matches = sorted(snapshot.matches if snapshot else [], key=lambda m: m["table"])
    return {
        "event": event.pk,
        "after_round": view.after_round,
        "rounds": view.after_rounds,
        "stale": view.state != queue.FRESH,
        "updated_at": snapshot.computed_at if snapshot else None,
        "ranking_method": event.ranking_method,
        "criteria": list(CRITERIA[event.ranking_method]),
        "rows": [
            {
                **row.data,
                "shared": row.shared,
                "pair": row.entry.number,
                "name": row.entry.pair.name,
            }
            for row in view.rows
        ],
        "matches": [
            {**m, "ns": ev.number(m["ns"]), "ew": ev.number(m["ew"])}
            for m in matches
            if m["ns"] in ev.entries and m["ew"] in ev.entries
        ],
    }


class StandingsView(ConditionalGetView):
    @extend_schema(
        tags=["events"],
        summary="Standings",
        description="The standings after round `after` (default: the latest you may see): "
        "the public and the tables see closed rounds, the event's organisers and referees "
        "the open round live. `stale` is true while a recomputation of standings you may "
        "see is pending (for the public and the tables: a change to a closed round).",
        parameters=[s.StandingsQuerySerializer],
        responses={200: s.StandingsSerializer, **NOT_MODIFIED, **errors(400, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        query = s.StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        event = _event(request, pk)
        if event.is_team_event:
            raise NotFound(_("This is a team event: its standings are at /team-standings."))
        staff = policy.is_event_staff(access.actor_for(request), event)
        ev = public_selectors.event_view(event, staff=staff)
        after = query.validated_data.get("after")
        view = public_selectors.standings(ev, after_round=after)
        if after is not None and view.after_round != after:
            raise NotFound(
                _("There are no standings after round %(n)s that you may see.") % {"n": after}
            )
        return Response(s.StandingsSerializer(_standings(event, view, ev)).data)


def _team_standings(event: Event, view: team_selectors.TeamStandingsView) -> dict[str, Any]:
    snapshot = view.snapshot
    numbers = {row.team.pk: row.team.number for row in view.rows}
    return {
        "event": event.pk,
        "after_round": view.after_round,
        "rounds": view.after_rounds,
        "stale": view.state != queue.FRESH,
        "updated_at": snapshot.computed_at if snapshot else None,
        "rows": [
            {**row.data, "shared": row.shared, "number": row.team.number, "name": row.team.name}
            for row in view.rows
        ],
        "matches": [
            {**m, "team_a": numbers.get(m["team_a"]), "team_b": numbers.get(m["team_b"])}
            for m in sorted(snapshot.matches if snapshot else [], key=lambda m: m["match"])
        ],
        "butler": [
            {
                **row.data,
                "shared": row.shared,
                "pair": row.entry.number,
                "name": row.entry.pair.name,
                "team": row.team.number if row.team else None,
            }
            for row in view.butler
        ],
    }


class TeamStandingsView(ConditionalGetView):
    @extend_schema(
        tags=["events"],
        summary="Team standings",
        description="A team event's standings after round `after` (default: the latest you "
        "may see), its matches of that round and the Butler ranking of its pairs. The public "
        "and the tables see closed rounds, the event's organisers and referees the open round "
        "live. 404 for a pairs event.",
        parameters=[s.StandingsQuerySerializer],
        responses={200: s.TeamStandingsSerializer, **NOT_MODIFIED, **errors(400, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        query = s.StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        event = _event(request, pk)
        if not event.is_team_event:
            raise NotFound(_("This is not a team event."))
        staff = policy.is_event_staff(access.actor_for(request), event)
        ev = public_selectors.event_view(event, staff=staff)
        after = query.validated_data.get("after")
        view = team_selectors.team_standings(ev, after_round=after)
        if after is not None and view.after_round != after:
            raise NotFound(
                _("There are no standings after round %(n)s that you may see.") % {"n": after}
            )
        return Response(s.TeamStandingsSerializer(_team_standings(event, view)).data)


# ---- results --------------------------------------------------------------------------------


def _result_qs():
    return BoardResult.objects.select_related(
        "table__round__event",
        "board",
        "table__ns__pair__player1",
        "table__ns__pair__player2",
        "table__ew__pair__player1",
        "table__ew__pair__player2",
    ).prefetch_related(Prefetch("disputes", queryset=Dispute.objects.order_by("pk")))


def _table(pk: int, request: Request) -> Table:
    """Table ``pk``, with its event and players: the token's own table when it is that one
    (already read by the authentication, with the same joins)."""
    user = request.user
    if isinstance(user, TableUser) and user.table.pk == pk:
        return user.table
    table = (
        Table.objects.select_related(
            "round__event",
            "ns__pair__player1",
            "ns__pair__player2",
            "ew__pair__player1",
            "ew__pair__player2",
        )
        .filter(pk=pk)
        .first()
    )
    if table is None:
        raise ServiceError(_("There is no table with id %(id)s.") % {"id": pk}, field="table")
    return table


def _fresh(result: BoardResult) -> BoardResult:
    return _result_qs().get(pk=result.pk)


_DISPUTES = Prepared(
    lambda result: Dispute.objects.filter(result_id=result).order_by("pk"), result=int
)
_RESULT_WITH_BOARD = Prepared(
    lambda pk: BoardResult.objects.select_related("board").filter(pk=pk).order_by(), pk=int
)


def _answer(
    result: BoardResult, table: Table, disputes: list[Dispute] | None = None
) -> BoardResult:
    """A result a service just wrote, as the API shows it: built from the objects in hand (the
    table read with its round, event and entries) rather than read again; its disputes (read
    unless the service knows them all) are kept where ``prefetch_related("disputes")`` keeps
    them."""
    result.table = table
    prefetched = Dispute.objects.none()
    prefetched._result_cache = (
        list(disputes) if disputes is not None else _DISPUTES.all(result=result.pk)
    )
    prefetched._prefetch_done = True
    result._prefetched_objects_cache = {"disputes": prefetched}
    return result


def _short_field(path: str) -> str:
    # The engine names a short result's trump and delegation as in a play record.
    return {"choice.trump": "trump", "choice.delegated": "delegated"}.get(path, path)


class ResultListView(generics.ListAPIView):
    serializer_class = s.ResultSerializer
    parser_classes = [StorableJSONParser]

    def get_queryset(self):
        filters = s.ResultFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        f = filters.validated_data
        lookups = {
            "event": "table__round__event_id",
            "round": "table__round_id",
            "round_number": "table__round__number",
            "table": "table_id",
            "board": "board__number",
            "status": "status",
        }
        qs = (
            access.visible_results(self.request)
            .prefetch_related("disputes")
            .select_related("table__ns", "table__ew")
        )
        qs = qs.filter(**{lookups[k]: v for k, v in f.items()})
        return qs.order_by(
            "table__round__event_id", "table__round__number", "board__number", "table__number"
        )

    @extend_schema(
        tags=["results"],
        summary="Results",
        parameters=[s.ResultFilterSerializer],
        description="Everyone sees the results of a closed round of a visible event; "
        "before the round closes, only that table and the event's organisers and "
        "referees.",
        responses={200: s.ResultSerializer(many=True), **errors(400)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=["results"],
        summary="Submit a short result",
        description="The score is computed by the engine. The first entry creates "
        "the result (201); the other pair sending the same values confirms it, "
        "different values open a dispute (200). To correct your own entry, send "
        "it again with its `version`.",
        request=s.ShortResultSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: s.ResultSerializer, 200: s.ResultSerializer, **WRITE_ERRORS},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = s.ShortResultSerializer.validated(request.data)
        table = _table(data["table"], request)
        try:
            outcome = results.result_submit_short(
                table=table,
                board_number=data["board"],
                actor=access.actor_for(request),
                data=s.short_service_data(data),
                expected_version=data.get("version"),
            )
        except results.InvalidSubmission as exc:
            raise results.InvalidSubmission(
                [FieldProblem(_short_field(p.path), p.message) for p in exc.problems]
            ) from None
        return Response(
            s.ResultSerializer(_answer(outcome.result, table, outcome.disputes)).data,
            status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK,
        )


class ResultDetailView(ApiView):
    @extend_schema(
        tags=["results"],
        summary="Result",
        description="`submissions` (with play records' verdicts) only for the "
        "table's players and the event's organisers and referees.",
        responses={200: s.ResultDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        result = access.visible_results(request).filter(pk=pk).first()
        if result is None:
            # Another table's result answers as one that does not exist: ids are sequential,
            # and a 403 would tell when the next one is stored.
            raise Http404
        result = _fresh(result)
        details = access.sees_details(request, result)
        return Response(s.ResultDetailSerializer(result, context={"details": details}).data)


class ResultConfirmView(ApiView):
    @extend_schema(
        tags=["results"],
        summary="Confirm a result",
        description="The other pair (or an organiser) confirms an entered result: with the "
        "other pair's own token, or with the token of the pair that entered plus the other "
        "pair's `code` (typed on the same phone). A side never confirms its own entry.",
        request=s.ConfirmSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: s.ResultSerializer, **WRITE_ERRORS, **errors(404, 429)},
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        confirming = s.ConfirmSerializer.validated(request.data)
        typed = confirming.get("code")
        user = request.user
        if isinstance(user, TableUser) and not typed:
            # A table confirming with its own token: the result is read with the table's lock.
            # Its disputes, for the answer, come in the same round trip (a confirmation opens
            # none). Another table's result, or none, goes the general way below.
            done = results.result_confirm_at_table(
                table=user.table,
                result_pk=pk,
                actor=user.actor,
                expected_version=confirming.get("version"),
                also=[(_DISPUTES, {"result": pk})],
            )
            if done is not None:
                confirmed, (disputes,) = done
                return Response(s.ResultSerializer(_answer(confirmed, user.table, disputes)).data)
        found, disputes = read_together(
            (_RESULT_WITH_BOARD, {"pk": pk}), (_DISPUTES, {"result": pk})
        )
        if not found or not access.visible_results(request).filter(pk=pk).exists():
            # Another table's result of an open round answers as a missing id (see GET).
            raise Http404
        result = found[0]
        result.table = table = _table(result.table_id, request)
        actor = access.actor_for(request)
        if typed and actor.table is not None and actor.table.pk == result.table_id:
            tried = ratelimit.table_code_attempt(request=request)
            refuse_if_blocked(tried)
            side = result.table.side_for_code(table_access.normalise_code(typed))
            if side is None or side == actor.side:
                raise ValidationError({"code": [_("That is not the other pair's code.")]})
            tried.give_back()
            actor = Actor(table=actor.table, side=side)
        confirmed = results.result_confirm(
            result=result, actor=actor, expected_version=confirming.get("version")
        )
        return Response(s.ResultSerializer(_answer(confirmed, table, disputes)).data)


class BoardPlayedView(ApiView):
    @extend_schema(
        tags=["results"],
        summary="Declare a board played",
        description="The table says it has played the board: from now on it may see the "
        "board's cards (a play record is then checked against them in full), and it owes "
        "a result, which the organiser and referees see. Storing a result does the same.",
        request=s.DeclarePlayedSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: s.BoardPlayedSerializer, **WRITE_ERRORS},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        form = s.DeclarePlayedSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table = _table(form.validated_data["table"], request)
        unlock = results.board_declare_played(
            table=table, board_number=form.validated_data["board"], actor=access.actor_for(request)
        )
        return Response(
            {
                "table": table.pk,
                "board": form.validated_data["board"],
                "reason": unlock.reason,
                "unlocked_at": unlock.created_at,
            }
        )


class TableNewCodesView(ApiView):
    @extend_schema(
        tags=["events"],
        summary="New codes for a table",
        description="Organisers: both sides of the table get new codes; every token of the "
        "old ones stops working at once.",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: s.TableSerializer, **WRITE_ERRORS, **errors(404)},
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(
            Table.objects.select_related("round__event", "ns__pair", "ew__pair").filter(
                round__event__in=access.visible_events(request).values("pk")
            ),
            pk=pk,
        )
        actor = access.actor_for(request)
        events.require_organiser(table.round.event, actor)  # refused before the body is read
        no_body(request)
        table = events.table_new_codes(table=table, actor=actor)
        context = {"actor": actor, "show_codes": True, "staff": True}
        return Response(s.TableSerializer(table, context=context).data)


# ---- play records ---------------------------------------------------------------------------


def _record_problems(exc: results.InvalidSubmission) -> results.InvalidSubmission:
    return results.InvalidSubmission(
        [FieldProblem(f"record.{p.path}" if p.path else "record", p.message) for p in exc.problems]
    )


class PlayRecordCreateView(ApiView):
    @extend_schema(
        tags=["play records"],
        summary="Submit a play record",
        description="The engine replays the record against the board's seeded deal. "
        "`complete` sets (or confirms) the result; `illegal` stores the penalty and "
        "opens a dispute; `invalid` is a 400 listing every problem "
        "(`record.<path>`) and stores nothing.",
        request=s.PlayRecordSubmitSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={
            201: s.PlayRecordResultSerializer,
            200: s.PlayRecordResultSerializer,
            **WRITE_ERRORS,
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        form = s.PlayRecordSubmitSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table = _table(form.validated_data["table"], request)
        actor = access.actor_for(request)
        try:
            outcome = results.result_submit_play_record(
                table=table,
                board_number=form.validated_data["board"],
                actor=actor,
                record=form.validated_data["record"],
                expected_version=form.validated_data.get("version"),
            )
        except results.InvalidSubmission as exc:
            raise _record_problems(exc) from None
        return Response(
            {
                "result": s.ResultSerializer(_answer(outcome.result, table, outcome.disputes)).data,
                "verdict": outcome.verdict.to_json() if outcome.verdict else None,
            },
            status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK,
        )


class PlayRecordDetailView(ApiView):
    @extend_schema(
        tags=["play records"],
        summary="Play record",
        description="The record as received and its verdict, for those who may see "
        "the board's cards.",
        responses={200: s.PlayRecordSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        record = get_object_or_404(
            PlayRecord.objects.select_related("result__table__round__event", "result__board"), pk=pk
        )
        result = record.result
        allowed = result is not None and (
            access.visible_results(request).filter(pk=result.pk).exists()
            and policy.can_see_cards(access.actor_for(request), result.board, table=result.table)
        )
        if not allowed:
            raise Http404  # as a record that does not exist (see ResultDetailView)
        return Response(s.PlayRecordSerializer(record).data)


class VerifyView(ApiView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [VerifyThrottle]

    @extend_schema(
        tags=["play records"],
        summary="Verify a play record",
        description="Replays any play record and returns the engine's verdict; "
        "stores nothing and needs no account. Outside an event, `deal.hands` is "
        "required. With `event` and `board`, the record is checked against that "
        "seeded board (only for those who may see its cards).",
        request=s.VerifySerializer,
        auth=[],
        responses={200: s.VerdictSerializer, **errors(400, 403, 404, 429)},
    )
    def post(self, request: Request) -> Response:
        form = s.VerifySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        record = form.validated_data["record"]
        if "event" not in form.validated_data:
            return Response(verdict_json(engine.replay(record)))
        event = _event(request, form.validated_data["event"])
        board = get_object_or_404(
            Board.objects.select_related("event"), event=event, number=form.validated_data["board"]
        )
        if not policy.can_see_cards(access.actor_for(request), board):
            raise PermissionDenied(_("You may not see this board's cards yet."))
        return Response(verdict_json(play.replay(board, record)))


# ---- disputes -------------------------------------------------------------------------------


def _dispute_qs(request: Request):
    return (
        access.visible_disputes(request)
        .select_related("result__table__ns", "result__table__ew")
        .order_by("pk")
    )


def _dispute_detail(dispute: Dispute) -> dict[str, Any]:
    fresh = (
        Dispute.objects.select_related(
            "result__table__round__event",
            "result__board",
            "result__table__ns",
            "result__table__ew",
            "referee",
        )
        .prefetch_related("rulings__referee", "result__disputes")
        .get(pk=dispute.pk)
    )
    return s.DisputeDetailSerializer(fresh).data


def _visible_dispute(request: Request, pk: int) -> Dispute:
    dispute = _dispute_qs(request).filter(pk=pk).first()
    if dispute is None:
        raise Http404  # as a dispute that does not exist (see ResultDetailView)
    return dispute


class DisputeListView(generics.ListAPIView):
    serializer_class = s.DisputeSerializer
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [StorableJSONParser]

    def get_queryset(self):
        qs = _dispute_qs(self.request)
        status_filter = self.request.query_params.get("status")
        if status_filter is not None:
            if status_filter not in Dispute.Status.values:
                raise ValidationError({"status": [_("Unknown status.")]})
            qs = qs.filter(status=status_filter)
        return qs

    @extend_schema(
        tags=["disputes"],
        summary="Disputes",
        description="Referees and organisers: their events' disputes; players and "
        "table tokens: their own table's.",
        parameters=[
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                enum=Dispute.Status.values,
                description="Only the disputes in this state.",
            )
        ],
        responses={200: s.DisputeSerializer(many=True), **errors(400, 401)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=["disputes"],
        summary="Call a referee",
        description="A player of that table asks for a referee on a board, until the round closes.",
        request=s.DisputeRequestSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: s.DisputeDetailSerializer, **WRITE_ERRORS},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        form = s.DisputeRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        # A result the caller may not read (another table's, in an open round) answers as a
        # missing id: ids are sequential, and a refusal would tell when another table stored one.
        result = (
            _result_qs()
            .filter(pk__in=access.visible_results(request).values("pk"))
            .filter(pk=form.validated_data["result"])
            .first()
        )
        if result is None:
            raise ServiceError(
                _("There is no result with id %(id)s.") % {"id": form.validated_data["result"]},
                field="result",
            )
        dispute = disputes.dispute_request(
            result=result, actor=access.actor_for(request), reason=form.validated_data["reason"]
        )
        return Response(_dispute_detail(dispute), status=status.HTTP_201_CREATED)


class DisputeDetailView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=["disputes"],
        summary="Dispute",
        description="With its rulings (a revision supersedes, never erases) and "
        "the result's history.",
        responses={200: s.DisputeDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(_dispute_detail(_visible_dispute(request, pk)))


class DisputeRuleView(ApiView):
    @extend_schema(
        tags=["disputes"],
        summary="Rule on a dispute",
        description="Referees and organisers of the event only. Ruling again "
        "revises the earlier ruling, which stays in `rulings`.",
        request=s.RuleSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: s.DisputeDetailSerializer, **WRITE_ERRORS, **errors(404)},
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        form = s.RuleSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        # A dispute the caller may not read is a 404 as a missing id (docs/api.md), not a 403
        # that would tell which ids exist; the service refuses the rest.
        dispute = _visible_dispute(request, pk)
        v = form.validated_data
        try:
            disputes.dispute_rule(
                dispute=dispute,
                actor=access.actor_for(request),
                kind=v["kind"],
                explanation=v["explanation"],
                data=v["data"],
                revises=v.get("revises", disputes.UNSET),
            )
        except results.InvalidSubmission as exc:
            # A corrected play record: its problems are inside data.play_record.
            raise results.InvalidSubmission(
                [
                    FieldProblem(
                        f"data.play_record.{p.path}".rstrip(".")
                        if "play_record" in v["data"]
                        else f"data.{_short_field(p.path)}",
                        p.message,
                    )
                    for p in exc.problems
                ]
            ) from None
        except ServiceError as exc:
            if exc.field and exc.field not in ("kind", "explanation") and exc.code == "invalid":
                exc.field = f"data.{exc.field}"
            raise
        return Response(_dispute_detail(dispute), status=status.HTTP_201_CREATED)


class DisputeWithdrawView(ApiView):
    @extend_schema(
        tags=["disputes"],
        summary="Withdraw a player's request",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: s.DisputeDetailSerializer, **WRITE_ERRORS, **errors(404)},
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        dispute = _visible_dispute(request, pk)  # 404 as a missing id
        disputes.dispute_withdraw(dispute=dispute, actor=access.actor_for(request))
        return Response(_dispute_detail(dispute))
