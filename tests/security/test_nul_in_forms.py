"""A NUL character is a 400 naming where it was: in the path or a query string before any view
reads it (tournaments.body_limits), in a reason typed on a page without a Django form by the
service (services.stated_reason), which answers on the page with what was typed. PostgreSQL's
text columns cannot store it: such a reason or link failed in the database (a 500), while
SQLite stored it."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.security.conftest import Scene
from tournaments.models import AuditEntry, BoardResult, Dispute

pytestmark = pytest.mark.django_db

# The sentence a JSON body gets for it too (tournaments.jsonio.nul_message).
NUL = "The text contains a NUL character (\\u0000), which cannot be stored (at {})."
REASON_MESSAGE = NUL.format("reason")


def _stored() -> tuple[int, int]:
    return Dispute.objects.count(), AuditEntry.objects.count()


def test_a_reason_with_a_nul_is_a_400_naming_it_and_stores_nothing(scene: Scene):
    before = _stored()
    code = scene.world.table.code_ns
    response = scene.web("table").post(
        f"/table/{code}/board/1/referee/", {"reason": "wrong\x00score"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert REASON_MESSAGE in body and "wrong" in body  # the page again, with what was typed
    assert _stored() == before
    # The same form without the NUL calls the referee.
    called = scene.web("table").post(f"/table/{code}/board/1/referee/", {"reason": "wrong score"})
    assert called.status_code in (200, 302) and Dispute.objects.count() == before[0] + 1


def test_an_urlencoded_form_is_checked_too(scene: Scene):
    # (The test client posts a dict as multipart/form-data; a browser's plain form is this.)
    before = _stored()
    response = scene.web("table").post(
        f"/table/{scene.world.table.code_ns}/board/1/referee/",
        "reason=late%00",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400 and REASON_MESSAGE in response.content.decode()
    assert _stored() == before


@pytest.mark.parametrize("kind", ["registration", "check-in"])
def test_a_link_token_with_a_nul_is_a_400(scene: Scene, kind):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/e/{scene.event.pk}/{kind}/ab%00cd/")
    assert response.status_code == 400
    assert NUL.format("token") in response.content.decode()


def test_a_query_parameter_with_a_nul_is_a_400_naming_it(scene: Scene):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        f"/e/{scene.event.pk}/standings/", {"after": "1\x00"}
    )
    assert response.status_code == 400 and NUL.format("after") in response.content.decode()


def test_the_api_answers_a_nul_in_the_query_in_its_own_shape(scene: Scene):
    response = scene.api("organiser").get("/api/v1/events", {"q": "x\x00"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "q"


def test_the_services_refuse_a_reason_with_a_nul_on_reason(scene: Scene):
    from tournaments.actors import Actor
    from tournaments.models import Event
    from tournaments.services import ServiceError, disputes, events

    organiser = Actor(user=scene.world.users["organiser"])
    rnd = scene.world.table.round
    Dispute.objects.update(status=Dispute.Status.WITHDRAWN)
    events.round_close(rnd=rnd, actor=organiser, accept_missing=True)
    before = _stored()
    with pytest.raises(ServiceError) as refused:
        events.round_rulings(rnd=rnd, actor=organiser, reopen=True, reason="late\x00claim")
    assert refused.value.field == "reason"
    Event.objects.filter(pk=scene.event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(ServiceError) as refused:
        played = BoardResult.objects.get(pk=scene.played.pk)  # its event, finished
        disputes.correction_open(result=played, actor=organiser, reason="typo\x00")
    assert refused.value.field == "reason"
    assert _stored() == before
