"""The result's life as a table of cases (tournaments/result_states.py): each row is a stored
state, a submission, and what must happen."""

import pytest

from tournaments.result_states import Decision, Incoming, Refusal, Stored, transition

SHORT, RECORD = "short", "play_record"
ENTERED, CONFIRMED, DISPUTED, RULED = "entered", "confirmed", "disputed", "ruled"


def stored(status=ENTERED, source=SHORT, side="NS", version=1):
    return Stored(status, source, side, version)


def incoming(side="EW", source=SHORT, illegal=False, agrees=True, version=None):
    return Incoming(side, source, illegal, agrees, version)


CASES = [
    # nothing stored yet
    ("first short result", None, incoming(agrees=False), Decision(ENTERED, SHORT, True)),
    (
        "first complete record",
        None,
        incoming(source=RECORD, agrees=False),
        Decision(ENTERED, RECORD, True),
    ),
    (
        "first record with an illegal card",
        None,
        incoming(source=RECORD, illegal=True, agrees=False),
        Decision(DISPUTED, RECORD, True, dispute="illegal_play"),
    ),
    (
        "a short result naming an offender is no dispute yet",
        None,
        incoming(illegal=True, agrees=False),
        Decision(ENTERED, SHORT, True),
    ),
    # the other pair answers
    ("the other pair agrees", stored(), incoming(), Decision(CONFIRMED, confirmed=True)),
    (
        "the other pair differs",
        stored(),
        incoming(agrees=False),
        Decision(DISPUTED, dispute="conflict"),
    ),
    (
        "an agreeing record confirms and becomes the evidence",
        stored(),
        incoming(source=RECORD),
        Decision(CONFIRMED, RECORD, confirmed=True),
    ),
    (
        "a record that contradicts a short result",
        stored(),
        incoming(source=RECORD, agrees=False),
        Decision(DISPUTED, dispute="record_mismatch"),
    ),
    (
        "an illegal record against a short result",
        stored(),
        incoming(source=RECORD, illegal=True, agrees=False),
        Decision(DISPUTED, dispute="illegal_play"),
    ),
    (
        "a short result against a record",
        stored(source=RECORD),
        incoming(agrees=False),
        Decision(DISPUTED, dispute="record_mismatch"),
    ),
    (
        "an organiser's entry confirmed by a side",
        stored(side=""),
        incoming(side="NS"),
        Decision(CONFIRMED, confirmed=True),
    ),
    (
        "an organiser confirms a side's entry",
        stored(),
        incoming(side=""),
        Decision(CONFIRMED, confirmed=True),
    ),
    # the same pair again
    (
        "the same pair sends the same again",
        stored(),
        incoming(side="NS"),
        Decision(source=SHORT, take_values=True),
    ),
    (
        "the same pair corrects with the version",
        stored(version=3),
        incoming(side="NS", agrees=False, version=3),
        Decision(source=SHORT, take_values=True),
    ),
    (
        "the same pair differs without the version",
        stored(),
        incoming(side="NS", agrees=False),
        Decision(refusal=Refusal.ALREADY_ENTERED),
    ),
    # a record with an illegal card after a complete one (issue #5: it opens a dispute)
    (
        "the same pair corrects its record with an illegal one: the penalty, disputed",
        stored(source=RECORD, version=2),
        incoming(side="NS", source=RECORD, illegal=True, agrees=False, version=2),
        Decision(DISPUTED, RECORD, True, dispute="illegal_play"),
    ),
    (
        "the same pair sends an illegal record without the version",
        stored(source=RECORD),
        incoming(side="NS", source=RECORD, illegal=True, agrees=False),
        Decision(refusal=Refusal.ALREADY_ENTERED),
    ),
    (
        "the other pair's illegal record against a record: illegal play, not a conflict",
        stored(source=RECORD),
        incoming(source=RECORD, illegal=True, agrees=False),
        Decision(DISPUTED, dispute="illegal_play"),
    ),
    (
        "an organiser corrects the organisers' record with an illegal one",
        stored(source=RECORD, side="", version=2),
        incoming(side="", source=RECORD, illegal=True, agrees=False, version=2),
        Decision(DISPUTED, RECORD, True, dispute="illegal_play"),
    ),
    (
        "an organiser's illegal record against a side's record",
        stored(source=RECORD),
        incoming(side="", source=RECORD, illegal=True, agrees=False),
        Decision(DISPUTED, dispute="illegal_play"),
    ),
    (
        "confirmed from a record, then an illegal record: refused as any change",
        stored(CONFIRMED, source=RECORD),
        incoming(source=RECORD, illegal=True, agrees=False),
        Decision(refusal=Refusal.CONFIRMED),
    ),
    (
        "confirmed from a short result, then an illegal record",
        stored(CONFIRMED),
        incoming(source=RECORD, illegal=True, agrees=False),
        Decision(DISPUTED, dispute="illegal_play"),
    ),
    # versions, confirmed, disputed, ruled
    (
        "an old version",
        stored(version=4),
        incoming(version=3),
        Decision(refusal=Refusal.VERSION_CHANGED),
    ),
    ("confirmed, then the same again", stored(CONFIRMED), incoming(), Decision()),
    (
        "confirmed, then an agreeing record",
        stored(CONFIRMED),
        incoming(source=RECORD),
        Decision(source=RECORD),
    ),
    (
        "confirmed, then something else",
        stored(CONFIRMED),
        incoming(agrees=False),
        Decision(refusal=Refusal.CONFIRMED),
    ),
    (
        "confirmed from a record, then a different short result: refused, not a dispute",
        stored(CONFIRMED, source=RECORD),
        incoming(agrees=False),
        Decision(refusal=Refusal.CONFIRMED),
    ),
    (
        "an organiser corrects the organisers' entry with its version",
        stored(side="", version=2),
        incoming(side="", agrees=False, version=2),
        Decision(source=SHORT, take_values=True),
    ),
    (
        "an organiser differs from the organisers' entry without the version",
        stored(side=""),
        incoming(side="", agrees=False),
        Decision(refusal=Refusal.ALREADY_ENTERED),
    ),
    (
        "confirmed, then a record that contradicts it",
        stored(CONFIRMED),
        incoming(source=RECORD, agrees=False),
        Decision(DISPUTED, dispute="record_mismatch"),
    ),
    ("disputed: kept for the referee", stored(DISPUTED), incoming(agrees=False), Decision()),
    ("ruled: refused", stored(RULED), incoming(), Decision(refusal=Refusal.RULED)),
    (
        "ruled, even with its version",
        stored(RULED, version=2),
        incoming(version=2),
        Decision(refusal=Refusal.RULED),
    ),
]


@pytest.mark.parametrize(
    ("name", "before", "submitted", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_transition(name, before, submitted, expected):
    assert transition(before, submitted) == expected


def test_every_status_and_refusal_is_reached():
    decisions = [transition(b, s) for _n, b, s, _e in CASES]
    assert {d.status for d in decisions} >= {ENTERED, CONFIRMED, DISPUTED}
    assert {d.refusal for d in decisions} >= set(Refusal)
    assert {d.dispute for d in decisions} >= {"conflict", "record_mismatch", "illegal_play"}
