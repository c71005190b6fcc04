"""The life of an event: draft → registration → running → finished, and its rounds."""

import csv
import io
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import clip
from scoring.presets import Preset
from scoring.types import CannotPair
from tournaments import play, queue, rating_reads, scoring_io, team_io, webhooks
from tournaments.actors import Actor
from tournaments.models import (
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    Board,
    ByeRequest,
    Club,
    Entry,
    Event,
    Pair,
    Player,
    Round,
    Table,
    TableToken,
    new_table_code,
)
from tournaments.selectors import round_outstanding
from tournaments.services import (
    Conflict,
    NotAllowed,
    ServiceError,
    audit,
    clubs,
    lock_event,
    relock,
    stated_reason,
)
from tournaments.services.names import length_problems, max_length, normal_name
from tournaments.services.waiting_list import promote_within_cap


def require_organiser(event: Event, actor: Actor) -> None:
    if not actor.is_organiser(event):
        raise NotAllowed(_("Only the organisers of this event can do that."))


def require_status(event: Event, *allowed: str, doing: str) -> None:
    if event.status not in allowed:
        raise Conflict(
            _("Cannot %(doing)s: the event is %(status)s.")
            % {"doing": doing, "status": event.get_status_display().lower()},
            field="status",
        )


def require_pairs_event(event: Event) -> None:
    """Pair-by-pair changes do not apply to a team event: its pairs come from line-ups."""
    if event.is_team_event:
        raise Conflict(
            _("In a team event the pairs come from the teams' line-ups."), field="competitor"
        )


def event_create(*, actor: Actor, **fields: object) -> Event:
    if not actor.is_authenticated:
        raise NotAllowed(_("Log in to create an event."))
    club = fields.get("club")
    if isinstance(club, Club):
        clubs.require_club_organiser(club=club, actor=actor)
    with transaction.atomic():
        event = Event(**fields)
        event.full_clean(exclude=["commitment"])
        event.save()
        event.organisers.add(actor.user)
        audit.record(event=event, actor=actor.label, action="event_created")
    return event


def pair_display_name(player1: str, player2: str) -> str:
    """“Player 1 – Player 2”, each name shortened with … when the whole would not fit the pair's
    name column (two 120-character names make 243 characters; the column holds 200)."""
    full = f"{player1} – {player2}"
    limit = max_length(Pair)
    if len(full) <= limit:
        return full
    room = (limit - len(" – ")) // 2
    return f"{clip(player1, limit=room)} – {clip(player2, limit=room)}"


@dataclass
class PairRow:
    line: int
    player1: str
    player2: str
    name: str
    club: str


@dataclass
class CsvPreview:
    rows: list[PairRow] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)


CSV_COLUMNS = ("player1", "player2", "name", "club")


def players_key(player1: str, player2: str) -> frozenset[str]:
    """Who plays in a pair, whatever the order, the case, the spaces or how the accents were
    typed: "Anna  Puig" and "anna puig" are the same player, and (A, B) the same pair as (B, A).
    One name for both (one player twice) gives a single member."""
    return frozenset(normal_name(name).casefold() for name in (player1, player2))


def same_person_problem() -> str:
    return _("The two players are the same person: a pair is two different players.")


def _header_keys() -> set[tuple[str, str]]:
    """The first two columns of a header line, as ``_header_key`` reads them: the CSV's own
    names and the registration form's labels in every language of the site."""
    keys = {("player1", "player2")}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            keys.add((_header_key(_("Player 1")), _header_key(_("Player 2"))))
    return keys


def _header_key(cell: str) -> str:
    return "".join(cell.split()).casefold()


def registered_pairs(event: Event) -> dict[frozenset[str], Entry]:
    entries = event.entries.select_related("pair__player1", "pair__player2")
    return {players_key(e.pair.player1.name, e.pair.player2.name): e for e in entries}


def already_registered_problem(entry: Entry) -> str:
    return _("These two players are already registered as pair %(n)s (%(name)s).") % {
        "n": entry.number,
        "name": entry.pair.name,
    }


def _separator(text: str) -> str:
    """The file's separator: a tab, a semicolon or a comma, the first of them on every line
    with text (of the first twenty), else the one on most of them. ``csv.Sniffer`` gives up as
    soon as lines have different numbers of columns (some with a name and a club, some
    without), and a comma fallback made every line of a tab-separated file one cell."""
    lines = [line for line in text.splitlines() if line.strip()][:20]
    candidates = ("\t", ";", ",")
    for sep in candidates:
        if lines and all(sep in line for line in lines):
            return sep
    return max(candidates, key=lambda sep: sum(sep in line for line in lines))


def _records(reader: Any) -> Iterator[tuple[int, list[str] | None]]:
    """The CSV reader's lines numbered from 1; None for one the csv module cannot read (a cell
    past its size limit, as an unclosed quotation mark makes of the rest of the file), which
    ends the file."""
    for number in itertools.count(1):
        try:
            raw = next(reader)
        except StopIteration:
            return
        except csv.Error:
            yield number, None
            return
        yield number, raw


def pairs_csv_parse(text: str, *, event: Event | None = None) -> CsvPreview:
    """Read ``player1,player2[,name][,club]`` lines; a header row naming the columns is optional.

    Every line is checked; errors name the line so the organiser can fix the file. The same two
    players twice (in the file, or already registered in ``event``) is an error.
    """
    preview = CsvPreview()
    registered = registered_pairs(event) if event is not None else {}
    players_seen: dict[frozenset[str], int] = {}
    # Lines end in \n, \r\n or, from old spreadsheets of the Mac, \r alone; a spreadsheet's
    # "CSV UTF-8" starts with a byte-order mark, which pasted text and the API keep.
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    reader = csv.reader(io.StringIO(text), delimiter=_separator(text))
    seen: dict[str, int] = {}
    header_possible = True  # the first line with text may name the columns
    for line_no, raw in _records(reader):
        if raw is None:
            preview.errors.append(
                (
                    line_no,
                    _(
                        "This line cannot be read: a cell is too long, or a quotation mark "
                        "is not closed."
                    ),
                )
            )
            continue
        cells = [c.strip() for c in raw]
        if not any(cells):
            continue
        first, header_possible = header_possible, False
        if first and tuple(_header_key(c) for c in cells[:2]) in _header_keys():
            continue
        if len(cells) < 2 or not cells[0] or not cells[1]:
            preview.errors.append((line_no, _("Two player names are needed.")))
            continue
        if len(cells) > 4:
            preview.errors.append(
                (line_no, _("Too many columns: expected player1, player2, name, club."))
            )
            continue
        player1, player2 = normal_name(cells[0]), normal_name(cells[1])
        given = normal_name(cells[2]) if len(cells) > 2 else ""
        club = normal_name(cells[3]) if len(cells) > 3 else ""
        too_long = length_problems(player1=player1, player2=player2, name=given, club=club)
        if too_long:
            preview.errors.append((line_no, too_long[0][1]))
            continue
        players = players_key(player1, player2)
        if len(players) == 1:
            preview.errors.append((line_no, same_person_problem()))
            continue
        if players in registered:
            preview.errors.append((line_no, already_registered_problem(registered[players])))
            continue
        if players in players_seen:
            preview.errors.append(
                (
                    line_no,
                    _("The same two players as on line %(line)s: a pair is registered once.")
                    % {"line": players_seen[players]},
                )
            )
            continue
        players_seen[players] = line_no
        name = given or pair_display_name(player1, player2)
        key = name.casefold()
        if key in seen:
            preview.errors.append(
                (
                    line_no,
                    _("Pair %(name)s already appears on line %(line)s.")
                    % {"name": name, "line": seen[key]},
                )
            )
            continue
        seen[key] = line_no
        preview.rows.append(PairRow(line_no, player1, player2, name, club))
    if not preview.rows and not preview.errors:
        preview.errors.append((0, _("The file holds no pairs.")))
    return preview


def _next_number(event: Event) -> int:
    return (event.entries.aggregate(m=Max("number"))["m"] or 0) + 1


class PairBatch:
    """What registering pairs checks and numbers them against, read once for the whole batch
    (a bulk request, a CSV file) rather than once per pair, which made a batch quadratic: the
    event's pairs by their players, and the next pair number.

    Made inside the transaction that registers the pairs, under a row lock on the event: two
    organisers registering at once must not get the same number, nor the same two players
    twice, so the second waits here until the first has committed.
    """

    def __init__(self, event: Event) -> None:
        # The event as it is under the lock: its status is checked here, not on the caller's
        # copy, which a start committed meanwhile has made stale.
        self.event = lock_event(event.pk)
        self.registered = registered_pairs(event)
        self.next_number = _next_number(event)


def entry_register(
    *,
    event: Event,
    actor: Actor,
    player1: str,
    player2: str,
    name: str = "",
    club: str = "",
    batch: PairBatch | None = None,
) -> Entry:
    with transaction.atomic():
        batch = batch or PairBatch(event)
        require_registration(batch.event, actor)
        return entry_create(
            event=event,
            actor=actor,
            player1=player1,
            player2=player2,
            name=name,
            club=club,
            batch=batch,
        )


def require_registration(event: Event, actor: Actor) -> None:
    """Refuse what refuses every pair before the start, ``event`` as read under the batch's
    lock: not its organiser, a teams event, an event that has started (the start fixes the
    rounds from the pairs entered then)."""
    require_organiser(event, actor)
    require_pairs_event(event)
    require_status(event, Event.Status.DRAFT, Event.Status.REGISTRATION, doing=_("register pairs"))


def new_pair(
    player1: str,
    player2: str,
    name: str,
    club: str,
    *,
    registered: dict[frozenset[str], Entry],
) -> tuple[str, str, str, str, frozenset[str]]:
    """The names of a new pair as stored (``normal_name``) and its players' key, or the
    ServiceError that refuses it: a name missing or too long, one player twice, or the two
    players of a pair ``registered`` already."""
    player1, player2 = normal_name(player1), normal_name(player2)
    name, club = normal_name(name), normal_name(club)
    for field_name, value in (("player1", player1), ("player2", player2)):
        if not value:  # nothing printable was typed (the forms require a name)
            raise ServiceError(_("Type the player's name."), field=field_name)
    too_long = length_problems(player1=player1, player2=player2, name=name, club=club)
    if too_long:
        field_name, message = too_long[0]
        raise ServiceError(message, field=field_name)
    players = players_key(player1, player2)
    if len(players) == 1:
        raise ServiceError(same_person_problem(), field="player2")
    same = registered.get(players)
    if same is not None:
        raise ServiceError(already_registered_problem(same), field="player2")
    return player1, player2, name, club, players


def entry_create(
    *,
    event: Event,
    actor: Actor,
    player1: str,
    player2: str,
    name: str = "",
    club: str = "",
    joins_round: int | None = None,
    batch: PairBatch | None = None,
    dropped_proposal: int | None = None,
) -> Entry:
    """Store a new pair of the event (the callers check who may and when), audited. A caller
    registering many pairs passes one ``batch`` for them all (made in its transaction); a late
    entry's caller names the round whose proposed pairing it dropped, for the audit trail."""
    with transaction.atomic():
        batch = batch or PairBatch(event)
        player1, player2, name, club, players = new_pair(
            player1, player2, name, club, registered=batch.registered
        )
        club_obj = clubs.home_club(club) or event.club
        p1 = Player.objects.create(name=player1, club=club_obj)
        p2 = Player.objects.create(name=player2, club=club_obj)
        pair = Pair.objects.create(
            name=name or pair_display_name(player1, player2), player1=p1, player2=p2, club=club_obj
        )
        entry = Entry.objects.create(
            event=event, pair=pair, number=batch.next_number, joins_round=joins_round
        )
        batch.registered[players] = entry
        batch.next_number += 1
        audit.record(
            event=event,
            actor=actor.label,
            action="entry_registered" if joins_round is None else "late_entry_registered",
            changes={
                "entry": [None, str(entry)],
                "joins_round": [None, joins_round],
                **({"dropped_proposal": [dropped_proposal, None]} if dropped_proposal else {}),
            },
        )
    return entry


def entries_import_csv(*, event: Event, actor: Actor, text: str) -> list[Entry]:
    """Register every pair of the file, or none of them when any line is wrong. An event that
    takes no pair at all says so before the file's lines are read."""
    with transaction.atomic():
        batch = PairBatch(event)
        require_registration(batch.event, actor)
        preview = pairs_csv_parse(text, event=event)
        if not preview.ok:
            line, message = preview.errors[0]
            raise ServiceError(
                _("Line %(line)s: %(message)s") % {"line": line, "message": message}, field="file"
            )
        return [
            entry_register(
                event=event,
                actor=actor,
                player1=row.player1,
                player2=row.player2,
                name=row.name,
                club=row.club,
                batch=batch,
            )
            for row in preview.rows
        ]


def registration_open(*, event: Event, actor: Actor) -> Event:
    require_organiser(event, actor)
    require_status(event, Event.Status.DRAFT, doing=_("open registration"))
    return _set_status(event, actor, Event.Status.REGISTRATION)


def _set_status(event: Event, actor: Actor, status: str, **changes: list[Any]) -> Event:
    before = event.status
    event.status = status
    if status == Event.Status.FINISHED:
        event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    audit.record(
        event=event,
        actor=actor.label,
        action="event_status",
        changes={"status": [before, status], **changes},
    )
    return event


def cannot_pair_message(exc: ValueError) -> str:
    """Why the event's method cannot pair its competitors, in the reader's language."""
    why = {
        "too_few": lambda p: _("At least two competitors are needed."),
        "rounds": lambda p: (
            _("This round robin has %(most)s rounds at most, not %(rounds)s: set fewer rounds.") % p
        ),
        "group_of_one": lambda p: (
            _(
                "%(n)s competitors in groups of %(size)s would leave one alone in a group: "
                "choose another group size, or enter one more or one fewer."
            )
            % p
        ),
        "qualifiers": lambda p: _("The knockout needs at least two qualifiers."),
    }
    if isinstance(exc, CannotPair) and exc.code in why:
        return why[exc.code](exc.params)
    return _("These pairs cannot be paired by this method: %(why)s") % {"why": exc}


def event_start(*, event: Event, actor: Actor) -> Event:
    """Close registration, generate every board (in a task) and propose round 1."""

    require_organiser(event, actor)
    with transaction.atomic():
        # Checked under the event's lock: a second tap, or a pair removed meanwhile, waits and
        # then sees the event running, or one pair too few.
        event = lock_event(event.pk)
        require_status(
            event, Event.Status.REGISTRATION, Event.Status.DRAFT, doing=_("start the event")
        )
        if event.is_team_event:
            if event.teams.filter(withdrawn_after_round__isnull=True).count() < 2:
                raise ServiceError(_("At least two teams are needed to start."), field="teams")
        elif event.entries.filter(withdrawn_after_round__isnull=True).count() < 2:
            raise ServiceError(_("At least two pairs are needed to start."), field="entries")
        if event.format != Event.Format.SWISS:
            # A round robin of the whole field and the groups-and-knockout have as many rounds
            # as the pairs entered make: the boards are dealt for exactly those.
            try:
                event.rounds_count = (
                    team_io.team_rounds_planned(event)
                    if event.is_team_event
                    else scoring_io.rounds_planned(event)
                )
            except ValueError as exc:
                raise ServiceError(cannot_pair_message(exc), field="format") from exc
            event.save(update_fields=["rounds_count"])
        if not event.is_team_event and event.seeding == Event.Seeding.RATING:
            _keep_club_seeding(event)
        _set_status(event, actor, Event.Status.RUNNING)
        queue.generate_boards(event)
    return event


def _keep_club_seeding(event: Event) -> None:
    """An event seeded by the club's ratings, where the organiser typed none, keeps the ratings
    its pairs have at the start (as each pair's rating): the club's ratings move as other
    events finish, and this one's order must not move with them (an accelerated Swiss's group
    A, the ratings of its tournament file and what the checker re-derives from them)."""
    entries = list(event.entries.all())
    if any(e.rating is not None for e in entries):
        return
    ratings = rating_reads.club_seeding_ratings(event)
    for entry in entries:
        entry.rating = ratings.get(entry.pk)
    Entry.objects.bulk_update([e for e in entries if e.rating is not None], ["rating"])


def boards_generate(*, event: Event, progress_every: int = 8) -> int:
    """Create every board of the event from its seed; safe to run twice."""
    existing = set(event.boards.values_list("number", flat=True))
    created = 0
    batch: list[Board] = []
    for number in range(1, event.total_boards + 1):
        if number in existing:
            continue
        batch.append(play.seeded(event, number))
        if len(batch) >= progress_every:
            created += _flush_boards(event, batch)
            batch = []
    created += _flush_boards(event, batch)
    queue.request_analysis(event)
    return created


def _flush_boards(event: Event, batch: list[Board]) -> int:
    """Store a batch (a concurrent run may have stored some already); the number really added."""
    before = event.boards.count()
    if batch:
        Board.objects.bulk_create(batch, ignore_conflicts=True)
    after = event.boards.count()
    Event.objects.filter(pk=event.pk).update(boards_ready=after)
    return after - before


def round_propose(
    *,
    event: Event,
    actor: Actor | None,
    number: int,
    tables: Sequence[tuple[int, int]],
    bye: int | None = None,
    rests: Sequence[int] = (),
    replace: bool = True,
) -> Round:
    """Store the pairings of a round that is not open yet (replacing an earlier proposal, or,
    with ``replace`` false, leaving an existing round as it is).

    A Swiss round seats every active pair or gives it the bye; a round robin or a group round
    also lets pairs rest (``rests``: no game, no score); a knockout round leaves out the pairs
    already knocked out."""
    if actor is not None:
        require_organiser(event, actor)
    require_status(event, Event.Status.RUNNING, doing=_("pair a round"))
    require_pairs_event(event)
    if number < 1 or number > event.rounds_count:
        raise ServiceError(
            ngettext(
                "This event has %(n)s round.", "This event has %(n)s rounds.", event.rounds_count
            )
            % {"n": event.rounds_count},
            field="round",
        )
    seen: list[int] = [x for t in tables for x in t] + ([bye] if bye else []) + list(rests)
    if len(seen) != len(set(seen)):
        raise ServiceError(_("A pair appears twice in these pairings."), field="tables")
    with transaction.atomic():
        # The event's lock first, as reopening a round, a late entry, a withdrawal and a bye
        # request take it: a reopened previous round then drops this proposal, or this
        # proposal sees it open and is refused; the pairs it seats are read under it, and a
        # finish meanwhile is seen in the status.
        require_status(lock_event(event.pk), Event.Status.RUNNING, doing=_("pair a round"))
        # The round's state first: an open round is refused as such, whoever it seats.
        rnd, store = proposal_round(event, number, replace=replace)
        if not store:
            return rnd
        entries = {e.pk: e for e in round_active_entries(event, number)}
        if event.format == Event.Format.SWISS and set(seen) != set(entries):
            raise ServiceError(
                _("Every active pair must play or have the bye, once."), field="tables"
            )
        if not set(seen) <= set(entries):
            raise ServiceError(_("A pair in these pairings is not playing."), field="tables")
        rnd.tables.all().delete()
        codes = fresh_codes(2 * len(tables))
        Table.objects.bulk_create(
            [
                Table(
                    round=rnd,
                    number=i,
                    ns=entries[ns],
                    ew=entries[ew],
                    code_ns=codes[2 * i - 2],
                    code_ew=codes[2 * i - 1],
                )
                for i, (ns, ew) in enumerate(tables, start=1)
            ]
        )
        rnd.bye = entries[bye] if bye else None
        rnd.save(update_fields=["bye"])
        rnd.rests.set([entries[e] for e in rests])
        if actor is not None:
            audit.record(
                event=event,
                actor=actor.label,
                action="round_proposed",
                changes={"round": [None, number]},
            )
    return rnd


def round_active_entries(event: Event, number: int) -> list[Entry]:
    """The pairs round ``number`` seats: not withdrawn, joined by then (late entries), and not
    sitting it out at their request."""
    away = ByeRequest.objects.filter(entry__event=event, round_number=number).values("entry_id")
    return list(
        event.entries.filter(withdrawn_after_round__isnull=True)
        .exclude(joins_round__gt=number)
        .exclude(pk__in=away)
    )


def fresh_codes(count: int) -> list[str]:
    """Side codes unused by any round still in play, of any event: a code names one side of
    one table."""
    in_play = Table.objects.exclude(round__status=Round.Status.CLOSED)
    in_use = set(in_play.values_list("code_ns", flat=True)) | set(
        in_play.values_list("code_ew", flat=True)
    )
    codes: list[str] = []
    while len(codes) < count:
        code = new_table_code()
        if code not in in_use:
            in_use.add(code)
            codes.append(code)
    return codes


def renew_codes(tables: Sequence[Table]) -> int:
    """Give these tables (row-locked by the caller, in its transaction) new codes: the old
    codes, the phones' sessions (``codes_version``) and the API tokens of the tables all stop
    working. For whoever changes who sits at a table whose codes may be in use: nobody keeps
    access to a table they no longer sit at. Returns the number of tokens revoked."""
    if not tables:
        return 0
    codes = fresh_codes(2 * len(tables))
    for i, table in enumerate(tables):
        table.code_ns, table.code_ew = codes[2 * i], codes[2 * i + 1]
        table.codes_version += 1
        table.save(update_fields=["code_ns", "code_ew", "codes_version"])
    return TableToken.objects.filter(table__in=[t.pk for t in tables]).delete()[0]


def table_new_codes(*, table: Table, actor: Actor) -> Table:
    """Give a table new codes (a code leaked, a card was lost): every token and phone session
    of the old ones stops working at once; the pairs get the new codes from the organiser."""
    event = table.round.event
    require_organiser(event, actor)
    if table.round.status == Round.Status.CLOSED:
        raise Conflict(_("This round is closed: its codes no longer work anyway."), field="round")
    with transaction.atomic():
        table = relock(Table.objects, table.pk, gone=proposal_gone(), field="table")
        revoked = renew_codes([table])
        audit.record(
            event=event,
            actor=actor.label,
            action="table_new_codes",
            changes={"table": [None, table.number], "round": [None, table.round.number]},
            note=audit.revoked_note(revoked),
        )
    return table


def round_rulings(*, rnd: Round, actor: Actor, reopen: bool, reason: str = "") -> Round:
    """Reopen a closed round for rulings (results from the tables stay shut), or end them again
    (the standings are recomputed with what was ruled). Only while the event runs."""
    event = rnd.event
    require_organiser(event, actor)
    if reopen:
        reason = stated_reason(reason, missing=_("Say why the round is reopened."))
    with transaction.atomic():
        # Under the event's lock, as the finish that ends every ruling: a reopening meanwhile
        # either comes before it (and is ended by it) or sees the event finished.
        event = lock_event(event.pk)
        require_status(event, Event.Status.RUNNING, doing=_("reopen a round for rulings"))
        rnd = Round.objects.select_for_update(of=("self",), no_key=True).get(pk=rnd.pk)
        if reopen and rnd.status != Round.Status.CLOSED:
            raise Conflict(_("Only a closed round is reopened for rulings."), field="round")
        if rnd.ruling_open == reopen:
            return rnd
        rnd.ruling_open = reopen
        rnd.save(update_fields=["ruling_open"])
        # The next round's proposal was paired without what is about to be ruled: dropped now,
        # proposed anew when the rulings end (as for a round reopened for results).
        following = event.rounds.filter(number=rnd.number + 1, status=Round.Status.PENDING)
        dropped = reopen and following.exists()
        if dropped:
            following.delete()
        audit.record(
            event=event,
            actor=actor.label,
            action="round_reopened_for_ruling" if reopen else "round_ruling_closed",
            changes={
                "round": [None, rnd.number],
                **({"dropped_proposal": [rnd.number + 1, None]} if dropped else {}),
            },
            note=reason.strip(),
        )
        if not reopen:
            queue.request_standings(event)
            queue.propose_round_after(event, rnd.number)
    return rnd


def pair_gone() -> str:
    """What a change of a pair removed meanwhile is told (``relock``'s ``gone``)."""
    return _("This pair was removed meanwhile: reload the page.")


def proposal_round(event: Event, number: int, *, replace: bool) -> tuple[Round, bool]:
    """Round ``number``, locked, to store a proposal in (made when missing; the caller holds
    the event's lock), and whether to store it: not when it exists and ``replace`` is false.
    Refused while it is open, or while the round before is not closed or is open for rulings
    (paired then, it would miss them: their end proposes it)."""
    rnd, created = Round.objects.select_for_update(of=("self",), no_key=True).get_or_create(
        event=event, number=number
    )
    if not (created or replace):
        return rnd, False
    if rnd.status != Round.Status.PENDING:
        raise not_pending(rnd)
    previous = event.rounds.filter(number=number - 1).first()
    if previous is not None and previous.status != Round.Status.CLOSED:
        raise Conflict(_("Close round %(n)s first.") % {"n": number - 1}, field="round")
    if previous is not None and previous.ruling_open:
        raise Conflict(rulings_open_message(number - 1), field="round")
    return rnd, True


def not_pending(rnd: Round) -> Conflict:
    """Why a round open or played cannot take a proposal."""
    if rnd.status == Round.Status.OPEN:
        return Conflict(_("Round %(n)s is already open.") % {"n": rnd.number}, field="round")
    return Conflict(_("Round %(n)s has been played.") % {"n": rnd.number}, field="round")


def rulings_open_message(number: int) -> str:
    """Why the round after ``number`` is not paired while ``number`` is open for rulings."""
    return _(
        "Round %(n)s is open for rulings: the next round is paired when they end (End the "
        "rulings, on its page)."
    ) % {"n": number}


def proposal_gone() -> str:
    """What a change of a proposal dropped or made again meanwhile is told."""
    return _("This round's pairings were dropped meanwhile: propose the round again.")


def proposal_locked(rnd: Round) -> Round:
    """A proposed round about to be changed by hand, read again under the event's lock (taken
    first, as every round change) and its own: since the page read it, it may have been opened
    (its codes handed out), dropped (a pair withdrew or joined) or proposed again (its tables
    made anew)."""
    require_status(lock_event(rnd.event_id), Event.Status.RUNNING, doing=_("pair a round"))
    rnd = relock(
        Round.objects.select_related("event", "bye"), rnd.pk, gone=proposal_gone(), field="round"
    )
    if rnd.status != Round.Status.PENDING:
        raise Conflict(_("Only a round that is not open yet can be changed."), field="round")
    return rnd


def round_swap(*, rnd: Round, actor: Actor, entry_a: int, entry_b: int) -> Round:
    """Exchange two pairs in a proposed round (keeping their seats). Its codes stay: nobody
    holds them yet (made at the proposal, or renewed when the round was un-opened)."""
    event = rnd.event
    require_organiser(event, actor)
    require_pairs_event(event)
    if entry_a == entry_b:
        raise ServiceError(_("Choose two different pairs."), field="pairs")
    with transaction.atomic():
        rnd = proposal_locked(rnd)
        tables = list(rnd.tables.select_for_update(of=("self",), no_key=True).order_by("number"))
        slots: list[tuple[Table | Round, str]] = []
        for eid in (entry_a, entry_b):
            table = next((t for t in tables if t.ns_id == eid), None)
            if table is not None:
                slots.append((table, "ns_id"))
                continue
            table = next((t for t in tables if t.ew_id == eid), None)
            if table is not None:
                slots.append((table, "ew_id"))
                continue
            if rnd.bye_id == eid:
                slots.append((rnd, "bye_id"))
                continue
            raise ServiceError(_("That pair is not in this round."), field="pairs")
        (obj_a, attr_a), (obj_b, attr_b) = slots
        if obj_a is obj_b or (obj_a.pk == obj_b.pk and type(obj_a) is type(obj_b)):
            setattr(obj_a, attr_a, entry_b)
            setattr(obj_a, attr_b, entry_a)
            obj_a.save()
        else:
            # Move through the bye-free path: the unique (ns != ew) check holds at every save.
            setattr(obj_a, attr_a, entry_b)
            setattr(obj_b, attr_b, entry_a)
            obj_a.save()
            obj_b.save()
        audit.record(
            event=event,
            actor=actor.label,
            action="round_swap",
            changes={"swap": [entry_a, entry_b]},
        )
    return rnd


def round_open(*, rnd: Round, actor: Actor) -> Round:
    event = rnd.event
    require_organiser(event, actor)
    with transaction.atomic():
        # The event's lock first: a withdrawal or a late entry (which take it) either comes
        # before the round opens, and the round sees it, or after, and sees the round open;
        # a finish meanwhile is seen in the status.
        require_status(lock_event(event.pk), Event.Status.RUNNING, doing=_("open a round"))
        gone = _(
            "The pairings of round %(n)s were dropped meanwhile (a pair withdrew or joined): "
            "propose the round again."
        ) % {"n": rnd.number}
        rnd = relock(Round.objects, rnd.pk, gone=gone, field="round")
        if rnd.status != Round.Status.PENDING:
            raise Conflict(
                _("This round is already %(s)s.") % {"s": rnd.get_status_display().lower()},
                field="round",
            )
        if not rnd.tables.exists():
            raise Conflict(_("This round has no pairings yet."), field="round")
        earlier = (
            event.rounds.filter(number__lt=rnd.number)
            .exclude(status=Round.Status.CLOSED)
            .values_list("number", flat=True)
            .first()
        )
        if earlier is not None:
            raise Conflict(_("Close round %(n)s first.") % {"n": earlier}, field="round")
        gone = (
            Entry.objects.filter(event=event, withdrawn_after_round__lt=rnd.number)
            .filter(Q(ns_tables__round=rnd) | Q(ew_tables__round=rnd))
            .values_list("number", flat=True)
            .first()
        )
        if gone is not None:
            raise Conflict(
                _("Pair %(n)s has withdrawn: change the pairing or propose the round again.")
                % {"n": gone},
                field="round",
            )
        if event.boards.count() < event.total_boards:
            raise Conflict(
                _("The boards are still being generated; try again in a moment."), field="round"
            )
        rnd.status = Round.Status.OPEN
        rnd.opened_at = timezone.now()
        rnd.save(update_fields=["status", "opened_at"])
        audit.record(
            event=event,
            actor=actor.label,
            action="round_opened",
            changes={"round": [None, rnd.number]},
        )
        webhooks.emit(event, webhooks.ROUND_OPENED, {"round": rnd.number})
    return rnd


# The kinds of board without a counted result when a round closes (``selectors.Outstanding``).
OUTSTANDING_KINDS = ("missing", "unconfirmed", "disputed")


def _outstanding_words(kind: str, boards: list[tuple[int, list[int]]]) -> str:
    where = "; ".join(
        _("table %(t)s: %(b)s") % {"t": t, "b": ", ".join(str(n) for n in ns)} for t, ns in boards
    )
    words = {
        "missing": _("Boards never entered (%(where)s)."),
        "unconfirmed": _("Boards awaiting the other pair's confirmation (%(where)s)."),
        "disputed": _("Boards disputed, waiting for a referee (%(where)s)."),
    }
    return words[kind] % {"where": where}


def round_close(
    *,
    rnd: Round,
    actor: Actor,
    accept_missing: bool = False,
    accept: Sequence[str] = (),
) -> Round:
    """Close a round; refused while boards have no counted result unless the organiser decides
    that they count as not played: every kind (``accept_missing``, the page's one checkbox) or
    kind by kind (``accept``: some of ``OUTSTANDING_KINDS``, e.g. the missing boards but not
    the disputed ones)."""

    event = rnd.event
    require_organiser(event, actor)
    accepted = set(OUTSTANDING_KINDS) if accept_missing else set(accept)
    with transaction.atomic():
        lock_event(event.pk)
        rnd = Round.objects.select_for_update(of=("self",), no_key=True).get(pk=rnd.pk)
        if rnd.status != Round.Status.OPEN:
            raise Conflict(_("Only an open round can be closed."), field="round")
        # The race: a table storing a result while the round closes. Its store holds the
        # table's lock and re-reads the round's status under it; taking every table's lock
        # here makes the close wait for stores in flight, and later stores see it closed.
        # (Several tables' locks are always taken in the order of their numbers.)
        list(
            Table.objects.select_for_update(of=("self",), no_key=True)
            .filter(round=rnd)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        outstanding = round_outstanding(rnd)
        by_kind = {
            kind: [(o.table.number, getattr(o, kind)) for o in outstanding if getattr(o, kind)]
            for kind in OUTSTANDING_KINDS
        }
        undecided = [kind for kind in OUTSTANDING_KINDS if by_kind[kind] and kind not in accepted]
        if undecided:
            tables = ", ".join(str(o.table.number) for o in outstanding)
            message = _("Results are missing or unconfirmed at tables %(tables)s.") % {
                "tables": tables
            }
            if accept:  # decided kind by kind: say which kinds still need a decision
                message = " ".join(_outstanding_words(k, by_kind[k]) for k in undecided)
            raise Conflict(message, field="results")
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = timezone.now()
        # The first close shows the boards: a reopened round keeps it (services.results).
        rnd.first_closed_at = rnd.first_closed_at or rnd.closed_at
        rnd.save(update_fields=["status", "closed_at", "first_closed_at"])
        not_played = {kind: dict(boards) for kind, boards in by_kind.items() if boards}
        audit.record(
            event=event,
            actor=actor.label,
            action="round_closed",
            changes={
                "round": [None, rnd.number],
                **({"not_played": [None, not_played]} if not_played else {}),
            },
            note=_("Closed with missing results") if outstanding else "",
        )
        webhooks.emit(
            event,
            webhooks.ROUND_CLOSED,
            {"round": rnd.number, "missing_accepted": bool(outstanding)},
        )
        queue.request_standings(event)
        queue.request_analysis(event)
        # The next round's pairings are computed in the background (tasks.propose_pairings),
        # ready on the dashboard moments later; Propose on the round page pairs it again.
        queue.propose_round_after(event, rnd.number)
    return rnd


def event_finish(*, event: Event, actor: Actor) -> Event:
    """Finish the event and so reveal its seed."""
    require_organiser(event, actor)
    with transaction.atomic():
        # Checked under the event's lock: a round opening meanwhile, or this finish sent twice,
        # waits, then finds the round open or the event finished.
        current = lock_event(event.pk)
        require_status(current, Event.Status.RUNNING, doing=_("finish the event"))
        if current.rounds.filter(status=Round.Status.OPEN).exists():
            raise Conflict(_("Close the open round first."), field="round")
        event.status, event.published = current.status, current.published
        # Rulings end with the event: afterwards only the organiser's explicit correction.
        event.rounds.filter(ruling_open=True).update(ruling_open=False)
        # A round proposed (by hand, or when the last one closed) and never opened: nobody
        # will play it, and a finished event's pages and archive hold only what was played.
        proposed = event.rounds.filter(status=Round.Status.PENDING)
        dropped = list(proposed.values_list("number", flat=True))
        if dropped:
            proposed.delete()
        queue.update_ratings(event)
        webhooks.emit(event, webhooks.EVENT_FINISHED)
        if event.published:
            queue.results_emails(event)
        extra = {"dropped_proposal": [dropped[0], None]} if dropped else {}
        return _set_status(event, actor, Event.Status.FINISHED, **extra)


def event_publish(*, event: Event, actor: Actor, published: bool = True) -> Event:
    require_organiser(event, actor)
    with transaction.atomic():
        current = lock_event(event.pk)  # the same tap twice at once: one change, one record
        event.status, event.published = current.status, current.published
        before = event.published
        if before == published:
            return event  # nothing changes: nothing to record (a second tap, a retry)
        event.published = published
        event.save(update_fields=["published"])
        if published and event.status == Event.Status.FINISHED:
            queue.results_emails(event)
        audit.record(
            event=event,
            actor=actor.label,
            action="event_published",
            changes={"published": [before, published]},
        )
    return event


# Options that decide how boards are dealt, played and scored: fixed once the event runs.
EVENT_OPTIONS = (
    "competitor",
    "team_bye_vp",
    "ruleset",
    "sant_vicenc_in_botifarra",
    "game_target",
    "game_cap",
    "deal_limit",
    "draw",
    "tiebreak_deals",
    "round_minutes",
    "late_entry_points",
    "requested_bye_points",
    "format",
    "match_mode",
    "rounds_count",
    "boards_per_round",
    "ranking_method",
    "bye_points",
    # The pairing method (docs/organisers.md, "Choosing a pairing method").
    "seeding",
    "accelerated",
    "club_rounds",
    "round_robin",
    "group_size",
    "qualifiers",
    "repesca",
    "repesca_min_points",
)
SMALLEST_CEILING = 32767  # a PositiveSmallIntegerField's largest value
# The values each numeric option (and the place limit) may take when an event is made: the API
# checks them, and so does an import (the organiser's page checks them too, with its sentences).
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "team_bye_vp": (0, 20),
    "game_target": (1, SMALLEST_CEILING),
    "game_cap": (1, SMALLEST_CEILING),
    "deal_limit": (1, SMALLEST_CEILING),
    "tiebreak_deals": (0, SMALLEST_CEILING),
    "round_minutes": (1, 600),
    "late_entry_points": (0, SMALLEST_CEILING),
    "requested_bye_points": (0, 2),
    "rounds_count": (1, MAX_ROUNDS),
    "boards_per_round": (1, MAX_BOARDS_PER_ROUND),
    "bye_points": (0, SMALLEST_CEILING),
    "club_rounds": (0, MAX_ROUNDS),
    "group_size": (2, 16),
    "qualifiers": (1, SMALLEST_CEILING),
    "repesca": (0, SMALLEST_CEILING),
    "repesca_min_points": (0, SMALLEST_CEILING),
    "registration_cap": (2, SMALLEST_CEILING),
}
EVENT_DETAILS = (
    "name",
    "club",
    "date",
    "venue",
    "registration_cap",
    "fee_amount",
    "fee_currency",
    "fee_instructions",
)


def preset_fields(preset: Preset) -> dict[str, object]:
    """The event options a preset of ``scoring.presets`` sets: its match limits, its clock and
    its pairing method with the method's options (what it leaves open keeps the event's value)."""
    rules, pairing = preset.rules, preset.pairing
    fields: dict[str, object] = {
        "match_mode": preset.match_mode,
        "game_target": rules.target,
        "deal_limit": rules.deal_limit,
        "game_cap": rules.cap,
        "draw": rules.draw,
        "tiebreak_deals": rules.tiebreak_deals,
        "round_minutes": preset.time_minutes,
        "ranking_method": preset.ranking_method,
        "format": pairing.method,
        "seeding": pairing.seeding,
        "accelerated": pairing.accelerated,
        "club_rounds": pairing.club_rounds,
        "group_size": pairing.group_size,
        "qualifiers": pairing.qualifiers,
        "repesca": pairing.repesca,
        "repesca_min_points": pairing.repesca_min_points,
    }
    if preset.boards_per_round is not None:
        fields["boards_per_round"] = preset.boards_per_round
    if pairing.rounds is not None:
        fields["rounds_count"] = pairing.rounds
    if pairing.method == Event.Format.ROUND_ROBIN:
        fields["round_robin"] = (
            Event.RoundRobin.DOUBLE
            if pairing.double
            else Event.RoundRobin.ROUNDS
            if pairing.rounds is not None
            else Event.RoundRobin.FIELD
        )
    return fields


def event_update(
    *, event: Event, actor: Actor, club_name: str | None = None, **fields: object
) -> Event:
    """Change an event's details, and its options while it has not started. ``club_name``:
    the club as typed on the form (found or created here)."""
    require_organiser(event, actor)
    unknown = set(fields) - set(EVENT_OPTIONS) - set(EVENT_DETAILS)
    if unknown:
        raise ServiceError(_("Unknown fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    with transaction.atomic():
        # Row lock: an organiser pressing Start meanwhile must not run under half-changed options.
        event = lock_event(event.pk)
        if club_name is not None:
            # After the event's lock, as a pair's club is found when it registers: a new club's
            # name is locked second on every path, and two of them wait instead of deadlocking.
            fields["club"] = clubs.club_for(name=club_name, actor=actor, current=event.club)
        club = fields.get("club")
        if isinstance(club, Club) and club.pk != event.club_id:
            clubs.require_club_organiser(club=club, actor=actor)
        before = {k: getattr(event, k) for k in fields}
        changed_options = [k for k in EVENT_OPTIONS if k in fields and fields[k] != before[k]]
        if changed_options and event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
            raise ServiceError(
                _(
                    "The options cannot change once the event has started: the boards are dealt "
                    "and the rounds are played and scored under them."
                ),
                field=changed_options[0],
            )
        for key, value in fields.items():
            setattr(event, key, value)
        event.full_clean(exclude=["commitment"])
        event.save()
        if "registration_cap" in fields and event.status in (
            Event.Status.DRAFT,
            Event.Status.REGISTRATION,
        ):
            # A place more: the waiting list moves up before any newcomer (docs/clubs.md).
            promote_within_cap(event)
        moved = [k for k in ("club", "date") if k in fields and before[k] != getattr(event, k)]
        if moved and (event.rated_at is not None or event.status == Event.Status.FINISHED):
            # A finished event changes club or place in time (or, never rated for want of a
            # club, gets one): both clubs' histories are rated again from scratch, as if it had
            # always been so (docs/clubs.md).
            old = before["club"].pk if "club" in fields and before["club"] else event.club_id
            for club_id in {old, event.club_id} - {None}:
                queue.recompute_ratings(club_id)
        changes = audit.diff(
            {k: str(v) if v is not None else None for k, v in before.items()},
            {k: str(getattr(event, k)) if getattr(event, k) is not None else None for k in fields},
        )
        if changes:
            audit.record(event=event, actor=actor.label, action="event_updated", changes=changes)
    return event
