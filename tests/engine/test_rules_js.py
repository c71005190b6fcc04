"""The legal-card rule ported to the card-by-card page (static/js/rules.js) gives what the engine
gives (R6, R7, R8), card after card, on the reference records of tests/data/examples: the same
seat to play, the same legal cards in the same order, the same first illegal card, the same
tricks and totals. Runs the page's own file with node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
RULES_JS = ROOT / "static" / "js" / "rules.js"
EXAMPLES = sorted((ROOT / "tests" / "data" / "examples").glob("*.json"))

# For each record and each prefix of its play, the state the page would draw.
RUNNER = """
const R = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map(c => {
  const deal = {hands: c.hands, dealer: c.dealer, trump: c.trump, ruleset: c.ruleset};
  const full = R.replay(deal, c.play);
  const prefixes = [];
  for (let k = 0; k < full.count; k++) {
    const s = R.replay(deal, c.play.slice(0, k));
    prefixes.push({seat: s.to_move, legal: s.legal});
  }
  return {steps: full.steps, illegal: full.illegal, totals: full.totals, tricks: full.tricks,
          complete: full.complete, prefixes: prefixes};
});
process.stdout.write(JSON.stringify(out));
"""


def _replayable() -> list[tuple[str, dict]]:
    cases = []
    for path in EXAMPLES:
        data = json.loads(path.read_text())
        if data["verdict"]["outcome"] == "invalid":
            continue  # refused before any card is replayed
        cases.append((path.name, data))
    return cases


@pytest.fixture(scope="module")
def js_states():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cases = _replayable()
    payload = [
        {
            "hands": d["record"]["deal"]["hands"],
            "dealer": d["record"]["deal"]["dealer"],
            "trump": d["record"]["choice"]["trump"],
            "ruleset": d["record"].get("ruleset", "lliure"),
            "play": d["record"]["play"],
        }
        for _, d in cases
    ]
    done = subprocess.run(
        [node, "-e", RUNNER, str(RULES_JS)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return dict(zip([name for name, _ in cases], json.loads(done.stdout), strict=True))


def test_the_reference_records_cover_both_rulesets_and_illegal_cards():
    cases = [d for _, d in _replayable()]
    assert len(cases) >= 30
    assert {d["record"].get("ruleset", "lliure") for d in cases} == {"lliure", "obligada"}
    assert any(d["verdict"]["outcome"] == "illegal" for d in cases)


@pytest.mark.parametrize("name", [name for name, _ in _replayable()])
def test_js_legal_cards_match_the_engine_card_after_card(name, js_states):
    data = json.loads((ROOT / "tests" / "data" / "examples" / name).read_text())
    record = data["record"]
    steps = engine.replay_steps(record)
    js = js_states[name]
    assert [s["seat"] for s in js["steps"]] == [s.seat.name for s in steps]
    assert [s["legal"] for s in js["steps"]] == [
        [engine.card_token(c) for c in s.legal] for s in steps
    ]
    illegal = next((s.index for s in steps if s.rule is not None), None)
    assert js["illegal"] == illegal
    # What the page offers before each card is the engine's next_play.
    for k, offered in enumerate(js["prefixes"]):
        nxt = engine.next_play(record | {"play": record["play"][:k]})
        assert offered == {"seat": nxt.seat.name, "legal": list(nxt.legal_tokens)}, k
    if data["verdict"]["outcome"] == "complete":
        assert js["complete"] is True
        assert js["totals"] == data["verdict"]["totals"]
        assert js["tricks"] == data["verdict"]["tricks"]
