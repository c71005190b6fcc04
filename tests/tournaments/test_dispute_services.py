"""Disputes: every way one opens, every ruling and its effect on the result and the standings,
revisions, the audit trail and who may rule (tournaments/services/disputes.py)."""

import pytest

import engine
from tests.factories import UserFactory
from tests.plays import ew, illegal_play, legal_play, ns, record_for
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import (
    AuditEntry,
    BoardResult,
    Dispute,
    Ruling,
    StandingsSnapshot,
    Table,
)
from tournaments.services import Conflict, NotAllowed, ServiceError, disputes, results
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def totals_of(board, event, play, trump="copes"):
    hand = engine.Hand(adapter.deal(board), trump, adapter.rules(event))
    for token in play:
        hand.play(engine.parse_token(token))
    return dict(hand.totals)


@pytest.fixture
def board1(running_event):
    return running_event.boards.get(number=1)


def enter_legal(table, board, event):
    """NS enters the short result of a legal play of board 1 (copes, no calls)."""
    play = legal_play(board, event)
    data = {
        "delegated": False,
        "trump": "copes",
        "doubles": [],
        "totals": totals_of(board, event, play),
    }
    return results.result_submit_short(table=table, board_number=1, actor=ns(table), data=data)


def close_and_recompute(event):
    """Close round 1 (its other boards count as not played) so that its matches count: an open
    round's match counts only once it is over (nobody is credited with a match not played)."""
    from tournaments.services import events

    rnd = event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=Actor(user=event.organisers.first()), accept_missing=True)
    standings_recompute(event.pk)


def snapshot_row(event, entry):
    snap = StandingsSnapshot.objects.get(event=event, after_round=1)
    return next(r for r in snap.rows if r["entry"] == entry.pk)


def submit_illegal(table, board, event):
    play = illegal_play(board, event)
    out = results.result_submit_play_record(
        table=table,
        board_number=board.number,
        actor=ns(table),
        record=record_for(board, "copes", play),
    )
    return out.result


# --- how a dispute opens -------------------------------------------------------------------------


def test_conflicting_entries_open_a_conflict_dispute(running_event, table1, board1):
    play = legal_play(board1, running_event)
    totals = totals_of(board1, running_event, play)
    data = {"delegated": False, "trump": "copes", "doubles": [], "totals": totals}
    results.result_submit_short(table=table1, board_number=1, actor=ns(table1), data=data)
    wrong = {"NS": totals["EW"], "EW": totals["NS"]} if totals["NS"] != 36 else {"NS": 40, "EW": 32}
    out = results.result_submit_short(
        table=table1, board_number=1, actor=ew(table1), data=data | {"totals": wrong}
    )
    assert out.result.status == BoardResult.Status.DISPUTED
    dispute = out.result.disputes.get()
    assert dispute.reason == Dispute.Reason.CONFLICT
    assert dispute.status == Dispute.Status.OPEN
    assert out.result.submissions.count() == 2


def test_illegal_card_in_a_play_record_opens_an_illegal_play_dispute(running_event, table1, board1):
    result = submit_illegal(table1, board1, running_event)
    assert result.status == BoardResult.Status.DISPUTED
    dispute = result.disputes.get()
    assert dispute.reason == Dispute.Reason.ILLEGAL_PLAY
    record = result.play_records.get()
    assert record.outcome == "illegal"
    assert record.verdict["rule"] in {
        "follow_suit",
        "must_beat",
        "must_trump",
        "must_overtrump",
        "lowest_card",
    }
    # R10: the offenders' opponents score 36 × multiplier, stored as the result.
    offender = engine.Seat.from_str(record.verdict["seat"]).pair
    assert result.offending_pair == offender
    assert (result.score_ns, result.score_ew) == ((0, 36) if offender == "NS" else (36, 0))


def test_short_result_contradicting_a_play_record_opens_a_record_mismatch(
    running_event, table1, board1
):
    play = legal_play(board1, running_event)
    totals = totals_of(board1, running_event, play)
    results.result_submit_play_record(
        table=table1,
        board_number=1,
        actor=ns(table1),
        record=record_for(board1, "copes", play),
    )
    out = results.result_submit_short(
        table=table1,
        board_number=1,
        actor=ew(table1),
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": totals},
    )
    assert out.result.status == BoardResult.Status.DISPUTED
    assert out.result.disputes.get().reason == Dispute.Reason.RECORD_MISMATCH


def test_player_request_opens_a_dispute_with_the_players_text(running_event, table1, board1):
    out = enter_legal(table1, board1, running_event)
    dispute = disputes.dispute_request(
        result=out.result, actor=ew(table1), reason="  They revoked at trick 4.  "
    )
    assert dispute.reason == Dispute.Reason.PLAYER_REQUEST
    assert dispute.details == "They revoked at trick 4."
    assert dispute.previous_status == BoardResult.Status.ENTERED
    out.result.refresh_from_db()
    assert out.result.status == BoardResult.Status.DISPUTED
    with pytest.raises(Conflict):
        disputes.dispute_request(result=out.result, actor=ns(table1), reason="again")


def test_player_request_needs_a_reason_and_a_seat_at_the_table(running_event, table1, board1):
    out = enter_legal(table1, board1, running_event)
    with pytest.raises(ServiceError):
        disputes.dispute_request(result=out.result, actor=ew(table1), reason="   ")
    other = Table.objects.get(round__event=running_event, round__number=1, number=2)
    with pytest.raises(NotAllowed):
        disputes.dispute_request(result=out.result, actor=ns(other), reason="nosy")


# --- rulings and their effects ------------------------------------------------------------------


def test_penalty_ruling_sets_r10_score_and_changes_the_standings(
    running_event, table1, board1, referee
):
    result = submit_illegal(table1, board1, running_event)
    verdict = result.play_records.get().verdict
    offender = engine.Seat.from_str(verdict["seat"]).pair
    victims = table1.ew if offender == "NS" else table1.ns
    standings_recompute(running_event.pk)
    # A disputed result does not count yet.
    assert snapshot_row(running_event, victims)["points_for"] == 0

    ruling = disputes.dispute_rule(
        dispute=result.disputes.get(),
        actor=Actor(user=referee),
        kind="penalty",
        explanation="Revoke at trick 3.",
        data={"offending_pair": offender},
    )
    result.refresh_from_db()
    assert result.status == BoardResult.Status.RULED
    assert result.source == BoardResult.Source.RULING
    assert result.offending_pair == offender
    penalty = 36 * verdict["multiplier"]
    assert {"NS": result.score_ns, "EW": result.score_ew} == (
        {"NS": 0, "EW": penalty} if offender == "NS" else {"NS": penalty, "EW": 0}
    )
    assert ruling.dispute.status == Dispute.Status.RULED
    assert ruling.referee == referee
    close_and_recompute(running_event)
    assert snapshot_row(running_event, victims)["points_for"] == penalty
    assert snapshot_row(running_event, victims)["boards_played"] == 1


def test_penalty_needs_an_offending_pair(running_event, table1, board1, referee):
    out = enter_legal(table1, board1, running_event)
    dispute = disputes.dispute_request(result=out.result, actor=ew(table1), reason="revoke")
    with pytest.raises(ServiceError) as exc:
        disputes.dispute_rule(
            dispute=dispute, actor=Actor(user=referee), kind="penalty", explanation="x", data={}
        )
    assert exc.value.field == "offending_pair"


def test_a_stale_revises_says_what_is_in_force_without_a_question_mark(
    running_event, table1, board1, referee
):
    """Audit: with no ruling in force, a ``revises`` naming one was refused as "ruled meanwhile
    (by ?)"."""
    out = enter_legal(table1, board1, running_event)
    dispute = disputes.dispute_request(result=out.result, actor=ew(table1), reason="revoke")

    def rule(revises):
        return disputes.dispute_rule(
            dispute=dispute,
            actor=Actor(user=referee),
            kind="penalty",
            explanation="x",
            data={"offending_pair": "NS"},
            revises=revises,
        )

    with pytest.raises(Conflict) as exc:
        rule(99999)
    assert exc.value.field == "revises"
    assert str(exc.value.message) == (
        "No ruling is in force on this board: reload it to see where it stands."
    )
    rule(None)
    with pytest.raises(Conflict) as exc:
        rule(None)
    assert str(exc.value.message) == (
        "This board was ruled meanwhile (by referee): reload it to see the ruling."
    )


def test_accept_ruling_takes_the_chosen_submission(running_event, table1, board1, referee):
    play = legal_play(board1, running_event)
    totals = totals_of(board1, running_event, play)
    data = {"delegated": False, "trump": "copes", "doubles": [], "totals": totals}
    results.result_submit_short(table=table1, board_number=1, actor=ns(table1), data=data)
    wrong = {"NS": 50, "EW": 22} if totals["NS"] != 50 else {"NS": 40, "EW": 32}
    out = results.result_submit_short(
        table=table1, board_number=1, actor=ew(table1), data=data | {"totals": wrong}
    )
    ew_submission = out.result.submissions.get(side="EW")
    disputes.dispute_rule(
        dispute=out.result.disputes.get(),
        actor=Actor(user=referee),
        kind="accept",
        explanation="EW's scoresheet is right.",
        data={"submission": ew_submission.pk},
    )
    result = BoardResult.objects.get(pk=out.result.pk)
    assert (result.totals_ns, result.totals_ew) == (wrong["NS"], wrong["EW"])
    assert result.score_ns == max(0, wrong["NS"] - 36)
    assert result.source == BoardResult.Source.SHORT
    close_and_recompute(running_event)
    assert snapshot_row(running_event, table1.ns)["points_for"] == result.score_ns


def test_accept_ruling_with_a_play_record_submission(running_event, table1, board1, referee):
    play = legal_play(board1, running_event)
    totals = totals_of(board1, running_event, play)
    results.result_submit_play_record(
        table=table1,
        board_number=1,
        actor=ns(table1),
        record=record_for(board1, "copes", play),
    )
    out = results.result_submit_short(
        table=table1,
        board_number=1,
        actor=ew(table1),
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": totals},
    )
    record_sub = out.result.submissions.get(side="NS")
    disputes.dispute_rule(
        dispute=out.result.disputes.get(),
        actor=Actor(user=referee),
        kind="accept",
        explanation="The record shows copes.",
        data={"submission": record_sub.pk},
    )
    result = BoardResult.objects.get(pk=out.result.pk)
    assert result.trump == "copes"
    assert result.totals_ns == totals["NS"]
    assert result.source == BoardResult.Source.PLAY_RECORD


def test_accept_ruling_refuses_a_submission_of_another_board(
    running_event, table1, board1, referee
):
    result = submit_illegal(table1, board1, running_event)
    with pytest.raises(ServiceError) as exc:
        disputes.dispute_rule(
            dispute=result.disputes.get(),
            actor=Actor(user=referee),
            kind="accept",
            explanation="x",
            data={"submission": 999999},
        )
    assert exc.value.field == "submission"


def test_corrected_short_result_ruling(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    data = {
        "delegated": True,
        "trump": "botifarra",
        "doubles": [{"seat": engine.Seat.from_str(board1.dealer).right.name, "call": "contro"}],
        "totals": {"NS": 46, "EW": 26},
    }
    disputes.dispute_rule(
        dispute=result.disputes.get(),
        actor=Actor(user=referee),
        kind="corrected",
        explanation="Agreed at the table.",
        data=data,
    )
    result.refresh_from_db()
    assert (result.trump, result.delegated, result.multiplier) == ("botifarra", True, 4)
    assert (result.score_ns, result.score_ew) == (40, 0)
    assert result.offending_pair == ""
    close_and_recompute(running_event)
    assert snapshot_row(running_event, table1.ns)["points_for"] == 40


def test_corrected_play_record_ruling(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    play = legal_play(board1, running_event, seed=7)
    totals = totals_of(board1, running_event, play)
    disputes.dispute_rule(
        dispute=result.disputes.get(),
        actor=Actor(user=referee),
        kind="corrected",
        explanation="Corrected record.",
        data={"play_record": record_for(board1, "copes", play)},
    )
    result.refresh_from_db()
    assert (result.totals_ns, result.totals_ew) == (totals["NS"], totals["EW"])
    assert result.offending_pair == ""


def test_corrected_play_record_must_be_valid(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    bad = record_for(board1, "copes", ["99x"])
    with pytest.raises(results.InvalidSubmission) as exc:
        disputes.dispute_rule(
            dispute=result.disputes.get(),
            actor=Actor(user=referee),
            kind="corrected",
            explanation="x",
            data={"play_record": bad},
        )
    assert exc.value.problems
    result.refresh_from_db()
    assert result.status == BoardResult.Status.DISPUTED


def test_adjusted_ruling_counts_average_plus_and_minus(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    disputes.dispute_rule(
        dispute=result.disputes.get(),
        actor=Actor(user=referee),
        kind="adjusted",
        explanation="Fouled board.",
        data={"adjusted_ns": "avg_plus", "adjusted_ew": "avg_minus", "score": {"NS": 5, "EW": 0}},
    )
    result.refresh_from_db()
    assert (result.adjusted_ns, result.adjusted_ew) == ("avg_plus", "avg_minus")
    assert (result.score_ns, result.score_ew) == (5, 0)
    close_and_recompute(running_event)
    assert snapshot_row(running_event, table1.ns)["points_for"] == 5


@pytest.mark.parametrize(
    "data, field",
    [
        ({"adjusted_ns": "avg", "adjusted_ew": "great"}, "adjusted_ew"),
        ({"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": "x"}}, "score.NS"),
        # Not whole numbers as sent: stored as 1 before (audit).
        ({"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": 1.5, "EW": 0}}, "score.NS"),
        ({"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": 0, "EW": True}}, "score.EW"),
        ({"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": "3", "EW": 0}}, "score.NS"),
        ({"adjusted_ns": "avg", "adjusted_ew": "avg", "score": [1, 0]}, "score"),
        ({"adjusted_ns": "avg", "adjusted_ew": "avg", "score": {"NS": -1, "EW": 0}}, "score"),
    ],
)
def test_adjusted_ruling_refuses_bad_values(running_event, table1, board1, referee, data, field):
    result = submit_illegal(table1, board1, running_event)
    with pytest.raises(ServiceError) as exc:
        disputes.dispute_rule(
            dispute=result.disputes.get(),
            actor=Actor(user=referee),
            kind="adjusted",
            explanation="x",
            data=data,
        )
    assert exc.value.field == field


@pytest.mark.parametrize("score", [{"NS": 10, "EW": 10}, {"NS": 120, "EW": 110}])
def test_adjusted_ruling_refuses_a_score_for_both_pairs(
    running_event, table1, board1, referee, score
):
    """R9: one pair scores on a board; a match score for both would count twice in a game
    (R12) and cannot be compared, so the ruling is refused and the result stays as it was."""
    result = submit_illegal(table1, board1, running_event)
    before = BoardResult.objects.filter(pk=result.pk).values().get()
    with pytest.raises(ServiceError) as exc:
        disputes.dispute_rule(
            dispute=result.disputes.get(),
            actor=Actor(user=referee),
            kind="adjusted",
            explanation="Fouled board.",
            data={"adjusted_ns": "avg", "adjusted_ew": "avg", "score": score},
        )
    assert exc.value.field == "score" and "(R9)" in exc.value.message
    assert BoardResult.objects.filter(pk=result.pk).values().get() == before
    assert not Ruling.objects.exists()


def test_ruling_needs_an_explanation_and_a_known_kind(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    dispute = result.disputes.get()
    with pytest.raises(ServiceError) as exc:
        disputes.dispute_rule(
            dispute=dispute,
            actor=Actor(user=referee),
            kind="penalty",
            explanation="  ",
            data={"offending_pair": "NS"},
        )
    assert exc.value.field == "explanation"
    with pytest.raises(ServiceError) as exc:
        disputes.dispute_rule(
            dispute=dispute, actor=Actor(user=referee), kind="coin_toss", explanation="x", data={}
        )
    assert exc.value.field == "kind"


# --- revisions and the audit trail ----------------------------------------------------------------


def test_revision_supersedes_and_keeps_the_old_ruling(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    dispute = result.disputes.get()
    first = disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=referee),
        kind="penalty",
        explanation="Revoke.",
        data={"offending_pair": "NS"},
    )
    second = disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=referee),
        kind="adjusted",
        explanation="On reflection",
        data={"adjusted_ns": "avg", "adjusted_ew": "avg"},
    )
    third = disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=referee),
        kind="penalty",
        explanation="Back to R10.",
        data={"offending_pair": "EW"},
    )
    assert second.supersedes == first and third.supersedes == second
    assert list(dispute.rulings.order_by("pk")) == [first, second, third]
    first.refresh_from_db()
    assert first.explanation == "Revoke." and first.superseded_by == second
    result.refresh_from_db()
    assert result.offending_pair == "EW"
    assert (result.adjusted_ns, result.adjusted_ew) == ("", "")
    actions = list(AuditEntry.objects.filter(result=result).values_list("action", flat=True))
    assert actions.count("ruling") == 1 and actions.count("ruling_revised") == 2


def test_ruling_again_on_an_earlier_dispute_is_a_revision(running_event, table1, board1, referee):
    """Dispute A ruled, then dispute B on the same board ruled (superseding A's ruling): a new
    ruling on A revises A's ruling, and the trail and the webhook say so."""
    result = submit_illegal(table1, board1, running_event)
    first = result.disputes.get()
    rule = lambda dispute, pair: disputes.dispute_rule(  # noqa: E731
        dispute=dispute,
        actor=Actor(user=referee),
        kind="penalty",
        explanation=f"Revoke by {pair}.",
        data={"offending_pair": pair},
    )
    rule(first, "NS")
    second = disputes.dispute_request(result=result, actor=ew(table1), reason="Look again.")
    rule(second, "EW")
    rule(first, "NS")
    actions = list(
        AuditEntry.objects.filter(result=result, action__startswith="ruling")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["ruling", "ruling", "ruling_revised"]


def test_audit_trail_says_who_when_and_old_to_new(running_event, table1, board1, referee):
    result = submit_illegal(table1, board1, running_event)
    before = (result.score_ns, result.score_ew)
    offender = result.offending_pair
    other = "EW" if offender == "NS" else "NS"
    disputes.dispute_rule(
        dispute=result.disputes.get(),
        actor=Actor(user=referee),
        kind="penalty",
        explanation="The other pair revoked.",
        data={"offending_pair": other},
    )
    trail = list(AuditEntry.objects.filter(result=result).order_by("created_at", "pk"))
    assert [e.action for e in trail] == ["result_entered", "dispute_opened", "ruling"]
    assert trail[0].actor == "table 1 round 1 NS"
    assert trail[1].changes == {"reason": [None, "illegal_play"]}
    ruling = trail[-1]
    assert ruling.actor == "referee"
    assert ruling.created_at is not None
    assert ruling.note == "The other pair revoked."
    assert ruling.changes["status"] == ["disputed", "ruled"]
    assert ruling.changes["offending_pair"] == [offender, other]
    assert ruling.changes["score_ns"] == [before[0], before[1]]
    assert ruling.changes["source"] == ["play_record", "ruling"]


def test_only_the_pair_that_asked_withdraws_its_request(running_event, table1, board1):
    """The pair the referee was called about could call it off, and the board counted again
    as confirmed (audit). Now only the asking pair's token, or its players' accounts."""
    out = enter_legal(table1, board1, running_event)
    results.result_confirm(result=out.result, actor=ew(table1))
    dispute = disputes.dispute_request(result=out.result, actor=ew(table1), reason="NS revoked")
    assert dispute.opened_side == "EW"
    accused = UserFactory(username="accused")
    pair = table1.ns.pair
    pair.player1.user = accused
    pair.player1.save()
    for actor in (ns(table1), Actor(user=accused)):
        with pytest.raises(NotAllowed):
            disputes.dispute_withdraw(dispute=dispute, actor=actor)
    out.result.refresh_from_db()
    assert out.result.status == BoardResult.Status.DISPUTED
    asking = UserFactory(username="asking")
    pair = table1.ew.pair
    pair.player1.user = asking
    pair.player1.save()
    disputes.dispute_withdraw(dispute=dispute, actor=Actor(user=asking))
    out.result.refresh_from_db()
    assert out.result.status == BoardResult.Status.CONFIRMED


def test_withdrawn_player_request_cannot_be_ruled(running_event, table1, board1, referee):
    out = enter_legal(table1, board1, running_event)
    dispute = disputes.dispute_request(result=out.result, actor=ew(table1), reason="doubt")
    disputes.dispute_withdraw(dispute=dispute, actor=ew(table1))
    out.result.refresh_from_db()
    assert out.result.status == BoardResult.Status.ENTERED
    with pytest.raises(Conflict):
        disputes.dispute_rule(
            dispute=dispute,
            actor=Actor(user=referee),
            kind="penalty",
            explanation="x",
            data={"offending_pair": "NS"},
        )


# --- permissions --------------------------------------------------------------------------------


def test_only_referees_and_organisers_rule(running_event, table1, board1, organiser):
    result = submit_illegal(table1, board1, running_event)
    dispute = result.disputes.get()
    for actor in (Actor(user=UserFactory(username="stranger")), ns(table1), ew(table1), Actor()):
        with pytest.raises(NotAllowed):
            disputes.dispute_rule(
                dispute=dispute,
                actor=actor,
                kind="penalty",
                explanation="x",
                data={"offending_pair": "NS"},
            )
    assert not Ruling.objects.exists()
    ruling = disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=organiser),
        kind="penalty",
        explanation="Organisers may rule.",
        data={"offending_pair": "NS"},
    )
    assert ruling.referee == organiser


def test_a_referee_of_another_event_cannot_rule(running_event, table1, board1):
    from tests.factories import EventFactory

    elsewhere = UserFactory(username="elsewhere")
    EventFactory(referees=[elsewhere])
    result = submit_illegal(table1, board1, running_event)
    with pytest.raises(NotAllowed):
        disputes.dispute_rule(
            dispute=result.disputes.get(),
            actor=Actor(user=elsewhere),
            kind="penalty",
            explanation="x",
            data={"offending_pair": "NS"},
        )


def test_only_players_of_the_table_or_referees_withdraw(running_event, table1, board1, referee):
    out = enter_legal(table1, board1, running_event)
    dispute = disputes.dispute_request(result=out.result, actor=ew(table1), reason="doubt")
    other = Table.objects.get(round__event=running_event, round__number=1, number=2)
    with pytest.raises(NotAllowed):
        disputes.dispute_withdraw(dispute=dispute, actor=ns(other))
    disputes.dispute_withdraw(dispute=dispute, actor=Actor(user=referee))
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.WITHDRAWN


def test_a_call_on_a_counted_result_asks_for_the_standings_without_it(
    running_event, table1, board1, monkeypatch
):
    """referees.md: while a dispute is open the board's result does not count."""
    from tournaments import queue

    asked = []
    real = queue.request_standings
    monkeypatch.setattr(
        queue, "request_standings", lambda event: asked.append(event.pk) or real(event)
    )
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 44, "EW": 28}}
    results.result_submit_short(table=table1, board_number=1, actor=ns(table1), data=data)
    results.result_submit_short(table=table1, board_number=1, actor=ew(table1), data=data)
    result = BoardResult.objects.get(table=table1, board=board1)
    assert result.status == BoardResult.Status.CONFIRMED
    asked.clear()
    disputes.dispute_request(result=result, actor=ns(table1), reason="wrong totals")
    assert asked == [running_event.pk]
