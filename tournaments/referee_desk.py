"""Reads for the referee's desk: the queue, a dispute with every version of its result side by
side, the rulings, the audit trail, and the replay of a record trick by trick (its words from
``labels``, its rules from the engine through ``play``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine
from tournaments import play
from tournaments.labels import (
    SEAT_ORDER,
    SYMBOLS,
    calls_text,
    card_text,
    field_problems,
    rule_sentence,
    seat_name,
    seat_names,
    side_label,
    sides_text,
    suit_names,
    trump_name,
)
from tournaments.models import (
    AuditEntry,
    Board,
    BoardResult,
    Dispute,
    Event,
    PlayRecord,
    Ruling,
    Submission,
)
from tournaments.policy import runs_q
from tournaments.services.results import InvalidSubmission, short_values

ACTIONS = {
    "result_entered": gettext_lazy("Result entered"),
    "result_confirmed": gettext_lazy("Result confirmed"),
    "result_disputed": gettext_lazy("Result disputed"),
    "result_ruled": gettext_lazy("Result ruled"),
    "dispute_opened": gettext_lazy("Dispute opened"),
    "dispute_withdrawn": gettext_lazy("Dispute withdrawn"),
    "ruling": gettext_lazy("Referee's ruling"),
    "ruling_revised": gettext_lazy("Ruling revised"),
    "result_corrected": gettext_lazy("Result corrected after the event"),
    "correction_requested": gettext_lazy("Correction asked for after the event"),
}

FORM_TITLES = {
    "accept": gettext_lazy("Accept one submission"),
    "penalty": gettext_lazy("Apply the illegal-play penalty (R10)"),
    "corrected_short": gettext_lazy("Enter a corrected short result"),
    "corrected_record": gettext_lazy("Replay or rule with a corrected play record"),
    "adjusted": gettext_lazy("Award adjusted scores"),
}
FORM_HELP = {
    "accept": gettext_lazy("One of the versions the tables sent is right: it becomes the result."),
    "penalty": gettext_lazy(
        "A card was played against the rules: the hand stops there and the "
        "offenders' opponents score 36 × the multiplier."
    ),
    "corrected_short": gettext_lazy(
        "The players agree on what happened but entered it wrongly: "
        "enter the right trump, calls and hand totals."
    ),
    "corrected_record": gettext_lazy(
        "Edit the play record and replay it to check (nothing is stored), then rule with it."
    ),
    "adjusted": gettext_lazy(
        "The board cannot be scored from the play (fouled board, no time, "
        "missing facts): give each pair an average plus, average or average "
        "minus, and the match score to count."
    ),
}


def disputes_for_event(event: Event) -> tuple[list[Dispute], list[Dispute]]:
    """Open disputes, oldest first, and the 20 most recently closed ones."""
    base = Dispute.objects.filter(result__table__round__event=event).select_related(
        "result__table__round", "result__board", "referee"
    )
    open_ = list(base.filter(status=Dispute.Status.OPEN).order_by("created_at", "pk"))
    closed = list(
        base.exclude(status=Dispute.Status.OPEN)
        .prefetch_related(Prefetch("rulings", queryset=Ruling.objects.order_by("pk")))
        .order_by("-closed_at", "-pk")[:20]
    )
    for d in closed:
        rulings = list(d.rulings.all())
        d.last_ruling = rulings[-1] if rulings else None  # type: ignore[attr-defined]
    return open_, closed


def dispute_for_page(pk: int, user: Any) -> Dispute:
    """Dispute ``pk`` of an event ``user`` referees or organises; 404 for any other, as for an
    id that does not exist: ids are sequential, and a 403 would tell that a table somewhere
    had a board disputed, and when (the API answers the same)."""
    disputes = Dispute.objects.select_related(
        "result__table__round__event",
        "result__table__ns__pair",
        "result__table__ew__pair",
        "result__board",
        "referee",
    )
    if not user.is_superuser:
        runs = Event.objects.filter(runs_q(user)).values("pk")
        disputes = disputes.filter(result__table__round__event__in=runs)
    return get_object_or_404(disputes, pk=pk)


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def value_text(key: str, value: Any) -> str:
    """An audit or result value as a person reads it."""
    if value is None or value == "":
        return "—"
    if key == "doubles":
        return calls_text(value)
    if key == "trump":
        return trump_name(str(value))
    if key == "status":
        return str(dict(BoardResult.Status.choices).get(value, value))
    if key == "source":
        return str(dict(BoardResult.Source.choices).get(value, value))
    if key == "reason":
        return str(dict(Dispute.Reason.choices).get(value, value))
    if key in ("adjusted_ns", "adjusted_ew"):
        return str(dict(BoardResult.Adjusted.choices).get(value, value))
    if key in ("offending_pair", "entered_side", "side"):
        return side_label(str(value))
    if isinstance(value, bool):
        return _yes_no(value)
    return str(value)


def field_label(key: str) -> str:
    if key == "reason":
        return str(Dispute._meta.get_field("reason").verbose_name)
    try:
        return str(BoardResult._meta.get_field(key).verbose_name)
    except Exception:  # noqa: BLE001 - an unknown key is shown as it is
        return key


@dataclass
class AuditRow:
    entry: AuditEntry
    action: str
    changes: list[tuple[str, str, str]]


def audit_for_result(result: BoardResult) -> list[AuditRow]:
    rows = []
    for entry in result.audit.order_by("created_at", "pk"):
        changes = entry.changes if isinstance(entry.changes, dict) else {}
        rows.append(
            AuditRow(
                entry=entry,
                action=str(ACTIONS.get(entry.action, entry.action)),
                changes=[
                    (label, old, new)
                    for label, old, new in (
                        (
                            field_label(k),
                            value_text(k, v[0] if isinstance(v, list) and v else None),
                            value_text(k, v[1] if isinstance(v, list) and len(v) > 1 else v),
                        )
                        for k, v in changes.items()
                    )
                    if old != new  # e.g. None → "" for an empty adjusted score: nothing to read
                ],
            )
        )
    return rows


@dataclass
class SubmissionView:
    """One submission as a column of the side-by-side comparison."""

    submission: Submission | None
    title: str
    who: str
    when: Any
    side: str
    source: str
    trump: str = "—"
    delegated: str = "—"
    calls: str = "—"
    totals: str = "—"
    offending: str = "—"
    score: str = "—"
    verdict: str = ""
    record: PlayRecord | None = None
    differs: set[str] = field(default_factory=set)


def _score_text(ns: Any, ew: Any) -> str:
    return sides_text(ns, ew)


def _stored_view(result: BoardResult) -> SubmissionView:
    view = SubmissionView(
        submission=None,
        title=_("Stored now"),
        who=result.confirmed_by or result.entered_by,
        when=result.updated_at,
        side=result.entered_side,
        source=result.get_source_display(),
        trump=trump_name(result.trump),
        delegated=_yes_no(result.delegated),
        calls=calls_text(result.doubles),
        offending=side_label(result.offending_pair) or "—",
        score=_score_text(result.score_ns, result.score_ew),
    )
    if result.totals_ns is not None:
        view.totals = _score_text(result.totals_ns, result.totals_ew)
    if result.adjusted_ns or result.adjusted_ew:
        view.verdict = _("Adjusted: NS %(ns)s, EW %(ew)s") % {
            "ns": value_text("adjusted_ns", result.adjusted_ns),
            "ew": value_text("adjusted_ew", result.adjusted_ew),
        }
    return view


def verdict_text(verdict: dict[str, Any]) -> str:
    outcome = verdict.get("outcome")
    if outcome == "complete":
        return _("Complete: every card legal; %(tricks)s tricks NS, %(ew)s EW.") % {
            "tricks": verdict.get("tricks", {}).get("NS"),
            "ew": verdict.get("tricks", {}).get("EW"),
        }
    if outcome == "illegal":
        seat = str(verdict.get("seat"))
        return _("Illegal card %(card)s by %(seat)s at trick %(trick)s: %(why)s") % {
            "card": card_text(verdict.get("card")),
            "seat": seat_name(seat),
            "trick": verdict.get("trick"),
            "why": rule_sentence(verdict.get("rule"), seat),
        }
    problems = verdict.get("problems") or []
    return _("Invalid: %(n)s problem(s).") % {"n": len(problems)}


def _submission_view(sub: Submission, number: int, event: Event, board: Board) -> SubmissionView:
    record = getattr(sub, "play_record", None) if hasattr(sub, "play_record") else None
    view = SubmissionView(
        submission=sub,
        title=_("Submission %(n)s") % {"n": number},
        who=sub.submitted_by,
        when=sub.created_at,
        side=sub.side or "—",
        source=sub.get_source_display(),
        record=record,
    )
    data = sub.data if isinstance(sub.data, dict) else {}
    if record is not None:
        rec = record.record if isinstance(record.record, dict) else {}
        choice = rec.get("choice") if isinstance(rec.get("choice"), dict) else {}
        verdict = record.verdict if isinstance(record.verdict, dict) else {}
        view.trump = trump_name(str(choice.get("trump", "—")))
        view.delegated = _yes_no(bool(choice.get("delegated")))
        view.calls = calls_text(rec.get("doubles"))
        if verdict.get("totals"):
            view.totals = _score_text(verdict["totals"].get("NS"), verdict["totals"].get("EW"))
        if verdict.get("outcome") == "illegal":
            view.offending = side_label(play.pair_of(verdict["seat"]))
        if verdict.get("score"):
            view.score = _score_text(verdict["score"].get("NS"), verdict["score"].get("EW"))
        view.verdict = verdict_text(verdict)
        return view
    view.trump = trump_name(str(data.get("trump", "—")))
    view.delegated = _yes_no(bool(data.get("delegated")))
    view.calls = calls_text(data.get("doubles"))
    totals = data.get("totals")
    if isinstance(totals, dict):
        view.totals = _score_text(totals.get("NS"), totals.get("EW"))
    view.offending = side_label(str(data.get("offending_pair") or "")) or "—"
    try:
        values = short_values(board=board, data=data)
    except InvalidSubmission:
        view.score = _("not valid")
    else:
        view.score = _score_text(values["score_ns"], values["score_ew"])
    return view


def submissions_for_result(result: BoardResult, event: Event) -> list[SubmissionView]:
    """The stored result first, then every submission; cells that differ are marked."""
    subs = list(result.submissions.select_related("play_record").order_by("created_at", "pk"))
    views = [_stored_view(result)] + [
        _submission_view(s, i, event, result.board) for i, s in enumerate(subs, start=1)
    ]
    for key in ("trump", "delegated", "calls", "totals", "offending", "score"):
        values = {getattr(v, key) for v in views[1:]}
        if len(values) > 1:
            for v in views:
                v.differs.add(key)
    return views


@dataclass
class RulingView:
    ruling: Ruling
    superseded: bool
    summary: str


def ruling_summary(ruling: Ruling) -> str:
    data = ruling.data if isinstance(ruling.data, dict) else {}
    if ruling.kind == Ruling.Kind.PENALTY:
        return _("Illegal-play penalty against %(pair)s") % {
            "pair": side_label(str(data.get("offending_pair", "?")))
        }
    if ruling.kind == Ruling.Kind.ACCEPT:
        return _("Accepted a submission")
    if ruling.kind == Ruling.Kind.ADJUSTED:
        score = data.get("score") or {}
        return _("Adjusted: NS %(ns)s, EW %(ew)s; match score NS %(sns)s, EW %(sew)s") % {
            "ns": value_text("adjusted_ns", data.get("adjusted_ns")),
            "ew": value_text("adjusted_ew", data.get("adjusted_ew")),
            "sns": score.get("NS", 0),
            "sew": score.get("EW", 0),
        }
    if "play_record" in data:
        return _("Corrected result from a play record")
    totals = data.get("totals") or {}
    return _("Corrected result: %(trump)s, NS %(ns)s, EW %(ew)s") % {
        "trump": trump_name(str(data.get("trump"))),
        "ns": totals.get("NS"),
        "ew": totals.get("EW"),
    }


def rulings_for_result(result: BoardResult) -> list[RulingView]:
    rulings = list(
        Ruling.objects.filter(dispute__result=result)
        .select_related("referee")
        .order_by("created_at", "pk")
    )
    superseded = {r.supersedes_id for r in rulings if r.supersedes_id}
    return [RulingView(r, r.pk in superseded, ruling_summary(r)) for r in rulings]


# --- the replay --------------------------------------------------------------------------------


def replay_payload(*, board: Board, event: Event, record: Any) -> dict[str, Any]:
    """Everything ``static/js/replay.js`` needs, as JSON values (rule sentences in words)."""
    replayed = play.replay(board, record)
    verdict = replayed.to_json()
    payload: dict[str, Any] = {
        "verdict": verdict,
        "steps": [],
        "illegal": None,
        "problems": [p.to_json() for p in field_problems(replayed.problems)],
    }
    if replayed.outcome == engine.Outcome.INVALID:
        return payload
    try:
        steps = play.steps(board, record)
    except engine.InvalidRecord as exc:
        payload["problems"] = [p.to_json() for p in field_problems(exc.problems)]
        return payload
    choice = record.get("choice", {})
    payload |= {
        "hands": board.hands,
        "dealer": board.dealer,
        "trump": choice.get("trump"),
        "trump_label": trump_name(str(choice.get("trump"))),
        "steps": [s.to_json() for s in steps],
    }
    if verdict["outcome"] == "illegal":
        seat = verdict["seat"]
        payload["illegal"] = {
            "index": len(steps) - 1,
            "seat": seat,
            "card": verdict["card"],
            "rule": verdict["rule"],
            "sentence": rule_sentence(verdict["rule"], seat),
            "legal": verdict["legal"],
            "multiplier": verdict["multiplier"],
            "penalty": verdict["score"],
            "offender": play.pair_of(seat),
        }
    return payload


def replay_costs(costs: Any) -> dict[str, dict[str, Any]]:
    """The cards that cost points, for the replay's script: ``{card index: {"cost", "best"}}``
    (``costs`` from ``analysis_selectors.record_costs``; only for a reader who may see it)."""
    return {str(c.index): {"cost": c.cost, "best": c.best} for c in costs.costly}


def replay_text(*, costs: bool = False) -> dict[str, Any]:
    """The words the script writes, translated here (the script holds none of its own); those
    of the card costs only with ``costs`` (a page that may show the analysis)."""
    words: dict[str, Any] = {
        "seats": seat_names(),
        "suits": {
            letter: {"symbol": SYMBOLS[letter], "name": name}
            for letter, name in suit_names().items()
        },
        "start": _("Before the first card. Press → or “Next card”."),
        "step": _("Trick %(trick)s, card %(position)s: %(seat)s plays %(card)s."),
        "won": _("%(seat)s wins trick %(trick)s."),
        "counter": _("Card %(i)s of %(n)s"),
        "totals": _("Hand totals: NS %(ns)s · EW %(ew)s"),
        "illegal": _("Illegal card: %(seat)s played %(card)s at trick %(trick)s."),
        "legal": _("Legal cards were:"),
        "penalty": _("Penalty (R10, ×%(m)s): NS %(ns)s · EW %(ew)s"),
        "stopped": _("The replay stops here: cards after an illegal play are not replayed."),
        "end": _("End of the hand."),
        "tricks_none": _("No trick completed yet."),
        "trick_n": _("Trick %(trick)s"),
        "void": "—",
    }
    if costs:
        words["cost"] = _(
            "This card cost %(cost)s points with perfect play; the best cards were %(best)s."
        )
        words["cost_title"] = _("points this card cost with perfect play")
    return words


@dataclass
class TrickRow:
    number: int
    leader: str
    cells: list[tuple[str, bool]]  # (card token or "", illegal?) for N, E, S, W
    winner: str
    costs: list[int | None] = field(default_factory=lambda: [None] * 4)  # perfect-play cost

    @property
    def marked(self) -> list[tuple[str, bool, int | None]]:
        """Each seat's card, whether it was illegal, and what it cost (None: not judged)."""
        return [
            (token, bad, cost) for (token, bad), cost in zip(self.cells, self.costs, strict=True)
        ]


def trick_rows(payload: dict[str, Any], costs: Mapping[int, Any] | None = None) -> list[TrickRow]:
    """The same replay as a static table (no script needed, and it prints); ``costs``: the
    card costs by card index (``analysis_selectors.record_costs``), when the reader may see
    them."""
    rows: dict[int, TrickRow] = {}
    illegal_index = payload["illegal"]["index"] if payload.get("illegal") else None
    for step in payload.get("steps", []):
        row = rows.get(step["trick"])
        if row is None:
            row = rows[step["trick"]] = TrickRow(step["trick"], step["seat"], [("", False)] * 4, "")
        cells = list(row.cells)
        seat = SEAT_ORDER.index(step["seat"])
        cells[seat] = (step["card"], step["index"] == illegal_index)
        row.cells = cells
        judged = (costs or {}).get(step["index"])
        if judged is not None:
            row.costs = [*row.costs[:seat], judged.cost, *row.costs[seat + 1 :]]
        if step["winner"]:
            row.winner = step["winner"]
    return list(rows.values())


def chosen_record(result: BoardResult, wanted: str | None) -> PlayRecord | None:
    records = list(result.play_records.order_by("pk"))
    if not records:
        return None
    if wanted:
        for rec in records:
            if str(rec.pk) == wanted:
                return rec
    illegal = [r for r in records if r.outcome == "illegal"]
    return (illegal or records)[-1]
