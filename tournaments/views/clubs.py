"""A club's page: its players' ratings, its seasons, and the organisers' recomputation (/clubs/)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import exports, pdf, queue
from tournaments.actors import Actor
from tournaments.club_selectors import club_ratings, season_view
from tournaments.forms_players import SeasonForm
from tournaments.models import Club, Season
from tournaments.services import ServiceError
from tournaments.services.clubs import season_create


@require_GET
def club_page(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    organiser = club.may_act_for(request.user)
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "organiser": organiser,
            "ratings": club_ratings(club, Actor(user=request.user)),
            "seasons": club.seasons.all(),
        },
    )


@login_required
@require_POST
def ratings_recompute(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    if not club.may_act_for(request.user):
        raise Http404(_("No such club."))
    queue.recompute_ratings(club.pk)
    messages.success(request, _("The ratings are being recomputed from the club's whole history."))
    return redirect("clubs:club", club.pk)


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    if not club.may_act_for(request.user):
        raise Http404(_("No such club."))
    form = SeasonForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            season = season_create(club=club, actor=Actor(user=request.user), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            return redirect("clubs:season", club.pk, season.pk)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "clubs/season_form.html", {"club": club, "form": form}, status=status)


def _season(pk: int, season_pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=season_pk, club_id=pk)


@require_GET
def season_page(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    view = season_view(_season(pk, season_pk), Actor(user=request.user))
    return render(request, "clubs/season.html", {"view": view, "club": view.season.club})


@require_GET
def season_csv(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    view = season_view(_season(pk, season_pk), Actor(user=request.user))
    response = HttpResponse(exports.season_csv(view), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="season-{view.season.pk}.csv"'
    return response


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def season_xlsx(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    view = season_view(_season(pk, season_pk), Actor(user=request.user))
    return _download(
        exports.season_xlsx(view),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        f"season-{view.season.pk}.xlsx",
    )


@require_GET
def season_pdf(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    view = season_view(_season(pk, season_pk), Actor(user=request.user))
    return _download(pdf.season_pdf(view), "application/pdf", f"season-{view.season.pk}.pdf")
