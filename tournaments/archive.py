"""The event archive (docs/formats.md, "The event archive"): the whole event as one JSON document,
for keeping and for re-creating it in another installation (``services.archive``).

Pairs are named by their number everywhere (never a database id), teams by theirs, tables by
their round and number, results by round, table and board, so the document means the same in any
database. A team event's archive also holds its teams, each round's matches with their line-ups
and the team standings. The seed is in it only once the event is finished
(``Event.public_seed``); table codes never.
Who may download it is ``policy.can_download_archive``.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import clip
from tournaments import play
from tournaments.actors import is_table_label
from tournaments.models import (
    AuditEntry,
    BoardResult,
    BoardUnlock,
    ByeRequest,
    Dispute,
    Entry,
    Event,
    ForbiddenPair,
    LineUp,
    PlayRecord,
    Submission,
    Substitution,
    TeamMatch,
    TeamMember,
)
from tournaments.scoring_io import event_input
from tournaments.services.events import EVENT_OPTIONS
from tournaments.services.standings import snapshot_values, team_snapshot_values

FORMAT = "botifarra-event-archive"
VERSION = 1
SCHEMA_PATH = Path(settings.BASE_DIR) / "docs" / "schemas" / "archive.schema.json"

# What a result's contract, hand and score are: what the engine, a play record or a ruling give
# (the import checks them against each other); the other fields of a result say who and when.
SCORED_FIELDS = (
    "delegated",
    "trump",
    "doubles",
    "totals_ns",
    "totals_ew",
    "offending_pair",
    "multiplier",
    "score_ns",
    "score_ew",
    "capot",
    "adjusted_ns",
    "adjusted_ew",
)
RESULT_FIELDS = (
    "status",
    "source",
    *SCORED_FIELDS,
    "entered_by",
    "entered_side",
    "confirmed_by",
    "version",
)


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


# Times and dates as the import reads them (``fromisoformat``): jsonschema checks "date-time"
# only with an optional package installed, and a time it let through would fail the import.
_FORMATS = jsonschema.FormatChecker()


@_FORMATS.checks("date-time", raises=(ValueError, OverflowError))
def _is_time(value: object) -> bool:
    """A time the import can store: it reads, and it is still a time once in UTC, as the
    database holds it (0001-01-01T00:00:00+05:00 reads, but is before year 1 in UTC); a time
    without an offset is in the site's time zone (``TIME_ZONE``), as Django stores it."""
    if isinstance(value, str):
        moment = dt.datetime.fromisoformat(value)
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment, timezone.get_default_timezone())
        moment.astimezone(dt.UTC)
    return True


@_FORMATS.checks("date", raises=ValueError)
def _is_date(value: object) -> bool:
    if isinstance(value, str):
        dt.date.fromisoformat(value)
    return True


def schema_problems(document: object) -> list[tuple[str, str]]:
    """(path, message) for each way ``document`` departs from the archive's JSON Schema, the
    first ten, in document order."""
    validator = jsonschema.Draft202012Validator(schema(), format_checker=_FORMATS)
    errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.path])
    problems: list[tuple[str, str]] = []
    for error in errors:
        if error.validator == "additionalProperties":
            for name in _extras(error):
                problems.append(
                    (
                        _path([*error.absolute_path, name]),
                        _("this field is not part of the archive's format."),
                    )
                )
            continue
        if error.validator == "required":
            # One error per missing field, each holding the whole list: name them in turn.
            missing = [n for n in error.validator_value if n not in error.instance]
            for name in missing:
                problem = (_path([*error.absolute_path, name]), _("this field is missing."))
                if problem not in problems:
                    problems.append(problem)
                    break
        else:
            problems.append(_problem(error))
    return problems[:10]


_JSON_TYPES = {
    "object": gettext_lazy("an object {…}"),
    "array": gettext_lazy("a list […]"),
    "string": gettext_lazy("text"),
    "integer": gettext_lazy("a whole number"),
    "number": gettext_lazy("a number"),
    "boolean": gettext_lazy("true or false"),
    "null": "null",
}


def _extras(error: jsonschema.ValidationError) -> list[str]:
    """The keys of an object its schema does not name (``properties``) nor match
    (``patternProperties``), in order."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    named, patterns = schema.get("properties", {}), list(schema.get("patternProperties", {}))
    return sorted(
        str(key)
        for key in error.instance
        if key not in named and not any(re.search(p, str(key)) for p in patterns)
    )


def _problem(error: jsonschema.ValidationError) -> tuple[str, str]:
    """(path, a sentence in the reader's language): jsonschema's own messages are English
    and quote the value, so each kind of departure gets its sentence here."""
    path = _path(error.absolute_path)
    kind = error.validator
    if kind == "type":
        wanted = error.validator_value
        names = [
            str(_JSON_TYPES.get(n, n)) for n in ([wanted] if isinstance(wanted, str) else wanted)
        ]
        kinds = (
            names[0]
            if len(names) == 1
            else _("%(first)s or %(last)s")
            % {
                "first": ", ".join(names[:-1]),
                "last": names[-1],
            }
        )
        return path, _("this must be %(kind)s.") % {"kind": kinds}
    if kind == "format":
        return path, _("this is not a valid %(format)s: %(value)s.") % {
            "format": error.validator_value,
            "value": clip(error.instance),
        }
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return path, _("this number is out of range.")
    if kind in ("minLength", "maxLength", "minItems", "maxItems", "minProperties"):
        return path, _("this is too short or too long.")
    return path, _("this value is not allowed here.")


def _path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _user(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class Numbers:
    """Entry ids ↔ pair numbers of one event."""

    def __init__(self, entries: dict[int, int]) -> None:
        self.number_of = entries  # id → number

    def __call__(self, entry_id: int | None) -> int | None:
        return self.number_of.get(entry_id) if entry_id is not None else None


# ---- the standings, in pair numbers (export and the import's comparison share these) ---------


def standings_row(row: dict[str, Any], numbers: Numbers) -> dict[str, Any]:
    out = {"pair": numbers(row["entry"])}
    out.update({k: v for k, v in row.items() if k != "entry"})
    return out


def standings_doc(after_round: int, values: dict[str, Any], numbers: Numbers) -> dict[str, Any]:
    return {
        "after_round": after_round,
        "results_counted": values["results_counted"],
        "rows": [standings_row(r, numbers) for r in values["rows"]],
        "matches": [
            {**m, "ns": numbers(m["ns"]), "ew": numbers(m["ew"])}
            for m in sorted(values["matches"], key=lambda m: m["table"])
        ],
        "travellers": {
            board: {
                "top": trav["top"],
                "lines": [
                    {**line, "ns": numbers(line["ns"]), "ew": numbers(line["ew"])}
                    for line in trav["lines"]
                ],
            }
            for board, trav in sorted(values["travellers"].items(), key=lambda kv: int(kv[0]))
        },
    }


def standings_docs(event: Event, numbers: Numbers) -> list[dict[str, Any]]:
    """The standings after each open or closed round, computed from the stored results as the
    standings task computes its snapshots (never stale, whatever the queue is doing)."""
    data = event_input(event)
    return [standings_doc(rnd.number, snapshot_values(data, rnd), numbers) for rnd in data.rounds]


def team_standings_doc(
    after_round: int, values: dict[str, Any], teams: Numbers, pairs: Numbers
) -> dict[str, Any]:
    return {
        "after_round": after_round,
        "results_counted": values["results_counted"],
        "rows": [{**r, "team": teams(r["team"])} for r in values["rows"]],
        "matches": [
            {**m, "team_a": teams(m["team_a"]), "team_b": teams(m["team_b"])}
            for m in values["matches"]
        ],
        "butler": [{**r, "pair": pairs(r["pair"])} for r in values["butler"]["rows"]],
    }


def team_standings_docs(event: Event, teams: Numbers, pairs: Numbers) -> list[dict[str, Any]]:
    """A team event's standings after each open or closed round, as its snapshots hold them."""
    return [
        team_standings_doc(number, values, teams, pairs)
        for number, values in team_snapshot_values(event)
    ]


# ---- the document -------------------------------------------------------------------------------


def _event(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "club": event.club.name if event.club else None,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "status": event.status,
        "published": event.published,
        "registration_cap": event.registration_cap,
        "created_at": _time(event.created_at),
        "finished_at": _time(event.finished_at),
        "commitment": event.commitment,
        "seed": event.public_seed,
        "options": {name: getattr(event, name) for name in EVENT_OPTIONS},
    }


def _players(entry: Entry) -> list[dict[str, Any]]:
    return [
        {"name": p.name, "licence": p.licence} for p in (entry.pair.player1, entry.pair.player2)
    ]


def _pairs(entries: list[Entry], teams: Numbers | None) -> list[dict[str, Any]]:
    """The pairs; in a team event each with its ``team`` (a team number)."""
    return [
        {
            "number": e.number,
            "name": e.pair.name,
            "club": e.pair.club.name if e.pair.club else None,
            "players": _players(e),
            "withdrawn_after_round": e.withdrawn_after_round,
            **({"missed_rounds": list(e.missed_rounds)} if e.missed_rounds else {}),
            "joins_round": e.joins_round,
            "rating": e.rating,
            **({"team": teams(e.team_id)} if teams is not None else {}),
        }
        for e in entries
    ]


def _teams(event: Event) -> list[dict[str, Any]]:
    teams = event.teams.select_related("club").prefetch_related(
        Prefetch("members", TeamMember.objects.select_related("player").order_by("order"))
    )
    return [
        {
            "number": t.number,
            "name": t.name,
            "club": t.club.name if t.club else None,
            "withdrawn_after_round": t.withdrawn_after_round,
            "players": [
                {"name": m.player.name, "licence": m.player.licence} for m in t.members.all()
            ],
        }
        for t in teams.order_by("number")
    ]


def _matches(event: Event, teams: Numbers, pairs: Numbers) -> dict[int, list[dict[str, Any]]]:
    """Each round's team matches (by round number), with the two teams' line-ups."""
    matches = (
        TeamMatch.objects.filter(round__event=event)
        .select_related("round", "open_table", "closed_table")
        .prefetch_related(
            Prefetch(
                "lineups",
                LineUp.objects.prefetch_related("substitutes").order_by("team__number"),
            )
        )
        .order_by("round__number", "number")
    )
    out: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        out.setdefault(m.round.number, []).append(
            {
                "number": m.number,
                "team_a": teams(m.team_a_id),
                "team_b": teams(m.team_b_id),
                "open_table": m.open_table.number,
                "closed_table": m.closed_table.number,
                "lineups": [
                    {
                        "team": teams(lineup.team_id),
                        "first": pairs(lineup.first_id),
                        "second": pairs(lineup.second_id),
                        "substitutes": sorted(p.name for p in lineup.substitutes.all()),
                        "entered_by": lineup.entered_by,
                    }
                    for lineup in m.lineups.all()
                ],
            }
        )
    return out


def _substitutions(event: Event, numbers: Numbers) -> list[dict[str, Any]]:
    rows = Substitution.objects.filter(entry__event=event).select_related(
        "entry", "player_out", "player_in", "previous_pair__player1", "previous_pair__player2"
    )
    return [
        {
            "pair": numbers(s.entry_id),
            "from_round": s.from_round,
            "player_out": s.player_out.name,
            "player_in": s.player_in.name,
            "previous_pair": {
                "name": s.previous_pair.name,
                "players": [s.previous_pair.player1.name, s.previous_pair.player2.name],
            },
            "reason": s.reason,
            "created_by": s.created_by,
            "created_at": _time(s.created_at),
        }
        for s in rows.order_by("from_round", "pk")
    ]


def _rounds(event: Event, numbers: Numbers, teams: Numbers | None) -> list[dict[str, Any]]:
    """The rounds; in a team event each with its ``team_bye`` and ``matches``."""
    rounds = event.rounds.prefetch_related("tables", "rests").order_by("number")
    matches = _matches(event, teams, numbers) if teams is not None else {}
    return [
        {
            "number": r.number,
            "status": r.status,
            "bye": numbers(r.bye_id),
            "rests": sorted(numbers(e.pk) for e in r.rests.all()),
            "opened_at": _time(r.opened_at),
            "closed_at": _time(r.closed_at),
            "ruling_open": r.ruling_open,
            "tables": [
                {
                    "number": t.number,
                    "ns": numbers(t.ns_id),
                    "ew": numbers(t.ew_id),
                    "forfeited_by": t.forfeited_by,
                    "time_after": t.time_after,
                }
                for t in sorted(r.tables.all(), key=lambda t: t.number)
            ],
            **(
                {"team_bye": teams(r.team_bye_id), "matches": matches.get(r.number, [])}
                if teams is not None
                else {}
            ),
        }
        for r in rounds
    ]


def _record(pr: PlayRecord | None) -> dict[str, Any] | None:
    if pr is None:
        return None
    return {
        "record": play.record_out(pr.record),
        "verdict": play.verdict_out(pr.verdict),
        "outcome": pr.outcome,
        "created_at": _time(pr.created_at),
    }


def _rulings(dispute: Dispute) -> list[dict[str, Any]]:
    rulings = sorted(dispute.rulings.all(), key=lambda r: (r.created_at, r.pk))
    index = {r.pk: i for i, r in enumerate(rulings)}
    return [
        {
            "kind": r.kind,
            "data": r.data,
            "explanation": r.explanation,
            "referee": _user(r.referee),
            "supersedes": index.get(r.supersedes_id) if r.supersedes_id else None,
            "created_at": _time(r.created_at),
        }
        for r in rulings
    ]


def _result(result: BoardResult) -> dict[str, Any]:
    submissions = sorted(result.submissions.all(), key=lambda s: (s.created_at, s.pk))
    loose = [pr for pr in result.play_records.all() if pr.submission_id is None]
    return {
        "round": result.table.round.number,
        "table": result.table.number,
        "board": result.board.number,
        **{name: getattr(result, name) for name in RESULT_FIELDS},
        "created_at": _time(result.created_at),
        "updated_at": _time(result.updated_at),
        "submissions": [
            {
                "source": s.source,
                "side": s.side,
                "submitted_by": s.submitted_by,
                "data": s.data,
                "created_at": _time(s.created_at),
                "play_record": _record(getattr(s, "play_record", None)),
            }
            for s in submissions
        ],
        "play_records": [_record(pr) for pr in sorted(loose, key=lambda p: (p.created_at, p.pk))],
        "disputes": [
            {
                "reason": d.reason,
                "details": d.details,
                "opened_by": d.opened_by,
                "previous_status": d.previous_status,
                "status": d.status,
                "referee": _user(d.referee),
                "created_at": _time(d.created_at),
                "closed_at": _time(d.closed_at),
                "rulings": _rulings(d),
            }
            for d in sorted(result.disputes.all(), key=lambda d: (d.created_at, d.pk))
        ],
    }


def _results(event: Event) -> list[dict[str, Any]]:
    results = (
        BoardResult.objects.filter(table__round__event=event)
        .select_related("table__round", "board")
        .prefetch_related(
            Prefetch("submissions", Submission.objects.select_related("play_record")),
            "play_records",
            Prefetch(
                "disputes",
                Dispute.objects.select_related("referee").prefetch_related("rulings__referee"),
            ),
        )
        .order_by("table__round__number", "table__number", "board__number")
    )
    return [_result(r) for r in results]


def _where(result: BoardResult | None) -> dict[str, int] | None:
    if result is None:
        return None
    return {
        "round": result.table.round.number,
        "table": result.table.number,
        "board": result.board.number,
    }


def _audit(event: Event) -> list[dict[str, Any]]:
    entries = AuditEntry.objects.filter(event=event).select_related(
        "result__table__round", "result__board"
    )
    return [
        {
            "actor": a.actor,
            "action": a.action,
            "changes": a.changes,
            "note": a.note,
            "created_at": _time(a.created_at),
            "result": _where(a.result),
        }
        for a in entries.order_by("created_at", "pk")
    ]


def _unlocks(event: Event) -> list[dict[str, Any]]:
    rows = BoardUnlock.objects.filter(table__round__event=event).select_related(
        "table__round", "board"
    )
    return [
        {
            "round": u.table.round.number,
            "table": u.table.number,
            "board": u.board.number,
            "reason": u.reason,
            "actor": u.actor,
            "created_at": _time(u.created_at),
        }
        for u in rows.order_by("created_at", "pk")
    ]


def event_archive(event: Event, *, exported_at: dt.datetime) -> dict[str, Any]:
    """The archive of ``event`` (the caller checked ``policy.can_download_archive``)."""
    entries = list(
        event.entries.select_related("pair__player1", "pair__player2", "pair__club").order_by(
            "number"
        )
    )
    numbers = Numbers({e.pk: e.number for e in entries})
    teams = Numbers(dict(event.teams.values_list("pk", "number"))) if event.is_team_event else None
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(exported_at),
        "event": _event(event),
        **({"teams": _teams(event)} if teams is not None else {}),
        "pairs": _pairs(entries, teams),
        "substitutions": _substitutions(event, numbers),
        "forbidden_pairs": [
            [numbers(low), numbers(high)]
            for low, high in ForbiddenPair.objects.filter(event=event)
            .order_by("pk")
            .values_list("low_id", "high_id")
        ],
        "bye_requests": [
            {"pair": numbers(entry), "round": number, "created_by": by}
            for entry, number, by in ByeRequest.objects.filter(entry__event=event)
            .order_by("round_number", "entry__number")
            .values_list("entry_id", "round_number", "created_by")
        ],
        "rounds": _rounds(event, numbers, teams),
        "boards": [
            {"number": b.number, "dealer": b.dealer, "hands": b.hands}
            for b in event.boards.order_by("number")
        ],
        "unlocks": _unlocks(event),
        "results": _results(event),
        "audit": _audit(event),
        # A team event is ranked on victory points: its standings are the teams'.
        "standings": standings_docs(event, numbers) if teams is None else [],
    }
    if teams is not None:
        document["team_standings"] = team_standings_docs(event, teams, numbers)
    return document


def _public_label(label: str | None) -> str | None:
    """Who acted, as the public archive says it: a table as it is, an account as "staff"."""
    if not label or label == "anonymous" or is_table_label(label):
        return label
    return "staff"


def _public_address(url: str | None) -> str | None:
    """A webhook's address as the public archive says it: its scheme and host only."""
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{parts.scheme}://[{host}]" if ":" in host else f"{parts.scheme}://{host}"


def public_archive(document: dict[str, Any]) -> dict[str, Any]:
    """The archive as anyone may read it once the event is finished and published: the same
    document without what identifies people beyond the public pages (players' licence numbers,
    the accounts of organisers and referees); tables stay named as tables. The organisers'
    archive (``event_archive``) keeps everything, for an import elsewhere."""
    doc = copy.deepcopy(document)
    for competitor in [*doc["pairs"], *doc.get("teams", [])]:
        for player in competitor["players"]:
            player["licence"] = ""
    for row in [*doc["bye_requests"], *doc.get("substitutions", [])]:
        row["created_by"] = _public_label(row["created_by"])
    for row in [*doc["audit"], *doc["unlocks"]]:
        row["actor"] = _public_label(row["actor"])
    for row in doc["audit"]:
        # Roles given and invitations: the account's name, and the invited address.
        if "user" in row["changes"]:
            row["changes"]["user"] = [_public_label(v) for v in row["changes"]["user"]]
        if row["action"].startswith("invitation_"):
            row["note"] = ""
        if row["action"].startswith("webhook_") and "url" in row["changes"]:
            # A hook's address often carries the receiver's secret (Slack, Discord, Teams).
            row["changes"]["url"] = [_public_address(v) for v in row["changes"]["url"]]
    for rnd in doc["rounds"]:
        for match in rnd.get("matches", []):
            for lineup in match["lineups"]:
                lineup["entered_by"] = _public_label(lineup["entered_by"])
    for result in doc["results"]:
        result["entered_by"] = _public_label(result["entered_by"])
        result["confirmed_by"] = _public_label(result["confirmed_by"])
        for submission in result["submissions"]:
            submission["submitted_by"] = _public_label(submission["submitted_by"])
        for dispute in result["disputes"]:
            dispute["opened_by"] = _public_label(dispute["opened_by"])
            dispute["referee"] = None
            for ruling in dispute["rulings"]:
                ruling["referee"] = None
    return doc
