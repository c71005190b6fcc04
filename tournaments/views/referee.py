"""The referee's desk: the queue of an event's disputes and one dispute with its evidence,
trick-by-trick replay, ruling forms and the result's audit trail.

Thin views: reads are the ``*_for_*`` helpers below, every write is ``disputes.dispute_rule``.
"""

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import engine
from tournaments import policy
from tournaments.actors import Actor
from tournaments.forms_referee import FORMS, CorrectedRecordForm, RulingForm
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
from tournaments.services import NotAllowed, ServiceError, disputes
from tournaments.services.results import (
    InvalidSubmission,
    play_record_check,
    short_values,
)
from tournaments.templatetags.cards import SYMBOLS, seat_names, suit_names, trump_name

SEAT_ORDER = ("N", "E", "S", "W")

# The obligation an illegal card broke, in words (play-record.md: the verdict's ``rule``).
RULE_TEXT = {
    "follow_suit": gettext_lazy("had to follow suit"),
    "must_beat": gettext_lazy("had to beat the winning card with a card of the suit led"),
    "must_trump": gettext_lazy("was void in the suit led and had to trump, an opponent winning"),
    "must_overtrump": gettext_lazy(
        "was void in the suit led and had to overtrump the opponent's trump"
    ),
    "lowest_card": gettext_lazy("had to play the lowest card of that suit (obligada)"),
}
RULE_SECTION = {
    "follow_suit": "R7.2",
    "must_beat": "R7.2",
    "must_trump": "R7.3",
    "must_overtrump": "R7.3",
    "lowest_card": "R8",
}

ACTIONS = {
    "result_entered": gettext_lazy("Result entered"),
    "result_confirmed": gettext_lazy("Result confirmed"),
    "result_disputed": gettext_lazy("Result disputed"),
    "result_ruled": gettext_lazy("Result ruled"),
    "dispute_opened": gettext_lazy("Dispute opened"),
    "dispute_withdrawn": gettext_lazy("Dispute withdrawn"),
    "ruling": gettext_lazy("Referee's ruling"),
    "ruling_revised": gettext_lazy("Ruling revised"),
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

CALL_NAMES = {
    "contro": gettext_lazy("contro"),
    "recontro": gettext_lazy("recontro"),
    "sant_vicenc": gettext_lazy("Sant Vicenç"),
}


def card_text(token: Any) -> str:
    """``11o`` → ``11♦`` for plain-text sentences (the pages use the {% card %} tag)."""
    text = str(token)
    return f"{text[:-1]}{SYMBOLS[text[-1]]}" if text[-1:] in SYMBOLS else text


def rule_sentence(rule: str | None, seat: str) -> str:
    """``West had to follow suit (R7.2).``: the broken rule in words, for the players too."""
    if not rule:
        return ""
    text = RULE_TEXT.get(rule)
    if text is None:
        return _("%(seat)s broke the rule %(rule)s.") % {
            "seat": seat_names().get(seat, seat),
            "rule": rule,
        }
    return _("%(seat)s %(rule)s (%(section)s).") % {
        "seat": seat_names().get(seat, seat),
        "rule": text,
        "section": RULE_SECTION[rule],
    }


# --- reads -------------------------------------------------------------------------------------


def _referee_event(request: HttpRequest, event: Event) -> None:
    if not event.is_referee(request.user):
        raise PermissionDenied(_("Only the referees and organisers of this event can see this."))


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


def dispute_for_page(pk: int) -> Dispute:
    return get_object_or_404(
        Dispute.objects.select_related(
            "result__table__round__event",
            "result__table__ns__pair",
            "result__table__ew__pair",
            "result__board",
            "referee",
        ),
        pk=pk,
    )


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def calls_text(doubles: Any) -> str:
    if not doubles:
        return _("none")
    if not isinstance(doubles, list):
        return str(doubles)
    parts = []
    for call in doubles:
        if isinstance(call, dict):
            name = CALL_NAMES.get(str(call.get("call")), str(call.get("call")))
            parts.append(f"{name} ({call.get('seat', '?')})")
        else:
            parts.append(str(call))
    return ", ".join(parts)


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
    return f"NS {ns} · EW {ew}"


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
        offending=result.offending_pair or "—",
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
            "seat": seat_names().get(seat, seat),
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
            view.offending = engine.Seat.from_str(verdict["seat"]).pair
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
    view.offending = data.get("offending_pair") or "—"
    try:
        values = short_values(event=event, board=board, data=data)
    except ServiceError:
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
            "pair": data.get("offending_pair", "?")
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
    verdict = play_record_check(board=board, record=record)
    payload: dict[str, Any] = {
        "verdict": verdict,
        "steps": [],
        "illegal": None,
        "problems": verdict.get("problems", []),
    }
    if verdict["outcome"] == "invalid":
        return payload
    try:
        steps = engine.replay_steps(record, deal=board.deal(), rules=event.rules)
    except engine.InvalidRecord as exc:
        payload["problems"] = [p.to_json() for p in exc.problems]
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
            "offender": engine.Seat.from_str(seat).pair,
        }
    return payload


def replay_text() -> dict[str, Any]:
    """The words the script writes, translated here (the script holds none of its own)."""
    return {
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


@dataclass
class TrickRow:
    number: int
    leader: str
    cells: list[tuple[str, bool]]  # (card token or "", illegal?) for N, E, S, W
    winner: str


def trick_rows(payload: dict[str, Any]) -> list[TrickRow]:
    """The same replay as a static table (no script needed, and it prints)."""
    rows: dict[int, TrickRow] = {}
    illegal_index = payload["illegal"]["index"] if payload.get("illegal") else None
    for step in payload.get("steps", []):
        row = rows.get(step["trick"])
        if row is None:
            row = rows[step["trick"]] = TrickRow(step["trick"], step["seat"], [("", False)] * 4, "")
        cells = list(row.cells)
        cells[SEAT_ORDER.index(step["seat"])] = (step["card"], step["index"] == illegal_index)
        row.cells = cells
        if step["winner"]:
            row.winner = step["winner"]
    return list(rows.values())


def _chosen_record(result: BoardResult, wanted: str | None) -> PlayRecord | None:
    records = list(result.play_records.order_by("pk"))
    if not records:
        return None
    if wanted and wanted.isdigit():
        for rec in records:
            if rec.pk == int(wanted):
                return rec
    illegal = [r for r in records if r.outcome == "illegal"]
    return (illegal or records)[-1]


# --- views -------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def queue(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    _referee_event(request, event)
    open_, closed = disputes_for_event(event)
    return render(
        request,
        "referee/queue.html",
        {"event": event, "open_disputes": open_, "closed_disputes": closed},
    )


def _build_forms(
    dispute: Dispute,
    result: BoardResult,
    views: list[SubmissionView],
    record: PlayRecord | None,
    posted: RulingForm | None,
    posted_key: str | None,
) -> dict[str, RulingForm]:
    labels = {
        v.submission.pk: f"{v.title} · {v.who} · {v.source} · {v.totals} · {v.score}"
        for v in views
        if v.submission is not None
    }
    offender = result.offending_pair
    if record is not None and record.outcome == "illegal":
        offender = engine.Seat.from_str(record.verdict["seat"]).pair
    doubles = {d.get("call"): d.get("seat") for d in (result.doubles or []) if isinstance(d, dict)}
    initial: dict[str, dict[str, Any]] = {
        "accept": {},
        "penalty": {"offending_pair": offender or None},
        "corrected_short": {
            "trump": result.trump,
            "delegated": result.delegated,
            "totals_ns": result.totals_ns,
            "totals_ew": result.totals_ew,
            **doubles,
        },
        "corrected_record": {"play_record": record.record if record is not None else ""},
        "adjusted": {},
    }
    forms: dict[str, RulingForm] = {}
    for key, cls in FORMS.items():
        if posted is not None and key == posted_key:
            forms[key] = posted
            continue
        kwargs: dict[str, Any] = {"prefix": key, "initial": initial[key]}
        if key == "accept":
            kwargs |= {"result": result, "labels": labels}
        forms[key] = cls(**kwargs)
    return forms


def _add_service_error(form: RulingForm, exc: ServiceError) -> None:
    problems = getattr(exc, "problems", None)
    aliases = {
        "score": "score_ns",
        "totals": "totals_ns",
        "doubles": "contro",
        "offending_pair": "offending_pair",
    }
    if isinstance(form, CorrectedRecordForm) and exc.field != "explanation":
        messages_ = [f"{p.path}: {p.message}" for p in problems] if problems else [exc.message]
        for text in messages_:
            form.add_error("play_record", text)
        return
    name = exc.field or ""
    name = aliases.get(name.split(".")[0].split("[")[0], name)
    texts = [p.message for p in problems] if problems else [exc.message]
    for text in texts:
        form.add_error(name if name in form.fields else None, text)


@login_required
@require_http_methods(["GET", "POST"])
def dispute(request: HttpRequest, pk: int) -> HttpResponse:
    dispute_ = dispute_for_page(pk)
    result = dispute_.result
    table = result.table
    event = table.round.event
    board = result.board
    _referee_event(request, event)
    actor = Actor(user=request.user)
    views = submissions_for_result(result, event)
    record = _chosen_record(result, request.GET.get("record"))

    posted: RulingForm | None = None
    posted_key: str | None = None
    preview: dict[str, Any] | None = None
    if request.method == "POST" and request.POST.get("form") == "withdraw":
        try:
            disputes.dispute_withdraw(dispute=dispute_, actor=actor)
        except NotAllowed as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The request was withdrawn; the result is as before."))
        return redirect("referee:dispute", pk=dispute_.pk)
    if request.method == "POST":
        posted_key = request.POST.get("form", "")
        cls = FORMS.get(posted_key)
        if cls is None:
            messages.error(request, _("Choose one of the rulings."))
            return redirect("referee:dispute", pk=dispute_.pk)
        is_preview = posted_key == "corrected_record" and request.POST.get("action") == "preview"
        kwargs: dict[str, Any] = {"data": request.POST, "prefix": posted_key}
        if posted_key == "accept":
            kwargs |= {"result": result, "labels": {}}
        if is_preview:
            kwargs["preview"] = True
        posted = cls(**kwargs)
        if posted.is_valid():
            if is_preview:
                preview = replay_payload(
                    board=board, event=event, record=posted.cleaned_data["play_record"]
                )
            else:
                try:
                    disputes.dispute_rule(
                        dispute=dispute_,
                        actor=actor,
                        kind=posted.kind,
                        explanation=posted.cleaned_data["explanation"],
                        data=posted.ruling_data(),
                    )
                except NotAllowed as exc:
                    raise PermissionDenied(exc.message) from None
                except InvalidSubmission as exc:
                    _add_service_error(posted, exc)
                except ServiceError as exc:
                    _add_service_error(posted, exc)
                else:
                    messages.success(
                        request,
                        _(
                            "Ruling recorded. The standings will be "
                            "recomputed; the players see your explanation."
                        ),
                    )
                    url = reverse("referee:dispute", kwargs={"pk": dispute_.pk})
                    return redirect(url + "#rulings-h")

    if preview is not None:
        payload = preview
    elif record is not None:
        payload = replay_payload(board=board, event=event, record=record.record)
    else:
        payload = None
    forms = _build_forms(dispute_, result, views, record, posted, posted_key)
    other_open = result.disputes.filter(status=Dispute.Status.OPEN).exclude(pk=dispute_.pk)
    can_rule = disputes.may_rule(dispute=dispute_, actor=actor)
    default_form = {
        "illegal_play": "penalty",
        "conflict": "accept",
        "record_mismatch": "accept",
    }.get(dispute_.reason, "")
    if preview is not None:
        default_form = "corrected_record"
    context = {
        "event": event,
        "dispute": dispute_,
        "result": result,
        "table": table,
        "board": board,
        "stored": views[0],
        "submissions": views[1:],
        "columns": views,
        "show_cards": policy.can_see_cards(actor, board),
        "record": record,
        "records": list(result.play_records.order_by("pk")),
        "payload": payload,
        "replay_text": replay_text(),
        "is_preview": preview is not None,
        "tricks": trick_rows(payload) if payload else [],
        "forms": [(key, FORM_TITLES[key], FORM_HELP[key], form) for key, form in forms.items()],
        "open_form": posted_key if posted is not None else default_form,
        "rulings": rulings_for_result(result),
        "audit": audit_for_result(result),
        "other_disputes": list(result.disputes.exclude(pk=dispute_.pk).order_by("pk")),
        "can_rule": can_rule,
        "can_withdraw": dispute_.status == Dispute.Status.OPEN
        and dispute_.reason == Dispute.Reason.PLAYER_REQUEST,
        "other_open": list(other_open),
        "seat_order": SEAT_ORDER,
    }
    # A ruling form sent back with errors (a refused paste included) is a 400, as on the table.
    status = 400 if posted is not None and posted.errors else 200
    return render(request, "referee/dispute.html", context, status=status)
