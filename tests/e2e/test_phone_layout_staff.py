"""The organiser's and the referee's pages on a 360 px phone.

tests/e2e/test_phone_layout.py checks every table page and every public page; this one the
organiser's pages (dashboard, round page, console, pairs page, result correction, roles) and the
referee's desk, which an organiser and a referee run the evening from as often as not (issue
#15). A table may scroll sideways inside its own ``.table-wrap``; the page itself never does
(same measure as test_phone_layout.SIDEWAYS, in Catalan and Spanish). A visually hidden column
title (``position:absolute``) in a wrap that was not positioned once widened the pairs page,
the roles page, the league's page and the referee's queue to 413–518 px.
"""

from __future__ import annotations

import pytest

from tests.e2e.journey import log_in
from tests.e2e.test_phone_layout import SIDEWAYS, WIDTH, phone_context
from tournaments.demo import PASSWORD, build_demo
from tournaments.models import BoardResult, Dispute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _more(report):
    """The other organiser pages of the demo's events (they fit, but for the league's)."""
    from tournaments.models import TeamMatch

    event, evening = report.event, report.evening
    out = [
        ("pairing", f"/manage/{event.pk}/pairing/"),
        ("registrations", f"/manage/{report.open_event.pk}/registrations/"),
        ("webhooks", f"/manage/{event.pk}/webhooks/"),
        ("evening-pairing-2", f"/manage/{evening.pk}/rounds/2/pairing/"),
        ("close-2", f"/manage/{event.pk}/rounds/2/close/"),
        ("finish", f"/manage/{event.pk}/finish/"),
        ("new", "/manage/new/"),
        ("open-event", f"/manage/{report.open_event.pk}/"),
        ("open-pairs", f"/manage/{report.open_event.pk}/pairs/"),
    ]
    if report.teams is not None:
        m = TeamMatch.objects.filter(round__event=report.teams).order_by("round__number").first()
        out += [
            ("teams", f"/manage/{report.teams.pk}/teams/"),
            ("team-dashboard", f"/manage/{report.teams.pk}/"),
            (
                "lineup",
                f"/manage/{report.teams.pk}/rounds/{m.round.number}/matches/{m.number}/lineup/",
            ),
            ("team-round-1", f"/manage/{report.teams.pk}/rounds/1/"),
        ]
    if report.league is not None:
        out += [("league-manage", f"/leagues/{report.league.pk}/manage/")]
    if report.season is not None:
        out += [("club", f"/clubs/{report.season.club_id}/")]
    for name, ev in report.presets.items():
        out += [(f"preset-{name}", f"/manage/{ev.pk}/")]
    if report.groups is not None:
        out += [
            ("groups-dashboard", f"/manage/{report.groups.pk}/"),
            ("groups-round-1", f"/manage/{report.groups.pk}/rounds/1/"),
        ]
    return out


def _staff_pages(report):
    event, evening = report.event, report.evening
    result = BoardResult.objects.filter(table__round__event=event).order_by("pk").first()
    dispute = Dispute.objects.filter(result__table__round__event=event).order_by("pk").first()
    organiser = [
        ("events", "/manage/"),
        ("dashboard", f"/manage/{event.pk}/"),
        ("edit", f"/manage/{event.pk}/edit/"),
        ("pairs", f"/manage/{event.pk}/pairs/"),
        ("round-1", f"/manage/{event.pk}/rounds/1/"),
        ("round-2", f"/manage/{event.pk}/rounds/2/"),
        ("console-2", f"/manage/{event.pk}/rounds/2/console/"),
        ("evening-round-2", f"/manage/{evening.pk}/rounds/2/"),
        ("correct", f"/manage/{event.pk}/results/{result.pk}/correct/"),
        ("roles", f"/manage/{event.pk}/roles/"),
    ] + _more(report)
    referee = [("queue", f"/referee/event/{event.pk}/")]
    if dispute is not None:
        referee.append(("dispute", f"/referee/dispute/{dispute.pk}/"))
    return organiser, referee


def test_the_organiser_and_referee_pages_never_scroll_sideways_on_a_360_px_phone(
    browser, live_server, settings, compiled_locale
):
    settings.LOCALE_PATHS = [compiled_locale]  # the words a Catalan or Spanish reader sees
    report = build_demo()
    organiser, referee = _staff_pages(report)
    problems: dict[str, list[str]] = {}
    for lang in ("ca", "es"):
        for user, pages in (("organiser", organiser), ("referee", referee)):
            context = phone_context(browser, live_server, lang)
            page = context.new_page()
            log_in(page, user, PASSWORD)
            for name, url in pages:
                response = page.goto(url)
                page.wait_for_load_state()
                if response.status != 200:
                    problems[f"{lang} {user} {name} {url}"] = [f"status {response.status}"]
                    continue
                # Only the page itself: a table may scroll inside its .table-wrap (organiser.css).
                found = [x for x in page.evaluate(SIDEWAYS) if x.startswith("page ")]
                if found == [f"page {WIDTH + 1} > {WIDTH}"]:
                    found = []  # a sub-pixel rounding
                if found:
                    problems[f"{lang} {user} {name} {url}"] = found
            context.close()
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())


CULPRIT = """() => {
  const root = document.scrollingElement; const out = [];
  let node = document.body;
  for (let depth = 0; depth < 14; depth++) {
    let culprit = null;
    for (const child of node.children) {
      const before = root.scrollWidth; const d = child.style.display; child.style.display = "none";
      const after = root.scrollWidth; child.style.display = d;
      if (after < before) { culprit = child; break; }
    }
    if (!culprit) break;
    out.push(culprit.tagName + "." + culprit.className); node = culprit;
  }
  return out.join(" > ") + " :: " + (node.textContent || "").trim().slice(0, 80);
}"""


def test_the_public_pairings_list_fits_a_360_px_phone_in_english(browser, live_server):
    """test_phone_layout checks the public pages in ca and es; the site has a third language,
    whose column titles once made the pairings list wider than the phone (the score column now
    gives way to the score group's heading)."""
    report = build_demo()
    context = phone_context(browser, live_server, "en")
    page = context.new_page()
    page.goto(f"/e/{report.event.pk}/pairings/?round=2")
    page.wait_for_load_state()
    found = [x for x in page.evaluate(SIDEWAYS) if x.startswith("page ")]
    culprit = page.evaluate(CULPRIT) if found else ""
    context.close()
    assert found == [], culprit
