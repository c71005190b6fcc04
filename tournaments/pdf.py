"""PDFs of the printed pages: WeasyPrint renders the same templates as the browser's print.

``pdf_parts`` decides what a PDF holds (and refuses what the viewer may not see); ``render_pdf``
lays the parts out (one WeasyPrint document per part, so a long job can report progress) and
joins their pages into one file. The CSS is the site's own screen + print + public styles, read
from disk: nothing is fetched over the network while rendering.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import charts, labels, site, stage_pages
from tournaments import public_selectors as sel
from tournaments import team_selectors as ts
from tournaments.analysis_selectors import against_par, attach_analyses
from tournaments.models import Round
from tournaments.qr import qr_svg

# WeasyPrint reports every layout step and every CSS rule it skips (screen-only media queries).
logging.getLogger("weasyprint").setLevel(logging.ERROR)
logging.getLogger("fontTools").setLevel(logging.ERROR)

KINDS = (
    "standings",
    "crosstable",
    "round-robin",
    "pairings",
    "hand-records",
    "travellers",
    "scorecards",
    "table-cards",
    "groups",
    "teams",
    "butler",
    "team-matches",
)
# Above these sizes a PDF is built by a Celery task with progress; smaller ones stream directly.
LARGE_PAIRS = 60
LARGE_BOARDS = 40
BOARDS_PER_PAGE = 4
CARDS_PER_PAGE = 2
CHUNK = {
    "hand-records": 8,
    "travellers": 6,
    "scorecards": 8,
    "table-cards": 8,
    "standings": 1,
    "groups": 1,
}
CSS_FILES = ("css/site.css", "css/print.css", "css/public.css")


class PdfRefused(Exception):
    """The request names something that does not exist or that the viewer may not see."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class PdfPlan:
    kind: str
    round: int | None
    template: str
    title: str
    filename: str
    common: dict[str, Any]
    parts: list[dict[str, Any]]  # one template context per part; pages are joined in order
    pairs: int = 0
    boards: int = 0
    items: list[Any] = field(default_factory=list)

    @property
    def large(self) -> bool:
        return self.pairs > LARGE_PAIRS or self.boards > LARGE_BOARDS


@cache
def _css_text(path: str) -> str:
    for folder in settings.STATICFILES_DIRS:
        candidate = Path(folder) / path
        if candidate.exists():
            return candidate.read_text(encoding="utf-8")
    return ""


def print_css() -> str:
    if settings.DEBUG:
        _css_text.cache_clear()
    return "\n".join(_css_text(p) for p in CSS_FILES)


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def groups(items: list[Any], size: int) -> list[list[Any]]:
    """Items by printed page: 4 boards or 2 table cards to an A4 sheet."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def parse_round(value: str | None) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PdfRefused(_("The round must be a number."), status=400) from None
    if number < 1:
        raise PdfRefused(_("Rounds are numbered from 1."), status=400)
    return number


def hand_record_rounds(ev: sel.EventView, number: int | None) -> list[int]:
    """Organisers and referees print any round's boards (before play, to make the physical
    boards); everyone else only the boards of closed rounds."""
    if number is None:
        return [r.number for r in ev.closed_rounds]
    if ev.staff:
        if number > ev.event.rounds_count:
            raise PdfRefused(
                ngettext(
                    "This event has %(n)s round.",
                    "This event has %(n)s rounds.",
                    ev.event.rounds_count,
                )
                % {"n": ev.event.rounds_count}
            )
        return [number]
    if not ev.round_closed(number):
        raise PdfRefused(
            _("The boards of round %(n)s are shown once the round is closed.") % {"n": number},
            status=403,
        )
    return [number]


def visible_round(ev: sel.EventView, number: int) -> Round:
    rnd = ev.rounds.get(number)
    if rnd is None or rnd.status == Round.Status.PENDING:
        raise PdfRefused(_("Round %(n)s has not been played.") % {"n": number})
    if not ev.round_visible(number):
        raise PdfRefused(
            _("The boards of round %(n)s are shown once the round is closed.") % {"n": number},
            status=403,
        )
    return rnd


def traveller_context(
    ev: sel.EventView, trav: sel.TravellerView, *, analysis: Any = None
) -> dict[str, Any]:
    """``analysis``: the board's perfect-play analysis where it is shown (its lines then get
    their ``vs_par``)."""
    bars = [  # an adjusted score was not played: it is not in the comparison, nor drawn
        charts.Bar(table=line.table.number, net_ns=line.net_ns, trump=line.result.trump)
        for line in trav.lines
        if not line.adjusted
    ]
    return {
        "trav": trav,
        "chart": mark_safe(charts.traveller_chart(trav.board.number, bars)),  # noqa: S308
        "analysis": against_par(trav, analysis),
    }


def scorecard_context(card: sel.Scorecard) -> dict[str, Any]:
    return {
        "card": card,
        "chart": mark_safe(charts.rank_chart(card.entry.pair.name, card.history, card.pairs)),
    }  # noqa: S308


def table_qr(url: str) -> str:
    return qr_svg(url, title=_("QR code of the table page %(url)s") % {"url": url})


def table_card_context(rnd: Round, table: Any, *, base: str) -> dict[str, Any]:
    """A table card: one half for each side, with that side's own code (cut along the line).

    ``base`` is the site's address (tournaments/site.py) the QR codes point at."""
    halves = []
    for side, entry, direction in (
        ("NS", table.ns, labels.side_name("NS")),
        ("EW", table.ew, labels.side_name("EW")),
    ):
        code = table.code_for(side)
        url = site.table_url(base, code)
        halves.append(
            {
                "side": side,
                "entry": entry,
                "direction": direction,
                "code": code,
                "url": url,
                "qr": mark_safe(table_qr(url)),  # noqa: S308 - segno's own SVG
            }
        )
    return {"table": table, "round": rnd, "halves": halves, "commitment": rnd.event.commitment}


def parse_per_page(value: str | None) -> int:
    """Scorecards to an A4 page: 1 (the default) or 2."""
    if value in (None, ""):
        return 1
    if value not in ("1", "2"):
        raise PdfRefused(_("Scorecards print 1 or 2 to a page."), status=400)
    return int(value)


def pdf_plan(
    ev: sel.EventView, kind: str, number: int | None, *, base: str, per_page: int = 1
) -> PdfPlan:
    """What the PDF holds; raises PdfRefused for a bad kind or round or what may not be seen.

    ``base`` is the site's address, printed on table cards; ``per_page`` the scorecards to a
    page (2: half a page each, a smaller rank chart)."""
    event = ev.event
    slug = f"event-{event.pk}"
    common: dict[str, Any] = {"event": event, "ev": ev}
    pairs = len(ev.entries)
    if kind in ("teams", "butler", "team-matches"):
        return _team_plan(ev, kind, number, slug=slug, common=common, pairs=pairs)
    if ev.event.is_team_event and kind not in ("hand-records", "table-cards"):
        raise PdfRefused(
            _("A team event prints its team standings, its matches and the Butler ranking.")
        )
    if kind == "standings":
        view = sel.standings(ev, after_round=number)
        if number is not None and view.after_round != number:
            raise PdfRefused(_("There are no standings after round %(n)s yet.") % {"n": number})
        title = (
            _("Standings after round %(n)s") % {"n": view.after_round}
            if view.after_round
            else _("Standings")
        )
        return PdfPlan(
            kind=kind,
            round=view.after_round,
            template="print/standings.html",
            title=title,
            filename=f"{slug}-standings.pdf",
            common=common | {"view": view},
            parts=[{}],
            pairs=pairs,
        )
    if kind == "crosstable":
        return PdfPlan(
            kind=kind,
            round=None,
            template="print/crosstable.html",
            title=_("Crosstable"),
            filename=f"{slug}-crosstable.pdf",
            common=common | {"view": sel.crosstable(ev)},
            parts=[{}],
            pairs=pairs,
        )
    if kind == "round-robin":
        grid = sel.round_robin_grid(ev)
        if grid is None:
            raise PdfRefused(_("This event is not a round robin."))
        return PdfPlan(
            kind=kind,
            round=None,
            template="print/round_robin.html",
            title=_("Round robin table"),
            filename=f"{slug}-round-robin.pdf",
            common=common | {"grid": grid},
            parts=[{}],
            pairs=pairs,
        )
    if kind == "pairings":
        choices = sel.pairings_rounds(ev)
        if number is None:
            number = choices[-1] if choices else None
        view = sel.pairings_list(ev, number) if number is not None else None
        if view is None:
            raise PdfRefused(_("There are no pairings to print yet."))
        return PdfPlan(
            kind=kind,
            round=number,
            template="print/pairings.html",
            title=_("Pairings"),
            filename=f"{slug}-pairings-round-{number}.pdf",
            common=common | {"view": view},
            parts=[{}],
            pairs=pairs,
        )
    if kind == "hand-records":
        numbers = hand_record_rounds(ev, number)
        boards = sel.boards_of_rounds(ev, numbers)
        if not boards:
            raise PdfRefused(_("There are no boards to print yet."))
        parts: list[dict[str, Any]] = [
            {"pages": groups(some, BOARDS_PER_PAGE)} for some in _chunks(boards, CHUNK[kind])
        ]
        suffix = f"-round-{number}" if number else ""
        return PdfPlan(
            kind=kind,
            round=number,
            template="print/hand_records.html",
            title=_("Hand records"),
            filename=f"{slug}-hand-records{suffix}.pdf",
            common=common,
            parts=parts,
            boards=len(boards),
        )
    if kind == "travellers":
        rounds = [visible_round(ev, number)] if number else ev.visible_rounds
        travs = [t for rnd in rounds for t in sel.round_travellers(ev, rnd)]
        if not travs:
            raise PdfRefused(_("There are no travellers to print yet."))
        # The PDF shows every board's hands (these rounds' boards may be seen: visible_round),
        # and so their analysis, under the same rule (policy.can_see_analysis).
        attach_analyses(ev.event, [t.board for t in travs])
        parts = [
            {"travellers": [traveller_context(ev, t, analysis=t.board.perfect_play) for t in few]}
            for few in _chunks(travs, CHUNK[kind])
        ]
        suffix = f"-round-{number}" if number else ""
        return PdfPlan(
            kind=kind,
            round=number,
            template="print/travellers.html",
            title=_("Travellers"),
            filename=f"{slug}-travellers{suffix}.pdf",
            common=common,
            parts=parts,
            pairs=pairs,
            boards=len(travs),
        )
    if kind == "scorecards":
        if number is not None:
            visible_round(ev, number)
        entries = sorted(ev.entries.values(), key=lambda e: e.number)
        cards = sel.scorecards(ev, entries, round_number=number)
        parts = [
            {"pages": groups([scorecard_context(c) for c in pairs_chunk], per_page)}
            for pairs_chunk in _chunks(cards, CHUNK[kind])
        ]
        board_count = len({line.board for c in cards for line in c.lines})
        suffix = (f"-round-{number}" if number else "") + ("-2-per-page" if per_page == 2 else "")
        return PdfPlan(
            kind=kind,
            round=number,
            template="print/scorecards.html",
            title=_("Scorecards"),
            common=common | {"per_page": per_page},
            filename=f"{slug}-scorecards{suffix}.pdf",
            parts=parts,
            pairs=pairs,
            boards=board_count,
        )
    if kind == "table-cards":
        if not ev.codes:
            raise PdfRefused(
                _("Table cards, with their codes, are for the event's organisers."), status=403
            )
        if number is None:
            raise PdfRefused(_("Choose a round: ?round=N."), status=400)
        rnd = ev.rounds.get(number)
        if rnd is None:
            raise PdfRefused(_("Round %(n)s has no tables yet.") % {"n": number})
        table_cards = [table_card_context(rnd, t, base=base) for t in sel.round_tables(rnd)]
        if not table_cards:
            raise PdfRefused(_("Round %(n)s has no tables yet.") % {"n": number})
        parts = [
            {"pages": groups(few_cards, CARDS_PER_PAGE)}
            for few_cards in _chunks(table_cards, CHUNK[kind])
        ]
        return PdfPlan(
            kind=kind,
            round=number,
            template="print/table_cards.html",
            title=_("Table cards"),
            filename=f"{slug}-table-cards-round-{number}.pdf",
            common=common,
            parts=parts,
            pairs=pairs,
        )
    if kind == "groups":
        stage = stage_pages.stage(ev)
        if stage is None:
            raise PdfRefused(stage_pages.no_stage_message(ev.event))
        return PdfPlan(
            kind=kind,
            round=stage.after_round,
            template="print/groups.html",
            title=_("Groups and knockout"),
            filename=f"{slug}-groups.pdf",
            common=common | {"stage": stage},
            parts=[{}],
            pairs=pairs,
        )
    raise PdfRefused(_("Unknown PDF: %(kind)s.") % {"kind": kind})


def _team_plan(
    ev: sel.EventView,
    kind: str,
    number: int | None,
    *,
    slug: str,
    common: dict[str, Any],
    pairs: int,
) -> PdfPlan:
    """A team event's PDFs: its standings, the Butler ranking, a round's match scorecards
    (``pairs``: the event's, which decide with the boards whether it is built in the
    background)."""
    if not ev.event.is_team_event:
        raise PdfRefused(_("This is not a team event."))
    if kind == "team-matches":
        rounds = [n for n in ts.played_rounds(ev) if ev.round_visible(n)]
        if number is None:
            number = rounds[-1] if rounds else None
        if number is None or number not in rounds:
            raise PdfRefused(_("There are no matches to print yet."))
        matches = ts.match_queryset().filter(round__event=ev.event, round__number=number)
        views = [ts.match_view(m) for m in matches.order_by("number")]
        return PdfPlan(
            kind=kind,
            round=number,
            template="print/team_matches.html",
            title=_("Match scorecards"),
            filename=f"{slug}-matches-round-{number}.pdf",
            common=common | {"matches": views},
            parts=[{}],
            pairs=pairs,
            boards=sum(len(v.boards) for v in views),  # a line each, both rooms' results
        )
    view = ts.team_standings(ev, after_round=number)
    if number is not None and view.after_round != number:
        raise PdfRefused(_("There are no standings after round %(n)s yet.") % {"n": number})
    butler = kind == "butler"
    return PdfPlan(
        kind=kind,
        round=view.after_round,
        template="print/butler.html" if butler else "print/teams.html",
        title=_("Butler ranking") if butler else _("Team standings"),
        filename=f"{slug}-{kind}.pdf",
        common=common | {"view": view},
        parts=[{}],
        pairs=pairs,
    )


def part_html(plan: PdfPlan, part: dict[str, Any]) -> str:
    context = (
        plan.common
        | part
        | {
            "print_css": mark_safe(print_css()),
            "pdf": True,  # noqa: S308
            "title": plan.title,
            "round_number": plan.round
            if plan.kind not in ("standings", "groups", "teams", "butler")
            else None,
        }
    )
    return render_to_string(plan.template, context)


def _fetcher() -> Any:
    """No network and no files while rendering: only inline ``data:`` URLs."""
    from weasyprint import URLFetcher

    return URLFetcher(allowed_protocols=["data"])


def render_pdf(plan: PdfPlan, progress: Callable[[int, int], None] | None = None) -> bytes:
    from weasyprint import HTML

    documents = []
    total = len(plan.parts)
    for i, part in enumerate(plan.parts):
        html = HTML(
            string=part_html(plan, part), base_url=str(settings.BASE_DIR), url_fetcher=_fetcher()
        )
        documents.append(html.render())
        if progress is not None:
            progress(i + 1, total)
    pages = [page for doc in documents for page in doc.pages]
    return bytes(documents[0].copy(pages).write_pdf())


def season_pdf(view: Any) -> bytes:
    """A club season's ranking (``club_selectors.SeasonView``) as an A4 landscape PDF."""
    from weasyprint import HTML

    html = render_to_string(
        "print/season.html",
        {
            "view": view,
            "club": view.season.club,
            "event": view.season.club,  # the running head: the club · the season
            "title": view.season.name,
            "print_css": mark_safe(print_css()),  # noqa: S308 - our own CSS files
            "pdf": True,
        },
    )
    document = HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=_fetcher())
    return bytes(document.write_pdf())
