"""Every table page and every public page of the demo on a 360 × 740 phone: no sideways
scrolling, neither of the page (``document.scrollingElement.scrollWidth <= clientWidth`` of the
root: with ``is_mobile`` the browser widens ``innerWidth`` to the content, so that comparison could
never fail) nor of a box inside it (a table that scrolls sideways in its own frame); nothing a player taps is hidden
under a sticky bar; the header leaves the page its room. A screenshot of each page is kept in
``test-artifacts/screenshots/phone-360/`` (git-ignored; the test prints the folder).

The card-by-card page also has its legal cards on the screen as it opens and after each tap,
above the sticky Undo / Submit bar, without scrolling.

Left out: the room's screen (a projector, not a phone), the table cards and the PDFs (print).
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.journey import log_in
from tests.tournaments.test_print_fit import played_field
from tournaments.actors import Actor
from tournaments.demo import PASSWORD as DEMO_PASSWORD
from tournaments.demo import build_demo
from tournaments.demo import table_codes as open_tables
from tournaments.models import (
    BoardResult,
    Event,
    Pair,
    Player,
    PlayerRating,
    Team,
    TeamMatch,
)
from tournaments.services import disputes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740
HEADER_MAX = 110  # px of the 740: the header once took 200 of 844


# Every box wider than its frame that scrolls sideways, and the page itself.
def phone_context(browser, live_server, lang: str, **options):
    """A browser context of a 360 px phone reading ``lang``."""
    return browser.new_context(
        base_url=live_server.url,
        locale=lang,
        viewport={"width": WIDTH, "height": HEIGHT},
        is_mobile=True,
        has_touch=True,
        extra_http_headers={"Accept-Language": lang},
        **options,
    )


SIDEWAYS = """() => {
  const out = [];
  const root = document.scrollingElement;
  const screen = document.documentElement.clientWidth;
  if (root.scrollWidth > screen) {
    out.push("page " + root.scrollWidth + " > " + screen);
  }
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (!["auto", "scroll"].includes(style.overflowX)) continue;
    // By design in a frame of their own: a round robin's grid, a knockout's bracket.
    if (el.classList.contains("grid-frame") || el.classList.contains("bracket-figure")) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      out.push((el.className || el.tagName) + ":" + ((el.querySelector("table")||{}).className||"") + " " + el.scrollWidth + " > " + el.clientWidth);
    }
  }
  return out;
}"""

# Each control, brought to the middle of the screen as far as the page scrolls, must be the
# element found at its centre: otherwise a sticky or fixed bar lies on it.
COVERED = """() => {
  const bars = [...document.querySelectorAll("body *")].filter(el => {
    const p = getComputedStyle(el).position;
    return p === "sticky" || p === "fixed";
  });
  const controls = [...document.querySelectorAll("main a, main button, main input, main select, main summary, main textarea")]
    .filter(el => el.offsetParent !== null && !bars.some(b => b.contains(el))).slice(0, 60);
  const out = [];
  for (const el of controls) {
    el.scrollIntoView({block: "center", inline: "nearest"});
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const x = Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), window.innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    if (hit && !el.contains(hit) && !hit.contains(el) && bars.some(b => b.contains(hit))) {
      out.push((el.outerHTML || "").slice(0, 80));
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


# The legal cards, as the page stands (not scrolled): each fully on the screen and above the
# sticky bar. Empty when all are in view.
LEGAL_OUT_OF_VIEW = """() => {
  const buttons = [...document.querySelectorAll("#legal-cards button.play-card")];
  if (!buttons.length) return ["no legal cards offered"];
  const bar = document.querySelector(".play-actions");
  const limit = bar ? bar.getBoundingClientRect().top : window.innerHeight;
  return buttons.filter(b => {
    const r = b.getBoundingClientRect();
    return r.top < 0 || r.bottom > limit || r.right > window.innerWidth;
  }).map(b => "legal card out of view: " + b.dataset.card + " bottom " + b.getBoundingClientRect().bottom + " > " + limit);
}"""


def _play_page(tables) -> tuple[str, str, str]:
    """The card-by-card page of a board whose short result is in and whose hand is not."""
    for table in tables:
        found = (
            BoardResult.objects.filter(table=table, play_records__isnull=True)
            .select_related("board")
            .order_by("board__number")
            .first()
        )
        if found is not None:
            code = table.code_ns
            return ("board-play", f"/table/{code}/board/{found.board.number}/play/", code)
    raise AssertionError("the demo has no board to enter card by card")


def _pages(report) -> list[tuple[str, str, str | None]]:
    """(name, url, table code to enter first) of every page checked."""
    event, evening = report.event, report.evening
    public = [
        ("home", "/", None),
        ("event", f"/e/{event.pk}/", None),
        ("standings", f"/e/{event.pk}/standings/", None),
        ("standings-after-1", f"/e/{event.pk}/standings/?after=1", None),
        ("round-1", f"/e/{event.pk}/rounds/1/", None),
        ("traveller-1", f"/e/{event.pk}/boards/1/", None),
        ("scorecard-1", f"/e/{event.pk}/pairs/1/", None),
        ("hand-records", f"/e/{event.pk}/hand-records/", None),
        ("crosstable", f"/e/{event.pk}/crosstable/", None),
        ("pairings-2", f"/e/{event.pk}/pairings/?round=2", None),
        ("check-boards", f"/e/{event.pk}/check/", None),
        ("evening-standings", f"/e/{evening.pk}/standings/", None),
        ("evening-round-1", f"/e/{evening.pk}/rounds/1/", None),
        ("login", "/accounts/login/", None),
    ]
    if report.teams is not None:
        match = TeamMatch.objects.filter(round__event=report.teams).order_by("round", "number")[0]
        public += [
            ("team-standings", f"/e/{report.teams.pk}/teams/", None),
            ("team-matches", f"/e/{report.teams.pk}/teams/matches/", None),
            (
                "team-match",
                f"/e/{report.teams.pk}/teams/matches/{match.round.number}/{match.number}/",
                None,
            ),
        ]
    if report.groups is not None:
        public.append(("groups", f"/e/{report.groups.pk}/groups/", None))
    if report.round_robin is not None:
        public.append(("round-robin-grid", f"/e/{report.round_robin.pk}/crosstable/", None))
    if report.league is not None:
        public.append(("league", f"/leagues/{report.league.pk}/", None))
    if report.season is not None:  # the club's pages: its ratings, its season, a member
        club = report.season.club_id
        member = PlayerRating.objects.filter(club_id=club).order_by("-mu").first().player_id
        public += [
            ("club", f"/clubs/{club}/", None),
            ("season", f"/clubs/{club}/seasons/{report.season.pk}/", None),
            ("player", f"/players/{member}/", None),
            ("sign-up", f"/e/{report.open_event.pk}/register/", None),
        ]
    tables = open_tables(event)
    one, two, three = tables[0], tables[1], tables[2]
    first = min(event.rounds.get(number=2).board_numbers)
    last = max(event.rounds.get(number=2).board_numbers)
    table = [
        ("table-enter", "/table/", None),
        ("table-home", f"/table/{one.code_ns}/", one.code_ns),
        ("table-home-illegal", f"/table/{two.code_ew}/", two.code_ew),
        ("table-home-disputed", f"/table/{three.code_ns}/", three.code_ns),
        ("board-view", f"/table/{one.code_ns}/board/{first}/", one.code_ns),
        ("board-differ", f"/table/{one.code_ew}/board/{last}/?mode=differ", one.code_ew),
        ("board-referee", f"/table/{one.code_ns}/board/{first}/referee/", one.code_ns),
        ("board-not-found", f"/table/{one.code_ns}/board/999/", one.code_ns),
        ("pair-scorecard", f"/table/{one.code_ns}/scorecard/", one.code_ns),
        ("pair-standings", f"/table/{one.code_ns}/standings/", one.code_ns),
        ("pair-rulings", f"/table/{three.code_ns}/rulings/", three.code_ns),
        ("pair-rulings-ruled", f"/table/{one.code_ns}/rulings/", one.code_ns),
        _play_page(tables),
    ]
    return public + table


def test_every_table_and_public_page_fits_a_360_px_phone(browser, live_server, capsys):
    report = build_demo()
    # A call for the referee and rulings that quote a link: one long word wraps, it does not
    # widen the table's pages.
    link = "https://www.federaciocatalanadebotifarra.cat/reglament/article-12-apartat-3"
    one = open_tables(report.event)[0]
    result = BoardResult.objects.filter(table=one).order_by("board__number").first()
    asked = disputes.dispute_request(
        result=result, actor=Actor(table=one, side="NS"), reason=f"See {link}"
    )
    disputes.dispute_rule(
        dispute=asked,
        actor=Actor(user=report.event.organisers.first()),
        kind="penalty",
        explanation=f"R10: {link}",
        data={"offending_pair": "EW"},
    )
    folder = SCREENSHOTS / "phone-360"
    folder.mkdir(parents=True, exist_ok=True)
    with capsys.disabled():
        print(f"\nphone screenshots: {folder}")
    problems: dict[str, list[str]] = {}
    for lang in ("ca", "es"):
        context = phone_context(browser, live_server, lang, device_scale_factor=2)
        page = context.new_page()
        entered = set()
        for name, url, code in _pages(report):
            if code and code not in entered:
                page.goto("/table/")
                page.fill("input[name=code]", code)
                page.locator("main form button[type=submit]").first.click()
                page.wait_for_load_state()
                entered = {code}
            page.goto(url)
            page.wait_for_load_state()
            found = []
            if name == "board-play":
                page.evaluate("() => localStorage.clear()")
                page.reload()
                page.wait_for_selector('#play-app[data-count="0"]')
                found += page.evaluate(LEGAL_OUT_OF_VIEW)
                for k in range(1, 6):  # a trick and a card: each tap keeps them in view
                    page.locator("#legal-cards button.play-card").first.click()
                    page.wait_for_selector(f'#play-app[data-count="{k}"]')
                    found += [f"after {k}: {x}" for x in page.evaluate(LEGAL_OUT_OF_VIEW)]
            found += page.evaluate(SIDEWAYS) + [f"covered: {c}" for c in page.evaluate(COVERED)]
            header = page.evaluate(
                "() => { const h = document.querySelector('.site-header');"
                " return h ? h.getBoundingClientRect().height : 0; }"
            )
            if header > HEADER_MAX:
                found.append(f"header {header:.0f} px > {HEADER_MAX}")
            if found:
                problems[f"{lang} {name} {url}"] = found
            page.screenshot(path=str(folder / f"{lang}-{name}.png"), full_page=True)
        context.close()
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())


@pytest.mark.parametrize("lang", ["ca", "es", "en"])
def test_results_pages_with_long_names_fit_a_360_px_phone(browser, live_server, organiser, lang):
    """A traveller, a scorecard, a round's results and the crosstable of long real names, three
    rounds played, in each language: the long column titles ("Puntuació EO", "Puntos de
    enfrentamiento EO", "Punts en contra") take their short form and nothing sticks out."""
    event = played_field(organiser, 8, boards=2, rounds=3)
    context = phone_context(browser, live_server, lang)
    page = context.new_page()
    wide = {}
    for path in ("boards/1/", "pairs/1/", "rounds/1/", "crosstable/"):
        page.goto(f"/e/{event.pk}/{path}")
        found = page.evaluate(SIDEWAYS)
        if found:
            wide[path] = found
    context.close()
    assert wide == {}, wide


WORDS = ("Xavierfrancescjosepmariaboixaderasvilalta", "Montserratàngelsdomènechifàbregas")


def test_names_without_spaces_fit_a_360_px_phone(browser, live_server):
    """A pair, a team, an event and a venue whose names are single long words, well under the
    length limits: they wrap on the table pages, the entry form, the event's pages, the team's
    matches and the organiser's pages."""
    report = build_demo()
    event, teams = report.event, report.teams
    Event.objects.filter(pk__in=[event.pk, teams.pk]).update(
        name="CampionatdeCatalunyadeBotifarra", venue="CasalCatalàdeSantaColomadeGramenet"
    )
    one = open_tables(event)[0]
    pair = one.ns.pair
    Player.objects.filter(pk=pair.player1_id).update(name=WORDS[0])
    Player.objects.filter(pk=pair.player2_id).update(name=WORDS[1])
    Pair.objects.filter(pk=pair.pk).update(name=f"{WORDS[0]} – {WORDS[1]}")
    for i, team in enumerate(Team.objects.filter(event=teams).order_by("pk")):
        Team.objects.filter(pk=team.pk).update(
            name=f"CasalCatalàdeSantaColomadeGramenetBotifarraClub{i}"
        )
    match = TeamMatch.objects.filter(round__event=teams).order_by("round__number", "number")[0]
    last = max(event.rounds.get(number=2).board_numbers)
    wide = {}
    context = phone_context(browser, live_server, "ca")
    page = context.new_page()
    page.goto("/table/")
    page.fill("input[name=code]", one.code_ew)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    pages = [
        f"/table/{one.code_ew}/",
        f"/table/{one.code_ew}/board/{last}/?mode=differ",
        f"/table/{one.code_ew}/standings/",
        f"/e/{event.pk}/",
        f"/e/{event.pk}/standings/",
        f"/e/{event.pk}/pairs/{one.ns.number}/",
        f"/e/{teams.pk}/teams/matches/",
        f"/e/{teams.pk}/teams/matches/{match.round.number}/{match.number}/",
    ]
    staff = [
        f"/manage/{event.pk}/",
        f"/manage/{teams.pk}/rounds/{match.round.number}/matches/{match.number}/lineup/",
    ]
    for path in pages:
        page.goto(path)
        found = page.evaluate(SIDEWAYS)
        if found:
            wide[path] = found
    context.close()
    context = phone_context(browser, live_server, "ca")
    page = context.new_page()
    log_in(page, "organiser", DEMO_PASSWORD)
    for path in staff:
        page.goto(path)
        assert urlparse(page.url).path == path, page.url  # the page itself, not the login form
        # The organiser's tables scroll sideways in their frame (organiser.css): the page not.
        found = [x for x in page.evaluate(SIDEWAYS) if x.startswith("page ")]
        if found:
            wide[path] = found
    context.close()
    assert wide == {}, wide


@pytest.mark.parametrize("lang", ["es", "ca"])
def test_every_events_page_fits_a_360_px_phone_for_its_organiser(browser, live_server, lang):
    """The event's public page shows its organiser one more column (each round's printouts):
    its title once widened the rounds' table past the screen in Spanish ("Organizadores"),
    and the round's status broke in the middle of its word."""
    build_demo()
    context = phone_context(browser, live_server, lang)
    page = context.new_page()
    log_in(page, "organiser", DEMO_PASSWORD)
    wide, broken = {}, {}
    for pk in Event.objects.filter(organisers__username="organiser").values_list("pk", flat=True):
        page.goto(f"/e/{pk}/")
        if found := page.evaluate(SIDEWAYS):
            wide[pk] = found
        # A badge's word on one line: its box is one line high.
        tall = page.evaluate(
            """() => [...document.querySelectorAll('.rounds-table .badge')]
                 .filter(b => b.getClientRects().length > 1 || b.offsetHeight > 2 * parseFloat(
                   getComputedStyle(b).fontSize) + 4).map(b => b.textContent)"""
        )
        if tall:
            broken[pk] = tall
    context.close()
    assert wide == {} and broken == {}, (wide, broken)
