"""Reads of the stored perfect-play analysis (docs/analysis.md) as the pages show it.

The callers decide who may see it first (``policy.can_see_analysis``, the cards' rule): these
functions only read. An analysis stored under rules the event no longer has is not shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments.labels import (
    SYMBOLS,
    TRUMP_LETTER,
    TRUMPS,
    call_name,
    side_label,
    sides_text,
    trump_name,
)
from tournaments.models import Board, BoardAnalysis, Event, PlayRecord, PlayRecordAnalysis


def _current(stored: Any, event: Event) -> bool:
    return (stored.ruleset, stored.sant_vicenc_in_botifarra) == (
        event.ruleset,
        event.sant_vicenc_in_botifarra,
    )


@dataclass(frozen=True)
class TrumpLine:
    trump: str
    label: str
    suit_class: str
    symbol: str  # the suit's symbol; BT for botifarra
    ns: int
    ew: int
    par: bool  # the trump the par names (or one of those that score the same)


@dataclass(frozen=True)
class BoardAnalysisView:
    """What each trump makes with perfect play, and the par, in words."""

    lines: list[TrumpLine]
    par: dict[str, Any]
    par_text: str

    @property
    def par_net_ns(self) -> int:
        """NS's par score minus EW's (as the traveller's net scores)."""
        return int(self.par["score"]["NS"]) - int(self.par["score"]["EW"])


def par_text(par: dict[str, Any]) -> str:
    """``Par: EW choose bastos, NS call contro; totals NS 40 · EW 32; score NS 8 · EW 0.``"""
    chooser = str(par["choosing_pair"])
    other = "EW" if chooser == "NS" else "NS"
    values = {
        "pair": side_label(chooser),
        "other": side_label(other),
        "trump": trump_name(str(par["trump"])),
        "totals": sides_text(par["totals"]["NS"], par["totals"]["EW"]),
        "score": sides_text(par["score"]["NS"], par["score"]["EW"]),
    }
    if par["calls"]:
        # Under perfect play only the opponents of the choosing pair ever call (contro).
        values["call"] = call_name(str(par["calls"][-1]))
        text = (
            _(
                "Par: %(pair)s choose %(trump)s, %(other)s call %(call)s; hand totals "
                "%(totals)s; score %(score)s."
            )
            % values
        )
    else:
        text = (
            _("Par: %(pair)s choose %(trump)s; hand totals %(totals)s; score %(score)s.") % values
        )
    if par.get("capot"):
        text += " " + _("Capot.")
    return text


def board_analysis_view(stored: BoardAnalysis) -> BoardAnalysisView:
    best = set(stored.par.get("best_trumps") or [stored.par["trump"]])
    lines = [
        TrumpLine(
            trump=t,
            label=trump_name(t),
            suit_class=f"suit-{TRUMP_LETTER[t]}" if t in TRUMP_LETTER else "suit-botifarra",
            symbol=SYMBOLS[TRUMP_LETTER[t]] if t in TRUMP_LETTER else "BT",
            ns=int(stored.points[t]),
            ew=72 - int(stored.points[t]),
            par=t in best,
        )
        for t in TRUMPS
    ]
    return BoardAnalysisView(lines=lines, par=stored.par, par_text=par_text(stored.par))


def board_analysis(board: Board) -> BoardAnalysisView | None:
    """The board's analysis, or None while it is not computed."""
    stored = BoardAnalysis.objects.filter(board=board).first()
    if stored is None or not _current(stored, board.event):
        return None
    return board_analysis_view(stored)


def traveller_against_par(trav: Any, *, may_see: bool) -> BoardAnalysisView | None:
    """The analysis of a traveller's board (``public_selectors.TravellerView``) where the reader may
    see it, else None; each of its lines then gets its ``vs_par``."""
    return against_par(trav, board_analysis(trav.board) if may_see else None)


def against_par(trav: Any, analysis: BoardAnalysisView | None) -> BoardAnalysisView | None:
    """``analysis`` (of the traveller's board, or None), each line of ``trav`` given its
    ``vs_par`` when there is one."""
    if analysis is not None:
        for line in trav.lines:
            line.vs_par = line.against_par(analysis.par_net_ns)
    return analysis


def board_analysis_json(board: Board) -> dict[str, Any] | None:
    """The board's analysis as the API sends it (as ``botifarra solve`` prints it, without the
    board's own fields), or None while it is not computed."""
    stored = BoardAnalysis.objects.filter(board=board).first()
    if stored is None or not _current(stored, board.event):
        return None
    return {
        "points": {t: {"NS": stored.points[t], "EW": 72 - stored.points[t]} for t in TRUMPS},
        "par": stored.par,
    }


def attach_analyses(event: Event, boards: list[Board]) -> list[Board]:
    """Give each board of the event its analysis as ``board.perfect_play`` (None while not
    computed), in one query, for lists that show the boards' hands (hand records)."""
    stored = {a.board_id: a for a in BoardAnalysis.objects.filter(board__in=boards)}
    for board in boards:
        found = stored.get(board.pk)
        view = board_analysis_view(found) if found and _current(found, event) else None
        board.perfect_play = view  # type: ignore[attr-defined]
    return boards


# --- card costs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CostLine:
    index: int
    trick: int
    seat: str
    side: str
    card: str
    cost: int
    value_before: int
    value_after: int
    best: list[str]


@dataclass(frozen=True)
class RecordCostsView:
    """Every judged card of a play record (``by_index``, by card index), the ones that cost
    points, what each pair's cards cost in all, and North–South's perfect-play value before the
    first card and, for a record with an illegal card, at the position where it was played."""

    by_index: dict[int, CostLine]
    costly: list[CostLine]
    total: dict[str, int]
    start_ns: int | None
    illegal_position_ns: int | None

    @property
    def start_ew(self) -> int | None:
        return None if self.start_ns is None else 72 - self.start_ns

    @property
    def illegal_position_ew(self) -> int | None:
        return None if self.illegal_position_ns is None else 72 - self.illegal_position_ns


def _ns(side: str, value: int) -> int:
    return value if side == "NS" else 72 - value


def _start_value(stored: PlayRecord, board: Board) -> int | None:
    """NS's value before the first card, from the board's analysis (a record whose first card
    is illegal has no judged card to read it from)."""
    analysis = board_analysis(board)
    record = stored.record if isinstance(stored.record, dict) else {}
    choice = record.get("choice") if isinstance(record.get("choice"), dict) else {}
    trump = choice.get("trump") if isinstance(choice, dict) else None
    if analysis is None or trump not in TRUMPS:
        return None
    return next(line.ns for line in analysis.lines if line.trump == trump)


def record_costs(stored: PlayRecord, board: Board) -> RecordCostsView | None:
    """The card costs of a stored play record of ``board``, or None while not computed."""
    found = PlayRecordAnalysis.objects.filter(play_record=stored).first()
    if found is None or not _current(found, board.event):
        return None
    lines = [
        CostLine(
            index=int(c["index"]),
            trick=int(c["trick"]),
            seat=str(c["seat"]),
            side=str(c["side"]),
            card=str(c["card"]),
            cost=int(c["cost"]),
            value_before=int(c["value_before"]),
            value_after=int(c["value_after"]),
            best=list(c["best"]),
        )
        for c in found.costs
    ]
    total = {"NS": 0, "EW": 0}
    for line in lines:
        total[line.side] += line.cost
    start_ns = _ns(lines[0].side, lines[0].value_before) if lines else _start_value(stored, board)
    illegal = None
    if stored.outcome == "illegal":
        illegal = _ns(lines[-1].side, lines[-1].value_after) if lines else start_ns
    return RecordCostsView(
        by_index={line.index: line for line in lines},
        costly=[line for line in lines if line.cost > 0],
        total=total,
        start_ns=start_ns,
        illegal_position_ns=illegal,
    )
