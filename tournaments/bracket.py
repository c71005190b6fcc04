"""The knockout bracket drawn on the server as inline SVG (no JavaScript, the same in a PDF).

It draws what the snapshot's stage holds (``tournaments.stages``): each knockout round a column,
each match a box of two lines (the better seed on top), the winner in bold with a mark, the
counted totals once its round is closed. Names come from people: every text is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from django.utils.translation import gettext as _

from tournaments.charts import FONT

BOX_W, LINE_H, GAP, COL_GAP, HEAD = 230, 22, 18, 34, 26
NAME_CHARS = 26


def round_name(matches: int) -> str:
    """``Final``, ``Semi-finals``, ``Quarter-finals``, ``Round of 16``…"""
    if matches == 1:
        return _("Final")
    if matches == 2:
        return _("Semi-finals")
    if matches == 4:
        return _("Quarter-finals")
    return _("Round of %(n)s") % {"n": 2 * matches}


def _short(text: str) -> str:
    return text if len(text) <= NAME_CHARS else text[: NAME_CHARS - 1] + "…"


def bracket_svg(rounds: Sequence[Sequence[dict[str, Any]]], name: Callable[[int], str]) -> str:
    """The bracket of ``rounds`` (stage["bracket"]); ``name(entry_id)`` labels a pair."""
    title = _("Knockout bracket")
    first = len(rounds[0]) if rounds else 0
    slot = 2 * LINE_H + GAP
    width = len(rounds) * (BOX_W + COL_GAP)
    height = HEAD + max(first, 1) * slot
    bye, waiting = _("bye"), _("to be decided")
    desc_parts = []
    out: list[str] = []
    centres: list[list[float]] = []
    for r, matches in enumerate(rounds):
        x = r * (BOX_W + COL_GAP)
        label = round_name(len(matches))
        out.append(f'<text x="{x + 4}" y="16" font-weight="bold">{escape(label)}</text>')
        span = slot * (2**r)
        col: list[float] = []
        for i, m in enumerate(matches):
            cy = HEAD + span * i + span / 2
            col.append(cy)
            y0 = cy - LINE_H
            out.append(
                f'<rect x="{x}" y="{y0:.1f}" width="{BOX_W}" height="{2 * LINE_H}" '
                'fill="#fff" stroke="#555" rx="3"/>'
            )
            out.append(
                f'<line x1="{x}" y1="{cy:.1f}" x2="{x + BOX_W}" y2="{cy:.1f}" stroke="#ccc"/>'
            )
            score = m.get("score")
            for k, key in enumerate(("top", "bottom")):
                entry = m.get(key)
                text = (bye if r == 0 else waiting) if entry is None else name(entry)
                won = entry is not None and entry == m.get("winner")
                weight = ' font-weight="bold"' if won else ""
                fill = "#222" if entry is not None else "#777"
                ty = y0 + LINE_H * k + 15
                mark = "▶ " if won else ""
                out.append(
                    f'<text x="{x + 6}" y="{ty:.1f}" fill="{fill}"{weight}>'
                    f"{escape(mark + _short(text))}</text>"
                )
                if score is not None and entry is not None:
                    out.append(
                        f'<text x="{x + BOX_W - 6}" y="{ty:.1f}" text-anchor="end"{weight}>'
                        f"{score[k]}</text>"
                    )
            a = name(m["top"]) if m.get("top") is not None else bye if r == 0 else waiting
            b = name(m["bottom"]) if m.get("bottom") is not None else bye if r == 0 else waiting
            part = _("%(round)s: %(a)s against %(b)s") % {"round": label, "a": a, "b": b}
            if m.get("winner") is not None:
                part += ", " + _("won by %(w)s") % {"w": name(m["winner"])}
            desc_parts.append(part)
        centres.append(col)
    for r in range(1, len(centres)):
        x_from = (r - 1) * (BOX_W + COL_GAP) + BOX_W
        x_to = r * (BOX_W + COL_GAP)
        xm = x_from + COL_GAP / 2
        for i, cy in enumerate(centres[r]):
            for src in (centres[r - 1][2 * i], centres[r - 1][2 * i + 1]):
                out.append(
                    f'<path d="M{x_from},{src:.1f} H{xm} V{cy:.1f} H{x_to}" '
                    'fill="none" stroke="#555"/>'
                )
    desc = "; ".join(desc_parts) or _("No knockout yet.")
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" {FONT} role="img" aria-labelledby="bracket-t bracket-d" '
        f'aria-label="{escape(title)}" class="chart bracket" id="bracket">',
        f'<title id="bracket-t">{escape(title)}</title>',
        f'<desc id="bracket-d">{escape(desc)}</desc>',
    ]
    return "".join(head + out + ["</svg>"])
