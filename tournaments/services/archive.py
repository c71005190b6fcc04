"""Re-create an event from its archive (``tournaments.archive``, docs/formats.md) in this
installation: ``manage.py import_event FILE`` and ``POST /api/v1/events/import``.

Only a finished event's archive is accepted: its seed deals the boards again, and they must be
the archive's. Everything is then stored as it was (pairs, and a team event's teams, rounds,
tables, a team event's matches and line-ups, results with every submission, play record,
dispute and ruling, the audit trail), the standings are recomputed
here from the stored results, and the import is refused, storing nothing, unless every play
record replays to the verdict the archive holds and the standings after every round equal the
archive's. The importing account becomes the event's organiser; the event is not published
until it publishes it here.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from tournaments import archive, play, queue
from tournaments.actors import Actor
from tournaments.models import (
    AuditEntry,
    Board,
    BoardResult,
    BoardUnlock,
    ByeRequest,
    Club,
    Dispute,
    Entry,
    Event,
    ForbiddenPair,
    LineUp,
    Pair,
    Player,
    PlayRecord,
    Round,
    Ruling,
    Submission,
    Substitution,
    Table,
    Team,
    TeamMatch,
    TeamMember,
)
from tournaments.services import Conflict, NotAllowed, ServiceError, audit, clubs
from tournaments.services.disputes import ruling_values
from tournaments.services.events import (
    EVENT_OPTIONS,
    OPTION_RANGES,
    SMALLEST_CEILING,
    players_key,
    same_person_problem,
)
from tournaments.services.names import normal_name
from tournaments.services.results import short_values
from tournaments.services.standings import standings_recompute

_M = TypeVar("_M", bound=models.Model)


# PostgreSQL's ranges (Django's), by field type: SQLite's columns hold any integer.
INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges


def _create(model: type[_M], **values: Any) -> _M:
    """``model.objects.create``, refusing a text longer than its column, or a number out of its
    column's range, first: SQLite does not enforce the limits that PostgreSQL does, and the
    archive must be refused on both."""
    instance = model(**values)
    for f in model._meta.concrete_fields:
        value = getattr(instance, f.attname)
        if f.max_length and isinstance(value, str) and len(value) > f.max_length:
            raise DjangoValidationError(f"{model.__name__}.{f.name} is too long")
        low, high = INTEGER_RANGES.get(f.get_internal_type(), (None, None))
        if isinstance(value, int) and low is not None and not low <= value <= high:
            raise DjangoValidationError(f"{model.__name__}.{f.name} is out of range")
    instance.save(force_insert=True)
    return instance


def _time(value: str | None) -> dt.datetime | None:
    """An archive's time; one without an offset is in the site's time zone, as Django reads it."""
    if not value:
        return None
    moment = dt.datetime.fromisoformat(value)
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _stamp(obj: Any, **times: str | None) -> None:
    """Put back the archive's times on fields Django sets itself (``auto_now_add``)."""
    values = {k: _time(v) for k, v in times.items() if v}
    if values:
        type(obj).objects.filter(pk=obj.pk).update(**values)


def _check(document: Mapping[str, Any]) -> None:
    if not isinstance(document, Mapping) or document.get("format") != archive.FORMAT:
        raise ServiceError(
            _("This is not a Botifarra event archive: its format must be %(f)s.")
            % {"f": archive.FORMAT},
            field="format",
        )
    problems = archive.schema_problems(document)
    if problems:
        path, message = problems[0]
        raise ServiceError(
            _("This is not an event archive this installation can read: %(path)s: %(problem)s")
            % {"path": path or "archive", "problem": message},
            field=path or "archive",
        )
    if document["event"]["seed"] is None:
        raise Conflict(
            _(
                "Only the archive of a finished event can be imported: before that it holds no "
                "seed, and the boards cannot be dealt again."
            ),
            field="event.seed",
        )
    if play.seed_commitment(document["event"]["seed"]) != document["event"]["commitment"]:
        raise ServiceError(
            _("The archive's seed is not the one its event committed to."), field="event.seed"
        )


def _references(document: Mapping[str, Any]) -> None:
    """Refuse, naming the section, an archive whose parts name what it does not hold (a result
    at a table of no round, a pair number given twice, a ruling superseding no ruling): the
    schema checks each value alone, not how they refer to each other."""

    def refuse(field: str) -> None:
        raise ServiceError(
            _("The archive's %(part)s name something the archive does not hold, or twice.")
            % {"part": field},
            field=field,
        )

    if document["event"]["status"] != Event.Status.FINISHED:
        raise ServiceError(
            _("Only the archive of a finished event can be imported."), field="event.status"
        )
    rounds_count = document["event"]["options"].get(
        "rounds_count", Event._meta.get_field("rounds_count").get_default()
    )
    if type(rounds_count) is int and any(r["number"] > rounds_count for r in document["rounds"]):
        raise ServiceError(
            _("The archive holds a round past the event's number of rounds."),
            field="event.options.rounds_count",
        )
    pairs = [p["number"] for p in document["pairs"]]
    if len(set(pairs)) != len(pairs):
        refuse("pairs")
    known = set(pairs)
    boards = [b["number"] for b in document["boards"]]
    per_round = document["event"]["options"].get(
        "boards_per_round", Event._meta.get_field("boards_per_round").get_default()
    )
    dealing = Event(boards_per_round=per_round)
    if len(set(boards)) != len(boards) or (
        # Every board of every round it holds, and none past the event's last.
        type(rounds_count) is int
        and type(per_round) is int
        and not (
            {b for r in document["rounds"] for b in dealing.board_numbers(r["number"])}
            <= set(boards)
            <= set(range(1, rounds_count * per_round + 1))
        )
    ):
        refuse("boards")
    tables: set[tuple[int, int]] = set()
    rounds: set[int] = set()
    placed_in: dict[int, set[int]] = {}  # round -> the pairs it seats, rests or gives the bye
    for rnd in document["rounds"]:
        seated = [t["ns"] for t in rnd["tables"]] + [t["ew"] for t in rnd["tables"]]
        numbers = {(rnd["number"], t["number"]) for t in rnd["tables"]}
        placed = [*seated, *rnd["rests"], *([] if rnd["bye"] is None else [rnd["bye"]])]
        if (
            len(set(placed)) != len(placed)  # a pair at two places of one round
            or rnd["number"] in rounds
            or len(numbers) != len(rnd["tables"])
            or not set(seated) | set(rnd["rests"]) <= known
            or (rnd["bye"] is not None and rnd["bye"] not in known)
        ):
            refuse("rounds")
        rounds.add(rnd["number"])
        placed_in[rnd["number"]] = set(placed)
        tables |= numbers
    # A round missed while withdrawn: a round of the archive that does not place the pair.
    if not all(
        r in placed_in and p["number"] not in placed_in[r]
        for p in document["pairs"]
        for r in p.get("missed_rounds", [])
    ):
        refuse("pairs")
    last = rounds_count if type(rounds_count) is int else max(rounds, default=0)
    for p in document["pairs"]:
        joins, left = p.get("joins_round"), p.get("withdrawn_after_round")
        placed = [r for r, numbers in placed_in.items() if p["number"] in numbers]
        if (joins is not None and not (1 <= joins <= last and all(r >= joins for r in placed))) or (
            left is not None and not 0 <= left <= last
        ):
            refuse("pairs")
    places = [(r["round"], r["table"], r["board"]) for r in document["results"]]
    if len(set(places)) != len(places) or not all(
        (rn, tn) in tables and b in boards for rn, tn, b in places
    ):
        refuse("results")
    for result in document["results"]:
        if result["score_ns"] and result["score_ew"]:
            raise ServiceError(
                _(
                    "The archive's result of board %(b)s at table %(t)s of round %(r)s credits "
                    "both pairs: only one pair scores on a board (R9)."
                )
                % {"b": result["board"], "t": result["table"], "r": result["round"]},
                field="results",
            )
        for dispute in result["disputes"]:
            for i, ruling in enumerate(dispute["rulings"]):
                if ruling["supersedes"] is not None and not 0 <= ruling["supersedes"] < i:
                    refuse("results")
    if not all(
        (u["round"], u["table"]) in tables and u["board"] in boards for u in document["unlocks"]
    ):
        refuse("unlocks")
    if not all(s["pair"] in known for s in document["substitutions"]):
        refuse("substitutions")
    if not all(
        low in known and high in known and low != high for low, high in document["forbidden_pairs"]
    ):
        refuse("forbidden_pairs")
    # A bye may name a round past the last: asked for before the rounds were fewer (the
    # organiser's change, a round robin's start), it never took effect.
    if not all(b["pair"] in known and b["round"] >= 1 for b in document["bye_requests"]):
        refuse("bye_requests")
    results = set(places)
    if not all(
        a["result"] is None
        or (a["result"]["round"], a["result"]["table"], a["result"]["board"]) in results
        for a in document["audit"]
    ):
        refuse("audit")
    _team_references(document, refuse)


def _team_references(document: Mapping[str, Any], refuse: Any) -> None:
    """A team event's archive holds its teams, matches and team standings, each naming only
    teams, pairs, tables and players it holds; a pairs event's holds none of them."""
    is_team = document["event"]["options"].get("competitor") == Event.Competitor.TEAMS
    if is_team != ("teams" in document) or is_team != ("team_standings" in document):
        refuse("teams")
    if not is_team:  # a pair's team, a round's matches or team bye: a team event's keys
        if any(p.get("team") is not None for p in document["pairs"]) or any(
            "matches" in r or r.get("team_bye") is not None for r in document["rounds"]
        ):
            refuse("teams")
        return
    if document["standings"]:
        refuse("standings")  # a team event is ranked by its team_standings
    players: dict[int, set[str]] = {}
    team_names: set[str] = set()
    for team in document["teams"]:
        names = {p["name"] for p in team["players"]}
        name = normal_name(team["name"]).casefold()  # as registering a team compares them
        if team["number"] in players or len(names) != len(team["players"]) or name in team_names:
            refuse("teams")
        players[team["number"]] = names
        team_names.add(name)
    team_of: dict[int, int | None] = {}
    for pair in document["pairs"]:
        team = pair.get("team")
        names = {p["name"] for p in pair["players"]}
        if team is not None and (
            team not in players or len(names) != 2 or not names <= players[team]
        ):
            refuse("pairs")
        team_of[pair["number"]] = team
    for rnd in document["rounds"]:
        matches = rnd.get("matches", [])
        seated = [t for m in matches for t in (m["open_table"], m["closed_table"])]
        playing = {team for m in matches for team in (m["team_a"], m["team_b"])}
        if (
            (rnd.get("team_bye") is not None and rnd["team_bye"] not in players)
            or rnd.get("team_bye") in playing  # the team with the bye plays no match
            or len({m["number"] for m in matches}) != len(matches)
            or len(set(seated)) != len(seated)
            or not set(seated) <= {t["number"] for t in rnd["tables"]}
        ):
            refuse("rounds")
        for m in matches:
            sides = {m["team_a"], m["team_b"]}
            lineups = [lineup["team"] for lineup in m["lineups"]]
            if len(sides) != 2 or not sides <= set(players) or len(set(lineups)) != len(lineups):
                refuse("rounds")
            for lineup in m["lineups"]:
                team = lineup["team"]
                if (
                    team not in sides
                    or lineup["first"] == lineup["second"]
                    or any(team_of.get(lineup[k], -1) != team for k in ("first", "second"))
                    or not set(lineup["substitutes"]) <= players[team]
                ):
                    refuse("rounds")


class _Users:
    """Referees are named by username. Only the importer can vouch for a ruling here: a ruling
    the archive credits to the importer's own username is theirs, any other is credited to the
    importer too (an archive must not put a ruling under another account of this site), as is
    a ruling whose referee the archive does not name (a public archive names no account); a
    dispute's referee is kept only when it is the importer."""

    def __init__(self, actor: Actor) -> None:
        self.actor = actor

    def __call__(self, name: str | None, *, fallback: bool = True) -> Any:
        if name is not None and name == self.actor.user.get_username():
            return self.actor.user
        return self.actor.user if fallback else None


def _club(name: str | None, actor: Actor) -> Club | None:
    """The club named in the archive for a pair: an existing club as it is, or a new club the
    importer organises."""
    if not name:
        return None
    club = clubs.named(name)  # whatever its capitals: not a look-alike the importer organises
    if club is None:
        club = _create(Club, name=name)
        club.organisers.add(actor.user)
    return club


def _members_club(club: Club | None, actor: Actor) -> Club | None:
    """The club the imported players of a pair or team join: ``club`` only when the importer
    may act for it (an archive must not add members to another club)."""
    return club if club is not None and club.may_act_for(actor.user) else None


def _pair(
    name: str, players: list[str], licences: list[str], club: Club | None, actor: Actor
) -> Pair:
    """The pair and its players (members of ``_members_club``)."""
    members_of = _members_club(club, actor)
    p1, p2 = (
        _create(Player, name=n, licence=lic, club=members_of)
        for n, lic in zip(players, licences, strict=True)
    )
    return _create(Pair, name=name, player1=p1, player2=p2, club=club)


def _option_type(field: models.Field) -> tuple[type, ...] | None:
    """The JSON types an option's column takes (the schema allows any scalar for every option):
    ``true`` is no number of rounds, as the events API says too."""
    if isinstance(field, models.BooleanField):
        return (bool,)
    if isinstance(field, models.IntegerField):
        return (int,)
    if isinstance(field, models.FloatField | models.DecimalField):
        return (int, float)
    if isinstance(field, models.CharField | models.TextField):
        return (str,)
    return None


def _event(data: Mapping[str, Any], actor: Actor, *, competitors: int) -> Event:
    unknown = sorted(set(data["options"]) - set(EVENT_OPTIONS))
    if unknown:
        raise ServiceError(
            _("Unknown fields: %(f)s") % {"f": ", ".join(unknown)}, field="event.options"
        )
    for name, value in data["options"].items():
        types = _option_type(Event._meta.get_field(name))
        if (
            value is not None
            and types
            and (not isinstance(value, types) or (bool not in types and isinstance(value, bool)))
        ):
            raise ServiceError(_("Not a value this option takes."), field=f"event.options.{name}")
    # A round robin's or groups event's rounds are as many as its competitors make (a round
    # robin of 32 pairs has 31, a double one of n pairs up to 2n), not the number an organiser
    # may choose for a Swiss.
    drawn = data["options"].get("format", Event.Format.SWISS) != Event.Format.SWISS
    ranges = dict(OPTION_RANGES)
    if drawn:
        ranges["rounds_count"] = (1, min(SMALLEST_CEILING, max(1, 2 * competitors)))
    ranged = [(f"event.options.{name}", value) for name, value in data["options"].items()]
    ranged.append(("event.registration_cap", data["registration_cap"]))
    for path, value in ranged:
        least, most = ranges.get(path.rsplit(".", 1)[1], (None, None))
        if isinstance(value, int) and least is not None and not least <= value <= most:
            raise ServiceError(
                _("Not a value this option takes: from %(least)s to %(most)s.")
                % {"least": least, "most": most},
                field=path,
            )
    event = Event(
        name=data["name"],
        club=clubs.club_for(name=data["club"] or "", actor=actor),
        date=dt.date.fromisoformat(data["date"]),
        venue=data["venue"],
        status=data["status"],
        published=False,
        registration_cap=data["registration_cap"],
        seed=data["seed"],
        finished_at=_time(data["finished_at"]),
        **data["options"],
    )
    try:
        event.full_clean(exclude=["commitment", *(["rounds_count"] if drawn else [])])
    except DjangoValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        path = "event" if field == "__all__" else f"event.{field}"
        if field in EVENT_OPTIONS:
            path = f"event.options.{field}"
        raise ServiceError(messages[0], field=path) from None
    event.save()
    event.organisers.add(actor.user)
    _stamp(event, created_at=data["created_at"])
    return event


def _normal_names(document: Mapping[str, Any]) -> dict[str, Any]:
    """The document with its players', pairs', teams' and clubs' names as every other way in
    stores them (``normal_name``: spaces collapsed, accents composed), the names its parts
    refer to each other by included. Refuses a pair that names one player twice."""
    doc = copy.deepcopy(dict(document))
    name = normal_name
    for part in ("pairs", "teams"):
        for i, row in enumerate(doc.get(part, [])):
            row["name"] = name(row["name"])
            row["club"] = name(row["club"]) if row["club"] else row["club"]
            for k, player in enumerate(row["players"]):
                player["name"] = name(player["name"])
                if not player["name"]:
                    raise ServiceError(
                        _("Two player names are needed."), field=f"{part}[{i}].players[{k}].name"
                    )
    for i, row in enumerate(doc["pairs"]):
        first, second = (p["name"] for p in row["players"])
        if len(players_key(first, second)) == 1:
            raise ServiceError(same_person_problem(), field=f"pairs[{i}].players")
    for row in doc["substitutions"]:
        row["player_out"], row["player_in"] = name(row["player_out"]), name(row["player_in"])
        previous = row["previous_pair"]
        previous["name"] = name(previous["name"])
        previous["players"] = [name(n) for n in previous["players"]]
    return doc


class _Team:
    """An imported team and its players by name."""

    def __init__(self, team: Team, players: dict[str, Player]) -> None:
        self.team, self.players = team, players


def _teams(event: Event, document: Mapping[str, Any], actor: Actor) -> dict[int, _Team]:
    """A team event's teams and their players (members of ``_members_club``; none in a pairs
    event's archive)."""
    teams = {}
    for row in document.get("teams", []):
        club = _club(row["club"], actor)
        members_of = _members_club(club, actor)
        team = _create(
            Team,
            event=event,
            number=row["number"],
            name=row["name"],
            club=club,
            withdrawn_after_round=row["withdrawn_after_round"],
        )
        players = {}
        for order, p in enumerate(row["players"], start=1):
            player = _create(Player, name=p["name"], licence=p["licence"], club=members_of)
            _create(TeamMember, team=team, player=player, order=order)
            players[player.name] = player
        teams[team.number] = _Team(team, players)
    return teams


def _entries(
    event: Event, document: Mapping[str, Any], actor: Actor, teams: dict[int, _Team]
) -> dict[int, Entry]:
    entries = {}
    for row in document["pairs"]:
        club = _club(row["club"], actor)
        team = teams[row["team"]] if row.get("team") is not None else None
        if team is not None:  # a team's two players, as the team holds them
            p1, p2 = (team.players[p["name"]] for p in row["players"])
            pair = _create(Pair, name=row["name"], player1=p1, player2=p2, club=club)
        else:
            pair = _pair(
                row["name"],
                [p["name"] for p in row["players"]],
                [p["licence"] for p in row["players"]],
                club,
                actor,
            )
        entries[row["number"]] = _create(
            Entry,
            event=event,
            pair=pair,
            number=row["number"],
            withdrawn_after_round=row["withdrawn_after_round"],
            missed_rounds=sorted(row.get("missed_rounds", [])),
            joins_round=row["joins_round"],
            rating=row["rating"],
            team=team.team if team is not None else None,
        )
    for row in document["substitutions"]:
        entry = entries[row["pair"]]
        previous = row["previous_pair"]
        old = _pair(previous["name"], previous["players"], ["", ""], entry.pair.club, actor)
        names = {
            entry.pair.player1.name: entry.pair.player1,
            entry.pair.player2.name: entry.pair.player2,
        }
        player_in = names.get(row["player_in"]) or _create(Player, name=row["player_in"])
        player_out = next(
            (p for p in (old.player1, old.player2) if p.name == row["player_out"]), old.player1
        )
        sub = _create(
            Substitution,
            entry=entry,
            from_round=row["from_round"],
            player_out=player_out,
            player_in=player_in,
            previous_pair=old,
            reason=row["reason"],
            created_by=row["created_by"],
        )
        _stamp(sub, created_at=row["created_at"])
    for low, high in document["forbidden_pairs"]:
        a, b = sorted((entries[low], entries[high]), key=lambda e: e.pk)
        _create(ForbiddenPair, event=event, low=a, high=b, created_by="import")
    for row in document["bye_requests"]:
        _create(
            ByeRequest,
            entry=entries[row["pair"]],
            round_number=row["round"],
            created_by=row["created_by"],
        )
    return entries


def _boards(event: Event, document: Mapping[str, Any]) -> dict[int, Board]:
    boards = {}
    for row in document["boards"]:
        board = play.dealt_from(event.seed, row["number"], event=event)
        if (board.dealer, board.hands) != (row["dealer"], row["hands"]):
            raise ServiceError(
                _("Board %(n)s of the archive is not the one its seed deals.")
                % {"n": row["number"]},
                field="boards",
            )
        board.save()
        boards[board.number] = board
    event.boards_ready = len(boards)
    event.save(update_fields=["boards_ready", "commitment"])
    return boards


def _rounds(
    event: Event, document: Mapping[str, Any], entries: dict[int, Entry], teams: dict[int, _Team]
) -> dict[tuple[int, int], Table]:
    tables = {}
    for row in document["rounds"]:
        team_bye = row.get("team_bye")
        rnd = _create(
            Round,
            event=event,
            number=row["number"],
            status=row["status"],
            bye=entries[row["bye"]] if row["bye"] is not None else None,
            team_bye=teams[team_bye].team if team_bye is not None else None,
            opened_at=_time(row["opened_at"]),
            closed_at=_time(row["closed_at"]),
            ruling_open=row["ruling_open"],
        )
        rnd.rests.set([entries[n] for n in row["rests"]])
        for t in row["tables"]:
            tables[(rnd.number, t["number"])] = _create(
                Table,
                round=rnd,
                number=t["number"],
                ns=entries[t["ns"]],
                ew=entries[t["ew"]],
                forfeited_by=t["forfeited_by"],
                time_after=t["time_after"],
            )
        for m in row.get("matches", []):
            _match(rnd, m, tables, entries, teams)
    return tables


def _match(
    rnd: Round,
    data: Mapping[str, Any],
    tables: dict[tuple[int, int], Table],
    entries: dict[int, Entry],
    teams: dict[int, _Team],
) -> None:
    match = _create(
        TeamMatch,
        round=rnd,
        number=data["number"],
        team_a=teams[data["team_a"]].team,
        team_b=teams[data["team_b"]].team,
        open_table=tables[(rnd.number, data["open_table"])],
        closed_table=tables[(rnd.number, data["closed_table"])],
    )
    for lineup in data["lineups"]:
        team = teams[lineup["team"]]
        stored = _create(
            LineUp,
            match=match,
            team=team.team,
            first=entries[lineup["first"]],
            second=entries[lineup["second"]],
            entered_by=lineup["entered_by"],
        )
        stored.substitutes.set([team.players[name] for name in lineup["substitutes"]])


def _with_ruleset(record: Any, board: Board) -> Any:
    """A record as this event replays it: exported before migration 0018, a record may leave
    the ruleset out (the default ruleset)."""
    ruleset = board.event.ruleset
    if isinstance(record, dict) and record.get("ruleset") != ruleset:
        return dict(record, ruleset=ruleset)
    return record


def _play_record(
    data: Mapping[str, Any] | None,
    result: BoardResult,
    board: Board,
    submission: Submission | None = None,
) -> dict[str, Any] | None:
    """Store a play record of the archive, in its canonical form as a submitted one is, refused
    unless it replays to its verdict and that verdict is complete or illegal (the product never
    stores an invalid record: its exports could not give one out); the values a result takes
    from it (``play.stored_values``)."""
    if data is None:
        return None
    record = _with_ruleset(data["record"], board)
    verdict = play.replay(board, record)
    where = {"b": board.number, "t": result.table.number, "r": result.table.round.number}
    if verdict.to_json() != data["verdict"]:
        raise ServiceError(
            _(
                "A play record of board %(b)s at table %(t)s of round %(r)s does not replay to "
                "the verdict the archive holds."
            )
            % where,
            field="results",
        )
    if verdict.outcome == engine.Outcome.INVALID:
        raise ServiceError(
            _(
                "A play record of board %(b)s at table %(t)s of round %(r)s is not a valid "
                "record: an archive holds only the records the event accepted."
            )
            % where,
            field="results",
        )
    canonical = play.canonical(board, record)
    pr = _create(
        PlayRecord,
        result=result,
        submission=submission,
        record=canonical,
        received=play.as_sent(canonical),  # an archive holds the canonical form only
        verdict=data["verdict"],
        outcome=verdict.outcome.value,
    )
    _stamp(pr, created_at=data["created_at"])
    return play.stored_values(verdict, record)


# What a bad value of an archive makes the scoring code raise (a refusal, not a 500).
_UNSCORABLE = (ServiceError, KeyError, TypeError, ValueError, AttributeError)


def _holds(row: Mapping[str, Any], values: Mapping[str, Any] | None) -> bool:
    """Whether the archive's result holds ``values`` (of those fields they name)."""
    return values is not None and all(
        row[k] == v for k, v in values.items() if k in archive.SCORED_FIELDS
    )


def _scored(row: Mapping[str, Any], board: Board) -> dict[str, Any] | None:
    """What the engine scores for the result's own trump, calls and hand totals (or the pair
    that played an illegal card), as when it was entered (``short_values``); None when they
    score nothing."""
    totals = None
    if row["totals_ns"] is not None or row["totals_ew"] is not None:
        totals = {"NS": row["totals_ns"], "EW": row["totals_ew"]}
    contract = {
        "delegated": row["delegated"],
        "trump": row["trump"],
        "doubles": row["doubles"],
        "totals": totals,
        "offending_pair": row["offending_pair"] or None,
    }
    return _short_scored(contract, board)


def _short_scored(data: Any, board: Board) -> dict[str, Any] | None:
    """The values of a short result (``short_values``, as when it was entered); None when they
    score nothing."""
    try:
        return short_values(board=board, data=data) if isinstance(data, Mapping) else None
    except _UNSCORABLE:
        return None


def _ruling_in_force(row: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The ruling the result follows: the latest of any of its disputes (each ruling supersedes
    the one in force when it is made, ``disputes.current_ruling``)."""
    rulings = [r for d in row["disputes"] for r in d["rulings"]]
    return sorted(rulings, key=lambda r: _time(r["created_at"]))[-1] if rulings else None


def _submitted(row: Mapping[str, Any], submitted: list[tuple[str, dict[str, Any] | None]]) -> bool:
    """Whether the result holds the values of one of its submissions of its own source, as a
    referee accepting it gives them (``disputes.ruling_values``)."""
    return any(source == row["source"] and _holds(row, values) for source, values in submitted)


def _follows_ruling(
    row: Mapping[str, Any],
    board: Board,
    ruling: Mapping[str, Any],
    submitted: list[tuple[str, dict[str, Any] | None]],
) -> bool:
    """Whether the result holds what its ruling in force gives (``disputes.ruling_values``)."""
    kind, data = ruling["kind"], ruling["data"]
    if kind == Ruling.Kind.ACCEPT:
        # The accepted submission is named by its id in the exporting database: one of them.
        return row["source"] != BoardResult.Source.RULING and _submitted(row, submitted)
    if row["source"] != BoardResult.Source.RULING:
        return False
    if kind == Ruling.Kind.CORRECTED and "play_record" in data:
        data = dict(data, play_record=_with_ruleset(data["play_record"], board))
    # A penalty keeps the result's trump and calls: those it holds.
    before = BoardResult(
        board=board,
        delegated=row["delegated"],
        trump=row["trump"],
        doubles=row["doubles"],
        offending_pair=row["offending_pair"],
    )
    try:
        values = ruling_values(before, kind, data)
    except _UNSCORABLE:
        return False
    return _holds(row, values)


def _check_values(
    row: Mapping[str, Any],
    board: Board,
    submitted: list[tuple[str, dict[str, Any] | None]],
    records: list[dict[str, Any] | None],
) -> None:
    """Refuse a result that contradicts itself: its multiplier, score and capot must be what the
    engine scores for its trump, calls and hand totals (an adjusted score is the referee's: its
    ruling's); a result a ruling decided must hold what that ruling gives, and a play record's
    result the values of one of its records (``results.record_in_force``)."""
    scored = _scored(row, board)
    adjusted = bool(row["adjusted_ns"] or row["adjusted_ew"])
    own = ("multiplier", "capot") if adjusted else ("multiplier", "score_ns", "score_ew", "capot")
    ok = scored is not None and _holds(row, {k: scored[k] for k in own})
    ruling = _ruling_in_force(row)
    if ruling is not None:
        ok = ok and _follows_ruling(row, board, ruling, submitted)
    elif adjusted or row["source"] == BoardResult.Source.RULING:
        ok = False  # a referee's values, and no ruling
    elif row["source"] == BoardResult.Source.PLAY_RECORD:
        ok = ok and any(_holds(row, values) for values in records)
    if not ok:
        raise ServiceError(
            _(
                "The archive's result of board %(b)s at table %(t)s of round %(r)s contradicts "
                "itself: its score is not what its trump, calls and hand totals give, or not "
                "what its play record or its ruling gives."
            )
            % {"b": row["board"], "t": row["table"], "r": row["round"]},
            field="results",
        )


def _results(
    document: Mapping[str, Any],
    tables: dict[tuple[int, int], Table],
    boards: dict[int, Board],
    users: _Users,
) -> dict[tuple[int, int, int], BoardResult]:
    stored = {}
    for row in document["results"]:
        table, board = tables[(row["round"], row["table"])], boards[row["board"]]
        result = _create(
            BoardResult, table=table, board=board, **{k: row[k] for k in archive.RESULT_FIELDS}
        )
        _stamp(result, created_at=row["created_at"], updated_at=row["updated_at"])
        stored[(row["round"], row["table"], row["board"])] = result
        submitted: list[tuple[str, dict[str, Any] | None]] = []
        records: list[dict[str, Any] | None] = []
        for s in row["submissions"]:
            submission = _create(
                Submission,
                result=result,
                source=s["source"],
                side=s["side"],
                submitted_by=s["submitted_by"],
                data=s["data"],
            )
            _stamp(submission, created_at=s["created_at"])
            if s["play_record"] is not None:
                values = _play_record(s["play_record"], result, board, submission)
                records.append(values)
            else:
                values = _short_scored(s["data"], board)
            submitted.append((s["source"], values))
        for pr in row["play_records"]:
            records.append(_play_record(pr, result, board))
        for d in row["disputes"]:
            dispute = _create(
                Dispute,
                result=result,
                reason=d["reason"],
                details=d["details"],
                opened_by=d["opened_by"],
                previous_status=d["previous_status"],
                status=d["status"],
                referee=users(d["referee"], fallback=False),
                closed_at=_time(d["closed_at"]),
            )
            _stamp(dispute, created_at=d["created_at"])
            made: list[Ruling] = []
            for r in d["rulings"]:
                ruling = _create(
                    Ruling,
                    dispute=dispute,
                    kind=r["kind"],
                    data=r["data"],
                    explanation=r["explanation"],
                    referee=users(r["referee"]),
                    supersedes=made[r["supersedes"]] if r["supersedes"] is not None else None,
                )
                _stamp(ruling, created_at=r["created_at"])
                made.append(ruling)
        _check_values(row, board, submitted, records)
    return stored


def _trail(
    event: Event,
    document: Mapping[str, Any],
    tables: dict[tuple[int, int], Table],
    boards: dict[int, Board],
    results: dict[tuple[int, int, int], BoardResult],
) -> None:
    for u in document["unlocks"]:
        unlock = _create(
            BoardUnlock,
            table=tables[(u["round"], u["table"])],
            board=boards[u["board"]],
            reason=u["reason"],
            actor=u["actor"],
        )
        _stamp(unlock, created_at=u["created_at"])
    for a in document["audit"]:
        where = a["result"]
        entry = _create(
            AuditEntry,
            event=event,
            result=results.get((where["round"], where["table"], where["board"])) if where else None,
            actor=a["actor"],
            action=a["action"],
            changes=a["changes"],
            note=a["note"],
        )
        _stamp(entry, created_at=a["created_at"])


def _same_standings(
    event: Event,
    document: Mapping[str, Any],
    entries: dict[int, Entry],
    teams: dict[int, _Team],
) -> None:
    standings_recompute(event.pk)  # the snapshots the pages read
    numbers = archive.Numbers({e.pk: n for n, e in entries.items()})
    if event.is_team_event:
        section = "team_standings"
        by_number = archive.Numbers({t.team.pk: n for n, t in teams.items()})
        computed = archive.team_standings_docs(event, by_number, numbers)
    else:
        section = "standings"
        computed = archive.standings_docs(event, numbers)
    here = {s["after_round"]: s for s in computed}
    for kept in document[section]:
        if here.get(kept["after_round"]) != kept:
            raise ServiceError(
                _(
                    "The standings after round %(n)s recomputed here differ from the archive's: "
                    "its results and its standings do not agree."
                )
                % {"n": kept["after_round"]},
                field=section,
            )
    if set(here) != {s["after_round"] for s in document[section]}:
        raise ServiceError(
            _("The archive's standings do not cover the rounds it holds."), field=section
        )


def event_import(*, document: Mapping[str, Any], actor: Actor) -> Event:
    """Re-create the archived event here; refused, storing nothing, when anything disagrees."""
    if not actor.is_authenticated:
        raise NotAllowed(_("Log in to import an event."))
    _check(document)
    _references(document)
    document = _normal_names(document)
    users = _Users(actor)
    try:
        with transaction.atomic():
            competitors = max(len(document.get("pairs") or []), len(document.get("teams") or []))
            event = _event(document["event"], actor, competitors=competitors)
            teams = _teams(event, document, actor)
            entries = _entries(event, document, actor, teams)
            boards = _boards(event, document)
            tables = _rounds(event, document, entries, teams)
            results = _results(document, tables, boards, users)
            _trail(event, document, tables, boards, results)
            _same_standings(event, document, entries, teams)
            audit.record(
                event=event,
                actor=actor.label,
                action="event_imported",
                changes={"exported_at": [None, document["exported_at"]]},
            )
            # A finished event of a club: into its ratings now, as when it finished here.
            queue.update_ratings(event)
    except (KeyError, IndexError):
        # A pair, round, table, board or ruling named that the archive does not hold.
        raise ServiceError(
            _("The archive refers to a pair, round, table, board or ruling it does not hold."),
            field="archive",
        ) from None
    except (DjangoValidationError, IntegrityError, DataError, OverflowError, ValueError):
        # OverflowError, ValueError: a time or number the database cannot hold (the schema's
        # checks should refuse them first; never a 500 if one gets through).
        raise ServiceError(
            _(
                "The archive holds a value this installation cannot store (too long, or out of "
                "range)."
            ),
            field="archive",
        ) from None
    return event
