"""Undo and late changes: each page shows what the change will do (its plan), asks for
confirmation, then calls one service (tournaments.services.changes)."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import scoring_io, selectors
from tournaments.forms_changes import PairingForm, ReasonForm, SubstituteForm
from tournaments.models import Entry, Event, Round
from tournaments.services import ServiceError
from tournaments.services import changes as svc
from tournaments.views.organiser import _actor, _event, _round, _round_page


def _entry(event: Event, entry_pk: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("pair__player1", "pair__player2", "event"),
        pk=entry_pk,
        event=event,
    )


def _entries_page(event: Event) -> HttpResponse:
    return redirect("tournaments:entries", event.pk)


def _posted(request: HttpRequest) -> Any:
    """The POSTed data (an empty POST is still a POST: its form is bound), or None."""
    return request.POST if request.method == "POST" else None


def _refused(request: HttpRequest, exc: ServiceError, back: HttpResponse) -> HttpResponse:
    messages.error(request, exc.message)
    return back


def _confirm(
    request: HttpRequest, template: str, event: Event, form: Any, **context: Any
) -> HttpResponse:
    status = 400 if form.is_bound and form.errors else 200
    return render(request, template, {"event": event, "form": form, **context}, status=status)


def _confirmed_change(
    request: HttpRequest,
    *,
    event: Event,
    back: HttpResponse,
    plan: Callable[[], Any],
    act: Callable[[str], None],
    template: str,
    reason_required: bool,
    **context: Any,
) -> HttpResponse:
    """The shape of every undo and late change: show its plan (refused at once if the service
    says it cannot be done), ask for a reason and confirmation, then act and go back. ``act``
    posts its own success messages; a refusal at that moment (the state changed meanwhile) is
    shown as a message on the page we go back to."""
    try:
        planned = plan()
    except ServiceError as exc:
        return _refused(request, exc, back)
    form = ReasonForm(_posted(request), required=reason_required)
    if request.method == "POST" and form.is_valid():
        try:
            act(form.cleaned_data["reason"])
        except ServiceError as exc:
            return _refused(request, exc, back)
        return back
    return _confirm(request, template, event, form, plan=planned, **context)


@login_required
@require_http_methods(["GET", "POST"])
def entry_withdraw(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    entry = _entry(event, entry_pk)

    def act(reason: str) -> None:
        plan = svc.entry_withdraw(entry=entry, actor=_actor(request), reason=reason)
        done = _("Pair %(n)s removed.") if plan.deletes else _("Pair %(n)s withdrawn.")
        messages.success(request, done % {"n": entry.number})

    return _confirmed_change(
        request,
        event=event,
        back=_entries_page(event),
        plan=lambda: svc.withdrawal_plan(entry),
        act=act,
        template="tournaments/confirm_withdraw.html",
        reason_required=False,
        entry=entry,
    )


@login_required
@require_http_methods(["GET", "POST"])
def entry_reinstate(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    entry = _entry(event, entry_pk)

    def act(reason: str) -> None:
        svc.entry_reinstate(entry=entry, actor=_actor(request), reason=reason)
        messages.success(request, _("Pair %(n)s plays again.") % {"n": entry.number})

    return _confirmed_change(
        request,
        event=event,
        back=_entries_page(event),
        plan=lambda: svc.reinstate_plan(entry),
        act=act,
        template="tournaments/confirm_reinstate.html",
        reason_required=False,
        entry=entry,
    )


@login_required
@require_http_methods(["GET", "POST"])
def entry_substitute(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    entry = _entry(event, entry_pk)
    form = SubstituteForm(_posted(request), entry=entry)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            svc.player_substitute(
                entry=entry,
                actor=_actor(request),
                seat=data["seat"],
                name=data["name"],
                reason=data["reason"],
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s now plays in pair %(n)s.") % {"name": data["name"], "n": entry.number},
            )
            return _entries_page(event)
    return _confirm(
        request,
        "tournaments/substitute.html",
        event,
        form,
        entry=entry,
        from_round=svc.substitution_round(event),
        history=entry.substitutions.select_related("player_out", "player_in"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_reopen(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    rnd = _round(event, number)

    def act(reason: str) -> None:
        done = svc.round_reopen(rnd=rnd, actor=_actor(request), reason=reason)
        messages.success(request, _("Round %(n)s is open again.") % {"n": number})
        if done.new_codes:
            messages.warning(
                request,
                _("Tables %(tables)s have new codes: print their cards again.")
                % {"tables": ", ".join(map(str, done.new_codes))},
            )

    return _confirmed_change(
        request,
        event=event,
        back=_round_page(event, number),
        plan=lambda: svc.reopen_plan(rnd),
        act=act,
        template="tournaments/confirm_reopen.html",
        reason_required=True,
        rnd=rnd,
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_unopen(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    rnd = _round(event, number)

    def act(reason: str) -> None:
        svc.round_unopen(rnd=rnd, actor=_actor(request), reason=reason)
        messages.success(
            request, _("Round %(n)s is back to proposed: change it, then open it.") % {"n": number}
        )
        messages.warning(
            request,
            _(
                "Every table of round %(n)s has new codes: print the table cards again once "
                "you open it."
            )
            % {"n": number},
        )

    return _confirmed_change(
        request,
        event=event,
        back=_round_page(event, number),
        plan=lambda: svc.unopen_check(rnd),
        act=act,
        template="tournaments/confirm_unopen.html",
        reason_required=True,
        rnd=rnd,
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_pairing(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Edit a proposed round freely: any pair at any table and direction. A first POST shows
    the warnings (rematches, directions, second bye) and asks to confirm; a confirmed POST (or
    one without warnings) saves."""
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    if rnd.status != Round.Status.PENDING:
        messages.error(request, _("Only a round that is not open yet can be changed."))
        return _round_page(event, number)
    tables = list(rnd.tables.select_related("ns", "ew").order_by("number"))
    entries = selectors.round_entries(rnd)
    initial: dict[str, object] = {f"t{t.number}_ns": t.ns.number for t in tables}
    initial |= {f"t{t.number}_ew": t.ew.number for t in tables}
    if rnd.bye_id:
        initial["bye"] = rnd.bye.number
    form = PairingForm(
        _posted(request),
        initial=initial,
        entries=entries,
        tables=len(tables),
        has_bye=rnd.bye_id is not None,
    )
    warnings: list[str] = []
    if request.method == "POST" and form.is_valid():
        pairing, bye = form.pairing()
        ids = {e.number: e.pk for e in entries}
        warnings = scoring_io.pairing_warnings(
            rnd,
            tables=[(ids[ns], ids[ew]) for ns, ew in pairing],
            bye=ids.get(bye) if bye is not None else None,
        )
        if form.confirmed or not warnings:
            try:
                svc.pairing_set(rnd=rnd, actor=_actor(request), tables=pairing, bye=bye)
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("The pairing of round %(n)s is saved.") % {"n": number})
                return _round_page(event, number)
    return _confirm(
        request,
        "tournaments/round_pairing.html",
        event,
        form,
        rnd=rnd,
        warnings=warnings,
    )
