"""How a table's pages are reached: the table a code opens for this request (or the answer
when it opens none), and submissions sent with an Idempotency-Key by the phone's outbox, run
once and answered again when sent again."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import idempotency as once
from tournaments import table_access
from tournaments import table_pages as pages
from tournaments.actors import Actor
from tournaments.labels import side_label
from tournaments.table_access import SIDES, Access, NoAccess

# --- access ---------------------------------------------------------------------------------


def wants_json(request: HttpRequest) -> bool:
    return (
        "application/json" in request.headers.get("Accept", "")
        or request.content_type == "application/json"
    )


def _refuse(request: HttpRequest, code: str, exc: NoAccess) -> HttpResponse:
    if wants_json(request):
        messages_by_kind = {
            "login": _("Enter your table's code first."),
            "forbidden": _("This page belongs to another table."),
            "replaced": _(
                "Your table has new codes: type the new code from your table card (what "
                "waits on this phone is sent with it)."
            ),
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
    # The code form, with the address's code filled in (a card's QR code scanned on a phone that
    # held another code): offered for any well-formed code, existing or not.
    typed = table_access.normalise_code(code)
    context = {
        "replaced": exc.kind == "replaced",
        "code": typed if table_access.code_well_formed(typed) else "",
    }
    return render(request, "table/forbidden.html", context, status=403)


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
    if request.method != "POST" or not wants_json(request):
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
