"""Reads for the players' table pages: each board's status and what this side may do, the short
form's context, the card-by-card page's context, and what a submission said.

The views (``views/table.py``, ``views/table_play.py``) only parse and render; the rules come
from the engine (through ``play``) and the words from ``labels``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import analysis_selectors, labels, play, policy
from tournaments.clock import round_clock
from tournaments.forms_results import call_choices
from tournaments.jsonio import JSONRejected
from tournaments.labels import CALLS, SEAT_ORDER, call_name, seat_names, trump_name, trump_symbol
from tournaments.models import Board, BoardResult, Dispute, Event, Round, Ruling, Table
from tournaments.prepared import Prepared
from tournaments.referee_desk import replay_costs, replay_payload, replay_text
from tournaments.selectors import round_rules, table_boards_due
from tournaments.services import results
from tournaments.services.analysis import ANALYSED_OUTCOMES
from tournaments.services.clock import deal_in_progress
from tournaments.table_access import PAGE_RELATED, Access


def table_result(table: Table, board: Board) -> BoardResult | None:
    return BoardResult.objects.filter(table=table, board=board).first()


def pair_name(access: Access, side: str) -> str:
    entry = access.table.ns if side == "NS" else access.table.ew
    return entry.pair.name


def describe(result: BoardResult) -> dict[str, Any]:
    """A short result as people read it (no cards)."""
    seats = seat_names()
    return {
        "trump": trump_name(result.trump),
        "trump_symbol": trump_symbol(result.trump),
        "delegated": result.delegated,
        "calls": [
            {
                "call": call_name(str(d.get("call"))),
                "seat": seats.get(d.get("seat"), d.get("seat")),
            }
            for d in result.doubles
        ],
        "totals_ns": result.totals_ns,
        "totals_ew": result.totals_ew,
        "offending_pair": result.offending_pair,
        "multiplier": result.multiplier,
        "score_ns": result.score_ns,
        "score_ew": result.score_ew,
        "capot": result.capot,
        "adjusted_ns": result.get_adjusted_ns_display() if result.adjusted_ns else "",
        "adjusted_ew": result.get_adjusted_ew_display() if result.adjusted_ew else "",
    }


@dataclass
class BoardRow:
    number: int
    board: Board | None
    result: BoardResult | None
    status: str
    label: str
    shown: dict[str, Any] | None = None
    explanation: str = ""
    open_dispute: Dispute | None = None
    actions: list[str] = field(default_factory=list)


def status_label(result: BoardResult | None, side: str) -> str:
    if result is None:
        return _("Not entered")
    if result.status == BoardResult.Status.ENTERED:
        # One sentence per side: "waiting for" joins the other side as each language does
        # (Catalan "pendent d'EO").
        if result.entered_side == "NS":
            return _("Entered by NS, waiting for EW")
        if result.entered_side == "EW":
            return _("Entered by EW, waiting for NS")
        return _("Entered by the organiser, waiting for confirmation")
    if result.status == BoardResult.Status.CONFIRMED:
        return _("Confirmed")
    if result.status == BoardResult.Status.DISPUTED:
        return _("Disputed: a referee will decide")
    return _("Ruled by the referee")


def board_rows(access: Access) -> list[BoardRow]:
    """Every board of the table's round with its status and the actions open to this side."""
    table = access.table
    event = table.round.event
    numbers = list(table.round.board_numbers)
    boards = {
        b.number: b
        for b in Board.objects.filter(event=event, number__in=numbers).only(
            "id", "number", "dealer", "event_id"
        )
    }
    found = (
        BoardResult.objects.filter(table=table)
        .select_related("board")
        .prefetch_related(
            Prefetch(
                "disputes",
                queryset=Dispute.objects.prefetch_related(
                    Prefetch("rulings", queryset=Ruling.objects.order_by("created_at", "pk"))
                ),
            )
        )
    )
    by_number = {r.board.number: r for r in found}
    rows = []
    for n in numbers:
        result = by_number.get(n)
        row = BoardRow(
            number=n,
            board=boards.get(n),
            result=result,
            status=result.status if result else "none",
            label=status_label(result, access.side),
        )
        if result is not None:
            row.shown = describe(result)
            disputes = list(result.disputes.all())
            row.open_dispute = next((d for d in disputes if d.status == Dispute.Status.OPEN), None)
            rulings = [r for d in disputes for r in d.rulings.all()]
            if rulings:
                latest = max(rulings, key=lambda r: (r.created_at, r.pk))
                row.explanation = latest.explanation
        row.actions = actions(access, row)
        rows.append(row)
    return rows


def actions(access: Access, row: BoardRow) -> list[str]:
    if row.board is None:
        return []
    result = row.result
    if result is None:
        return ["enter", "play"]
    actions: list[str] = []
    if result.status == BoardResult.Status.ENTERED:
        if access.side and result.entered_side == access.side:
            actions += ["correct", "confirm_here"]
        elif access.side or access.organiser:
            actions += ["confirm", "differ"]
    actions.append("play")
    if row.open_dispute is None:
        actions.append("referee")
    return actions


def stamp(rows: list[BoardRow]) -> str:
    raw = "|".join(
        f"{r.number}:{r.status}:{r.result.version if r.result else 0}:{r.explanation}" for r in rows
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def match_goes_on(table: Table, numbers: list[int]) -> bool:
    """Does the table still owe a board under the event's match rules?"""
    scores = {
        b: (ns, ew)
        for b, ns, ew in BoardResult.objects.filter(
            table=table, status__in=BoardResult.COUNTED
        ).values_list("board__number", "score_ns", "score_ew")
    }
    owed, _not_played = table_boards_due(table.round.event, table, numbers, scores)
    return bool(owed)


def home_context(access: Access) -> dict[str, Any]:
    rows = board_rows(access)
    table = access.table
    seats = seat_names()
    clock = round_clock(table.round)
    numbers = list(table.round.board_numbers)
    time_deals = [(i, n) for i, n in enumerate(numbers, start=1)]
    # The table says when time was called once the clock is over, unless its match is over
    # already (a referee may correct it).
    ask_time = clock.over and table.time_after is None and match_goes_on(table, numbers)
    return {
        "access": access,
        "table": table,
        "event": table.round.event,
        "round": table.round,
        "rows": rows,
        # The clock's end (or, paused, what is left) too: "Give more time" changes nothing else.
        "stamp": stamp(rows)
        + f":{clock.state}:{clock.ends_ms or clock.seconds_left}:{table.time_after}",
        "clock": clock,
        "ask_time": ask_time,
        "time_deals": time_deals,
        "deal_in_progress": deal_in_progress(table) if ask_time else None,
        "time_board": numbers[table.time_after - 1] if table.time_after else None,
        # A game level at time still plays its tie-break deals, or plays on (scoring.matches).
        "level_goes_on": table.time_after is not None
        and table.round.event.match_mode == Event.MatchMode.GAME
        and round_rules(table.round.event, table.round.number).draw != "half",
        "seats": seats,
        "my_pair": pair_name(access, access.side) if access.side else "",
        "my_number": my_entry_number(access),
        "other_side": access.other_side,
    }


@dataclass(frozen=True)
class NextSeat:
    """Where a pair sits in the event's open round: public once the round is open (the
    find-your-table page shows it); never its code, which is on the new table card."""

    round_number: int
    table_number: int
    side: str
    opponents: str


# Read by every page of a pair's evening: compiled once, planned once a session (a join of ten
# tables costs PostgreSQL more to plan than to run).
_NEXT_SEAT = Prepared(
    lambda event, entry, table: (
        Table.objects.filter(round__event_id=event, round__status=Round.Status.OPEN)
        .filter(Q(ns_id=entry) | Q(ew_id=entry))
        .exclude(pk=table)
        .select_related("round", *PAGE_RELATED)
        .order_by("-round__number")[:1]
    ),
    event=int,
    entry=int,
    table=int,
)


def next_seat(table: Table, side: str) -> NextSeat | None:
    """The open round's seat of the pair that sat at ``side`` of ``table``, if another round
    of the event is open."""
    if side not in ("NS", "EW"):
        return None
    entry_id = table.ns_id if side == "NS" else table.ew_id
    found = _NEXT_SEAT.first(event=table.round.event_id, entry=entry_id, table=table.pk)
    if found is None:
        return None
    mine = "NS" if found.ns_id == entry_id else "EW"
    other = found.ew if mine == "NS" else found.ns
    return NextSeat(found.round.number, found.number, mine, f"{other.number}. {other.pair.name}")


def my_entry_number(access: Access) -> int | None:
    """The pair number of this phone's side (for the links to its own scorecard)."""
    if access.side == "NS":
        return access.table.ns.number
    if access.side == "EW":
        return access.table.ew.number
    return None


def short_context(
    access: Access,
    board: Board,
    result: BoardResult | None,
    values: dict[str, str],
    errors: dict[str, list[str]],
    mode: str,
) -> dict:
    event = access.table.round.event
    seats = seat_names()
    dealer = board.dealer
    partner = play.partner(dealer)
    allowed = call_choices(board)
    return {
        "access": access,
        "table": access.table,
        "board": board,
        "result": result,
        "shown": describe(result) if result is not None else None,
        "values": values,
        "errors": errors,
        "general_errors": errors.get("__all__", []),
        "mode": mode,
        "dealer_label": seats[dealer],
        "partner_label": seats[partner],
        "trumps": labels.trump_choices(),
        "calls": [
            {
                "name": c,
                "label": call_name(c),
                "selected": values.get(c, ""),
                "options": [{"seat": s, "label": name} for s, name in allowed[c]],
                "errors": errors.get(c, []),
            }
            for c in CALLS
        ],
        "sv_in_botifarra": play.rules(event).allows_sant_vicenc_in_botifarra,
        "ns_name": access.table.ns.pair.name,
        "ew_name": access.table.ew.pair.name,
        "version": result.version if result is not None else "",
    }


def submitted_message(outcome: results.Outcome, number: int, side: str) -> tuple[str, str]:
    result = outcome.result
    score = {"n": number, "ns": result.score_ns, "ew": result.score_ew}
    if result.status == BoardResult.Status.CONFIRMED:
        return "success", _("Board %(n)s confirmed: NS %(ns)s, EW %(ew)s.") % score
    if result.status == BoardResult.Status.DISPUTED:
        return "warning", _(
            "Board %(n)s: the two entries differ. A referee has been called and will decide."
        ) % score
    if result.status == BoardResult.Status.RULED:
        return "info", _("Board %(n)s has been ruled by the referee.") % score
    if side == "NS":
        return "success", _(
            "Board %(n)s entered: NS %(ns)s, EW %(ew)s. Waiting for EW to confirm."
        ) % score
    if side == "EW":
        return "success", _(
            "Board %(n)s entered: NS %(ns)s, EW %(ew)s. Waiting for NS to confirm."
        ) % score
    return "success", _("Board %(n)s entered: NS %(ns)s, EW %(ew)s.") % score


def paste_problem(exc: JSONRejected) -> dict[str, str]:
    """What players read when the text they pasted is not JSON: a sentence in their language
    that says what to do, no parser words (the referee's desk and the API keep the details)."""
    if exc.code == "empty":
        message = _("Nothing was pasted: paste the play record your club's software wrote.")
    elif exc.code == "syntax":
        message = _(
            "This is not a play record: copy the whole text your club's software wrote (it "
            "starts with { and ends with }) and paste it again. Something is wrong on line "
            "%(line)s."
        ) % {"line": exc.line}
    elif exc.code == "encoding":
        message = _(
            "This text cannot be read: copy the play record again from your club's software."
        )
    else:
        message = exc.message
    return {"path": "", "message": message}


def play_gate(access: Access, board: Board) -> tuple[BoardResult | None, bool, bool]:
    """(the table's result, whether it may see the cards, whether card by card is open: that
    needs the contract of its short result)."""
    result = table_result(access.table, board)
    can_see = policy.can_see_cards(access.actor, board, table=access.table)
    return result, can_see, can_see and result is not None


def play_context(
    access: Access,
    board: Board,
    result: BoardResult | None,
    can_see: bool,
    visible: bool,
    **extra: Any,
) -> dict[str, Any]:
    context = {
        "access": access,
        "table": access.table,
        "board": board,
        "result": result,
        "can_see": can_see,
        "visible": visible,
        "shown": describe(result) if result is not None else None,
        "seats": seat_names(),
    }
    # The record the result's values come from (not merely the latest one sent: a referee may
    # have accepted the other side's).
    in_force = results.record_in_force(result) if can_see and result is not None else None
    analysed = None
    if (
        in_force is not None
        and in_force.outcome in ANALYSED_OUTCOMES
        and policy.can_see_analysis(access.actor, board, table=access.table)
    ):
        # Judged card by card once the analysis ran.
        analysed = in_force
        context["costs"] = analysis_selectors.record_costs(analysed, board)
        context["costs_expected"] = True
    stored = in_force if visible else None
    if visible and stored is None and result is not None and result.play_records.exists():
        # A ruling replaced the records sent: say so, rather than offer to play the hand again.
        context["replaced"] = True
    if stored is not None and result is not None:
        # The hand is in: say what the engine found, not an empty board to play again.
        context["stored"] = verdict_summary(stored.verdict, result)
        # And replay it, with the cards that cost points once they are known (the same
        # replay as the referee's desk).
        payload = replay_payload(board=board, event=board.event, record=stored.record)
        costs = context.get("costs")
        if analysed is not None and analysed.pk == stored.pk and costs is not None:
            payload["costs"] = replay_costs(costs)
        if payload["steps"] and not payload["problems"]:
            context |= {
                "payload": payload,
                "replay_text": replay_text(costs="costs" in payload),
                "seat_order": SEAT_ORDER,
            }
    elif visible and result is not None:
        code = access.code
        context["config"] = {
            "board": board.number,
            "label": _("Board %(n)s") % {"n": board.number},
            "dealer": board.dealer,
            "hands": board.hands,
            "trump": result.trump,
            "delegated": result.delegated,
            "doubles": result.doubles,
            "ruleset": board.event.ruleset,
            "format": play.FORMAT,
            "seats": seat_names(),
            "sides": labels.side_labels(),
            "suits": labels.suit_names(),
            "symbols": labels.SYMBOLS,
            "pairs": {"NS": access.table.ns.pair.name, "EW": access.table.ew.pair.name},
            "legal_url": reverse("table:play_legal", args=[code, board.number]),
            "submit_url": reverse("table:play_submit", args=[code, board.number]),
            "home_url": reverse("table:table_home", args=[code]),
            "storage_key": f"botifarra-play:{access.table.pk}:{board.number}",
        }
    return context | extra


def verdict_summary(verdict: dict[str, Any], result: BoardResult) -> dict[str, Any]:
    seats = seat_names()
    summary: dict[str, Any] = {
        "verdict": verdict,
        "status": result.status,
        "status_label": result.get_status_display(),
    }
    if verdict["outcome"] == "complete":
        text = _(
            "Complete hand: NS %(tns)s, EW %(tew)s (tricks %(kns)s–%(kew)s); score NS "
            "%(sns)s, EW %(sew)s."
        ) % {
            "tns": verdict["totals"]["NS"],
            "tew": verdict["totals"]["EW"],
            "kns": verdict["tricks"]["NS"],
            "kew": verdict["tricks"]["EW"],
            "sns": verdict["score"]["NS"],
            "sew": verdict["score"]["EW"],
        }
    else:
        text = _(
            "Illegal play at trick %(t)s by %(seat)s: %(card)s (%(rule)s). The legal cards "
            "were %(legal)s. Penalty: NS %(sns)s, EW %(sew)s."
        ) % {
            "t": verdict["trick"],
            "seat": seats.get(verdict["seat"], verdict["seat"]),
            "card": verdict["card"],
            "rule": labels.rule_text(verdict["rule"]),
            "legal": " ".join(verdict["legal"]) or "—",
            "sns": verdict["score"]["NS"],
            "sew": verdict["score"]["EW"],
        }
    summary["text"] = text
    if result.status == BoardResult.Status.DISPUTED:
        summary["after"] = _(
            "This does not agree with the result already entered, or has an "
            "illegal card: the board is disputed and a referee will decide."
        )
    elif result.status == BoardResult.Status.CONFIRMED:
        summary["after"] = _("It agrees with the result entered: the board is confirmed.")
    else:
        summary["after"] = _("The result is stored; the other pair confirms it.")
    return summary


# How many of each kind wait in the phone's outbox; ``%(n)s`` is left for the page to fill.
_WAITING: dict[str, Callable[[int], str]] = {
    "result": lambda n: ngettext(
        "%(n)s result waiting to be sent", "%(n)s results waiting to be sent", n
    ),
    "confirmation": lambda n: ngettext(
        "%(n)s confirmation waiting to be sent", "%(n)s confirmations waiting to be sent", n
    ),
    "record": lambda n: ngettext(
        "%(n)s card-by-card hand waiting to be sent",
        "%(n)s card-by-card hands waiting to be sent",
        n,
    ),
    "referee": lambda n: ngettext(
        "%(n)s referee call waiting to be sent", "%(n)s referee calls waiting to be sent", n
    ),
}


def outbox_text() -> dict[str, Any]:
    """What the phone's outbox (static/js/outbox.js) says, in the page's language: each count
    sentence in its one and many forms."""
    return {
        "waiting": {kind: [say(1), say(2)] for kind, say in _WAITING.items()},
        "offline": _("This phone is offline."),
        "noAnswer": _("The server does not answer yet."),
        "kept": _(
            "They are kept on this phone and sent by themselves, in order, as soon as the "
            "network is back, even after closing this page. Nothing is stored before then."
        ),
        "keptAnswered": _(
            "They are kept on this phone and sent by themselves, in order, once the server "
            "takes them, even after closing this page. Nothing is stored before then."
        ),
        "languageOffline": _(
            "Changing the language needs the network: try again once this phone is online."
        ),
        "sendNow": _("Try to send now"),
        "sent": _("stored by the server:"),
        "stored": _("stored."),
        "refused": _("refused by the server:"),
        "refusedNoReason": _("the server did not say why."),
        "refusedHere": _("The server refused this; nothing was stored:"),
        "refusedFields": _("The server refused this; nothing was stored. See below."),
        "dismiss": _("OK"),
        "boardWaiting": _("On this phone, not sent yet:"),
        "savedOffline": _(
            "No network: the hand is kept on this phone and will be sent by itself as soon as "
            "the network is back. It is not stored yet."
        ),
    }
