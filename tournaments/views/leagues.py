"""The league's pages (/leagues/): its public page and PDF; the organiser's pages to make the
league, its teams and fixture list, and to enter each match's games."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import exports, pdf
from tournaments.actors import Actor
from tournaments.forms_league import FixtureGamesForm, LeagueForm, LeagueTeamForm
from tournaments.league_selectors import league_view
from tournaments.models import League, LeagueFixture
from tournaments.services import ServiceError, clubs
from tournaments.services import league as svc


def _visible(request: HttpRequest, pk: int) -> League:
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    if not (league.published or league.is_organiser(request.user)):
        raise Http404(_("No such league."))
    return league


def _managed(request: HttpRequest, pk: int) -> League:
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    if not league.is_organiser(request.user):
        raise PermissionDenied(_("You are not an organiser of this league."))
    return league


def _refusing(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A league page refused for its query (``pdf.PdfRefused``, as the event's public files):
    the reason, on a page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except pdf.PdfRefused as exc:
            context = {"title": _("League table"), "message": exc.message}
            return render(request, "refused.html", context, status=exc.status)

    return wrapper


def _after_day(request: HttpRequest, league: League) -> int | None:
    """``?after=``: a match day of the fixture list (the table after it: that day and the
    earlier ones, whether or not the day has results yet); absent, the latest table."""
    raw = request.GET.get("after", "")
    if raw == "":
        return None
    # isascii: "²".isdigit() is true but int() refuses it; a day number has a few digits.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise pdf.PdfRefused(_("The match day must be a number."), status=400)
    day = int(raw)
    if not league.fixtures.filter(day=day).exists():
        raise pdf.PdfRefused(_("The league has no match day %(n)s.") % {"n": day})
    return day


@require_GET
@_refusing
def league_page(request: HttpRequest, pk: int) -> HttpResponse:
    league = _visible(request, pk)
    view = league_view(league, after_day=_after_day(request, league))
    return render(
        request,
        "leagues/league.html",
        {"league": league, "view": view, "can_change": league.is_organiser(request.user)},
    )


@require_GET
@_refusing
def league_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    league = _visible(request, pk)
    view = league_view(league, after_day=_after_day(request, league))
    plan = pdf.PdfPlan(
        kind="league",
        round=None,
        template="print/league.html",
        title=_("League table"),
        filename=f"league-{league.pk}.pdf",
        common={"event": league, "league": league, "view": view},
        parts=[{}],
    )
    response = HttpResponse(pdf.render_pdf(plan), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{plan.filename}"'
    return response


def _download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@_refusing
def league_csv(request: HttpRequest, pk: int, part: str) -> HttpResponse:
    """The league table (``table``) or the fixture list (``fixtures``) as CSV for programs."""
    league = _visible(request, pk)
    view = league_view(league, after_day=_after_day(request, league))
    return _download(
        exports.league_csv(view, part), "text/csv; charset=utf-8", f"league-{league.pk}-{part}.csv"
    )


@require_GET
@_refusing
def league_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    league = _visible(request, pk)
    view = league_view(league, after_day=_after_day(request, league))
    return _download(
        exports.league_xlsx(view),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        f"league-{league.pk}.xlsx",
    )


@require_GET
@_refusing
def league_json(request: HttpRequest, pk: int) -> HttpResponse:
    league = _visible(request, pk)
    view = league_view(league, after_day=_after_day(request, league))
    return JsonResponse(exports.league_json(view))


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club_name = form.cleaned_data.pop("club_name", "")
        actor = Actor(user=request.user)
        try:
            # As for an event: a new name makes a club of yours, an existing one needs you.
            club = clubs.club_for(name=club_name, actor=actor)
            league = svc.league_create(actor=actor, club=club, **form.cleaned_data)
        except ServiceError as exc:
            field = "club_name" if exc.field == "club" else exc.field
            form.add_error(field if field in form.fields else None, exc.message)
        else:
            return redirect("leagues:manage", league.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "leagues/new.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def league_manage(request: HttpRequest, pk: int) -> HttpResponse:
    league = _managed(request, pk)
    actor = Actor(user=request.user)
    team_form = LeagueTeamForm(request.POST if request.POST.get("action") == "team" else None)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "team" and team_form.is_valid():
                svc.league_team_add(league=league, actor=actor, **team_form.cleaned_data)
                messages.success(request, _("Team added."))
                return redirect("leagues:manage", league.pk)
            if action == "fixtures":
                if league.fixtures.exists() and not request.POST.get("confirm"):
                    messages.error(request, _("Tick the box to replace the fixture list."))
                else:
                    n = svc.fixtures_generate(league=league, actor=actor)
                    messages.success(
                        request,
                        ngettext("%(n)s match scheduled.", "%(n)s matches scheduled.", n)
                        % {"n": n},
                    )
                    return redirect("leagues:manage", league.pk)
            if action == "publish":
                svc.league_publish(
                    league=league, actor=actor, published=request.POST.get("published") == "1"
                )
                return redirect("leagues:manage", league.pk)
            if action not in ("team", "fixtures"):
                messages.error(request, _("Choose one of the page's actions."))
        except ServiceError as exc:
            if action == "team":
                team_form.add_error(
                    exc.field if exc.field in team_form.fields else None, exc.message
                )
            else:
                messages.error(request, exc.message)
    return render(
        request,
        "leagues/manage.html",
        {"league": league, "view": league_view(league), "team_form": team_form},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def fixture_results(request: HttpRequest, pk: int, fixture_pk: int) -> HttpResponse:
    league = _managed(request, pk)
    fixture = get_object_or_404(
        LeagueFixture.objects.select_related("home", "away"), league=league, pk=fixture_pk
    )
    initial = {"date": fixture.date, "forfeit": fixture.forfeit} | {
        f"game{g.number}": ", ".join(f"{h}-{a}" for h, a in g.hands) for g in fixture.games.all()
    }
    form = FixtureGamesForm(request.POST or None, league=league, initial=initial)
    if request.method == "POST" and form.is_valid():
        actor = Actor(user=request.user)
        game = None  # the game being entered: a refused hand is shown beside its line
        try:
            # All the games or none: a refused game leaves everything stored as it was.
            with transaction.atomic():
                if form.cleaned_data["date"] != fixture.date:  # None: the match day's
                    svc.league_fixture_date(
                        fixture=fixture, actor=actor, when=form.cleaned_data["date"]
                    )
                # A game whose field was emptied is removed (before a forfeit, which needs none).
                entered = {g.number for g in fixture.games.all()}
                for number in sorted(entered - set(form.games())):
                    svc.league_game_remove(fixture=fixture, actor=actor, number=number)
                if form.cleaned_data["forfeit"] != fixture.forfeit:
                    svc.league_forfeit(
                        fixture=fixture, actor=actor, side=form.cleaned_data["forfeit"]
                    )
                for game, hands in sorted(form.games().items()):
                    svc.league_game_enter(fixture=fixture, actor=actor, number=game, hands=hands)
        except ServiceError as exc:
            field = f"game{game}" if exc.field == "hands" and game else exc.field
            form.add_error(field if field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Results saved."))
            return redirect("leagues:manage", league.pk)
    return render(
        request,
        "leagues/fixture.html",
        {"league": league, "fixture": fixture, "form": form},
        status=400 if request.method == "POST" else 200,
    )
