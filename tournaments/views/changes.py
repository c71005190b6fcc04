"""Undo and late changes: each page shows what the change will do (its plan), asks for
confirmation, then calls one service (tournaments.services.changes)."""

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


@login_required
@require_http_methods(["GET", "POST"])
def entry_withdraw(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    entry = _entry(event, entry_pk)
    try:
        plan = svc.withdrawal_plan(entry)
    except ServiceError as exc:
        return _refused(request, exc, _entries_page(event))
    form = ReasonForm(_posted(request), required=False)
    if request.method == "POST" and form.is_valid():
        try:
            svc.entry_withdraw(
                entry=entry, actor=_actor(request), reason=form.cleaned_data["reason"]
            )
        except ServiceError as exc:
            return _refused(request, exc, _entries_page(event))
        if plan.deletes:
            messages.success(request, _("Pair %(n)s removed.") % {"n": entry.number})
        else:
            messages.success(request, _("Pair %(n)s withdrawn.") % {"n": entry.number})
        return _entries_page(event)
    return _confirm(
        request, "tournaments/confirm_withdraw.html", event, form, entry=entry, plan=plan
    )


@login_required
@require_http_methods(["GET", "POST"])
def entry_reinstate(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    entry = _entry(event, entry_pk)
    try:
        plan = svc.reinstate_plan(entry)
    except ServiceError as exc:
        return _refused(request, exc, _entries_page(event))
    form = ReasonForm(_posted(request), required=False)
    if request.method == "POST" and form.is_valid():
        try:
            svc.entry_reinstate(
                entry=entry, actor=_actor(request), reason=form.cleaned_data["reason"]
            )
        except ServiceError as exc:
            return _refused(request, exc, _entries_page(event))
        messages.success(request, _("Pair %(n)s plays again.") % {"n": entry.number})
        return _entries_page(event)
    return _confirm(
        request, "tournaments/confirm_reinstate.html", event, form, entry=entry, plan=plan
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
    try:
        plan = svc.reopen_plan(rnd)
    except ServiceError as exc:
        return _refused(request, exc, _round_page(event, number))
    form = ReasonForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            done = svc.round_reopen(
                rnd=rnd, actor=_actor(request), reason=form.cleaned_data["reason"]
            )
        except ServiceError as exc:
            return _refused(request, exc, _round_page(event, number))
        messages.success(request, _("Round %(n)s is open again.") % {"n": number})
        if done.new_codes:
            messages.warning(
                request,
                _("Tables %(tables)s have new codes: print their cards again.")
                % {"tables": ", ".join(map(str, done.new_codes))},
            )
        return _round_page(event, number)
    return _confirm(request, "tournaments/confirm_reopen.html", event, form, rnd=rnd, plan=plan)


@login_required
@require_http_methods(["GET", "POST"])
def round_unopen(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    try:
        svc.unopen_check(rnd)
    except ServiceError as exc:
        return _refused(request, exc, _round_page(event, number))
    form = ReasonForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            svc.round_unopen(rnd=rnd, actor=_actor(request), reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            return _refused(request, exc, _round_page(event, number))
        messages.success(
            request, _("Round %(n)s is back to proposed: change it, then open it.") % {"n": number}
        )
        return _round_page(event, number)
    return _confirm(request, "tournaments/confirm_unopen.html", event, form, rnd=rnd)


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
