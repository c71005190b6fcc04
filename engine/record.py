"""Reading and writing play records, in the ``json`` module's style.

``dumps`` writes canonical, stable JSON: the keys of play-record.md in their documented order
(``format``, ``ruleset``, ``deal`` {``dealer``, ``hands`` {N, E, S, W}}, ``choice``
{``delegated``, ``trump``}, ``doubles`` [{``seat``, ``call``}], ``play``), any other keys after
them sorted, UTF-8 characters as they are, one line, ``", "`` and ``": "`` separators.

>>> rec = make_record(dealer="N", hands=None, trump="oros", play=["1o"])
>>> dumps(rec)
'{"format": "botifarra-play/1", "ruleset": "lliure", "deal": {"dealer": "N"}, "choice": {"delegated": false, "trump": "oros"}, "doubles": [], "play": ["1o"]}'
>>> loads(dumps(rec)) == rec
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

__all__ = ["canonical", "dump", "dumps", "load", "loads", "make_record"]

FORMAT = "botifarra-play/1"
_ORDER = {
    "": ("format", "ruleset", "deal", "choice", "doubles", "play"),
    "deal": ("dealer", "hands"),
    "deal.hands": ("N", "E", "S", "W"),
    "choice": ("delegated", "trump"),
    "doubles[]": ("seat", "call"),
}


def _canonical(value: Any, where: str) -> Any:
    if isinstance(value, Mapping):
        order = _ORDER.get(where, ())
        keys = [k for k in order if k in value]
        keys += sorted((k for k in value if k not in order), key=str)
        return {k: _canonical(value[k], f"{where}.{k}".lstrip(".")) for k in keys}
    if isinstance(value, list | tuple):
        return [_canonical(v, f"{where}[]") for v in value]
    return value


def canonical(record: Mapping[str, Any], *, hands: bool = True) -> dict[str, Any]:
    """The record with the keys of play-record.md only, in their documented order: what is
    stored and republished (anything else a client sent is dropped). ``hands=False`` leaves the
    hands out (a board of an event: the board holds them). The record must be valid.

    >>> rec = make_record(dealer="E", hands=None, trump="bastos", play=["1o"])
    >>> extra = {"comment": "hi", "choice": {"delegated": False, "trump": "bastos", "x": 1}}
    >>> canonical(rec | extra) == rec
    True
    """
    deal: dict[str, Any] = {"dealer": record["deal"]["dealer"]}
    given = record["deal"].get("hands")  # null, as absent, is the board's own deal
    if hands and given is not None:
        deal["hands"] = {s: list(given[s]) for s in ("N", "E", "S", "W")}
    choice = record["choice"]
    return {
        "format": FORMAT,
        "ruleset": record.get("ruleset") or "lliure",
        "deal": deal,
        "choice": {"delegated": choice["delegated"], "trump": choice["trump"]},
        "doubles": [{"seat": d["seat"], "call": d["call"]} for d in record.get("doubles") or []],
        "play": list(record["play"]),
    }


def dumps(record: Any, *, indent: int | None = None) -> str:
    """The record as canonical JSON text (no trailing newline)."""
    return json.dumps(_canonical(record, ""), ensure_ascii=False, indent=indent)


def dump(record: Any, fp: IO[str], *, indent: int | None = None) -> None:
    """Write :func:`dumps` and a newline to a text file."""
    fp.write(dumps(record, indent=indent) + "\n")


def _not_a_number(word: str) -> Any:
    raise ValueError(f"{word} is not a number in JSON")


def loads(text: str | bytes) -> Any:
    """Parse JSON text (a record, or a list of records). ``ValueError`` if it is not JSON,
    also for ``NaN`` and ``Infinity``, which Python's reader takes and JSON has not."""
    return json.loads(text, parse_constant=_not_a_number)


def load(fp: IO[str] | IO[bytes]) -> Any:
    """Read JSON from a file (see :func:`loads`)."""
    return loads(fp.read())


def make_record(
    *,
    dealer: str,
    hands: Mapping[str, Sequence[str]] | None,
    trump: str,
    delegated: bool = False,
    doubles: Iterable[Mapping[str, str]] = (),
    play: Iterable[str] = (),
    ruleset: str = "lliure",
) -> dict[str, Any]:
    """Build a record dict (not validated: :func:`engine.replay` does that).

    ``hands=None`` leaves them out, for a board of an event.
    """
    deal: dict[str, Any] = {"dealer": dealer}
    if hands is not None:
        deal["hands"] = {s: list(hands[s]) for s in ("N", "E", "S", "W")}
    return {
        "format": FORMAT,
        "ruleset": ruleset,
        "deal": deal,
        "choice": {"delegated": delegated, "trump": trump},
        "doubles": [{"seat": d["seat"], "call": d["call"]} for d in doubles],
        "play": list(play),
    }
