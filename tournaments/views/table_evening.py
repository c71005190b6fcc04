"""The pair's own evening in the table pages: its scorecard so far, the standings of the closed
rounds and the referee's rulings on its boards. Read-only, so they also open with the code of a
round that is closed (``evening_view``); what they show is decided in ``pair_pages`` (through
``policy``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from tournaments import pair_pages
from tournaments.table_access import Access
from tournaments.views.table_guards import evening_view as table_evening_view


def evening_view(view: Callable) -> Callable:
    """A pair's own page; in a team event the pair's evening is its team's match."""

    @table_evening_view
    @wraps(view)
    def wrapper(request: HttpRequest, access: Access) -> HttpResponse:
        if access.table.round.event.is_team_event:
            return redirect("table:table_match", access.code)
        return view(request, access)

    return wrapper


@require_GET
@evening_view
def pair_scorecard(request: HttpRequest, access: Access) -> HttpResponse:
    context = pair_pages.scorecard_context(access)
    return render(request, "table/pair_scorecard.html", context | {"tab": "scorecard"})


@require_GET
@evening_view
def pair_standings(request: HttpRequest, access: Access) -> HttpResponse:
    context = pair_pages.standings_context(access)
    return render(request, "table/pair_standings.html", context | {"tab": "standings"})


@require_GET
@evening_view
def pair_rulings(request: HttpRequest, access: Access) -> HttpResponse:
    context = pair_pages.rulings_context(access)
    return render(request, "table/pair_rulings.html", context | {"tab": "rulings"})
