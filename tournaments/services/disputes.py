"""Disputes and the referee's rulings. Rulings are append-only: a revision supersedes."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from tournaments import play, queue, webhooks
from tournaments.actors import Actor
from tournaments.models import (
    BoardResult,
    Club,
    Dispute,
    Event,
    PlayRecord,
    Round,
    Ruling,
    Submission,
)
from tournaments.services import Conflict, NotAllowed, ServiceError, audit, stated_reason
from tournaments.services.results import (
    InvalidSubmission,
    _emit_result,
    _snapshot,
    open_dispute,
    refuse_renewed_codes,
    save_audited,
    short_values,
)

ADJUSTED = {choice.value for choice in BoardResult.Adjusted}
MAX_HAND_SCORE = 36 * 16  # capot of a botifarra with Sant Vicenç (R5, R9)


def rulings_open(result: BoardResult) -> bool:
    """Referees rule while the round is open, or after the organiser reopened it for rulings,
    and never once the event is finished (then only the organiser's correction)."""
    # Read afresh: the round may have been closed or reopened since the result was loaded.
    return round_rulings_open(Round.objects.select_related("event").get(pk=result.table.round_id))


def round_rulings_open(rnd: Round) -> bool:
    """``rulings_open`` for the boards of ``rnd`` as read."""
    if rnd.event.status == Event.Status.FINISHED:
        return False
    return rnd.status == Round.Status.OPEN or (
        rnd.status == Round.Status.CLOSED and rnd.ruling_open
    )


def _locked_round(result: BoardResult) -> Round:
    """The result's round, locked until the transaction ends, and its event, read afresh. The
    round's close, its reopening or closing for rulings and the event's finish (which updates
    the rounds open for rulings) take this lock too: whichever comes second sees what the
    first did, so a ruling or a request never lands after the step that ends it."""
    return (
        Round.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=result.table.round_id)
    )


def _is_correction(dispute: Dispute, actor: Actor, *, finished: bool) -> bool:
    """A ruling that is the organiser's correction: on a correction, or, once the event is
    finished, on any dispute still open (nobody else rules any more)."""
    return dispute.reason == Dispute.Reason.CORRECTION or (
        finished and actor.is_organiser(dispute.result.table.round.event)
    )


def may_rule(*, dispute: Dispute, actor: Actor) -> bool:
    """Whether ``actor`` may rule on (or revise the ruling of) this dispute now."""
    result = dispute.result
    event = result.table.round.event
    if dispute.status == Dispute.Status.WITHDRAWN:
        return False
    if result.disputes.filter(status=Dispute.Status.OPEN).exclude(pk=dispute.pk).exists():
        return False
    finished = Event.objects.filter(pk=event.pk, status=Event.Status.FINISHED).exists()
    if _is_correction(dispute, actor, finished=finished):
        return actor.is_organiser(event) and finished
    return actor.is_referee(event) and rulings_open(result)


def current_ruling(result: BoardResult) -> Ruling | None:
    """The ruling the result follows now: the latest of any of its disputes not superseded."""
    return (
        Ruling.objects.filter(dispute__result=result, superseded_by__isnull=True)
        .order_by("-pk")
        .first()
    )


def dispute_request(*, result: BoardResult, actor: Actor, reason: str) -> Dispute:
    """A player asks for a referee on their own table's board, until the round closes.

    A referee may also open one on any board while rulings are open (``rulings_open``): a
    review, with a reason both pairs see on their table page.
    """
    table = result.table
    event = table.round.event
    sits = actor.sits_at(table)
    if not (sits or actor.is_referee(event)):
        raise NotAllowed(_("You can only ask for a referee on your own table's boards."))
    kind = Dispute.Reason.PLAYER_REQUEST if sits else Dispute.Reason.REFEREE_REVIEW
    with transaction.atomic():
        rnd = _locked_round(result)
        # A step the round's state does not allow: 409 (docs/api.md), as every such refusal.
        if sits and rnd.status != Round.Status.OPEN:
            raise Conflict(_("The round is closed: ask the organiser."), field="round")
        if not sits and not round_rulings_open(rnd):
            raise Conflict(
                _("Rulings are closed for this round: the organiser can reopen it for rulings."),
                field="round",
            )
        reason = stated_reason(reason, missing=_("Say briefly what went wrong."))
        if sits and actor.table is not None:
            # The table's lock (after the round's, before the result's, as a close and a
            # result take them): codes renewed while the call waited no longer speak for it.
            refuse_renewed_codes(table.pk, actor.table.codes_version)
        locked = BoardResult.objects.select_for_update(of=("self",), no_key=True).get(pk=result.pk)
        if locked.disputes.filter(status=Dispute.Status.OPEN).exists():
            raise Conflict(_("A referee has already been called for this board."))
        previous = locked.status
        before = _snapshot(locked)
        locked.status = BoardResult.Status.DISPUTED
        save_audited(locked, actor=actor, action="result_disputed", before=before)
        side = (actor.side_at(table) or "") if sits else ""
        opened = open_dispute(locked, kind, actor, reason, previous_status=previous, side=side)
        if previous in BoardResult.COUNTED:
            # It stops counting until the ruling (referees.md): the standings without it.
            queue.request_standings(event)
        return opened


def _asked(dispute: Dispute, actor: Actor) -> bool:
    """Whether ``actor`` speaks for the pair that called the referee: the other pair may not
    call it off. (A request whose side is unknown, made before sides were kept or from a
    table session without one, is the table's.)"""
    table = dispute.result.table
    if dispute.reason != Dispute.Reason.PLAYER_REQUEST or not actor.sits_at(table):
        return False
    return not dispute.opened_side or actor.side_at(table) == dispute.opened_side


def dispute_withdraw(*, dispute: Dispute, actor: Actor) -> Dispute:
    result = dispute.result
    event = result.table.round.event
    if not (actor.is_referee(event) or _asked(dispute, actor)):
        raise NotAllowed(_("Only a referee or the players who asked can withdraw this."))
    if dispute.reason != Dispute.Reason.PLAYER_REQUEST:
        raise ServiceError(_("Only a player's request can be withdrawn; the others need a ruling."))
    with transaction.atomic():
        rnd = _locked_round(result)
        # Withdrawing changes the result back: as any change, only while results may change.
        if not round_rulings_open(rnd) or (
            not actor.is_referee(event) and rnd.status != Round.Status.OPEN
        ):
            raise Conflict(
                _(
                    "The round is closed: the request stays with the referee (or, after the "
                    "event, the organiser's correction)."
                ),
                field="round",
            )
        dispute = Dispute.objects.select_for_update(of=("self",), no_key=True).get(pk=dispute.pk)
        if dispute.status != Dispute.Status.OPEN:
            raise Conflict(_("This dispute is already closed."))
        # The result's lock first (a submission holds it until it commits), then the check:
        # a submission still under way when the request is withdrawn is seen, not lost.
        locked = BoardResult.objects.select_for_update(of=("self",), no_key=True).get(pk=result.pk)
        if Submission.objects.filter(result=result, created_at__gt=dispute.created_at).exists():
            # What was sent since (the other pair's entry, a play record) would be lost by
            # putting the result back: the referee decides.
            raise Conflict(
                _(
                    "A result was sent for this board after the referee was called: the referee "
                    "decides, the request cannot be withdrawn."
                )
            )
        dispute.status = Dispute.Status.WITHDRAWN
        dispute.closed_at = timezone.now()
        dispute.save()
        before = _snapshot(locked)
        locked.status = dispute.previous_status or BoardResult.Status.ENTERED
        save_audited(locked, actor=actor, action="dispute_withdrawn", before=before)
        if locked.counts:
            queue.request_standings(event)
    return dispute


def _record_values(board: Any, raw: Any) -> dict[str, Any]:
    """The values of a complete or illegal record (an invalid one is refused)."""
    verdict = play.replay(board, raw)
    if verdict.outcome == engine.Outcome.INVALID:
        raise InvalidSubmission.of(verdict.problems)
    return play.stored_values(verdict, raw)


def adjusted_score_problem(score_ns: int, score_ew: int) -> str | None:
    """Why an adjusted ruling's match score cannot stand, or None. One pair scores on a board
    (R9): a score credited to both would count twice in the game (R12) and cannot be compared."""
    if not (0 <= score_ns <= MAX_HAND_SCORE and 0 <= score_ew <= MAX_HAND_SCORE):
        return _("A board's score is between 0 and %(max)s (36 × 16).") % {"max": MAX_HAND_SCORE}
    if score_ns and score_ew:
        return _("Only one pair scores on a board (R9): give the other pair 0.")
    return None


def ruling_values(result: BoardResult, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The values a ruling of ``kind`` with ``data`` gives ``result`` (its ``source`` when it
    accepts a submission); an adjusted score only sets the adjusted and the match scores, any
    other ruling clears them. The archive import checks its results with it."""
    values = _kind_values(result, kind, data)
    if kind != Ruling.Kind.ADJUSTED:
        values |= {"adjusted_ns": "", "adjusted_ew": ""}
    return values


def _played_contract(result: BoardResult) -> dict[str, Any]:
    """The trump, delegation and calls an illegal-play penalty multiplies: those of the board's
    latest illegal play record when one was sent (the hand played, whose penalty the referee's
    replay shows), else the result's own (docs/referees.md, the rulings)."""
    record = (
        result.play_records.filter(outcome=engine.Outcome.ILLEGAL.value).order_by("-pk").first()
        if result.pk is not None
        else None
    )
    if record is None:
        return {"delegated": result.delegated, "trump": result.trump, "doubles": result.doubles}
    raw = record.record
    return {
        "delegated": bool(raw["choice"]["delegated"]),
        "trump": raw["choice"]["trump"],
        "doubles": [{"seat": d["seat"], "call": d["call"]} for d in raw.get("doubles") or []],
    }


def _kind_values(result: BoardResult, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    board = result.board
    if kind == Ruling.Kind.ACCEPT:
        try:
            submission = result.submissions.get(pk=data.get("submission"))
        except (Submission.DoesNotExist, ValueError, TypeError):
            raise ServiceError(_("Choose one of the submissions."), field="submission") from None
        record = PlayRecord.objects.filter(submission=submission).first()
        if record is not None:
            return _record_values(board, record.record) | {"source": submission.source}
        return short_values(board=board, data=submission.data) | {"source": submission.source}
    if kind == Ruling.Kind.PENALTY:
        offender = data.get("offending_pair") or result.offending_pair
        if offender not in ("NS", "EW"):
            raise ServiceError(_("Say which pair played the illegal card."), field="offending_pair")
        return short_values(
            board=board, data=_played_contract(result) | {"offending_pair": offender}
        )
    if kind == Ruling.Kind.CORRECTED:
        if "play_record" in data:
            return _record_values(board, data["play_record"])
        return short_values(board=board, data=data)
    if kind == Ruling.Kind.ADJUSTED:
        ns, ew = data.get("adjusted_ns", ""), data.get("adjusted_ew", "")
        ns = ns if isinstance(ns, str) else ""
        ew = ew if isinstance(ew, str) else ""
        if ns not in ADJUSTED or ew not in ADJUSTED:
            raise ServiceError(
                _("Choose average plus, average or average minus for each pair."),
                field="adjusted_ns" if ns not in ADJUSTED else "adjusted_ew",
            )
        score = data.get("score")
        if score is None:  # not given: 0–0 (an empty list or text is not a score)
            score = {"NS": 0, "EW": 0}
        if not isinstance(score, Mapping):
            raise ServiceError(_("The match score needs NS and EW numbers."), field="score")
        for side in ("NS", "EW"):
            # A whole number as sent: 1.5 or true must not be stored as 1.
            value = score.get(side)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ServiceError(
                    _("The match score needs NS and EW numbers."), field=f"score.{side}"
                )
        score_ns, score_ew = score["NS"], score["EW"]
        problem = adjusted_score_problem(score_ns, score_ew)
        if problem:
            raise ServiceError(problem, field="score")
        return {"adjusted_ns": ns, "adjusted_ew": ew, "score_ns": score_ns, "score_ew": score_ew}
    raise ServiceError(_("Unknown ruling."), field="kind")


UNSET: Any = object()


def _stale_ruling(current: Ruling | None) -> str:
    """Why a ruling that ``revises`` another state than the board's is refused."""
    if current is None:
        return _("No ruling is in force on this board: reload it to see where it stands.")
    return _("This board was ruled meanwhile (by %(who)s): reload it to see the ruling.") % {
        "who": current.referee.get_username()
    }


def dispute_rule(
    *,
    dispute: Dispute,
    actor: Actor,
    kind: str,
    explanation: str,
    data: Mapping[str, Any],
    revises: int | None = UNSET,
) -> Ruling:
    """Rule on a dispute (or revise an earlier ruling, which stays visible).

    ``revises``: the ruling the referee saw in force (None: none); when given and another is in
    force now (a second tap of the same form, another referee meanwhile), nothing is ruled.
    After the event the organiser rules on any dispute still open, as a correction."""

    result = dispute.result
    event = result.table.round.event
    correction = _is_correction(dispute, actor, finished=event.status == Event.Status.FINISHED)
    if correction:
        if not actor.is_organiser(event):
            raise NotAllowed(_("Only the organisers correct a result after the event."))
        if event.status != Event.Status.FINISHED:
            raise ServiceError(_("Corrections are for finished events; a referee rules now."))
    elif not actor.is_referee(event):
        raise NotAllowed(_("Only the referees and organisers of this event can rule."))
    if not explanation.strip():
        raise ServiceError(_("Write a short explanation for the players."), field="explanation")
    with transaction.atomic():
        rnd = _locked_round(result)
        if not correction and not round_rulings_open(rnd):
            raise Conflict(
                _(
                    "Rulings are closed for round %(n)s. The organiser can reopen it for "
                    "rulings while the event runs; after the event, only a correction changes "
                    "a result."
                )
                % {"n": rnd.number}
            )
        dispute = Dispute.objects.select_for_update(of=("self",), no_key=True).get(pk=dispute.pk)
        if dispute.status == Dispute.Status.WITHDRAWN:
            raise Conflict(_("This dispute was withdrawn."))
        locked = BoardResult.objects.select_for_update(of=("self",), no_key=True).get(pk=result.pk)
        others = locked.disputes.filter(status=Dispute.Status.OPEN).exclude(pk=dispute.pk)
        if others.exists():
            raise Conflict(_("Another dispute on this board is open: rule on that one."))
        current = current_ruling(locked)
        if revises is not UNSET and revises != (current.pk if current else None):
            # The page (or client) saw another state: a second tap, or another referee.
            raise Conflict(_stale_ruling(current), field="revises")
        values = ruling_values(locked, kind, data)
        before = _snapshot(locked)
        # Where the values now come from: the accepted submission, or the referee.
        values.setdefault("source", BoardResult.Source.RULING)
        for key, value in values.items():
            setattr(locked, key, value)
        locked.status = BoardResult.Status.RULED
        # A revision when this dispute was ruled before (even if a later dispute's ruling
        # replaced that one since); whatever ruling the result followed (of this dispute or
        # another) is superseded and stays visible.
        revising = dispute.rulings.exists()
        ruling = Ruling.objects.create(
            dispute=dispute,
            kind=kind,
            # A penalty says whom it penalised, also when the pair was left to the verdict.
            data=dict(data, offending_pair=values["offending_pair"])
            if kind == Ruling.Kind.PENALTY
            else dict(data),
            explanation=explanation.strip(),
            referee=actor.user,
            supersedes=current,
        )
        dispute.status = Dispute.Status.RULED
        dispute.referee = actor.user
        dispute.closed_at = timezone.now()
        dispute.save()
        save_audited(
            locked,
            actor=actor,
            action="result_corrected"
            if correction
            else ("ruling_revised" if revising else "ruling"),
            before=before,
            note=ruling.explanation,
        )
        _emit_result(
            webhooks.DISPUTE_RULED,
            locked,
            dispute=dispute.pk,
            ruling=ruling.pk,
            ruling_kind=ruling.kind,
            revised=revising,
        )
        if correction:
            if event.club_id is not None:
                # The club's lock, which the ratings task holds while it reads and rates: a run
                # under way ends first, and the stamp below comes after its rated_at, so that
                # this correction's own run recomputes (a run that starts later waits for this
                # commit and reads the corrected result).
                list(
                    Club.objects.select_for_update(of=("self",), no_key=True)
                    .filter(pk=event.club_id)
                    .values_list("pk", flat=True)
                )
            Event.objects.filter(pk=event.pk).update(corrected_at=timezone.now())
            queue.update_ratings(event)  # the event was rated: its club's history is recomputed
        queue.request_standings(event)
    return ruling


def correction_open(*, result: BoardResult, actor: Actor, reason: str) -> Dispute:
    """After the event, the organiser opens a correction of a result (who, when and why are
    kept); ruling on it changes the result and the published standings say so."""
    event = result.table.round.event
    if not actor.is_organiser(event):
        raise NotAllowed(_("Only the organisers correct a result after the event."))
    if event.status != Event.Status.FINISHED:
        raise Conflict(
            _("The event is still running: reopen the round for rulings instead."), field="status"
        )
    reason = stated_reason(reason, missing=_("Say why the result is corrected."))
    with transaction.atomic():
        locked = BoardResult.objects.select_for_update(of=("self",), no_key=True).get(pk=result.pk)
        existing = locked.disputes.filter(status=Dispute.Status.OPEN).first()
        if existing is not None:  # ruling on it is the correction: the why is kept beside it
            audit.record(
                event=event,
                result=locked,
                actor=actor.label,
                action="correction_requested",
                note=reason,
            )
            return existing
        return open_dispute(
            locked,
            Dispute.Reason.CORRECTION,
            actor,
            reason,
            previous_status=locked.status,
        )
