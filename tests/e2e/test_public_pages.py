"""The public results in a real browser: standings (phone and print), traveller, event page and a
PDF download; axe-core finds no serious or critical accessibility problem."""

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.tournaments.public_event import build_played_event

AXE = Path(__file__).resolve().parents[1] / "data" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def assert_accessible(page, what: str) -> None:
    # Evaluated, not added as a <script>: the Content-Security-Policy runs no inline script.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    violations = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
             .map(v => ({id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))"""
    )
    bad = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad, (what, bad)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


@pytest.mark.django_db(transaction=True)
def test_public_results_in_the_browser(new_page, running_event, organiser):
    event = build_played_event(running_event, organiser)
    first = event.entries.get(number=1).pair.name

    # Standings on a phone: readable without sideways scrolling of the page.
    page, problems, shoot = new_page("public-pages-phone", phone=True)
    page.goto(f"/e/{event.pk}/standings/")
    assert page.locator("table.standings tbody tr").count() == event.entries.count()
    assert page.get_by_text(first).first.is_visible()
    no_sideways_scroll(page)
    shoot("standings-phone")
    problems.assert_clean()

    page, problems, shoot = new_page("public-pages")
    page.goto(f"/e/{event.pk}/")
    assert page.locator("#commitment").inner_text() == event.commitment
    shoot("event")
    assert_accessible(page, "event")

    page.goto(f"/e/{event.pk}/standings/")
    shoot("standings")
    assert_accessible(page, "standings")
    # The table refreshes itself from a fragment, without a full reload.
    page.evaluate("window.__marker = 1")
    with page.expect_response(lambda r: "fragment=1" in r.url, timeout=20000) as fragment:
        pass
    assert fragment.value.status == 200
    assert page.evaluate("window.__marker") == 1
    assert page.locator("table.standings tbody tr").count() == event.entries.count()

    # Print preview: no navigation, the table alone.
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator(".round-picker").is_visible()
    assert page.locator("table.standings").is_visible()
    shoot("standings-print")
    page.emulate_media(media="screen")

    # A traveller with its chart.
    page.goto(f"/e/{event.pk}/boards/1/")
    chart = page.locator("svg.chart").first
    assert chart.is_visible()
    assert "Board 1" in chart.get_attribute("aria-label")
    assert page.locator("table.traveller-table tbody tr").count() == 2
    shoot("traveller")
    assert_accessible(page, "traveller")
    page.emulate_media(media="print")
    shoot("traveller-print")
    page.emulate_media(media="screen")

    # A PDF download from the standings page.
    page.goto(f"/e/{event.pk}/standings/")
    problems.assert_clean()
    with page.expect_download() as download_info:
        page.get_by_role("link", name="PDF").click()
    download = download_info.value
    folder = ARTIFACTS / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "standings.pdf"
    download.save_as(str(target))
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert first in " ".join(text.split())
    # poppler-utils (pdftoppm) is not installed here: keep the extracted text as the artefact.
    (folder / "standings.txt").write_text(text, encoding="utf-8")
    # Chromium reports a navigation that turns into a download as an aborted request.
    assert all("/pdf/standings/" in e for e in problems.errors), problems.errors

    # An open round's board is refused, not shown (a page of its own: the 403 is expected).
    page, _problems, shoot = new_page("public-pages-refused")
    response = page.goto(f"/e/{event.pk}/boards/3/")
    assert response.status == 403
    assert page.locator(".deal").count() == 0
    shoot("open-round-board-refused")
