"""The tournament file (BTF), the generator and the independent checker."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from scoring.checker import check
from scoring.generator import generate
from scoring.tournament_file import TournamentFileError, dump, dumps, load, loads
from scoring.types import TableRound

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("method", ["swiss", "roundrobin", "groups"])
@pytest.mark.parametrize("seed", range(8))
def test_generated_tournaments_check_clean_in_every_method(method, seed):
    pairs = 9 + 5 * seed  # odd and even fields, 9 to 44 pairs
    t = generate(method=method, pairs=pairs, rounds=6, seed=seed)
    assert len(t.event.rounds) >= 3
    assert check(loads(dumps(t))) == []


def test_generated_swiss_has_the_features_the_checker_must_follow():
    seen = {"late": 0, "requests": 0, "withdrawn": 0, "forbidden": 0, "time": 0}
    for seed in range(6):
        ev = generate(method="swiss", pairs=60, rounds=5, seed=seed).event
        seen["late"] += len(ev.late_entries)
        seen["requests"] += len(ev.bye_requests)
        seen["withdrawn"] += len(ev.withdrawn)
        seen["forbidden"] += len(ev.forbidden)
        seen["time"] += sum(t.time_after is not None for r in ev.rounds for t in r.tables)
    assert all(seen.values()), seen


@pytest.mark.parametrize("method", ["swiss", "roundrobin", "groups"])
def test_file_round_trips_unchanged(method):
    t = generate(method=method, pairs=17, rounds=5, seed=1)
    text = dumps(t)
    assert loads(text) == t
    assert dumps(loads(text)) == text
    buf = io.StringIO()
    dump(t, buf)
    buf.seek(0)
    assert load(buf) == t


@pytest.mark.parametrize("seed", ["trail ", " lead", "two  spaces", "-dash"])
def test_the_seed_and_name_round_trip_exactly_spaces_included(seed):
    """SEED is the rest of the line: the lot comes from the seed's bytes."""
    t = generate(method="swiss", pairs=6, rounds=2, seed=2)
    t = replace(t, name=" Club night ", event=replace(t.event, seed=seed))
    again = loads(dumps(t))
    assert again.event.seed == seed and again.name == " Club night "
    assert check(again) == check(t)


def test_checker_catches_two_pairs_swapped_between_tables():
    t = generate(method="swiss", pairs=20, rounds=5, seed=4)
    rnd = t.event.rounds[2]
    a, b = rnd.tables[0], rnd.tables[1]
    tampered_tables = [replace(a, ew=b.ew), replace(b, ew=a.ew), *rnd.tables[2:]]
    rounds = list(t.event.rounds)
    rounds[2] = replace(rnd, tables=tampered_tables)
    tampered = replace(t, event=replace(t.event, rounds=rounds))
    diffs = check(loads(dumps(tampered)))
    assert {(d.round, d.code, d.table) for d in diffs if d.round == 3} == {
        (3, "table", 1),
        (3, "table", 2),
    }


def test_checker_catches_a_changed_result_that_changes_the_next_pairing():
    """The results are inputs: changing one in round 1 makes round 2's recorded pairing wrong
    (the file was paired on the original result)."""
    t = generate(method="swiss", pairs=12, rounds=3, seed=2)
    rounds = list(t.event.rounds)
    first = rounds[0]
    flipped = [
        replace(
            tr, results=[replace(r, score_ns=r.score_ew, score_ew=r.score_ns) for r in tr.results]
        )
        for tr in first.tables
    ]
    rounds[0] = replace(first, tables=flipped)
    diffs = check(replace(t, event=replace(t.event, rounds=rounds)))
    assert diffs and {d.round for d in diffs} >= {2}
    assert 1 not in {d.round for d in diffs}


def test_checker_catches_a_wrong_bye_and_wrong_rests():
    t = generate(method="roundrobin", pairs=7, rounds=4, seed=0)
    rounds = list(t.event.rounds)
    rounds[1] = replace(rounds[1], rests=[])
    diffs = check(replace(t, event=replace(t.event, rounds=rounds)))
    assert [(d.round, d.code) for d in diffs] == [(2, "rests")]


def test_bad_lines_are_refused_with_their_line_number():
    with pytest.raises(TournamentFileError) as info:
        loads("BTF 1\nPAIR 1 1\nTABLE 1 1 1 2 1:10-0\n")
    assert info.value.line == 3
    with pytest.raises(TournamentFileError):
        loads("BTF 1\nPAIR 1 1\nROUND 1 boards=1\nTABLE 1 1 1 2 1:10+0\n")
    with pytest.raises(TournamentFileError):
        loads("BTF 1\nMATCH mode=game target=101 cap=90\n")
    with pytest.raises(TournamentFileError):
        loads("TRF\n")


def test_command_line_generate_then_check(tmp_path):
    path = tmp_path / "t.btf"
    run = [sys.executable, "-m", "scoring"]
    subprocess.run(
        [*run, "generate", "--method", "groups", "--pairs", "13", "--seed", "5", "-o", str(path)],
        cwd=ROOT,
        check=True,
    )
    ok = subprocess.run([*run, "check", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout == ""
    text = path.read_text().replace("TABLE 1 1 ", "TABLE 1 1 999 ", 1)
    bad = tmp_path / "bad.btf"
    bad.write_text(text)
    res = subprocess.run([*run, "check", str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 2 and "error" in res.stderr
    t = loads(path.read_text())
    first = t.event.rounds[0]
    ns, ew = first.tables[0].ns, first.tables[0].ew
    swapped = replace(
        first, tables=[TableRound(1, 1, ew, ns, first.tables[0].results), *first.tables[1:]]
    )
    bad.write_text(dumps(replace(t, event=replace(t.event, rounds=[swapped, *t.event.rounds[1:]]))))
    res = subprocess.run([*run, "check", str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert (
        res.returncode == 1
        and f"round 1 table 1: table: file {ew}-{ns}, derived {ns}-{ew}" in res.stdout
    )


def test_the_example_of_docs_formats_checks_clean():
    text = (ROOT / "docs" / "formats.md").read_text()
    example = text[text.index("```\nBTF 1") + 4 : text.index("```", text.index("```\nBTF 1") + 4)]
    t = loads(example)
    assert len(t.event.rounds) == 2 and check(t) == []


# --- tables compared by their numbers (docs/formats.md, "The checker") ---------------------------


def _clean_swiss() -> str:
    text = dumps(generate(method="swiss", pairs=8, rounds=3, seed=1))
    assert check(loads(text)) == []
    return text


def test_the_checker_compares_tables_by_number_not_by_position():
    """Round 3's four tables numbered 5-8 instead of 1-4: each number is a difference, 1-4
    missing from the file (``-``) and 5-8 not derived."""
    text = re.sub(
        r"^TABLE 3 (\d+) ",
        lambda m: f"TABLE 3 {int(m.group(1)) + 4} ",
        _clean_swiss(),
        flags=re.M,
    )
    diffs = check(loads(text))
    assert [(d.round, d.table) for d in diffs] == [(3, n) for n in range(1, 9)]
    assert all(d.in_file == "-" for d in diffs[:4]) and all(d.derived == "-" for d in diffs[4:])
    assert str(diffs[4]).startswith("round 3 table 5: table: file ")


def test_tables_listed_out_of_order_with_their_numbers_check_clean():
    lines = _clean_swiss().splitlines()
    round3 = [i for i, line in enumerate(lines) if line.startswith("TABLE 3 ")]
    block = [lines[i] for i in round3]
    for i, line in zip(round3, reversed(block), strict=True):
        lines[i] = line
    assert check(loads("\n".join(lines) + "\n")) == []


def test_a_table_number_given_twice_in_a_round_is_a_parse_error():
    text = re.sub(r"^TABLE 3 (\d+) ", "TABLE 3 1 ", _clean_swiss(), flags=re.M)
    with pytest.raises(TournamentFileError, match="round 3 has table 1 twice"):
        loads(text)


def test_rounds_missed_while_withdrawn_round_trip_and_keep_the_pair_out():
    """``missed=``: a withdrawal taken back. The checker leaves the pair out of those rounds
    (as the program did when it paired them) and only of those."""
    t = generate(method="swiss", pairs=8, rounds=3, seed=4)
    away = t.event.entries[0]
    rounds = list(t.event.rounds)
    ev = replace(t.event, missed={away: (2,)}, rounds=rounds[:1])
    assert away not in ev.active(2) and away in ev.active(1) and away in ev.active(3)
    text = dumps(replace(t, event=ev))
    assert " missed=2" in text
    assert loads(text).event.missed == {away: (2,)}
    assert loads(text) == replace(t, event=ev)
    with pytest.raises(TournamentFileError) as info:
        loads(text.replace(" missed=2", " missed=two"))
    assert "missed" in str(info.value)


@pytest.mark.parametrize("name", [" trailing ", "line\u2028separator", "next\x85line", "a\x1cb"])
def test_any_name_round_trips_but_a_line_break(name):
    """docs/formats.md: loads(dumps(t)) == t; lines end at "\\n" only, so a pair's or the
    event's name keeps what str.splitlines would break on, and its spaces."""
    t = generate(method="swiss", pairs=6, rounds=2, seed=2)
    pair = t.event.entries[0]
    t = replace(t, name=name, names={**t.names, pair: name}, event=replace(t.event, seed=name))
    again = loads(dumps(t))
    assert (again.name, again.names[pair], again.event.seed) == (name, name, name)


def test_a_file_saved_by_notepad_or_with_windows_line_ends_reads_as_the_same():
    text = _clean_swiss()
    assert loads("\ufeff" + text.replace("\n", "\r\n")) == loads(text)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda text: text.replace("RANKING wins", "RANKING foo", 1), "unknown ranking method"),
        (lambda text: text + "FORBID 1 999\n", "competitor 999 unknown"),
        (lambda text: text + "REQUEST 1 999 0\n", "competitor 999 unknown"),
        (lambda text: text + "ORDER 999\n", "competitor 999 unknown"),
        (lambda text: text.replace(" bye=7 ", " bye=999 ", 1), "competitor 999 unknown"),
        (lambda text: text.replace("\nTABLE 1 1 8 6 ", "\nTABLE 1 1 999 6 ", 1), "competitor 999"),
    ],
)
def test_a_file_naming_what_it_does_not_hold_cannot_be_read(change, says):
    """Exit status 2 (the file cannot be read), not 1 (differences), and the error names the
    line (docs/formats.md; an unknown competitor's line was not named: audit)."""
    text = change(_clean_swiss())
    with pytest.raises(TournamentFileError, match=says) as refused:
        loads(text)
    line = refused.value.line
    assert line > 0 and (
        "999" in text.splitlines()[line - 1] or "foo" in text.splitlines()[line - 1]
    )


def test_the_command_reads_a_file_as_loads_does(tmp_path):
    """A carriage return inside a name is part of it, by path as by standard input."""
    t = generate(method="swiss", pairs=6, rounds=2, seed=2)
    t = replace(t, names={**t.names, t.event.entries[0]: "Anna\rBosch"})
    path = tmp_path / "cr.btf"
    path.write_bytes(dumps(t).encode())
    run = [sys.executable, "-m", "scoring", "check"]
    by_path = subprocess.run([*run, str(path)], cwd=ROOT, capture_output=True)
    by_stdin = subprocess.run([*run, "-"], cwd=ROOT, capture_output=True, input=path.read_bytes())
    assert (by_path.returncode, by_stdin.returncode) == (0, 0), by_path.stderr


def test_a_file_that_is_not_utf8_is_exit_status_2(tmp_path):
    path = tmp_path / "latin1.btf"
    path.write_bytes(_clean_swiss().replace("NAME ", "NAME Caf\u00e9 ", 1).encode("latin-1"))
    run = subprocess.run(
        [sys.executable, "-m", "scoring", "check", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "not UTF-8" in run.stderr
    line = next(n for n, text in enumerate(_clean_swiss().splitlines(), 1) if "NAME " in text)
    assert f"line {line}:" in run.stderr
