"""Hypothesis against the JSON reader (``tournaments.jsonio.read_json``), on arbitrary text and
on JSON-like text built from hostile pieces (``NaN``, ``1e999``, huge integers, ``\\u0000``, lone
surrogates, deep nesting). Either it returns a value that can be stored and written back (strict
JSON, UTF-8, at most MAX_DEPTH deep, integers within 64 bits), or it raises its one refusal with a
sentence — never another exception.

Bounded by FUZZ_EXAMPLES (default 300 per test); ``make fuzz`` runs 5000.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.jsonio import MAX_DEPTH, MAX_INT, MIN_INT, JSONRejected, read_json

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
CODES = {
    "empty",
    "too_large",
    "encoding",
    "syntax",
    "nesting",
    "constant",
    "number",
    "nul",
    "surrogate",
}
ATOMS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "1e308",
    "0.1",
    "-0",
    str(2**63),
    str(2**63 - 1),
    str(-(2**63)),
    "1" + "0" * 5000,
    '"\\u0000"',
    '"\\ud800"',
    '"\\udc00x"',
    '"\\ud83d\\ude00"',
    '"ok"',
    "true",
    "null",
    '"\\x"',
    "'single'",
    "[",
    "]",
    "{",
    "}",
    ",",
]


@st.composite
def json_like(draw, depth: int = 0) -> str:
    """Text shaped like JSON, mostly valid, with hostile atoms and nesting mixed in."""
    kind = draw(st.integers(0, 5 if depth < 6 else 1))
    if kind == 0:
        return draw(st.sampled_from(ATOMS))
    if kind == 1:
        return json.dumps(draw(st.text(max_size=20)))
    if kind == 2:
        n = draw(st.integers(1, 60))
        return "[" * n + draw(json_like(depth + 1)) + "]" * n
    if kind == 3:
        items = draw(st.lists(json_like(depth + 1), max_size=4))
        return "[" + ", ".join(items) + "]"
    if kind == 4:
        keys = draw(st.lists(st.sampled_from(['"a"', '"\\u0000"', '"\\ud800"', '"b"']), max_size=3))
        values = draw(st.lists(json_like(depth + 1), min_size=len(keys), max_size=len(keys)))
        return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, values, strict=True)) + "}"
    return draw(st.text(max_size=30))


def depth_of(value: Any) -> int:
    stack, deepest = [(value, 1)], 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def check(text: str | bytes, figures) -> None:
    try:
        value = read_json(text)
    except JSONRejected as exc:
        assert exc.code in CODES and exc.message and "Expecting" not in exc.message
        figures("jsonio.read_json", exc.code)
        return
    dumped = json.dumps(value, allow_nan=False, ensure_ascii=False)  # no NaN, no infinity
    dumped.encode("utf-8")  # no lone surrogate
    assert "\x00" not in dumped
    assert depth_of(value) <= MAX_DEPTH
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list):
            stack.extend(item.values() if isinstance(item, dict) else item)
        elif isinstance(item, int) and not isinstance(item, bool):
            assert MIN_INT <= item <= MAX_INT
        elif isinstance(item, float):
            assert math.isfinite(item)
    figures("jsonio.read_json", "accepted")


@FUZZ
@given(text=json_like())
def test_json_like_text_is_storable_or_refused_with_a_sentence(text, fuzz_figures):
    check(text, fuzz_figures)


@FUZZ
@given(text=st.text(max_size=200))
def test_any_text_is_storable_or_refused_with_a_sentence(text, fuzz_figures):
    check(text, fuzz_figures)


@FUZZ
@given(data=st.binary(max_size=200))
def test_any_bytes_are_storable_or_refused_with_a_sentence(data, fuzz_figures):
    check(data, fuzz_figures)
