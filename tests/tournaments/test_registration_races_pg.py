"""Sign-up links racing the organiser, on PostgreSQL (real row locks): every service that
touches a sign-up takes the event's lock first, so none dies of a deadlock, and a solo player's
link withdraws the pair they were matched into a moment ago (docs/clubs.md §3: "withdrawing by
either link withdraws the pair"). Each window between two locks is widened to make the crossing
certain."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory
from tests.tournaments.test_lifecycle_races_pg import _race, _refusals_only
from tests.tournaments.test_start_races_pg import _after, _slowed
from tournaments.actors import Actor
from tournaments.models import Registration
from tournaments.services import events
from tournaments.services import registrations as svc

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_check_in_and_the_pairs_withdrawal_at_once(organiser, monkeypatch):
    checking_in = _slowed(monkeypatch, events.PairBatch, "__init__", 0.5)  # between its locks
    event = EventFactory(organisers=[organiser], status="registration")
    pair = svc.registration_signup(
        event=event, player1="Anna", player2="Biel", email="p@x.org", language="en"
    )
    raised = _race(
        lambda: svc.registration_check_in(registration=pair, actor=Actor(user=organiser)),
        _after(lambda: svc.registration_withdraw(registration=pair), checking_in),
    )
    _refusals_only(raised)
    pair.refresh_from_db()
    # Checked in first, then withdrawn (the entry leaves the list); or withdrawn first, and the
    # check-in refused.
    assert pair.status == Registration.Status.WITHDRAWN and pair.entry_id is None
    assert not event.entries.exists()


def test_a_solo_link_withdraws_the_pair_it_was_just_matched_into(organiser, monkeypatch):
    matching = _slowed(monkeypatch, svc, "is_full", 0.5)  # the match holds the event's lock a while
    event = EventFactory(organisers=[organiser], status="registration")
    rosa = svc.registration_signup(event=event, player1="Rosa", email="s1@x.org", language="en")
    pere = svc.registration_signup(event=event, player1="Pere", email="s2@x.org", language="en")
    raised = _race(
        lambda: svc.registration_match(first=rosa, second=pere, actor=Actor(user=organiser)),
        _after(
            lambda: svc.registration_withdraw(registration=Registration.objects.get(pk=pere.pk)),
            matching,
        ),
    )
    _refusals_only(raised)
    rosa.refresh_from_db()
    pere.refresh_from_db()
    # Matched, then the pair withdrawn by Pere's link: never a confirmed pair with one of its
    # players' sign-ups withdrawn.
    assert (rosa.status, pere.status) == ("withdrawn", "matched"), (rosa.status, pere.status)
