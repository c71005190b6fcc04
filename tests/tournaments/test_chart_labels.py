"""Issue 15: the charts' labels stay inside the chart and off each other, in every language and
for a full field: every <text> is measured with the PDF's font (Pillow, DejaVu Sans) and its box
checked against the view box and against every other label."""

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.utils import translation
from PIL import ImageFont

from tournaments import charts

FONT_FILE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
SVG = "{http://www.w3.org/2000/svg}"
LANGUAGES = ("ca", "es", "en")
TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")

pytestmark = pytest.mark.skipif(not FONT_FILE.exists(), reason="DejaVu Sans is not installed")


def label_boxes(
    svg: str,
) -> tuple[float, float, list[tuple[str, tuple[float, float, float, float]]]]:
    root = ET.fromstring(svg)
    _x, _y, width, height = (float(v) for v in root.get("viewBox").split())
    size = float(root.get("font-size"))
    font = ImageFont.truetype(str(FONT_FILE), round(size))
    boxes = []
    for node in root.iter(f"{SVG}text"):
        text = "".join(node.itertext())
        w = font.getlength(text)
        x, y = float(node.get("x")), float(node.get("y"))
        anchor = node.get("text-anchor", "start")
        x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        boxes.append((text, (x0, y - 0.76 * size, x0 + w, y + 0.24 * size)))
    return width, height, boxes


def assert_labels_fit(svg: str) -> None:
    width, height, boxes = label_boxes(svg)
    assert boxes
    for text, (x0, y0, x1, y1) in boxes:
        assert x0 >= 0 and x1 <= width, f"{text!r} runs out sideways: {x0:.1f}–{x1:.1f} of {width}"
        assert y0 >= 0 and y1 <= height, f"{text!r} runs out: {y0:.1f}–{y1:.1f} of {height}"
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, f"{ta!r} {a} overlaps {tb!r} {b}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_traveller_chart_labels_fit_for_16_tables_of_every_trump(lang):
    bars = [
        charts.Bar(table=t, net_ns=(-1) ** t * (t * 9 % 101), trump=TRUMPS[t % len(TRUMPS)])
        for t in range(1, 17)
    ]
    with translation.override(lang):
        svg = charts.traveller_chart(12, bars)
        assert charts.trump_short("botifarra") in svg  # the full words, not cut
    assert_labels_fit(svg)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_traveller_chart_labels_fit_with_one_lopsided_table(lang):
    with translation.override(lang):
        assert_labels_fit(charts.traveller_chart(1, [charts.Bar(1, -144, "botifarra")]))
        assert_labels_fit(charts.traveller_chart(1, [charts.Bar(1, 144, "botifarra")]))


@pytest.mark.parametrize("pairs", [4, 15, 16, 40, 120])
@pytest.mark.parametrize("rounds", [1, 2, 7, 30])
def test_rank_chart_labels_fit_and_do_not_overlap(pairs, rounds):
    history = [(r, 1 + (r * 7) % pairs) for r in range(1, rounds + 1)]
    history[-1] = (rounds, pairs)  # last place at the end: the bottom corner
    for lang in LANGUAGES:
        with translation.override(lang):
            svg = charts.rank_chart("A pair", history, pairs)
        assert_labels_fit(svg)
        _w, _h, boxes = label_boxes(svg)
        ticks = {t for t, _b in boxes}
        assert "1" in ticks and str(pairs) in ticks  # both ends of the rank axis are named
