"""The referee's desk: the queue of an event's disputes and one dispute with its evidence,
trick-by-trick replay, ruling forms and the result's audit trail.

Thin views: reads come from ``referee_desk``, forms from ``forms_referee``, every write is a
service of ``services.disputes``.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import analysis_selectors, play, policy, selectors
from tournaments import referee_desk as desk
from tournaments.actors import Actor
from tournaments.forms_referee import (
    FORMS,
    CorrectedShortForm,
    RulingForm,
    add_service_error,
    ruling_forms,
)
from tournaments.forms_results import preview_answer
from tournaments.labels import SEAT_ORDER
from tournaments.models import BoardResult, Dispute, Event, Round
from tournaments.services import NotAllowed, ServiceError, disputes
from tournaments.services.analysis import ANALYSED_OUTCOMES
from tournaments.services.results import InvalidSubmission
from tournaments.views.live import live_response


def _referee_event(request: HttpRequest, event: Event) -> None:
    if not event.is_referee(request.user):
        raise PermissionDenied(_("Only the referees and organisers of this event can see this."))


# --- views -------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def queue(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    _referee_event(request, event)
    return render(request, "referee/queue.html", _queue_context(event))


@login_required
@require_http_methods(["GET"])
def queue_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The queue's lists, for the page to refresh itself (ETag: a 304 while nothing changed)."""
    event = get_object_or_404(Event, pk=pk)
    _referee_event(request, event)
    return live_response(
        request,
        selectors.event_disputes_version(event),
        lambda: render(request, "referee/_queue.html", _queue_context(event)),
    )


@login_required
@require_http_methods(["GET"])
def short_preview(request: HttpRequest, pk: int) -> JsonResponse:
    """The live score of the corrected short result as the referee types it (the players' form
    has the same): computed by the engine, stores nothing."""
    dispute_ = desk.dispute_for_page(pk, request.user)
    _referee_event(request, dispute_.result.table.round.event)
    board = dispute_.result.board
    form = CorrectedShortForm(data=request.GET, prefix="corrected_short", board=board, preview=True)
    if form.is_valid():
        answer = preview_answer(board, form.ruling_data(), {}, form.call_fields())
    else:
        errors = {name: [str(m) for m in found] for name, found in form.errors.items()}
        answer = preview_answer(board, None, errors, [])
    return JsonResponse(answer)


@login_required
@require_http_methods(["GET", "POST"])
def review(request: HttpRequest, pk: int, result_pk: int) -> HttpResponse:
    """A referee opens a dispute on a board nobody disputed (a late complaint, a mistake
    noticed at the desk): say why, then rule on it at the dispute's page."""
    event = get_object_or_404(Event, pk=pk)
    _referee_event(request, event)
    result = get_object_or_404(
        BoardResult.objects.select_related("table__round", "board"),
        pk=result_pk,
        table__round__event=event,
    )
    error, status = "", 200
    reason = request.POST.get("reason", "")[:1000]
    if request.method == "POST":
        try:
            opened = disputes.dispute_request(
                result=result, actor=Actor(user=request.user), reason=reason
            )
        except ServiceError as exc:
            error, status = exc.message, exc.status  # the reason typed stays in the form
        else:
            return redirect("referee:dispute", pk=opened.pk)
    return render(
        request,
        "referee/confirm_review.html",
        {"event": event, "result": result, "error": error, "reason": reason},
        status=status,
    )


def _queue_context(event: Event) -> dict:
    open_, closed = desk.disputes_for_event(event)
    late = [
        late
        for rnd in event.rounds.filter(status=Round.Status.OPEN).order_by("number")
        for late in selectors.tables_after_time(rnd)
    ]
    return {
        "event": event,
        "open_disputes": open_,
        "closed_disputes": closed,
        "late_tables": late,
    }


def _revises(raw: str | None) -> Any:
    """The ruling the page showed in force (its hidden ``revises``: "" for none)."""
    if raw is None:
        return disputes.UNSET
    if raw == "":
        return None
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else 0


@login_required
@require_http_methods(["GET", "POST"])
def dispute(request: HttpRequest, pk: int) -> HttpResponse:
    dispute_ = desk.dispute_for_page(pk, request.user)
    result = dispute_.result
    table = result.table
    event = table.round.event
    board = result.board
    _referee_event(request, event)
    actor = Actor(user=request.user)
    views = desk.submissions_for_result(result, event)
    record = desk.chosen_record(result, request.GET.get("record"))

    posted: RulingForm | None = None
    posted_key: str | None = None
    preview: dict[str, Any] | None = None
    if request.method == "POST" and request.POST.get("form") == "withdraw":
        try:
            disputes.dispute_withdraw(dispute=dispute_, actor=actor)
        except NotAllowed as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The request was withdrawn; the result is as before."))
        return redirect("referee:dispute", pk=dispute_.pk)
    if request.method == "POST":
        posted_key = request.POST.get("form", "")
        cls = FORMS.get(posted_key)
        if cls is None:
            messages.error(request, _("Choose one of the rulings."))
            return redirect("referee:dispute", pk=dispute_.pk)
        is_preview = posted_key == "corrected_record" and request.POST.get("action") == "preview"
        kwargs: dict[str, Any] = {"data": request.POST, "prefix": posted_key}
        if posted_key == "accept":
            kwargs |= {"result": result, "labels": {}}
        if posted_key == "corrected_short":
            kwargs["board"] = board
        if is_preview:
            kwargs["preview"] = True
        posted = cls(**kwargs)
        if posted.is_valid():
            if is_preview:
                preview = desk.replay_payload(
                    board=board, event=event, record=posted.cleaned_data["play_record"]
                )
            else:
                try:
                    disputes.dispute_rule(
                        dispute=dispute_,
                        actor=actor,
                        kind=posted.kind,
                        explanation=posted.cleaned_data["explanation"],
                        data=posted.ruling_data(),
                        revises=_revises(request.POST.get("revises")),
                    )
                except NotAllowed as exc:
                    raise PermissionDenied(exc.message) from None
                except InvalidSubmission as exc:
                    add_service_error(posted, exc)
                except ServiceError as exc:
                    add_service_error(posted, exc)
                else:
                    messages.success(
                        request,
                        _(
                            "Ruling recorded. The standings will be "
                            "recomputed; the players see your explanation."
                        ),
                    )
                    url = reverse("referee:dispute", kwargs={"pk": dispute_.pk})
                    return redirect(url + "#rulings-h")

    costs = None
    if preview is not None:
        payload = preview
    elif record is not None:
        payload = desk.replay_payload(board=board, event=event, record=record.record)
        if policy.can_see_analysis(actor, board):
            costs = analysis_selectors.record_costs(record, board)
        if costs is not None:
            payload = {**payload, "costs": desk.replay_costs(costs)}
    else:
        payload = None
    forms = ruling_forms(dispute_, result, views, record, posted, posted_key)
    other_open = result.disputes.filter(status=Dispute.Status.OPEN).exclude(pk=dispute_.pk)
    can_rule = disputes.may_rule(dispute=dispute_, actor=actor)
    default_form = {
        "illegal_play": "penalty",
        "conflict": "accept",
        "record_mismatch": "accept",
    }.get(dispute_.reason, "")
    if preview is not None:
        default_form = "corrected_record"
    context = {
        "in_force": disputes.current_ruling(result),
        "event": event,
        "dispute": dispute_,
        "result": result,
        "table": table,
        "board": board,
        "stored": views[0],
        "submissions": views[1:],
        "columns": views,
        "show_cards": policy.can_see_cards(actor, board),
        "record": record,
        "records": list(result.play_records.order_by("pk")),
        "payload": payload,
        "replay_text": desk.replay_text(costs="costs" in (payload or {})),
        "is_preview": preview is not None,
        "tricks": desk.trick_rows(payload, costs.by_index if costs else None) if payload else [],
        "costs": costs,
        "costs_expected": record is not None
        and preview is None
        and record.outcome in ANALYSED_OUTCOMES,
        "forms": [
            (key, desk.FORM_TITLES[key], desk.FORM_HELP[key], form) for key, form in forms.items()
        ],
        "open_form": posted_key if posted is not None else default_form,
        "rulings": desk.rulings_for_result(result),
        "audit": desk.audit_for_result(result),
        "other_disputes": list(result.disputes.exclude(pk=dispute_.pk).order_by("pk")),
        "can_rule": can_rule,
        "can_withdraw": dispute_.status == Dispute.Status.OPEN
        and dispute_.reason == Dispute.Reason.PLAYER_REQUEST,
        "other_open": list(other_open),
        "seat_order": SEAT_ORDER,
        "sv_in_botifarra": play.rules(event).allows_sant_vicenc_in_botifarra,
    }
    # A ruling form sent back with errors (a refused paste included) is a 400, as on the table.
    status = 400 if posted is not None and posted.errors else 200
    return render(request, "referee/dispute.html", context, status=status)
