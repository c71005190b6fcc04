"""A team event's exports: the team standings and the Butler ranking as typed tables (the same
rows feed the CSV for programs, the spreadsheet CSV and the .xlsx, as ``exports`` does)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.exports import Column, Table
from tournaments.team_selectors import TeamStandingsView

TEAM_STANDINGS = [
    Column("after_round", _("After round")),
    Column("rank", _("Rank")),
    Column("rank_shared", _("Shared rank"), "bool"),
    Column("number", _("No.")),
    Column("team", _("Team"), "text"),
    Column("club", _("Club"), "text"),
    Column("vp", _("Victory points"), "num"),
    Column("matches", _("Matches")),
    Column("wins", _("Won")),
    Column("draws", _("Drawn")),
    Column("losses", _("Lost")),
    Column("units_for", _("Units won")),
    Column("units_against", _("Units lost")),
    Column("units_diff", _("Unit difference")),
    Column("buchholz", _("Buchholz"), "num"),
    Column("byes", _("Byes")),
    Column("withdrawn", _("Withdrawn"), "bool"),
    Column("lot", _("Lot")),
]
BUTLER = [
    Column("after_round", _("After round")),
    Column("rank", _("Rank")),
    Column("rank_shared", _("Shared rank"), "bool"),
    Column("number", _("No.")),
    Column("pair", _("Pair"), "text"),
    Column("team", _("Team"), "text"),
    Column("boards", _("Boards")),
    Column("units", _("Units")),
    Column("average", _("Units per board"), "num", 4),
]


def team_standings_table(view: TeamStandingsView) -> Table:
    keys = ("matches", "wins", "draws", "losses", "units_for", "units_against", "units_diff")
    rows = [
        {
            "after_round": view.after_round,
            "rank": row.rank,
            "rank_shared": row.shared,
            "number": row.team.number,
            "team": row.team.name,
            "club": row.team.club.name if row.team.club else "",
            "vp": row.data["vp"],
            "buchholz": row.data["buchholz"],
            "byes": row.data["byes"],
            "withdrawn": row.data["withdrawn"],
            "lot": row.data["lot"],
        }
        | {k: row.data[k] for k in keys}
        for row in view.rows
    ]
    return Table("teams", TEAM_STANDINGS, rows)


def butler_table(view: TeamStandingsView) -> Table:
    rows = [
        {
            "after_round": view.after_round,
            "rank": row.rank,
            "rank_shared": row.shared,
            "number": row.entry.number,
            "pair": row.entry.pair.name,
            "team": row.team.name if row.team else "",
            "boards": row.data["boards"],
            "units": row.data["units"],
            "average": row.data["average"],
        }
        for row in view.butler
    ]
    return Table("butler", BUTLER, rows)
