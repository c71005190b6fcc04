"""The players' table pages: enter a code, choose your pair, enter and confirm results.

Thin views: access comes from :mod:`tournaments.table_access`, every write from
:mod:`tournaments.services.results` / :mod:`tournaments.services.disputes`, every rule from the
engine. Nothing of a board's cards is sent unless ``policy.can_see_cards`` says so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import engine
from tournaments import policy, ratelimit, table_access
from tournaments.actors import Actor
from tournaments.jsonio import JSONRejected, read_json
from tournaments.models import Board, BoardResult, Dispute, Ruling
from tournaments.services import Conflict, NotAllowed, ServiceError, results
from tournaments.services import disputes as dispute_services
from tournaments.table_access import Access, NoAccess
from tournaments.templatetags.cards import SYMBOLS, seat_names, suit_names, trump_name

TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")
TRUMP_SYMBOL = {
    "oros": SYMBOLS["o"],
    "copes": SYMBOLS["c"],
    "espases": SYMBOLS["e"],
    "bastos": SYMBOLS["b"],
    "botifarra": "∅",
}
CALLS = ("contro", "recontro", "sant_vicenc")
CALL_LABELS = {
    "contro": gettext_lazy("Contro"),
    "recontro": gettext_lazy("Recontro"),
    "sant_vicenc": gettext_lazy("Sant Vicenç"),
}
RULE_LABELS = {
    "follow_suit": gettext_lazy("did not follow suit"),
    "must_beat": gettext_lazy("did not beat the winning card"),
    "must_trump": gettext_lazy("did not trump"),
    "must_overtrump": gettext_lazy("did not overtrump"),
    "lowest_card": gettext_lazy("did not play the lowest card"),
}
SEATS_ANTICLOCKWISE = ("N", "W", "S", "E")
PAIR_SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}
PLAY_FORMAT = "botifarra-play/1"


# --- access --------------------------------------------------------------------------------


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
        return JsonResponse({"error": messages_by_kind[exc.kind]}, status=403)
    if exc.kind == "login":
        return redirect(reverse("table:enter") + "?code=" + table_access.normalise_code(code)[:6])
    if exc.kind == "closed":
        return render(request, "table/closed.html", {"table": exc.table}, status=403)
    return render(request, "table/forbidden.html", {}, status=403)


def table_view(view: Callable) -> Callable:
    """Resolve the table of ``code`` for this request, or answer as :class:`NoAccess` says."""

    @wraps(view)
    def wrapper(request: HttpRequest, code: str, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            access = table_access.resolve(request, code)
        except NoAccess as exc:
            return _refuse(request, code, exc)
        return view(request, access, *args, **kwargs)

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


def _result(access: Access, board: Board) -> BoardResult | None:
    return BoardResult.objects.filter(table=access.table, board=board).first()


# --- reads for the pages -------------------------------------------------------------------


def pair_name(access: Access, side: str) -> str:
    entry = access.table.ns if side == "NS" else access.table.ew
    return entry.pair.name


def describe(result: BoardResult) -> dict[str, Any]:
    """A short result as people read it (no cards)."""
    seats = seat_names()
    return {
        "trump": trump_name(result.trump),
        "trump_symbol": TRUMP_SYMBOL.get(result.trump, ""),
        "delegated": result.delegated,
        "calls": [
            {
                "call": CALL_LABELS.get(d.get("call"), d.get("call")),
                "seat": seats.get(d.get("seat"), d.get("seat")),
            }
            for d in result.doubles
        ],
        "totals_ns": result.totals_ns,
        "totals_ew": result.totals_ew,
        "offending_pair": result.offending_pair,
        "multiplier": result.multiplier,
        "score_ns": result.score_ns,
        "score_ew": result.score_ew,
        "capot": result.capot,
        "adjusted_ns": result.get_adjusted_ns_display() if result.adjusted_ns else "",
        "adjusted_ew": result.get_adjusted_ew_display() if result.adjusted_ew else "",
    }


@dataclass
class BoardRow:
    number: int
    board: Board | None
    result: BoardResult | None
    status: str
    label: str
    shown: dict[str, Any] | None = None
    explanation: str = ""
    open_dispute: Dispute | None = None
    actions: list[str] = field(default_factory=list)


def _status_label(result: BoardResult | None, side: str) -> str:
    if result is None:
        return _("Not entered")
    if result.status == BoardResult.Status.ENTERED:
        by = result.entered_side
        if by in ("NS", "EW"):
            other = "EW" if by == "NS" else "NS"
            return _("Entered by %(by)s, waiting for %(other)s") % {"by": by, "other": other}
        return _("Entered by the organiser, waiting for confirmation")
    if result.status == BoardResult.Status.CONFIRMED:
        return _("Confirmed")
    if result.status == BoardResult.Status.DISPUTED:
        return _("Disputed: a referee will decide")
    return _("Ruled by the referee")


def board_rows(access: Access) -> list[BoardRow]:
    """Every board of the table's round with its status and the actions open to this side."""
    table = access.table
    event = table.round.event
    numbers = list(table.round.board_numbers)
    boards = {
        b.number: b
        for b in Board.objects.filter(event=event, number__in=numbers).only(
            "id", "number", "dealer", "event_id"
        )
    }
    found = (
        BoardResult.objects.filter(table=table)
        .select_related("board")
        .prefetch_related(
            Prefetch(
                "disputes",
                queryset=Dispute.objects.prefetch_related(
                    Prefetch("rulings", queryset=Ruling.objects.order_by("created_at", "pk"))
                ),
            )
        )
    )
    by_number = {r.board.number: r for r in found}
    rows = []
    for n in numbers:
        result = by_number.get(n)
        row = BoardRow(
            number=n,
            board=boards.get(n),
            result=result,
            status=result.status if result else "none",
            label=_status_label(result, access.side),
        )
        if result is not None:
            row.shown = describe(result)
            disputes = list(result.disputes.all())
            row.open_dispute = next((d for d in disputes if d.status == Dispute.Status.OPEN), None)
            rulings = [r for d in disputes for r in d.rulings.all()]
            if rulings:
                latest = max(rulings, key=lambda r: (r.created_at, r.pk))
                row.explanation = latest.explanation
        row.actions = _actions(access, row)
        rows.append(row)
    return rows


def _actions(access: Access, row: BoardRow) -> list[str]:
    if row.board is None:
        return []
    result = row.result
    if result is None:
        return ["enter", "play"]
    actions: list[str] = []
    if result.status == BoardResult.Status.ENTERED:
        if access.side and result.entered_side == access.side:
            actions += ["correct", "confirm_here"]
        elif access.side or access.organiser:
            actions += ["confirm", "differ"]
    actions.append("play")
    if row.open_dispute is None:
        actions.append("referee")
    return actions


def _stamp(rows: list[BoardRow]) -> str:
    raw = "|".join(
        f"{r.number}:{r.status}:{r.result.version if r.result else 0}:{r.explanation}" for r in rows
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _home_context(access: Access) -> dict[str, Any]:
    rows = board_rows(access)
    table = access.table
    seats = seat_names()
    return {
        "access": access,
        "table": table,
        "event": table.round.event,
        "round": table.round,
        "rows": rows,
        "stamp": _stamp(rows),
        "seats": seats,
        "my_pair": pair_name(access, access.side) if access.side else "",
        "other_side": access.other_side,
    }


# --- code entry and side choice ------------------------------------------------------------


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
    return render(request, "table/home.html", _home_context(access))


@require_GET
@table_view
def board_list(request: HttpRequest, access: Access) -> HttpResponse:
    """The boards fragment, fetched every 10 s by table.js to refresh statuses in place."""
    return render(request, "table/_boards.html", _home_context(access))


@require_POST
@table_view
def board_confirm(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result = _result(access, board)
    if result is None:
        messages.error(request, _("Board %(n)s has no result to confirm yet.") % {"n": number})
        return redirect(_home(access))
    version = _int_or_none(request.POST.get("version"))
    acting = _acting(request, access)
    if acting is None:
        messages.error(request, _("That is not the other pair's code."))
        return redirect(_home(access, number))
    try:
        results.result_confirm(result=result, actor=acting.actor, expected_version=version)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Board %(n)s confirmed.") % {"n": number})
    return redirect(_home(access, number))


@require_http_methods(["GET", "POST"])
@table_view
def board_referee(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result = _result(access, board)
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
            context["error"] = exc.message
            return render(request, "table/referee.html", context, status=_status_of(exc))
        messages.success(request, _("A referee has been called for board %(n)s.") % {"n": number})
        return redirect(_home(access, number))
    if result is None:
        context["error"] = _("Enter the result first; then you can ask for a referee about it.")
    return render(request, "table/referee.html", context)


def _status_of(exc: ServiceError) -> int:
    if isinstance(exc, NotAllowed):
        return 403
    if isinstance(exc, Conflict):
        return 409
    return 400


def _int_or_none(raw: Any) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


# --- short-form entry ----------------------------------------------------------------------


@dataclass
class ShortForm:
    """The short form's fields as typed, the data for the service, and per-field problems."""

    values: dict[str, str]
    data: dict[str, Any]
    call_fields: list[str]
    errors: dict[str, list[str]]

    @property
    def complete(self) -> bool:
        return not self.errors


FORM_FIELDS = (
    "delegated",
    "trump",
    "contro",
    "recontro",
    "sant_vicenc",
    "outcome",
    "totals_ns",
    "totals_ew",
)


def _parse_total(raw: str) -> int | None | str:
    raw = raw.strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        return "bad"


def parse_short(params: QueryDict | Mapping[str, str]) -> ShortForm:
    """Read the short form (POST or the preview's query string) into the service's data."""
    values = {f: str(params.get(f, "") or "").strip() for f in FORM_FIELDS}
    errors: dict[str, list[str]] = {}
    data: dict[str, Any] = {"delegated": values["delegated"] == "1"}
    if values["trump"]:
        data["trump"] = values["trump"]
    else:
        errors.setdefault("trump", []).append(_("Choose the trump."))
    doubles, call_fields = [], []
    for call in CALLS:
        seat = values[call]
        if seat:
            doubles.append({"seat": seat, "call": call})
            call_fields.append(call)
    data["doubles"] = doubles
    outcome = values["outcome"]
    if outcome == "played":
        ns, ew = _parse_total(values["totals_ns"]), _parse_total(values["totals_ew"])
        if ns == "bad" or ew == "bad":
            errors.setdefault("totals", []).append(
                _("A hand total is a whole number from 0 to 72.")
            )
        elif ns is None and ew is None:
            errors.setdefault("totals", []).append(_("Enter one pair's hand total."))
        else:
            if ns is None:
                ns = 72 - ew  # type: ignore[operator]
            if ew is None:
                ew = 72 - ns  # type: ignore[operator]
            data["totals"] = {"NS": ns, "EW": ew}
    elif outcome in ("illegal_NS", "illegal_EW"):
        data["offending_pair"] = outcome[-2:]
    else:
        errors.setdefault("outcome", []).append(
            _("Say how the hand ended: the hand totals, or an illegal play.")
        )
    return ShortForm(values=values, data=data, call_fields=call_fields, errors=errors)


def problem_field(path: str, call_fields: list[str]) -> str:
    """The form field a problem's path (``choice.trump``, ``doubles[1].seat``…) is about."""
    if path in ("trump", "choice.trump"):
        return "trump"
    if path in ("delegated", "choice.delegated", "choice"):
        return "delegated"
    if path.startswith("doubles["):
        try:
            index = int(path[len("doubles[") : path.index("]")])
        except ValueError:
            return "calls"
        return call_fields[index] if index < len(call_fields) else "calls"
    if path.startswith("doubles"):
        return "calls"
    if path.startswith("totals"):
        return "totals"
    if path == "offending_pair":
        return "outcome"
    return "__all__"


def _problems_to_errors(
    problems: list[engine.Problem], call_fields: list[str]
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for p in problems:
        errors.setdefault(problem_field(p.path, call_fields), []).append(p.message)
    return errors


def _prefill(result: BoardResult) -> dict[str, str]:
    values = dict.fromkeys(FORM_FIELDS, "")
    values["delegated"] = "1" if result.delegated else "0"
    values["trump"] = result.trump
    for d in result.doubles:
        if d.get("call") in CALLS:
            values[d["call"]] = d.get("seat", "")
    if result.offending_pair:
        values["outcome"] = f"illegal_{result.offending_pair}"
    else:
        values["outcome"] = "played"
        values["totals_ns"] = "" if result.totals_ns is None else str(result.totals_ns)
        values["totals_ew"] = "" if result.totals_ew is None else str(result.totals_ew)
    return values


def _seat_options(access: Access, board: Board) -> dict[str, list[dict[str, str]]]:
    """Who may make each call: contro and Sant Vicenç the opponents, recontro the choosers."""
    seats = seat_names()
    dealer = engine.Seat.from_str(board.dealer)
    choosers = engine.choosing_pair(dealer, False)  # the dealer's pair, delegated or not
    opponents = "EW" if choosers == "NS" else "NS"

    def options(pair: str) -> list[dict[str, str]]:
        # From the dealer round the table to the right (anticlockwise), as play goes.
        start = SEATS_ANTICLOCKWISE.index(board.dealer)
        order = SEATS_ANTICLOCKWISE[start:] + SEATS_ANTICLOCKWISE[:start]
        return [{"seat": s, "label": seats[s]} for s in order if s in PAIR_SEATS[pair]]

    return {
        "contro": options(opponents),
        "recontro": options(choosers),
        "sant_vicenc": options(opponents),
    }


def _short_context(
    access: Access,
    board: Board,
    result: BoardResult | None,
    values: dict[str, str],
    errors: dict[str, list[str]],
    mode: str,
) -> dict:
    event = access.table.round.event
    seats = seat_names()
    dealer = board.dealer
    partner = engine.Seat.from_str(dealer).partner.name
    options = _seat_options(access, board)
    return {
        "access": access,
        "table": access.table,
        "board": board,
        "result": result,
        "shown": describe(result) if result is not None else None,
        "values": values,
        "errors": errors,
        "general_errors": errors.get("__all__", []),
        "mode": mode,
        "dealer_label": seats[dealer],
        "partner_label": seats[partner],
        "trumps": [{"value": t, "label": trump_name(t), "symbol": TRUMP_SYMBOL[t]} for t in TRUMPS],
        "calls": [
            {
                "name": c,
                "label": CALL_LABELS[c],
                "selected": values.get(c, ""),
                "options": options[c],
                "errors": errors.get(c, []),
            }
            for c in CALLS
        ],
        "sv_in_botifarra": event.rules.allows_sant_vicenc_in_botifarra,
        "ns_name": access.table.ns.pair.name,
        "ew_name": access.table.ew.pair.name,
        "version": result.version if result is not None else "",
    }


def _submitted_message(outcome: results.Outcome, number: int, side: str) -> tuple[str, str]:
    result = outcome.result
    score = {"n": number, "ns": result.score_ns, "ew": result.score_ew}
    if result.status == BoardResult.Status.CONFIRMED:
        return "success", _("Board %(n)s confirmed: NS %(ns)s, EW %(ew)s.") % score
    if result.status == BoardResult.Status.DISPUTED:
        return "warning", _(
            "Board %(n)s: the two entries differ. A referee has been called and will decide."
        ) % score
    if result.status == BoardResult.Status.RULED:
        return "info", _("Board %(n)s has been ruled by the referee.") % score
    waiting = {"NS": "EW", "EW": "NS"}.get(side, "")
    if waiting:
        return "success", _(
            "Board %(n)s entered: NS %(ns)s, EW %(ew)s. Waiting for %(w)s to confirm."
        ) % (score | {"w": waiting})
    return "success", _("Board %(n)s entered: NS %(ns)s, EW %(ew)s.") % score


@require_http_methods(["GET", "POST"])
@table_view
def board_short(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result = _result(access, board)
    if request.method == "GET":
        mode = request.GET.get("mode", "")
        if result is not None and mode in ("correct", "differ"):
            values = _prefill(result)
        else:
            mode = "new" if result is None else "view"
            values = dict.fromkeys(FORM_FIELDS, "") | {"delegated": "0", "outcome": "played"}
        return render(
            request, "table/short.html", _short_context(access, board, result, values, {}, mode)
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
            errors = _problems_to_errors(exc.problems, form.call_fields)
        except ServiceError as exc:
            field_name = problem_field(exc.field or "", form.call_fields)
            errors = {field_name: [exc.message]}
            status = _status_of(exc)
        else:
            level, text = _submitted_message(outcome, number, acting.side)
            getattr(messages, level)(request, text)
            return redirect(_home(access, number))
    result = _result(access, board)
    return render(
        request,
        "table/short.html",
        _short_context(access, board, result, form.values, errors, mode),
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
    if not form.complete:
        return JsonResponse({"ok": False, "complete": False, "errors": form.errors})
    try:
        values = results.short_values(event=access.table.round.event, board=board, data=form.data)
    except results.InvalidSubmission as exc:
        return JsonResponse(
            {
                "ok": False,
                "complete": True,
                "errors": _problems_to_errors(exc.problems, form.call_fields),
            }
        )
    return JsonResponse(
        {
            "ok": True,
            "multiplier": values["multiplier"],
            "totals": {"NS": values["totals_ns"], "EW": values["totals_ew"]},
            "offending_pair": values["offending_pair"],
            "score": {"NS": values["score_ns"], "EW": values["score_ew"]},
            "capot": values["capot"],
        }
    )


# --- card-by-card entry --------------------------------------------------------------------


def _record(board: Board, result: BoardResult, play: list[Any]) -> dict[str, Any]:
    """A play record for this board with the table's contract (hands come from the board)."""
    event = board.event
    return {
        "format": PLAY_FORMAT,
        "ruleset": event.ruleset,
        "deal": {"dealer": board.dealer},
        "choice": {"delegated": result.delegated, "trump": result.trump},
        "doubles": [{"seat": d["seat"], "call": d["call"]} for d in result.doubles],
        "play": play,
    }


def _play_gate(access: Access, board: Board) -> tuple[BoardResult | None, bool, bool]:
    """(the table's result, whether it may see the cards, whether card by card is open: that
    needs the contract of its short result)."""
    result = _result(access, board)
    can_see = policy.can_see_cards(access.actor, board, table=access.table)
    return result, can_see, can_see and result is not None


def _play_context(
    access: Access,
    board: Board,
    result: BoardResult | None,
    can_see: bool,
    visible: bool,
    **extra: Any,
) -> dict[str, Any]:
    context = {
        "access": access,
        "table": access.table,
        "board": board,
        "result": result,
        "can_see": can_see,
        "visible": visible,
        "shown": describe(result) if result is not None else None,
        "seats": seat_names(),
    }
    if visible and result is not None:
        code = access.code
        context["config"] = {
            "board": board.number,
            "dealer": board.dealer,
            "hands": board.hands,
            "trump": result.trump,
            "delegated": result.delegated,
            "doubles": result.doubles,
            "ruleset": board.event.ruleset,
            "format": PLAY_FORMAT,
            "seats": seat_names(),
            "suits": suit_names(),
            "symbols": SYMBOLS,
            "pairs": {"NS": access.table.ns.pair.name, "EW": access.table.ew.pair.name},
            "legal_url": reverse("table:play_legal", args=[code, board.number]),
            "submit_url": reverse("table:play_submit", args=[code, board.number]),
            "home_url": reverse("table:table_home", args=[code]),
            "storage_key": f"botifarra-play:{access.table.pk}:{board.number}",
        }
    return context | extra


def _verdict_summary(verdict: dict[str, Any], result: BoardResult) -> dict[str, Any]:
    seats = seat_names()
    summary: dict[str, Any] = {
        "verdict": verdict,
        "status": result.status,
        "status_label": result.get_status_display(),
    }
    if verdict["outcome"] == "complete":
        text = _(
            "Complete hand: NS %(tns)s, EW %(tew)s (tricks %(kns)s–%(kew)s); score NS "
            "%(sns)s, EW %(sew)s."
        ) % {
            "tns": verdict["totals"]["NS"],
            "tew": verdict["totals"]["EW"],
            "kns": verdict["tricks"]["NS"],
            "kew": verdict["tricks"]["EW"],
            "sns": verdict["score"]["NS"],
            "sew": verdict["score"]["EW"],
        }
    else:
        text = _(
            "Illegal play at trick %(t)s by %(seat)s: %(card)s (%(rule)s). The legal cards "
            "were %(legal)s. Penalty: NS %(sns)s, EW %(sew)s."
        ) % {
            "t": verdict["trick"],
            "seat": seats.get(verdict["seat"], verdict["seat"]),
            "card": verdict["card"],
            "rule": RULE_LABELS.get(verdict["rule"], verdict["rule"]),
            "legal": " ".join(verdict["legal"]) or "—",
            "sns": verdict["score"]["NS"],
            "sew": verdict["score"]["EW"],
        }
    summary["text"] = text
    if result.status == BoardResult.Status.DISPUTED:
        summary["after"] = _(
            "This does not agree with the result already entered, or has an "
            "illegal card: the board is disputed and a referee will decide."
        )
    elif result.status == BoardResult.Status.CONFIRMED:
        summary["after"] = _("It agrees with the result entered: the board is confirmed.")
    else:
        summary["after"] = _("The result is stored; the other pair confirms it.")
    return summary


@require_http_methods(["GET", "POST"])
@table_view
def board_play(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)
    result, can_see, visible = _play_gate(access, board)
    if request.method == "GET" or not can_see:
        status = 200 if request.method == "GET" else 403
        return render(
            request,
            "table/play.html",
            _play_context(access, board, result, can_see, visible),
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
        problems = [exc.to_problem()]
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
            status = _status_of(exc)
        else:
            assert outcome.verdict is not None
            summary = _verdict_summary(outcome.verdict, outcome.result)
            result = outcome.result
    return render(
        request,
        "table/play.html",
        _play_context(
            access, board, result, can_see, visible, pasted=raw, problems=problems, summary=summary
        ),
        status=status,
    )


def _json_body(request: HttpRequest) -> Any:
    """The request's JSON (``JSONRejected`` when it is not JSON we accept)."""
    return read_json(request.body)


def _rejected(exc: JSONRejected) -> JsonResponse:
    return JsonResponse({"problems": [exc.to_problem()]}, status=400)


def _play_state(board: Board, record: dict[str, Any], nxt: dict[str, Any] | None) -> dict[str, Any]:
    """What the card-by-card page draws: remaining hands, the trick, tricks won, totals."""
    steps = engine.replay_steps(record, deal=board.deal(), rules=board.event.rules)
    played = set(record["play"])
    hands = {seat: [t for t in tokens if t not in played] for seat, tokens in board.hands.items()}
    tricks = {"NS": 0, "EW": 0}
    for step in steps:
        if step.winner is not None:
            tricks[step.winner.pair] += 1
    n = len(steps)
    current = steps[n - (n % 4 or 4) :] if n else []
    trick = [{"seat": s.seat.name, "card": engine.card_token(s.card)} for s in current]
    winner = current[-1].winner.name if current and current[-1].winner is not None else None
    return {
        "count": n,
        "to_move": nxt["seat"] if nxt else None,
        "hands": hands,
        "trick": trick,
        "trick_number": current[0].trick if current else 1,
        "trick_winner": winner,
        "tricks": tricks,
        "totals": steps[-1].totals if steps else {"NS": 0, "EW": 0},
        "complete": n == 48,
    }


@require_POST
@table_view
def play_legal(request: HttpRequest, access: Access, number: int) -> JsonResponse:
    """``engine.legal_for_record`` for the cards so far (``seat``, ``legal``), plus ``state``.

    Body: ``{"play": [tokens]}``. The contract is the table's short result for the board.
    """
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)  # type: ignore[return-value]
    result, _can_see, visible = _play_gate(access, board)
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
    play = body.get("play") if isinstance(body, dict) else None
    if not isinstance(play, list) or len(play) > 48 or not all(isinstance(t, str) for t in play):
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
    record = _record(board, result, play)
    try:
        if len(play) == 48:
            engine.replay_steps(record, deal=board.deal(), rules=board.event.rules)
            answer: dict[str, Any] = {"seat": None, "legal": []}
            state = _play_state(board, record, None)
        else:
            answer = engine.legal_for_record(record, deal=board.deal(), rules=board.event.rules)
            state = _play_state(board, record, answer)
    except engine.InvalidRecord as exc:
        return JsonResponse({"problems": [p.to_json() for p in exc.problems]}, status=400)
    if len(play) == 48:
        state["verdict"] = engine.replay(
            record, deal=board.deal(), rules=board.event.rules
        ).to_json()
    return JsonResponse(answer | {"state": state})


@require_POST
@table_view
def play_submit(request: HttpRequest, access: Access, number: int) -> JsonResponse:
    """Submit a whole play record (JSON body) through ``results.result_submit_play_record``."""
    board = _board(access, number)
    if board is None:
        return _not_found(request, access, number)  # type: ignore[return-value]
    result, can_see, _visible = _play_gate(access, board)
    if not can_see:
        return JsonResponse(
            {
                "error": _(
                    "Enter the short result first: nobody sees a board's cards before playing it."
                )
            },
            status=403,
        )
    try:
        record = _json_body(request)
    except JSONRejected as exc:
        return _rejected(exc)
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
        return JsonResponse({"error": exc.message, "field": exc.field}, status=_status_of(exc))
    assert outcome.verdict is not None
    summary = _verdict_summary(outcome.verdict, outcome.result)
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
