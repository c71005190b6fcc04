"""The director's console's board cells, rendered in Python.

A console of 200 tables has 1,200 cells and is re-rendered each time a result arrives: through
template tags (a translation, a URL and a time format per cell) it cost about a third of a second
of CPU. Here the words and the URL patterns are looked up once per rendering and each cell is one
string, built from words escaped once. The markup is the one the console's script and tests read (``data-cell``,
``data-state``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.dates import local_time
from tournaments.models import BoardUnlock

register = template.Library()

_ID = 987654321  # stands for an id in a reversed URL


def _words(event_pk: int) -> dict[str, Any]:
    def pattern(name: str, *args: int) -> str:
        return escape(reverse(name, args=[*args, _ID])).replace(str(_ID), "{}")

    labels = {
        "not_started": _("not started"),
        "missing": _("missing"),
        "owed": _("played, result owed"),
        "forfeited": _("forfeited"),
        "not_played": _("not played"),
        "entered": _("entered"),
        "confirmed": _("confirmed"),
        "disputed": _("disputed"),
        "ruled": _("ruled"),
    }
    return {
        "labels": {state: escape(text) for state, text in labels.items()},
        "declared": escape(_("declared played")),
        "correct": escape(_("Correct")),
        "review": escape(_("Review")),
        "board": escape(_("Board %(n)s")),
        "seen": escape(_("cards seen %(t)s")),
        "result": escape(_("result %(t)s")),
        "dispute_url": pattern("referee:dispute"),
        "traveller_url": pattern("public:traveller", event_pk),
        "correct_url": pattern("tournaments:result_correct", event_pk),
        "review_url": pattern("referee:review", event_pk),
    }


@register.simple_tag(takes_context=True)
def console_cell(context: template.Context, row: Any, cell: Any) -> SafeString:
    words = context.render_context.get("console_words")
    event = context["event"]
    if words is None:
        words = context.render_context["console_words"] = _words(event.pk)
    # Every piece below is a number, a state name or a word escaped once in _words.
    state = escape(cell.state)
    owed = cell.declared_without_result
    label = words["labels"].get("owed" if owed and cell.state == "missing" else cell.state, state)
    badge = (
        f'<span class="badge {state}{" owed" if owed else ""}" '
        f'data-cell="{int(row.table.number)}-{int(cell.board)}" data-state="{state}">{label}</span>'
    )
    if cell.dispute_id:
        badge = f'<a href="{words["dispute_url"].format(int(cell.dispute_id))}">{badge}</a>'
    elif cell.result_id:
        badge = f'<a href="{words["traveller_url"].format(int(cell.board))}">{badge}</a>'
    parts = [badge]
    if cell.unlocked_at:
        seen = words["seen"] % {"t": escape(local_time(cell.unlocked_at))}
        if cell.unlock_reason == BoardUnlock.Reason.DECLARED:
            seen += f" ({words['declared']})"
        if cell.result_at:
            seen += ", " + words["result"] % {"t": escape(local_time(cell.result_at))}
        parts.append(f'\n<small class="unlock muted">{seen}</small>')
    if context.get("can_change") and event.status == "finished" and cell.result_id:
        url = words["correct_url"].format(int(cell.result_id))
        parts.append(f'\n<a class="small" href="{url}">{words["correct"]}</a>')
    elif context.get("rulings_open") and cell.result_id and not cell.dispute_id:
        # A board nobody disputed: the referee may still open a review of it.
        url = words["review_url"].format(int(cell.result_id))
        parts.append(f'\n<a class="small" href="{url}">{words["review"]}</a>')
    board = words["board"] % {"n": int(cell.board)}
    return mark_safe(f'<td class="board-col" data-label="{board}">{"".join(parts)}</td>')  # noqa: S308
