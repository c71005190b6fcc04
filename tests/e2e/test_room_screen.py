"""The room's screen on a projector or a TV (issue 14): nobody scrolls a projector, so every
slide's rows are inside the screen, on a 1080p TV as on a 720p projector, and again after the
window changes size; the rows are split into slides, none lost; the QR code is drawn at the
size the screen gives it."""

import datetime

import pytest
from playwright.sync_api import expect

from tournaments.demo import build_demo
from tournaments.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

SLIDES = """() => [...document.querySelectorAll('#screen-slides [data-slide]')].map(slide => {
  document.querySelectorAll('#screen-slides [data-slide]')
    .forEach(s => s.classList.toggle('current', s === slide));
  const rows = [...slide.querySelectorAll('tbody tr')];
  return {
    kind: slide.dataset.fit || 'qr',
    heading: slide.querySelector('h2').innerText,
    rows: rows.map(r => r.cells[0].innerText),
    below: rows.filter(r => r.getBoundingClientRect().bottom > window.innerHeight).length,
  };
})"""

QR = """() => {
  document.querySelectorAll('#screen-slides [data-slide]')
    .forEach(s => s.classList.toggle('current', !!s.querySelector('.screen-qr')));
  const svg = document.querySelector('.screen-qr svg').getBoundingClientRect();
  const drawn = document.querySelector('.screen-qr svg path').getBoundingClientRect();
  return {svg: [svg.left + svg.width / 2, svg.width], drawn: [drawn.left + drawn.width / 2, drawn.width]};
}"""


def _slides_fit(page, players, pairs):
    slides = page.evaluate(SLIDES)
    assert all(s["below"] == 0 for s in slides), slides
    for kind, count in (("find", players), ("standings", pairs)):
        parts = [s for s in slides if s["kind"] == kind]
        assert sum(len(s["rows"]) for s in parts) == count, parts
        if len(parts) > 1:
            assert [s["heading"].split()[-1] for s in parts] == [
                f"{i}/{len(parts)}" for i in range(1, len(parts) + 1)
            ]
    return slides


def test_every_slide_fits_the_screen_and_follows_its_size(new_page):
    event = build_demo().event  # 16 pairs: round 1 closed, round 2 open
    pairs = Entry.objects.filter(event=event).count()
    page, problems, shoot = new_page("room-screen")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/e/{event.pk}/screen/?every=120")
    expect(page.locator("#screen-slides [data-slide].current")).to_have_count(1)
    large = _slides_fit(page, 2 * pairs, pairs)
    shoot("1080p")

    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_function(
        "n => document.querySelectorAll('#screen-slides [data-slide]').length > n",
        arg=len(large),
    )
    small = _slides_fit(page, 2 * pairs, pairs)
    assert len([s for s in small if s["kind"] == "find"]) > 1
    shoot("720p")

    qr = page.evaluate(QR)
    assert qr["drawn"][1] > 0.7 * qr["svg"][1] > 200, qr  # drawn at the box's size (22rem)
    assert abs(qr["drawn"][0] - qr["svg"][0]) < 2, qr  # and centred in it
    problems.assert_clean()


CURRENT = """() => {
  const slide = document.querySelector('#screen-slides [data-slide].current');
  const row = slide.querySelector('tbody tr');
  return {kind: slide.dataset.fit || 'qr', row: row ? row.innerText : null,
          rows: [...slide.querySelectorAll('tbody tr')].map(r => r.innerText),
          slides: document.querySelectorAll('#screen-slides [data-slide]').length};
}"""


def test_the_rotation_goes_on_from_the_slide_shown_when_the_lists_are_split_again(new_page):
    """A refit (a refresh, the clock's line appearing, a resize) may change the number of
    slides: the rotation went on from the old slide's number, jumping back to "find your table"
    from the standings and skipping slides."""
    event = build_demo().event
    page, problems, shoot = new_page("room-screen-refit")
    # Time stands still but for run_for: only the test moves the rotation on.
    start = datetime.datetime.now(datetime.UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + datetime.timedelta(seconds=1))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/e/{event.pk}/screen/?every=2")
    expect(page.locator("#screen-slides [data-slide].current")).to_have_count(1)
    for _tick in range(12):
        if page.evaluate(CURRENT)["kind"] == "standings":
            break
        page.clock.run_for(2000)
    before = page.evaluate(CURRENT)
    assert before["kind"] == "standings", before

    page.set_viewport_size({"width": 1280, "height": 600})
    assert page.evaluate("() => window.innerHeight") == 600
    # The browser's own resize event may come after the clock below has run: send one now.
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")
    page.clock.run_for(300)  # the resize's pause, well before the next slide
    after = page.evaluate(CURRENT)
    assert after["slides"] > before["slides"]
    assert after["kind"] == "standings" and before["row"] in after["rows"], (before, after)
    page.clock.run_for(2000)
    following = page.evaluate(CURRENT)
    assert following["kind"] in ("standings", "qr"), following
    problems.assert_clean()
