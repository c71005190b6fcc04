"""Roles from the organiser's pages (issue 14): appoint and remove co-organisers and referees by
account or by invitation link; one organiser always stays; every change audited."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from tests.factories import EventFactory, UserFactory
from tournaments.actors import Actor
from tournaments.models import AuditEntry, RoleInvitation
from tournaments.services import Conflict, NotAllowed, ServiceError
from tournaments.services import roles as svc

pytestmark = pytest.mark.django_db
PASSWORD = "pass-word-123"  # tests.factories.UserFactory


@pytest.fixture
def event(organiser):
    return EventFactory(organisers=[organiser])


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


def _audit(event, action):
    return AuditEntry.objects.filter(event=event, action=action).order_by("-pk").first()


# --- services --------------------------------------------------------------------------------


def test_appoint_a_referee_by_username_or_email_audited(event, actor):
    anna = UserFactory(username="anna", email="Anna@Example.org")
    svc.role_grant(event=event, actor=actor, identifier="ANNA", role="referee")
    assert event.is_referee(anna) and not event.is_organiser(anna)
    entry = _audit(event, "role_granted")
    assert entry.actor == "organiser"
    assert entry.changes == {"user": [None, "anna"], "role": [None, "referee"]}
    bob = UserFactory(username="bob", email="bob@example.org")
    svc.role_grant(event=event, actor=actor, identifier=" bob@EXAMPLE.org ", role="organiser")
    assert event.is_organiser(bob)


def test_an_unknown_account_is_refused_on_the_who_field(event, actor):
    with pytest.raises(ServiceError) as exc:
        svc.role_grant(event=event, actor=actor, identifier="nobody", role="referee")
    assert exc.value.field == "who" and "invitation" in exc.value.message
    assert not AuditEntry.objects.filter(event=event, action="role_granted").exists()


def test_an_email_shared_by_two_accounts_asks_for_the_username(event, actor):
    UserFactory(username="a1", email="same@example.org")
    UserFactory(username="a2", email="same@example.org")
    with pytest.raises(ServiceError, match="username instead"):
        svc.role_grant(event=event, actor=actor, identifier="same@example.org", role="referee")


def test_a_role_held_already_is_a_conflict(event, actor, organiser):
    anna = UserFactory(username="anna")
    svc.role_grant(event=event, actor=actor, identifier="anna", role="referee")
    with pytest.raises(Conflict):
        svc.role_grant(event=event, actor=actor, identifier="anna", role="referee")
    with pytest.raises(Conflict, match="organisers referee it already"):
        svc.role_grant(event=event, actor=actor, identifier="organiser", role="referee")
    # A referee made organiser is listed once, as organiser.
    svc.role_grant(event=event, actor=actor, identifier="anna", role="organiser")
    assert event.is_organiser(anna) and not event.referees.filter(pk=anna.pk).exists()


def test_only_organisers_appoint(event):
    referee = UserFactory(username="ref")
    event.referees.add(referee)
    UserFactory(username="anna")
    with pytest.raises(NotAllowed):
        svc.role_grant(event=event, actor=Actor(user=referee), identifier="anna", role="referee")


def test_the_last_organiser_cannot_remove_themself(event, actor, organiser):
    with pytest.raises(ServiceError, match="at least one organiser"):
        svc.role_remove(event=event, actor=actor, user=organiser, role="organiser")
    assert event.is_organiser(organiser)
    other = UserFactory(username="co")
    svc.role_grant(event=event, actor=actor, identifier="co", role="organiser")
    plan = svc.role_remove(event=event, actor=actor, user=organiser, role="organiser")
    assert plan.self_removal and not event.is_organiser(organiser)
    assert _audit(event, "role_removed").changes == {
        "user": ["organiser", None],
        "role": ["organiser", None],
    }
    # Now ``co`` is the last one.
    with pytest.raises(ServiceError):
        svc.role_remove(event=event, actor=Actor(user=other), user=other, role="organiser")


def test_an_invitation_stores_only_the_hash_of_its_token(event, actor):
    made = svc.invitation_create(event=event, actor=actor, role="referee", email="x@example.org")
    assert len(made.token) >= 40
    stored = RoleInvitation.objects.get()
    assert made.token not in stored.digest and stored.digest == svc.token_digest(made.token)
    assert stored.pending and stored.expires_at > timezone.now() + timedelta(days=6)
    entry = _audit(event, "invitation_created")
    assert made.token not in str(entry.changes) + entry.note
    assert svc.invitation_for_token(made.token) == stored
    assert svc.invitation_for_token(made.token[:-1] + "x") is None


def test_accepting_creates_the_account_grants_the_role_once(event, actor):
    made = svc.invitation_create(event=event, actor=actor, role="referee")
    user = svc.invitation_accept(token=made.token, username="newref", password="a-Long-pass-42")
    assert user.check_password("a-Long-pass-42")
    assert event.is_referee(user) and not event.is_organiser(user)
    entry = _audit(event, "invitation_accepted")
    assert entry.actor == "newref" and entry.changes["role"] == [None, "referee"]
    with pytest.raises(ServiceError, match="expired, has been used or was revoked"):
        svc.invitation_accept(token=made.token, username="other", password="a-Long-pass-42")
    assert not type(user).objects.filter(username="other").exists()


def test_an_existing_account_accepts_with_itself(event, actor):
    anna = UserFactory(username="anna")
    made = svc.invitation_create(event=event, actor=actor, role="organiser")
    assert svc.invitation_accept(token=made.token, user=anna) == anna
    assert event.is_organiser(anna)


def test_a_revoked_or_expired_invitation_does_nothing(event, actor):
    made = svc.invitation_create(event=event, actor=actor, role="referee")
    svc.invitation_revoke(invitation=made.invitation, actor=actor)
    assert _audit(event, "invitation_revoked") is not None
    with pytest.raises(ServiceError):
        svc.invitation_accept(token=made.token, username="late", password="a-Long-pass-42")
    old = svc.invitation_create(event=event, actor=actor, role="referee", days=0)
    assert svc.invitation_for_token(old.token) is None
    with pytest.raises(ServiceError):
        svc.invitation_revoke(invitation=old.invitation, actor=actor)
    assert not event.referees.exists()


# --- pages -----------------------------------------------------------------------------------


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def test_roles_page_appoints_and_shows_a_form_error(logged_in, event):
    UserFactory(username="anna")
    url = reverse("tournaments:event_roles", args=[event.pk])
    response = logged_in.post(url, {"who": "anna", "role": "referee"})
    assert response.status_code == 302
    page = logged_in.get(url).content.decode()
    assert 'data-user="anna" data-role="referee"' in page
    response = logged_in.post(url, {"who": "ghost", "role": "referee"})
    assert response.status_code == 400
    assert "send an invitation link instead" in response.content.decode()
    response = logged_in.post(url, {"who": "anna", "role": "captain"})
    assert response.status_code == 400


def test_invitation_link_is_shown_once_then_accepted_by_a_newcomer(logged_in, event, client):
    response = logged_in.post(
        reverse("tournaments:role_invite", args=[event.pk]), {"role": "referee", "email": ""}
    )
    # The link is in this answer only: no redirect, nothing kept for one (a session is stored in
    # the database, which keeps only the link's fingerprint), and never cached.
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    start = page.index("/accounts/invitation/")
    link = page[start : page.index('"', start)]
    again = logged_in.get(reverse("tournaments:event_roles", args=[event.pk])).content.decode()
    assert link not in again and "data-invitation=" in again  # pending, link not shown again
    from django.contrib.sessions.models import Session

    token = link.rstrip("/").rsplit("/", 1)[-1]
    assert not any(token in str(s.get_decoded()) for s in Session.objects.all())
    logged_in.logout()
    form = client.get(link)
    assert form.status_code == 200 and "You are invited as a referee" in form.content.decode()
    bad = client.post(link, {"username": "eva", "password1": "short", "password2": "short"})
    assert bad.status_code == 400 and not event.referees.exists()
    ok = client.post(
        link, {"username": "eva", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
    )
    assert ok.status_code == 302 and ok["Location"] == reverse(
        "tournaments:event_dashboard", args=[event.pk]
    )
    assert client.get(ok["Location"]).status_code == 200  # logged in, a referee now
    assert event.referees.get().username == "eva"
    assert client.get(link).status_code == 404


def test_removing_a_role_asks_first(logged_in, event):
    anna = UserFactory(username="anna")
    event.referees.add(anna)
    url = reverse("tournaments:role_remove", args=[event.pk, "referee", anna.pk])
    page = logged_in.get(url)
    assert page.status_code == 200 and "Remove anna as referee?" in page.content.decode()
    assert event.referees.filter(pk=anna.pk).exists()
    assert logged_in.post(url).status_code == 302
    assert not event.referees.filter(pk=anna.pk).exists()


def test_the_removal_page_names_no_account_outside_the_role(logged_in, event):
    """An organiser cannot walk the site's account ids through the removal address: an account
    without the role answers as an id that does not exist, and its name is never shown."""
    stranger = UserFactory(username="stranger-account")
    unused_pk = stranger.pk + 1000
    for role in ("referee", "organiser"):
        for pk in (stranger.pk, unused_pk):
            url = reverse("tournaments:role_remove", args=[event.pk, role, pk])
            for answer in (logged_in.get(url), logged_in.post(url, follow=True)):
                assert answer.status_code == 404
                assert "stranger-account" not in answer.content.decode()
    bad_role = reverse("tournaments:role_remove", args=[event.pk, "king", stranger.pk])
    assert logged_in.get(bad_role).status_code == 404


def test_a_removed_organiser_loses_the_links_they_made(logged_in, event, organiser):
    """They know their links: with them pending, a removed co-organiser could make themself
    organiser again, though the removal page says they will no longer change the event."""
    mallory = UserFactory(username="mallory")
    event.organisers.add(mallory)
    theirs = [
        svc.invitation_create(event=event, actor=Actor(user=mallory), role=role)
        for role in ("organiser", "referee")
    ]
    used = svc.invitation_create(event=event, actor=Actor(user=mallory), role="referee")
    svc.invitation_accept(token=used.token, username="rita", password="a-Long-pass-42")
    mine = svc.invitation_create(event=event, actor=Actor(user=organiser), role="referee")
    url = reverse("tournaments:role_remove", args=[event.pk, "organiser", mallory.pk])
    page = logged_in.get(url).content.decode()
    assert "The 2 invitation links they made and that nobody has used yet are revoked" in page
    assert logged_in.post(url).status_code == 302
    for made in theirs:
        with pytest.raises(ServiceError, match="expired, has been used or was revoked"):
            svc.invitation_accept(token=made.token, user=mallory)
    assert not event.is_organiser(mallory) and not event.is_referee(mallory)
    revoked = AuditEntry.objects.filter(event=event, action="invitation_revoked")
    assert sorted(a.changes["invitation"][0] for a in revoked) == sorted(
        m.invitation.pk for m in theirs
    )
    assert {a.actor for a in revoked} == {"organiser"}
    # Another organiser's link, and the one already used, are as they were.
    assert svc.invitation_for_token(mine.token) is not None
    assert RoleInvitation.objects.get(pk=used.invitation.pk).accepted_by.username == "rita"


def test_links_made_before_their_maker_was_stored_name_them_after_migration_0028(event):
    creators_from_labels = importlib.import_module(
        "tournaments.migrations.0028_roleinvitation_creator"
    ).creators_from_labels
    mallory = UserFactory(username="mallory")
    event.organisers.add(mallory)
    made = svc.invitation_create(event=event, actor=Actor(user=mallory), role="organiser")
    RoleInvitation.objects.update(creator=None)  # as 0027 left it
    creators_from_labels(apps, None)
    assert RoleInvitation.objects.get(pk=made.invitation.pk).creator == mallory


def test_a_removed_referee_or_an_organiser_without_links_is_told_nothing_of_links(logged_in, event):
    anna = UserFactory(username="anna")
    event.referees.add(anna)
    page = logged_in.get(reverse("tournaments:role_remove", args=[event.pk, "referee", anna.pk]))
    assert "invitation link" not in page.content.decode()
    bob = UserFactory(username="bob")
    event.organisers.add(bob)
    page = logged_in.get(reverse("tournaments:role_remove", args=[event.pk, "organiser", bob.pk]))
    assert "invitation link" not in page.content.decode()


def test_the_last_organiser_is_told_why_not(logged_in, event, organiser):
    url = reverse("tournaments:role_remove", args=[event.pk, "organiser", organiser.pk])
    response = logged_in.post(url, follow=True)
    assert "at least one organiser" in response.content.decode()
    assert event.is_organiser(organiser)


def test_revoking_an_invitation_asks_first(logged_in, event, organiser):
    made = svc.invitation_create(event=event, actor=Actor(user=organiser), role="organiser")
    url = reverse("tournaments:invitation_revoke", args=[event.pk, made.invitation.pk])
    assert "Revoke the invitation (organiser)?" in logged_in.get(url).content.decode()
    assert logged_in.post(url).status_code == 302
    made.invitation.refresh_from_db()
    assert made.invitation.revoked_at is not None
    anonymous = type(logged_in)()
    assert anonymous.get(f"/accounts/invitation/{made.token}/").status_code == 404


def test_a_referee_sees_the_roles_but_cannot_change_them(client, event):
    referee = UserFactory(username="ref")
    event.referees.add(referee)
    client.force_login(referee)
    url = reverse("tournaments:event_roles", args=[event.pk])
    page = client.get(url).content.decode()
    assert "appoint-form" not in page
    assert client.post(url, {"who": "ref", "role": "organiser"}).status_code == 403
    assert not event.is_organiser(referee)
