"""A phone at the table loses the network in the middle of a round (issue 20): what it sends is
kept on the phone (IndexedDB) with an Idempotency-Key, the page says what waits, a reload keeps
it, and when the network is back each submission is stored exactly once; what the server refuses
is shown with its reason, and nothing is lost. Screenshots: test-artifacts/screenshots/offline-*/.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

import engine
from tests.conftest import start_four_pairs, wait_for
from tests.e2e.journey import log_in
from tests.e2e.test_table_entry import enter_code, legal_game
from tests.factories import UserFactory
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import (
    BoardResult,
    IdempotentResponse,
    PlayRecord,
    Submission,
    Table,
)
from tournaments.services import events, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def three_board_round(db, organiser):
    """4 pairs, 3 boards a round, round 1 open."""
    return start_four_pairs(organiser, boards_per_round=3)


def _short(table, number, side, trump, ns_total, version=None):
    return results.result_submit_short(
        table=table,
        board_number=number,
        actor=Actor(table=table, side=side),
        data={
            "delegated": False,
            "trump": trump,
            "doubles": [],
            "totals": {"NS": ns_total, "EW": 72 - ns_total},
        },
        expected_version=version,
    )


def _until(page, script, arg=None, timeout=20.0):
    """Poll ``script`` in the page until it is truthy. Not ``wait_for_function``: that takes
    the promise an async script returns as truthy at once, and would wait for nothing."""
    import time

    # Each look is bounded too: a promise that never settles (no worker ever controls the
    # page) counts as false rather than hanging the test.
    bounded = (
        "async ([a, ms]) => Promise.race("
        f"[Promise.resolve(({script})(a)), new Promise((r) => setTimeout(() => r(false), ms))])"
    )
    deadline = time.monotonic() + timeout
    while not page.evaluate(bounded, [arg, 2000]):
        if time.monotonic() > deadline:
            pytest.fail(f"still false after {timeout} s: {script} ({arg})")
        page.wait_for_timeout(100)


def _kept_offline(page, urls):
    """Wait until the service worker is active and keeps ``urls``. (The page that registered
    it may stay without it: a worker that starts while that page's own request is on its way
    does not take the page over; every page opened after is served by it.)"""
    _until(page, "() => navigator.serviceWorker.ready.then((r) => !!r.active)")
    for url in urls:
        _until(page, "async (u) => !!(await caches.match(u, {ignoreVary: true}))", url)


CACHE_STATE = """async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  const kept = {};
  for (const name of await caches.keys()) {
    const requests = await (await caches.open(name)).keys();
    kept[name] = requests.map((r) => new URL(r.url).pathname).filter((p) => !p.startsWith("/static/"));
  }
  return {active: reg && reg.active ? reg.active.state : null, waiting: !!(reg && reg.waiting),
          installing: !!(reg && reg.installing), kept};
}"""


def _open_offline(page, url):
    """Open a kept page without the network; if it does not open, say what the phone kept."""
    before = page.evaluate(CACHE_STATE)
    try:
        return page.goto(url)
    except Exception as error:
        pytest.fail(f"{url} did not open offline ({error}); just before, the phone had {before}")


def _online_problems(problems, expected=()):
    """The page's problems, less the requests that failed because the test cut the network
    and the answers the test expects (a refusal)."""
    known = ("ERR_INTERNET_DISCONNECTED", *expected)
    problems.errors = [e for e in problems.errors if not any(k in e for k in known)]
    problems.assert_clean()


def _fill_short(page, trump, ns_total):
    page.click(f"label.trump-{trump}")
    page.fill("input[name=totals_ns]", str(ns_total))
    page.click("#short-form button[type=submit]")


def test_offline_results_and_hand_are_kept_then_stored_exactly_once(three_board_round, new_page):
    event = three_board_round
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    board1 = event.boards.get(number=1)
    game = legal_game(board1, "copes")
    verdict = engine.replay(
        adapter.result_record(board1, BoardResult(trump="copes", doubles=[]), game),
        deal=adapter.deal(board1),
        rules=adapter.rules(event),
    )
    # EW entered board 1 already: NS may see its cards and enters the hand card by card.
    _short(table, 1, "EW", "copes", verdict.totals["NS"])

    page, problems, shoot = new_page("offline-table", phone=True)
    enter_code(page, table.code_ns)
    home = f"/table/{table.code_ns}/"
    _kept_offline(
        page,
        [home, f"{home}board/2/", f"{home}board/3/", f"{home}board/1/play/"],
    )
    shoot("online-home")

    page.context.set_offline(True)
    # Two short results, offline.
    for number, ns_total in ((2, 40), (3, 25)):
        kept = _open_offline(page, f"{home}board/{number}/")
        assert kept is not None and kept.from_service_worker
        # The kept page is marked as such: its length must say so, or the browser may cut it.
        length = kept.headers.get("content-length")
        assert length is None or int(length) == len(kept.body())
        _fill_short(page, "oros", ns_total)
        page.wait_for_selector(f"#board-{number} .outbox-note")
    expect(page.locator("#outbox")).to_contain_text("2 results waiting to be sent")
    shoot("two-results-waiting")

    # A page this phone never opened: the worker's notice instead of the browser's error, with
    # the way back to the table's kept page. A page's own requests still fail as before.
    notice = _open_offline(page, f"{home}scorecard/")
    assert notice is not None and notice.from_service_worker
    expect(page.locator("#offline-page h1")).to_have_text("Not on this phone yet")
    expect(page.locator("#offline-home")).to_have_attribute("href", home)
    expect(page.locator("#outbox")).to_contain_text("2 results waiting to be sent")
    assert page.evaluate("(u) => fetch(u).then(() => false, () => true)", f"{home}board/99/")
    shoot("not-kept")
    page.click("#offline-home")
    page.wait_for_selector("#boards")
    assert page.evaluate("() => document.documentElement.dataset.fromCache") == "1"

    # The hand, card by card, offline: the legal cards come from rules.js.
    _open_offline(page, f"{home}board/1/play/")
    page.wait_for_selector('#play-app[data-count="0"]')
    for k, card in enumerate(game):
        page.click(f'#legal-cards button[data-card="{card}"]')
        page.wait_for_selector(f'#play-app[data-count="{k + 1}"]')
    page.click("[data-action=submit]")
    page.wait_for_selector("[data-role=verdict].verdict-waiting")
    shoot("hand-waiting")

    # Nothing is on the server yet, and a reload while offline keeps everything.
    assert not BoardResult.objects.filter(table=table, board__number__in=[2, 3]).exists()
    assert not PlayRecord.objects.exists()
    _open_offline(page, home)
    page.reload()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("2 results waiting to be sent")
    expect(outbox).to_contain_text("1 card-by-card hand waiting to be sent")
    shoot("after-reload-offline")

    # The network is back: everything is sent, in order, once.
    page.context.set_offline(False)
    expect(outbox).to_have_attribute("data-waiting", "0", timeout=30_000)
    expect(outbox).to_contain_text("Board 2 · stored by the server")
    expect(outbox).to_contain_text("Board 3 · stored by the server")
    expect(outbox).to_contain_text("Complete hand")
    page.wait_for_selector("#board-2[data-status=entered]", timeout=25_000)
    shoot("sent")

    for number, ns_total in ((2, 40), (3, 25)):
        result = BoardResult.objects.get(table=table, board__number=number)
        assert (result.totals_ns, result.trump, result.entered_side) == (ns_total, "oros", "NS")
        assert Submission.objects.filter(result=result).count() == 1
    record = PlayRecord.objects.get()
    assert record.record["play"] == game
    assert BoardResult.objects.get(table=table, board__number=1).status == "confirmed"
    assert IdempotentResponse.objects.count() == 3

    # Another load sends nothing again.
    page.reload()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    assert Submission.objects.filter(result__table=table).count() == 4
    # The fetch refused on purpose above (its console line names no address: the failed
    # request itself, with its address, is what would show any other).
    _online_problems(problems, expected=("/board/99/", "Failed to load resource: net::ERR_FAILED"))


def test_offline_conflicts_are_shown_and_nothing_is_lost(three_board_round, new_page):
    event = three_board_round
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    first = _short(table, 1, "EW", "bastos", 30).result

    page, problems, shoot = new_page("offline-conflict", phone=True)
    enter_code(page, table.code_ns)
    home = f"/table/{table.code_ns}/"
    _kept_offline(page, [home, f"{home}board/2/"])

    page.context.set_offline(True)
    page.click("#board-1 form[data-outbox=confirmation] button.primary")  # NS confirms board 1
    page.wait_for_selector("#board-1 .outbox-note")
    # The page moves to the board it confirmed before the player goes on.
    page.wait_for_url(lambda url: url.endswith(f"{home}#board-1"))
    _open_offline(page, f"{home}board/2/")
    _fill_short(page, "espases", 40)
    page.wait_for_selector("#board-2 .outbox-note")
    expect(page.locator("#outbox")).to_contain_text("1 confirmation waiting to be sent")
    shoot("waiting")

    # Meanwhile, on EW's phone (online): board 1 corrected, board 2 entered differently.
    _short(table, 1, "EW", "bastos", 35, version=first.version)
    _short(table, 2, "EW", "espases", 30)

    page.context.set_offline(False)
    outbox = page.locator("#outbox")
    expect(outbox).to_have_attribute("data-waiting", "0", timeout=30_000)
    # The confirmation is refused (the result changed under it), with the server's reason.
    expect(outbox.locator(".outbox-refused")).to_contain_text("Board 1")
    expect(outbox.locator(".outbox-refused")).to_contain_text("changed meanwhile")
    # NS's result for board 2 is stored: the two entries differ, a referee decides.
    expect(outbox).to_contain_text("the two entries differ")
    shoot("refused-and-disputed")

    one = BoardResult.objects.get(table=table, board__number=1)
    assert one.status == "entered" and one.totals_ns == 35  # not confirmed by a stale tap
    two = BoardResult.objects.get(table=table, board__number=2)
    assert two.status == "disputed"
    sides = sorted(s.side for s in Submission.objects.filter(result=two))
    assert sides == ["EW", "NS"]  # both entries kept for the referee

    # The refusal stays on the page until it is read.
    page.reload()
    expect(page.locator("#outbox .outbox-refused")).to_contain_text("changed meanwhile")
    page.click("#outbox .outbox-refused button")
    expect(page.locator("#outbox .outbox-refused")).to_have_count(0)
    _online_problems(problems, expected=("status of 409 (Conflict)",))


# --- a phone passed on, and codes replaced (found by an audit; each failed before its fix) ---


def _phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport={"width": 360, "height": 740}
    )
    return context, context.new_page()


def test_a_phone_passed_to_another_table_forgets_what_it_kept_of_the_first(
    three_board_round, browser, live_server
):
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    t2 = Table.objects.get(round__event=event, round__number=1, number=2)
    _short(t1, 1, "EW", "copes", 40)  # table 1 has played board 1; table 2 has not
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        home1 = f"/table/{t1.code_ns}/"
        _kept_offline(page, [home1, f"{home1}board/1/play/"])
        enter_code(page, t2.code_ns)  # a pair of table 2 uses this phone now
        page.context.set_offline(True)
        for url in (f"{home1}board/1/play/", home1):
            page.goto(url)
            shown = page.content()
            assert 'id="play-config"' not in shown and "data-from-cache" not in shown, url
        page.context.set_offline(False)
    finally:
        context.close()


def _no_cards_offline(page, urls):
    """Once the worker has forgotten ``urls`` (it does so after the answer that tells it to),
    none of them shows the board's cards or a kept copy without the network."""
    for url in urls:
        _until(page, "async (u) => !(await caches.match(u, {ignoreVary: true}))", url, 10)
    page.context.set_offline(True)
    try:
        for url in urls:
            page.goto(url)
            shown = page.content()
            assert 'id="play-config"' not in shown and "data-from-cache" not in shown, url
    finally:
        page.context.set_offline(False)


def _table_1_pages_kept(page, event):
    """Table 1 has entered board 1 (its NS pair may see the cards); the phone opened table 1's
    NS pages and kept its home and board 1's cards: their addresses."""
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    _short(table, 1, "EW", "copes", 40)
    page.wait_for_selector("#boards")
    home = page.evaluate("() => location.pathname")
    play = f"{home}board/1/play/"
    _kept_offline(page, [home, play])
    page.goto(play)  # the worker's answer, kept from the page's own request (its Vary)
    assert 'id="play-config"' in page.content()
    return home, play


def test_new_codes_make_the_phone_forget_every_page_of_the_old_code(
    three_board_round, browser, live_server, organiser
):
    """The server refuses the old code's home (403): neither it nor board 1's cards, kept under
    that code, open offline any more (docs/players.md: the old codes stop working at once)."""
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        home, play = _table_1_pages_kept(page, event)
        events.table_new_codes(table=t1, actor=Actor(user=organiser))
        assert page.goto(home).status == 403
        _no_cards_offline(page, [play, home])
    finally:
        context.close()


def test_a_phone_whose_session_lost_the_code_forgets_its_pages(
    three_board_round, browser, live_server
):
    """The session that held the code is gone: the table's pages send the phone to the code
    form, and what it kept of the code no longer opens offline."""
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        home, play = _table_1_pages_kept(page, event)
        context.clear_cookies()
        page.goto(play)
        assert "/table/?code=" in page.url and 'id="play-config"' not in page.content()
        _no_cards_offline(page, [play, home])
    finally:
        context.close()


def test_logging_out_makes_a_players_phone_forget_its_table_pages(
    three_board_round, browser, live_server
):
    """A player whose account opens the table without a code logs out: the phone shows none of
    the table's pages offline (a phone lent to someone else shows nothing of the board)."""
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    player = t1.ns.pair.player1
    player.user = UserFactory(username="nsplayer")
    player.save()
    context, page = _phone(browser, live_server)
    try:
        log_in(page, "nsplayer")
        page.goto("/table/")
        home, play = _table_1_pages_kept(page, event)
        page.goto(home)
        page.click("header form[action='/accounts/logout/'] button")
        page.wait_for_url(lambda url: "/table/" not in url)
        _no_cards_offline(page, [play, home])
    finally:
        context.close()


def test_a_page_opened_after_another_tables_is_kept(three_board_round, browser, live_server):
    """A table page the worker fetches for the phone (not one a page asks it to keep) is kept as
    it is answered: after the phone had served table 1, table 2's were not, the forgetting of
    the codes other than table 1's being taken for one that ran after they were asked for."""
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    t2 = Table.objects.get(round__event=event, round__number=1, number=2)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        _kept_offline(page, [f"/table/{t1.code_ns}/"])
        page.goto(f"/table/{t1.code_ns}/")  # the worker's answer: it forgets the other codes
        enter_code(page, t2.code_ns)
        _kept_offline(page, [f"/table/{t2.code_ns}/"])
        rulings = f"/table/{t2.code_ns}/rulings/?from=test"  # no page links it
        assert page.evaluate("(u) => fetch(u).then((r) => r.ok)", rulings)
        _kept_offline(page, [rulings])
    finally:
        context.close()


def _board_2_entered_offline(page, table):
    """The NS pair of ``table`` enters board 2 without the network: it waits on the phone."""
    enter_code(page, table.code_ns)
    home = f"/table/{table.code_ns}/"
    _kept_offline(page, [home, f"{home}board/2/"])
    page.context.set_offline(True)
    _open_offline(page, f"{home}board/2/")
    _fill_short(page, "oros", 40)
    page.wait_for_selector("#board-2 .outbox-note")
    return home


def test_what_waits_is_sent_with_the_new_code_the_organiser_gave(
    three_board_round, browser, live_server, organiser
):
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        _board_2_entered_offline(page, t1)
        events.table_new_codes(table=t1, actor=Actor(user=organiser))  # the old card was seen
        t1.refresh_from_db()
        page.context.set_offline(False)
        enter_code(page, t1.code_ns)  # the new code: what waits goes with it
        # The page shows 0 waiting until its outbox has read the phone's store: wait for the
        # result itself, then for the outbox to be empty.
        stored = wait_for(
            lambda: BoardResult.objects.filter(table=t1, board__number=2).first(), timeout=25
        )
        assert stored is not None and (stored.trump, stored.entered_side) == ("oros", "NS")
        expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0", timeout=25_000)
    finally:
        context.close()


def test_another_tables_waiting_entry_is_not_shown_on_this_tables_board(
    three_board_round, browser, live_server
):
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    t2 = Table.objects.get(round__event=event, round__number=1, number=2)
    context, page = _phone(browser, live_server)
    try:
        home1 = _board_2_entered_offline(page, t1)
        page.route(f"**{home1}board/**", lambda route: route.abort())  # table 1's sends fail
        page.context.set_offline(False)
        enter_code(page, t2.code_ns)
        # Kept on the phone for table 1, and not shown on table 2's page at all (players.md
        # §11): neither counted nor with its reason (audit: "1 result waiting" was shown).
        _until(page, f"() => ({OUTBOX_QUEUE})().then((q) => q.length === 1)")
        page.evaluate("() => window.BotifarraOutbox.flush()")
        expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
        assert page.locator("#board-2 .outbox-note").count() == 0
        assert "waiting" not in page.inner_text("#outbox")
        page.unroute(f"**{home1}board/**")
    finally:
        context.close()


OUTBOX_QUEUE = """async () => {
  const db = await new Promise((ok) => { const q = indexedDB.open("botifarra-outbox"); q.onsuccess = () => ok(q.result); });
  return await new Promise((ok) => {
    const q = db.transaction("queue").objectStore("queue").getAll(); q.onsuccess = () => ok(q.result);
  });
}"""

OUTBOX_LOG = """async () => {
  const db = await new Promise((ok) => { const q = indexedDB.open("botifarra-outbox"); q.onsuccess = () => ok(q.result); });
  return await new Promise((ok) => {
    const q = db.transaction("log").objectStore("log").getAll(); q.onsuccess = () => ok(q.result);
  });
}"""


def test_a_phone_passed_to_another_table_does_not_show_the_first_tables_stored_results(
    three_board_round, browser, live_server
):
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    t2 = Table.objects.get(round__event=event, round__number=1, number=2)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        page.goto(f"/table/{t1.code_ns}/board/2/")
        _fill_short(page, "oros", 40)
        page.wait_for_selector("#boards")
        expect(page.locator("#outbox")).to_contain_text("Board 2 entered")
        # Table 2 plays the same boards and has not played board 2 yet.
        enter_code(page, t2.code_ns)
        _until(page, f"() => ({OUTBOX_LOG})().then((log) => log.length === 0)")
        assert "Board 2" not in page.inner_text("#outbox")
    finally:
        context.close()


def test_a_phone_passed_to_another_table_forgets_the_cards_of_an_unfinished_hand(
    three_board_round, browser, live_server
):
    event = three_board_round
    t1 = Table.objects.get(round__event=event, round__number=1, number=1)
    t2 = Table.objects.get(round__event=event, round__number=1, number=2)
    _short(t1, 1, "EW", "copes", 40)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        page.goto(f"/table/{t1.code_ns}/board/1/play/")
        for played in range(1, 4):
            page.locator("#legal-cards button[data-card]").first.click()
            page.wait_for_selector(f'#play-app[data-count="{played}"]')
        kept = "() => Object.keys(localStorage).filter((k) => k.startsWith('botifarra-play:'))"
        assert page.evaluate(kept) == [f"botifarra-play:{t1.pk}:1"]
        enter_code(page, t2.code_ns)
        page.wait_for_function(f"({kept})().length === 0")
    finally:
        context.close()


def test_a_result_stored_before_the_round_closed_is_not_shown_refused(
    three_board_round, browser, live_server
):
    from urllib.parse import urlparse

    from django.test import Client

    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        _board_2_entered_offline(page, t1)
        item = page.evaluate(
            """async () => {
              const db = await new Promise((ok) => { const q = indexedDB.open("botifarra-outbox"); q.onsuccess = () => ok(q.result); });
              return await new Promise((ok) => {
                const q = db.transaction("queue").objectStore("queue").getAll(); q.onsuccess = () => ok(q.result[0]);
              });
            }"""
        )
        # Its first send reached the server and was stored; the answer was lost on the way.
        sender = Client()
        sender.post("/table/", {"code": t1.code_ns})
        first = sender.post(
            urlparse(item["url"]).path,
            item["body"],
            content_type=item["type"],
            HTTP_IDEMPOTENCY_KEY=item["key"],
            HTTP_ACCEPT="application/json",
        )
        assert first.status_code == 200
        t1.round.status = "closed"  # the organiser closes the round before the phone is back
        t1.round.save(update_fields=["status"])
        page.context.set_offline(False)
        page.evaluate("() => window.BotifarraOutbox.flush()")
        expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
        expect(page.locator("#outbox")).to_contain_text("stored by the server", timeout=15_000)
        assert "refused" not in page.inner_text("#outbox")
    finally:
        context.close()


def test_a_result_kept_offline_and_refused_for_a_closed_round_is_shown_on_the_closed_page(
    three_board_round, browser, live_server
):
    """players.md §11: a round closed meanwhile refuses what waits, and the refusal stays on the
    page with its reason. The phone, back online, reloads its table's page, which is now the
    closed page: the refusal is there (audit: that page showed nothing, then the next table's
    page deleted it)."""
    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        home = _board_2_entered_offline(page, t1)
        t1.round.status = "closed"  # the organiser closes the round before the phone is back
        t1.round.save(update_fields=["status"])
        page.context.set_offline(False)
        page.goto(home)
        outbox = page.locator("#outbox")
        expect(outbox).to_contain_text("refused", timeout=25_000)
        expect(outbox).to_contain_text("round is closed")
        assert not BoardResult.objects.filter(table=t1, board__number=2).exists()
    finally:
        context.close()


def test_a_record_pasted_without_the_network_waits_on_the_phone_then_is_stored(
    three_board_round, browser, live_server
):
    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    board = three_board_round.boards.get(number=1)
    _short(t1, 1, "EW", "copes", 40)
    record = adapter.record(board, trump="copes", cards=legal_game(board, "copes"))
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        home = f"/table/{t1.code_ns}/"
        _kept_offline(page, [home, f"{home}board/1/play/"])
        page.context.set_offline(True)
        _open_offline(page, f"{home}board/1/play/")
        page.click("details.tp-paste summary")
        page.fill("textarea[name=record]", json.dumps(record))
        page.click("details.tp-paste button[type=submit]")
        page.wait_for_selector("#board-1 .outbox-note")  # back on the table's kept page
        assert not PlayRecord.objects.exists()
        page.context.set_offline(False)
        page.evaluate("() => window.BotifarraOutbox.flush()")
        expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
        assert PlayRecord.objects.filter(result__table=t1).count() == 1
    finally:
        context.close()


def test_a_kept_page_counts_the_clock_down_from_now_not_from_when_it_was_kept(
    three_board_round, browser, live_server, organiser
):
    import time

    from tournaments.services import clock as clock_svc

    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    clock_svc.clock_start(rnd=t1.round, actor=Actor(user=organiser), minutes=30)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        home = f"/table/{t1.code_ns}/"
        _kept_offline(page, [home])
        page.reload()  # through the worker: this copy is the one kept
        _kept_offline(page, [home])
        page.wait_for_timeout(12_000)  # the kept copy ages
        page.context.set_offline(True)
        page.goto(home)
        assert page.locator("html[data-from-cache]").count() == 1
        page.wait_for_timeout(1_500)
        minutes, seconds = page.inner_text("[data-clock-time]").split(":")
        read_at = time.time()
        ends = int(page.get_attribute("[data-clock-state]", "data-clock-ends"))
        page.context.set_offline(False)
        shown = int(minutes) * 60 + int(seconds)
        assert shown <= (ends - read_at * 1000) / 1000 + 3  # within a tick of the truth
    finally:
        context.close()


# --- the language and new codes, seen from the phone (found by an audit; each failed before) ---


def test_changing_the_language_without_the_network_keeps_the_table_page(
    three_board_round, browser, live_server
):
    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        home = _board_2_entered_offline(page, t1)
        _open_offline(page, home)
        page.select_option("#lang-select", "ca")
        page.click("#lang-submit")
        expect(page.locator("#lang-note")).to_contain_text("needs the network")
        assert page.url.endswith(home) and page.locator("#boards").count() == 1
        assert page.locator("#outbox").get_attribute("data-waiting") == "1"
        # Back online, the same button changes the language.
        page.context.set_offline(False)
        page.click("#lang-submit")
        expect(page.locator("html")).to_have_attribute("lang", "ca", timeout=15_000)
        assert page.url.endswith(home)
    finally:
        context.close()


def test_after_new_codes_the_phone_says_to_type_the_new_code(
    three_board_round, browser, live_server, organiser
):
    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        home = _board_2_entered_offline(page, t1)
        events.table_new_codes(table=t1, actor=Actor(user=organiser))
        page.context.set_offline(False)
        page.evaluate("() => window.BotifarraOutbox.flush()")
        waiting = page.locator("#outbox .outbox-waiting p")
        expect(waiting).to_contain_text("new codes", timeout=15_000)
        assert "another table" not in waiting.inner_text()
        assert "network is back" not in waiting.inner_text()
        page.goto(home)
        expect(page.locator("h1")).to_have_text("New codes for your table")
    finally:
        context.close()


LANGUAGE_KEPT = (
    "async (u) => { const r = await caches.match(u, {ignoreVary: true});"
    " return r ? r.headers.get('Content-Language') : null; }"
)


def test_a_page_kept_in_one_language_is_kept_again_in_the_one_chosen(
    three_board_round, browser, live_server
):
    t1 = Table.objects.get(round__event=three_board_round, round__number=1, number=1)
    context, page = _phone(browser, live_server)
    try:
        enter_code(page, t1.code_ns)
        home = f"/table/{t1.code_ns}/"
        page.goto(home + "scorecard/")  # an evening page: kept once opened
        _kept_offline(page, [home, home + "scorecard/"])
        assert page.evaluate(LANGUAGE_KEPT, home + "scorecard/") == "en"
        page.goto(home)
        page.select_option("#lang-select", "ca")
        page.click("#lang-submit")
        expect(page.locator("html")).to_have_attribute("lang", "ca")
        _until(
            page, f"async (u) => ({LANGUAGE_KEPT})(u).then((l) => l === 'ca')", home + "scorecard/"
        )
        page.context.set_offline(True)
        _open_offline(page, home + "scorecard/")
        assert page.evaluate("() => document.documentElement.lang") == "ca"
    finally:
        context.close()
