"""Every word of the game in the reader's language: suits, trumps, seats, calls, the rules an
illegal card breaks, and the engine's problems (translated by their code, never by their
English words).

The pages, the PDFs, the API's messages and the exports all take their words from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy, pgettext, pgettext_lazy

import engine
from engine import ProblemCode, Rule

SEAT_ORDER = ("N", "E", "S", "W")
SUIT_LETTERS = ("o", "c", "e", "b")
TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")
CALLS = ("contro", "recontro", "sant_vicenc")
SYMBOLS = {"o": "♦", "c": "♥", "e": "♠", "b": "♣"}
TRUMP_LETTER = {"oros": "o", "copes": "c", "espases": "e", "bastos": "b"}
NO_TRUMP_SYMBOL = "∅"


# --- suits, trumps, seats, calls -----------------------------------------------------------


def suit_names() -> dict[str, str]:
    """Suit names by letter: oros, copes, espases, bastos (the Catalan names in every language
    that has no others)."""
    return {
        "o": pgettext("suit", "oros"),
        "c": pgettext("suit", "copes"),
        "e": pgettext("suit", "espases"),
        "b": pgettext("suit", "bastos"),
    }


def trump_name(trump: str) -> str:
    if trump == "botifarra":
        return _("botifarra (no trumps)")
    letter = TRUMP_LETTER.get(trump)
    return suit_names()[letter] if letter else trump


def trump_symbol(trump: str) -> str:
    letter = TRUMP_LETTER.get(trump)
    return SYMBOLS[letter] if letter else NO_TRUMP_SYMBOL


def trump_short(trump: str) -> str:
    """``♥ C copes``; botifarra has no suit symbol: ``BT botifarra``."""
    letter = TRUMP_LETTER.get(trump)
    if letter is None:
        return f"BT {trump_name(trump)}"
    return f"{SYMBOLS[letter]} {letter.upper()} {trump_name(trump)}"


def trump_choices() -> list[dict[str, str]]:
    return [{"value": t, "label": trump_name(t), "symbol": trump_symbol(t)} for t in TRUMPS]


def trump_form_choices() -> list[tuple[str, str]]:
    """A form field's choices, named as the table's own form names them (``♦ oros``)."""
    return [(c["value"], f"{c['symbol']} {c['label']}") for c in trump_choices()]


# Seats and sides as people read them. The data (play records, the API, the exports for
# programs, the database) keeps the codes N, E, S, W and NS, EW; what people read is in their
# language: in Catalan and Spanish West is Oest / Oeste, so the letters are N, E, S, O and the
# sides NS, EO (docs/players.md). Every page, PDF and export takes them from here.
SIDES = ("NS", "EW")


def seat_names() -> dict[str, str]:
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}


def seat_name(seat: str) -> str:
    return seat_names().get(seat, seat)


def seat_letters() -> dict[str, str]:
    """``{"N": "N", "E": "E", "S": "S", "W": "O"}`` in Catalan and Spanish."""
    return {
        "N": pgettext("seat letter", "N"),
        "E": pgettext("seat letter", "E"),
        "S": pgettext("seat letter", "S"),
        "W": pgettext("seat letter", "W"),
    }


def seat_letter(seat: str) -> str:
    return seat_letters().get(seat, seat)


def seat_of(seat: str) -> str:
    """The seat after "of", as the language joins them: ``d'Oest``, ``de Nord`` in Catalan."""
    forms = {
        "N": pgettext("of seat", "of North"),
        "E": pgettext("of seat", "of East"),
        "S": pgettext("of seat", "of South"),
        "W": pgettext("of seat", "of West"),
    }
    return forms.get(seat, seat)


def side_labels() -> dict[str, str]:
    """``{"NS": "NS", "EW": "EO"}`` in Catalan and Spanish."""
    return {"NS": pgettext("side", "NS"), "EW": pgettext("side", "EW")}


def side_label(side: str) -> str:
    return side_labels().get(side, side)


def side_name(side: str) -> str:
    """``North–South``, ``East–West`` (Est–Oest, Este–Oeste)."""
    return {"NS": _("North–South"), "EW": _("East–West")}.get(side, side)


side_name_lazy = lazy(side_name, str)
"""``side_name`` for what is built at import: form labels and choices."""


def side_of(side: str) -> str:
    """The side after "of", as the language joins them: ``d'EO``, ``de NS`` in Catalan."""
    return {"NS": pgettext("of side", "of NS"), "EW": pgettext("of side", "of EW")}.get(side, side)


def other_side(side: str) -> str:
    return {"NS": "EW", "EW": "NS"}.get(side, "")


def sides_text(ns: object, ew: object, *, sep: str = " · ") -> str:
    """``NS 12 · EO 60``: a pair of numbers by side, with the reader's side letters."""
    labels = side_labels()
    return f"{labels['NS']} {ns}{sep}{labels['EW']} {ew}"


CALL_NAMES: dict[str, Promise] = {
    "contro": pgettext_lazy("call", "contro"),
    "recontro": pgettext_lazy("call", "recontro"),
    "sant_vicenc": pgettext_lazy("call", "Sant Vicenç"),
}


def call_name(call: str) -> str:
    name = CALL_NAMES.get(call)
    return str(name) if name is not None else call


def calls_text(doubles: Any) -> str:
    """``contro (O), recontro (S)`` (the reader's seat letters), or "none"."""
    if not doubles:
        return _("none")
    if not isinstance(doubles, list):
        return str(doubles)
    parts = []
    for call in doubles:
        if isinstance(call, Mapping):
            seat = seat_letter(str(call.get("seat", "?")))
            parts.append(f"{call_name(str(call.get('call')))} ({seat})")
        else:
            parts.append(str(call))
    return ", ".join(parts)


def card_text(token: Any) -> str:
    """``11o`` → ``11♦`` for plain-text sentences (the pages use the {% card %} tag)."""
    text = str(token)
    return f"{text[:-1]}{SYMBOLS[text[-1]]}" if text[-1:] in SYMBOLS else text


# --- the rules an illegal card breaks ------------------------------------------------------

RULE_TEXT: dict[str, Promise] = {
    Rule.FOLLOW_SUIT: gettext_lazy("had to follow suit"),
    Rule.MUST_BEAT: gettext_lazy("had to beat the winning card with a card of the suit led"),
    Rule.MUST_TRUMP: gettext_lazy("was void in the suit led and had to trump, an opponent winning"),
    Rule.MUST_OVERTRUMP: gettext_lazy(
        "was void in the suit led and had to overtrump the opponent's trump"
    ),
    Rule.LOWEST_CARD: gettext_lazy("had to play the lowest card of that suit"),
}

# Rules of one ruleset only: named beside the rule, as players know them.
RULESET_OF_RULE: dict[str, str] = {Rule.LOWEST_CARD: "obligada"}


def rule_text(rule: str) -> str:
    """What the player had to do: ``had to follow suit``; a rule of one ruleset names it:
    ``had to play the lowest card of that suit (obligada)``."""
    text = RULE_TEXT.get(rule)
    if text is None:
        return rule
    ruleset = RULESET_OF_RULE.get(rule)
    return f"{text} ({ruleset})" if ruleset else str(text)


def rule_sentence(rule: str | None, seat: str) -> str:
    """``West had to follow suit (R7.2).``: the broken rule in words, with its rules.md
    section (the engine's :class:`engine.Rule` carries it)."""
    if not rule:
        return ""
    section = Rule(rule).section
    if ruleset := RULESET_OF_RULE.get(rule):
        section = f"{ruleset}, {section}"  # "(obligada, R8)", not "(obligada) (R8)"
    return _("%(seat)s %(rule)s (%(section)s).") % {
        "seat": seat_name(seat),
        "rule": str(RULE_TEXT.get(rule, rule)),
        "section": section,
    }


# --- the engine's problems, by code --------------------------------------------------------

PROBLEM_TEXT: dict[ProblemCode, Promise] = {
    ProblemCode.RECORD_NOT_OBJECT: gettext_lazy("A play record must be a JSON object."),
    ProblemCode.NOT_REPLAYABLE: gettext_lazy("The record cannot be replayed."),
    ProblemCode.MORE_PROBLEMS: gettext_lazy(
        "%(count)s more problems were found and are not listed."
    ),
    ProblemCode.FORMAT_MISSING: gettext_lazy("The format is missing: it is %(format)s."),
    ProblemCode.FORMAT_UNSUPPORTED: gettext_lazy(
        "%(value)s is not a format this site reads: %(format)s."
    ),
    ProblemCode.RULESET_UNKNOWN: gettext_lazy(
        "%(value)s is not a ruleset: lliure or obligada (R11)."
    ),
    ProblemCode.RULESET_MISMATCH: gettext_lazy(
        "The record says %(ruleset)s but the event plays %(event_ruleset)s (R11)."
    ),
    ProblemCode.DEAL_MISSING: gettext_lazy("The deal is missing: its dealer and hands (R3)."),
    ProblemCode.DEALER_MISSING: gettext_lazy("Say who dealt: N, E, S or W (R3)."),
    ProblemCode.DEALER_NOT_A_SEAT: gettext_lazy("%(value)s is not a seat: N, E, S or W (R3)."),
    ProblemCode.DEALER_MISMATCH: gettext_lazy(
        "The dealer of board %(board)s is %(dealer)s, not %(seat)s (R3)."
    ),
    ProblemCode.HANDS_REQUIRED: gettext_lazy("The hands are needed outside an event (R3)."),
    ProblemCode.HANDS_NOT_OBJECT: gettext_lazy("The hands must be given seat by seat (R3)."),
    ProblemCode.HAND_NOT_LIST: gettext_lazy("A hand must be a list of 12 cards (R3)."),
    ProblemCode.HAND_SIZE: ngettext_lazy(
        "%(seat)s holds %(count)s card; a hand has 12 (R3).",
        "%(seat)s holds %(count)s cards; a hand has 12 (R3).",
        "count",
    ),
    ProblemCode.HAND_MISSING: gettext_lazy("The hand %(of_seat)s is missing (R3)."),
    ProblemCode.HAND_MISMATCH: gettext_lazy(
        "The hand %(of_seat)s is not the hand of board %(board)s (R3)."
    ),
    ProblemCode.CARD_DEALT_TWICE: gettext_lazy(
        "%(card)s is dealt twice: it is also at %(first)s (R1: 48 different cards)."
    ),
    ProblemCode.CARDS_MISSING: gettext_lazy(
        "Cards missing from the deal: %(cards)s (R1: the deal holds all 48 cards)."
    ),
    ProblemCode.NOT_A_CARD: gettext_lazy(
        "%(value)s is not a card (R1): write the rank then the suit letter, like 9o."
    ),
    ProblemCode.NOT_A_SEAT: gettext_lazy("%(value)s is not a seat: N, E, S or W."),
    ProblemCode.SEAT_MISSING: gettext_lazy("Say who made the call: N, E, S or W."),
    ProblemCode.CHOICE_MISSING: gettext_lazy("Say who chose the trump and which trump (R4)."),
    ProblemCode.DELEGATED_MISSING: gettext_lazy("Say whether the dealer delegated (R4)."),
    ProblemCode.DELEGATED_NOT_BOOL: gettext_lazy(
        "“Delegated” must be yes or no, not %(value)s (R4)."
    ),
    ProblemCode.NOT_A_TRUMP: gettext_lazy(
        "%(value)s is not a trump: choose oros, copes, espases, bastos or botifarra (R4)."
    ),
    ProblemCode.TRUMP_MISSING: gettext_lazy(
        "Say which trump was chosen: oros, copes, espases, bastos or botifarra (R4)."
    ),
    ProblemCode.DOUBLES_NOT_LIST: gettext_lazy("The calls must be a list (R5)."),
    ProblemCode.CALL_NOT_OBJECT: gettext_lazy("Each call needs a seat and a call (R5)."),
    ProblemCode.NOT_A_CALL: gettext_lazy(
        "%(value)s is not a call: contro, recontro or Sant Vicenç (R5)."
    ),
    ProblemCode.CALL_MISSING: gettext_lazy(
        "Say which call was made: contro, recontro or Sant Vicenç (R5)."
    ),
    ProblemCode.CALL_REPEATED: gettext_lazy(
        "%(call)s was already called: each call is made at most once (R5)."
    ),
    ProblemCode.CALL_OUT_OF_ORDER: gettext_lazy(
        "%(call)s is only allowed after a %(before)s (R5)."
    ),
    ProblemCode.SANT_VICENC_NOT_ALLOWED: gettext_lazy(
        "Sant Vicenç is not allowed in a botifarra hand under this event's rules (R5, R11)."
    ),
    ProblemCode.RECONTRO_WRONG_PAIR: gettext_lazy(
        "Recontro is called by the pair that chose (%(pair)s), not by %(seat)s (R5)."
    ),
    ProblemCode.CALL_WRONG_PAIR: gettext_lazy(
        "%(call)s is called by the opponents (%(pair)s) of the pair that chose, not by "
        "%(seat)s (R5)."
    ),
    ProblemCode.PLAY_MISSING: gettext_lazy("The cards played are missing (R10)."),
    ProblemCode.PLAY_TOO_LONG: gettext_lazy(
        "The play holds %(count)s cards; a whole hand has 48 (R10)."
    ),
    ProblemCode.PLAY_TOO_SHORT: ngettext_lazy(
        "The play stops after %(count)s card without an illegal card; a whole hand has 48 (R10).",
        "The play stops after %(count)s cards without an illegal card; a whole hand has 48 (R10).",
        "count",
    ),
    ProblemCode.CARD_NOT_HELD: gettext_lazy("%(card)s is not in the hand %(of_seat)s."),
    ProblemCode.CARD_ALREADY_PLAYED: gettext_lazy("%(card)s was already played (%(first)s)."),
    ProblemCode.ILLEGAL_CARD: gettext_lazy("%(card)s is an illegal card (R10)."),
    ProblemCode.HAND_COMPLETE: gettext_lazy("The hand is complete: no card is left to play."),
    ProblemCode.TOTALS_OR_OFFENDER: gettext_lazy(
        "Give either the two hand totals or the pair that played an illegal card."
    ),
    ProblemCode.TOTALS_NOT_OBJECT: gettext_lazy(
        "The totals need a number for NS and one for EW (R9)."
    ),
    ProblemCode.TOTAL_NOT_NUMBER: gettext_lazy(
        "The total %(of_pair)s must be a whole number from 0 to 72, not %(value)s (R9)."
    ),
    ProblemCode.TOTALS_UNKNOWN_KEYS: gettext_lazy("Unknown keys in the totals: %(keys)s."),
    ProblemCode.TOTALS_SUM: gettext_lazy("The two totals must add up to 72, not %(sum)s (R9)."),
    ProblemCode.NOT_A_PAIR: gettext_lazy("%(value)s is not a pair: NS or EW (R10)."),
}
# Params shown as people say them: a seat by its name, a pair by its side letters; the
# messages that put a seat or a pair after "of" take it joined as the language does (``of_seat``,
# ``of_pair``: "d'Oest", "d'EO" in Catalan).
_SEAT_PARAMS = ("seat", "dealer")
_PAIR_PARAMS = ("pair",)
_CALL_PARAMS = ("call", "before")  # the format's tokens (sant_vicenc) as the calls' names


@dataclass(frozen=True)
class FieldProblem:
    """A problem in the reader's language, with the path of the value it is about: what pages
    and the API show (``InvalidSubmission`` carries them)."""

    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


def problem_text(problem: engine.Problem) -> str:
    template = PROBLEM_TEXT.get(problem.code)
    if template is None:
        return problem.message
    params: dict[str, Any] = {}
    for key, value in problem.params.items():
        if key in _SEAT_PARAMS and isinstance(value, str):
            params[key] = seat_name(value)
            params[f"of_{key}"] = seat_of(value)
        elif key in _PAIR_PARAMS and isinstance(value, str):
            params[key] = side_label(value)
            params[f"of_{key}"] = side_of(value)
        elif key in _CALL_PARAMS and isinstance(value, str):
            params[key] = call_name(value)
        else:
            params[key] = value
    text = str(template % params)  # a plural picks its form by the params (ngettext_lazy)
    if "call" in params and text.startswith(params["call"]):
        text = text[:1].upper() + text[1:]  # a sentence that opens with the call's name
    return text


def field_problems(problems: Iterable[engine.Problem], prefix: str = "") -> list[FieldProblem]:
    """The engine's problems in the reader's language; ``prefix`` is put before their paths
    (``record.`` for a record inside an API body)."""
    out = []
    for p in problems:
        path = f"{prefix}{p.path}" if p.path else prefix.rstrip(".")
        out.append(FieldProblem(path, problem_text(p)))
    return out


def verdict_json(verdict: engine.Verdict) -> dict[str, Any]:
    """The engine's verdict as play-record.md spells it, an invalid record's problems in the
    reader's language (their paths unchanged), as a submitted record's are."""
    data = verdict.to_json()
    if verdict.outcome == "invalid":
        data["problems"] = [p.to_json() for p in field_problems(verdict.problems)]
    return data
