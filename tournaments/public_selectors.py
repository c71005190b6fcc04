"""Reads for the public results pages, prints, PDFs and exports.

Each page loads the event, its entries (with pair names) and its rounds once (``EventView``), then
reads what it shows in a fixed, small number of queries. Who may see what is decided here, in one
place: the boards of a round that is not closed (hands, travellers, board-by-board results, play
records) are only for the event's organisers and referees.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import Max
from django.utils import timezone

from scoring import types as st
from scoring.scale import adjusted_codes
from tournaments import play, policy, queue
from tournaments.analysis_selectors import attach_analyses
from tournaments.labels import TRUMP_LETTER, call_name, seat_name, side_label, trump_short
from tournaments.models import (
    Board,
    BoardResult,
    ByeRequest,
    Entry,
    Event,
    PlayRecord,
    Round,
    StandingsSnapshot,
    Table,
)
from tournaments.prepared import Prepared
from tournaments.services.names import alphabetical


@dataclass
class EventView:
    """The event as one viewer sees it: loaded once per request."""

    event: Event
    staff: bool  # an organiser or referee of the event: sees everything, published or not
    rounds: dict[int, Round]  # by number
    codes: bool = False  # an organiser: may see the table codes (policy.can_see_codes)

    @cached_property
    def entries(self) -> dict[int, Entry]:
        """By primary key, with their pairs and clubs: read on first use (the standings of an
        event whose first round is still open show no pair, and read none)."""
        return {e.pk: e for e in self.event.entries.select_related("pair__club").order_by("number")}

    @property
    def by_number(self) -> dict[int, Entry]:
        return {e.number: e for e in self.entries.values()}

    def round_closed(self, number: int) -> bool:
        rnd = self.rounds.get(number)
        return rnd is not None and rnd.status == Round.Status.CLOSED

    def round_visible(self, number: int) -> bool:
        """May this viewer see the round's boards (hands, travellers, board results)?"""
        if self.staff:
            rnd = self.rounds.get(number)
            return rnd is not None and rnd.status != Round.Status.PENDING
        return self.round_closed(number)

    def round_of_board(self, board: int) -> int:
        return (board - 1) // self.event.boards_per_round + 1

    def board_visible(self, board: int) -> bool:
        return self.round_visible(self.round_of_board(board))

    @property
    def visible_rounds(self) -> list[Round]:
        return [r for n, r in sorted(self.rounds.items()) if self.round_visible(n)]

    @property
    def closed_rounds(self) -> list[Round]:
        return [r for n, r in sorted(self.rounds.items()) if self.round_closed(n)]

    def name(self, entry_id: int | None) -> str:
        entry = self.entries.get(entry_id) if entry_id is not None else None
        return entry.pair.name if entry is not None else ""

    def number(self, entry_id: int | None) -> int | None:
        entry = self.entries.get(entry_id) if entry_id is not None else None
        return entry.number if entry is not None else None


_ROUNDS = Prepared(
    lambda event: Round.objects.select_related("bye").filter(event_id=event).order_by("number"),
    event=int,
)


def event_view(event: Event, *, staff: bool, codes: bool = False) -> EventView:
    rounds = {r.number: r for r in _ROUNDS.all(event=event.pk)}
    return EventView(event=event, staff=staff, rounds=rounds, codes=codes)


# Fields of the event a public page never shows and whose value must not leak into its ETag:
# the seed, and the standings' request and recomputation times, which move with every result
# of the open round (the page's own part says when the standings it shows changed).
_UNSHOWN_FIELDS = {"seed", "standings_requested_at", "standings_updated_at"}


def public_version(ev: EventView, *parts: object) -> str:
    """Changes when a public page of the event may change for an anonymous viewer: any of the
    event's own fields, its rounds' status, and ``parts`` (the page's own: its address, the
    standings' state and time); the time zone the page is shown in.
    What it does not see (a pair renamed, say) shows once the shared renderings expire (within
    twice ``live.SHARED_SECONDS``)."""
    event = ev.event
    values = [
        getattr(event, f.attname)
        for f in type(event)._meta.concrete_fields
        if f.name not in _UNSHOWN_FIELDS
    ]
    rounds = [(n, r.pk, r.status) for n, r in sorted(ev.rounds.items())]
    key = repr((values, rounds, parts, timezone.get_current_timezone_name()))
    return hashlib.sha256(key.encode()).hexdigest()[:24]


# Standings ---------------------------------------------------------------------------------


@dataclass
class StandingRow:
    entry: Entry
    rank: int
    shared: bool  # the rank is shared with another pair
    data: dict[str, Any]  # the snapshot row as stored

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class StandingsView:
    snapshot: StandingsSnapshot | None
    rows: list[StandingRow]
    after_rounds: list[int]  # every round a snapshot exists for
    state: str  # queue.FRESH, UPDATING or OUT_OF_DATE

    @property
    def after_round(self) -> int | None:
        return self.snapshot.after_round if self.snapshot is not None else None


_SNAPSHOTS = Prepared(
    lambda event, limit: StandingsSnapshot.objects.filter(
        event_id=event, after_round__lte=limit
    ).defer("matches"),
    event=int,
    limit=int,
)


def standings_time(ev: EventView) -> datetime | None:
    """When the standings this viewer may see last changed (their newest snapshot's time)."""
    limit = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    if limit == 0:  # no round whose scores this viewer may see: no standings to date
        return None
    return (
        StandingsSnapshot.objects.filter(event=ev.event, after_round__lte=limit)
        .aggregate(latest=Max("computed_at"))
        .get("latest")
    )


def standings_state(ev: EventView) -> str:
    """What this viewer is told of the standings they may see (``queue.standings_state``,
    which it calls first: it may recompute them on the spot).

    A reader who sees closed rounds only is not told of a recomputation the open round asked
    for: it comes with every result a table stores, and "being updated" (or the ETag that
    carries it) would tell the room when one did. Pending work is theirs when a result of a
    round they see changed after the last recomputation started (a ruling, a correction): not
    after their snapshot's time, which a recomputation keeps when the values stay the same (a
    hand entered card by card after its short result), so that such a change would make every
    later result of the open round show.
    """
    state = queue.standings_state(ev.event)
    if state == queue.FRESH or ev.staff:
        return state
    if not any(r.status == Round.Status.OPEN for r in ev.rounds.values()):
        return state
    limit = policy.last_scored_round(staff=False, rounds=ev.rounds.values())
    if limit == 0:  # no round closed: they are shown no standings, so nothing is pending
        return queue.FRESH
    computed = ev.event.standings_updated_at
    if computed is None or standings_time(ev) is None:
        return state
    changed = BoardResult.objects.filter(
        table__round__event=ev.event, table__round__number__lte=limit, updated_at__gt=computed
    ).exists()
    return state if changed else queue.FRESH


def standings(ev: EventView, *, after_round: int | None = None) -> StandingsView:
    """The standings after a round this viewer may see the scores of (``policy``): the public
    and the tables see closed rounds only; organisers and referees the open one live."""
    limit = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    state = standings_state(ev)  # first: it may recompute them on the spot
    snapshots = {s.after_round: s for s in _SNAPSHOTS.all(event=ev.event.pk, limit=limit)}
    if after_round is None or after_round not in snapshots:
        after_round = max(snapshots) if snapshots else None
    snapshot = snapshots.get(after_round) if after_round is not None else None
    return StandingsView(
        snapshot=snapshot,
        rows=standing_rows(ev, snapshot),
        after_rounds=sorted(snapshots),
        state=state,
    )


def standing_rows(ev: EventView, snapshot: StandingsSnapshot | None) -> list[StandingRow]:
    if snapshot is None:
        return []
    counts: dict[int, int] = defaultdict(int)
    for row in snapshot.rows:
        counts[row["rank"]] += 1
    return [
        StandingRow(
            entry=ev.entries[row["entry"]],
            rank=row["rank"],
            shared=counts[row["rank"]] > 1,
            data=row,
        )
        for row in snapshot.rows
        if row.get("entry") in ev.entries  # (a team event's rows are teams)
    ]


# Board results and travellers ----------------------------------------------------------------


@dataclass
class ResultLine:
    """One table's result of one board, in NS terms, with its matchpoints (None: not compared)."""

    result: BoardResult
    table: Table
    line: st.TravellerLine | None
    vs_par: int | None = None  # net NS score minus the par's, where the analysis is shown
    # The board's results changed since its snapshot was computed: no matchpoints (``line`` is
    # None) until the standings task recomputes them; queue.UPDATING or OUT_OF_DATE, else "".
    recomputing: str = ""

    @property
    def declarer(self) -> str:
        return play.choosing_pair(self.result.board.dealer)

    @property
    def net_ns(self) -> int:
        return self.result.score_ns - self.result.score_ew

    def against_par(self, par_net_ns: int) -> int | None:
        """The NS net minus the par's; None for a referee's adjusted score, which was not
        played and has nothing to compare (docs/analysis.md)."""
        if self.result.adjusted_ns or self.result.adjusted_ew:
            return None
        return self.net_ns - par_net_ns

    @property
    def calls(self) -> str:
        """``W contro, S recontro`` in the active language (empty when nobody called)."""
        return ", ".join(
            f"{seat_name(str(d.get('seat', '')))} {call_name(str(d.get('call', '')))}"
            for d in self.result.doubles or []
            if isinstance(d, dict)
        )

    @property
    def trump_text(self) -> str:
        return trump_short(self.result.trump)

    @property
    def trump_class(self) -> str:
        letter = TRUMP_LETTER.get(self.result.trump)
        return f"suit-{letter}" if letter else "suit-botifarra"

    @property
    def _adjusted_codes(self) -> list[tuple[str, str]]:
        """Each side's adjustment; a result holding one side's only gives the other side the
        complement (docs/scoring.md §2: average plus for one, average minus for the other)."""
        ns, ew = self.result.adjusted_ns or None, self.result.adjusted_ew or None
        if not (ns or ew):
            return []
        return list(zip(("NS", "EW"), adjusted_codes(ns, ew), strict=True))

    @property
    def adjusted(self) -> str:
        """A referee's adjusted score, short (``NS 60 % · EW 40 %``, no break inside a side's);
        "" for a played result. It is left out of the board's comparison (docs/scoring.md §2)."""
        return " · ".join(
            f"{side_label(side)}\u00a0{st.ADJUSTED_PCT[code]:.0f}\u00a0%"
            for side, code in self._adjusted_codes
        )

    @property
    def adjusted_words(self) -> str:
        """The same in words: ``NS Average plus (60 %) · EW Average minus (40 %)``."""
        return " · ".join(
            f"{side_label(side)} {BoardResult.Adjusted(code).label}"
            for side, code in self._adjusted_codes
        )


def _travellers(ev: EventView, rounds: list[Round]) -> dict[int, st.Traveller]:
    """The duplicate comparison of every board of these rounds, as the standings task stored it
    with the snapshot after each round (nothing is recomputed here)."""
    if not rounds:
        return {}
    stored = StandingsSnapshot.objects.filter(
        event=ev.event, after_round__in=[r.number for r in rounds]
    ).values_list("travellers", flat=True)
    out: dict[int, st.Traveller] = {}
    for travellers in stored:
        for board, data in travellers.items():
            lines = [st.TravellerLine(**line) for line in data["lines"]]
            out[int(board)] = st.Traveller(board=int(board), lines=lines, top=data["top"])
    return out


def _counted_results(rounds: Iterable[Round], **filters: Any) -> list[BoardResult]:
    return list(
        BoardResult.objects.filter(
            table__round__in=list(rounds), status__in=BoardResult.COUNTED, **filters
        )
        .select_related("table__round", "board", "table__ns__pair", "table__ew__pair")
        .order_by("table__round__number", "board__number", "table__number")
    )


def _changes(
    ev: EventView,
    results: list[BoardResult],
    travellers: dict[int, st.Traveller],
    boards: set[int] | None = None,
) -> tuple[set[int], set[tuple[int, int]]]:
    """What the snapshot's comparison no longer matches: the boards (by number) and the tables
    (round, table) with a result stored, changed or no longer counted since the standings were
    computed. ``boards``: only these (the caller read only their results)."""
    computed = ev.event.standings_updated_at
    lines = {
        (board, line.table): line
        for board, trav in travellers.items()
        if boards is None or board in boards
        for line in trav.lines
    }
    boards_changed: set[int] = set()
    tables_changed: set[tuple[int, int]] = set()
    round_of: dict[int, int] = {}
    for r in results:
        board, table = r.board.number, r.table.number
        round_of[board] = r.table.round.number
        line = lines.pop((board, table), None)
        # Newer than the standings (as ``scoring_io.stale_events`` sees it), or not what
        # the snapshot counted.
        if (
            computed is None
            or r.updated_at > computed
            or (
                line is not None
                and (line.ns, line.ew, line.score_ns, line.score_ew)
                != (r.table.ns_id, r.table.ew_id, r.score_ns, r.score_ew)
            )
        ):
            boards_changed.add(board)
            tables_changed.add((r.table.round.number, table))
    for board, table in lines:  # counted by the snapshot, no longer by the results
        boards_changed.add(board)
        tables_changed.add((round_of.get(board, ev.round_of_board(board)), table))
    return boards_changed, tables_changed


@dataclass
class Compared:
    """Counted results with their matchpoints, never a score beside the matchpoints of another:
    where the results changed since the snapshot, the line's matchpoints wait for the
    recomputation (``ResultLine.recomputing``)."""

    lines: list[ResultLine]
    travellers: dict[int, st.Traveller]
    boards_changed: set[int]
    tables_changed: set[tuple[int, int]]  # (round, table)
    state: str  # queue.FRESH; UPDATING or OUT_OF_DATE when something changed


def _compared(
    ev: EventView, rounds: list[Round], results: list[BoardResult], board: int | None = None
) -> Compared:
    boards = {board} if board is not None else None
    travellers = _travellers(ev, rounds)
    changed = _changes(ev, results, travellers, boards)
    state = queue.FRESH
    if changed[0]:
        # As the standings page: queue the recomputation if none is (with tasks run
        # in-process it runs here), and say whether one is under way.
        state = queue.standings_state(ev.event)
        if state == queue.FRESH:
            ev.event.refresh_from_db(fields=["standings_updated_at"])
            travellers = _travellers(ev, rounds)
            changed = _changes(ev, results, travellers, boards)
            state = queue.UPDATING if changed[0] else queue.FRESH
    by_key = {(t.board, line.table): line for t in travellers.values() for line in t.lines}
    lines = []
    for r in results:
        waits = r.board.number in changed[0]
        lines.append(
            ResultLine(
                result=r,
                table=r.table,
                line=None if waits else by_key.get((r.board.number, r.table.number)),
                recomputing=state if waits else "",
            )
        )
    return Compared(lines, travellers, changed[0], changed[1], state)


@dataclass
class TravellerView:
    board: Board
    round: Round
    lines: list[ResultLine]
    top: int
    pending: int  # results of this board not yet counted (entered or disputed)
    recomputing: str = ""  # its matchpoints wait for the standings task (ResultLine)


def board_traveller(ev: EventView, board_number: int) -> TravellerView | None:
    """The traveller of a board; None when there is no such board or the viewer may not see it."""
    rnd = ev.rounds.get(ev.round_of_board(board_number))
    if rnd is None or not ev.board_visible(board_number):
        return None
    board = Board.objects.filter(event=ev.event, number=board_number).first()
    if board is None:
        return None
    compared = _compared(ev, [rnd], _counted_results([rnd], board=board), board_number)
    pending = (
        BoardResult.objects.filter(table__round=rnd, board=board)
        .exclude(status__in=BoardResult.COUNTED)
        .count()
    )
    trav = compared.travellers.get(board_number)
    recomputing = compared.state if board_number in compared.boards_changed else ""
    return TravellerView(
        board=board,
        round=rnd,
        lines=compared.lines,
        top=trav.top if trav and not recomputing else 0,
        pending=pending,
        recomputing=recomputing,
    )


def round_travellers(ev: EventView, rnd: Round) -> list[TravellerView]:
    """Every board of a round, for the travellers PDF (the caller checks visibility)."""
    boards = {
        b.number: b for b in Board.objects.filter(event=ev.event, number__in=rnd.board_numbers)
    }
    compared = _compared(ev, [rnd], _counted_results([rnd]))
    travellers = compared.travellers
    by_board: dict[int, list[ResultLine]] = defaultdict(list)
    for line in compared.lines:
        by_board[line.result.board.number].append(line)
    waiting = compared.boards_changed
    return [
        TravellerView(
            board=boards[n],
            round=rnd,
            lines=by_board.get(n, []),
            top=travellers[n].top if n in travellers and n not in waiting else 0,
            pending=0,
            recomputing=compared.state if n in waiting else "",
        )
        for n in rnd.board_numbers
        if n in boards
    ]


# Rounds ---------------------------------------------------------------------------------------


@dataclass
class MatchRow:
    table: int
    ns: Entry | None
    ew: Entry | None
    total_ns: int | None  # None: not to be shown to this reader yet (or nothing computed)
    total_ew: int | None
    mp_ns: int | None
    mp_ew: int | None
    boards_played: int | None
    lines: list[ResultLine] = field(default_factory=list)
    # A result of the match changed since the standings were computed: no totals nor match
    # points until they are recomputed (queue.UPDATING or OUT_OF_DATE, else "").
    recomputing: str = ""


@dataclass
class RoundView:
    round: Round
    matches: list[MatchRow]
    boards_shown: bool  # board-by-board results are shown (round closed, or staff)
    bye: Entry | None


def round_results(ev: EventView, number: int) -> RoundView | None:
    rnd = ev.rounds.get(number)
    if rnd is None or rnd.status == Round.Status.PENDING:
        return None
    # The match totals are scores: while the round is open only its organisers and referees
    # see them (a table that has not played a board must not learn its score from them).
    scored = number <= policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    shown = ev.round_visible(number)
    lines_by_table: dict[int, list[ResultLine]] = defaultdict(list)
    changed: set[tuple[int, int]] = set()
    state = queue.FRESH
    if shown:  # first: it may recompute the snapshot read below
        compared = _compared(ev, [rnd], _counted_results([rnd]))
        changed, state = compared.tables_changed, compared.state
        for line in compared.lines:
            lines_by_table[line.table.number].append(line)
    snapshot = (
        StandingsSnapshot.objects.filter(event=ev.event, after_round=number).only("matches").first()
        if scored
        else None
    )
    stored = snapshot.matches if snapshot is not None else []
    matches = [
        _match_row(ev, m, lines_by_table, state if (number, m["table"]) in changed else "")
        for m in sorted(stored, key=lambda m: m["table"])
    ]
    if not matches:  # no scores to show (not yet, or not to this reader): the tables alone
        for t in Table.objects.filter(round=rnd).order_by("number"):
            matches.append(
                MatchRow(
                    table=t.number,
                    ns=ev.entries.get(t.ns_id),
                    ew=ev.entries.get(t.ew_id),
                    total_ns=None,
                    total_ew=None,
                    mp_ns=None,
                    mp_ew=None,
                    boards_played=None,
                    lines=lines_by_table.get(t.number, []),
                )
            )
    return RoundView(
        round=rnd,
        matches=matches,
        boards_shown=shown,
        bye=ev.entries.get(rnd.bye_id) if rnd.bye_id else None,
    )


def _match_row(
    ev: EventView, m: dict[str, Any], lines: dict[int, list[ResultLine]], recomputing: str
) -> MatchRow:
    # A match not over (or not played) has no match points yet: no draw for nothing; a match
    # whose results changed shows none of the old totals beside its new lines.
    final = m.get("final", True) and not recomputing
    return MatchRow(
        table=m["table"],
        ns=ev.entries.get(m["ns"]),
        ew=ev.entries.get(m["ew"]),
        total_ns=None if recomputing else m["total_ns"],
        total_ew=None if recomputing else m["total_ew"],
        mp_ns=m["mp_ns"] if final else None,
        mp_ew=m["mp_ew"] if final else None,
        boards_played=None if recomputing else m["boards_played"],
        lines=lines.get(m["table"], []),
        recomputing=recomputing,
    )


# Scorecards -----------------------------------------------------------------------------------


@dataclass
class ScorecardLine:
    round: int
    board: int
    table: int
    direction: str  # "NS" or "EW"
    opponent: Entry | None
    line: ResultLine
    # The pair's net score (for − against) minus the par's for its side, where the board's
    # analysis is stored (the lines are of rounds whose cards the reader may see).
    vs_par: int | None = None

    @property
    def score_for(self) -> int:
        r = self.line.result
        return r.score_ns if self.direction == "NS" else r.score_ew

    @property
    def score_against(self) -> int:
        r = self.line.result
        return r.score_ew if self.direction == "NS" else r.score_ns

    @property
    def mp(self) -> float | None:
        tl = self.line.line
        if tl is None:
            return None
        return tl.mp_ns if self.direction == "NS" else tl.mp_ew

    @property
    def pct(self) -> float | None:
        tl = self.line.line
        if tl is None:
            return None
        return tl.pct_ns if self.direction == "NS" else tl.pct_ew


@dataclass
class Scorecard:
    entry: Entry
    lines: list[ScorecardLine]
    history: list[tuple[int, int]]
    pairs: int

    @property
    def total_for(self) -> int:
        return sum(line.score_for for line in self.lines)

    @property
    def total_against(self) -> int:
        return sum(line.score_against for line in self.lines)

    @property
    def recomputing(self) -> str:
        """queue.UPDATING or OUT_OF_DATE while a line's matchpoints wait for the standings."""
        return next((s.line.recomputing for s in self.lines if s.line.recomputing), "")

    @property
    def pct(self) -> float | None:
        """None while a line's matchpoints are being recomputed: an average of the others
        would be a number the pair never had."""
        if self.recomputing:
            return None
        pcts = [line.pct for line in self.lines if line.pct is not None]
        return sum(pcts) / len(pcts) if pcts else None

    @property
    def has_par(self) -> bool:
        return any(line.vs_par is not None for line in self.lines)

    @property
    def total_vs_par(self) -> int:
        """Over the boards whose analysis is stored."""
        return sum(line.vs_par for line in self.lines if line.vs_par is not None)


def scorecards(
    ev: EventView,
    entries: list[Entry],
    *,
    round_number: int | None = None,
    par: bool = True,
    may_see_analysis: Callable[[Board], bool] | None = None,
) -> list[Scorecard]:
    """The scorecards of these pairs over the rounds the viewer may see (or one round);
    ``par=False``: without the analysis (``vs_par``), one query less. ``may_see_analysis``: a
    reader the event's view does not tell everything of (a table of the API, for whom a closed
    round of an unpublished event shows its scores but not always its cards) gets ``vs_par``
    only where it passes (``policy.can_see_analysis``)."""
    rounds = ev.visible_rounds
    if round_number is not None:
        rounds = [r for r in rounds if r.number == round_number]
    wanted = {e.pk for e in entries}
    lines = [
        line
        for line in _compared(ev, rounds, _counted_results(rounds)).lines
        if line.table.ns_id in wanted or line.table.ew_id in wanted
    ]
    history: dict[int, list[tuple[int, int]]] = defaultdict(list)
    # The ranks after the rounds whose scores the reader may see: a rank after the open round
    # would tell the public how that round is going.
    scored = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    for after, rows in (
        StandingsSnapshot.objects.filter(event=ev.event, after_round__lte=scored)
        .order_by("after_round")
        .values_list("after_round", "rows")
    ):
        if round_number is not None and after > round_number:
            continue
        for row in rows:
            if row["entry"] in wanted:
                history[row["entry"]].append((after, row["rank"]))
    # Scorecards show the rounds whose board results the reader may see (``visible_rounds``);
    # the analysis follows the cards' rule (policy.can_see_analysis), which a caller that knows
    # more of the reader than the event's view applies through ``may_see_analysis``.
    boards = list({line.result.board.pk: line.result.board for line in lines}.values())
    if may_see_analysis is not None:
        boards = [b for b in boards if may_see_analysis(b)]
    par_net_ns = {
        b.number: b.perfect_play.par_net_ns
        for b in (attach_analyses(ev.event, boards) if par else [])
        if b.perfect_play is not None
    }
    out = []
    for entry in entries:
        own = []
        for line in lines:
            direction = line.table.side_of(entry)
            if direction is None:
                continue
            opponent_id = line.table.ew_id if direction == "NS" else line.table.ns_id
            own.append(
                ScorecardLine(
                    round=line.table.round.number,
                    board=line.result.board.number,
                    table=line.table.number,
                    direction=direction,
                    opponent=ev.entries.get(opponent_id),
                    line=line,
                    vs_par=_vs_par(line, direction, par_net_ns),
                )
            )
        out.append(
            Scorecard(
                entry=entry, lines=own, history=history.get(entry.pk, []), pairs=len(ev.entries)
            )
        )
    return out


def _vs_par(line: ResultLine, direction: str, par_net_ns: dict[int, int]) -> int | None:
    par = par_net_ns.get(line.result.board.number)
    against = line.against_par(par) if par is not None else None
    if against is None:
        return None
    return against if direction == "NS" else -against


# Boards, tables, records ----------------------------------------------------------------------


def boards_of_rounds(ev: EventView, numbers: Iterable[int]) -> list[Board]:
    """The boards of these rounds (the caller checked that the viewer may see their hands:
    ``pdf.hand_record_rounds``), each with its perfect-play analysis (``perfect_play``), which
    follows the same rule (``policy.can_see_analysis``)."""
    wanted = [n for r in numbers for n in ev.event.board_numbers(r)]
    boards = list(Board.objects.filter(event=ev.event, number__in=wanted).order_by("number"))
    for board in boards:
        board.event = ev.event  # Board.round_number reads the event: no query per board
    return attach_analyses(ev.event, boards)


def round_tables(rnd: Round) -> list[Table]:
    return list(rnd.tables.select_related("ns__pair", "ew__pair").order_by("number"))


def result_lines(ev: EventView) -> list[ResultLine]:
    """Every counted result of the rounds the viewer may see, with matchpoints (CSV export)."""
    rounds = ev.visible_rounds
    return _compared(ev, rounds, _counted_results(rounds)).lines


def play_records(ev: EventView) -> list[dict[str, Any]]:
    """Every play record of the closed rounds, the board's hands filled in (JSON export).

    Closed rounds only, even for organisers: the file is meant to be published.
    """
    rows = (
        PlayRecord.objects.filter(result__table__round__in=ev.closed_rounds)
        .select_related("result__table__round", "result__board")
        .order_by(
            "result__table__round__number",
            "result__board__number",
            "result__table__number",
            "created_at",
            "pk",
        )
    )
    out = []
    for pr in rows:
        result = pr.result
        assert result is not None
        # Republished canonically: the keys of play-record.md only, whatever a client sent.
        record = play.published(result.board, pr.record, ruleset=ev.event.ruleset)
        out.append(
            {
                "round": result.table.round.number,
                "board": result.board.number,
                "table": result.table.number,
                "outcome": pr.outcome,
                "submitted_at": pr.created_at.isoformat(),
                "record": record,
                "verdict": play.verdict_out(pr.verdict),
            }
        )
    return out


# The room's screen -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    """One player of the open round: where to sit ("find your table")."""

    player: str
    pair_number: int
    table: int | None  # None: no table this round
    direction: str  # "NS" or "EW"; or "bye" (the Swiss bye) or "rest" (resting, a requested bye)
    opponents: str


def find_your_table(ev: EventView) -> tuple[Round | None, list[SeatLine]]:
    """The open round and every player in it, alphabetically, with table and direction, or the
    bye or a rest for whoever does not play it (the pairings are public once the round is open;
    no score is shown)."""
    rnd = next((r for r in ev.rounds.values() if r.status == Round.Status.OPEN), None)
    if rnd is None:
        return None, []
    lines = []
    away: dict[int, str] = {rnd.bye_id: "bye"} if rnd.bye_id else {}
    for pk in rnd.rests.values_list("pk", flat=True):
        away.setdefault(pk, "rest")
    requested = ByeRequest.objects.filter(entry__event=ev.event, round_number=rnd.number).exclude(
        entry__withdrawn_after_round__lt=rnd.number
    )
    for pk in requested.values_list("entry_id", flat=True):
        away.setdefault(pk, "rest")
    for entry_id, kind in away.items():
        entry = ev.entries.get(entry_id)
        if entry is not None:
            for player in (entry.pair.player1, entry.pair.player2):
                lines.append(SeatLine(player.name, entry.number, None, kind, ""))
    for table in rnd.tables.select_related(
        "ns__pair__player1", "ns__pair__player2", "ew__pair__player1", "ew__pair__player2"
    ):
        for side, entry, other in (("NS", table.ns, table.ew), ("EW", table.ew, table.ns)):
            for player in (entry.pair.player1, entry.pair.player2):
                lines.append(
                    SeatLine(
                        player.name,
                        entry.number,
                        table.number,
                        side,
                        f"{other.number}. {other.pair.name}",
                    )
                )
    return rnd, sorted(lines, key=lambda line: alphabetical(line.player))


def screen_version(ev: EventView) -> str:
    """Changes when the screen would show something else (rounds, standings), and each
    minute."""
    # The standings ``ev`` may see only: the open round's snapshot moves with each of its
    # results, and the room must not learn from the ETag when a table stored one.
    shown = standings_time(ev)
    # "Find your table": who sits where in the open rounds, and under which names.
    seated = Table.objects.filter(
        round__event=ev.event, round__status=Round.Status.OPEN
    ).values_list("pk", "ns_id", "ew_id")
    players = ev.event.entries.values_list("pk", "pair_id", "withdrawn_after_round")
    parts = (
        sorted(
            (n, r.status, r.pk, r.clock_ends_at, r.clock_left, r.bye_id)
            for n, r in ev.rounds.items()
        ),
        shown.isoformat() if shown else "",
        sorted(seated),
        sorted(players),
        timezone.now().replace(second=0, microsecond=0).isoformat(),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


# Crosstable and pairings list ----------------------------------------------------------------


WIN, DRAW, LOSS = "W", "D", "L"


@dataclass(frozen=True)
class CrossCell:
    """One pair's round: its opponent and direction (public once the round is open) and, when
    the viewer may see the round's scores, the match's outcome and points."""

    round: int
    table: int | None
    direction: str  # "NS", "EW", or "" for the bye
    opponent: Entry | None  # None: the bye
    outcome: str | None = None  # WIN, DRAW, LOSS; None: scores not shown, or match not over
    points_for: int | None = None
    points_against: int | None = None
    forfeit: bool = False  # the match was forfeited (by either side)
    no_match: bool = False  # a closed round's table played none of its boards (no match points)

    @property
    def bye(self) -> bool:
        return self.opponent is None

    @property
    def scored(self) -> bool:
        return self.points_for is not None


@dataclass
class CrossRow:
    entry: Entry
    cells: list[CrossCell | None]  # one per round shown; None: the pair did not play it
    rank: int | None
    match_points: float | None


@dataclass
class CrosstableView:
    rounds: list[int]  # the rounds shown: open or closed
    scored_round: int  # results shown up to this round (policy.last_scored_round)
    rows: list[CrossRow]


def _played_rounds(ev: EventView) -> list[Round]:
    return [r for _n, r in sorted(ev.rounds.items()) if r.status != Round.Status.PENDING]


def _matches_by_table(ev: EventView, up_to: int) -> dict[tuple[int, int], dict[str, Any]]:
    """The stored matches of rounds 1..``up_to``, by (round, table)."""
    if up_to < 1:
        return {}
    out = {}
    for matches in StandingsSnapshot.objects.filter(
        event=ev.event, after_round__lte=up_to
    ).values_list("matches", flat=True):
        for m in matches:
            out[(m["round"], m["table"])] = m
    return out


def _outcome(mine: int, theirs: int) -> str:
    return WIN if mine > theirs else LOSS if mine < theirs else DRAW


def crosstable(ev: EventView) -> CrosstableView:
    """Pairs × rounds. Never a score of a round whose scores the viewer may not see (for the
    public: a round not closed); opponents and directions of open rounds are public, as on the
    room's screen."""
    rounds = _played_rounds(ev)
    scored = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    matches = _matches_by_table(ev, scored)
    closed = {r.number for r in rounds if r.status == Round.Status.CLOSED}
    cells: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    tables = Table.objects.filter(round__in=rounds).values_list(
        "round__number", "number", "ns_id", "ew_id", "forfeited_by"
    )
    for number, table, ns, ew, forfeited in tables:
        match = matches.get((number, table)) if number <= scored else None
        for me, other, side in ((ns, ew, "NS"), (ew, ns, "EW")):
            cell = CrossCell(
                round=number,
                table=table,
                direction=side,
                opponent=ev.entries.get(other),
                forfeit=bool(forfeited),
            )
            if match is not None and not match.get("final", True) and number in closed:
                cell = replace(cell, no_match=True)
            elif match is not None:
                mine, theirs = ("ns", "ew") if side == "NS" else ("ew", "ns")
                cell = CrossCell(
                    round=number,
                    table=table,
                    direction=side,
                    opponent=ev.entries.get(other),
                    outcome=_outcome(match[f"mp_{mine}"], match[f"mp_{theirs}"])
                    if match.get("final", True)
                    else None,
                    points_for=match[f"total_{mine}"],
                    points_against=match[f"total_{theirs}"],
                    forfeit=bool(forfeited or match.get("forfeited_by")),
                )
            cells[me][number] = cell
    for rnd in rounds:
        if rnd.bye_id:
            cells[rnd.bye_id][rnd.number] = CrossCell(
                round=rnd.number, table=None, direction="", opponent=None
            )
    standing = {row.entry.pk: row for row in standings(ev).rows}
    rows = []
    for entry in sorted(ev.entries.values(), key=lambda e: e.number):
        row = standing.get(entry.pk)
        rows.append(
            CrossRow(
                entry=entry,
                cells=[cells[entry.pk].get(r.number) for r in rounds],
                rank=row.rank if row else None,
                match_points=row.match_points if row else None,
            )
        )
    return CrosstableView(rounds=[r.number for r in rounds], scored_round=scored, rows=rows)


@dataclass
class GridRow:
    entry: Entry
    # One per column pair: the row pair's matches against it, in round order (two in a double
    # round robin; none yet: not met); None on the diagonal.
    cells: list[list[CrossCell] | None]
    rank: int | None
    match_points: float | None


@dataclass
class RoundRobinGrid:
    columns: list[Entry]
    scored_round: int
    rows: list[GridRow]


def round_robin_grid(ev: EventView, view: CrosstableView | None = None) -> RoundRobinGrid | None:
    """A round robin's all-play-all table: pairs × pairs, each cell the matches of the row's
    pair against the column's. Read from the crosstable (``view``, or computed), so it shows a
    score only where the crosstable does. None for the other pairing methods."""
    if ev.event.format != Event.Format.ROUND_ROBIN:
        return None
    view = view if view is not None else crosstable(ev)
    columns = [row.entry for row in view.rows]
    rows = []
    for row in view.rows:
        met: dict[int, list[CrossCell]] = defaultdict(list)
        for cell in row.cells:
            if cell is not None and cell.opponent is not None:
                met[cell.opponent.pk].append(cell)
        rows.append(
            GridRow(
                entry=row.entry,
                cells=[None if c.pk == row.entry.pk else met.get(c.pk, []) for c in columns],
                rank=row.rank,
                match_points=row.match_points,
            )
        )
    return RoundRobinGrid(columns=columns, scored_round=view.scored_round, rows=rows)


@dataclass(frozen=True)
class PairingLine:
    """A pair in a round's pairings list: its score before the round, where it sits, whom it
    meets, and its directions in the earlier rounds ("" for a bye, None: did not play)."""

    entry: Entry
    score: float | None  # match points before the round; None: not shown to this viewer
    table: int | None
    direction: str  # "NS", "EW", or "" for the bye
    opponent: Entry | None
    opponent_score: float | None
    history: list[str | None]

    @property
    def floated(self) -> bool:
        """Paired outside its score group."""
        return (
            self.opponent is not None
            and self.score is not None
            and self.opponent_score is not None
            and self.score != self.opponent_score
        )


@dataclass
class ScoreGroup:
    score: float | None
    lines: list[PairingLine]


@dataclass
class PairingsView:
    round: Round
    groups: list[ScoreGroup]
    earlier: list[int]  # the rounds of each line's history

    @property
    def lines(self) -> list[PairingLine]:
        return [line for group in self.groups for line in group.lines]


def pairings_rounds(ev: EventView) -> list[int]:
    """The rounds whose pairings this viewer may list: open or closed ones; organisers and
    referees also a proposed round (to check and print it before opening it)."""
    out = []
    for number, rnd in sorted(ev.rounds.items()):
        if rnd.status != Round.Status.PENDING or ev.staff:
            out.append(number)
    return out


def pairings_list(ev: EventView, number: int) -> PairingsView | None:
    """Round ``number``'s pairings by score group (scores before the round, highest first);
    None when the viewer may not see the round's pairings."""
    rnd = ev.rounds.get(number)
    if rnd is None or number not in pairings_rounds(ev):
        return None
    scored = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    scores: dict[int, float] | None = None
    if number == 1:
        scores = defaultdict(float)
    elif number - 1 <= scored:
        snapshot = StandingsSnapshot.objects.filter(event=ev.event, after_round=number - 1).first()
        if snapshot is not None:
            scores = defaultdict(float, {r["entry"]: r["match_points"] for r in snapshot.rows})
    history: dict[int, dict[int, str]] = defaultdict(dict)
    seats: dict[int, tuple[int, str, int]] = {}
    for n, table, ns, ew in Table.objects.filter(
        round__event=ev.event, round__number__lte=number
    ).values_list("round__number", "number", "ns_id", "ew_id"):
        if n == number:
            seats[ns] = (table, "NS", ew)
            seats[ew] = (table, "EW", ns)
        else:
            history[ns][n] = "NS"
            history[ew][n] = "EW"
    earlier = [n for n in sorted(ev.rounds) if n < number]
    for n in earlier:
        bye = ev.rounds[n].bye_id
        if bye:
            history[bye][n] = ""
    players = list(seats)
    if rnd.bye_id:
        players.append(rnd.bye_id)
    lines = []
    for pk in players:
        entry = ev.entries.get(pk)
        if entry is None:
            continue
        table, direction, other = seats.get(pk, (None, "", None))
        lines.append(
            PairingLine(
                entry=entry,
                score=scores[pk] if scores is not None else None,
                table=table,
                direction=direction,
                opponent=ev.entries.get(other) if other else None,
                opponent_score=scores[other] if scores is not None and other else None,
                history=[history[pk].get(n) for n in earlier],
            )
        )
    lines.sort(key=lambda line: (-(line.score or 0), line.entry.number))
    groups: list[ScoreGroup] = []
    for line in lines:
        if not groups or groups[-1].score != line.score:
            groups.append(ScoreGroup(score=line.score, lines=[]))
        groups[-1].lines.append(line)
    return PairingsView(round=rnd, groups=groups, earlier=earlier)
