"""The browser's own print of a traveller fits one A4 page, as the server's PDF does
(tests/tournaments/test_print_fit.py): a club that prints from the board's page, not from its
PDF link, gets the same compact traveller (Chromium's print to PDF, pages counted)."""

import io

import pytest
from pypdf import PdfReader

from tests.e2e.conftest import PageProblems
from tests.tournaments.test_print_fit import played_field


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["ca", "en"])
def test_a_traveller_of_16_tables_prints_on_one_a4_page_from_the_browser(
    browser, live_server, organiser, lang
):
    event = played_field(organiser, 32)
    context = browser.new_context(
        base_url=live_server.url, locale=lang, extra_http_headers={"Accept-Language": lang}
    )
    try:
        page = context.new_page()
        problems = PageProblems(page)
        page.goto(f"/e/{event.pk}/boards/1/")
        assert page.locator("table.traveller-table tbody tr").count() == 16
        page.emulate_media(media="print")
        printed = PdfReader(io.BytesIO(page.pdf(format="A4", print_background=True)))
        assert len(printed.pages) == 1, f"{len(printed.pages)} pages"
        text = " ".join(printed.pages[0].extract_text().split())
        for entry in event.entries.select_related("pair"):
            assert entry.pair.name.split()[0] in text
        problems.assert_clean()
    finally:
        context.close()
