"""Fair play in the services (issue 13): rulings with a lifecycle, corrections after the event,
a referee's own review, records stored canonically, retries that store nothing new."""

import pytest

from tests.factories import UserFactory
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardResult, Dispute, PlayRecord
from tournaments.services import Conflict, NotAllowed, ServiceError, disputes, events, results

pytestmark = pytest.mark.django_db

SHORT = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 44, "EW": 28}}


@pytest.fixture
def confirmed(table1):
    ns, ew = Actor(table=table1, side="NS"), Actor(table=table1, side="EW")
    results.result_submit_short(table=table1, board_number=1, actor=ns, data=SHORT)
    return results.result_submit_short(table=table1, board_number=1, actor=ew, data=SHORT).result


def penalty(dispute, referee, offender="NS"):
    return disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=referee),
        kind="penalty",
        explanation="Revoke.",
        data={"offending_pair": offender},
    )


def test_a_referees_own_review_needs_a_reason_the_pairs_see(confirmed, referee, client):
    referee_actor = Actor(user=referee)
    with pytest.raises(ServiceError):
        disputes.dispute_request(result=confirmed, actor=referee_actor, reason="  ")
    dispute = disputes.dispute_request(
        result=confirmed, actor=referee_actor, reason="The score sheet shows a revoke."
    )
    assert dispute.reason == Dispute.Reason.REFEREE_REVIEW
    table = confirmed.table
    client.post("/table/", {"code": table.code_ew})
    page = client.get(f"/table/{table.code_ew}/").content.decode()
    assert "A referee reviews this board" in page and "The score sheet shows a revoke." in page


def test_no_ruling_once_the_round_is_closed_until_it_is_reopened(confirmed, referee, organiser):
    dispute = disputes.dispute_request(
        result=confirmed, actor=Actor(user=referee), reason="Check the revoke."
    )
    rnd = confirmed.table.round
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    dispute.refresh_from_db()
    assert not disputes.may_rule(dispute=dispute, actor=Actor(user=referee))
    with pytest.raises(Conflict):
        penalty(dispute, referee)
    assert BoardResult.objects.get(pk=confirmed.pk).status == BoardResult.Status.DISPUTED
    with pytest.raises(ServiceError):
        events.round_rulings(rnd=rnd, actor=Actor(user=organiser), reopen=True, reason="")
    with pytest.raises(NotAllowed):
        events.round_rulings(rnd=rnd, actor=Actor(user=referee), reopen=True, reason="late")
    events.round_rulings(rnd=rnd, actor=Actor(user=organiser), reopen=True, reason="Late revoke.")
    assert AuditEntry.objects.filter(action="round_reopened_for_ruling").exists()
    assert disputes.may_rule(dispute=dispute, actor=Actor(user=referee))
    penalty(dispute, referee)
    assert BoardResult.objects.get(pk=confirmed.pk).status == BoardResult.Status.RULED
    # The tables still cannot enter anything in the reopened round.
    with pytest.raises(ServiceError):
        results.result_submit_short(
            table=confirmed.table,
            board_number=2,
            actor=Actor(table=confirmed.table, side="NS"),
            data=SHORT,
        )
    events.round_rulings(rnd=rnd, actor=Actor(user=organiser), reopen=False)
    with pytest.raises(Conflict):
        penalty(dispute, referee, offender="EW")


def test_a_finished_event_changes_only_through_the_organisers_correction(
    confirmed, referee, organiser
):
    org = Actor(user=organiser)
    rnd = confirmed.table.round
    events.round_close(rnd=rnd, actor=org, accept_missing=True)
    event = rnd.event
    events.event_finish(event=event, actor=org)
    # Referees can neither review nor rule now; reopening is refused too.
    with pytest.raises(ServiceError):
        disputes.dispute_request(result=confirmed, actor=Actor(user=referee), reason="late")
    with pytest.raises(ServiceError):
        events.round_rulings(rnd=rnd, actor=org, reopen=True, reason="late")
    with pytest.raises(NotAllowed):
        disputes.correction_open(result=confirmed, actor=Actor(user=referee), reason="x")
    with pytest.raises(ServiceError):
        disputes.correction_open(result=confirmed, actor=org, reason=" ")
    correction = disputes.correction_open(
        result=confirmed, actor=org, reason="The scorer swapped the totals."
    )
    assert correction.reason == Dispute.Reason.CORRECTION
    with pytest.raises(NotAllowed):
        penalty(correction, referee)
    disputes.dispute_rule(
        dispute=correction,
        actor=org,
        kind="corrected",
        explanation="Totals swapped at the table.",
        data=SHORT | {"totals": {"NS": 28, "EW": 44}},
    )
    result = BoardResult.objects.get(pk=confirmed.pk)
    assert (result.totals_ns, result.totals_ew) == (28, 44)
    event.refresh_from_db()
    assert event.corrected_at is not None
    entry = AuditEntry.objects.get(action="result_corrected")
    assert entry.actor == organiser.username and entry.note == "Totals swapped at the table."


def test_a_correction_is_refused_while_the_event_runs(confirmed, organiser):
    with pytest.raises(ServiceError):
        disputes.correction_open(result=confirmed, actor=Actor(user=organiser), reason="x")


def test_one_open_dispute_at_a_time_is_ruled(confirmed, referee):
    first = disputes.dispute_request(result=confirmed, actor=Actor(user=referee), reason="Check.")
    penalty(first, referee)
    second = Dispute.objects.create(
        result=confirmed, reason=Dispute.Reason.REFEREE_REVIEW, opened_by="referee"
    )
    assert not disputes.may_rule(dispute=first, actor=Actor(user=referee))
    with pytest.raises(Conflict):
        penalty(first, referee, offender="EW")
    assert disputes.may_rule(dispute=second, actor=Actor(user=referee))


def test_records_are_stored_canonically_and_a_retry_stores_nothing_new(running_event, table1):
    import random

    from engine import random_play

    board = running_event.boards.get(number=1)
    play = random_play(adapter.deal(board), "copes", adapter.rules(running_event), random.Random(3))
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": board.dealer, "comment": "x" * 50},
        "choice": {"delegated": False, "trump": "copes", "note": "hi"},
        "doubles": [],
        "play": play,
        "comment": "injected",
    }
    ns = Actor(table=table1, side="NS")
    first = results.result_submit_play_record(table=table1, board_number=1, actor=ns, record=record)
    stored = PlayRecord.objects.get().record
    assert "comment" not in stored and "note" not in stored["choice"]
    assert set(stored) == {"format", "ruleset", "deal", "choice", "doubles", "play"}
    assert stored["deal"] == {"dealer": board.dealer}
    for _ in range(5):
        again = results.result_submit_play_record(
            table=table1, board_number=1, actor=ns, record=record
        )
    assert again.result.pk == first.result.pk
    assert PlayRecord.objects.count() == 1 and again.result.submissions.count() == 1
    assert BoardResult.objects.get().version == first.result.version
    results.result_submit_short(table=table1, board_number=2, actor=ns, data=SHORT)
    results.result_submit_short(table=table1, board_number=2, actor=ns, data=SHORT)
    assert BoardResult.objects.get(board__number=2).submissions.count() == 1


def test_a_stranger_with_an_account_sees_no_card(running_event, table1):
    from tournaments import policy

    board = running_event.boards.get(number=1)
    results.result_submit_short(
        table=table1, board_number=1, actor=Actor(table=table1, side="NS"), data=SHORT
    )
    assert not policy.can_see_cards(Actor(user=UserFactory(is_staff=True)), board)


def test_a_refused_review_keeps_the_reason_the_referee_typed(confirmed, referee, organiser, client):
    rnd = confirmed.table.round
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    client.force_login(referee)
    url = f"/referee/event/{rnd.event_id}/results/{confirmed.pk}/review/"
    reason = "North says the EW total was miscounted at trick 9"
    answer = client.post(url, {"reason": reason})
    page = answer.content.decode()
    assert answer.status_code == 409 and "Rulings are closed" in page
    assert f">{reason}</textarea>" in page
    assert not Dispute.objects.filter(result=confirmed).exists()


def test_a_refused_correction_keeps_the_reason_the_organiser_typed(confirmed, organiser, client):
    client.force_login(organiser)
    event_pk = confirmed.table.round.event_id
    url = f"/manage/{event_pk}/results/{confirmed.pk}/correct/"
    reason = "The EW total on the score sheet was 32, not 28"
    answer = client.post(url, {"reason": reason})  # the event is not finished yet
    page = answer.content.decode()
    assert answer.status_code == 409 and "The event is still running" in page
    assert f">{reason}</textarea>" in page
    assert not Dispute.objects.filter(result=confirmed).exists()
