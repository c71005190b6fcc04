"""The organiser's dashboard rewrites "updated at" when a recomputation ends (it polls while the
standings are being recomputed): the time it writes is the one the page shows when rendered,
in the site's TIME_ZONE (docs/deploy.md), whatever the browser's own time zone."""

import datetime

import pytest
from django.utils import formats, timezone, translation
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tournaments import queue
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

MOMENT = datetime.datetime(2026, 12, 1, 21, 30, tzinfo=datetime.UTC)  # 22:30 in Madrid


def test_updated_at_after_a_recomputation_is_in_the_sites_time_zone(
    running_event, browser, live_server, monkeypatch, settings
):
    settings.TIME_ZONE = "Europe/Madrid"
    Event.objects.filter(pk=running_event.pk).update(standings_updated_at=MOMENT)
    state = {"now": queue.UPDATING}
    monkeypatch.setattr(queue, "standings_state", lambda event: state["now"])
    context = browser.new_context(base_url=live_server.url, locale="en-GB", timezone_id="UTC")
    page = context.new_page()
    log_in(page, "organiser")
    page.goto(f"/manage/{running_event.pk}/")
    expect(page.locator("#standings-state .badge")).to_be_visible()
    state["now"] = queue.FRESH  # the recomputation is over: the next poll says so
    expect(page.locator("#standings-state .badge")).to_have_count(0, timeout=8000)
    written = page.locator("#standings-state").inner_text()
    page.goto(f"/manage/{running_event.pk}/")
    rendered = page.locator("#standings-state").inner_text()
    context.close()
    with translation.override("en"):
        local = formats.time_format(timezone.localtime(MOMENT), "TIME_FORMAT")
    assert rendered == f"updated at {local}"
    assert written == rendered
