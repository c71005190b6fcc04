"""The life of a board's result as one pure function: what a new submission does to it.

``transition(stored, incoming)`` reads the stored result's state (or None when the table has no
result for the board yet) and what was just submitted, and decides: create it, keep it, take the
new values, confirm it, dispute it, or refuse. No database here: ``services.results`` writes what
is decided, and ``tests/tournaments/test_result_states.py`` holds the table of cases.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tournaments.models import BoardResult, Dispute

Status = BoardResult.Status
Source = BoardResult.Source
Reason = Dispute.Reason


class Refusal(StrEnum):
    VERSION_CHANGED = "version_changed"  # the caller saw an older version
    RULED = "ruled"  # a referee's decision stands until a new dispute
    CONFIRMED = "confirmed"  # both pairs agreed; something different needs a dispute
    ALREADY_ENTERED = "already_entered"  # the same side again, different, without a version


@dataclass(frozen=True)
class Stored:
    status: str
    source: str
    entered_side: str  # "NS", "EW", or "" when an organiser entered it
    version: int


@dataclass(frozen=True)
class Incoming:
    side: str  # "NS", "EW", or "" for an organiser acting as organiser
    source: str  # Source.SHORT or Source.PLAY_RECORD
    illegal: bool  # a play record with an illegal card
    agrees: bool  # its values agree with the stored ones (False when nothing is stored)
    version: int | None = None  # the version the caller saw, when it says so


@dataclass(frozen=True)
class Decision:
    status: str | None = None  # the new status (None: unchanged)
    source: str | None = None  # the new source (None: unchanged)
    take_values: bool = False  # store the incoming values
    confirmed: bool = False  # the submitter confirms (is recorded as confirming)
    dispute: str | None = None  # open a dispute for this reason
    refusal: Refusal | None = None


def transition(stored: Stored | None, incoming: Incoming) -> Decision:
    """What ``incoming`` does to the ``stored`` result (see the module's docstring)."""
    illegal_record = incoming.illegal and incoming.source == Source.PLAY_RECORD
    if stored is None:
        if illegal_record:
            return Decision(Status.DISPUTED, incoming.source, True, dispute=Reason.ILLEGAL_PLAY)
        return Decision(Status.ENTERED, incoming.source, True)
    if incoming.version is not None and incoming.version != stored.version:
        return Decision(refusal=Refusal.VERSION_CHANGED)
    if stored.status == Status.RULED:
        return Decision(refusal=Refusal.RULED)
    if stored.status == Status.DISPUTED:
        return Decision()  # kept for the referee; the stored result does not move
    # A record against a short result, or the reverse: which is right is the referee's call.
    # Once confirmed, only a record reopens it (a new short result is refused as any change).
    if (
        incoming.source != stored.source
        and not incoming.agrees
        and (stored.status != Status.CONFIRMED or incoming.source == Source.PLAY_RECORD)
    ):
        reason = Reason.ILLEGAL_PLAY if illegal_record else Reason.RECORD_MISMATCH
        return Decision(Status.DISPUTED, dispute=reason)
    if stored.status == Status.CONFIRMED:
        if not incoming.agrees:
            return Decision(refusal=Refusal.CONFIRMED)
        return Decision(source=_better_source(stored, incoming))
    same_side = incoming.side == stored.entered_side
    # The same pair again; or the organisers correcting their own entry (agreeing with it,
    # an organiser confirms it, as they confirm a pair's).
    if same_side and (incoming.side or not incoming.agrees):
        if incoming.version is None and not incoming.agrees:
            return Decision(refusal=Refusal.ALREADY_ENTERED)
        if illegal_record and not incoming.agrees:
            # A correction to a record with an illegal card: the stored result becomes its
            # penalty, waiting for the referee to confirm it, as when it is the first entry.
            return Decision(Status.DISPUTED, incoming.source, True, dispute=Reason.ILLEGAL_PLAY)
        return Decision(source=incoming.source, take_values=True)
    if incoming.agrees:
        return Decision(Status.CONFIRMED, _better_source(stored, incoming), confirmed=True)
    # An illegal card is the question for the referee, not which pair is right.
    return Decision(
        Status.DISPUTED, dispute=Reason.ILLEGAL_PLAY if illegal_record else Reason.CONFLICT
    )


def _better_source(stored: Stored, incoming: Incoming) -> str | None:
    """A play record that agrees with a short result is the better evidence of it."""
    if incoming.source == Source.PLAY_RECORD and stored.source != Source.PLAY_RECORD:
        return Source.PLAY_RECORD
    return None
