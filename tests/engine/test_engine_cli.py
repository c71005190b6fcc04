"""The command line: python -m engine / botifarra (engine.cli.main)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Hand, Rules, Seat, card_token, commitment, deal_board
from engine.analysis import card_costs
from engine.cli import main
from engine.replay import replay
from engine.solver import solve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "examples"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin.encode(),
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )


def records(*names: str) -> list[dict[str, object]]:
    return [json.loads((EXAMPLES / n).read_text())["record"] for n in names]


def test_deal_twice_gives_the_same_bytes_r3() -> None:
    """R3: seeded deals are stable byte for byte."""
    first = run("deal", "--seed", "s3cret", "--boards", "1-24")
    second = run("deal", "--seed", "s3cret", "--boards", "1-24")
    assert first.returncode == 0 and first.stdout == second.stdout
    lines = first.stdout.decode().splitlines()
    assert len(lines) == 24
    assert json.loads(lines[4]) == deal_board("s3cret", 5).to_json()
    assert lines[0].startswith('{"board":1,"dealer":"N","hands":{"N":[')


def test_commit_prints_the_commitment() -> None:
    result = run("commit", "--seed", "s3cret")
    assert result.stdout.decode().strip() == commitment("s3cret")


def test_a_seed_that_starts_with_a_dash_is_given_with_an_equals_sign() -> None:
    result = run("commit", "--seed=-abc")
    assert result.returncode == 0
    assert result.stdout.decode().strip() == commitment("-abc")


def test_a_seed_that_is_not_utf8_is_a_usage_error_exit_2() -> None:
    """Argument bytes that are not UTF-8 text: a message, not a traceback."""
    for args in (["commit", "--seed"], ["deal", "--board", "1", "--seed"]):
        result = subprocess.run(
            [sys.executable, "-m", "engine", *[a.encode() for a in args], b"caf\xe9"],
            capture_output=True,
            cwd=ROOT,
            check=False,
            timeout=60,
        )
        assert result.returncode == 2, result.stderr
        assert b"the seed is not UTF-8 text" in result.stderr
        assert b"Traceback" not in result.stderr


def test_replay_files_and_stdin_give_json_lines_in_order_exit_0_r10() -> None:
    """R10: illegal and invalid are verdicts, not failures: exit 0."""
    recs = records("00010-illegal.json", "00003-invalid.json", "00000-complete.json")
    result = run("replay", "-", stdin=json.dumps(recs))
    assert result.returncode == 0
    outcomes = [json.loads(line)["outcome"] for line in result.stdout.decode().splitlines()]
    assert outcomes == ["illegal", "invalid", "complete"]


def test_replay_unreadable_or_non_json_exits_2() -> None:
    assert run("replay", stdin="{not json").returncode == 2
    # Python's reader takes these words; JSON has no such numbers (POST verify answers 400).
    for text in ("NaN", '{"play": [Infinity]}', "[-Infinity]"):
        for command in ("replay", "legal"):
            result = run(command, stdin=text)
            assert result.returncode == 2 and result.stdout == b"", (command, text)
            assert b"is not a number in JSON" in result.stderr
    missing = run("replay", "no/such/file.json")
    assert missing.returncode == 2 and b"cannot read" in missing.stderr


def test_replay_of_a_lone_surrogate_or_a_deep_nesting_is_an_input_error_exit_2() -> None:
    """Either once crashed with a traceback (and a batch's earlier verdicts already written)."""
    for text in ('{"format": "\\ud800"}', "[" * 100_000 + "]" * 100_000):
        result = run("replay", stdin=text)
        assert result.returncode == 2 and b"Traceback" not in result.stderr, result.stderr[-300:]
        assert result.stdout == b""
        assert result.stderr.startswith(b"botifarra: error: standard input")


def test_replay_reads_a_file_or_stdin_that_starts_with_a_byte_order_mark(tmp_path: Path) -> None:
    """Windows editors write one; POST /api/v1/verify reads such bytes, and so does the CLI."""
    (record,) = records("00000-complete.json")
    path = tmp_path / "record.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode())
    expected = replay(record).to_json()
    from_file = run("replay", str(path))
    assert from_file.returncode == 0, from_file.stderr
    assert json.loads(from_file.stdout) == expected
    from_stdin = run("replay", stdin="\ufeff" + json.dumps(record))
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert json.loads(from_stdin.stdout) == expected


@pytest.mark.parametrize("boards", ["1-2000", "1-99999999999999999"])
def test_a_reader_that_leaves_early_gets_no_traceback(boards: str) -> None:
    """``botifarra deal … | head -1``: the closed pipe ends the command quietly; a range is read
    as it is printed (a huge one starts at once, never built whole in memory)."""
    with subprocess.Popen(
        [sys.executable, "-m", "engine", "deal", "--seed", "s", "--boards", boards],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = json.loads(proc.stdout.readline())
        proc.stdout.close()
        errors = proc.stderr.read()
        proc.wait(timeout=60)
    assert first == deal_board("s", 1).to_json()
    assert b"Traceback" not in errors, errors[-300:]
    assert proc.returncode == 141


def test_main_in_process(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(records("00001-complete.json")[0]))
    assert main(["replay", str(path)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["outcome"] == "complete" and verdict["score"] == {"NS": 0, "EW": 6}
    assert main(["deal", "--seed", "x", "--board", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["dealer"] == "W"
    assert main(["deal", "--seed", "x", "--boards", "3-1"]) == 2
    assert main(["bogus"]) == 2


def test_legal_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """R7: the legal cards of the next player."""
    partial = records("00000-complete.json")[0]
    partial["play"] = partial["play"][:3]  # type: ignore[index]
    path = tmp_path / "p.json"
    path.write_text(json.dumps([partial, records("00000-complete.json")[0]]))
    assert main(["legal", str(path)]) == 1  # the second one is complete
    first, second = capsys.readouterr().out.splitlines()
    assert json.loads(first)["seat"] == "N"  # dealer N: W, S, E played
    assert "problems" in json.loads(second)


# -- solve (issue 19, docs/analysis.md) ------------------------------------------------------

sys.path.insert(0, str(Path(__file__).parent))
from solver_cases import needs_c_solver, top_six_deal  # noqa: E402


def top_six_record(trump: str = "espases") -> dict[str, object]:
    deal = top_six_deal(Seat.S)
    hand = Hand(deal, trump)
    while not hand.is_over:
        hand.play(hand.legal_cards()[0])
    return {
        "format": "botifarra-play/1",
        "deal": {"dealer": "S", "hands": deal.hands_json()},
        "choice": {"delegated": False, "trump": trump},
        "play": [card_token(c) for c in hand.played],
    }


@needs_c_solver
def test_solve_a_seeded_board_prints_the_five_trumps_and_par(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "--seed", "cli", "--board", "1", "--ruleset", "obligada"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert list(line) == ["board", "dealer", "ruleset", "points", "par"]
    assert (line["board"], line["dealer"], line["ruleset"]) == (1, "N", "obligada")
    assert list(line["points"]) == ["oros", "copes", "espases", "bastos", "botifarra"]
    assert all(p["NS"] + p["EW"] == 72 for p in line["points"].values())
    deal = deal_board("cli", 1)
    assert line["points"]["copes"]["NS"] == solve(deal, trump="copes", rules=Rules("obligada"))
    assert line["par"]["choosing_pair"] == "NS"
    assert line["par"]["totals"] == line["points"][line["par"]["trump"]]


def test_solve_a_record_file_analyses_its_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(top_six_record()))
    assert main(["solve", str(path)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["board"] is None and line["dealer"] == "S"
    assert {t: p["NS"] for t, p in line["points"].items()} == dict.fromkeys(
        ["oros", "copes", "espases", "bastos", "botifarra"], 72
    )
    assert line["par"]["capot"] is True


@needs_c_solver
def test_solve_from_play_gives_every_card_its_cost(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(top_six_record()))
    result = run("solve", "--from-play", str(path))
    assert result.returncode == 0
    line = json.loads(result.stdout)
    assert line["trump"] == "espases" and len(line["cards"]) == 48
    assert line["cost"] == {"NS": 0, "EW": 0}
    assert line["cards"][0] == {
        **line["cards"][0],
        "index": 0,
        "trick": 1,
        "position": 1,
        "seat": "E",  # the dealer's right (R6)
        "cost": 0,
    }


def test_solve_from_card_matches_card_costs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = records("00000-complete.json")[0]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert main(["solve", "--from-play", "--from-card", "36", str(path)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["cards"] == [c.to_json() for c in card_costs(record, from_card=36)]


def test_solve_reports_invalid_records_and_bad_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"format": "botifarra-play/1"}, top_six_record()]))
    assert main(["solve", str(path)]) == 1
    first, second = capsys.readouterr().out.splitlines()
    assert "problems" in json.loads(first) and "points" in json.loads(second)
    assert main(["solve", "--seed", "x"]) == 2


def test_solve_from_card_outside_a_hand_is_a_usage_error_exit_2() -> None:
    for value in ("-1", "60", "x"):
        done = run("solve", "--from-play", "--from-card", value, "--seed", "s", "--board", "1")
        assert done.returncode == 2, (value, done.stderr)
        assert b"Traceback" not in done.stderr and b"--from-card" in done.stderr


def test_solve_from_card_without_from_play_is_a_usage_error_not_ignored() -> None:
    done = run("solve", "--from-card", "10", "--seed", "s", "--board", "1")
    assert done.returncode == 2 and b"--from-card goes with --from-play" in done.stderr


def test_replay_prints_utf8_whatever_the_platforms_encoding() -> None:
    """A problem quoting a card symbol prints, in UTF-8, also where Python's encoding for a
    redirected output is not UTF-8 (Windows' cp1252)."""
    [record] = records("00000-complete.json")
    record["play"] = ["9♦", *record["play"][1:]]
    result = subprocess.run(
        [sys.executable, "-m", "engine", "replay"],
        input=json.dumps(record).encode(),
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
    )
    assert result.returncode == 0, result.stderr[-300:]
    verdict = json.loads(result.stdout.decode("utf-8"))
    assert verdict["outcome"] == "invalid"
    assert "9♦" in json.dumps(verdict, ensure_ascii=False)
