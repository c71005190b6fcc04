"""A pair's own evening on a 360 px phone (issue 20): its scorecard so far (matchpoints of the
closed round, its own boards of the open round without them), the standings of the closed round
and the referee's rulings on its boards; each page opens again without the network once visited,
saying "No network: shown as of HH:MM". Screenshots: test-artifacts/screenshots/pair-evening/
(the ones in docs/img/pair-*.png come from here).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS, PageProblems
from tests.e2e.test_offline_table import _kept_offline, _online_problems
from tests.e2e.test_table_entry import enter_code
from tests.factories import EventFactory, PairFactory
from tournaments.actors import Actor
from tournaments.models import Entry, Table
from tournaments.services import disputes, events, results
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740
NAMES = [
    ("Montse Puig", "Jordi Vila"),
    ("Núria Soler", "Pere Roca"),
    ("Anna Ferrer", "Joan Pujol"),
    ("Marta Serra", "Josep Font"),
    ("Laia Vidal", "Quim Costa"),
    ("Rosa Camps", "Lluís Mas"),
]
EXPLANATION = "North played a heart while holding one on trick 4: the revoke is corrected."


def _play(table, board, ns_total, trump, *, confirm=True):
    data = {
        "delegated": False,
        "trump": trump,
        "doubles": [],
        "totals": {"NS": ns_total, "EW": 72 - ns_total},
    }
    result = results.result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
    ).result
    if confirm:
        results.result_confirm(result=result, actor=Actor(table=table, side="EW"))
    return result


@pytest.fixture
def second_round(db, organiser):
    """6 pairs, 3 boards a round. Round 1 played and closed (a ruling on pair 1's board 2);
    round 2 open: pair 1 sits EW at table 1, its board 4 confirmed, board 5 waiting for it."""
    event = EventFactory(
        organisers=[organiser], status="registration", boards_per_round=3, name="Casal d'Horta"
    )
    actor = Actor(user=organiser)
    entries = []
    for i, (a, b) in enumerate(NAMES, start=1):
        pair = PairFactory(player1__name=a, player2__name=b, name=f"{a} – {b}")
        entries.append(Entry.objects.create(event=event, pair=pair, number=i))
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()

    def open_round(number, pairs):
        rnd = events.round_propose(
            event=event,
            actor=actor,
            number=number,
            tables=[(entries[a - 1].pk, entries[b - 1].pk) for a, b in pairs],
        )
        events.round_open(rnd=rnd, actor=actor)
        return {t.number: t for t in Table.objects.filter(round=rnd)}

    one = open_round(1, [(1, 2), (3, 4), (5, 6)])
    trumps = {1: "oros", 2: "copes", 3: "bastos"}
    totals = {1: (40, 31, 22), 2: (36, 45, 30), 3: (28, 37, 50)}  # by table, boards 1–3
    for number, table in one.items():
        for board, total in enumerate(totals[number], start=1):
            _play(table, board, total, trumps[board])
    ruled = one[1].results.get(board__number=2)
    dispute = disputes.dispute_request(
        result=ruled, actor=Actor(table=one[1], side="EW"), reason="A revoke on trick 4."
    )
    disputes.dispute_rule(
        dispute=dispute,
        actor=actor,
        kind="corrected",
        explanation=EXPLANATION,
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 27, "EW": 45}},
    )
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    standings_recompute(event.pk)
    two = open_round(2, [(3, 1), (2, 5), (4, 6)])
    _play(two[1], 4, 30, "espases")
    _play(two[1], 5, 44, "botifarra", confirm=False)
    _play(two[2], 6, 60, "oros")  # another table's board: pair 1 has not played it
    standings_recompute(event.pk)
    return two[1]


# The page, or a table in its frame, wider than the screen: what does not fit.
SIDEWAYS = """() => {
  const out = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > window.innerWidth) out.push("page " + root.scrollWidth);
  for (const w of document.querySelectorAll(".table-wrap")) {
    if (w.scrollWidth > w.clientWidth + 1) out.push(w.innerText.slice(0, 40) + " " + w.scrollWidth + " > " + w.clientWidth);
  }
  return out;
}"""


def _sideways(page) -> list[str]:
    return page.evaluate(SIDEWAYS)


def test_the_pairs_evening_on_a_phone_also_offline(second_round, browser, live_server):
    table = second_round
    context = browser.new_context(
        base_url=live_server.url,
        locale="en-GB",
        viewport={"width": WIDTH, "height": HEIGHT},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    problems = PageProblems(page)
    folder = SCREENSHOTS / "pair-evening"
    folder.mkdir(parents=True, exist_ok=True)

    def shoot(name):
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    try:
        enter_code(page, table.code_ew)  # pair 1 sits EW at table 1 of round 2
        code = table.code_ew
        urls = {name: f"/table/{code}/{name}/" for name in ("scorecard", "standings", "rulings")}
        expect(page.locator("#evening-nav")).to_be_visible()

        # The scorecard: round 1 with its matchpoints, round 2's own boards without them.
        page.click("#evening-nav >> text=Scorecard")
        page.wait_for_selector(".tp-scorecard")
        first = page.locator('table[data-round="1"] tbody tr')
        expect(first).to_have_count(3)
        for k in range(3):
            assert re.fullmatch(r"\d+(\.\d+)?", first.nth(k).locator(".mp").inner_text())
        second = page.locator('table[data-round="2"] tbody tr')
        expect(second).to_have_count(2)  # boards 4 and 5; never board 6 of table 2
        expect(second.nth(0).locator(".mp")).to_have_text("after the round")
        expect(second.nth(1)).to_contain_text("Entered by NS, waiting for EW")
        expect(page.locator("#as-of")).to_be_hidden()
        shoot("scorecard")
        assert not _sideways(page)

        # The standings after round 1, the pair's row marked.
        page.click("#evening-nav >> text=Standings")
        expect(page.locator("h1")).to_have_text("Standings after round 1")
        expect(page.locator("table.tp-standings tbody tr")).to_have_count(6)
        expect(page.locator('tr.mine[data-entry="1"]')).to_have_count(1)
        shoot("standings")
        assert not _sideways(page)

        # The rulings on its boards, with the explanation, and the call of the referee.
        page.click("#evening-nav >> text=Rulings")
        expect(page.locator("[data-role=explanation]")).to_have_text(EXPLANATION)
        expect(page.locator("#call-referee a")).to_have_count(2)  # boards 4 and 5
        shoot("rulings")
        assert not _sideways(page)

        # Offline: each page opens again from the phone's copy, saying when it was shown.
        _kept_offline(page, list(urls.values()))
        context.set_offline(True)
        for name in ("scorecard", "rulings"):
            page.goto(urls[name])
            as_of = page.locator("#as-of")
            expect(as_of).to_be_visible()
            assert re.fullmatch(r"No network: shown as of \d\d:\d\d\.", as_of.inner_text())
        expect(page.locator("[data-role=explanation]")).to_have_text(EXPLANATION)
        shoot("rulings-offline")
        page.goto(urls["scorecard"])
        page.reload()
        expect(page.locator('table[data-round="1"] tbody tr')).to_have_count(3)
        expect(page.locator("#as-of")).to_be_visible()
        shoot("scorecard-offline")

        # Back online: the page is the server's again.
        context.set_offline(False)
        page.reload()
        expect(page.locator("#as-of")).to_be_hidden()
        _online_problems(problems)
    finally:
        context.close()
