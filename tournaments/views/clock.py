"""The round's clock: the organiser's buttons (start, pause, extend) and the table's "time was
called during deal k". Thin: parse, call one service, say what happened."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.actors import Actor
from tournaments.models import Event, Round
from tournaments.services import NotAllowed, ServiceError
from tournaments.services import clock as svc
from tournaments.table_access import Access
from tournaments.views.table_guards import table_view


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return -1  # a clear refusal from the service, never a 500


@login_required
@require_POST
def round_clock(request: HttpRequest, pk: int, number: int, action: str) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    if not event.is_organiser(request.user):
        raise PermissionDenied(_("You are not an organiser of this event."))
    rnd = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    actor = Actor(user=request.user)
    minutes = _int_or_none(request.POST.get("minutes"))
    done = {
        "start": _("The clock is running."),
        "pause": _("The clock is paused."),
        "extend": _("The round has more time."),
        "time": _("The deal during which time was called is set."),
    }
    try:
        if action == "start":
            svc.clock_start(rnd=rnd, actor=actor, minutes=minutes)
        elif action == "pause":
            svc.clock_pause(rnd=rnd, actor=actor)
        elif action == "extend":
            svc.clock_extend(rnd=rnd, actor=actor, minutes=minutes)
        elif action == "time":
            number_ = _int_or_none(request.POST.get("table"))
            table = rnd.tables.filter(number=number_).first()
            if table is None:
                raise ServiceError(_("There is no such table in this round."), field="table")
            deal = _int_or_none(request.POST.get("deal")) or 0
            svc.table_time_called(table=table, actor=actor, deal=deal)
        else:
            raise ServiceError(_("Unknown clock action."), field="action")
    except (ServiceError, NotAllowed) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done[action])
    return redirect("tournaments:round_detail", event.pk, number)


@require_POST
@table_view
def table_time(request: HttpRequest, access: Access) -> HttpResponse:
    deal = _int_or_none(request.POST.get("deal"))
    try:
        svc.table_time_called(table=access.table, actor=access.actor, deal=deal or 0)
    except (ServiceError, NotAllowed) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Noted: time was called during deal %(k)s. The later boards are not played.")
            % {"k": deal},
        )
    return redirect(reverse("table:table_home", args=[access.code]))
