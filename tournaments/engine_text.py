"""The engine's problem sentences in the visitor's language.

The engine stays free of Django, so it writes its problems in English; this table turns the
sentences people meet at the table (short results, calls, play records) into translatable
ones. A sentence with no entry here is shown as the engine wrote it.
"""

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine

_SEAT = r"(?P<seat>[NESW])"
PATTERNS: list[tuple[re.Pattern[str], Promise]] = [
    (
        re.compile(r"^delegated must be true or false, not (?P<value>.+) \(R4\)$"),
        _("“Delegated” must be yes or no, not %(value)s (R4)."),
    ),
    (
        re.compile(
            r"^(?P<value>.+) is not a trump choice: it must be oros, copes, espases, bastos"
            r" or botifarra \(R4\)$"
        ),
        _("%(value)s is not a trump: choose oros, copes, espases, bastos or botifarra (R4)."),
    ),
    (re.compile(r"^doubles must be a list of calls \(R5\)$"), _("The calls must be a list (R5).")),
    (
        re.compile(r'^each call must be an object \{"seat": \.\.\., "call": \.\.\.\} \(R5\)$'),
        _("Each call needs a seat and a call (R5)."),
    ),
    (
        re.compile(r"^(?P<value>.+) is not a seat: N, E, S or W( \(R3\))?$"),
        _("%(value)s is not a seat: N, E, S or W."),
    ),
    (
        re.compile(r"^(?P<value>.+) is not a call: contro, recontro or sant_vicenc \(R5\)$"),
        _("%(value)s is not a call: contro, recontro or Sant Vicenç (R5)."),
    ),
    (
        re.compile(r"^(?P<call>\w+) was already called \(R5: each call at most once\)$"),
        _("%(call)s was already called: each call is made at most once (R5)."),
    ),
    (
        re.compile(r"^(?P<call>\w+) is only allowed after a (?P<before>\w+) \(R5\)$"),
        _("%(call)s is only allowed after a %(before)s (R5)."),
    ),
    (
        re.compile(
            r"^sant_vicenc is not allowed in a botifarra hand under these rules \(R5, R11\)$"
        ),
        _("Sant Vicenç is not allowed in a botifarra hand under this event's rules (R5, R11)."),
    ),
    (
        re.compile(
            r"^recontro must be called by the choosing pair \((?P<pair>NS|EW)\), "
            r"not by " + _SEAT + r" \(R5\)$"
        ),
        _("Recontro is called by the pair that chose (%(pair)s), not by %(seat)s (R5)."),
    ),
    (
        re.compile(
            r"^(?P<call>\w+) must be called by the opponents of the choosing pair "
            r"\((?P<pair>NS|EW)\), not by " + _SEAT + r" \(R5\)$"
        ),
        _(
            "%(call)s is called by the opponents of the pair that chose (%(pair)s), not by "
            "%(seat)s (R5)."
        ),
    ),
    (
        re.compile(r"^give either the hand totals or the offending pair, exactly one of them$"),
        _("Give either the two hand totals or the pair that played an illegal card."),
    ),
    (
        re.compile(r'^totals must be an object \{"NS": n, "EW": m\} \(R9\)$'),
        _("The totals need a number for NS and one for EW (R9)."),
    ),
    (
        re.compile(
            r"^(?P<pair>NS|EW) total must be a whole number 0–72, not (?P<value>.+) \(R9\)$"
        ),
        _("The %(pair)s total must be a whole number from 0 to 72, not %(value)s (R9)."),
    ),
    (
        re.compile(r"^the totals must sum to 72, not (?P<sum>\d+) \(R9\)$"),
        _("The two totals must add up to 72, not %(sum)s (R9)."),
    ),
    (
        re.compile(r"^(?P<value>.+) is not a pair: NS or EW \(R10\)$"),
        _("%(value)s is not a pair: NS or EW (R10)."),
    ),
    (
        re.compile(r"^(?P<value>.+) is not a card token \(R1\)$"),
        _("%(value)s is not a card (R1): write the rank then the suit letter, like 9o."),
    ),
    (
        re.compile(r"^(?P<card>\w+) is not in " + _SEAT + r"'s hand$"),
        _("%(card)s is not in %(seat)s's hand."),
    ),
    (
        re.compile(r"^(?P<card>\w+) was already played \((?P<where>play\[\d+\])\)$"),
        _("%(card)s was already played (%(where)s)."),
    ),
    (
        re.compile(r"^the play holds (?P<n>\d+) cards; a hand has 48 \(R10\)$"),
        _("The play holds %(n)s cards; a whole hand has 48 (R10)."),
    ),
    (
        re.compile(r"^" + _SEAT + r" holds (?P<n>\d+) cards; a hand has 12 \(R3\)$"),
        _("%(seat)s holds %(n)s cards; a hand has 12 (R3)."),
    ),
    (
        re.compile(r"^(?P<n>\d+) more problems were found and are not listed$"),
        _("%(n)s more problems were found and are not listed."),
    ),
]


def translate(message: str) -> str:
    for pattern, text in PATTERNS:
        match = pattern.match(message)
        if match:
            return str(text) % match.groupdict()
    return message


def translate_problems(problems: list[engine.Problem]) -> list[engine.Problem]:
    return [engine.Problem.other(p.path, translate(p.message)) for p in problems]
