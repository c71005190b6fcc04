"""The live evening's changes where an audit against docs/organisers.md found the product
wrong: a played board waiting for its confirmation is no reason to forfeit; un-opening a round
neither drops a withdrawal's forfeit (the pair would play) nor keeps its clock and time calls; a
forfeited table is finished, not behind."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.tournaments.test_evening_changes import _enter, _play_round, _round, _tables
from tournaments import selectors
from tournaments.actors import Actor
from tournaments.clock import NOT_STARTED, round_clock
from tournaments.services import Conflict, changes, events
from tournaments.services import clock as clock_svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


def test_a_pair_whose_last_board_awaits_confirmation_withdraws_without_forfeit(
    running_event, actor
):
    t1, _t2 = _tables(running_event, 1)
    boards = list(_round(running_event, 1).board_numbers)
    for number in boards[:-1]:
        _enter(t1, number, totals=(60, 12))
    _enter(t1, boards[-1], totals=(60, 12), confirm=False)  # played, the opponents to confirm
    plan = changes.withdrawal_plan(running_event.entries.get(number=t1.ns.number))
    assert plan.forfeit is None


def test_a_round_with_a_withdrawal_is_not_unopened_and_a_withdrawn_pair_is_not_seated(
    running_event, actor
):
    t1, _t2 = _tables(running_event, 1)
    changes.entry_withdraw(entry=t1.ns, actor=actor, reason="gone home")
    with pytest.raises(Conflict) as refused:
        changes.round_unopen(rnd=_round(running_event, 1), actor=actor, reason="mistake")
    assert refused.value.field == "round"
    assert _tables(running_event, 1)[0].forfeited_by == "NS"


def test_opening_a_round_that_seats_a_withdrawn_pair_is_refused(running_event, actor):
    from tests.tournaments.test_evening_changes import _close, _play_round, _propose_round_2

    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    rnd = _propose_round_2(running_event, actor)
    seated = rnd.tables.order_by("number").first().ns
    type(seated).objects.filter(pk=seated.pk).update(withdrawn_after_round=1)
    with pytest.raises(Conflict, match=f"Pair {seated.number} has withdrawn"):
        events.round_open(rnd=_round(running_event, 2), actor=actor)


def test_unopening_stops_the_clock_and_forgets_the_time_called(running_event, actor):
    rnd = _round(running_event, 1)
    ago = timezone.now() - datetime.timedelta(minutes=5)
    clock_svc.clock_start(rnd=rnd, actor=actor, minutes=1, now=ago)
    t1, _t2 = _tables(running_event, 1)
    clock_svc.table_time_called(table=t1, actor=actor, deal=1)
    changes.round_unopen(rnd=_round(running_event, 1), actor=actor, reason="opened by mistake")
    events.round_open(rnd=_round(running_event, 1), actor=actor)
    t1.refresh_from_db()
    assert t1.time_after is None
    assert round_clock(_round(running_event, 1)).state in (NOT_STARTED, "none")


def test_a_forfeited_table_is_not_behind(running_event, actor):
    t1, t2 = _tables(running_event, 1)
    changes.entry_withdraw(entry=t1.ns, actor=actor)
    for number in _round(running_event, 1).board_numbers:
        _enter(t2, number)
    rows = {r.table.pk: r for r in selectors.round_tables(_round(running_event, 1))}
    assert not rows[t1.pk].behind


def test_the_screens_find_your_table_lists_the_pair_with_the_bye(client, running_event, actor):
    from django.urls import reverse

    from tests.tournaments.test_evening_changes import _close, _play_round
    from tournaments.services import late_entries

    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    late = late_entries.late_entry_register(
        event=running_event, actor=actor, player1="Zoe Late", player2="Aaron Late"
    )
    pairs = list(running_event.entries.exclude(pk=late.pk).order_by("number"))
    rnd = events.round_propose(
        event=running_event,
        actor=actor,
        number=2,
        tables=[(pairs[0].pk, pairs[2].pk), (pairs[1].pk, pairs[3].pk)],
        bye=late.pk,
    )
    events.round_open(rnd=rnd, actor=actor)
    running_event.published = True
    running_event.save(update_fields=["published"])
    page = client.get(reverse("public:screen", args=[running_event.pk]))
    seats = {s.player: s for s in page.context["seats"]}
    assert (seats["Aaron Late"].table, seats["Aaron Late"].direction) == (None, "bye")
    assert len(seats) == 2 * running_event.entries.count()


def test_pairing_again_from_scratch_asks_first_and_names_what_it_replaces(
    client, organiser, running_event, actor
):
    from django.urls import reverse

    from tests.tournaments.test_evening_changes import _close, _play_round, _propose_round_2

    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    rnd = _propose_round_2(running_event, actor)
    changes.pairing_set(rnd=rnd, actor=actor, tables=[(4, 1), (3, 2)])
    client.force_login(organiser)
    url = reverse("tournaments:round_propose", args=[running_event.pk, 2])
    page = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 2]))
    assert f'href="{url}"' in page.content.decode()  # a link to the question, not a button
    asked = client.get(url)
    assert asked.status_code == 200 and "any change made to it by hand" in asked.content.decode()

    def seats():
        return [
            (t.ns.number, t.ew.number) for t in _round(running_event, 2).tables.order_by("number")
        ]

    before = set(_round(running_event, 2).tables.values_list("pk", flat=True))
    assert seats() == [(4, 1), (3, 2)]  # asking changed nothing
    client.post(url)
    assert not before & set(_round(running_event, 2).tables.values_list("pk", flat=True))


def test_proposing_a_round_for_the_last_pair_left_is_refused_clearly():
    """Two pairs, one withdraws: a round of a bye only could never be opened."""
    from tests.factories import EventFactory, PairFactory, UserFactory
    from tournaments.models import Board, BoardResult, Entry
    from tournaments.services.changes import entry_withdraw
    from tournaments.services.pairings import pairings_propose

    organiser = UserFactory()
    event = EventFactory(
        organisers=[organiser], status="registration", rounds_count=3, boards_per_round=1
    )
    actor = Actor(user=organiser)
    first, second = (
        Entry.objects.create(event=event, pair=PairFactory(), number=n) for n in (1, 2)
    )
    events.event_start(event=event, actor=actor)
    event.refresh_from_db()
    events.boards_generate(event=event)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    table = rnd.tables.get()
    BoardResult.objects.create(
        table=table,
        board=Board.objects.get(event=event, number=1),
        status="confirmed",
        source="short",
        trump="oros",
        totals_ns=46,
        totals_ew=26,
        multiplier=1,
        score_ns=10,
        score_ew=0,
        entered_by="x",
        entered_side="NS",
    )
    events.round_close(rnd=rnd, actor=actor)
    entry_withdraw(entry=second, actor=actor)
    with pytest.raises(Conflict, match="Fewer than two pairs are still playing") as refused:
        pairings_propose(event.pk, 2, actor=actor)
    assert refused.value.field == "round"
    assert not event.rounds.filter(number=2, bye=first).exists()


def test_closing_asks_about_a_forfeited_tables_entered_board(running_event, actor):
    """A forfeited table owes no more boards, but one it played and entered is played: it
    stays on the travellers, to be confirmed (or ruled) before the round closes."""
    from tournaments.models import Table

    first, second = _tables(running_event, 1)
    _enter(first, 1, confirm=False)  # entered, not confirmed; board 2 never played
    for board in (1, 2):
        _enter(second, board)
    plan = changes.entry_withdraw(entry=first.ns, actor=actor, reason="left")
    assert plan.forfeit is not None and plan.forfeit.pk == first.pk
    assert Table.objects.get(pk=first.pk).forfeited_by
    outstanding = selectors.round_outstanding(_round(running_event, 1))
    assert [(o.table.pk, o.unconfirmed, o.missing) for o in outstanding] == [(first.pk, [1], [])]
    with pytest.raises(Conflict):
        events.round_close(rnd=_round(running_event, 1), actor=actor)
    assert _round(running_event, 1).status == "open"


def test_a_round_is_not_unopened_after_its_bye_pair_withdrew(organiser, actor):
    """docs: un-open needs that no pair has withdrawn from the round; the bye's pair has no
    table to forfeit, but it withdrew after this round all the same."""
    from tests.factories import EventFactory, PairFactory
    from tournaments.models import Entry
    from tournaments.services.pairings import pairings_propose

    event = EventFactory(organisers=[organiser], status="registration")
    for n in range(1, 6):
        Entry.objects.create(event=event, pair=PairFactory(), number=n)
    events.event_start(event=event, actor=actor)
    event.refresh_from_db()
    events.boards_generate(event=event)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    plan = changes.entry_withdraw(entry=rnd.bye, actor=actor, reason="went home")
    assert plan.after_round == 1 and plan.forfeit is None
    with pytest.raises(Conflict, match="A pair withdrew from this round"):
        changes.round_unopen(rnd=rnd, actor=actor, reason="opened by mistake")
    assert _round(event, 1).status == "open"


def test_the_rooms_screen_marks_a_withdrawn_pair_in_the_standings(
    client, running_event, actor, django_capture_on_commit_callbacks
):
    """docs: a pair that withdraws stays in the standings marked withdrawn; the screen too."""
    from django.urls import reverse

    running_event.published = True
    running_event.save(update_fields=["published"])
    with django_capture_on_commit_callbacks(execute=True):
        _play_round(running_event, 1)
        events.round_close(rnd=_round(running_event, 1), actor=actor)
        changes.entry_withdraw(entry=running_event.entries.get(number=2), actor=actor)
    screen = client.get(reverse("public:screen", args=[running_event.pk]))
    standings = screen.content.decode().split("Standings after round")[1].split("</table>")[0]
    assert standings.count('class="badge withdrawn"') == 1


def test_ending_rulings_that_were_never_reopened_says_so(client, running_event, organiser):
    from django.urls import reverse

    from tournaments.models import AuditEntry

    client.force_login(organiser)
    before = AuditEntry.objects.filter(event=running_event).count()
    answer = client.post(
        reverse("tournaments:round_rulings", args=[running_event.pk, 1]),
        {"reopen": "0"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    said = [str(m) for m in answer.context["messages"]]
    assert said == ["Rulings on round 1 are not open."]
    assert AuditEntry.objects.filter(event=running_event).count() == before
