"""The event's lifecycle in the API: what the organiser's pages do, through the same forms and
services (``tournaments.forms.EventForm``, ``tournaments.services.events``, ``changes``,
``pairings``), with the same permissions, state checks and audit.

Refusals: 400 with the field, 403 for anyone but the event's organisers, 404 for an event you
may not see, 409 when the event or round is not in a state that allows the action.
"""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.forms.models import model_to_dict
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api import lifecycle_serializers as ls
from api import serializers as s
from api.errors import NON_FIELD
from api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from api.organiser import organised_event, organiser_call, post_schema, visible_event
from api.parsers import PairsCsvJSONParser
from api.principals import TableUser
from api.schema import errors
from api.views import ApiView, EventDetailView, EventListView
from tournaments import policy, scoring_io, selectors
from tournaments.forms import PAIRING_OPTIONS, PRESET_LABELS, PRESETS, EventForm, preset_pairing
from tournaments.forms_pairing import PairingMethodForm
from tournaments.models import Entry, Event, Round
from tournaments.services import (
    Conflict,
    NotAllowed,
    ServiceError,
    changes,
    clubs,
    late_entries,
    pairings,
)
from tournaments.services import events as svc

TAGS = ["event lifecycle"]


def _post(
    summary: str, description: str, request: Any, response: Any, *, created: bool = False
) -> Any:
    return post_schema(TAGS, summary, description, request, response, code=201 if created else 200)


def _entry(event: Event, number: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("pair__player1", "pair__player2", "pair__club", "event"),
        event=event,
        number=number,
    )


def _round(event: Event, number: int) -> Round:
    """Round ``number`` of the event, for a step on it: a 404 outside the event's rounds, a 409
    for one of them not proposed yet (it exists, as ``GET`` shows, only not in a state for it)."""
    rnd = (
        Round.objects.select_related("event", "bye")
        .filter(event=event, number=_round_number(event, number))
        .first()
    )
    if rnd is None:
        raise Conflict(
            _("Round %(n)s has not been proposed yet: propose it first.") % {"n": number},
            field="round",
        )
    return rnd


def _form_errors(exc: DjangoValidationError) -> ValidationError:
    if hasattr(exc, "error_dict"):
        return ValidationError(
            {NON_FIELD if k == "__all__" else k: v for k, v in exc.message_dict.items()}
        )
    return ValidationError({NON_FIELD: exc.messages})


def event_body(event: Event) -> dict[str, Any]:
    return s.EventSerializer(Event.objects.select_related("club").get(pk=event.pk)).data


# ---- events ------------------------------------------------------------------------------------


def _form_data(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` (typed: the model's, a preset's, the serializer's) spelled as the page posts
    them, for the page's forms: None is an empty field and a boolean "true" or "false" (what
    both the Sant Vicenç choice and a checkbox read; a checkbox reads any other non-empty
    string, "no" or "0" too, as true)."""

    def posted(value: Any) -> Any:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return value

    return {k: posted(v) for k, v in values.items()}


def _event_form(data: dict[str, Any], event: Event | None) -> tuple[EventForm, str | None]:
    """The organiser's event form, filled with the current values, the preset and ``data``
    (the serializer's validated values)."""
    values: dict[str, Any] = model_to_dict(event or Event())  # a new event: the defaults
    values.pop("club", None)
    values.update(PRESETS.get(data.get("preset", ""), {}))
    values["pairing_preset"] = (
        data.get("preset", "") if preset_pairing(data.get("preset", "")) else ""
    )
    values.update({k: v for k, v in data.items() if k not in ("preset", "club", *PAIRING_OPTIONS)})
    locked = event is not None and event.status not in (
        Event.Status.DRAFT,
        Event.Status.REGISTRATION,
    )
    form = EventForm(_form_data(values), instance=event, locked=locked)
    club = data.get("club")
    if club is None and event is not None:
        club = event.club.name if event.club else ""
    return form, club


def _pairing_form(data: dict[str, Any], event: Event | None) -> PairingMethodForm | None:
    """The pairing page's form, for the pairing options ``data`` (the serializer's validated
    values) sets (None when it sets none)."""
    sent = {k: v for k, v in data.items() if k in PAIRING_OPTIONS}
    if not sent:
        return None
    values: dict[str, Any] = model_to_dict(event or Event(), fields=PAIRING_OPTIONS)
    values.update(preset_pairing(data.get("preset", "")) | sent)
    return PairingMethodForm(_form_data(values), instance=event)


def _refused(form: Any) -> ValidationError:
    return ValidationError(
        {
            (NON_FIELD if k == "__all__" else k): [e["message"] for e in v]
            for k, v in form.errors.get_json_data().items()
        }
    )


def _save_event(request: Request, event: Event | None) -> Event:
    body = ls.EventWriteSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    # The values as the serializer read them (JSON true, "no", 0: typed), not as sent: the
    # forms get them spelled as the page posts them (_form_data).
    data: dict[str, Any] = dict(body.validated_data)
    if event is None and not data.get("name"):
        raise ValidationError({"name": [_("This field is required.")]})
    if event is not None and event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        started = sorted(set(data) & set(svc.EVENT_OPTIONS))
        changed = [k for k in started if getattr(event, k) != data.get(k)]
        if changed:
            raise Conflict(
                _(
                    "The options cannot change once the event has started: the boards are "
                    "dealt and the rounds are played and scored under them."
                ),
                field=changed[0],
            )
    form, club_name = _event_form(data, event)
    if not form.is_valid():
        raise _refused(form)
    fields = form.service_fields()
    pairing = None if form.locked else _pairing_form(data, event)
    if pairing is not None:
        if not pairing.is_valid():
            raise _refused(pairing)
        fields.update(pairing.cleaned_data)
    actor = access.actor_for(request)
    try:
        if event is not None:
            return svc.event_update(event=event, actor=actor, club_name=club_name or "", **fields)
        with transaction.atomic():
            club = clubs.club_for(name=club_name or "", actor=actor)
            return svc.event_create(actor=actor, club=club, **fields)
    except DjangoValidationError as exc:
        raise _form_errors(exc) from None


class EventCreateMixin:
    @extend_schema(
        tags=TAGS,
        summary="Create an event",
        description="Any logged-in account; it becomes the event's organiser. The options "
        "are checked as on the organiser's page (rounds 1–30, boards 1–36, a target of at "
        "least 1); a club you do not organise is refused (403), one only ever typed for "
        "pairs or teams too; a new club name makes you its organiser.",
        request=ls.EventWriteSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: s.EventSerializer, **errors(400, 401, 403, 409, 422)},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        if isinstance(request.user, TableUser):
            raise NotAllowed(_("Log in to create an event."))
        event = _save_event(request, None)
        return Response(event_body(event), status=status.HTTP_201_CREATED)


class EventUpdateMixin:
    @extend_schema(
        tags=TAGS,
        summary="Change an event",
        description="Organisers: the fields sent change. The options only until the event "
        "starts (then 409); the details (name, club, date, venue) always.",
        request=ls.EventWriteSerializer,
        responses={200: s.EventSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        event = organised_event(request, pk)
        # (A body that is not an object is refused by the serializer in _save_event.)
        if isinstance(request.data, dict) and "preset" in request.data:
            raise ValidationError({"preset": [_("A preset applies when creating an event.")]})
        event = _save_event(request, event)
        return Response(event_body(event))


class EventsView(EventCreateMixin, EventListView):
    pass


class EventView(EventUpdateMixin, EventDetailView):
    pass


class PresetsView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="Event presets",
        description="The presets of the organiser's event form: send `preset` when creating.",
        responses={200: ls.PresetSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(
            ls.PresetSerializer(
                [
                    {
                        "name": name,
                        "label": str(label),
                        "description": str(text),
                        "options": PRESETS[name] | preset_pairing(name),
                    }
                    for name, label, text in PRESET_LABELS
                ],
                many=True,
            ).data
        )


def _action(request: Request, pk: int, act: Any, body: Any = None) -> Response:
    """An organiser's step of the event's lifecycle: ``act(call)``, answering the event."""
    call = organiser_call(request, pk, body)
    act(call)
    return Response(event_body(call.event))


class RegistrationOpenView(ApiView):
    @_post("Open registration", "Draft → registration.", None, s.EventSerializer)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        return _action(request, pk, lambda c: svc.registration_open(event=c.event, actor=c.actor))


class EventStartView(ApiView):
    @_post(
        "Start the event",
        "Closes registration and deals every board (in the background: `boards_ready` counts "
        "them; a round opens once they are all dealt). At least two pairs.",
        None,
        s.EventSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        return _action(request, pk, lambda c: svc.event_start(event=c.event, actor=c.actor))


class EventFinishView(ApiView):
    @_post(
        "Finish the event",
        "Every round closed; reveals the seed (`seed`). Rulings end with the event.",
        None,
        s.EventSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        return _action(request, pk, lambda c: svc.event_finish(event=c.event, actor=c.actor))


class EventPublishView(ApiView):
    @_post(
        "Publish or hide the results",
        "`published: true` shows the public pages (and the API's reads) to everyone.",
        ls.PublishSerializer,
        s.EventSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        return _action(
            request,
            pk,
            lambda c: svc.event_publish(
                event=c.event, actor=c.actor, published=c.body["published"]
            ),
            ls.PublishSerializer,
        )


# ---- pairs -------------------------------------------------------------------------------------


def _pairs(event: Event) -> list[dict[str, Any]]:
    return ls.PairSerializer(selectors.event_entries(event), many=True).data


class PairsView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="Pairs of an event",
        description="Every registered pair with its number and players, withdrawn ones "
        "flagged; for whoever may see the event.",
        responses={200: ls.PairSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(_pairs(visible_event(request, pk)))

    @_post(
        "Register pairs",
        "One pair (`{player1, player2, name?, club?}`) or many (`{pairs: [...]}`: all or "
        "none, errors at `pairs[i].field`). While the event runs, a late entry (as on the "
        "organiser's page): it plays from the next round not opened yet (`joins_round`) "
        "and starts with the event's late-entry match points; a pending proposal of that "
        "round is dropped. Answers the pairs registered.",
        ls.PAIRS_REGISTER_REQUEST,
        ls.PairSerializer(many=True),
        created=True,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        event = organised_event(request, pk)
        many = isinstance(request.data, dict) and "pairs" in request.data
        if many:
            body = ls.PairsRegisterSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            rows = body.validated_data["pairs"]
        else:
            single = ls.PairRegisterSerializer(data=request.data)
            single.is_valid(raise_exception=True)
            rows = [single.validated_data]
        actor = access.actor_for(request)
        register = (
            late_entries.late_entry_register
            if event.status == Event.Status.RUNNING
            else svc.entry_register
        )
        with transaction.atomic():
            batch = svc.PairBatch(event)
            created = (
                _register_many(rows, batch, register, actor)
                if many
                else [register(event=event, actor=actor, batch=batch, **rows[0])]
            )
        return Response(
            ls.PairSerializer(
                selectors.event_entries(event).filter(pk__in=[e.pk for e in created]), many=True
            ).data,
            status=status.HTTP_201_CREATED,
        )


def _register_many(
    rows: list[dict[str, Any]], batch: svc.PairBatch, register: Any, actor: Any
) -> list[Entry]:
    """Register a batch's pairs, all or none: what refuses the whole batch (the event's state,
    its format) is said first, once, at its own field; then every pair that cannot be
    registered is listed (its names, a pair registered already, the same two players as an
    earlier pair of the request), by its place in the request."""
    late_entries.require_taking_pairs(batch.event, actor)
    refused: dict[int, dict[str, list[str]]] = {}
    first_at: dict[frozenset[str], int] = {}
    created = []
    for i, row in enumerate(rows):
        players = svc.players_key(row["player1"], row["player2"])
        if players in first_at:
            message = _("The same two players as pairs[%(i)s]: a pair is registered once.")
            refused[i] = {"player2": [message % {"i": first_at[players]}]}
            continue
        first_at[players] = i
        names = (row["player1"], row["player2"], row.get("name", ""), row.get("club", ""))
        try:
            svc.new_pair(*names, registered=batch.registered)
        except ServiceError as exc:
            refused[i] = {exc.field or NON_FIELD: [exc.message]}
            continue
        if not refused:  # after a refusal, the rest is only checked
            created.append(register(event=batch.event, actor=actor, batch=batch, **row))
    if refused:  # the transaction rolls back what was registered
        raise ValidationError({"pairs": refused})
    return created


class PairsImportView(ApiView):
    parser_classes = [PairsCsvJSONParser]

    @_post(
        "Import pairs from CSV",
        "The organiser's CSV import: every line registered, or none (400 on `csv` naming "
        "the line).",
        ls.PairsImportSerializer,
        ls.PairSerializer(many=True),
        created=True,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.PairsImportSerializer)
        try:
            created = svc.entries_import_csv(event=event, actor=actor, text=body["csv"])
        except ServiceError as exc:
            if exc.field == "file":
                exc.field = "csv"
            raise
        return Response(
            ls.PairSerializer(
                selectors.event_entries(event).filter(pk__in=[e.pk for e in created]), many=True
            ).data,
            status=status.HTTP_201_CREATED,
        )


class PairWithdrawView(ApiView):
    @_post(
        "Withdraw a pair",
        "Before the start the pair is removed. Later it is withdrawn after the last round it "
        "played: in an open round where it still owes boards its match is forfeited; a "
        "proposal that includes it is dropped. The standings are recomputed.",
        ls.ReasonSerializer,
        ls.WithdrawalSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.ReasonSerializer)
        plan = changes.entry_withdraw(
            entry=_entry(event, number), actor=actor, reason=body["reason"]
        )
        pair = None if plan.deletes else _entry(event, number)
        return Response(
            ls.WithdrawalSerializer(
                {
                    "pair": pair,
                    "removed": plan.deletes,
                    "forfeited_table": plan.forfeit.number if plan.forfeit else None,
                    "dropped_proposal": plan.dropped,
                }
            ).data
        )


class PairReinstateView(ApiView):
    @_post(
        "Reinstate a pair",
        "Takes a withdrawal back while the event runs: the pair is paired again from the next "
        "proposal; a forfeit in the still open round is taken back.",
        ls.ReasonSerializer,
        ls.ReinstatementSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.ReasonSerializer)
        plan = changes.entry_reinstate(
            entry=_entry(event, number), actor=actor, reason=body["reason"]
        )
        return Response(
            ls.ReinstatementSerializer(
                {
                    "pair": _entry(event, number),
                    "unforfeited_table": plan.unforfeit.number if plan.unforfeit else None,
                    "dropped_proposal": plan.dropped,
                }
            ).data
        )


class PairSubstituteView(ApiView):
    @_post(
        "Substitute a player",
        "Player `seat` (1 or 2) of the pair leaves and `name` plays in their place from the "
        "open round (or the next one): the pair keeps its number and its score; the old "
        "line-up stays in its history. 409 for a withdrawn pair or a finished event.",
        ls.SubstituteSerializer,
        ls.SubstitutionSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        entry = _entry(organised_event(request, pk), number)  # a 404 before the body's 400
        event, actor, body = organiser_call(request, pk, ls.SubstituteSerializer)
        made = changes.player_substitute(entry=entry, actor=actor, **body)
        return Response(
            ls.SubstitutionSerializer(
                {
                    "pair": _entry(event, number),
                    "from_round": made.from_round,
                    "player_out": made.player_out.name,
                    "player_in": made.player_in.name,
                }
            ).data
        )


# ---- rounds ------------------------------------------------------------------------------------


def round_body(event: Event, number: int, *, staff: bool = True) -> dict[str, Any]:
    """The round as the API shows it. Only ``staff`` (the event's organisers and referees) get a
    proposal's tables and bye (the organiser may still change them) and the open round's
    progress: which boards a table still owes tells its neighbours, in game mode, whether a game
    ended early, i.e. how a board went."""
    rnd = Round.objects.select_related("event", "bye").filter(event=event, number=number).first()
    pending = rnd is not None and rnd.status == Round.Status.PENDING
    tables = (
        list(rnd.tables.select_related("ns", "ew").order_by("number"))
        if rnd and (staff or not pending)
        else []
    )
    return ls.RoundDetailSerializer(
        {
            "event": event.pk,
            "id": rnd.pk if rnd else None,
            "number": number,
            "status": rnd.status if rnd else None,
            "boards": list(event.board_numbers(number)),
            "tables": tables,
            "bye": rnd.bye.number if rnd and rnd.bye_id and (staff or not pending) else None,
            "warnings": (
                [str(w) for w in scoring_io.pairing_warnings(rnd)] if pending and tables else []
            ),
            "missing": [
                {
                    "table": o.table.number,
                    "boards": o.boards,
                    "missing": o.missing,
                    "unconfirmed": o.unconfirmed,
                    "disputed": o.disputed,
                }
                for o in (
                    selectors.round_outstanding(rnd)
                    if staff and rnd and rnd.status == Round.Status.OPEN
                    else []
                )
            ],
            "opened_at": rnd.opened_at if rnd else None,
            "closed_at": rnd.closed_at if rnd else None,
            "ruling_open": bool(rnd and rnd.ruling_open),
        }
    ).data


def _round_number(event: Event, number: int) -> int:
    if not 1 <= number <= event.rounds_count:
        raise Http404
    return number


class RoundView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="A round of an event",
        description="Its status, tables (pair numbers), bye and, for the event's organisers "
        "and referees only, a proposal's tables and warnings while it is pending and, while it "
        "is open, the boards each table still owes (`missing`; empty for anyone else). Table "
        "codes are in `GET /rounds/{id}/tables` (organisers).",
        responses={200: ls.RoundDetailSerializer, **errors(404)},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = visible_event(request, pk)
        staff = policy.is_event_staff(access.actor_for(request), event)
        return Response(round_body(event, _round_number(event, number), staff=staff))


class RoundProposeView(ApiView):
    @_post(
        "Propose a round",
        "The program pairs the round from the standings (as the organiser's Propose button); "
        "a pending proposal is replaced. Refused (409) while the previous round is open, "
        "has results missing or unconfirmed, or is reopened for rulings (their end proposes "
        "the round).",
        None,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, _body = organiser_call(request, pk)
        pairings.pairings_propose(event.pk, _round_number(event, number), actor=actor)
        return Response(round_body(event, number))


def _warned(warnings: list[Any], confirm: bool) -> None:
    if warnings and not confirm:
        raise Conflict(
            _("This pairing has warnings: send confirm=true to apply it anyway.")
            + " "
            + " ".join(str(w) for w in warnings),
            field="confirm",
        )


class RoundPairingView(ApiView):
    @_post(
        "Set a round's pairing",
        "Replace a pending round's pairing with one made by hand (pair numbers). Its warnings "
        "(rematches, seats, second byes) refuse it with a 409 unless `confirm` is true.",
        ls.PairingSerializer,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.PairingSerializer)
        rnd = _round(event, number)
        tables = [(ns, ew) for ns, ew in body["tables"]]
        bye = body.get("bye")
        ids = dict(event.entries.values_list("number", "pk"))
        if rnd.status == Round.Status.PENDING and all(n in ids for t in tables for n in t):
            warnings = scoring_io.pairing_warnings(
                rnd,
                tables=[(ids[a], ids[b]) for a, b in tables],
                bye=ids.get(bye) if bye is not None else None,
            )
            _warned(warnings, body["confirm"])
        changes.pairing_set(rnd=rnd, actor=actor, tables=tables, bye=bye)
        return Response(round_body(event, number))


class RoundSwapView(ApiView):
    @_post(
        "Swap two pairs",
        "Exchange two pairs of a pending round (they keep the seats). Warnings refuse it "
        "with a 409 unless `confirm` is true.",
        ls.SwapSerializer,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.SwapSerializer)
        rnd = _round(event, number)
        ids = dict(event.entries.filter(number__in=body["pairs"]).values_list("number", "pk"))
        unknown = sorted(set(body["pairs"]) - set(ids))
        if unknown:  # numbers from the body: a 400 at the field, as the pairing's own
            raise ValidationError(
                {
                    "pairs": [
                        _("No pair has the number %(n)s.") % {"n": ", ".join(map(str, unknown))}
                    ]
                }
            )
        a, b = (ids[n] for n in body["pairs"])
        if rnd.status == Round.Status.PENDING:
            _warned(scoring_io.pairing_warnings(rnd, swap=(a, b)), body["confirm"])
        svc.round_swap(rnd=rnd, actor=actor, entry_a=a, entry_b=b)
        return Response(round_body(event, number))


class RoundOpenView(ApiView):
    @_post(
        "Accept and open a round",
        "The proposal becomes the round: each table's codes start working.",
        None,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, _body = organiser_call(request, pk)
        svc.round_open(rnd=_round(event, number), actor=actor)
        return Response(round_body(event, number))


class RoundCloseView(ApiView):
    @_post(
        "Close a round",
        "With every result counted, closes. Otherwise a 409 lists, per table, the boards "
        "without a counted result (missing, unconfirmed or disputed; also in `GET` the "
        "round's `missing`, by kind), unless the organiser decides that they count as not "
        'played: all of them (`accept_missing: true`) or kind by kind (`accept: ["missing", '
        '"unconfirmed"]` closes only if no board is disputed). The decision is audited and '
        "the standings are recomputed.",
        ls.CloseSerializer,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.CloseSerializer)
        svc.round_close(
            rnd=_round(event, number),
            actor=actor,
            accept_missing=body["accept_missing"],
            accept=body["accept"],
        )
        return Response(round_body(event, number))


class RoundReopenView(ApiView):
    @_post(
        "Reopen a closed round",
        "For results (closed too early): the tables' codes work again and the next round's "
        "proposal is dropped. Only while the next round is not open. The reason is audited.",
        ls.RequiredReasonSerializer,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.RequiredReasonSerializer)
        changes.round_reopen(rnd=_round(event, number), actor=actor, reason=body["reason"])
        return Response(round_body(event, number))


class RoundRulingsView(ApiView):
    @_post(
        "Reopen a closed round for rulings",
        "`open: true` (with a reason) lets referees rule on the closed round (results from "
        "the tables stay shut); `open: false` ends that and recomputes the standings.",
        ls.RulingsSerializer,
        ls.RoundDetailSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.RulingsSerializer)
        svc.round_rulings(
            rnd=_round(event, number), actor=actor, reopen=body["open"], reason=body["reason"]
        )
        return Response(round_body(event, number))
