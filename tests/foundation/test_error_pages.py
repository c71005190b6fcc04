"""Error pages people can read, in their language, that never fail themselves."""

import pytest
from django.test import Client, override_settings
from django.urls import path

from tests.factories import EventFactory


def boom(request):
    raise RuntimeError("simulated failure")


urlpatterns = [path("boom/", boom)]


@pytest.mark.django_db
def test_unknown_page_gets_the_friendly_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


@pytest.mark.django_db
def test_unpublished_event_is_a_404_for_the_public(client):
    event = EventFactory(published=False)
    assert client.get(f"/e/{event.pk}/").status_code == 404


@pytest.mark.django_db
def test_a_server_error_shows_the_500_page_without_losing_its_head():
    with override_settings(ROOT_URLCONF=__name__, DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        client = Client(raise_request_exception=False)
        response = client.get("/boom/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "nothing was stored" in body
