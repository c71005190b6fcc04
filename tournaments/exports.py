"""CSV, Excel and JSON exports of an event's results and a club season's ranking (every column is
documented in docs/exports.md).

CSV for programs: plain UTF-8, comma-separated, one header row; numbers in the C locale
(``52.5``), never localised; column names are fixed English identifiers. For people, the same
rows as CSV in the reader's locale (BOM, ``;`` and decimal comma in Catalan and Spanish) and as
an .xlsx workbook with typed cells.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournaments import labels, play
from tournaments import public_selectors as sel
from tournaments.club_selectors import SeasonView
from tournaments.league_selectors import LeagueView
from tournaments.models import BoardResult


@dataclass(frozen=True)
class Column:
    """One column of an export: its identifier (the header for programs), its title for people
    (the spreadsheet exports' header) and its type: ``int``, ``num`` (a decimal number, shown
    with ``digits`` decimals at most), ``text`` (written as text, never as a formula) or
    ``bool`` (1 or 0)."""

    key: str
    title: Any
    kind: str = "int"
    digits: int = 2
    # For people (the spreadsheet exports): the value in the reader's words, e.g. "EO" for the
    # identifier "EW"; the CSV for programs keeps the identifier.
    shown: Callable[[Any], Any] | None = None


def _calls_shown(value: str) -> str:
    """``W:contro E:recontro`` as people read it: ``contro (O), recontro (E)``."""
    calls = [part.split(":", 1) for part in value.split() if ":" in part]
    return labels.calls_text([{"seat": seat, "call": call} for seat, call in calls])


def _label_of(choices: Any) -> Callable[[Any], Any]:
    return lambda value: str(choices(value).label) if value in choices.values else value


STANDINGS = [
    Column("after_round", _("After round")),
    Column("rank", _("Rank")),
    Column("rank_shared", _("Shared rank"), "bool"),
    Column("number", _("No.")),
    Column("pair", _("Pair"), "text"),
    Column("club", _("Club"), "text"),
    Column("match_points", _("Match points"), "num"),
    Column("wins", _("Won")),
    Column("draws", _("Drawn")),
    Column("losses", _("Lost")),
    Column("points_for", _("Points for")),
    Column("points_against", _("Points against")),
    Column("point_diff", _("Point difference")),
    Column("buchholz", _("Buchholz"), "num"),
    Column("duplicate_pct", _("Duplicate percentage"), "num", 4),
    Column("boards_played", _("Boards played")),
    Column("byes", _("Byes")),
    Column("withdrawn", _("Withdrawn"), "bool"),
    Column("lot", _("Lot")),
]
RESULTS = [
    Column("round", _("Round")),
    Column("board", _("Board")),
    Column("table", _("Table")),
    Column("ns_number", _("NS pair no.")),
    Column("ns_pair", _("NS pair"), "text"),
    Column("ew_number", _("EW pair no.")),
    Column("ew_pair", _("EW pair"), "text"),
    Column("dealer", _("Dealer"), "text", shown=labels.seat_letter),
    Column("declarer", _("Chosen by"), "text", shown=labels.side_label),
    Column("delegated", _("Delegated"), "bool"),
    Column("trump", _("Trumps"), "text", shown=labels.trump_name),
    Column("calls", _("Calls"), "text", shown=_calls_shown),
    Column("totals_ns", _("NS total"), "num"),
    Column("totals_ew", _("EW total"), "num"),
    Column("offending_pair", _("Offending pair"), "text", shown=labels.side_label),
    Column("multiplier", _("Multiplier")),
    Column("capot", _("Capot"), "bool"),
    Column("score_ns", _("NS score")),
    Column("score_ew", _("EW score")),
    Column("net_ns", _("NS net score")),
    Column("adjusted_ns", _("NS adjusted"), "text", shown=_label_of(BoardResult.Adjusted)),
    Column("adjusted_ew", _("EW adjusted"), "text", shown=_label_of(BoardResult.Adjusted)),
    Column("matchpoints_ns", _("NS matchpoints"), "num"),
    Column("matchpoints_ew", _("EW matchpoints"), "num"),
    Column("pct_ns", _("NS percentage"), "num", 4),
    Column("pct_ew", _("EW percentage"), "num", 4),
    Column("status", _("Status"), "text", shown=_label_of(BoardResult.Status)),
    Column("source", _("Source"), "text", shown=_label_of(BoardResult.Source)),
]
# A traveller: every table's result of each board, board by board (the printed traveller).
TRAVELLERS = [
    c
    for c in RESULTS
    if c.key
    in {
        "round",
        "board",
        "table",
        "ns_number",
        "ns_pair",
        "ew_number",
        "ew_pair",
        "trump",
        "calls",
        "score_ns",
        "score_ew",
        "net_ns",
        "matchpoints_ns",
        "matchpoints_ew",
        "pct_ns",
        "pct_ew",
    }
]
STANDINGS_COLUMNS = [c.key for c in STANDINGS]
RESULTS_COLUMNS = [c.key for c in RESULTS]
TRAVELLERS_COLUMNS = [c.key for c in TRAVELLERS]
KINDS = ("standings", "results", "travellers")
RECORDS_FORMAT = "botifarra-event-records/1"
# Languages whose spreadsheets write 52,5 and separate CSV fields with ";".
DECIMAL_COMMA = ("ca", "es")


@dataclass
class Table:
    """What an export holds, typed: the same rows feed the CSV for programs, the CSV for
    spreadsheets and the .xlsx workbook."""

    kind: str
    columns: list[Column]
    rows: list[dict[str, Any]]


def _text(value: str) -> str:
    """A spreadsheet must not run a pair's name as a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def _num(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))
    return str(value)


def _for_people(column: Column, value: Any) -> Any:
    """The value a spreadsheet shows: in the reader's words where the column has them."""
    return column.shown(value) if column.shown is not None and value not in (None, "") else value


def _cell_text(column: Column, value: Any, decimal: str = ".") -> str:
    """A value as CSV text: numbers in the C locale unless ``decimal`` says otherwise."""
    if value is None:
        return ""
    if column.kind == "bool":
        return "1" if value else "0"
    if column.kind == "text":
        return _text(str(value))
    if column.kind == "num":
        return _num(value, column.digits).replace(".", decimal)
    return str(value)


def standings_table(ev: sel.EventView, view: sel.StandingsView) -> Table:
    rows = []
    for row in view.rows:
        d = row.data
        rows.append(
            {
                "after_round": view.after_round,
                "rank": row.rank,
                "rank_shared": row.shared,
                "number": row.entry.number,
                "pair": row.entry.pair.name,
                "club": row.entry.pair.club.name if row.entry.pair.club else "",
                "match_points": d["match_points"],
                "buchholz": d["buchholz"],
                # None (an empty cell) before the pair's first board, as the pages' "—".
                "duplicate_pct": d["duplicate_pct"] if d["boards_played"] else None,
                "withdrawn": d["withdrawn"],
            }
            | {
                key: d[key]
                for key in (
                    "wins",
                    "draws",
                    "losses",
                    "points_for",
                    "points_against",
                    "point_diff",
                    "boards_played",
                    "byes",
                    "lot",
                )
            }
        )
    return Table("standings", STANDINGS, rows)


def results_table(ev: sel.EventView) -> Table:
    rows = []
    for line in sel.result_lines(ev):
        r = line.result
        t = line.table
        tl = line.line
        rows.append(
            {
                "round": t.round.number,
                "board": r.board.number,
                "table": t.number,
                "ns_number": ev.number(t.ns_id),
                "ns_pair": ev.name(t.ns_id),
                "ew_number": ev.number(t.ew_id),
                "ew_pair": ev.name(t.ew_id),
                "dealer": r.board.dealer,
                "declarer": line.declarer,
                "delegated": r.delegated,
                "trump": r.trump,
                "calls": " ".join(
                    f"{d.get('seat', '')}:{d.get('call', '')}"
                    for d in r.doubles or []
                    if isinstance(d, dict)
                ),
                "totals_ns": r.totals_ns,
                "totals_ew": r.totals_ew,
                "offending_pair": r.offending_pair,
                "multiplier": r.multiplier,
                "capot": r.capot,
                "score_ns": r.score_ns,
                "score_ew": r.score_ew,
                "net_ns": r.score_ns - r.score_ew,
                "adjusted_ns": r.adjusted_ns,
                "adjusted_ew": r.adjusted_ew,
                "matchpoints_ns": tl.mp_ns if tl else None,
                "matchpoints_ew": tl.mp_ew if tl else None,
                "pct_ns": tl.pct_ns if tl else None,
                "pct_ew": tl.pct_ew if tl else None,
                "status": r.status,
                "source": r.source,
            }
        )
    return Table("results", RESULTS, rows)


def travellers_table(ev: sel.EventView) -> Table:
    rows = sorted(results_table(ev).rows, key=lambda r: (r["round"], r["board"], r["table"]))
    return Table("travellers", TRAVELLERS, [{c.key: r[c.key] for c in TRAVELLERS} for r in rows])


def program_csv(table: Table) -> str:
    """For programs: plain UTF-8, ``,``, numbers in the C locale, the identifiers as header."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.key for c in table.columns])
    for row in table.rows:
        writer.writerow([_cell_text(c, row.get(c.key)) for c in table.columns])
    return out.getvalue()


def spreadsheet_csv(table: Table, language: str) -> bytes:
    """For a spreadsheet opened by double-click in the reader's language: a BOM so that Excel
    reads UTF-8, and in Catalan and Spanish the ``;`` separator and the decimal comma that
    Excel expects there; the columns' titles in that language."""
    comma = language in DECIMAL_COMMA
    delimiter, decimal = (";", ",") if comma else (",", ".")
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([str(c.title) for c in table.columns])
    for row in table.rows:
        writer.writerow(
            [_cell_text(c, _for_people(c, row.get(c.key)), decimal) for c in table.columns]
        )
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def xlsx(table: Table, *, title: str) -> bytes:
    """An Excel workbook of one sheet (``xlsx_book``)."""
    return xlsx_book([(table, title)])


def xlsx_book(sheets: list[tuple[Table, Any]]) -> bytes:
    """An Excel workbook of a sheet per table: typed cells (numbers are numbers, names are text
    even when they start with "="), the header in bold and frozen, columns wide enough."""
    book = Workbook()
    book.remove(book.active)
    for table, title in sheets:
        # A sheet's name is at most 31 characters, none of \ / * ? : [ ] (a season's name
        # such as "Temporada 2025/26" has one).
        name = re.sub(r"[\\/*?:\[\]]", "-", str(title)).strip("'")[:31]
        sheet = book.create_sheet(name or "-")
        sheet.append([str(c.title) for c in table.columns])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in table.rows:
            values = []
            for c in table.columns:
                value = _for_people(c, row.get(c.key))
                if c.kind == "bool" and value is not None:
                    value = bool(value)
                elif c.kind == "num" and value is not None:
                    value = round(value, c.digits)
                elif isinstance(value, str):
                    # Control characters XML cannot hold (a name stored before names were
                    # cleaned, a note): dropped, or the whole workbook would fail.
                    value = ILLEGAL_CHARACTERS_RE.sub("", value)
                values.append(value)
            sheet.append(values)
            for cell, c in zip(sheet[sheet.max_row], table.columns, strict=True):
                if c.kind == "text" and cell.value is not None:
                    cell.data_type = "s"  # never a formula
        sheet.freeze_panes = "A2"
        for index, c in enumerate(table.columns, start=1):
            longest = max(
                [len(str(c.title))]
                + [len(str(_for_people(c, r.get(c.key)) or "")) for r in table.rows]
            )
            sheet.column_dimensions[get_column_letter(index)].width = min(max(longest + 2, 6), 50)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def standings_csv(ev: sel.EventView, view: sel.StandingsView) -> str:
    return program_csv(standings_table(ev, view))


def results_csv(ev: sel.EventView) -> str:
    return program_csv(results_table(ev))


def records_json(ev: sel.EventView) -> dict[str, Any]:
    event = ev.event
    return {
        "format": RECORDS_FORMAT,
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "ruleset": event.ruleset,
            "sant_vicenc_in_botifarra": play.rules(event).allows_sant_vicenc_in_botifarra,
            "boards_per_round": event.boards_per_round,
            "commitment": event.commitment,
            "seed": event.public_seed,
            "closed_rounds": [r.number for r in ev.closed_rounds],
        },
        "records": sel.play_records(ev),
    }


SEASON = [
    Column("rank", _("Rank")),
    Column("players", _("Players"), "text"),
    Column("player_ids", _("Player ids"), "text"),
    Column("total", _("Total"), "num"),
    Column("events_played", _("Events played")),
    Column("event_id", _("Event id")),
    Column("event_date", _("Event date"), "text"),
    Column("event", _("Event"), "text"),
    Column("points", _("Points"), "num"),
    Column("counted", _("Counted"), "bool"),
]
SEASON_COLUMNS = [c.key for c in SEASON]


def season_table(view: SeasonView) -> Table:
    """A club season's ranking: one row per competitor and event played (docs/clubs.md)."""
    rows = []
    for row in view.rows:
        common = {
            "rank": row.rank,
            "players": " – ".join(p.name for p in row.players),
            "player_ids": " ".join(str(p.pk) for p in row.players),
            "total": row.total,
            "events_played": row.events_played,
        }
        for event, cell in zip(view.events, row.points, strict=True):
            if cell is None:
                continue
            rows.append(
                common
                | {
                    "event_id": event.pk,
                    "event_date": event.date.isoformat(),
                    "event": event.name,
                    "points": cell[0],
                    "counted": cell[1],
                }
            )
    return Table("season", SEASON, rows)


def season_csv(view: SeasonView) -> str:
    return program_csv(season_table(view))


def season_xlsx(view: SeasonView) -> bytes:
    return xlsx(season_table(view), title=view.season.name)


LEAGUE = [
    Column("after_day", _("After match day")),
    Column("rank", _("Rank")),
    Column("rank_shared", _("Shared rank"), "bool"),
    Column("team_number", _("No.")),
    Column("team", _("Team"), "text"),
    Column("club", _("Club"), "text"),
    Column("points", _("League points")),
    Column("played", _("Played")),
    Column("won", _("Won")),
    Column("drawn", _("Drawn")),
    Column("lost", _("Lost")),
    Column("games_won", _("Games won")),
    Column("games_lost", _("Games lost")),
    Column("units_for", _("Units for")),
    Column("units_against", _("Units against")),
    Column("units_diff", _("Unit difference")),
]
FIXTURES = [
    Column("day", _("Match day")),
    Column("date", _("Date"), "text"),
    Column("home", _("Home"), "text"),
    Column("away", _("Away"), "text"),
    Column("played", _("Played"), "bool"),
    Column("forfeit", _("Forfeit"), "text"),
    Column("games_home", _("Games won at home")),
    Column("games_away", _("Games won away")),
    Column("games_drawn", _("Games drawn")),
    Column("points_home", _("Points at home")),
    Column("points_away", _("Points away")),
    Column("league_points_home", _("League points at home")),
    Column("league_points_away", _("League points away")),
]


def league_table(view: LeagueView) -> Table:
    """A league's table after its chosen match day (docs/teams.md, the league)."""
    rows = [
        {
            "after_day": view.after_day,
            "rank": row.rank,
            "rank_shared": row.shared,
            "team_number": row.team.number,
            "team": row.team.name,
            "club": row.team.club.name if row.team.club else "",
            **{key: getattr(row, key) for key in (c.key for c in LEAGUE[6:])},
        }
        for row in view.rows
    ]
    return Table("league", LEAGUE, rows)


def league_fixtures(view: LeagueView) -> Table:
    """A league's fixture list, each match with its result once it has one."""
    rows = []
    for day in sorted(view.fixtures):
        for line in view.fixtures[day]:
            fixture, result = line.fixture, line.result
            played = result is not None and (
                result.forfeit is not None
                or bool(result.games_home + result.games_away + result.games_drawn)
            )
            rows.append(
                {
                    "day": day,
                    "date": fixture.date.isoformat() if fixture.date else "",
                    "home": fixture.home.name,
                    "away": fixture.away.name,
                    "played": played,
                    "forfeit": fixture.forfeit,
                    **{
                        key: getattr(result, key) if played else None
                        for key in (c.key for c in FIXTURES[6:])
                    },
                }
            )
    return Table("league-fixtures", FIXTURES, rows)


def league_csv(view: LeagueView, part: str) -> str:
    return program_csv(league_table(view) if part == "table" else league_fixtures(view))


def league_xlsx(view: LeagueView) -> bytes:
    return xlsx_book(
        [(league_table(view), _("League table")), (league_fixtures(view), _("Fixture list"))]
    )


def league_json(view: LeagueView) -> dict[str, Any]:
    """The league for programs: its table after the chosen match day and its fixture list."""
    return {
        "league": view.league.name,
        "after_day": view.after_day,
        "days_played": view.days,
        "table": league_table(view).rows,
        "fixtures": league_fixtures(view).rows,
    }
