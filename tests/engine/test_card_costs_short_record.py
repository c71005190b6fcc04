"""A record that stops short without an illegal card is invalid (R10): the card costs and
`botifarra solve --from-play` refuse it as docs/analysis.md says (InvalidRecord; exit 1 with a
problems line), as the replay does."""

import json
from pathlib import Path

import pytest

import engine
from engine.analysis import card_costs
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _short_record() -> dict:
    """docs/analysis.md's example record cut after 5 cards: no illegal card, so invalid (R10:
    "fewer than 48 without an illegal play")."""
    record = json.loads((ROOT / "docs/examples/solve-record.json").read_text())
    record["play"] = record["play"][:5]
    assert engine.replay(record).to_json()["outcome"] == "invalid"
    return record


def test_card_costs_raises_invalid_record_for_a_record_cut_short():
    """docs/analysis.md: "an invalid record raises engine.InvalidRecord"."""
    with pytest.raises(engine.InvalidRecord):
        card_costs(_short_record())


def test_solve_from_play_exits_1_with_problems_for_a_record_cut_short(tmp_path, capsys):
    """docs/analysis.md "Command line": exit 1 when a record is invalid, its line
    {"problems": [...]}."""
    path = tmp_path / "short.json"
    path.write_text(json.dumps(_short_record()))
    status = main(["solve", "--from-play", str(path)])
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (status, sorted(line)) == (1, ["problems"])
