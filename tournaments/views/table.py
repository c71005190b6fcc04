"""The players' table pages: enter a code, see the table's boards, enter, confirm, differ and
call the referee. The card-by-card pages are in ``table_play``.

Thin views: access comes from :mod:`tournaments.table_access`, reads from
:mod:`tournaments.table_pages`, the short form's parsing from :mod:`tournaments.forms_results`,
every write from the services. Nothing of a board's cards is sent unless
``policy.can_see_cards`` says so.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import ratelimit, table_access
from tournaments import table_pages as pages
from tournaments.actors import Actor
from tournaments.clock import stamped
from tournaments.forms_results import (
    FORM_FIELDS,
    parse_short,
    prefill,
    preview_answer,
    problem_field,
    problems_to_errors,
)
from tournaments.models import Board
from tournaments.services import ServiceError, results
from tournaments.services import disputes as dispute_services
from tournaments.table_access import Access
from tournaments.views.table_guards import idempotent_page, table_view, wants_json


def _home(access: Access, number: int | None = None) -> str:
    url = reverse("table:table_home", args=[access.code])
    return url + (f"#board-{number}" if number is not None else "")


class _TooManyCodes(Exception):
    def __init__(self, seconds: int) -> None:
        self.seconds = seconds


def _acting(request: HttpRequest, access: Access) -> Access | None:
    """Who acts: this phone's side, or the other pair when it typed its own code here (a
    confirmation on a shared phone). None when the code typed is wrong (counted); raises
    ``_TooManyCodes`` when this device may not try a code now, right or wrong."""
    typed = request.POST.get("other_code", "").strip()
    if not typed or access.organiser:
        return access
    tried = ratelimit.table_code_attempt(request=request)
    if tried.blocked:
        raise _TooManyCodes(tried.retry_after)
    side = access.table.side_for_code(table_access.normalise_code(typed))
    if side is None or side == access.side:
        return None  # counted as a wrong code
    tried.give_back()
    actor = Actor(table=access.table, side=side)
    return Access(access.table, actor, side, False, access.code)


def _too_many_codes_text(seconds: int) -> str:
    return ngettext(
        "Too many wrong table codes from this device. Try again in %(seconds)s second.",
        "Too many wrong table codes from this device. Try again in %(seconds)s seconds.",
        seconds,
    ) % {"seconds": seconds}


def _too_many_codes(
    request: HttpRequest, access: Access, number: int, seconds: int
) -> HttpResponse:
    """The other pair's code not even read: a 429 that says when to try again, as the code
    form gives (the phone's outbox keeps the confirmation and sends it then)."""
    if wants_json(request):
        response: HttpResponse = JsonResponse({"error": _too_many_codes_text(seconds)}, status=429)
    else:
        response = render(
            request,
            "table/rate_limited.html",
            {"seconds": seconds, "back_url": _home(access, number)},
            status=429,
        )
    response["Retry-After"] = str(seconds)
    return response


def _board(access: Access, number: int) -> Board | None:
    try:
        board = results.board_for_table(access.table, number)
    except ServiceError:
        return None
    board.event = access.table.round.event  # same object: no query per access
    return board


def _not_found(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    if wants_json(request):
        return JsonResponse(
            {"error": _("Board %(n)s is not played at this table.") % {"n": number}}, status=404
        )
    return render(request, "table/not_found.html", {"access": access, "number": number}, status=404)


# --- the table's home -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def enter(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        mine = table_access.player_open_table(request.user)
        if mine is not None and not request.GET.get("code"):
            side = Actor(user=request.user).side_at(mine) or "NS"
            return redirect("table:table_home", code=mine.code_for(side))
        code = table_access.normalise_code(request.GET.get("code"))[:6]
        return render(request, "table/enter.html", {"code": code})
    tried = ratelimit.table_code_attempt(request=request)
    if tried.blocked:
        wait = tried.retry_after
        response = render(request, "table/rate_limited.html", {"seconds": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response
    code = table_access.normalise_code(request.POST.get("code"))
    error = ""
    status = 400
    if not table_access.code_well_formed(code):
        error = _("A code has 6 letters and digits (there is no 0, O, 1 or I).")
    else:
        table, closed = table_access.open_table_for_code(code)
        if table is not None:
            tried.give_back()
            side = table.side_for_code(code)
            assert side is not None
            table_access.grant(request, table, side)
            return redirect("table:table_home", code=code)
        if closed:
            error = _("This round is closed: its table codes no longer work.")
            status = 403
        else:
            error = _("No open table has this code. Check the code on your table card.")
    return render(request, "table/enter.html", {"code": code[:12], "error": error}, status=status)


# --- the table's home ----------------------------------------------------------------------


@require_GET
@table_view
def table_home(request: HttpRequest, access: Access) -> HttpResponse:
    return render(request, "table/home.html", pages.home_context(access))


@require_GET
@table_view
def board_list(request: HttpRequest, access: Access) -> HttpResponse:
    """The boards fragment, fetched every 10 s by table.js to refresh statuses in place."""
    return stamped(render(request, "table/_boards.html", pages.home_context(access)))


def _answer(
    request: HttpRequest, access: Access, number: int, level: str, text: str, status: int = 200
) -> HttpResponse:
    """A flash message and the table's home, or (for the phone's queue) the same as JSON."""
    if wants_json(request):
        if level == "error":
            return JsonResponse({"error": text}, status=status)
        return JsonResponse({"level": level, "message": text, "home_url": _home(access, number)})
    getattr(messages, level)(request, text)
    return redirect(_home(access, number))


@require_POST
@table_view
@idempotent_page
def board_confirm(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result = pages.table_result(access.table, board)
    if result is None:
        text = _("Board %(n)s has no result to confirm yet.") % {"n": number}
        return _answer(request, access, number, "error", text, 409)
    version = _posted_version(request.POST.get("version"))
    try:
        acting = _acting(request, access)
    except _TooManyCodes as blocked:
        return _too_many_codes(request, access, number, blocked.seconds)
    if acting is None:
        return _answer(
            request, access, number, "error", _("That is not the other pair's code."), 400
        )
    try:
        results.result_confirm(result=result, actor=acting.actor, expected_version=version)
    except ServiceError as exc:
        return _answer(request, access, number, "error", exc.message, exc.status)
    return _answer(request, access, number, "success", _("Board %(n)s confirmed.") % {"n": number})


@require_http_methods(["GET", "POST"])
@table_view
@idempotent_page
def board_referee(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result = pages.table_result(access.table, board)
    context: dict[str, Any] = {
        "access": access,
        "table": access.table,
        "number": number,
        "result": result,
        "reason": "",
    }
    if request.method == "POST" and result is not None:
        reason = request.POST.get("reason", "")
        context["reason"] = reason
        try:
            dispute_services.dispute_request(result=result, actor=access.actor, reason=reason)
        except ServiceError as exc:
            if wants_json(request):
                return JsonResponse({"error": exc.message}, status=exc.status)
            context["error"] = exc.message
            return render(request, "table/referee.html", context, status=exc.status)
        text = _("A referee has been called for board %(n)s.") % {"n": number}
        return _answer(request, access, number, "success", text)
    status = 200
    if result is None:
        context["error"] = _("Enter the result first; then you can ask for a referee about it.")
        if request.method == "POST":
            # A refusal, as every refused POST of the table pages (the page says why).
            status = 409
            if wants_json(request):
                return JsonResponse({"error": context["error"]}, status=status)
    return render(request, "table/referee.html", context, status=status)


def _posted_version(raw: Any) -> int | None:
    """The version of the result the page showed (none when the form sent none). A value that
    is no version (a garbled or tampered field) counts as an old page's: the change is refused
    as out of date, never made without the check."""
    if raw is None or not str(raw).strip():
        return None
    try:
        return int(raw)
    except ValueError:
        return -1  # no result has it


# --- short-form entry ----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@table_view
@idempotent_page
def board_short(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result = pages.table_result(access.table, board)
    if request.method == "GET":
        mode = request.GET.get("mode", "")
        if result is not None and mode in ("correct", "differ"):
            values = prefill(result)
        else:
            mode = "new" if result is None else "view"
            values = dict.fromkeys(FORM_FIELDS, "") | {"delegated": "0", "outcome": "played"}
        return render(
            request,
            "table/short.html",
            pages.short_context(access, board, result, values, {}, mode),
        )
    form = parse_short(request.POST)
    mode = request.POST.get("mode", "new")
    status = 400
    errors = form.errors
    try:
        acting = _acting(request, access)
    except _TooManyCodes as blocked:
        if wants_json(request):
            return _too_many_codes(request, access, number, blocked.seconds)
        # The form again, as typed, with when to try the code again.
        acting, status = None, 429
        errors = errors | {"other_code": [_too_many_codes_text(blocked.seconds)]}
        retry_after = blocked.seconds
    else:
        retry_after = None
        if acting is None:
            errors = errors | {"other_code": [_("That is not the other pair's code.")]}
    if acting is not None and form.complete:
        try:
            outcome = results.result_submit_short(
                table=access.table,
                board_number=number,
                actor=acting.actor,
                data=form.data,
                expected_version=_posted_version(request.POST.get("version"))
                if mode == "correct"
                else None,
            )
        except results.InvalidSubmission as exc:
            errors = problems_to_errors(exc.problems, form.call_fields)
        except ServiceError as exc:
            field_name = problem_field(exc.field or "", form.call_fields)
            errors = {field_name: [exc.message]}
            status = exc.status
        else:
            level, text = pages.submitted_message(outcome, number, acting.side)
            return _answer(request, access, number, level, text)
    if wants_json(request):
        return JsonResponse({"errors": errors}, status=status)
    result = pages.table_result(access.table, board)
    response = render(
        request,
        "table/short.html",
        pages.short_context(access, board, result, form.values, errors, mode),
        status=status,
    )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@require_GET
@table_view
def short_preview(request: HttpRequest, access: Access, number: int) -> JsonResponse:
    """The score of the short form as it is typed, computed by the engine (never typed)."""
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)  # type: ignore[return-value]
    form = parse_short(request.GET)
    data = form.data if form.complete else None
    return JsonResponse(preview_answer(board, data, form.errors, form.call_fields))
