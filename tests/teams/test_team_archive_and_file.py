"""A team event has no archive and no tournament file (docs/formats.md): both formats hold pairs
events, and an archive without the teams, matches and line-ups imported as an empty team event.
Each refusal says why, and the import of such an archive stores nothing."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import EventFactory
from tests.teams.conftest import team_event
from tournaments.archive import event_archive
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


def test_a_team_events_archive_is_refused_with_the_reason(actor, organiser):
    event = team_event(actor)
    response = _api(organiser).get(f"/api/v1/events/{event.pk}/archive")
    assert response.status_code == 409
    assert "team event has no archive" in response.json()["detail"]
    with pytest.raises(CommandError, match="team event has no archive"):
        call_command("export_event", str(event.pk), stdout=io.StringIO())


def test_an_archive_of_a_team_event_is_not_imported(organiser):
    pairs_event = EventFactory(organisers=[organiser], status="finished")
    document = event_archive(pairs_event, exported_at=pairs_event.created_at)
    document["event"]["options"]["competitor"] = Event.Competitor.TEAMS
    before = Event.objects.count()
    response = _api(organiser).post("/api/v1/events/import", document, format="json")
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == ["event.options.competitor"]
    assert Event.objects.count() == before


def test_a_team_event_has_no_tournament_file(actor, client, organiser):
    event = team_event(actor)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED, published=True)
    client.force_login(organiser)
    response = client.get(f"/e/{event.pk}/export/tournament.btf")
    assert response.status_code == 404
    assert "team event has no tournament file" in response.content.decode()
