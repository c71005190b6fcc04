"""Team events' pages (docs/teams.md): the organiser's teams and line-ups, the public team
standings, matches and Butler ranking, and a table's view of its match."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import policy
from tournaments import team_selectors as ts
from tournaments.actors import Actor
from tournaments.forms_teams import LineUpForm, TeamForm
from tournaments.models import Event, LineUp, Round, Table, TeamMatch
from tournaments.services import ServiceError, teams
from tournaments.table_access import Access
from tournaments.views.public import _int_param, public_event, refused
from tournaments.views.table_guards import table_view

# --- public ---------------------------------------------------------------------------------


def _team_event(request: HttpRequest, pk: int) -> Any:
    ev = public_event(request, pk)
    if not ev.event.is_team_event:
        return ev, refused(request, ev, _("This is not a team event."), 404)
    return ev, None


def _standings(request: HttpRequest, pk: int, template: str) -> HttpResponse:
    ev, refusal = _team_event(request, pk)
    if refusal:
        return refusal
    after = _int_param(request, "after")
    if after == -1:
        return refused(request, ev, _("The round must be a number."), 400)
    view = ts.team_standings(ev, after_round=after)
    return render(request, template, {"event": ev.event, "ev": ev, "view": view})


@require_GET
def team_standings(request: HttpRequest, pk: int) -> HttpResponse:
    return _standings(request, pk, "teams/standings.html")


@require_GET
def butler(request: HttpRequest, pk: int) -> HttpResponse:
    return _standings(request, pk, "teams/butler.html")


@require_GET
def team_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    ev, refusal = _team_event(request, pk)
    if refusal:
        return refusal
    actor = Actor(user=request.user)
    rounds = [(n, ts.round_matches(ev, n, actor)) for n in ts.played_rounds(ev)]
    return render(request, "teams/rounds.html", {"event": ev.event, "ev": ev, "rounds": rounds})


@require_GET
def team_match(request: HttpRequest, pk: int, number: int, match: int) -> HttpResponse:
    ev, refusal = _team_event(request, pk)
    if refusal:
        return refusal
    found = ts.match_queryset().filter(round__event=ev.event, round__number=number, number=match)
    m = found.first()
    if m is None:
        return refused(request, ev, _("No such match."), 404)
    if not policy.can_follow_team_match(Actor(user=request.user), m):
        return refused(request, ev, _("The match's results show once the round is closed."), 403)
    return render(
        request, "teams/match.html", {"event": ev.event, "ev": ev, "mv": ts.match_view(m)}
    )


# --- the table's view of its match ---------------------------------------------------------------


@require_GET
@table_view
def table_match(request: HttpRequest, access: Access) -> HttpResponse:
    """Both tables' results of this table's match, board by board once both have entered it."""
    t = access.table
    m = ts.match_queryset().filter(Q(open_table=t) | Q(closed_table=t)).first()
    if m is None or not policy.can_follow_team_match(access.actor, m):
        return render(request, "teams/table_no_match.html", {"access": access}, status=404)
    return render(
        request,
        "teams/table_match.html",
        {"access": access, "table": access.table, "mv": ts.match_view(m)},
    )


# --- the organiser's pages -------------------------------------------------------------------


def _event(request: HttpRequest, pk: int, *, change: bool = False) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    allowed = event.is_organiser(request.user) if change else event.is_referee(request.user)
    if not allowed:
        raise PermissionDenied(_("You are not an organiser of this event."))
    return event


@login_required
@require_http_methods(["GET", "POST"])
def team_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's teams and their players; the organisers register new ones here."""
    event = _event(request, pk, change=request.method == "POST")
    form = TeamForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            team = teams.team_register(
                event=event,
                actor=Actor(user=request.user),
                name=form.cleaned_data["name"],
                players=form.players(),
                club=form.cleaned_data["club"],
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Team %(team)s registered.") % {"team": team.name})
            return redirect("tournaments:teams", event.pk)
    matches = (
        TeamMatch.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.CLOSED)
        .select_related("round", "team_a", "team_b")
        .order_by("round__number", "number")
    )
    return render(
        request,
        "teams/organiser_teams.html",
        {
            "event": event,
            "can_change": event.is_organiser(request.user),
            "can_register": event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION),
            "teams": event.teams.prefetch_related("members__player").select_related("club"),
            "matches": matches,
            "form": form,
            "rounds": list(event.rounds.order_by("number")),
        },
        status=400 if request.method == "POST" else 200,
    )


def _codes_versions(match: TeamMatch) -> dict[int, int]:
    """The match's tables' codes versions by table number (a line-up change may renew them)."""
    return dict(
        Table.objects.filter(pk__in=[match.open_table_id, match.closed_table_id]).values_list(
            "number", "codes_version"
        )
    )


@login_required
@require_http_methods(["GET", "POST"])
def lineup(request: HttpRequest, pk: int, number: int, match: int) -> HttpResponse:
    """Enter both teams' line-ups of a match before it starts (audited)."""
    event = _event(request, pk, change=True)
    m = get_object_or_404(
        ts.match_queryset(), round__event=event, round__number=number, number=match
    )
    current = {
        lu.team_id: lu
        for lu in LineUp.objects.filter(match=m).select_related("first__pair", "second__pair")
    }
    forms = {}
    for team in (m.team_a, m.team_b):
        lu = current.get(team.pk)
        initial = (
            {
                "first1": lu.first.pair.player1_id,
                "first2": lu.first.pair.player2_id,
                "second1": lu.second.pair.player1_id,
                "second2": lu.second.pair.player2_id,
            }
            if lu
            else {}
        )
        posted = request.method == "POST" and request.POST.get("team") == str(team.pk)
        forms[team.pk] = LineUpForm(
            request.POST if posted else None, team=team, initial=initial, prefix=f"t{team.pk}"
        )
        if posted and forms[team.pk].is_valid():
            d = forms[team.pk].cleaned_data
            versions = _codes_versions(m)
            try:
                teams.lineup_set(
                    match=m,
                    team=team,
                    actor=Actor(user=request.user),
                    first=(d["first1"], d["first2"]),
                    second=(d["second1"], d["second2"]),
                )
            except ServiceError as exc:
                forms[team.pk].add_error(None, exc.message)
            else:
                messages.success(request, _("Line-up of %(team)s saved.") % {"team": team.name})
                renewed = [n for n, v in _codes_versions(m).items() if v != versions.get(n)]
                if renewed:
                    messages.warning(
                        request,
                        _("Tables %(tables)s have new codes: print their cards again.")
                        % {"tables": ", ".join(map(str, renewed))},
                    )
                return redirect("tournaments:lineup", event.pk, number, match)
    if request.method == "POST" and request.POST.get("team") not in {str(t) for t in forms}:
        messages.error(request, _("Choose one of the two teams of this match."))
    return render(
        request,
        "teams/lineup.html",
        {
            "event": event,
            "match": m,
            "sides": [(m.team_a, forms[m.team_a_id]), (m.team_b, forms[m.team_b_id])],
            "rounds": list(event.rounds.order_by("number")),
        },
        status=400 if request.method == "POST" else 200,
    )
