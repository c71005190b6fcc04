"""The organiser's pages on a 360 px phone for a keyboard: a region that scrolls sideways (the
CSV example, a table with no control in it) can be reached with the keyboard, so axe-core finds
no serious or critical problem, in each language."""

import pytest

from tests.e2e.journey import log_in
from tests.e2e.test_phone_layout import phone_context
from tests.e2e.test_public_pages import assert_accessible
from tournaments.actors import Actor
from tournaments.services import events

CSV = "player1,player2,name,club\nAnna Puig,Jordi Vila,Els Rapids,Reus\nMarta Soler,Pere Riera,,\n"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en", "ca", "es"])
def test_pairs_roles_and_the_csv_preview_on_a_phone(browser, live_server, organiser, lang):
    draft = events.event_create(actor=Actor(user=organiser), name="Prova")
    context = phone_context(browser, live_server, lang)
    page = context.new_page()
    log_in(page, "organiser")
    page.goto(f"/manage/{draft.pk}/pairs/")
    assert_accessible(page, f"pairs {lang}")
    page.goto(f"/manage/{draft.pk}/roles/")
    assert_accessible(page, f"roles {lang}")
    page.goto(f"/manage/{draft.pk}/pairs/")
    page.set_input_files(
        "#csv-form input[type=file]",
        files=[{"name": "p.csv", "mimeType": "text/csv", "buffer": CSV.encode()}],
    )
    page.click("#csv-form button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("#preview-rows").count() == 1
    assert_accessible(page, f"csv preview {lang}")
    context.close()
