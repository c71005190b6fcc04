"""The next round's pairings come from a Celery task (issue 6, ``propose_pairings``): queued when
a round closes, after commit; a round proposed by hand meanwhile is left as it is; a round the
method does not have is not proposed, and the dashboard then offers to finish the event."""

import random
import re

import pytest
from django.urls import reverse

from scoring.methods import next_pairing
from tests.conftest import start_four_pairs, wait_for
from tests.factories import PairFactory
from tests.foundation.test_celery_worker import _play_round_one
from tests.teams.conftest import play_team_round, team_event
from tests.tournaments.test_pairing_methods import play, running
from tournaments import tasks
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Entry, Event, Round
from tournaments.scoring_io import event_input
from tournaments.services import Conflict, changes, events
from tournaments.services.pairings import pairings_propose

# Groups of two, one qualifier each, and a repesca of two that needs a point nobody who lost
# the group's only match has: the final is round 2 of the 3 planned (this seed deals no draw).
EARLY_FINAL = {
    "format": "groups",
    "group_size": 2,
    "qualifiers": 1,
    "repesca": 2,
    "repesca_min_points": 1,
    "match_mode": "boards",
    "rounds_count": 6,
}
EARLY_FINAL_SEED = "early-final-0"


def _seated(rnd: Round) -> list[tuple[int, int]]:
    return [(t.ns.number, t.ew.number) for t in rnd.tables.select_related("ns", "ew")]


def _expected(event: Event, number: int) -> list[tuple[int, int]]:
    """What the event's method pairs for round ``number``, by the pure function."""
    played = list(event.rounds.filter(number__lt=number).order_by("number"))
    numbers = {e.pk: e.number for e in event.entries.all()}
    pairing = next_pairing(event_input(event, rounds=played))
    return [(numbers[ns], numbers[ew]) for ns, ew in pairing.tables]


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_proposes_the_next_round_when_a_round_closes(celery_worker_process, organiser):
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    events.round_close(rnd=event.rounds.get(number=1), actor=Actor(user=organiser))
    proposed = wait_for(
        lambda: Round.objects.filter(event=event, number=2, tables__isnull=False).first(),
        timeout=30,
    )
    assert proposed is not None, "the worker never proposed round 2"
    assert proposed.status == Round.Status.PENDING
    assert _seated(proposed) == _expected(event, 2)
    assert not {(1, 2), (2, 1), (3, 4), (4, 3)} & set(_seated(proposed))  # no rematch


@pytest.mark.django_db
def test_closing_queues_the_proposal_after_commit(organiser, django_capture_on_commit_callbacks):
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        events.round_close(rnd=event.rounds.get(number=1), actor=Actor(user=organiser))
        assert not event.rounds.filter(number=2).exists()  # nothing before the commit
    for callback in queued:
        callback()
    assert _seated(event.rounds.get(number=2)) == _expected(event, 2)


@pytest.mark.django_db
def test_a_round_proposed_and_changed_by_hand_is_left_as_it_is(organiser):
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor)  # the task's run is lost
    pairings_propose(event.pk, 2, actor=actor)
    rnd = event.rounds.get(number=2)
    first, second = rnd.tables.order_by("number")
    events.round_swap(rnd=rnd, actor=actor, entry_a=first.ns_id, entry_b=second.ns_id)
    by_hand = (_seated(rnd), sorted(rnd.tables.values_list("code_ns", "code_ew")))
    assert tasks.propose_pairings.apply(args=[event.pk, 2]).get() == 0
    assert (_seated(rnd), sorted(rnd.tables.values_list("code_ns", "code_ew"))) == by_hand


@pytest.mark.django_db
def test_a_round_the_method_does_not_have_is_not_proposed_and_the_event_can_finish(
    client, organiser
):
    """Groups of two, one qualifier each and a repesca nobody reaches: the final is round 2,
    though three rounds were planned (docs/organisers.md §4)."""
    actor = Actor(user=organiser)
    event = events.event_create(actor=actor, name="Groups", boards_per_round=3, **EARLY_FINAL)
    Event.objects.filter(pk=event.pk).update(seed=EARLY_FINAL_SEED)
    events.registration_open(event=event, actor=actor)
    for i in range(4):
        events.entry_register(event=event, actor=actor, player1=f"A{i}", player2=f"B{i}")
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event = Event.objects.get(pk=event.pk)
    assert event.rounds_count == 3
    rng = random.Random(2)
    for number in (1, 2):
        play_team_round(event, actor, number, rng)  # pairs or teams: propose, play, close
    assert event.rounds.get(number=2).tables.count() == 1  # the final
    assert tasks.propose_pairings.apply(args=[event.pk, 3]).get() == 0
    assert not event.rounds.filter(number=3).exists()
    client.force_login(organiser)
    page = client.get(reverse("tournaments:event_dashboard", args=[event.pk])).content.decode()
    assert "Propose round 3" not in page and "Finish the event" in page


def _next_step(client, event) -> str:
    page = client.get(reverse("tournaments:event_dashboard", args=[event.pk])).content.decode()
    return re.search(r'id="next-step"[^>]*>(.*?)<', page, re.S).group(1).strip()


@pytest.mark.django_db
def test_a_team_knockout_final_reached_early_offers_to_finish(client, organiser):
    actor = Actor(user=organiser)
    event = team_event(actor, 4, seed=EARLY_FINAL_SEED, **EARLY_FINAL)
    rng = random.Random(2)
    for number in (1, 2):
        play_team_round(Event.objects.get(pk=event.pk), actor, number, rng)
    assert event.rounds.get(number=2).team_matches.count() == 1  # the final
    client.force_login(organiser)
    assert _next_step(client, event) == "Finish the event"


@pytest.mark.django_db
def test_an_old_late_entry_in_groups_still_offers_to_propose(client, organiser):
    """docs/organisers.md: an event stored with such a late entry before the rule refusing it
    still shows its pages; proposing its next round says why it cannot be paired."""
    actor = Actor(user=organiser)
    event = running(actor, 4, format=Event.Format.GROUPS, group_size=2, qualifiers=1)
    play(event, actor, 1, random.Random(5))
    Entry.objects.create(event=event, pair=PairFactory(), number=5, joins_round=2)
    client.force_login(organiser)
    assert _next_step(client, event) == "Propose round 2"


@pytest.mark.django_db
def test_finishing_early_warns_and_drops_the_proposed_round(
    client, organiser, django_capture_on_commit_callbacks
):
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    with django_capture_on_commit_callbacks(execute=True):
        events.round_close(rnd=event.rounds.get(number=1), actor=actor)
    assert event.rounds.get(number=2).status == Round.Status.PENDING  # proposed by the task
    client.force_login(organiser)
    url = reverse("tournaments:event_finish", args=[event.pk])
    page = client.get(url).content.decode()
    assert "Only 1 of the 3 planned rounds has been played." in page
    assert "Round 2 was proposed but not opened: its pairings are dropped." in page
    assert client.post(url).status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    entry = AuditEntry.objects.filter(event=event, action="event_status").latest("pk")
    assert entry.changes == {"status": ["running", "finished"], "dropped_proposal": [2, None]}


@pytest.mark.django_db
def test_rulings_on_a_closed_round_drop_the_proposal_and_pair_it_anew(
    organiser, django_capture_on_commit_callbacks
):
    """The next round, proposed at the close, was paired without what the referees rule once
    the round is reopened for rulings: dropped then, proposed anew when the rulings end."""
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    with django_capture_on_commit_callbacks(execute=True):
        events.round_close(rnd=event.rounds.get(number=1), actor=actor)
    assert event.rounds.filter(number=2).exists()
    events.round_rulings(rnd=event.rounds.get(number=1), actor=actor, reopen=True, reason="late")
    assert not event.rounds.filter(number=2).exists()
    reopened = AuditEntry.objects.filter(action="round_reopened_for_ruling").get()
    assert reopened.changes["dropped_proposal"] == [2, None]
    with django_capture_on_commit_callbacks(execute=True):
        events.round_rulings(rnd=event.rounds.get(number=1), actor=actor, reopen=False)
    assert _seated(event.rounds.get(number=2)) == _expected(event, 2)
    # An open next round is the tables' own: reopening for rulings leaves it as it is.
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    events.round_rulings(rnd=event.rounds.get(number=1), actor=actor, reopen=True, reason="again")
    assert event.rounds.get(number=2).status == Round.Status.OPEN


@pytest.mark.django_db
def test_the_finish_is_not_offered_while_a_round_is_open(client, running_event, organiser):
    """An open round has not been played: the service refuses to finish then; the dashboard
    does not offer it, and the confirmation page sends the organiser to the round."""
    client.force_login(organiser)
    dashboard = client.get(reverse("tournaments:event_dashboard", args=[running_event.pk]))
    assert "Finish the event…" not in dashboard.content.decode()
    page = client.get(reverse("tournaments:event_finish", args=[running_event.pk]), follow=True)
    assert page.redirect_chain[-1][0] == reverse(
        "tournaments:round_detail", args=[running_event.pk, 1]
    )
    assert "Close the open round first." in page.content.decode()


@pytest.mark.django_db
def test_nothing_is_paired_while_the_round_before_is_open_for_rulings(client, organiser):
    """A proposal queued at the close and delivered late (a busy worker, a retry), or asked by
    the organiser, after the round was reopened for rulings, would pair without them, and the
    rulings' end would leave it: refused, and the dashboard's next step is to end them."""
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor)  # its task held back
    events.round_rulings(rnd=event.rounds.get(number=1), actor=actor, reopen=True, reason="late")
    assert tasks.propose_pairings.apply(args=[event.pk, 2]).get() == 0
    with pytest.raises(Conflict, match="Round 1 is open for rulings"):
        pairings_propose(event.pk, 2, actor=actor)
    assert not event.rounds.filter(number=2).exists()
    client.force_login(organiser)
    assert _next_step(client, event) == "End the rulings on round 1"
    page = client.get(reverse("tournaments:round_detail", args=[event.pk, 2])).content.decode()
    assert "Round 1 is open for rulings: the next round is paired when they end" in page


@pytest.mark.django_db
def test_the_round_after_a_proposed_one_waits_for_its_close(
    organiser, django_capture_on_commit_callbacks
):
    """Round 2 proposed (not played): proposing round 3 said results were missing at every
    table of round 2; it is the round's state, as docs/api.md names it (409 at round)."""
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    with django_capture_on_commit_callbacks(execute=True):
        events.round_close(rnd=event.rounds.get(number=1), actor=actor)
    with pytest.raises(Conflict, match="Close round 2 first.") as refused:
        pairings_propose(event.pk, 3, actor=actor)
    assert refused.value.field == "round"


@pytest.mark.django_db
def test_rulings_on_the_last_round_promise_no_next_round(client, organiser):
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=1)
    _play_round_one(event)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor)
    events.round_rulings(rnd=event.rounds.get(number=1), actor=actor, reopen=True, reason="late")
    client.force_login(organiser)
    assert _next_step(client, event) == "Finish the event"


@pytest.mark.django_db
def test_a_round_unopened_during_the_rulings_before_it_keeps_its_tables_and_says_nothing_else(
    client, organiser, django_capture_on_commit_callbacks
):
    """Round 2 opened, round 1 reopened for rulings (round 2 left alone), round 2 un-opened:
    it keeps its pairing, and its page does not promise one made when the rulings end."""
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser, rounds_count=3)
    _play_round_one(event)
    with django_capture_on_commit_callbacks(execute=True):
        events.round_close(rnd=event.rounds.get(number=1), actor=actor)
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    events.round_rulings(rnd=event.rounds.get(number=1), actor=actor, reopen=True, reason="late")
    changes.round_unopen(rnd=event.rounds.get(number=2), actor=actor, reason="wrong pairing")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:round_detail", args=[event.pk, 2])).content.decode()
    assert "paired when they end" not in page
    assert event.rounds.get(number=2).tables.count() == 2


@pytest.mark.django_db
def test_with_one_pair_left_the_next_step_is_to_finish_not_a_proposal_that_cannot_be(
    client, organiser
):
    """Three pairs of four withdrew during round 1: round 2 cannot be paired (proposing it says
    so), so the dashboard offers Finish, and says a reinstated pair would play on."""
    actor = Actor(user=organiser)
    event = start_four_pairs(organiser)
    for number in (2, 3, 4):
        changes.entry_withdraw(entry=event.entries.get(number=number), actor=actor)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    with pytest.raises(Conflict, match="Fewer than two pairs"):
        pairings_propose(event.pk, 2, actor=actor)
    client.force_login(organiser)
    assert _next_step(client, event) == "Finish the event"
    page = client.get(reverse("tournaments:event_dashboard", args=[event.pk])).content.decode()
    assert "Fewer than two pairs are still playing: round 2 has no table." in page
    assert "take back a bye request" in page  # a pair sitting round 2 out would play it too
    changes.entry_reinstate(entry=event.entries.get(number=2), actor=actor)
    assert _next_step(client, event) == "Propose round 2"


@pytest.mark.django_db
def test_a_round_robin_round_left_without_a_table_says_why_and_offers_to_finish(client, organiser):
    """Five pairs in a round robin; one pair of each of round 2's two tables withdraws: three
    pairs still play, but the round's schedule has no table left. Proposing it says so (not
    that fewer than two pairs play), and the dashboard offers Finish with the same reason."""
    actor = Actor(user=organiser)
    event = running(actor, 5, format=Event.Format.ROUND_ROBIN, rounds_count=5)
    play(event, actor, 1, random.Random(5))
    pairings_propose(event.pk, 2, actor=actor)
    for table in event.rounds.get(number=2).tables.all():
        changes.entry_withdraw(entry=table.ns, actor=actor)
    reason = (
        "Round 2 has no table: at each of its tables a pair has withdrawn or asked for a bye. "
        "Reinstate a withdrawn pair, take back a bye request, or finish the event."
    )
    with pytest.raises(Conflict, match=re.escape(reason)):
        pairings_propose(event.pk, 2, actor=actor)
    client.force_login(organiser)
    assert _next_step(client, event) == "Finish the event"
    page = client.get(reverse("tournaments:event_dashboard", args=[event.pk])).content.decode()
    assert reason in page
