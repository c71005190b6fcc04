"""CSV and JSON exports: round trips, documented columns, the engine re-verifies the records."""

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tournaments.public_event import (
    OPEN_ROUND_BOARDS,
    build_played_event,
)
from tournaments import exports
from tournaments.models import BoardResult, PlayRecord

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


def csv_rows(response) -> tuple[list[str], list[dict[str, str]]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert not text.startswith("\ufeff")  # plain UTF-8, no BOM
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    return list(reader.fieldnames or []), rows


def test_standings_csv_round_trips_to_the_snapshot(client, played_event):
    header, rows = csv_rows(
        client.get(reverse("public:export_csv", args=[played_event.pk, "standings"]))
    )
    assert header == exports.STANDINGS_COLUMNS
    # The public export holds the standings after the last closed round (round 2 is open).
    snapshot = played_event.snapshots.get(after_round=1)
    assert played_event.rounds.get(number=2).status == "open"
    numbers = {e.pk: e for e in played_event.entries.select_related("pair")}
    assert len(rows) == len(snapshot.rows)
    for row, stored in zip(rows, snapshot.rows, strict=True):
        entry = numbers[stored["entry"]]
        assert int(row["after_round"]) == snapshot.after_round
        assert int(row["number"]) == entry.number
        assert row["pair"] == entry.pair.name
        for key in (
            "rank",
            "wins",
            "draws",
            "losses",
            "points_for",
            "points_against",
            "point_diff",
            "boards_played",
            "byes",
            "lot",
        ):
            assert int(row[key]) == stored[key], key
        for key in ("match_points", "buchholz", "duplicate_pct"):
            assert float(row[key]) == pytest.approx(stored[key], abs=1e-4), key
        assert row["withdrawn"] == ("1" if stored["withdrawn"] else "0")


def test_standings_csv_after_an_earlier_round(client, played_event):
    url = reverse("public:export_csv", args=[played_event.pk, "standings"])
    _h, rows = csv_rows(client.get(url + "?round=1"))
    assert {r["after_round"] for r in rows} == {"1"}
    assert client.get(url + "?round=7").status_code == 404
    assert client.get(url + "?round=x").status_code == 400


def test_results_csv_has_the_closed_rounds_only_for_the_public(client, played_event, organiser):
    url = reverse("public:export_csv", args=[played_event.pk, "results"])
    header, rows = csv_rows(client.get(url))
    assert header == exports.RESULTS_COLUMNS
    counted = BoardResult.objects.filter(
        table__round__event=played_event, table__round__number=1, status__in=BoardResult.COUNTED
    )
    assert len(rows) == counted.count()
    assert {r["round"] for r in rows} == {"1"}
    by_key = {(r.board.number, r.table.number): r for r in counted.select_related("board", "table")}
    for row in rows:
        result = by_key[(int(row["board"]), int(row["table"]))]
        assert int(row["score_ns"]) == result.score_ns
        assert int(row["score_ew"]) == result.score_ew
        assert int(row["net_ns"]) == result.score_ns - result.score_ew
        assert row["trump"] == result.trump
        assert float(row["pct_ns"]) + float(row["pct_ew"]) == pytest.approx(100)
    client.force_login(organiser)
    _h, staff_rows = csv_rows(client.get(url))
    assert {r["round"] for r in staff_rows} == {"1", "2"}


def test_unknown_export_is_404(client, played_event):
    assert (
        client.get(reverse("public:export_csv", args=[played_event.pk, "nope"])).status_code == 404
    )


def test_every_column_is_documented():
    doc = (ROOT / "docs" / "exports.md").read_text(encoding="utf-8")
    for column in exports.STANDINGS_COLUMNS + exports.RESULTS_COLUMNS:
        assert f"`{column}`" in doc, column
    for key in ("format", "event", "records", "board", "table", "record", "verdict"):
        assert f"`{key}`" in doc, key


def test_a_pair_name_is_never_a_spreadsheet_formula(client, played_event):
    entry = played_event.entries.get(number=1)
    entry.pair.name = "=HYPERLINK(1)"
    entry.pair.save()
    _h, rows = csv_rows(
        client.get(reverse("public:export_csv", args=[played_event.pk, "standings"]))
    )
    assert "'=HYPERLINK(1)" in {r["pair"] for r in rows}


def test_records_json_replays_with_the_same_verdicts(client, played_event, tmp_path):
    response = client.get(reverse("public:export_records", args=[played_event.pk]))
    assert response.status_code == 200
    data = json.loads(response.content)
    assert data["format"] == exports.RECORDS_FORMAT
    assert data["event"]["commitment"] == played_event.commitment
    assert data["event"]["seed"] is None  # the event is still running
    records = data["records"]
    assert records, "round 1 has a play record"
    assert all(r["board"] not in OPEN_ROUND_BOARDS for r in records)
    assert (
        len(records)
        == PlayRecord.objects.filter(
            result__table__round__event=played_event, result__table__round__number=1
        ).count()
    )
    for item in records:
        assert set(item["record"]["deal"]["hands"]) == {"N", "E", "S", "W"}
        assert item["record"]["format"] == "botifarra-play/1"
    path = tmp_path / "records.json"
    path.write_text(json.dumps([r["record"] for r in records]), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    verdicts = [json.loads(line) for line in out.stdout.splitlines()]
    assert verdicts == [r["verdict"] for r in records]
    # The keys in play-record.md's order too, as the engine writes them (a database may sort
    # stored JSON's keys).
    assert [json.dumps(v) for v in verdicts] == [json.dumps(r["verdict"]) for r in records]


def test_open_round_records_never_exported_even_for_organisers(client, played_event, organiser):
    client.force_login(organiser)
    data = json.loads(client.get(reverse("public:export_records", args=[played_event.pk])).content)
    assert all(r["round"] == 1 for r in data["records"])
    assert PlayRecord.objects.filter(result__table__round__number=2).exists()


def test_unpublished_exports_are_404(client, running_event, organiser):
    event = build_played_event(running_event, organiser, publish=False)
    for url in (
        reverse("public:export_csv", args=[event.pk, "standings"]),
        reverse("public:export_csv", args=[event.pk, "results"]),
        reverse("public:export_records", args=[event.pk]),
    ):
        assert client.get(url).status_code == 404


def test_exports_declare_their_filenames(client, played_event):
    response = client.get(reverse("public:export_records", args=[played_event.pk]))
    assert re.search(r'filename="event-\d+-records\.json"', response["Content-Disposition"])


def test_records_json_republishes_the_canonical_record_only(client, played_event):
    """Whatever a client once sent beside the record's keys (stored before records were kept
    canonically) is not republished."""
    stored = PlayRecord.objects.filter(result__table__round__number=1).first()
    stored.record = stored.record | {"comment": "<script>alert(1)</script>", "x": 1}
    stored.record["choice"] = stored.record["choice"] | {"note": "injected"}
    stored.save()
    data = json.loads(client.get(reverse("public:export_records", args=[played_event.pk])).content)
    text = json.dumps(data)
    assert "injected" not in text and "alert" not in text
    for item in data["records"]:
        assert set(item["record"]) == {"format", "ruleset", "deal", "choice", "doubles", "play"}


def test_a_pair_without_boards_has_no_duplicate_percentage_in_the_export(client, played_event):
    """As the pages' "—": an empty cell, not 0 (a first-round bye has played no board)."""
    snapshot = played_event.snapshots.get(after_round=1)
    rows = [dict(r) for r in snapshot.rows]
    rows[-1] |= {"boards_played": 0, "duplicate_pct": 0.0}
    snapshot.rows = rows
    snapshot.save(update_fields=["rows"])
    _h, csv_lines = csv_rows(
        client.get(reverse("public:export_csv", args=[played_event.pk, "standings"]) + "?round=1")
    )
    by_entry = {int(r["number"]): r for r in csv_lines}
    numbers = dict(played_event.entries.values_list("pk", "number"))
    assert by_entry[numbers[rows[-1]["entry"]]]["duplicate_pct"] == ""
    assert all(
        r["duplicate_pct"] != "" for n, r in by_entry.items() if n != numbers[rows[-1]["entry"]]
    )
