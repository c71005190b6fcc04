"""The admin filters only on what its lists offer (fair-play audit, 2026-12-05).

Django lets a changelist filter on any field of its model from the query string: whether a row
stays in the list was an oracle, and a staff account holding nothing but "view event" read a
running event's seed one character at a time (then dealt every board with it)."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _staff(*codenames: str) -> Client:
    user = UserFactory(username="viewer", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(user)
    return client


def test_a_seed_lookup_is_refused_and_the_listed_filters_still_work(running_event):
    client = _staff("view_event")
    url = "/admin/tournaments/event/"
    marker = f"/admin/tournaments/event/{running_event.pk}/change/"
    for lookup in ("seed__startswith", "seed", "commitment__startswith", "seed__regex"):
        response = client.get(url, {lookup: running_event.seed[:1]})
        assert response.status_code == 400, lookup
        assert marker not in response.content.decode()
    listed = client.get(url, {"status__exact": running_event.status})
    assert listed.status_code == 200 and marker in listed.content.decode()


def test_a_password_hash_lookup_is_refused():
    client = _staff("view_user")
    response = client.get("/admin/auth/user/", {"password__startswith": "pbkdf2"})
    assert response.status_code == 400
    assert client.get("/admin/auth/user/", {"is_staff__exact": "1"}).status_code == 200


def test_events_rounds_and_entries_are_read_only_in_the_admin(running_event):
    """Their status, publication, seats and withdrawals change through the organiser's pages,
    which keep the order of things and the audit trail."""
    client = _staff("view_event", "change_event", "view_round", "change_round", "change_entry")
    rnd = running_event.rounds.get(number=1)
    for url in (
        f"/admin/tournaments/event/{running_event.pk}/change/",
        f"/admin/tournaments/round/{rnd.pk}/change/",
    ):
        assert client.post(url, {"status": "finished"}).status_code == 403, url
    running_event.refresh_from_db()
    rnd.refresh_from_db()
    assert running_event.status != "finished" and rnd.status != "finished"
