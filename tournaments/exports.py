"""CSV and JSON exports of an event's results and a club season's ranking (every column is documented in docs/exports.md).

CSV: plain UTF-8, comma-separated, one header row; numbers in the C locale (``52.5``), never
localised, so that programs read them; column names are fixed English identifiers.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from tournaments import play
from tournaments import public_selectors as sel
from tournaments.club_selectors import SeasonView

STANDINGS_COLUMNS = [
    "after_round",
    "rank",
    "rank_shared",
    "number",
    "pair",
    "club",
    "match_points",
    "wins",
    "draws",
    "losses",
    "points_for",
    "points_against",
    "point_diff",
    "buchholz",
    "duplicate_pct",
    "boards_played",
    "byes",
    "withdrawn",
    "lot",
]
RESULTS_COLUMNS = [
    "round",
    "board",
    "table",
    "ns_number",
    "ns_pair",
    "ew_number",
    "ew_pair",
    "dealer",
    "declarer",
    "delegated",
    "trump",
    "calls",
    "totals_ns",
    "totals_ew",
    "offending_pair",
    "multiplier",
    "capot",
    "score_ns",
    "score_ew",
    "net_ns",
    "adjusted_ns",
    "adjusted_ew",
    "mp_ns",
    "mp_ew",
    "pct_ns",
    "pct_ew",
    "status",
    "source",
]
RECORDS_FORMAT = "botifarra-event-records/1"


def _text(value: str) -> str:
    """A spreadsheet must not run a pair's name as a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def _num(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))
    return str(value)


def _bool(value: bool) -> str:
    return "1" if value else "0"


def _write(columns: list[str], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def standings_csv(ev: sel.EventView, view: sel.StandingsView) -> str:
    rows = []
    for row in view.rows:
        d = row.data
        rows.append(
            {
                "after_round": view.after_round,
                "rank": row.rank,
                "rank_shared": _bool(row.shared),
                "number": row.entry.number,
                "pair": _text(row.entry.pair.name),
                "club": _text(row.entry.pair.club.name if row.entry.pair.club else ""),
                "match_points": _num(d["match_points"]),
                "wins": d["wins"],
                "draws": d["draws"],
                "losses": d["losses"],
                "points_for": d["points_for"],
                "points_against": d["points_against"],
                "point_diff": d["point_diff"],
                "buchholz": _num(d["buchholz"]),
                "duplicate_pct": _num(d["duplicate_pct"], 4),
                "boards_played": d["boards_played"],
                "byes": d["byes"],
                "withdrawn": _bool(d["withdrawn"]),
                "lot": d["lot"],
            }
        )
    return _write(STANDINGS_COLUMNS, rows)


def results_csv(ev: sel.EventView) -> str:
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
                "ns_pair": _text(ev.name(t.ns_id)),
                "ew_number": ev.number(t.ew_id),
                "ew_pair": _text(ev.name(t.ew_id)),
                "dealer": r.board.dealer,
                "declarer": line.declarer,
                "delegated": _bool(r.delegated),
                "trump": r.trump,
                "calls": " ".join(
                    f"{d.get('seat', '')}:{d.get('call', '')}"
                    for d in r.doubles or []
                    if isinstance(d, dict)
                ),
                "totals_ns": _num(r.totals_ns),
                "totals_ew": _num(r.totals_ew),
                "offending_pair": r.offending_pair,
                "multiplier": r.multiplier,
                "capot": _bool(r.capot),
                "score_ns": r.score_ns,
                "score_ew": r.score_ew,
                "net_ns": r.score_ns - r.score_ew,
                "adjusted_ns": r.adjusted_ns,
                "adjusted_ew": r.adjusted_ew,
                "mp_ns": _num(tl.mp_ns if tl else None),
                "mp_ew": _num(tl.mp_ew if tl else None),
                "pct_ns": _num(tl.pct_ns if tl else None, 4),
                "pct_ew": _num(tl.pct_ew if tl else None, 4),
                "status": r.status,
                "source": r.source,
            }
        )
    return _write(RESULTS_COLUMNS, rows)


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


SEASON_COLUMNS = [
    "rank",
    "players",
    "player_ids",
    "total",
    "events_played",
    "event_id",
    "event_date",
    "event",
    "points",
    "counted",
]


def season_csv(view: SeasonView) -> str:
    """A club season's ranking: one row per competitor and event played (docs/clubs.md)."""
    rows = []
    for row in view.rows:
        common = {
            "rank": row.rank,
            "players": _text(" – ".join(p.name for p in row.players)),
            "player_ids": " ".join(str(p.pk) for p in row.players),
            "total": _num(row.total),
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
                    "event": _text(event.name),
                    "points": _num(cell[0]),
                    "counted": _bool(cell[1]),
                }
            )
    return _write(SEASON_COLUMNS, rows)
