"""Public results pages: no login needed once the organiser publishes the event.

The event's organisers and referees always see them (with a "not published yet" banner) and see
the boards of open rounds too; nobody else sees anything of a board before its round is closed.
"""

from __future__ import annotations

import shlex
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import analysis_selectors, pdf, play, policy, site, stage_pages
from tournaments import public_selectors as sel
from tournaments.actors import Actor
from tournaments.clock import round_clock
from tournaments.forms_check import CheckBoardsForm
from tournaments.models import Event, Round
from tournaments.prepared import Prepared
from tournaments.views.live import CSRF_SLOT, live_response

STANDINGS_REFRESH_SECONDS = 15


_EVENT = Prepared(lambda pk: Event.objects.select_related("club").filter(pk=pk), pk=int)


def public_event(request: HttpRequest, pk: int) -> sel.EventView:
    """The event for this viewer; 404 for the public until the organiser publishes it."""
    event = _EVENT.first(pk=pk)
    if event is None:
        raise Http404(_("No such event."))
    actor = Actor(user=request.user)
    if not policy.event_pages_open(actor, event):
        raise Http404(_("No such event."))
    staff = policy.is_event_staff(actor, event)
    return sel.event_view(event, staff=staff, codes=policy.can_see_codes(actor, event))


def refused(
    request: HttpRequest, ev: sel.EventView | None, message: str, status: int
) -> HttpResponse:
    return render(
        request,
        "public/refused.html",
        {"event": ev.event if ev else None, "ev": ev, "message": message},
        status=status,
    )


def ruleset_words(event: Event) -> str:
    """``Obligada (eastern rules), game to 101, Sant Vicenç allowed in botifarra``."""
    rules = play.rules(event)
    parts = [_("Obligada (eastern rules)") if rules.obligada else _("Lliure (western rules)")]
    if event.match_mode == Event.MatchMode.GAME and event.game_target is None:
        parts.append(_("a game of a fixed number of deals"))
    elif event.match_mode == Event.MatchMode.GAME:
        parts.append(_("game to %(n)s") % {"n": event.game_target})
    else:
        parts.append(_("every board counts"))
    if rules.allows_sant_vicenc_in_botifarra:
        parts.append(_("Sant Vicenç allowed in botifarra"))
    else:
        parts.append(_("no Sant Vicenç in botifarra"))
    if event.deal_limit:
        parts.append(_("deal limit %(n)s") % {"n": event.deal_limit})
    return ", ".join(parts)


def _base(ev: sel.EventView, **extra: Any) -> dict[str, Any]:
    return {"event": ev.event, "ev": ev, **extra}


def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    ev = public_event(request, pk)
    view = sel.standings(ev)
    return render(
        request,
        "public/event.html",
        _base(
            ev,
            ruleset=ruleset_words(ev.event),
            standings=view,
            rounds=[r for _n, r in sorted(ev.rounds.items()) if r.status != Round.Status.PENDING],
            entries=sorted(ev.entries.values(), key=lambda e: e.number),
            all_rounds=range(1, ev.event.rounds_count + 1),
            # The three file formats of every export (docs/exports.md), by the view serving each.
            export_views=[
                (_("Excel"), "public:export_xlsx"),
                (_("CSV for a spreadsheet"), "public:export_sheet_csv"),
                (_("CSV for programs"), "public:export_csv"),
            ],
            # Once the seed is public: the check page's commands, for any board N.
            seed_commands=check_commands(ev.event.public_seed, "N", ev.event.total_boards)[:2]
            if ev.event.public_seed
            else [],
        ),
    )


def _int_param(request: HttpRequest, name: str) -> int | None:
    value = request.GET.get(name)
    if value in (None, ""):
        return None
    try:
        return int(value)
    except ValueError:
        return -1


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    ev = public_event(request, pk)
    if ev.event.is_team_event:  # a team event's pages rank teams
        return redirect("public:team_standings", pk)
    after = _int_param(request, "after")
    if after == -1:
        return refused(request, ev, _("The round must be a number."), 400)
    fragment = bool(request.GET.get("fragment"))

    def page(**shared: str) -> HttpResponse:
        view = sel.standings(ev, after_round=after)
        latest = not view.after_rounds or view.after_round == view.after_rounds[-1]
        context = _base(ev, view=view, latest=latest, refresh_ms=STANDINGS_REFRESH_SECONDS * 1000)
        template = "public/_standings_fragment.html" if fragment else "public/standings.html"
        return render(request, template, context | shared)

    if not _same_for_everyone(request, ev, "after", "fragment"):
        return page()
    version = sel.public_version(
        ev, sel.standings_state(ev), sel.standings_time(ev), request.get_full_path()
    )
    return live_response(
        request,
        version,
        lambda: page(csrf_token=CSRF_SLOT),
        shared=f"standings:{pk}",
        csrf=True,
    )


def _same_for_everyone(request: HttpRequest, ev: sel.EventView, *params: str) -> bool:
    """Is this page the one every anonymous viewer gets (so one rendering serves them all)?
    Not for a signed-in viewer (their name is in the header) nor with a message to show, nor
    with query parameters the page does not read (each would be a rendering of its own)."""
    return (
        not ev.staff
        and not request.user.is_authenticated
        and not len(messages.get_messages(request))
        and set(request.GET) <= set(params)
    )


def groups(request: HttpRequest, pk: int) -> HttpResponse:
    """Groups and knockout: the group tables, the repesca list and the bracket."""
    ev = public_event(request, pk)
    view = stage_pages.stage(ev)
    if view is None:
        return refused(request, ev, stage_pages.no_stage_message(ev.event), 404)
    return render(request, "public/groups.html", _base(ev, stage=view))


def round_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    ev = public_event(request, pk)
    if ev.event.is_team_event:  # a team event's pages rank teams
        return redirect("public:team_rounds", pk)
    view = sel.round_results(ev, number)
    if view is None:
        return refused(request, ev, _("Round %(n)s has not been played.") % {"n": number}, 404)
    return render(
        request,
        "public/round.html",
        _base(
            ev,
            view=view,
            rounds=[r for _n, r in sorted(ev.rounds.items()) if r.status != Round.Status.PENDING],
        ),
    )


def crosstable(request: HttpRequest, pk: int) -> HttpResponse:
    ev = public_event(request, pk)
    if ev.event.is_team_event:  # a team event's pages rank teams
        return redirect("public:team_standings", pk)
    view = sel.crosstable(ev)
    live = bool(view.scored_round) and not ev.round_closed(view.scored_round)
    grid = sel.round_robin_grid(ev, view)
    return render(request, "public/crosstable.html", _base(ev, view=view, live=live, grid=grid))


def pairings(request: HttpRequest, pk: int) -> HttpResponse:
    ev = public_event(request, pk)
    if ev.event.is_team_event:  # a team event's pages rank teams
        return redirect("public:team_rounds", pk)
    number = _int_param(request, "round")
    if number == -1:
        return refused(request, ev, _("The round must be a number."), 400)
    choices = sel.pairings_rounds(ev)
    if number is None:
        number = choices[-1] if choices else None
    view = sel.pairings_list(ev, number) if number is not None else None
    if number is not None and view is None:
        return refused(
            request, ev, _("The pairings of round %(n)s are not public yet.") % {"n": number}, 404
        )
    return render(request, "public/pairings.html", _base(ev, view=view, round_choices=choices))


def traveller(request: HttpRequest, pk: int, board: int) -> HttpResponse:
    ev = public_event(request, pk)
    number = ev.round_of_board(board)
    if board < 1 or number > ev.event.rounds_count:
        return refused(request, ev, _("There is no board %(n)s.") % {"n": board}, 404)
    if not ev.board_visible(board):
        return refused(
            request,
            ev,
            _("The results of board %(b)s are shown once round %(r)s is closed.")
            % {"b": board, "r": number},
            403,
        )
    trav = sel.board_traveller(ev, board)
    if trav is None:
        return refused(request, ev, _("There is no board %(n)s.") % {"n": board}, 404)
    actor = Actor(user=request.user)
    show_hands = policy.can_see_cards(actor, trav.board)
    may_see = policy.can_see_analysis(actor, trav.board)
    analysis = analysis_selectors.board_analysis(trav.board) if may_see else None
    boards = list(trav.round.board_numbers)
    return render(
        request,
        "public/traveller.html",
        _base(
            ev,
            **pdf.traveller_context(ev, trav, analysis=analysis),
            show_hands=show_hands,
            previous=board - 1 if board - 1 in boards else None,
            next=board + 1 if board + 1 in boards else None,
        ),
    )


def scorecard(request: HttpRequest, pk: int, entry_number: int) -> HttpResponse:
    ev = public_event(request, pk)
    if ev.event.is_team_event:  # a team event's pages rank teams
        return redirect("public:butler", pk)
    entry = ev.by_number.get(entry_number)
    if entry is None:
        return refused(request, ev, _("There is no pair number %(n)s.") % {"n": entry_number}, 404)
    card = sel.scorecards(ev, [entry])[0]
    return render(request, "public/scorecard.html", _base(ev, **pdf.scorecard_context(card)))


def hand_records(request: HttpRequest, pk: int) -> HttpResponse:
    ev = public_event(request, pk)
    try:
        number = pdf.parse_round(request.GET.get("round"))
        numbers = pdf.hand_record_rounds(ev, number)
    except pdf.PdfRefused as exc:
        return refused(request, ev, exc.message, exc.status)
    boards = sel.boards_of_rounds(ev, numbers)
    choices = (
        range(1, ev.event.rounds_count + 1) if ev.staff else [r.number for r in ev.closed_rounds]
    )
    return render(
        request,
        "public/hand_records.html",
        _base(
            ev,
            pages=pdf.groups(boards, pdf.BOARDS_PER_PAGE),
            round_number=number,
            round_choices=choices,
            boards=boards,
        ),
    )


def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    ev = public_event(request, pk)
    if not ev.codes:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("Table cards, with their codes, are for the event's organisers."))
    rnd = ev.rounds.get(number)
    if rnd is None:
        return refused(request, ev, _("Round %(n)s has no tables yet.") % {"n": number}, 404)
    base = site.site_url(request)
    cards = [pdf.table_card_context(rnd, t, base=base) for t in sel.round_tables(rnd)]
    return render(
        request,
        "public/table_cards.html",
        _base(ev, round=rnd, pages=pdf.groups(cards, pdf.CARDS_PER_PAGE)),
    )


def _shell(text: str) -> str:
    return shlex.quote(text)


def check_commands(seed: str, board: int | str, total: int) -> list[str]:
    """The ``botifarra`` commands that do what the check page does (engine/cli.py)."""
    # "--seed=…": a seed that starts with "-" is not taken for an option.
    quoted = _shell(seed)
    return [
        f"botifarra commit --seed={quoted}",
        f"botifarra deal --seed={quoted} --board {board}",
        f"botifarra deal --seed={quoted} --boards 1-{total}",
    ]


def check_boards(request: HttpRequest, pk: int) -> HttpResponse:
    """Anyone pastes a seed: does it match the event's commitment, and which boards does it
    deal? The page shows the hands of the pasted seed only (the user's own); the event's seed
    is offered here once the event is finished, never before."""
    ev = public_event(request, pk)
    event = ev.event
    total = event.total_boards
    posted = request.POST if request.method == "POST" and "seed" in request.POST else None
    form = CheckBoardsForm(
        posted, boards=total, initial={"seed": event.public_seed or "", "board": 1}
    )
    context = _base(
        ev,
        form=form,
        total=total,
        placeholder_commands=check_commands("SEED", 1, total),
    )
    if posted is None:
        return render(request, "public/check_boards.html", context)
    if not form.is_valid():
        return render(request, "public/check_boards.html", context, status=400)
    seed, number = form.cleaned_data["seed"], form.cleaned_data["board"]
    matches = play.seed_matches(event, seed)
    # A copy often brings a space at either end: when the seed matches only without them, it is
    # that seed the page checks, and it says so. Otherwise the seed is dealt exactly as pasted.
    trimmed = not matches and seed.strip() != seed and play.seed_matches(event, seed.strip())
    if trimmed:
        seed, matches = seed.strip(), True
    board = play.dealt_from(seed, number)
    played = None
    if matches:
        stored = event.boards.filter(number=number).first()
        played = stored is not None and (stored.dealer, stored.hands) == (board.dealer, board.hands)
    return render(
        request,
        "public/check_boards.html",
        context
        | {
            "checked": True,
            "seed": seed,
            "number": number,
            "board": board,
            "matches": matches,
            "trimmed": trimmed,
            "seed_commitment": play.seed_commitment(seed),
            "played": played,
            "commands": check_commands(seed, number, total),
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if number < total else None,
        },
    )


def screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The room's screen (a projector or a TV): large type, rotating between "find your table",
    the standings of closed rounds and a QR code to the public pages; refreshes itself.

    Whoever opens it, it shows what the room may see: an organiser's laptop on the projector
    must not show the open round's live scores."""
    ev = public_event(request, pk)
    ev = sel.event_view(ev.event, staff=False)
    if request.GET.get("fragment"):
        return live_response(
            request,
            sel.screen_version(ev),
            lambda: render(request, "public/_screen_slides.html", _screen_context(request, ev)),
        )
    return render(request, "public/screen.html", _screen_context(request, ev))


SCREEN_ROTATE_SECONDS = (2, 12, 120)  # the least, the default, the most


def _rotate_seconds(request: HttpRequest) -> int:
    """``?every=N``: seconds per slide, within bounds (a wrong value gives the default)."""
    least, default, most = SCREEN_ROTATE_SECONDS
    try:
        value = int(request.GET.get("every", default))
    except ValueError:
        return default
    return min(most, max(least, value))


def _screen_context(request: HttpRequest, ev: sel.EventView) -> dict[str, Any]:
    rnd, seats = sel.find_your_table(ev)
    rotate = _rotate_seconds(request)
    view = sel.standings(ev)
    rows = view.rows
    public_url = site.site_url(request) + reverse("public:event", args=[ev.event.pk])
    return _base(
        ev,
        round=rnd,
        clock=round_clock(rnd) if rnd else None,
        # Every row in one table of its kind: screen.js splits it into as many slides as the
        # screen's height needs.
        seats=seats,
        standing_rows=rows,
        view=view,
        public_url=public_url,
        rotate_s=rotate,
        rotate_ms=rotate * 1000,
        # Fresh data at least every 20 s, and before a slide comes round twice.
        refresh_ms=min(20, 2 * rotate) * 1000,
        qr=pdf.qr_svg(
            public_url, title=_("QR code of the results page %(url)s") % {"url": public_url}
        ),
    )
