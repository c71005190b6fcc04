"""The card-by-card pages of a table: the hand entered card by card (only legal cards offered),
a pasted play record, and declaring a board played. A board's cards are sent only to a table
that may see them (``policy.can_see_cards``, through ``table_pages.play_gate``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

import engine
from tournaments import play
from tournaments import table_pages as pages
from tournaments.jsonio import JSONRejected, read_json
from tournaments.labels import field_problems
from tournaments.services import ServiceError, results
from tournaments.table_access import Access
from tournaments.views.table import _board, _home, _not_found
from tournaments.views.table_guards import idempotent_page, table_view


@require_http_methods(["GET", "POST"])
@table_view
def board_play(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result, can_see, visible = pages.play_gate(access, board)
    if request.method == "GET" or not can_see:
        status = 200 if request.method == "GET" else 403
        return render(
            request,
            "table/play.html",
            pages.play_context(access, board, result, can_see, visible),
            status=status,
        )
    # A pasted play record (clubs with their own software).
    raw = request.POST.get("record", "")
    problems: list[dict[str, str]] = []
    summary = None
    status = 200
    try:
        record = read_json(raw)
    except JSONRejected as exc:
        problems = [pages.paste_problem(exc)]
        status = 400
    else:
        try:
            outcome = results.result_submit_play_record(
                table=access.table, board_number=number, actor=access.actor, record=record
            )
        except results.InvalidSubmission as exc:
            problems = [{"path": p.path, "message": p.message} for p in exc.problems]
            status = 400
        except ServiceError as exc:
            problems = [{"path": exc.field or "", "message": exc.message}]
            status = exc.status
        else:
            assert outcome.verdict is not None
            summary = pages.verdict_summary(outcome.verdict.to_json(), outcome.result)
            result = outcome.result
    return render(
        request,
        "table/play.html",
        pages.play_context(
            access, board, result, can_see, visible, pasted=raw, problems=problems, summary=summary
        ),
        status=status,
    )


def _json_body(request: HttpRequest) -> Any:
    """The request's JSON (``JSONRejected`` when it is not JSON we accept)."""
    return read_json(request.body)


def _rejected(exc: JSONRejected) -> JsonResponse:
    return JsonResponse({"problems": [exc.to_problem()]}, status=400)


@require_POST
@table_view
def play_legal(request: HttpRequest, access: Access, number: int) -> JsonResponse:
    """Who plays next and their legal cards (``seat``, ``legal``), plus the ``state`` drawn.

    Body: ``{"play": [tokens]}``. The contract is the table's short result for the board.
    """
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)  # type: ignore[return-value]
    result, _can_see, visible = pages.play_gate(access, board)
    if not visible or result is None:
        return JsonResponse(
            {
                "error": _(
                    "Enter the short result first: nobody sees a board's cards before playing it."
                )
            },
            status=403,
        )
    try:
        body = _json_body(request)
    except JSONRejected as exc:
        return _rejected(exc)
    cards = body.get("play") if isinstance(body, dict) else None
    if not isinstance(cards, list) or len(cards) > 48 or not all(isinstance(t, str) for t in cards):
        return JsonResponse(
            {
                "problems": [
                    {
                        "path": "play",
                        "message": _('Send {"play": [card tokens]} with at most 48 cards.'),
                    }
                ]
            },
            status=400,
        )
    try:
        state = play.play_state(board, result, cards)
    except engine.InvalidRecord as exc:
        return JsonResponse(
            {"problems": [p.to_json() for p in field_problems(exc.problems)]}, status=400
        )
    return JsonResponse({"seat": state.to_move, "legal": state.legal, "state": state.to_json()})


@require_POST
@table_view
@idempotent_page
def play_submit(request: HttpRequest, access: Access, number: int) -> JsonResponse:
    """Submit a whole play record through ``results.result_submit_play_record``: a JSON body
    (the card-by-card page) or the paste form's ``record`` field (through the outbox)."""
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)  # type: ignore[return-value]
    result, can_see, _visible = pages.play_gate(access, board)
    if not can_see:
        return JsonResponse(
            {
                "error": _(
                    "Enter the short result first: nobody sees a board's cards before playing it."
                )
            },
            status=403,
        )
    if request.content_type == "application/json":
        try:
            record = _json_body(request)
        except JSONRejected as exc:
            return _rejected(exc)
    else:
        # The paste form, sent by the phone's outbox as every table form is (form-encoded).
        try:
            record = read_json(request.POST.get("record", ""))
        except JSONRejected as exc:
            return JsonResponse({"problems": [pages.paste_problem(exc)]}, status=400)
    if record is None:
        return JsonResponse(
            {"problems": [{"path": "", "message": _("The body must be a JSON play record.")}]},
            status=400,
        )
    try:
        outcome = results.result_submit_play_record(
            table=access.table, board_number=number, actor=access.actor, record=record
        )
    except results.InvalidSubmission as exc:
        return JsonResponse({"problems": [p.to_json() for p in exc.problems]}, status=400)
    except ServiceError as exc:
        return JsonResponse({"error": exc.message, "field": exc.field}, status=exc.status)
    assert outcome.verdict is not None
    summary = pages.verdict_summary(outcome.verdict.to_json(), outcome.result)
    return JsonResponse(summary | {"home_url": _home(access)})


@require_POST
@table_view
def board_played(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    """The table declares the board played: it may see the cards now, and owes a result."""
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    try:
        results.board_declare_played(table=access.table, board_number=number, actor=access.actor)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(_home(access, number))
    return redirect("table:board_play", code=access.code, number=number)
