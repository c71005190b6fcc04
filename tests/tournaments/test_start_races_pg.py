"""The start, the pairs registered before it, a substitution, the pairing rules and new clubs
under concurrent requests (PostgreSQL, real threads, each on its own connection). Where a
race needs one request to hold its lock a moment for the other to arrive, a function called
inside its transaction is slowed down; the invariants are the docs' (docs/organisers.md)."""

import threading
import time

import pytest

from tests.conftest import start_four_pairs
from tests.factories import EventFactory, PairFactory, UserFactory
from tests.tournaments.test_lifecycle_races_pg import _race, _refusals_only
from tournaments import scoring_io, team_io
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Club, Entry, Event, Round, Substitution
from tournaments.services import ServiceError, changes, clubs, events, pairing_rules, teams
from tournaments.services import registrations as signups

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
REPEATS = 3


def _slowed(monkeypatch, owner, name: str, seconds: float = 0.3) -> threading.Event:
    """Slows ``owner.name`` down; the event returned is set once a call has entered it."""
    original = getattr(owner, name)
    entered = threading.Event()

    def slow(*args, **kwargs):
        entered.set()
        time.sleep(seconds)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)
    return entered


def _after(call, entered: threading.Event):
    """``call`` once the other request is inside the slowed function, holding its locks: a
    head start by sleeping lost the race on a loaded machine. Built just before the race: the
    set-up may have passed through the slowed function already."""
    entered.clear()

    def run() -> None:
        assert entered.wait(10), "the other request never reached the slowed function"
        call()

    return run


def _round_robin(organiser, pairs: int = 4) -> Event:
    event = EventFactory(
        organisers=[organiser], status="registration", format="roundrobin", round_robin="field"
    )
    for number in range(1, pairs + 1):
        Entry.objects.create(event=event, pair=PairFactory(), number=number)
    return event


def _start(event: Event, actor: Actor):
    return lambda: events.event_start(event=Event.objects.get(pk=event.pk), actor=actor)


def _started_and_refused(event: Event, actor: Actor, enter) -> None:
    """The start and ``enter`` (a little after it) at once: the event starts, ``enter`` is
    refused."""
    raised = _race(_start(event, actor), enter)
    _refusals_only(raised)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert isinstance(raised[1], ServiceError)


@pytest.mark.parametrize("repeat", range(REPEATS))
@pytest.mark.parametrize("how", ["check_in", "file"])
def test_pairs_entered_while_the_event_starts_are_refused(organiser, monkeypatch, how, repeat):
    """The start works out a round robin's rounds from the pairs entered then: a pair checked
    in, or a file of pairs imported, meanwhile is refused."""
    started = _slowed(monkeypatch, events, "_set_status")  # the start holds the event's lock
    event = _round_robin(organiser)
    actor = Actor(user=organiser)
    if how == "check_in":
        signed_up = signups.registration_signup(
            event=event, player1="Anna", player2="Biel", email="p@example.org", language="en"
        )
        enter = _after(
            lambda: signups.registration_check_in(registration=signed_up, actor=actor), started
        )
    else:
        stale = Event.objects.get(pk=event.pk)
        text = "Xa,Xb\nYa,Yb\n"
        enter = _after(
            lambda: events.entries_import_csv(event=stale, actor=actor, text=text), started
        )
    _started_and_refused(event, actor, enter)
    assert event.entries.count() == 4
    assert event.rounds_count == scoring_io.rounds_planned(event)


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_team_registered_while_the_event_starts_is_refused(organiser, monkeypatch, repeat):
    started = _slowed(monkeypatch, events, "_set_status")
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor,
        name="Equips",
        competitor="teams",
        format="roundrobin",
        round_robin="field",
        boards_per_round=2,
    )
    events.registration_open(event=event, actor=actor)
    for number in range(1, 5):
        players = [f"T{number}P{k}" for k in range(1, 5)]
        teams.team_register(event=event, actor=actor, name=f"Equip {number}", players=players)
    stale = Event.objects.get(pk=event.pk)
    late = [f"LP{k}" for k in range(1, 5)]
    register = _after(
        lambda: teams.team_register(event=stale, actor=actor, name="Tard", players=late), started
    )
    _started_and_refused(event, actor, register)
    assert event.teams.count() == 4
    assert event.rounds_count == team_io.team_rounds_planned(event)


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_start_pressed_twice_starts_once(organiser, monkeypatch, repeat):
    _slowed(monkeypatch, events, "_set_status")
    event = _round_robin(organiser)
    actor = Actor(user=organiser)
    raised = _race(_start(event, actor), _start(event, actor))
    _refusals_only(raised)
    assert sum(e is None for e in raised) == 1
    started = AuditEntry.objects.filter(event=event, action="event_status")
    assert list(started.values_list("changes", flat=True)) == [
        {"status": ["registration", "running"]}
    ]


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_no_event_starts_with_one_pair(organiser, monkeypatch, repeat):
    removing = _slowed(
        monkeypatch, changes, "withdrawal_plan"
    )  # the removal holds the event's lock
    event = EventFactory(organisers=[organiser], status="registration")
    pairs = [Entry.objects.create(event=event, pair=PairFactory(), number=n) for n in (1, 2)]
    actor = Actor(user=organiser)

    def remove() -> None:
        entry = Entry.objects.select_related("event").get(pk=pairs[1].pk)
        changes.entry_withdraw(entry=entry, actor=actor)

    _refusals_only(_race(remove, _after(_start(event, actor), removing)))
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION
    assert event.entries.count() == 1


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_substitution_while_the_last_round_closes_has_a_round_to_play(
    organiser, monkeypatch, repeat
):
    """ "Once every round has been played there is no round left for them: the substitution
    is refused" (docs/organisers.md)."""
    substituting = _slowed(
        monkeypatch, changes, "pair_display_name"
    )  # inside the substitution's transaction
    event = start_four_pairs(organiser, boards_per_round=2, rounds_count=1)
    actor = Actor(user=organiser)
    entry = event.entries.get(number=1)
    rnd = event.rounds.get(number=1)

    def substitute() -> None:
        changes.player_substitute(
            entry=Entry.objects.select_related("event").get(pk=entry.pk),
            actor=actor,
            seat=1,
            name="Carla",
        )

    def close() -> None:
        events.round_close(
            rnd=Round.objects.select_related("event").get(pk=rnd.pk),
            actor=actor,
            accept_missing=True,
        )

    _refusals_only(_race(substitute, _after(close, substituting)))
    for substitution in Substitution.objects.filter(entry=entry):
        assert substitution.from_round <= event.rounds_count


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_a_rule_removed_twice_at_once_is_one_change(organiser, repeat):
    event = EventFactory(organisers=[organiser], status="registration")
    a, b = (Entry.objects.create(event=event, pair=PairFactory(), number=n) for n in (1, 2))
    actor = Actor(user=organiser)
    rule = pairing_rules.forbidden_add(event=event, actor=actor, a=a.pk, b=b.pk)
    remove = lambda: pairing_rules.forbidden_remove(pair=rule, actor=actor)  # noqa: E731
    _refusals_only(_race(remove, remove))
    assert AuditEntry.objects.filter(event=event, action="forbidden_pair_removed").count() == 1


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_one_new_club_named_at_once_in_two_events_is_one_club(organiser, repeat):
    """ "It is found whatever its capitals, spacing or accents" (docs/organisers.md)."""
    other = UserFactory()
    first = EventFactory(organisers=[organiser], status="registration", club=None)
    second = EventFactory(organisers=[other], status="registration", club=None)

    def register(event, user, club):
        return lambda: events.entry_register(
            event=event, actor=Actor(user=user), player1="Anna", player2="Biel", club=club
        )

    _refusals_only(
        _race(
            register(first, organiser, f"Casal Nou {repeat}"),
            register(second, other, f"casal nou {repeat}"),
        )
    )
    assert Club.objects.filter(name__iexact=f"casal nou {repeat}").count() == 1


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_two_events_creating_one_new_club_at_once(organiser, repeat):
    """One creates the club and becomes its organiser; the other is refused as it would be a
    moment later: never a database error."""
    other = UserFactory()

    def create(user):
        def run() -> None:
            club = clubs.club_for(name=f"Penya Nova {repeat}", actor=Actor(user=user))
            events.event_create(actor=Actor(user=user), name=f"Vespre {user.pk}", club=club)

        return run

    raised = _race(create(organiser), create(other))
    _refusals_only(raised)
    assert sum(e is None for e in raised) == 1
    (club,) = Club.objects.filter(name__iexact=f"penya nova {repeat}")
    assert club.organisers.count() == 1 and Event.objects.filter(club=club).count() == 1


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_an_event_edited_while_a_pair_registers_naming_one_new_club(organiser, monkeypatch, repeat):
    """Both take the event's lock, then the new club's name: they wait for each other, in
    that order on both paths, instead of deadlocking (PostgreSQL aborted one: a 500)."""
    naming = _slowed(monkeypatch, clubs, "named", 0.4)  # each holds its locks a while
    event = EventFactory(organisers=[organiser], status="registration", club=None)
    actor = Actor(user=organiser)

    def edit() -> None:
        events.event_update(
            event=Event.objects.get(pk=event.pk), actor=actor, club_name="Penya Nova"
        )

    def register() -> None:
        events.entry_register(
            event=Event.objects.get(pk=event.pk),
            actor=actor,
            player1="Anna",
            player2="Biel",
            club="penya nova",
        )

    _refusals_only(_race(edit, _after(register, naming)))
    (club,) = Club.objects.filter(name__iexact="penya nova")
    assert Event.objects.get(pk=event.pk).club == club
    assert event.entries.get().pair.club == club
