"""Appointing and removing the people who run an event through the API: the roles service's
checks and audit, the lifecycle endpoints' refusals (401, 403, 404, 409, 400 naming the field),
and an invitation link shown once, never listed and never kept for a replay."""

import pytest

from tests.api.conftest import errors_of
from tests.factories import EventFactory, UserFactory
from tournaments.models import AuditEntry, IdempotentResponse, RoleInvitation
from tournaments.services import roles as svc


def _url(world, tail="roles"):
    return f"/api/v1/events/{world.event.pk}/{tail}"


def _names(members):
    return [m["username"] for m in members]


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", 401),
        ("table", 403),
        ("player", 403),
        ("other_organiser", 403),
        ("referee", 200),
        ("organiser", 200),
    ],
)
def test_the_list_is_for_the_events_organisers_and_referees(world, who, expected):
    response = world.client(who).get(_url(world))
    assert response.status_code == expected, response.content
    if expected == 200:
        body = response.json()
        assert _names(body["organisers"]) == [world.users["organiser"].username]
        assert _names(body["referees"]) == ["referee"]
    else:
        assert errors_of(response)


@pytest.mark.parametrize("who", ["referee", "player", "other_organiser"])
def test_only_organisers_change_roles(world, who):
    client = world.client(who)
    for tail, body in (
        ("roles", {"role": "referee", "user": "staff"}),
        ("roles/remove", {"role": "referee", "user": "referee"}),
        ("invitations", {"role": "referee"}),
    ):
        response = client.post(_url(world, tail), body, format="json")
        assert response.status_code == 403, (tail, response.content)
    assert not world.event.is_referee(world.users["staff"])
    assert world.event.referees.filter(username="referee").exists()
    assert not RoleInvitation.objects.filter(event=world.event).exists()


def test_an_event_one_may_not_see_is_404(world):
    draft = EventFactory(organisers=[world.users["other_organiser"]], status="draft")
    response = world.client("organiser").post(
        f"/api/v1/events/{draft.pk}/roles", {"role": "referee", "user": "staff"}, format="json"
    )
    assert response.status_code == 404


def test_appoint_by_username_or_email_and_remove(world):
    organiser = world.client("organiser")
    UserFactory(username="anna", email="anna@example.org")
    made = organiser.post(_url(world), {"role": "referee", "user": "ANNA"}, format="json")
    assert made.status_code == 200, made.content
    assert _names(made.json()["referees"]) == ["anna", "referee"]
    promoted = organiser.post(
        _url(world), {"role": "organiser", "user": " anna@EXAMPLE.org "}, format="json"
    )
    assert promoted.status_code == 200
    assert "anna" in _names(promoted.json()["organisers"])
    assert "anna" not in _names(promoted.json()["referees"])  # organisers referee anyway
    removed = organiser.post(
        _url(world, "roles/remove"), {"role": "organiser", "user": "anna"}, format="json"
    )
    assert removed.status_code == 200
    assert "anna" not in _names(removed.json()["organisers"])
    actions = list(
        AuditEntry.objects.filter(event=world.event, action__startswith="role_").values_list(
            "action", flat=True
        )
    )
    assert actions.count("role_granted") == 2 and actions.count("role_removed") == 1


def test_wrong_states_are_409(world):
    organiser = world.client("organiser")
    again = organiser.post(_url(world), {"role": "referee", "user": "referee"}, format="json")
    assert again.status_code == 409 and "already a referee" in errors_of(again)["user"]
    me = world.users["organiser"].username
    last = organiser.post(
        _url(world, "roles/remove"), {"role": "organiser", "user": me}, format="json"
    )
    assert last.status_code == 409 and "at least one organiser" in errors_of(last)["user"]
    assert world.event.is_organiser(world.users["organiser"])


def test_bad_input_names_the_field(world):
    organiser = world.client("organiser")
    nobody = organiser.post(_url(world), {"role": "referee", "user": "nobody"}, format="json")
    assert nobody.status_code == 400 and "invitation link" in errors_of(nobody)["user"]
    role = organiser.post(_url(world), {"role": "captain", "user": "staff"}, format="json")
    assert role.status_code == 400 and "role" in errors_of(role)
    missing = organiser.post(_url(world, "roles/remove"), {"role": "referee"}, format="json")
    assert missing.status_code == 400 and "user" in errors_of(missing)
    not_one = organiser.post(
        _url(world, "roles/remove"), {"role": "referee", "user": "staff"}, format="json"
    )
    assert not_one.status_code == 400 and "not a referee" in errors_of(not_one)["user"]
    email = organiser.post(
        _url(world, "invitations"), {"role": "referee", "email": "no"}, format="json"
    )
    assert email.status_code == 400 and "email" in errors_of(email)
    assert not AuditEntry.objects.filter(event=world.event, action__startswith="role_").exists()
    assert not RoleInvitation.objects.filter(event=world.event).exists()


def test_an_invitation_link_is_shown_once_and_revoked(world):
    organiser = world.client("organiser")
    made = organiser.post(
        _url(world, "invitations"),
        {"role": "organiser", "email": "new@example.org"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="inv-1",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    token = body["url"].rstrip("/").rsplit("/", 1)[-1]
    invitation = RoleInvitation.objects.get(pk=body["id"])
    assert svc.invitation_for_token(token) == invitation
    assert body["role"] == "organiser" and body["email"] == "new@example.org"
    # The same request again acts once and does not show the link a second time.
    replay = organiser.post(
        _url(world, "invitations"),
        {"role": "organiser", "email": "new@example.org"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="inv-1",
    )
    assert replay.status_code == 201 and replay.json()["id"] == body["id"]
    assert replay.json()["url"] is None
    assert RoleInvitation.objects.filter(event=world.event).count() == 1
    assert not any(token in str(r.body) for r in IdempotentResponse.objects.all())
    listed = organiser.get(_url(world))
    assert [i["id"] for i in listed.json()["invitations"]] == [invitation.pk]
    assert token not in listed.content.decode()
    assert "url" not in listed.json()["invitations"][0]
    revoke = _url(world, f"invitations/{invitation.pk}/revoke")
    revoked = organiser.post(revoke, format="json")
    assert revoked.status_code == 200 and revoked.json()["invitations"] == []
    assert svc.invitation_for_token(token) is None
    twice = organiser.post(revoke, format="json")
    assert twice.status_code == 409 and "no longer pending" in errors_of(twice)["invitation"]
    other = EventFactory(organisers=[world.users["organiser"]])
    elsewhere = svc.invitation_create(
        event=other, actor=svc.Actor(user=world.users["organiser"]), role="referee"
    )
    wrong = organiser.post(_url(world, f"invitations/{elsewhere.invitation.pk}/revoke"))
    assert wrong.status_code == 404
    assert AuditEntry.objects.filter(event=world.event, action="invitation_revoked").count() == 1
