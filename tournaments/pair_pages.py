"""Reads for a pair's own evening in the table pages: its scorecard so far, the standings of
the closed rounds, and the referee's rulings on its boards.

What is shown is what ``policy`` lets the pair see, read through the public pages' selectors
(``public_selectors``) as the public sees the event, whether it is published or not:

* other rounds: the pair's tables of **closed** rounds (``policy.pair_tables``), with the
  matchpoints of the travellers stored with the standings (``public_selectors.scorecards``);
* this table: its own results of its round (a table always sees its own), without matchpoints
  until the round is closed: they compare tables that may not have played the board yet;
* standings: after the last closed round only (``policy.last_scored_round``), as on the room's
  screen.

Each page reads in a small, fixed number of queries (tests/api/test_round_queries.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from tournaments import policy
from tournaments import public_selectors as sel
from tournaments.models import BoardResult, Dispute, Entry, Round, Ruling, Table
from tournaments.referee_desk import RulingView, ruling_summary
from tournaments.table_access import Access
from tournaments.table_pages import NextSeat, describe, next_seat, status_label


@dataclass
class Evening:
    """The pair (both pairs, for an organiser acting at the table) and the event as the public
    sees it: loaded once per page."""

    access: Access
    ev: sel.EventView
    entries: list[Entry]
    next: NextSeat | None

    @property
    def table(self) -> Table:
        return self.access.table

    @property
    def round_closed(self) -> bool:
        return self.table.round.status == Round.Status.CLOSED

    @property
    def entry_ids(self) -> list[int]:
        return [e.pk for e in self.entries]

    def context(self, **extra: Any) -> dict[str, Any]:
        return {
            "access": self.access,
            "table": self.table,
            "event": self.ev.event,
            "round": self.table.round,
            "evening": self,
            "next": self.next,
            **extra,
        }


def evening(access: Access) -> Evening:
    table = access.table
    ev = sel.event_view(table.round.event, staff=False)
    ids = {"NS": [table.ns_id], "EW": [table.ew_id]}.get(access.side, [table.ns_id, table.ew_id])
    return Evening(
        access=access,
        ev=ev,
        entries=[ev.entries[pk] for pk in ids if pk in ev.entries],
        next=next_seat(table, access.side) if access.side else None,
    )


# The scorecard ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairLine:
    """A board of the pair: the public scorecard's line, and where its result is not counted
    yet (this table's open round) what the table page says of it."""

    s: sel.ScorecardLine
    status: str = ""  # "" once counted
    closed: bool = True  # its round is closed: matchpoints are shown


@dataclass
class PairCard:
    entry: Entry
    lines: list[PairLine] = field(default_factory=list)
    pct: float | None = None  # over the boards of closed rounds

    @property
    def total_for(self) -> int:
        return sum(line.s.score_for for line in self.lines)

    @property
    def total_against(self) -> int:
        return sum(line.s.score_against for line in self.lines)


def scorecard_context(access: Access) -> dict[str, Any]:
    night = evening(access)
    table = night.table
    # Closed rounds only (staff=False). No par: the analysis follows the cards' rule, and a
    # table's actor may not see an earlier round's cards before the event is published.
    cards = sel.scorecards(night.ev, night.entries, par=False)
    own: list[BoardResult] = []
    if not night.round_closed:
        own = list(
            BoardResult.objects.filter(table=table)
            .select_related("board")
            .order_by("board__number")
        )
    out = []
    for card in cards:
        pair = PairCard(entry=card.entry, pct=card.pct)
        pair.lines = [PairLine(s) for s in card.lines]
        direction = table.side_of(card.entry)
        for result in own:
            result.table = table
            line = sel.ScorecardLine(
                round=table.round.number,
                board=result.board.number,
                table=table.number,
                direction=direction or "NS",
                opponent=night.ev.entries.get(table.ew_id if direction == "NS" else table.ns_id),
                line=sel.ResultLine(result=result, table=table, line=None),
            )
            counted = result.status in BoardResult.COUNTED
            label = "" if counted else status_label(result, access.side)
            pair.lines.append(PairLine(line, status=label, closed=False))
        out.append(pair)
    return night.context(cards=out)


# The standings ------------------------------------------------------------------------------


def standings_context(access: Access) -> dict[str, Any]:
    night = evening(access)
    view = sel.standings(night.ev)  # after the last closed round (policy.last_scored_round)
    mine = set(night.entry_ids)
    own = [row for row in view.rows if row.entry.pk in mine]
    return night.context(view=view, mine=mine, own_rows=own)


# The rulings --------------------------------------------------------------------------------


@dataclass
class RulingsOfBoard:
    """A referee's case on one of the pair's boards: why it was called, every ruling (the last
    one counts) with its explanation, and the result as it now stands."""

    dispute: Dispute
    result: BoardResult
    rulings: list[RulingView]
    shown: dict[str, Any]

    @property
    def board(self) -> int:
        return self.result.board.number

    @property
    def round(self) -> int:
        return self.result.table.round.number

    @property
    def table(self) -> int:
        return self.result.table.number


def rulings_context(access: Access) -> dict[str, Any]:
    night = evening(access)
    table = night.table
    disputes = list(
        Dispute.objects.filter(result__table__in=policy.pair_tables(table, night.entry_ids))
        .select_related("result__board", "result__table__round")
        .prefetch_related(Prefetch("rulings", queryset=Ruling.objects.order_by("created_at", "pk")))
        .order_by("result__table__round__number", "result__board__number", "created_at", "pk")
    )
    superseded = {r.supersedes_id for d in disputes for r in d.rulings.all() if r.supersedes_id}
    cases = [
        RulingsOfBoard(
            dispute=d,
            result=d.result,
            rulings=[RulingView(r, r.pk in superseded, ruling_summary(r)) for r in d.rulings.all()],
            shown=describe(d.result),
        )
        for d in disputes
    ]
    # The boards of this table on which the referee may be called now: a result, no open call.
    callable_boards: list[int] = []
    if not night.round_closed:
        waiting = {
            c.board
            for c in cases
            if c.result.table_id == table.pk and c.dispute.status == Dispute.Status.OPEN
        }
        entered = BoardResult.objects.filter(table=table).values_list("board__number", flat=True)
        callable_boards = sorted(set(entered) - waiting)
    return night.context(cases=cases, callable_boards=callable_boards)
