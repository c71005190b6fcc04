"""The players' table pages: enter a code, see the table's boards, enter, confirm, differ and
call the referee. The card-by-card pages are in ``table_play``.

Thin views: access comes from :mod:`tournaments.table_access`, reads from
:mod:`tournaments.table_pages`, the short form's parsing from :mod:`tournaments.forms_results`,
every write from the services. Nothing of a board's cards is sent unless
``policy.can_see_cards`` says so.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import idempotency as once
from tournaments import ratelimit, table_access
from tournaments import table_pages as pages
from tournaments.actors import Actor
from tournaments.forms_results import (
    FORM_FIELDS,
    parse_short,
    prefill,
    preview_answer,
    problem_field,
    problems_to_errors,
)
from tournaments.labels import side_label
from tournaments.models import Board
from tournaments.services import ServiceError, results
from tournaments.services import disputes as dispute_services
from tournaments.table_access import SIDES, Access, NoAccess

# --- access ---------------------------------------------------------------------------------


def _wants_json(request: HttpRequest) -> bool:
    return (
        "application/json" in request.headers.get("Accept", "")
        or request.content_type == "application/json"
    )


def _refuse(request: HttpRequest, code: str, exc: NoAccess) -> HttpResponse:
    if _wants_json(request):
        messages_by_kind = {
            "login": _("Enter your table's code first."),
            "forbidden": _("This page belongs to another table."),
            "closed": _("This round is closed: results can no longer be entered here."),
        }
        return JsonResponse({"error": messages_by_kind[exc.kind], "code": exc.kind}, status=403)
    if exc.kind == "login":
        return redirect(reverse("table:enter") + "?code=" + table_access.normalise_code(code)[:6])
    if exc.kind == "closed":
        held = table_access.granted(request) or {}
        side = held.get("side", "") if exc.table and held.get("table") == exc.table.pk else ""
        context = {
            "table": exc.table,
            "next": pages.next_seat(exc.table, side) if side else None,
            # The pair's own evening pages still open with this code (evening_view).
            "code": table_access.normalise_code(code) if side else "",
            # The phone's outbox shows here what the server refused it for this table (a
            # result kept offline, sent once the round had closed).
            "outbox_table": exc.table.pk if side else "",
        }
        return render(request, "table/closed.html", context, status=403)
    return render(request, "table/forbidden.html", {}, status=403)


def _table_view(view: Callable, *, closed_ok: bool) -> Callable:
    @wraps(view)
    def wrapper(request: HttpRequest, code: str, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            access = table_access.resolve(request, code, closed_ok=closed_ok)
        except NoAccess as exc:
            if getattr(view, "idempotent", False):
                stored = _stored_answer(request, exc)
                if stored is not None:
                    return stored
            return _refuse(request, code, exc)
        return view(request, access, *args, **kwargs)

    return wrapper


def table_view(view: Callable) -> Callable:
    """Resolve the table of ``code`` for this request, or answer as :class:`NoAccess` says."""
    return _table_view(view, closed_ok=False)


def evening_view(view: Callable) -> Callable:
    """As ``table_view``, for the pair's own read-only pages (its scorecard, the standings,
    its rulings): they also open once the round is closed, when the pair wants them most."""
    return _table_view(view, closed_ok=True)


SIDE_HEADER = "X-Table-Side"  # the side a queued submission was made for (outbox.js)


def _page_fingerprint(request: HttpRequest) -> str:
    if request.content_type == "application/json":
        return once.fingerprint(request.body.decode("utf-8", "replace"))
    data = {k: v for k, v in request.POST.lists() if k != "csrfmiddlewaretoken"}
    return once.fingerprint(data)


def _key_of(request: HttpRequest) -> str:
    """The submission's Idempotency-Key, when it is one the table pages honour ("" if none)."""
    if request.method != "POST" or not _wants_json(request):
        return ""
    return request.headers.get(once.HEADER, "").strip()


def _scope(request: HttpRequest, table_pk: int, who: str) -> str:
    """Where a table page's keys live: the table, the sender (a side, or the organiser), the
    page and the board. Not the address: it carries the table's code, which new codes replace,
    and a key must survive them (the outbox sends what waits with the new code)."""
    match = request.resolver_match
    assert match is not None
    page = f"{match.url_name}:{match.kwargs.get('number', '')}"
    return once.scope_for(f"p{table_pk}{who}", page)


def _sender(request: HttpRequest, exc: NoAccess) -> tuple[int, str] | None:
    """The table and the sender (a side, or ``u<pk>`` for an organiser) whose scope a refused
    submission's key was stored in, in the order ``table_access.resolve`` finds the access: the
    event's organiser, the session's code, a player's own account. None for anyone else."""
    user = request.user
    table = exc.table
    if table is not None and user.is_authenticated and table.round.event.is_organiser(user):
        return table.pk, f"u{user.pk}"
    held = table_access.granted(request) or {}
    if held.get("side") in SIDES and (table is None or table.pk == held.get("table")):
        return held["table"], held["side"]
    if table is not None and user.is_authenticated:
        side = Actor(user=user).side_at(table)
        if side:
            return table.pk, side
    return None


def _stored_answer(request: HttpRequest, exc: NoAccess) -> HttpResponse | None:
    """The answer already stored for this submission, replayed although the page now refuses
    its sender (the round closed, or new codes, after the first send was stored and its answer
    lost), or None. Only in the sender's own scope: whoever never sent for that table finds
    nothing here. A phone that holds one side's code sends what it kept for the other side of
    the same table (a shared phone, ``SIDE_HEADER``) in that side's scope: the other side's
    code can no longer be typed once the round is closed."""
    key = _key_of(request)
    sender = _sender(request, exc) if key and once.key_ok(key) else None
    if sender is None:
        return None
    table_pk, who = sender
    meant = request.headers.get(SIDE_HEADER, "")
    if who in SIDES and meant in SIDES:
        who = meant
    scope = _scope(request, table_pk, who)
    return once.stored_answer(scope=scope, key=key, request_hash=_page_fingerprint(request))


def idempotent_page(view: Callable) -> Callable:
    """Honour an ``Idempotency-Key`` on a table page's JSON submission: the phone's queue of
    submissions made offline sends each again until it has an answer, and the server acts once.
    The sender is the table's side (or the organiser); the scope is :func:`_scope`."""

    @wraps(view)
    def wrapper(request: HttpRequest, access: Access, *args: Any, **kwargs: Any) -> HttpResponse:
        key = _key_of(request)
        if not key:
            return view(request, access, *args, **kwargs)
        if not once.key_ok(key):
            return JsonResponse(
                {
                    "error": _("An Idempotency-Key has at most %(n)s characters.")
                    % {"n": once.MAX_KEY}
                },
                status=400,
            )
        meant = request.headers.get(SIDE_HEADER, "")
        if meant and meant != access.side:
            # Kept on a shared phone for one side, sent after the other side typed its code:
            # it waits until its own side's code is back on this phone.
            return JsonResponse(
                {
                    "error": _(
                        "Waiting for %(side)s's code: this was entered for %(side)s. Type "
                        "%(side)s's code on this phone to send it."
                    )
                    % {"side": side_label(meant)},
                    "code": "side",
                },
                status=409,
            )
        who = f"u{request.user.pk}" if access.organiser else access.side
        try:
            return once.run_once(
                scope=_scope(request, access.table.pk, who),
                key=key,
                request_hash=_page_fingerprint(request),
                run=lambda: view(request, access, *args, **kwargs),
            )
        except once.KeyReused:
            return JsonResponse(
                {
                    "error": _("This submission's key was already used for a different one."),
                    "code": "key_reused",
                },
                status=422,
            )
        except once.KeyBusy:
            return JsonResponse(
                {"error": _("This submission is still being processed."), "code": "key_in_use"},
                status=409,
            )

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


def _home(access: Access, number: int | None = None) -> str:
    url = reverse("table:table_home", args=[access.code])
    return url + (f"#board-{number}" if number is not None else "")


def _acting(request: HttpRequest, access: Access) -> Access | None:
    """Who acts: this phone's side, or the other pair when it typed its own code here (a
    confirmation on a shared phone). None when the code typed is wrong (counted)."""
    typed = request.POST.get("other_code", "").strip()
    if not typed or access.organiser:
        return access
    tried = ratelimit.table_code_attempt(request=request)
    if tried.blocked:
        return None
    side = access.table.side_for_code(table_access.normalise_code(typed))
    if side is None or side == access.side:
        return None  # counted as a wrong code
    tried.succeeded()
    actor = Actor(table=access.table, side=side)
    return Access(access.table, actor, side, False, access.code)


def _board(access: Access, number: int) -> Board | None:
    try:
        board = results.board_for_table(access.table, number)
    except ServiceError:
        return None
    board.event = access.table.round.event  # same object: no query per access
    return board


def _not_found(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    if _wants_json(request):
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
            tried.succeeded()
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
    return render(request, "table/_boards.html", pages.home_context(access))


def _answer(
    request: HttpRequest, access: Access, number: int, level: str, text: str, status: int = 200
) -> HttpResponse:
    """A flash message and the table's home, or (for the phone's queue) the same as JSON."""
    if _wants_json(request):
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
    version = _int_or_none(request.POST.get("version"))
    acting = _acting(request, access)
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
            if _wants_json(request):
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
            if _wants_json(request):
                return JsonResponse({"error": context["error"]}, status=status)
    return render(request, "table/referee.html", context, status=status)


def _int_or_none(raw: Any) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


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
    acting = _acting(request, access)
    if acting is None:
        errors = errors | {"other_code": [_("That is not the other pair's code.")]}
    elif form.complete:
        try:
            outcome = results.result_submit_short(
                table=access.table,
                board_number=number,
                actor=acting.actor,
                data=form.data,
                expected_version=_int_or_none(request.POST.get("version"))
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
    if _wants_json(request):
        return JsonResponse({"errors": errors}, status=status)
    result = pages.table_result(access.table, board)
    return render(
        request,
        "table/short.html",
        pages.short_context(access, board, result, form.values, errors, mode),
        status=status,
    )


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
