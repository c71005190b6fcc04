"""The open round's progress and a proposal's tables are the staff's (fair-play audit,
2026-12-05).

``GET /api/v1/events/{id}/rounds/{n}`` told anyone who may see the event which boards each table
of the open round still owed. In game mode a board leaves a table's list once its game is over,
which depends on the scores: the table next door learnt that board 1 went big at table 1 before
playing it. A proposed round's tables were public through the API while the pairings page kept
them for the organisers and referees."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from api.authentication import table_token
from tournaments import play, queue
from tournaments.actors import Actor
from tournaments.models import Event, Round, StandingsSnapshot, Table
from tournaments.services import clock, events, results
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_event(running_event):
    running_event.published = True
    running_event.match_mode = Event.MatchMode.GAME
    running_event.game_target = 5  # one good hand ends the game
    running_event.save()
    return running_event


def _play_board_1(event, totals):
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    data = {"trump": "oros", "totals": totals}
    for side in ("NS", "EW"):  # an entry, then its confirmation
        results.result_submit_short(
            table=table, board_number=1, actor=Actor(table=table, side=side), data=data
        )


def _missing(client, event):
    return client.get(f"/api/v1/events/{event.pk}/rounds/1").json()["missing"]


def test_the_open_rounds_progress_reaches_neither_the_public_nor_the_next_table(
    game_event, organiser
):
    other = Table.objects.get(round__event=game_event, round__number=1, number=2)
    neighbour = APIClient()
    neighbour.credentials(HTTP_AUTHORIZATION=f"Table {table_token(other, 'NS')}")
    staff = APIClient()
    staff.force_authenticate(organiser)
    before = _missing(staff, game_event)
    _play_board_1(game_event, {"NS": 44, "EW": 28})  # NS scores 8 ≥ 5: table 1's game is over
    assert _missing(APIClient(), game_event) == [] == _missing(neighbour, game_event)
    after = {m["table"]: m["missing"] for m in _missing(staff, game_event)}
    assert 1 in {m["table"] for m in before} and not after.get(1)  # the organiser follows it


def _round_2_proposed(event, organiser):
    """The event published, round 1 closed, round 2 proposed."""
    event.published = True
    event.save(update_fields=["published"])
    actor = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    e = list(event.entries.order_by("number"))
    return events.round_propose(
        event=event, actor=actor, number=2, tables=[(e[0].pk, e[2].pk), (e[1].pk, e[3].pk)]
    )


def test_a_proposed_rounds_tables_are_for_the_staff_only(running_event, organiser):
    event = running_event
    rnd2 = _round_2_proposed(event, organiser)
    anonymous, staff = APIClient(), APIClient()
    staff.force_authenticate(organiser)
    for client, shown in ((anonymous, False), (staff, True)):
        body = client.get(f"/api/v1/events/{event.pk}/rounds/2").json()
        tables = client.get(f"/api/v1/rounds/{rnd2.pk}/tables").json()["results"]
        assert bool(body["tables"]) is shown and bool(tables) is shown
        assert body["status"] == "pending"


def test_a_closed_rounds_standings_do_not_move_with_the_open_rounds_results(
    running_event, organiser
):
    """Every recomputation rewrote every round's snapshot, so the public standings after round
    1 (their updated_at and ETag) changed whenever a result of the open round 2 came in."""

    event = running_event
    rnd2 = _round_2_proposed(event, organiser)
    events.round_open(rnd=rnd2, actor=Actor(user=organiser))
    standings_recompute(event.pk)
    viewer = APIClient()  # one reader: the page's ETag carries its CSRF cookie's mark
    url, page = f"/api/v1/events/{event.pk}/standings", f"/e/{event.pk}/standings/"
    before, page_before = viewer.get(url), viewer.get(page)
    table = Table.objects.get(round=rnd2, number=1)
    data = {"trump": "oros", "totals": {"NS": 44, "EW": 28}}
    stored = results.result_submit_short(
        table=table, board_number=3, actor=Actor(table=table, side="NS"), data=data
    )
    live = StandingsSnapshot.objects.get(event=event, after_round=2).computed_at
    # Confirmed: the result counts, and the open round's own snapshot moves with it.
    results.result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    standings_recompute(event.pk)
    assert StandingsSnapshot.objects.get(event=event, after_round=2).computed_at != live
    after, page_after = viewer.get(url), viewer.get(page)
    assert before.json()["after_round"] == after.json()["after_round"] == 1
    assert before.json()["updated_at"] == after.json()["updated_at"]
    assert before["ETag"] == after["ETag"]
    assert page_before["ETag"] == page_after["ETag"]


class _QueuedForAWorker:
    """A task sent to the broker: a worker runs it a moment later (not during the test)."""

    def apply_async(self, *args, **kwargs):
        return None

    def delay(self, *args, **kwargs):
        return None


def test_a_hand_entered_after_its_short_result_does_not_open_the_channel_again(
    running_event, organiser, monkeypatch, django_capture_on_commit_callbacks
):
    """Fair-play audit, 2026-12-06. A closed round's snapshot keeps its time when a
    recomputation leaves its values alone, and the public's "stale" compared the closed rounds'
    results with that time: once table 1 entered round 1's board 1 card by card after its short
    result (only the result's source changes), every result of the open round showed to
    everyone as "stale" (and a new ETag) on the standings after round 1, until the event ended."""
    event, actor = running_event, Actor(user=organiser)
    event.published = True
    event.save(update_fields=["published"])
    table1 = Table.objects.get(round__event=event, round__number=1, number=1)
    board1 = event.boards.get(number=1)
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": board1.dealer},
        "choice": {"delegated": False, "trump": "copes"},
        "play": engine.random_play(play.deal(board1), "copes", play.rules(event), random.Random(3)),
    }
    totals = play.replay(board1, record).totals
    for table in Table.objects.filter(round__event=event, round__number=1):
        for board in table.round.board_numbers:
            mine = table == table1 and board == 1
            data = {
                "trump": "copes" if mine else "oros",
                "totals": dict(totals) if mine else {"NS": 40, "EW": 32},
            }
            for side in ("NS", "EW"):
                results.result_submit_short(
                    table=table,
                    board_number=board,
                    actor=Actor(table=table, side=side),
                    data=data,
                )
    standings_recompute(event.pk)
    results.result_submit_play_record(
        table=table1, board_number=1, actor=Actor(table=table1, side="NS"), record=record
    )
    standings_recompute(event.pk)
    rnd2 = _round_2_proposed(event, organiser)
    events.round_open(rnd=rnd2, actor=actor)
    standings_recompute(event.pk)
    viewer = APIClient()
    url, page = f"/api/v1/events/{event.pk}/standings", f"/e/{event.pk}/standings/"
    before, page_before = viewer.get(url), viewer.get(page)
    assert before.json()["after_round"] == 1 and before.json()["stale"] is False

    monkeypatch.setattr(queue, "_task", lambda *a, **k: _QueuedForAWorker())
    table = Table.objects.get(round=rnd2, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        results.result_submit_short(
            table=table,
            board_number=3,
            actor=Actor(table=table, side="NS"),
            data={"trump": "oros", "totals": {"NS": 44, "EW": 28}},
        )
    after, page_after = viewer.get(url), viewer.get(page)
    assert after.json()["after_round"] == 1
    assert after.json()["stale"] is False
    assert after["ETag"] == before["ETag"]
    assert page_after["ETag"] == page_before["ETag"]


def test_when_time_was_called_at_a_table_stays_with_the_staff_and_the_table_until_the_round_closes(
    game_event, organiser
):
    """Fair-play audit, 2026-12-07. A table is asked when time was called only while its match
    goes on, which in game mode depends on its scores: ``time_after`` on the public list of a
    round's tables told the table next door that board 1 had not ended table 1's game."""
    _play_board_1(game_event, {"NS": 36, "EW": 36})  # nobody scores: the game goes on
    rnd = game_event.rounds.get(number=1)
    table1, table2 = Table.objects.filter(round=rnd).order_by("number")
    Round.objects.filter(pk=rnd.pk).update(clock_ends_at=timezone.now() - timedelta(minutes=1))
    clock.table_time_called(table=table1, actor=Actor(table=table1, side="NS"), deal=2)

    def seen(client):
        body = client.get(f"/api/v1/rounds/{rnd.pk}/tables").json()["results"]
        return {t["number"]: t["time_after"] for t in body}

    own, neighbour, staff = APIClient(), APIClient(), APIClient()
    own.credentials(HTTP_AUTHORIZATION=f"Table {table_token(table1, 'EW')}")
    neighbour.credentials(HTTP_AUTHORIZATION=f"Table {table_token(table2, 'NS')}")
    staff.force_authenticate(organiser)
    assert seen(APIClient()) == {1: None, 2: None} == seen(neighbour)
    assert seen(own) == {1: 2, 2: None} == seen(staff)
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    assert seen(APIClient()) == {1: 2, 2: None}
