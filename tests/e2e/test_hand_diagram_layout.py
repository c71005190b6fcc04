"""A hand's long suit that wraps must not start a line with bare ranks under the suit mark, where
a reader would take them for the next suit (hand records, travellers, the referee's replay)."""

from pathlib import Path

import pytest
from django.conf import settings

from tournaments.templatetags.cards import deal_diagram

# Seven and eight cards of one suit, as seeded deals often give.
HANDS = {
    "N": ["1o", "12o", "11o", "10o", "7o", "5o", "4o", "3c", "9e", "1b", "2b", "6b"],
    "E": ["2o", "3o", "6o", "1c", "12c", "11c", "10c", "9c", "7c", "5c", "4c", "12e"],
    "S": ["8o", "9o", "2c", "6c", "8c", "1e", "11e", "10e", "7e", "3b", "4b", "5b"],
    "W": ["2e", "3e", "4e", "5e", "6e", "8e", "7b", "8b", "9b", "10b", "11b", "12b"],
}

# Per suit line: the right edge of its mark (symbol and letter), and the left edge of every
# rank that starts a line of its own after the first.
MEASURE = """() => [...document.querySelectorAll('.suit-line')].map((line) => {
  const mark = line.querySelector('abbr').getBoundingClientRect().right;
  const text = line.lastChild;
  const range = document.createRange();
  const lefts = [];
  let top = null;
  const re = /\\S+/g;
  let m;
  while ((m = re.exec(text.textContent))) {
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const r = range.getBoundingClientRect();
    if (top !== null && r.top > top + 2) lefts.push(r.left);
    top = top === null ? r.top : Math.max(top, r.top);
  }
  return {mark, lefts};
})"""


def _css() -> str:
    static = Path(settings.BASE_DIR) / "static" / "css"
    return "".join((static / name).read_text() for name in ("site.css", "public.css"))


@pytest.mark.parametrize("width", [150, 200, 360])
def test_a_wrapped_suit_continues_under_its_ranks_not_under_its_mark(browser, width):
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        page.set_content(f"<style>{_css()}</style><body>{deal_diagram(HANDS, 'N', 1)}</body>")
        lines = page.evaluate(MEASURE)
        wrapped = [line for line in lines if line["lefts"]]
        assert wrapped, "no suit wrapped at this width: the test checks nothing"
        for line in wrapped:
            assert min(line["lefts"]) >= line["mark"] - 0.5, line
    finally:
        page.close()
