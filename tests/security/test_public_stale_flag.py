"""The public's "being updated" follows the rounds it may see, not the open round's results.

Every result a table of the open round stores asks for a recomputation. Told to the public (the
standings page's notice and its ETag, the API's ``stale``), it would say when a table stored
one. The public is told of pending work on the rounds it sees (a ruling, a correction of a
closed round); the organisers and referees of everything."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.test_screen_etag_privacy import _enter, _round_2_open
from tournaments import queue
from tournaments.models import BoardResult, Event, Table

pytestmark = pytest.mark.django_db


def _recomputation_pending(event, last_started=None):
    """As between a result's commit and the worker's run: stale, a recomputation running; the
    last one started at ``last_started`` (by default a minute ago)."""
    Event.objects.filter(pk=event.pk).update(
        standings_updated_at=last_started or timezone.now() - timezone.timedelta(minutes=1),
        standings_requested_at=timezone.now(),
    )
    cache.set(queue.STANDINGS_LOCK.format(event.pk), "1", timeout=60)


def _stale(client, event):
    answer = client.get(f"/api/v1/events/{event.pk}/standings")
    assert answer.status_code == 200
    return answer.json()["stale"]


def test_the_open_rounds_pending_recomputation_is_the_staffs_alone(
    client, running_event, organiser
):
    event = running_event
    rnd1 = event.rounds.get(number=1)
    _enter(Table.objects.get(round=rnd1, number=1), rnd1.board_numbers[0])
    rnd2 = _round_2_open(event, organiser)
    page = reverse("public:standings", args=[event.pk])
    before = client.get(page)
    assert before.status_code == 200
    recomputed = timezone.now()  # the last recomputation read round 1's results
    _enter(Table.objects.get(round=rnd2, number=1), rnd2.board_numbers[0])
    _recomputation_pending(event, recomputed)
    try:
        assert queue.standings_state(Event.objects.get(pk=event.pk)) == queue.UPDATING
        staff = APIClient()
        staff.force_authenticate(organiser)
        assert _stale(staff, event) is True
        assert _stale(APIClient(), event) is False
        again = client.get(page, HTTP_IF_NONE_MATCH=before["ETag"])
        assert again.status_code == 304, "the public page moved with the open round's result"

        # A closed round's result changed after the standings shown: the public is told.
        BoardResult.objects.filter(table__round__event=event, table__round__number=1).update(
            updated_at=timezone.now()
        )
        assert _stale(APIClient(), event) is True
        assert client.get(page, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200
    finally:
        cache.delete(queue.STANDINGS_LOCK.format(event.pk))


def test_before_any_round_closes_the_public_is_told_nothing_is_pending(client, running_event):
    """Round 1 open, nothing closed: the public is shown no standings, and the recomputations
    its results ask for are not theirs to hear of."""
    event = running_event
    event.published = True
    event.save(update_fields=["published"])
    rnd1 = event.rounds.get(number=1)
    _enter(Table.objects.get(round=rnd1, number=1), rnd1.board_numbers[0])
    _recomputation_pending(event)
    try:
        assert _stale(APIClient(), event) is False
        page = client.get(reverse("public:standings", args=[event.pk])).content.decode()
        assert "being updated" not in page
    finally:
        cache.delete(queue.STANDINGS_LOCK.format(event.pk))
