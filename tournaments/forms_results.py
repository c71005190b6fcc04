"""The short result as typed (and previewed as it is typed): its fields parsed into the data
``services.results`` takes, and problems put back on the field they concern.

Shared by the players' form (``parse_short``) and the referee's corrected result
(``forms_referee.CorrectedShortForm``): the same hand totals (one may be left empty: it is 72
minus the other; each typed one must be a whole number from 0 to 72, said on its own field), the
same seats offered for each call (``call_choices``), the same live score (``preview_answer``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

import engine
from tournaments import play
from tournaments.labels import CALLS, FieldProblem, seat_names, side_label
from tournaments.models import Board, BoardResult
from tournaments.services import results


@dataclass
class ShortForm:
    """The short form's fields as typed, the data for the service, and per-field problems."""

    values: dict[str, str]
    data: dict[str, Any]
    call_fields: list[str]
    errors: dict[str, list[str]]

    @property
    def complete(self) -> bool:
        return not self.errors


FORM_FIELDS = (
    "delegated",
    "trump",
    "contro",
    "recontro",
    "sant_vicenc",
    "outcome",
    "totals_ns",
    "totals_ew",
)


TOTAL_FIELDS = {"NS": "totals_ns", "EW": "totals_ew"}


_WHOLE = re.compile(r"-?[0-9]{1,6}")


def read_totals(ns_raw: str, ew_raw: str) -> tuple[dict[str, int] | None, dict[str, list[str]]]:
    """The two hand totals as typed: ``({"NS": ns, "EW": ew}, {})`` or ``(None, errors)``.

    One total may be left empty: it is 72 minus the other (R9). A total that is typed must be a
    whole number from 0 to 72, said once, on its own field (``totals_ns``, ``totals_ew``); the
    other is then not filled in. Both typed and not adding up to 72: said on ``totals``.

    The fields keep what was typed: the caller shows ``ns_raw`` and ``ew_raw`` back.
    """
    typed = {"NS": ns_raw.strip(), "EW": ew_raw.strip()}
    errors: dict[str, list[str]] = {}
    values: dict[str, int | None] = {}
    for side, raw in typed.items():
        if raw == "":
            values[side] = None
            continue
        # Digits as typed: Python's int() also reads "3_0" and other scripts' digits as 30.
        plain = raw.replace("−", "-")
        number = int(plain) if _WHOLE.fullmatch(plain) else None
        if number is None or not 0 <= number <= engine.HAND_TOTAL:
            errors[TOTAL_FIELDS[side]] = [
                _("The %(side)s hand total is a whole number from 0 to 72, not %(value)s.")
                % {"side": side_label(side), "value": raw[:12]}
            ]
        values[side] = number
    if errors:
        return None, errors
    ns, ew = values["NS"], values["EW"]
    if ns is None and ew is None:
        return None, {"totals": [_("Enter one pair's hand total: the other is 72 minus it.")]}
    if ns is None:
        ns = engine.other_total(ew)  # type: ignore[arg-type]
    if ew is None:
        ew = engine.other_total(ns)
    if ns + ew != engine.HAND_TOTAL:
        return None, {
            "totals": [
                _("The two hand totals add up to 72, not %(sum)s: correct one of them.")
                % {"sum": ns + ew}
            ]
        }
    return {"NS": ns, "EW": ew}, {}


def call_choices(board: Board) -> dict[str, list[tuple[str, str]]]:
    """The seats that may make each call on this board (R5), as ``(seat, name)``: the players'
    form and the referee's corrected result offer only these."""
    names = seat_names()
    return {call: [(s, names[s]) for s in seats] for call, seats in play.call_seats(board).items()}


def parse_short(params: QueryDict | Mapping[str, str]) -> ShortForm:
    """Read the short form (POST or the preview's query string) into the service's data."""
    values = {f: str(params.get(f, "") or "").strip() for f in FORM_FIELDS}
    errors: dict[str, list[str]] = {}
    data: dict[str, Any] = {"delegated": values["delegated"] == "1"}
    if values["delegated"] not in ("0", "1"):
        errors.setdefault("delegated", []).append(
            _("Say who chose the trump: the dealer, or the partner it was delegated to.")
        )
    if values["trump"]:
        data["trump"] = values["trump"]
    else:
        errors.setdefault("trump", []).append(_("Choose the trump."))
    doubles, call_fields = [], []
    for call in CALLS:
        seat = values[call]
        if seat:
            doubles.append({"seat": seat, "call": call})
            call_fields.append(call)
    data["doubles"] = doubles
    outcome = values["outcome"]
    if outcome == "played":
        totals, total_errors = read_totals(values["totals_ns"], values["totals_ew"])
        if totals is not None:
            data["totals"] = totals
        errors |= total_errors
    elif outcome in ("illegal_NS", "illegal_EW"):
        data["offending_pair"] = outcome[-2:]
    else:
        errors.setdefault("outcome", []).append(
            _("Say how the hand ended: the hand totals, or an illegal play.")
        )
    return ShortForm(values=values, data=data, call_fields=call_fields, errors=errors)


def problem_field(path: str, call_fields: list[str]) -> str:
    """The form field a problem's path (``choice.trump``, ``doubles[1].seat``…) is about."""
    if path in ("trump", "choice.trump"):
        return "trump"
    if path in ("delegated", "choice.delegated", "choice"):
        return "delegated"
    if path.startswith("doubles["):
        try:
            index = int(path[len("doubles[") : path.index("]")])
        except ValueError:
            return "calls"
        return call_fields[index] if index < len(call_fields) else "calls"
    if path.startswith("doubles"):
        return "calls"
    if path == "totals.NS":
        return "totals_ns"
    if path == "totals.EW":
        return "totals_ew"
    if path.startswith("totals"):
        return "totals"
    if path == "offending_pair":
        return "outcome"
    return "__all__"


def problems_to_errors(
    problems: Iterable[FieldProblem], call_fields: list[str]
) -> dict[str, list[str]]:
    """Each problem on its field, each message once."""
    errors: dict[str, list[str]] = {}
    for p in problems:
        shown = errors.setdefault(problem_field(p.path, call_fields), [])
        if p.message not in shown:
            shown.append(p.message)
    return errors


def preview_answer(
    board: Board, data: dict[str, Any] | None, errors: dict[str, list[str]], call_fields: list[str]
) -> dict[str, Any]:
    """The live score's answer (JSON) for a short result as typed so far: the engine's score,
    or what is still missing or wrong, field by field. Stores nothing."""
    if errors or data is None:
        return {"ok": False, "complete": False, "errors": errors}
    try:
        values = results.short_values(board=board, data=data)
    except results.InvalidSubmission as exc:
        return {
            "ok": False,
            "complete": True,
            "errors": problems_to_errors(exc.problems, call_fields),
        }
    return {
        "ok": True,
        "multiplier": values["multiplier"],
        "totals": {"NS": values["totals_ns"], "EW": values["totals_ew"]},
        "offending_pair": values["offending_pair"],
        "score": {"NS": values["score_ns"], "EW": values["score_ew"]},
        "capot": values["capot"],
    }


def prefill(result: BoardResult) -> dict[str, str]:
    values = dict.fromkeys(FORM_FIELDS, "")
    values["delegated"] = "1" if result.delegated else "0"
    values["trump"] = result.trump
    for d in result.doubles:
        if d.get("call") in CALLS:
            values[d["call"]] = d.get("seat", "")
    if result.offending_pair:
        values["outcome"] = f"illegal_{result.offending_pair}"
    else:
        values["outcome"] = "played"
        values["totals_ns"] = "" if result.totals_ns is None else str(result.totals_ns)
        values["totals_ew"] = "" if result.totals_ew is None else str(result.totals_ew)
    return values
