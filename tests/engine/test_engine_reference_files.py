"""The 40 reference files of play-record.md (copied into tests/data/examples)."""

import json
from pathlib import Path
from typing import Any

import pytest

from engine import replay

EXAMPLES = sorted((Path(__file__).parent.parent / "data" / "examples").glob("*.json"))


def test_all_forty_reference_files_are_present() -> None:
    assert len(EXAMPLES) == 40


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_reference_record_replays_to_its_verdict_r10(path: Path) -> None:
    """R7–R11 end to end: every fixed key equal; invalid: same outcome and a problem at the
    same path (R10)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    expected = data["verdict"]
    got = replay(data["record"]).to_json()
    assert got["outcome"] == expected["outcome"]
    if expected["outcome"] == "invalid":
        got_paths = {p["path"] for p in got["problems"]}
        assert {p["path"] for p in expected["problems"]} <= got_paths
    else:
        assert {k: got[k] for k in expected} == expected
        assert set(got) == set(expected)
