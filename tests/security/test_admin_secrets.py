"""What the admin never shows, whatever a staff account's permissions: an account's API token
(it is the account's password for the API) and a pair's registration links (the withdraw and
check-in tokens act without an account)."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.factories import EventFactory, RegistrationFactory, UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _staff(*codenames):
    user = UserFactory(username="viewer", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(user)
    return client


def test_no_account_token_is_shown_or_made_in_the_admin():
    boss = UserFactory(username="boss", is_staff=True, is_superuser=True)
    token = Token.objects.create(user=boss)
    client = _staff("view_accounttoken", "add_accounttoken", "change_accounttoken")
    listing = client.get("/admin/tournaments/accounttoken/")
    assert listing.status_code == 200 and "boss" in listing.content.decode()
    page = client.get(f"/admin/tournaments/accounttoken/{boss.pk}/change/")
    assert page.status_code == 200
    for answer in (listing, page):
        assert token.key not in answer.content.decode()
    # Not an oracle either: the list filters only on what it offers.
    probe = client.get("/admin/tournaments/accounttoken/", {"key__startswith": token.key[:1]})
    assert probe.status_code == 400 and "boss" not in probe.content.decode()
    # Nobody makes a token for another account here.
    other = UserFactory(username="other")
    assert client.get("/admin/tournaments/accounttoken/add/").status_code == 403
    assert (
        client.post("/admin/tournaments/accounttoken/add/", {"user": other.pk}).status_code == 403
    )
    assert not Token.objects.filter(user=other).exists()


def test_a_lost_token_is_revoked_by_deleting_it():
    holder = UserFactory(username="holder")
    Token.objects.create(user=holder)
    client = _staff("view_accounttoken", "delete_accounttoken")
    url = f"/admin/tournaments/accounttoken/{holder.pk}/delete/"
    assert client.post(url, {"post": "yes"}).status_code == 302
    assert not Token.objects.filter(user=holder).exists()


def test_a_registrations_links_are_not_in_the_admin():
    event = EventFactory(status=Event.Status.REGISTRATION)
    registration = RegistrationFactory(event=event)
    client = _staff("view_registration", "change_registration")
    for url in (
        "/admin/tournaments/registration/",
        f"/admin/tournaments/registration/{registration.pk}/change/",
    ):
        html = client.get(url).content.decode()
        assert registration.token not in html and registration.checkin_token not in html
