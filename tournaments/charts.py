"""Charts drawn on the server as inline SVG: no JavaScript, no CDN, and the same in a PDF.

Every chart has a ``<title>`` and an ``aria-label``; a trump is always written as its symbol and
letter (and name), never told by colour alone. Text is escaped: pair names come from people.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tournaments.labels import TRUMP_LETTER, trump_short
from tournaments.templatetags.cards import SVG_SUIT_FILL
from tournaments.textwidth import text_width

BOTIFARRA_FILL = "#5b4b8a"
# Presentation attributes, not a style: the Content-Security-Policy allows no inline styles.
FONT_SIZE = 12
FONT = f'font-family="DejaVu Sans,Arial,sans-serif" font-size="{FONT_SIZE}"'
MIN_PLOT = 240  # the bars' own width, at least
_ids = itertools.count(1)


def _w(text: str) -> float:
    return text_width(text, FONT_SIZE)


def trump_fill(trump: str) -> str:
    letter = TRUMP_LETTER.get(trump)
    return SVG_SUIT_FILL[letter] if letter else BOTIFARRA_FILL


@dataclass(frozen=True)
class Bar:
    table: int
    net_ns: int
    trump: str
    label: str = ""  # e.g. "3 – 7" (NS pair number – EW pair number)


def _open(width: int, height: int, title: str, desc: str) -> list[str]:
    n = next(_ids)
    return [
        # Drawn at its own width, narrower on a narrow screen (.chart in site.css).
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" {FONT} role="img" '
        f'aria-labelledby="chart-t{n} chart-d{n}" aria-label="{escape(title)}" class="chart">',
        f'<title id="chart-t{n}">{escape(title)}</title>',
        f'<desc id="chart-d{n}">{escape(desc)}</desc>',
    ]


def traveller_chart(board: int, bars: Sequence[Bar]) -> str:
    """Horizontal bars of the NS net score (NS score − EW score) at every table."""
    title = _("Board %(n)s: NS net score at each table") % {"n": board}
    desc = "; ".join(
        _("table %(t)s: %(net)s, trumps %(trump)s")
        % {"t": b.table, "net": b.net_ns, "trump": trump_short(b.trump)}
        for b in bars
    ) or _("No results yet.")
    # Words are looked up outside the f-strings: xgettext does not see a call inside one.
    ew_ahead, ns_ahead, table_word = _("EW ahead"), _("NS ahead"), _("Table")
    # Every column is as wide as its widest label in the reader's language (measured), so no
    # label is cut at the edge or drawn over its neighbour; the chart grows wider when needed
    # and the page scales it down.
    gap = 6
    label_w = max([_w(f"{table_word} {b.table}") for b in bars] + [0]) + 4 + gap
    value_w = max([_w(str(b.net_ns)) for b in bars] + [_w("0")]) + 4 + gap
    trump_w = max([_w(trump_short(b.trump)) for b in bars] + [0]) + gap
    plot_w = max(MIN_PLOT, _w(ew_ahead) + _w(ns_ahead) + 3 * gap)
    width = round(max(640, label_w + 2 * value_w + plot_w + trump_w))
    row_h, top = 26, 34
    height = top + row_h * max(len(bars), 1) + 30
    # Room on both sides of the bars for the value written at their end.
    plot_x0 = label_w + value_w
    plot_x1 = width - trump_w - value_w
    extent = max([abs(b.net_ns) for b in bars] + [1])
    zero = (plot_x0 + plot_x1) / 2
    scale = (plot_x1 - plot_x0) / 2 / extent
    out = _open(width, height, title, desc)
    out.append(f'<text x="{plot_x0}" y="16" fill="#444">{escape(ew_ahead)}</text>')
    out.append(
        f'<text x="{plot_x1}" y="16" text-anchor="end" fill="#444">{escape(ns_ahead)}</text>'
    )
    out.append(
        f'<line x1="{zero}" y1="{top - 8}" x2="{zero}" y2="{height - 22}" '
        'stroke="#333" stroke-width="1"/>'
    )
    for i, b in enumerate(bars):
        y = top + i * row_h
        w = abs(b.net_ns) * scale
        x = zero if b.net_ns >= 0 else zero - w
        out.append(f'<text x="4" y="{y + 15}">{escape(table_word)} {b.table}</text>')
        out.append(
            f'<rect x="{x:.1f}" y="{y + 3}" width="{max(w, 1.5):.1f}" height="{row_h - 8}" '
            f'fill="{trump_fill(b.trump)}"><title>{escape(trump_short(b.trump))}: '
            f"{b.net_ns}</title></rect>"
        )
        if b.net_ns >= 0:
            tx, anchor = zero + w + 4, "start"
        else:
            tx, anchor = zero - w - 4, "end"
        out.append(f'<text x="{tx:.1f}" y="{y + 15}" text-anchor="{anchor}">{b.net_ns}</text>')
        out.append(
            f'<text x="{plot_x1 + value_w:.1f}" y="{y + 15}" fill="{trump_fill(b.trump)}">'
            f"{escape(trump_short(b.trump))}</text>"
        )
    out.append(f'<text x="{zero}" y="{height - 6}" text-anchor="middle" fill="#444">0</text>')
    out.append("</svg>")
    return "".join(out)


def _spaced(first: int, last: int, pitch: float, room: float) -> list[int]:
    """The values from ``first`` to ``last`` to label on an axis where consecutive values are
    ``pitch`` apart and a label needs ``room``: both ends, and every step between that keeps
    labels apart."""
    step = max(1, math.ceil(room / pitch)) if pitch > 0 else 1
    values = list(range(first, last + 1, step))
    if values[-1] != last:
        if (last - values[-1]) * pitch < room and len(values) > 1:
            values.pop()
        values.append(last)
    return values


def rank_chart(name: str, history: Sequence[tuple[int, int]], pairs: int) -> str:
    """The pair's rank after each round (1 at the top)."""
    title = _("Rank of %(pair)s after each round") % {"pair": name}
    desc = "; ".join(
        _("after round %(r)s: rank %(rank)s") % {"r": r, "rank": rank} for r, rank in history
    ) or _("No standings yet.")
    rounds = [r for r, _rank in history] or [1]
    r0, r1 = min(rounds), max(rounds)
    worst = max([pairs] + [rank for _r, rank in history] + [2])
    after_round = _("After round")
    widest_rank = _w(str(worst))
    # Margins from the labels' measured widths: the rank numbers on the left, the label of the
    # last point on the right.
    width, height, top, bottom = 480, 220, 16, 36
    left = round(widest_rank + 12)
    right = round(widest_rank + 10)
    width = max(width, round(_w(after_round) + left + right))
    line_h = FONT_SIZE + 2

    def px(r: int) -> float:
        return left + (r - r0) * (width - left - right) / max(r1 - r0, 1)

    def py(rank: int) -> float:
        return top + (rank - 1) * (height - top - bottom) / max(worst - 1, 1)

    out = _open(width, height, title, desc)
    for rank in _spaced(1, worst, py(2) - py(1), line_h):
        y = py(rank)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#444">{rank}</text>'
        )
    round_pitch = px(r0 + 1) - px(r0)
    for r in _spaced(r0, r1, round_pitch, _w(str(r1)) + 6):
        out.append(
            f'<text x="{px(r):.1f}" y="{height - bottom + 18}" text-anchor="middle" '
            f'fill="#444">{r}</text>'
        )
    out.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 4}" text-anchor="middle" '
        f'fill="#444">{escape(after_round)}</text>'
    )
    if history:
        points = " ".join(f"{px(r):.1f},{py(rank):.1f}" for r, rank in history)
        out.append(f'<polyline points="{points}" fill="none" stroke="#a4161a" stroke-width="2"/>')
        # A point's rank is written beside it only when the points are far enough apart for
        # the numbers not to touch; the axis and each point's tooltip still tell it.
        labelled = round_pitch >= widest_rank + 8
        for r, rank in history:
            point = _("after round %(r)s: rank %(rank)s") % {"r": r, "rank": rank}
            out.append(
                f'<circle cx="{px(r):.1f}" cy="{py(rank):.1f}" r="4" fill="#a4161a">'
                f"<title>{escape(point)}</title></circle>"
            )
            if labelled:
                ly = max(py(rank) - 6, FONT_SIZE)
                out.append(f'<text x="{px(r) + 6:.1f}" y="{ly:.1f}">{rank}</text>')
    out.append("</svg>")
    return "".join(out)


def pct(value: float | None) -> str:
    """A percentage in the active language's format (``52,3`` in Catalan)."""
    return "" if value is None else number_format(value, 1)
