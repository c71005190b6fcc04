"""One JSON reader for everything people send: API bodies, pasted play records, the card-by-card
entry's requests, the referee's corrected records.

``json.loads`` accepts what the database cannot store and what the server should not try to
hold: ``NaN`` and ``Infinity`` (not JSON, yet Python reads them), ``1e999`` (an infinite float),
integers thousands of digits long, NUL characters (PostgreSQL's text and ``jsonb`` refuse them),
lone surrogates (``"\\ud800"``: not a character, not encodable as UTF-8), and nesting deep enough
to exhaust the stack of whatever walks the value next. :func:`read_json` refuses each of these,
and anything that is not JSON, with :class:`JSONRejected`: one exception whose ``message`` is a
sentence in the reader's language, and whose ``path`` (the value concerned, written as in
play-record.md: ``play[3]``, ``deal.hands.N``) or ``line``/``column`` (a syntax error) say where.
"""

from __future__ import annotations

import json
import math
from typing import TypeAlias

from django.utils.translation import gettext as _

from engine import clip

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT",
    "JSONRejected",
    "JsonValue",
    "read_json",
]

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"

MAX_BYTES = 64 * 1024  # a play record with its hands is about 1 KB
MAX_DEPTH = 20  # a ruling's corrected record, the deepest thing we read, is 6 levels deep
MAX_INT = 2**63 - 1  # what a bigint column (and any JSON reader elsewhere) can hold
MIN_INT = -(2**63)


class JSONRejected(ValueError):
    """The text is not JSON we accept. ``code`` says why (``empty``, ``too_large``,
    ``encoding``, ``syntax``, ``nesting``, ``constant``, ``number``, ``nul``, ``surrogate``);
    ``message`` says it to a person, in the active language."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def to_problem(self) -> dict[str, str]:
        """``{"path": ..., "message": ...}``, the shape of the table pages' problems."""
        return {"path": self.path or "", "message": self.message}


class _Refused:
    """Left in the parsed value by the number hooks, so that the walk reports it with its path
    (the ``json`` module does not tell its hooks where they are)."""

    __slots__ = ("code", "text")

    def __init__(self, code: str, text: str) -> None:
        self.code = code
        self.text = text


def _constant(text: str) -> _Refused:
    return _Refused("constant", text)


def _integer(text: str) -> int | _Refused:
    # Checked on the digits first: int() of a 100,000-digit string is itself slow (and refused
    # past sys.get_int_max_str_digits).
    if len(text.lstrip("-")) > 19:
        return _Refused("number", text)
    value = int(text)
    return value if MIN_INT <= value <= MAX_INT else _Refused("number", text)


def _float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused("number", text)


# json's own messages (stable in CPython) → what a person is told.
def _syntax_problem(msg: str) -> str:
    known = {
        "Expecting value": _("a value was expected here"),
        "Expecting property name enclosed in double quotes": _(
            "a key in double quotes was expected here"
        ),
        "Expecting ',' delimiter": _("a comma was expected here"),
        "Expecting ':' delimiter": _("a colon was expected after the key"),
        "Unterminated string starting at": _("a text in double quotes is not closed"),
        "Invalid control character at": _(
            "a line break or tab inside double quotes must be written \\n or \\t"
        ),
        "Invalid \\escape": _("a backslash starts an escape that does not exist"),
        "Invalid \\uXXXX escape": _("a \\u escape needs four hexadecimal digits"),
        "Extra data": _("more text follows the end of the JSON value"),
        "Illegal trailing comma before end of object": _("a comma comes before a closing }"),
        "Illegal trailing comma before end of array": _("a comma comes before a closing ]"),
    }
    return known.get(msg, _("the text cannot be read as JSON"))


def _where(problem: str, path: str) -> str:
    if not path:
        return _("%(problem)s.") % {"problem": problem}
    return _("%(problem)s (at %(path)s).") % {"problem": problem, "path": path}


def _refusal(code: str, shown: str, path: str) -> JSONRejected:
    problems = {
        "constant": _("%(value)s is not a number in JSON") % {"value": shown},
        "number": _("The number %(value)s is too large") % {"value": shown},
        "nul": _("The text contains a NUL character (\\u0000), which cannot be stored"),
        "surrogate": _(
            "The text contains a lone surrogate (an escape such as \\ud800 that is not a character)"
        ),
        "nesting": _("The value is nested more than %(limit)s levels deep") % {"limit": shown},
    }
    return JSONRejected(code, _where(problems[code], path), path=path)


def nul_message(path: str) -> str:
    """The sentence for a NUL character in the text at ``path``: the one a JSON body gets, also
    said of a form's reason or a query parameter (PostgreSQL's text cannot hold it)."""
    return str(_refusal("nul", "", path))


def _text_fault(text: str) -> str | None:
    if "\x00" in text:
        return "nul"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "surrogate"
    return None


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    key = clip(key, limit=40)
    return f"{path}.{key}" if path else key


def _check(value: JsonValue | _Refused, max_depth: int) -> None:
    """Walk the value without recursion: depth, refused numbers, NUL and lone surrogates."""
    stack: list[tuple[object, int, str]] = [(value, 1, "")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, str):
            fault = _text_fault(item)
            if fault:
                raise _refusal(fault, "", path)
        elif isinstance(item, _Refused):
            raise _refusal(item.code, clip(item.text, limit=40), path)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise _refusal("nesting", str(max_depth), path)
            if isinstance(item, dict):
                # pushed in reverse so that the first problem in the text is the one reported
                for key, child in reversed(item.items()):
                    fault = _text_fault(key)
                    if fault:
                        raise _refusal(fault, "", path)
                    stack.append((child, depth + 1, _child(path, key)))
            else:
                for index in range(len(item) - 1, -1, -1):
                    stack.append((item[index], depth + 1, _child(path, index)))


def read_json(
    data: str | bytes, *, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES
) -> JsonValue:
    """Parse JSON text sent by a person; :class:`JSONRejected` unless it is storable JSON.

    Bytes must be UTF-8 (a byte-order mark is allowed). Objects may nest ``max_depth`` levels
    (the top-level value is level 1); the text may be ``max_bytes`` long in UTF-8.

    >>> read_json('{"play": ["1o", "9c"], "n": -3, "x": 0.5}')
    {'play': ['1o', '9c'], 'n': -3, 'x': 0.5}
    >>> read_json("[NaN]")
    Traceback (most recent call last):
    ...
    tournaments.jsonio.JSONRejected: NaN is not a number in JSON (at [0]).
    """
    if isinstance(data, bytes | bytearray):
        if len(data) > max_bytes:
            raise _too_large(max_bytes)
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise JSONRejected(
                "encoding",
                _("This is not UTF-8 text (byte %(n)s): send JSON as UTF-8.") % {"n": exc.start},
            ) from None
    else:
        text = data.removeprefix("\ufeff")
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise _too_large(max_bytes)
    if not text.strip():
        raise JSONRejected("empty", _("There is no JSON here: the text is empty."))
    try:
        value: JsonValue = json.loads(
            text, parse_constant=_constant, parse_int=_integer, parse_float=_float
        )
    except json.JSONDecodeError as exc:
        message = _("This is not valid JSON: %(problem)s (line %(line)s, column %(column)s).") % {
            "problem": _syntax_problem(exc.msg),
            "line": exc.lineno,
            "column": exc.colno,
        }
        raise JSONRejected("syntax", message, line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise _refusal("nesting", str(max_depth), "") from None
    _check(value, max_depth)
    return value


def _too_large(max_bytes: int) -> JSONRejected:
    return JSONRejected(
        "too_large",
        _("The JSON is too large: at most %(kb)s KB.") % {"kb": max(1, max_bytes // 1024)},
    )
