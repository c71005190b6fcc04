"""What the replay page is given: the engine's steps, the illegal card with its rule in words, and
the static trick table, checked against the reference records of play-record.md."""

import json
from pathlib import Path

import pytest

from tournaments import play as adapter
from tournaments.labels import RULE_TEXT
from tournaments.models import Board, Event
from tournaments.referee_desk import replay_payload, replay_text, trick_rows

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def load(kind):
    return [
        pytest.param(json.loads(p.read_text()), id=p.stem)
        for p in sorted(EXAMPLES.glob(f"*-{kind}.json"))
    ]


def board_for(record):
    # Unsaved objects: the replay needs the deal and the rules, not the database.
    ruleset = record.get("ruleset", "lliure")
    event = Event(ruleset=ruleset if ruleset in ("lliure", "obligada") else "lliure")
    deal = record["deal"]
    return Board(event=event, number=1, dealer=deal["dealer"], hands=deal["hands"]), event


@pytest.mark.parametrize("example", load("illegal"))
def test_payload_stops_on_the_illegal_card_with_its_rule_in_words(example):
    record, verdict = example["record"], example["verdict"]
    board, event = board_for(record)
    payload = replay_payload(board=board, event=event, record=record)
    json.dumps(payload)  # everything is a JSON value
    illegal = payload["illegal"]
    assert illegal["card"] == verdict["card"]
    assert illegal["rule"] == verdict["rule"]
    assert illegal["legal"] == verdict["legal"]
    assert illegal["penalty"] == verdict["score"]
    assert str(RULE_TEXT[verdict["rule"]]) in illegal["sentence"]
    last = payload["steps"][-1]
    assert illegal["index"] == len(payload["steps"]) - 1 == last["index"]
    assert (last["card"], last["rule"], last["trick"], last["position"]) == (
        verdict["card"],
        verdict["rule"],
        verdict["trick"],
        verdict["position"],
    )
    assert all(step["rule"] is None for step in payload["steps"][:-1])
    rows = trick_rows(payload)
    marked = [(row.number, token) for row in rows for token, bad in row.cells if bad]
    assert marked == [(verdict["trick"], verdict["card"])]


@pytest.mark.parametrize("example", load("complete")[:8])
def test_payload_of_a_complete_record_has_48_steps_and_every_trick(example):
    record, verdict = example["record"], example["verdict"]
    board, event = board_for(record)
    payload = replay_payload(board=board, event=event, record=record)
    assert payload["illegal"] is None and not payload["problems"]
    assert len(payload["steps"]) == 48
    assert payload["steps"][-1]["totals"] == verdict["totals"]
    rows = trick_rows(payload)
    assert [row.winner for row in rows] == verdict["trick_winners"]
    assert all(all(token for token, _bad in row.cells) for row in rows)


def _has_a_real_deal(example) -> bool:
    """Reference records whose deal a Board can hold (the others are invalid in their deal)."""
    record = example["record"]
    deal = record.get("deal") if isinstance(record, dict) else None
    if not (
        isinstance(deal, dict)
        and isinstance(deal.get("hands"), dict)
        and deal.get("dealer") in ("N", "E", "S", "W")
        and all(len(deal["hands"].get(s, [])) == 12 for s in "NESW")
    ):
        return False
    try:
        board, _event = board_for(record)
        adapter.deal(board)
    except Exception:  # noqa: BLE001 - a deal the Board model cannot hold
        return False
    return True


@pytest.mark.parametrize("example", [p for p in load("invalid") if _has_a_real_deal(p.values[0])])
def test_payload_of_an_invalid_record_lists_the_problems(example):
    record = example["record"]
    board, event = board_for(record)
    payload = replay_payload(board=board, event=event, record=record)
    assert payload["steps"] == [] and payload["problems"]
    assert trick_rows(payload) == []


def test_replay_text_has_every_word_the_script_writes():
    text = replay_text()
    for key in (
        "start",
        "step",
        "won",
        "counter",
        "totals",
        "illegal",
        "legal",
        "penalty",
        "stopped",
        "end",
        "tricks_none",
    ):
        assert text[key], key
    assert set(text["seats"]) == {"N", "E", "S", "W"}
    assert set(text["suits"]) == {"o", "c", "e", "b"}
    assert "%(card)s" in text["illegal"] and "%(seat)s" in text["step"]
