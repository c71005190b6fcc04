"""Who runs an event: its organisers appoint and remove co-organisers and referees, by an
existing account or by an invitation link that creates the account.

An invitation's token is shown once, in the link; the database keeps its SHA-256 only, so a
copy of the database opens no door. A link works once, until it expires or is revoked. Every
change is audited. The web pages call these functions; the API can call the same ones.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.actors import Actor
from tournaments.models import Event, RoleInvitation
from tournaments.services import Conflict, ServiceError, audit, lock_event
from tournaments.services.events import require_organiser

Role = RoleInvitation.Role
INVITATION_DAYS = 7
TOKEN_BYTES = 32  # 256 bits: not guessable, whatever the number of tries


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _username(user: Any) -> str:
    return str(user.get_username())


def holders(event: Event, role: str) -> Any:
    """The accounts holding ``role`` in ``event`` (a related manager)."""
    return event.organisers if role == Role.ORGANISER else event.referees


# Whole sentences per role: "an organiser" / "a referee" read differently in every language.
def sentence(role: str, key: str) -> str:
    """The sentence ``key`` (already, now, no_longer, not, welcome) for ``role``."""
    organiser = role == Role.ORGANISER
    texts = {
        "already": _("%(user)s is already an organiser of this event.")
        if organiser
        else _("%(user)s is already a referee of this event."),
        "now": _("%(user)s is now an organiser of this event.")
        if organiser
        else _("%(user)s is now a referee of this event."),
        "no_longer": _("%(user)s is no longer an organiser of this event.")
        if organiser
        else _("%(user)s is no longer a referee of this event."),
        "not": _("%(user)s is not an organiser of this event.")
        if organiser
        else _("%(user)s is not a referee of this event."),
        "welcome": _("Welcome: you are now an organiser of %(event)s.")
        if organiser
        else _("Welcome: you are now a referee of %(event)s."),
    }
    return texts[key]


def has_role(event: Event, user: Any, role: str) -> bool:
    return holders(event, role).filter(pk=user.pk).exists()


def find_account(identifier: str) -> Any:
    """The account whose username or e-mail is ``identifier`` (case ignored, an exact username
    first); ServiceError on the field ``who`` when there is none, or when several accounts
    match."""
    text = identifier.strip()
    if not text:
        raise ServiceError(_("Type a username or an e-mail address."), field="who")
    users = get_user_model().objects
    exact = users.filter(username=text).first()
    if exact is not None:
        return exact
    # Case ignored: "jordi" is Jordi, unless Jordi and JORDI both exist (accounts made by hand).
    alike = list(users.filter(username__iexact=text)[:2])
    if len(alike) == 1:
        return alike[0]
    if len(alike) > 1:
        raise ServiceError(
            _("Several accounts have this username in other capitals: type it exactly."),
            field="who",
        )
    by_email = list(users.filter(email__iexact=text)[:2]) if "@" in text else []
    if len(by_email) == 1:
        return by_email[0]
    if len(by_email) > 1:
        raise ServiceError(
            _("Several accounts use this e-mail address: type the username instead."), field="who"
        )
    raise ServiceError(
        _("No account has the username or e-mail “%(who)s”: send an invitation link instead.")
        % {"who": text[:100]},
        field="who",
    )


def _grant(event: Event, user: Any, role: str) -> list[str]:
    """Add ``user`` to ``role`` (an organiser stops being listed as a referee: organisers
    referee anyway). Returns the roles the user gave up. The caller holds the event's lock."""
    if has_role(event, user, role):
        raise Conflict(
            sentence(role, "already") % {"user": _username(user)},
            field="who",
        )
    if role == Role.REFEREE and has_role(event, user, Role.ORGANISER):
        raise Conflict(
            _("%(user)s is an organiser of this event, and organisers referee it already.")
            % {"user": _username(user)},
            field="who",
        )
    dropped = []
    if role == Role.ORGANISER and has_role(event, user, Role.REFEREE):
        event.referees.remove(user)
        dropped.append(Role.REFEREE.value)
    holders(event, role).add(user)
    return dropped


def role_grant(*, event: Event, actor: Actor, identifier: str, role: str) -> Any:
    """Appoint the account named by ``identifier`` (username or e-mail) as ``role``."""
    require_organiser(event, actor)
    if role not in Role.values:
        raise ServiceError(_("Choose a role: organiser or referee."), field="role")
    user = find_account(identifier)
    with transaction.atomic():
        # Two organisers appointing or removing at once: the event's row orders them.
        lock_event(event.pk)
        dropped = _grant(event, user, role)
        audit.record(
            event=event,
            actor=actor.label,
            action="role_granted",
            changes={"user": [None, _username(user)], "role": [None, role]},
            note=_("Was a referee of this event until now") if dropped else "",
        )
    return user


@dataclass(frozen=True)
class RemovalPlan:
    """What removing ``user`` from ``role`` does; ``self_removal``: the actor loses the role."""

    user: Any
    role: str
    self_removal: bool
    links: int = 0  # the pending invitation links they made, revoked with an organiser's role


def removal_plan(event: Event, actor: Actor, user: Any, role: str) -> RemovalPlan:
    """Refused (ServiceError) unless ``user`` has ``role``; an event keeps one organiser."""
    if role not in Role.values:
        raise ServiceError(_("Choose a role: organiser or referee."), field="role")
    if not has_role(event, user, role):
        raise ServiceError(sentence(role, "not") % {"user": _username(user)}, field="user")
    if role == Role.ORGANISER and event.organisers.count() <= 1:
        raise Conflict(
            _(
                "An event keeps at least one organiser: appoint another organiser before "
                "removing %(user)s."
            )
            % {"user": _username(user)},
            field="user",
        )
    return RemovalPlan(
        user=user,
        role=role,
        self_removal=actor.is_authenticated and actor.user.pk == user.pk,
        links=_links_made_by(event, user).count() if role == Role.ORGANISER else 0,
    )


def _links_made_by(event: Event, user: Any) -> Any:
    """The pending invitation links ``user`` made for ``event``: they know them, so whoever
    loses the organiser role must not keep a way back in."""
    return RoleInvitation.objects.filter(
        event=event,
        creator=user,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    )


def role_remove(*, event: Event, actor: Actor, user: Any, role: str) -> RemovalPlan:
    require_organiser(event, actor)
    with transaction.atomic():
        # The last two organisers removing each other at once: the lock makes one wait, and
        # then it counts one organiser and is refused.
        lock_event(event.pk)
        plan = removal_plan(event, actor, user, role)
        holders(event, role).remove(user)
        audit.record(
            event=event,
            actor=actor.label,
            action="role_removed",
            changes={"user": [_username(user), None], "role": [role, None]},
        )
        if role == Role.ORGANISER:
            links = _links_made_by(event, user).select_for_update(of=("self",), no_key=True)
            for invitation in links:
                _revoke(invitation, event, actor)
    return plan


# --- invitations -----------------------------------------------------------------------------


@dataclass(frozen=True)
class NewInvitation:
    invitation: RoleInvitation
    token: str  # shown once, in the link; never stored


def invitation_create(
    *, event: Event, actor: Actor, role: str, email: str = "", days: int = INVITATION_DAYS
) -> NewInvitation:
    require_organiser(event, actor)
    if role not in Role.values:
        raise ServiceError(_("Choose a role: organiser or referee."), field="role")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with transaction.atomic():
        invitation = RoleInvitation.objects.create(
            event=event,
            role=role,
            email=email.strip(),
            digest=token_digest(token),
            created_by=actor.label,
            creator=actor.user if actor.is_authenticated else None,
            expires_at=timezone.now() + timedelta(days=days),
        )
        audit.record(
            event=event,
            actor=actor.label,
            action="invitation_created",
            changes={"invitation": [None, invitation.pk], "role": [None, role]},
            note=invitation.email,
        )
    return NewInvitation(invitation=invitation, token=token)


def invitation_revoke(*, invitation: RoleInvitation, actor: Actor) -> None:
    event = invitation.event
    require_organiser(event, actor)
    with transaction.atomic():
        # Revoked while someone accepts it: the row lock lets exactly one of them win.
        invitation = RoleInvitation.objects.select_for_update(of=("self",), no_key=True).get(
            pk=invitation.pk
        )
        if not invitation.pending:
            raise Conflict(
                _("This invitation is no longer pending (accepted, revoked or expired)."),
                field="invitation",
            )
        _revoke(invitation, event, actor)


def _revoke(invitation: RoleInvitation, event: Event, actor: Actor) -> None:
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    audit.record(
        event=event,
        actor=actor.label,
        action="invitation_revoked",
        changes={"invitation": [invitation.pk, None], "role": [invitation.role, None]},
        note=invitation.email,
    )


def invitation_for_token(token: str) -> RoleInvitation | None:
    """The pending invitation of ``token``, or None (unknown, used, revoked or expired: the
    same answer for each, so a link says nothing about the others)."""
    if not token or len(token) > 200:
        return None
    invitation = (
        RoleInvitation.objects.select_related("event").filter(digest=token_digest(token)).first()
    )
    return invitation if invitation is not None and invitation.pending else None


def _gone() -> ServiceError:
    return ServiceError(
        _(
            "This invitation link has expired, has been used or was revoked: ask the organiser for "
            "a new one."
        ),
        field="token",
    )


def invitation_accept(
    *,
    token: str,
    user: Any = None,
    username: str = "",
    password: str = "",
    email: str = "",
) -> Any:
    """Accept an invitation with an existing account (``user``) or a new one (``username``,
    ``password``: already checked by the form against the password validators). Returns the
    account, which now has the invitation's role."""
    with transaction.atomic():
        found = invitation_for_token(token)
        if found is None:
            raise _gone()
        # The event first, then the link, as role_remove takes them (it revokes the links of
        # whoever it removes): the other order could deadlock with it.
        event = lock_event(found.event_id)
        invitation = RoleInvitation.objects.select_for_update(of=("self",), no_key=True).get(
            pk=found.pk
        )
        if not invitation.pending:  # accepted or revoked while we were looking
            raise _gone()
        users = get_user_model().objects
        if user is None:
            if users.filter(username__iexact=username).exists():
                raise Conflict(_("This username is taken: choose another."), field="username")
            try:
                with transaction.atomic():
                    user = users.create_user(
                        username=username, password=password, email=email or invitation.email
                    )
            except IntegrityError:
                raise Conflict(
                    _("This username is taken: choose another."), field="username"
                ) from None
        already = has_role(event, user, invitation.role) or (
            invitation.role == Role.REFEREE and has_role(event, user, Role.ORGANISER)
        )
        dropped = [] if already else _grant(event, user, invitation.role)
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
        audit.record(
            event=event,
            actor=_username(user)[:120],
            action="invitation_accepted",
            changes={
                "invitation": [invitation.pk, None],
                "user": [None, _username(user)],
                "role": [None, invitation.role],
            },
            note=_("Was a referee of this event until now") if dropped else "",
        )
    return user
