"""The short result as typed at the table (and previewed as it is typed): its fields parsed into
the data ``services.results`` takes, and problems put back on the field they concern."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

import engine
from tournaments.labels import CALLS, FieldProblem
from tournaments.models import BoardResult


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


def _parse_total(raw: str) -> int | None | str:
    raw = raw.strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        return "bad"


def parse_short(params: QueryDict | Mapping[str, str]) -> ShortForm:
    """Read the short form (POST or the preview's query string) into the service's data."""
    values = {f: str(params.get(f, "") or "").strip() for f in FORM_FIELDS}
    errors: dict[str, list[str]] = {}
    data: dict[str, Any] = {"delegated": values["delegated"] == "1"}
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
        ns, ew = _parse_total(values["totals_ns"]), _parse_total(values["totals_ew"])
        if ns == "bad" or ew == "bad":
            errors.setdefault("totals", []).append(
                _("A hand total is a whole number from 0 to 72.")
            )
        elif ns is None and ew is None:
            errors.setdefault("totals", []).append(_("Enter one pair's hand total."))
        else:
            if ns is None:
                ns = engine.other_total(ew)  # type: ignore[arg-type]
            if ew is None:
                ew = engine.other_total(ns)  # type: ignore[arg-type]
            data["totals"] = {"NS": ns, "EW": ew}
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
    if path.startswith("totals"):
        return "totals"
    if path == "offending_pair":
        return "outcome"
    return "__all__"


def problems_to_errors(
    problems: Iterable[FieldProblem], call_fields: list[str]
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for p in problems:
        errors.setdefault(problem_field(p.path, call_fields), []).append(p.message)
    return errors


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
