"""A withdrawn pair scores nothing in a round played after it left, a requested bye included.

docs/scoring.md §4: a withdrawn pair "stays in the standings, marked *withdrawn*, with all the
results it played ... It is never paired again". Withdrawing cancels the byes the pair had asked
for in later rounds (on the confirmation page and the audit entry, by the pages and the API
alike), and the standings and the pairing scores never credit a requested bye of a round after
the withdrawal (an event whose requests were left in place before this fix).
"""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.pairing import history_from
from scoring.standings import compute_standings
from scoring.types import ByeRequest as RequestInput
from scoring.types import EventInput, RoundInput, TableRound
from tournaments.actors import Actor
from tournaments.models import AuditEntry, ByeRequest, Player, StandingsSnapshot
from tournaments.services import changes, events, pairings
from tournaments.services.late_entries import bye_request_add
from tournaments.services.results import result_confirm, result_submit_short
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def _play(rnd):
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    for table in rnd.tables.all():
        for board in rnd.board_numbers:
            stored = result_submit_short(
                table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
            )
            result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


def _row(event, after_round, entry):
    snap = StandingsSnapshot.objects.get(event=event, after_round=after_round)
    return next(r for r in snap.rows if r["entry"] == entry.pk)


def test_a_withdrawn_pair_scores_nothing_for_a_round_played_after_it_left(running_event, organiser):
    event = running_event
    event.requested_bye_points = 2  # the event gives a requested bye a win's worth
    event.save(update_fields=["requested_bye_points"])
    actor = Actor(user=organiser)
    leaving = event.entries.get(number=4)
    # During round 1, pair 4 says it cannot come to round 2 ...
    bye_request_add(entry=leaving, actor=actor, round_number=2)
    rnd1 = event.rounds.get(number=1)
    _play(rnd1)
    events.round_close(rnd=rnd1, actor=actor)
    # ... then, between the rounds, withdraws from the event altogether.
    assert changes.withdrawal_plan(leaving).dropped_byes == (2,)
    changes.entry_withdraw(entry=leaving, actor=actor, reason="not coming back")
    leaving.refresh_from_db()
    assert leaving.withdrawn_after_round == 1
    assert not ByeRequest.objects.filter(entry=leaving).exists()
    audit = AuditEntry.objects.get(event=event, action="entry_withdrawn")
    assert audit.changes["dropped_bye_requests"] == [[2], None]
    pairings.pairings_propose(event.pk, 2, actor=actor)
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    rnd2 = event.rounds.get(number=2)
    _play(rnd2)
    events.round_close(rnd=rnd2, actor=actor)
    standings_recompute(event.pk)
    after_1, after_2 = _row(event, 1, leaving), _row(event, 2, leaving)
    assert after_2["withdrawn"]
    assert (after_2["match_points"], after_2["requested_byes"]) == (
        after_1["match_points"],
        0,
    ), "a pair withdrawn after round 1 scored a requested bye in round 2"


def test_the_withdrawal_page_says_which_requested_byes_go(client, running_event, organiser):
    event = running_event
    actor = Actor(user=organiser)
    leaving = event.entries.get(number=4)
    bye_request_add(entry=leaving, actor=actor, round_number=2)
    client.force_login(organiser)
    url = reverse("tournaments:entry_withdraw", args=[event.pk, leaving.pk])
    page = client.get(url).content.decode()
    assert "The byes it asked for in later rounds (2) are cancelled" in page
    assert client.post(url, {"reason": ""}).status_code == 302
    assert not ByeRequest.objects.filter(entry=leaving).exists()


def test_a_withdrawal_through_the_api_cancels_the_later_requested_byes(running_event, organiser):
    event = running_event
    leaving = event.entries.get(number=4)
    bye_request_add(entry=leaving, actor=Actor(user=organiser), round_number=2)
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=organiser)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    out = api.post(f"/api/v1/events/{event.pk}/pairs/4/withdraw", {}, format="json")
    assert out.status_code == 200, out.content
    assert not ByeRequest.objects.filter(entry=leaving).exists()


def _left_after_round_1() -> EventInput:
    """Pairs 1-4; pair 4 withdrew after round 1 with its request for round 2 left in place."""
    return EventInput(
        entries=[1, 2, 3, 4],
        numbers={},
        withdrawn={4: 1},
        rounds=[
            RoundInput(1, [1], [TableRound(1, 1, 1, 2, []), TableRound(1, 2, 3, 4, [])]),
            RoundInput(2, [2], [TableRound(2, 1, 1, 3, [])], bye=2),
        ],
        bye_requests=[RequestInput(entry=4, round=2, match_points=2)],
    )


def test_a_request_left_from_before_the_withdrawal_scores_nowhere():
    event = _left_after_round_1()
    four = next(s for s in compute_standings(event).standings if s.entry == 4)
    assert (four.requested_byes, four.withdrawn) == (0, True)
    assert history_from(event)[4].score == four.match_points


def test_the_screen_does_not_seat_a_withdrawn_pair_by_a_request_left_in_place(
    client, running_event, organiser
):
    """Find your table lists who plays the open round: not a pair gone before it, even with a
    request for it stored before withdrawals cancelled them."""
    event = running_event
    event.published = True
    event.save(update_fields=["published"])
    actor = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    leaving = event.entries.get(number=4)
    changes.entry_withdraw(entry=leaving, actor=actor)
    ByeRequest.objects.create(entry=leaving, round_number=2, created_by="old data")
    e = list(event.entries.order_by("number"))
    rnd2 = events.round_propose(
        event=event, actor=actor, number=2, tables=[(e[0].pk, e[1].pk)], bye=e[2].pk
    )
    events.round_open(rnd=rnd2, actor=actor)
    page = client.get(reverse("public:screen", args=[event.pk]))
    seated = {s.pair_number for s in page.context["seats"]}
    assert seated == {1, 2, 3}


def test_find_your_table_files_accented_names_with_their_letter(client, running_event):
    """ "Every player in alphabetical order" (docs/organisers.md, the room's screen): Àlex with
    the A's and Òscar between Núria and Pere, not after Zoe."""
    event = running_event
    event.published = True
    event.save(update_fields=["published"])
    names = ["Zoe", "Òscar", "Núria", "Pere", "Àlex", "Bernat", "Élia", "Marc"]
    for entry, first, second in zip(
        event.entries.order_by("number"), names[::2], names[1::2], strict=True
    ):
        Player.objects.filter(pk=entry.pair.player1_id).update(name=first)
        Player.objects.filter(pk=entry.pair.player2_id).update(name=second)
    page = client.get(reverse("public:screen", args=[event.pk]))
    shown = [s.player for s in page.context["seats"]]
    assert shown == ["Àlex", "Bernat", "Élia", "Marc", "Núria", "Òscar", "Pere", "Zoe"]
