"""A club's page: its players' ratings, its seasons, and the organisers' recomputation (/clubs/)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import queue
from tournaments.actors import Actor
from tournaments.club_selectors import club_ratings
from tournaments.models import Club


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
