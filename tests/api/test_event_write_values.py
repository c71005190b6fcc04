"""The event's options are stored as the API's serializer reads them: JSON booleans for the
nullable Sant Vicenç option, DRF's spellings of false for ``accelerated``, and an event whose
Sant Vicenç option is set can still have its details changed."""

import uuid

import pytest

from tests.api.event_run import API, login
from tournaments.models import Event


def _create(org, body):
    return org.post(f"{API}/events", body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))


@pytest.mark.parametrize("value", [True, False, None])
def test_sant_vicenc_takes_json_booleans(db, django_capture_on_commit_callbacks, value):
    org = login(django_capture_on_commit_callbacks).organiser
    made = _create(org, {"name": "B", "sant_vicenc_in_botifarra": value})
    assert made.status_code == 201, made.content
    assert made.json()["sant_vicenc_in_botifarra"] is value
    assert Event.objects.get(pk=made.json()["id"]).sant_vicenc_in_botifarra is value
    flipped = None if value is None else not value
    changed = org.patch(
        f"{API}/events/{made.json()['id']}", {"sant_vicenc_in_botifarra": flipped}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["sant_vicenc_in_botifarra"] is flipped


@pytest.mark.parametrize("value", [True, False])
def test_details_of_an_event_with_sant_vicenc_set_change(
    db, django_capture_on_commit_callbacks, value
):
    org = login(django_capture_on_commit_callbacks).organiser
    pk = _create(org, {"name": "B", "sant_vicenc_in_botifarra": value}).json()["id"]
    changed = org.patch(f"{API}/events/{pk}", {"venue": "Casal", "name": "C"}, format="json")
    assert changed.status_code == 200, changed.content
    event = Event.objects.get(pk=pk)
    assert (event.venue, event.name, event.sant_vicenc_in_botifarra) == ("Casal", "C", value)


@pytest.mark.parametrize("value", ["no", "off", "n", "f", "0", "False", 0, False])
def test_accelerated_is_stored_as_the_serializer_reads_it(
    db, django_capture_on_commit_callbacks, value
):
    org = login(django_capture_on_commit_callbacks).organiser
    made = _create(org, {"name": "B", "accelerated": value})
    assert made.status_code == 201, made.content
    assert made.json()["accelerated"] is False
    pk = made.json()["id"]
    assert org.patch(f"{API}/events/{pk}", {"accelerated": "yes"}, format="json").json()[
        "accelerated"
    ]
    changed = org.patch(f"{API}/events/{pk}", {"accelerated": value}, format="json")
    assert changed.status_code == 200, changed.content
    assert Event.objects.get(pk=pk).accelerated is False
