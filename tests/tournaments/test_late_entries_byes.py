"""Late entries and requested byes (docs/organisers.md "Late entries and requested byes"): a pair
joins a running event from the next round with the event's late-entry match points; a pair that
asks to sit out a round is not paired in it and scores the event's requested-bye match points."""

import pytest
from django.urls import reverse

from scoring.standings import compute_standings
from tournaments import scoring_io
from tournaments.actors import Actor
from tournaments.models import AuditEntry, ByeRequest, Event
from tournaments.services import ServiceError, events, late_entries, pairings
from tournaments.services.results import result_confirm, result_submit_short

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


@pytest.fixture
def event(running_event):
    # The options are fixed once the event runs; this event was created with them.
    Event.objects.filter(pk=running_event.pk).update(late_entry_points=1, requested_bye_points=1)
    running_event.refresh_from_db()
    return running_event


def _play_and_close(event, number, actor):
    rnd = event.rounds.get(number=number)
    for table in rnd.tables.all():
        for board in rnd.board_numbers:
            data = {
                "delegated": False,
                "trump": "oros",
                "doubles": [],
                "totals": {"NS": 40, "EW": 32},
            }
            stored = result_submit_short(
                table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
            )
            result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    events.round_close(rnd=rnd, actor=actor)


def _standing(event, entry, after_round):
    result = compute_standings(scoring_io.event_input(event), after_round=after_round)
    return next(s for s in result.standings if s.entry == entry.pk)


def _seated(event, number):
    rnd = event.rounds.get(number=number)
    seated = {e for t in rnd.tables.all() for e in (t.ns_id, t.ew_id)}
    return seated | ({rnd.bye_id} if rnd.bye_id else set())


def test_a_late_entry_joins_the_next_round_with_the_events_match_points(event, actor):
    late = late_entries.late_entry_register(
        event=event, actor=actor, player1="Núria Roca", player2="Pau Mas"
    )
    assert (late.number, late.joins_round) == (5, 2)
    assert AuditEntry.objects.filter(event=event, action="late_entry_registered").exists()
    _play_and_close(event, 1, actor)
    assert _standing(event, late, 1).match_points == 1.0  # paired in round 2 on its score
    pairings.pairings_propose(event.pk, 2)
    assert late.pk in _seated(event, 2)
    assert len(_seated(event, 2)) == 5  # four tables' pairs and a bye


def test_a_requested_bye_leaves_the_pair_out_of_the_swiss_and_scores_the_option(event, actor):
    first = event.entries.get(number=1)
    late_entries.bye_request_add(entry=first, actor=actor, round_number=2)
    _play_and_close(event, 1, actor)
    before = _standing(event, first, 1).match_points
    pairings.pairings_propose(event.pk, 2)
    seated = _seated(event, 2)
    assert first.pk not in seated and len(seated) == 3  # one table and the Swiss bye
    assert event.rounds.get(number=2).bye_id != first.pk
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    after = _standing(event, first, 2)
    assert (after.match_points - before, after.requested_byes) == (1.0, 1)


def test_a_requested_bye_drops_a_proposal_that_seats_the_pair(event, actor):
    _play_and_close(event, 1, actor)
    pairings.pairings_propose(event.pk, 2)
    second = event.entries.get(number=2)
    late_entries.bye_request_add(entry=second, actor=actor, round_number=2)
    assert not event.rounds.filter(number=2).exists()
    entry = AuditEntry.objects.filter(event=event, action="bye_requested").get()
    assert entry.changes["dropped_proposal"] == [2, None]


def test_requested_byes_are_refused_for_started_rounds_and_twice(event, actor):
    first = event.entries.get(number=1)
    with pytest.raises(ServiceError) as err:
        late_entries.bye_request_add(entry=first, actor=actor, round_number=1)  # open already
    assert err.value.field == "round"
    late_entries.bye_request_add(entry=first, actor=actor, round_number=3)
    with pytest.raises(ServiceError, match="already sits out round 3"):
        late_entries.bye_request_add(entry=first, actor=actor, round_number=3)
    assert ByeRequest.objects.filter(entry=first).count() == 1
    late_entries.bye_request_remove(request=ByeRequest.objects.get(entry=first), actor=actor)
    assert not ByeRequest.objects.exists()


def test_no_late_entry_once_every_round_has_started(event, actor):
    Event.objects.filter(pk=event.pk).update(rounds_count=1)
    event.refresh_from_db()
    with pytest.raises(ServiceError, match="no round left"):
        late_entries.late_entry_register(event=event, actor=actor, player1="A", player2="B")
    assert event.entries.count() == 4


def test_the_pairs_page_registers_a_late_entry_and_a_requested_bye(client, organiser, event):
    client.force_login(organiser)
    url = reverse("tournaments:entries", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'id="late-form"' in page and 'id="bye-form"' in page
    late = {"player1": "Laia Puig", "player2": "Joan Vidal"}
    # Issue 14: a late change asks first, saying what it will do.
    asked = client.post(url, late)
    assert asked.status_code == 200 and event.entries.count() == 4
    plan = asked.content.decode().split('id="plan"')[1].split("</ul>")[0]
    assert "Register Laia Puig – Joan Vidal as a late entry." in plan
    mp = event.late_entry_points
    assert f"It plays from round 2 and starts with {mp} match points." in plan
    assert "Drop the proposed" not in asked.content.decode()
    response = client.post(url, {**late, "confirmed": "1"})
    assert response.status_code == 302
    late = event.entries.get(number=5)
    assert late.joins_round == 2
    bye_url = reverse("tournaments:bye_request_add", args=[event.pk])
    bad = client.post(bye_url, {"entry": late.pk, "round_number": "1"})
    assert bad.status_code == 400 and not ByeRequest.objects.exists()
    # The refusal is beside the round's field (evening audit, 2026-12-06: it was a page message).
    form = bad.content.decode().split('id="bye-form"')[1].split("</form>")[0]
    field = form.split('id="field-round_number"')[1].split("</div>")[0]
    assert "the others have started or do not exist" in field
    asked = client.post(bye_url, {"entry": late.pk, "round_number": "3"})
    assert asked.status_code == 200 and not ByeRequest.objects.exists()
    sits_out = f"Pair 5 sits out round 3 and scores {event.requested_bye_points} match points"
    assert sits_out in asked.content.decode()
    client.post(bye_url, {"entry": late.pk, "round_number": "3", "confirmed": "1"})
    assert ByeRequest.objects.filter(entry=late, round_number=3).exists()
    # A request the service would refuse is refused before asking (here: the same one again).
    again = client.post(bye_url, {"entry": late.pk, "round_number": "3"})
    assert again.status_code == 400 and "already sits out round 3" in again.content.decode()
    page = client.get(url).content.decode()
    assert "late entry: from round 2" in page and 'data-bye-request="5-3"' in page


def test_taking_back_a_requested_bye_asks_first_and_names_the_proposal_it_drops(
    client, organiser, event, actor
):
    bye = late_entries.bye_request_add(
        entry=event.entries.get(number=1), actor=actor, round_number=2
    )
    _play_and_close(event, 1, actor)
    pairings.pairings_propose(event.pk, 2)
    client.force_login(organiser)
    url = reverse("tournaments:bye_request_remove", args=[event.pk, bye.pk])
    listed = client.get(reverse("tournaments:entries", args=[event.pk])).content.decode()
    assert f'href="{url}"' in listed and f'action="{url}"' not in listed  # a link, not a button
    asked = client.get(url)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "The proposal for round 2 leaves the pair out: it is dropped" in page
    assert ByeRequest.objects.filter(pk=bye.pk).exists() and event.rounds.filter(number=2).exists()
    assert client.post(url).status_code == 302
    assert not ByeRequest.objects.filter(pk=bye.pk).exists()
    assert not event.rounds.filter(number=2).exists()


def test_a_pair_withdrawing_in_the_round_of_its_requested_bye_withdraws_after_that_round(
    event, actor
):
    """The requested bye scores in its round: the pair was in it, not gone after the round
    before (which would mark it withdrawn in standings it still took part in)."""
    from tournaments.services.changes import entry_withdraw, withdrawal_plan

    first = event.entries.get(number=1)
    late_entries.bye_request_add(entry=first, actor=actor, round_number=2)
    _play_and_close(event, 1, actor)
    pairings.pairings_propose(event.pk, 2)
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    first.refresh_from_db()
    assert withdrawal_plan(first).after_round == 2
    entry_withdraw(entry=first, actor=actor)
    after_1, after_2 = _standing(event, first, 1), _standing(event, first, 2)
    assert not after_1.withdrawn
    assert after_2.withdrawn and after_2.requested_byes == 1


def test_a_late_entry_or_a_bye_that_drops_a_proposal_asks_first(client, organiser, event, actor):
    """Evening audit, 2026-12-06: a late entry or a requested bye dropped round 2's proposed
    pairing (hand changes included) in one click, and the late entry's audit entry did not
    say so. Both now ask first, naming the round, and the trail records the dropped proposal."""
    _play_and_close(event, 1, actor)
    pairings.pairings_propose(event.pk, 2)
    client.force_login(organiser)
    url = reverse("tournaments:entries", args=[event.pk])
    late = {"player1": "Laia Puig", "player2": "Joan Vidal", "name": "", "club": ""}
    asked = client.post(url, late)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "Drop the proposed pairing of round 2?" in page
    assert 'name="player1" value="Laia Puig"' in page and 'name="confirmed"' in page
    assert event.entries.count() == 4 and event.rounds.filter(number=2).exists()
    assert client.post(url, {**late, "confirmed": "1"}).status_code == 302
    assert event.entries.filter(pair__player1__name="Laia Puig", joins_round=2).exists()
    assert not event.rounds.filter(number=2).exists()
    entry = AuditEntry.objects.get(event=event, action="late_entry_registered")
    assert entry.changes["dropped_proposal"] == [2, None]

    pairings.pairings_propose(event.pk, 2)
    bye_url = reverse("tournaments:bye_request_add", args=[event.pk])
    bye = {"entry": event.entries.get(number=1).pk, "round_number": "2"}
    asked = client.post(bye_url, bye)
    assert asked.status_code == 200 and "Drop the proposed pairing of round 2?" in (
        asked.content.decode()
    )
    assert not ByeRequest.objects.exists() and event.rounds.filter(number=2).exists()
    assert client.post(bye_url, {**bye, "confirmed": "1"}).status_code == 302
    assert ByeRequest.objects.filter(round_number=2).exists()
    assert not event.rounds.filter(number=2).exists()
    # Without a proposal to drop, the page still asks, and says nothing is dropped.
    third = {"entry": event.entries.get(number=2).pk, "round_number": "3"}
    asked = client.post(bye_url, third)
    assert asked.status_code == 200 and "Drop the proposed" not in asked.content.decode()
    assert client.post(bye_url, {**third, "confirmed": "1"}).status_code == 302
    assert ByeRequest.objects.filter(round_number=3).exists()


def test_a_late_change_confirmed_once_the_event_finished_says_why(client, organiser, event):
    """The event finished while the confirmation page was open: the refusal went onto a form
    the finished event's pairs page no longer draws, so the organiser saw no reason at all."""
    client.force_login(organiser)
    late = {"player1": "Laia Puig", "player2": "Joan Vidal"}
    bye = {"entry": event.entries.get(number=1).pk, "round_number": "2"}
    entries_url = reverse("tournaments:entries", args=[event.pk])
    bye_url = reverse("tournaments:bye_request_add", args=[event.pk])
    assert client.post(entries_url, late).status_code == 200
    assert client.post(bye_url, bye).status_code == 200
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    for url, data, refusal in (
        (entries_url, late, "Cannot register pairs: the event is finished."),
        (bye_url, bye, "Cannot record a requested bye: the event is finished."),
    ):
        page = client.post(url, {**data, "confirmed": "1"}, follow=True)
        assert refusal in page.content.decode(), refusal
        assert "The event is finished: its pairs no longer change." in page.content.decode()
    assert event.entries.count() == 4 and not ByeRequest.objects.exists()


def test_a_late_entry_the_service_would_refuse_is_refused_before_asking(client, organiser, event):
    client.force_login(organiser)
    one = event.entries.get(number=1).pair
    url = reverse("tournaments:entries", args=[event.pk])
    again = {"player1": one.player2.name.upper(), "player2": one.player1.name}
    refused = client.post(url, again)
    assert refused.status_code == 400 and 'id="plan"' not in refused.content.decode()
    assert "already registered as pair 1" in refused.content.decode()
    same = client.post(url, {"player1": "Laia Puig", "player2": "laia  puig"})
    assert same.status_code == 400 and "the same person" in same.content.decode()
    assert event.entries.count() == 4
