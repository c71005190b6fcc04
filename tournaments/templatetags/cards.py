"""Cards and deals for people: suit symbol, letter and colour together, never colour alone.

Used by every page that shows cards (table entry, referee replay, hand records, PDFs).
"""

from collections.abc import Iterable, Mapping

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

import engine
from tournaments.actors import label_for_display
from tournaments.labels import (
    SEAT_ORDER,
    SYMBOLS,
    seat_letter,
    seat_names,
    side_label,
    side_name,
    suit_names,
    trump_name,
)

register = template.Library()


def _token(card: str | int) -> str:
    return engine.card_token(card) if isinstance(card, int) else card


@register.simple_tag
def card(token: str | int) -> SafeString:
    """``9o`` → a span with the rank, the suit symbol and the suit letter."""
    tok = _token(token)
    rank, letter = tok[:-1], tok[-1]
    name = suit_names()[letter]
    return format_html(
        '<span class="card-token suit-{}" title="{} {}">{}<span aria-hidden="true">{}</span>'
        '<span class="visually-hidden"> {}</span></span>',
        letter,
        rank,
        name,
        rank,
        SYMBOLS[letter],
        name,
    )


@register.simple_tag
def cards(tokens: Iterable[str | int]) -> SafeString:
    return format_html_join(" ", "{}", ((card(t),) for t in tokens))


@register.filter
def trump_label(trump: str) -> str:
    return trump_name(trump)


@register.filter
def seat_label(seat: str) -> str:
    return seat_names().get(seat, seat)


@register.filter(name="seat_letter")
def seat_letter_filter(seat: str) -> str:
    """``W`` → ``O`` in Catalan and Spanish (labels.seat_letter)."""
    return seat_letter(str(seat))


@register.filter
def side(code: str) -> str:
    """``EW`` → ``EO`` in Catalan and Spanish (labels.side_label); anything else unchanged."""
    return side_label(str(code)) if code else code


@register.filter(name="side_name")
def side_name_filter(code: str) -> str:
    """``EW`` → ``East–West`` in the reader's language."""
    return side_name(str(code))


def _by_suit(tokens: Iterable[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {letter: [] for letter in SYMBOLS}
    for tok in tokens:
        groups[tok[-1]].append(tok)
    return groups


@register.simple_tag
def hand_lines(tokens: Iterable[str | int]) -> SafeString:
    """One line per suit, strongest first: ``♦ o: 9 1 12`` (— for a void)."""
    groups = _by_suit(_token(t) for t in tokens)
    lines = []
    for letter, toks in groups.items():
        ranks = " ".join(t[:-1] for t in toks) or "—"
        lines.append(
            format_html(
                '<div class="suit-line suit-{}"><span aria-hidden="true">{}</span> '
                '<abbr title="{}">{}</abbr> {}</div>',
                letter,
                SYMBOLS[letter],
                suit_names()[letter],
                letter.upper(),
                ranks,
            )
        )
    return mark_safe("".join(lines))


@register.simple_tag
def deal_diagram(
    hands: Mapping[str, Iterable[str]],
    dealer: str = "",
    board: int | None = None,
    highlight: str = "",
) -> SafeString:
    """The four hands around the table (HTML grid: prints and reads on a phone)."""
    seats = seat_names()
    parts = []
    for seat in SEAT_ORDER:
        tokens = list(hands.get(seat, []))
        classes = "hand seat-" + seat + (" dealer" if seat == dealer else "")
        if seat == highlight:
            classes += " to-move"
        parts.append(
            format_html(
                '<div class="{}"><div class="seat-name">{}</div>{}</div>',
                classes,
                seats[seat],
                hand_lines(tokens),
            )
        )
    middle = format_html(
        '<div class="mid">{}{}</div>',
        format_html("{} {}<br>", _("Board"), board) if board is not None else "",
        format_html("{}: {}", _("Dealer"), seats.get(dealer, dealer)) if dealer else "",
    )
    return format_html(
        '<div class="deal avoid-break">{}{}</div>', mark_safe("".join(parts)), middle
    )


SVG_SUIT_FILL = {"o": "#8a6d00", "c": "#b3261e", "e": "#1f4e8c", "b": "#2e6b2e"}


@register.filter
def actor_label(label: str) -> str:
    """Who did something, as stored (English), in the reader's language."""

    return label_for_display(label)
