"""Hypothesis against the play-record parser: ``engine.replay`` and ``engine.legal_for_record``
on arbitrary JSON-like values and on mutations of the reference records of
tests/data/examples/. ``replay`` never raises and answers one of its three outcomes; an
``invalid`` verdict carries at least one problem, each with a JSON path (empty only when the
record itself is not an object); ``legal_for_record`` answers a seat and its legal cards or raises
``InvalidRecord`` with problems, nothing else. Every problem carries an engine code (never the
transitional ``other``) with plain, bounded params.

Bounded by FUZZ_EXAMPLES (default 300 per test); ``make fuzz`` runs 5000.
"""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.errors import MAX_PROBLEMS
from engine.problems import PARAMS, ProblemCode

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
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "data" / "examples"
REFERENCES = [json.loads(p.read_text())["record"] for p in sorted(EXAMPLES_DIR.glob("*.json"))]
OUTCOMES = {"complete", "illegal", "invalid"}
FIELDS = {"format", "ruleset", "deal", "choice", "doubles", "play", "options", "rules"}
TOKENS = [engine.card_token(c) for c in range(48)]
JUNK = [
    "",
    " ",
    "0o",
    "13o",
    "1x",
    "10",
    "9O",
    "♦9",
    "9 o",
    "as",
    "12e ",
    None,
    True,
    0,
    -1,
    2**64,
    1.5,
    float("inf"),
    float("nan"),
    [],
    {},
    "botifarra",
    "N",
    "sant_vicenc",
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=10)
    | st.sampled_from(TOKENS + JUNK)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(
            st.text(max_size=8)
            | st.sampled_from(
                [
                    "format",
                    "ruleset",
                    "deal",
                    "dealer",
                    "hands",
                    "choice",
                    "trump",
                    "delegated",
                    "doubles",
                    "play",
                    "seat",
                    "call",
                    "N",
                    "E",
                    "S",
                    "W",
                ]
            ),
            children,
            max_size=6,
        )
    ),
    max_leaves=20,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _set(record: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return record


def _drop(record: Any, path: tuple) -> Any:
    if not path:
        return record
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return record


@st.composite
def mutated(draw) -> Any:
    """A reference record with one to four mutations."""
    record = copy.deepcopy(draw(st.sampled_from(REFERENCES)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                [
                    "drop",
                    "replace",
                    "insert",
                    "truncate",
                    "extend",
                    "swap",
                    "stringify",
                    "duplicate",
                ]
            )
        )
        paths = _paths(record)
        path = draw(st.sampled_from(paths))
        play = record.get("play") if isinstance(record, dict) else None
        if kind == "drop":
            record = _drop(record, path)
        elif kind == "replace":
            record = _set(record, path, draw(json_values))
        elif kind == "stringify":
            record = _set(record, path, json.dumps(draw(json_values)))
        elif isinstance(play, list):
            i = draw(st.integers(0, max(len(play), 1)))
            if kind == "insert":
                play.insert(i, draw(st.sampled_from(TOKENS + JUNK) | json_values))
            elif kind == "truncate":
                del play[i:]
            elif kind == "extend":
                play.extend(draw(st.lists(st.sampled_from(TOKENS + JUNK), max_size=6)))
            elif kind == "swap" and len(play) > 1:
                j = draw(st.integers(0, len(play) - 1))
                i = min(i, len(play) - 1)
                play[i], play[j] = play[j], play[i]
            elif kind == "duplicate" and play:
                play.insert(i, play[min(i, len(play) - 1)])
    return record


records = json_values | mutated() | st.sampled_from(REFERENCES)
rules = st.none() | st.builds(
    engine.Rules,
    ruleset=st.sampled_from(["lliure", "obligada"]),
    sant_vicenc_in_botifarra=st.none() | st.booleans(),
)


def check_codes(problems: tuple[engine.Problem, ...] | list[engine.Problem]) -> None:
    for problem in problems:
        assert isinstance(problem.code, ProblemCode)
        assert set(problem.params) == PARAMS[problem.code]
        for value in problem.params.values():
            assert type(value) in (str, int), problem  # plain values, not the record's objects
            # values are clipped to 100 characters (quoted: 102); 48 missing cards take 155
            assert not isinstance(value, str) or len(value) <= 200, problem


def check_replay(
    record: Any, deal: engine.Deal | None, ruleset: engine.Rules | None, figures
) -> None:
    verdict = engine.replay(record, deal=deal, rules=ruleset)
    assert verdict.outcome in OUTCOMES
    out = verdict.to_json()
    json.dumps(out, allow_nan=False)  # the verdict is stored and sent as JSON
    figures("engine.replay", verdict.outcome)
    if verdict.outcome == "invalid":
        assert out["problems"], record
        assert len(out["problems"]) <= MAX_PROBLEMS
        check_codes(verdict.problems)
        for problem in out["problems"]:
            assert isinstance(problem["message"], str) and problem["message"]
            assert len(problem["message"]) < 400  # quoted values are cut to 100 characters
            if (
                verdict.problems[-1].code is ProblemCode.MORE_PROBLEMS
                and problem is out["problems"][-1]
            ):
                assert len(out["problems"]) == MAX_PROBLEMS and problem["path"] == ""
            elif isinstance(record, dict):
                # a JSON path into the record: its head is a field of the format or of the record
                head = re.match(r"[^.\[]*", problem["path"]).group()
                assert head and (head in FIELDS or head in record), (problem, record)
            else:
                assert problem["path"] == ""


def check_legal(
    record: Any, deal: engine.Deal | None, ruleset: engine.Rules | None, figures
) -> dict[str, Any] | None:
    try:
        answer = engine.legal_for_record(record, deal=deal, rules=ruleset)
    except engine.InvalidRecord as exc:
        assert exc.problems
        assert all(isinstance(p.path, str) for p in exc.problems)
        check_codes(exc.problems)
        figures("engine.legal_for_record", "invalid")
        return None
    assert answer["seat"] in ("N", "E", "S", "W")
    assert answer["legal"] and set(answer["legal"]) <= set(TOKENS)
    figures("engine.legal_for_record", "legal")
    return answer


@FUZZ
@given(record=records, ruleset=rules)
def test_replay_never_raises_and_says_why(record, ruleset, fuzz_figures):
    check_replay(record, None, ruleset, fuzz_figures)


@FUZZ
@given(record=records, ruleset=rules, board=st.integers(1, 40))
def test_replay_with_the_event_deal(record, ruleset, board, fuzz_figures):
    """As the server replays: the deal is the event's board, the record may omit the hands."""
    deal = engine.deal_board("fuzz-seed", board)
    if isinstance(record, dict) and isinstance(record.get("deal"), dict) and board % 2:
        record = copy.deepcopy(record)
        record["deal"].pop("hands", None)
    check_replay(record, deal, ruleset, fuzz_figures)


@FUZZ
@given(record=records, ruleset=rules, with_deal=st.booleans())
def test_legal_for_record_answers_or_explains(record, ruleset, with_deal, fuzz_figures):
    deal = engine.deal_board("fuzz-seed", 3) if with_deal else None
    check_legal(record, deal, ruleset, fuzz_figures)


@FUZZ
@given(reference=st.sampled_from(REFERENCES), cut=st.integers(0, 48), ruleset=rules)
def test_legal_for_every_prefix_of_a_reference(reference, cut, ruleset, fuzz_figures):
    """Prefixes of real records: the cards offered are the hand's legal cards, and playing one
    of them keeps the record legal."""
    record = copy.deepcopy(reference)
    if not isinstance(record.get("play"), list):
        return
    record["play"] = record["play"][:cut]
    check_replay(record, None, ruleset, fuzz_figures)
    answer = check_legal(record, None, ruleset, fuzz_figures)
    if answer is not None:
        for card in answer["legal"]:
            record["play"] = [*record["play"][:cut], card]
            assert engine.replay(record, rules=ruleset).outcome != "illegal", card
