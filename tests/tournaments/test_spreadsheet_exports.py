"""Issue 15: exports a club secretary opens in Excel — an .xlsx of standings, results and
travellers with typed cells and a frozen header, and CSV in the reader's locale (BOM, ";" and
the decimal comma in Catalan and Spanish); the CSV for programs stays as it was."""

import csv
import io

import pytest
from django.conf import settings
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournaments.public_event import build_played_event
from tournaments import exports

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


def get(client, name, event, kind, lang="en", query=""):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(reverse(f"public:{name}", args=[event.pk, kind]) + query)
    assert response.status_code == 200, response.content[:300]
    return response


def program_rows(client, event, kind):
    text = get(client, "export_csv", event, kind).content.decode("utf-8")
    assert not text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text)))


def workbook_rows(response):
    assert response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml"
    )
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    return sheet, rows[0], rows[1:]


@pytest.mark.parametrize("kind", exports.KINDS)
def test_xlsx_holds_the_same_rows_as_the_program_csv_with_typed_cells(client, played_event, kind):
    sheet, header, rows = workbook_rows(get(client, "export_xlsx", played_event, kind))
    table = {"standings": exports.STANDINGS, "results": exports.RESULTS}.get(
        kind, exports.TRAVELLERS
    )
    assert list(header) == [str(c.title) for c in table]
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1])
    expected = program_rows(client, played_event, kind)
    assert rows and len(rows) == len(expected)
    for values, row in zip(rows, expected, strict=True):
        for column, value in zip(table, values, strict=True):
            text = row[column.key]
            if column.kind == "int" and text != "":
                assert isinstance(value, int) and value == int(text), column.key
            elif column.kind == "num" and text != "":
                assert isinstance(value, int | float), column.key
                assert value == pytest.approx(float(text), abs=1e-4), column.key
            elif column.kind == "bool":
                assert value is (text == "1"), column.key
            elif column.kind == "text":
                # In the reader's words where the column has them (e.g. the status).
                raw = text.removeprefix("'")
                shown = column.shown(raw) if column.shown and raw else raw
                assert (value or "") == shown, column.key


def test_spreadsheets_speak_the_readers_language_and_programs_keep_identifiers(
    client, played_event
):
    """docs/players.md: the letters W and EW stay only in what programs read."""
    program = program_rows(client, played_event, "results")
    _s, header, rows = workbook_rows(get(client, "export_xlsx", played_event, "results", "ca"))
    keys = [c.key for c in exports.RESULTS]
    for values, row in zip(rows, program, strict=True):
        cells = dict(zip(keys, values, strict=True))
        assert row["status"] in ("confirmed", "entered", "ruled", "disputed")
        assert cells["status"] != row["status"]  # "confirmat", ...
        assert cells["source"] != row["source"]
        assert cells["dealer"] == {"N": "N", "E": "E", "S": "S", "W": "O"}[row["dealer"]]
        if row["declarer"] == "EW":
            assert cells["declarer"] == "EO"
    assert {r["status"] for r in program} <= {"confirmed", "entered", "ruled", "disputed"}


def test_travellers_go_board_by_board(client, played_event):
    _s, header, rows = workbook_rows(get(client, "export_xlsx", played_event, "travellers"))
    keys = [(r[0], r[1], r[2]) for r in rows]  # round, board, table
    assert keys == sorted(keys)
    assert "NS matchpoints" in header and "NS pair" in header


def test_xlsx_keeps_a_name_that_looks_like_a_formula_as_text(client, played_event):
    entry = played_event.entries.get(number=1)
    entry.pair.name = "=HYPERLINK(1)"
    entry.pair.save()
    sheet, _h, rows = workbook_rows(get(client, "export_xlsx", played_event, "standings"))
    cells = [row[4] for row in sheet.iter_rows(min_row=2)]
    named = [c for c in cells if c.value == "=HYPERLINK(1)"]
    assert named and all(c.data_type == "s" for c in named)


def test_xlsx_of_the_public_has_closed_rounds_only(client, played_event, organiser):
    _s, _h, rows = workbook_rows(get(client, "export_xlsx", played_event, "results"))
    assert {r[0] for r in rows} == {1}
    client.force_login(organiser)
    _s, _h, rows = workbook_rows(get(client, "export_xlsx", played_event, "results"))
    assert {r[0] for r in rows} == {1, 2}


@pytest.mark.parametrize("lang", ["ca", "es"])
def test_spreadsheet_csv_in_catalan_and_spanish_uses_bom_semicolon_and_decimal_comma(
    client, played_event, lang
):
    raw = get(client, "export_sheet_csv", played_event, "standings", lang).content
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    header, body = rows[0], rows[1:]
    assert len(header) == len(exports.STANDINGS)
    assert header != exports.STANDINGS_COLUMNS  # titles in the reader's language
    expected = program_rows(client, played_event, "standings")
    for row, program in zip(body, expected, strict=True):
        for column, value in zip(exports.STANDINGS, row, strict=True):
            if column.kind == "num":
                assert "." not in value
                assert value.replace(",", ".") == program[column.key], column.key
            else:
                assert value == program[column.key], column.key


@pytest.mark.parametrize(("lang", "line"), [("ca", "1;52,5;Anna"), ("es", "1;52,5;Anna")])
def test_spreadsheet_csv_writes_the_decimal_comma(lang, line):
    table = exports.Table(
        "standings",
        [exports.STANDINGS[1], exports.STANDINGS[14], exports.STANDINGS[4]],
        [{"rank": 1, "duplicate_pct": 52.5, "pair": "Anna"}],
    )
    text = exports.spreadsheet_csv(table, lang).decode("utf-8-sig")
    assert text.splitlines()[1] == line
    assert exports.spreadsheet_csv(table, "en").decode("utf-8-sig").splitlines()[1] == "1,52.5,Anna"


def test_spreadsheet_csv_in_english_uses_comma_and_decimal_point(client, played_event):
    raw = get(client, "export_sheet_csv", played_event, "results", "en").content
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Round", "Board", "Table"]
    assert len(rows) - 1 == len(program_rows(client, played_event, "results"))


def test_program_csv_ignores_the_readers_language(client, played_event):
    english = get(client, "export_csv", played_event, "standings", "en").content
    catalan = get(client, "export_csv", played_event, "standings", "ca").content
    assert english == catalan
    assert english.decode().splitlines()[0] == ",".join(exports.STANDINGS_COLUMNS)


def test_unknown_or_bad_spreadsheet_exports_are_clear_errors(client, played_event):
    for name in ("export_xlsx", "export_sheet_csv"):
        url = reverse(f"public:{name}", args=[played_event.pk, "nope"])
        assert client.get(url).status_code == 404
        url = reverse(f"public:{name}", args=[played_event.pk, "standings"])
        assert client.get(url + "?round=x").status_code == 400


def test_every_spreadsheet_export_is_documented():
    doc = (settings.BASE_DIR / "docs" / "exports.md").read_text(encoding="utf-8")
    for column in exports.TRAVELLERS_COLUMNS:
        assert f"`{column}`" in doc, column
    assert "/export/spreadsheet/" in doc and ".xlsx" in doc
