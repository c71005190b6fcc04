"""Late entries by pairing method (docs/organisers.md "Late entries and requested byes"): a round
robin and groups-then-knockout draw every round from the pairs entered at the start (the Berger
table, the snake groups), so a pair added once the event runs would re-draw the schedule half
played (rematches, groups dealt again, a group of one pair). Such an event refuses a late entry,
on the pairs page and in the API; the Swiss still takes one. An event stored before this refusal
with such a late entry still answers its pages (a message, never a 500)."""

import random
import uuid

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PairFactory
from tests.tournaments.test_pairing_methods import play, running
from tournaments import selectors
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Entry, Event
from tournaments.services import ServiceError, events
from tournaments.services.late_entries import late_entry_register
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


SCHEDULED = [
    {"format": Event.Format.ROUND_ROBIN},
    {"format": Event.Format.GROUPS, "group_size": 4, "qualifiers": 2},
]


@pytest.mark.parametrize("options", SCHEDULED, ids=["roundrobin", "groups"])
@pytest.mark.parametrize("rounds_played", [0, 1])
def test_a_scheduled_format_refuses_a_late_entry(actor, options, rounds_played):
    event = running(actor, 8, **options)
    for number in range(1, rounds_played + 1):
        play(event, actor, number, random.Random(number))
    entries, audits = event.entries.count(), AuditEntry.objects.filter(event=event).count()
    with pytest.raises(ServiceError, match="takes no late entry") as err:
        late_entry_register(event=event, actor=actor, player1="L1", player2="L2")
    assert (err.value.field, err.value.status) == ("format", 409)
    assert event.entries.count() == entries
    assert AuditEntry.objects.filter(event=event).count() == audits


def test_the_swiss_still_takes_a_late_entry(actor):
    event = running(actor, 4, format=Event.Format.SWISS, rounds_count=3)
    play(event, actor, 1, random.Random(1))
    late = late_entry_register(event=event, actor=actor, player1="L1", player2="L2")
    assert late.joins_round == 2


def test_the_pairs_page_says_why_and_refuses_the_post(client, actor):
    event = running(actor, 4, format=Event.Format.ROUND_ROBIN)
    client.force_login(actor.user)
    url = reverse("tournaments:entries", args=[event.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="late-form"' not in page
    assert "takes no late entry" in page
    response = client.post(url, {"player1": "L1", "player2": "L2"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "takes no late entry" in response.content.decode()
    assert event.entries.count() == 4


def test_the_api_refuses_a_late_entry_with_a_409_at_format(actor):
    event = running(actor, 4, format=Event.Format.GROUPS, group_size=2, qualifiers=1)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(actor.user)
    response = api.post(
        f"/api/v1/events/{event.pk}/pairs",
        {"player1": "L1", "player2": "L2"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 409, response.content
    [error] = response.json()["errors"]
    assert error["field"] == "format" and "takes no late entry" in error["message"]
    # A batch hears it before its pairs' own problems.
    batch = api.post(
        f"/api/v1/events/{event.pk}/pairs",
        {"pairs": [{"player1": "L3", "player2": "l3"}, {"player1": "L4", "player2": "L5"}]},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert batch.status_code == 409, batch.content
    assert [e["field"] for e in batch.json()["errors"]] == ["format"]
    assert event.entries.count() == 4


def _legacy_late_entry(event, joins_round):
    """A late entry stored before the refusal existed (straight into the database)."""
    number = event.entries.count() + 1
    return Entry.objects.create(
        event=event, pair=PairFactory(), number=number, joins_round=joins_round
    )


def test_a_stored_groups_event_with_a_late_entry_still_answers_its_pages(client, actor):
    """Groups of 2 and 4 pairs, then a fifth pair stored as a late entry: the snake deals 5 into
    groups of 2, 2 and 1, and a group of one pair has no round robin (ValueError). The
    organiser's pages and the public ones answer; pairing the next round says why it cannot."""
    event = running(actor, 4, format=Event.Format.GROUPS, group_size=2, qualifiers=1)
    play(event, actor, 1, random.Random(5))
    _legacy_late_entry(event, joins_round=2)
    event.refresh_from_db()
    selectors.round_rules(event, 1)  # every reading of a round's rules
    standings_recompute(event.pk)
    client.force_login(actor.user)
    client.raise_request_exception = False
    for url in (
        reverse("tournaments:round_detail", args=[event.pk, 1]),
        reverse("tournaments:round_detail", args=[event.pk, 2]),
        reverse("tournaments:event_dashboard", args=[event.pk]),
        reverse("tournaments:entries", args=[event.pk]),
        reverse("public:standings", args=[event.pk]),
        reverse("public:groups", args=[event.pk]),
        reverse("public:crosstable", args=[event.pk]),
    ):
        response = client.get(url)
        assert response.status_code < 500, url
    with pytest.raises(ServiceError, match="a pair was added after the start"):
        pairings_propose(event.pk, 2, actor=actor)
    groups = client.get(reverse("public:groups", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "a pair was added after the start" in groups.content.decode()


# --- requested byes in a knockout round ----------------------------------------------------------


def test_a_requested_bye_in_a_knockout_round_is_refused_with_a_reason(client, actor):
    """8 pairs in groups of 4: rounds 1-3 are the groups, 4 and 5 the knockout. A pair that does
    not play a knockout round is out (scoring.groups), so the page refuses the request and says
    so; a group round still takes one."""
    from tournaments.models import ByeRequest
    from tournaments.services.late_entries import bye_request_add

    event = running(actor, 8, format=Event.Format.GROUPS, group_size=4, qualifiers=2)
    assert event.rounds_count == 5
    first = event.entries.get(number=1)
    with pytest.raises(ServiceError, match="Round 4 is a knockout round") as err:
        bye_request_add(entry=first, actor=actor, round_number=4)
    assert err.value.field == "round"
    client.force_login(actor.user)
    response = client.post(
        reverse("tournaments:bye_request_add", args=[event.pk]),
        {"entry": first.pk, "round_number": "5"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "Round 5 is a knockout round" in response.content.decode()
    assert not ByeRequest.objects.exists()
    bye_request_add(entry=first, actor=actor, round_number=3)
    assert ByeRequest.objects.filter(entry=first, round_number=3).exists()


def test_before_a_round_robin_starts_a_pair_may_ask_to_sit_out_any_of_its_rounds(
    client, organiser, actor
):
    """docs/organisers.md: a pair asks for a bye "before or during the event"; a round robin's
    number of rounds is the one its pairs make (six pairs: five), not the form's field."""
    from tournaments.models import ByeRequest

    event = events.event_create(
        actor=actor, name="Lliga", format=Event.Format.ROUND_ROBIN, rounds_count=3
    )
    events.registration_open(event=event, actor=actor)
    for i in range(6):
        events.entry_register(event=event, actor=actor, player1=f"A{i}", player2=f"B{i}")
    entry = event.entries.get(number=3)
    client.force_login(organiser)
    client.post(
        reverse("tournaments:bye_request_add", args=[event.pk]),
        {"entry": entry.pk, "round_number": 5, "confirmed": "1"},
    )
    assert ByeRequest.objects.filter(entry=entry, round_number=5).exists()
    refused = client.post(
        reverse("tournaments:bye_request_add", args=[event.pk]),
        {"entry": entry.pk, "round_number": 6},
    )
    assert not ByeRequest.objects.filter(entry=entry, round_number=6).exists()
    assert refused.status_code == 400
