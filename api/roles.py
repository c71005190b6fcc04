"""Who runs an event, in the API: its organisers appoint and remove co-organisers and referees,
by account or by a one-time invitation link, through ``tournaments.services.roles`` (the
service the roles page uses: the same checks, refusals and audit).

Refusals: 400 with the field, 403 for anyone but the event's organisers (its referees may read
the list), 404 for an event you may not see, 409 for a wrong state (the last organiser, an
invitation no longer pending, a role already held).
"""

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api import lifecycle_serializers as ls
from api.idempotency import idempotent
from api.organiser import organiser_call, post_schema, visible_event
from api.schema import errors
from api.views import ApiView
from tournaments import selectors
from tournaments.models import Event, RoleInvitation
from tournaments.services import ServiceError
from tournaments.services import roles as svc
from tournaments.views.roles import invitation_url

TAGS = ["event roles"]


def _post(summary: str, description: str, request: Any, response: Any, *, code: int = 200) -> Any:
    return post_schema(TAGS, summary, description, request, response, code=code)


def _roles_body(event: Event) -> dict[str, Any]:
    roles = selectors.event_roles(event)
    return ls.RolesSerializer(
        {
            "organisers": roles.organisers,
            "referees": roles.referees,
            "invitations": roles.invitations,
        }
    ).data


def _as_user_field(exc: ServiceError) -> ServiceError:
    """The service names the account ``who`` (the page's field); the API calls it ``user``."""
    if exc.field == "who":
        exc.field = "user"
    return exc


class RolesView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="Who runs an event",
        description="Its organisers, its referees (those who are not also organisers) and the "
        "pending invitations (never their links). For the event's organisers and referees.",
        responses={200: ls.RolesSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = visible_event(request, pk)
        actor = access.actor_for(request)
        if not (actor.is_organiser(event) or actor.is_referee(event)):
            access.refuse(
                request, _("Only the organisers and referees of this event can see that.")
            )
        return Response(_roles_body(event))

    @_post(
        "Appoint an organiser or a referee",
        "`user`: an existing account's username or e-mail address (one without an account "
        "gets an invitation link instead). An organiser appointed who was a referee stops "
        "being listed as one. 409 when the account already has the role. Answers the roles.",
        ls.RoleChangeSerializer,
        ls.RolesSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.RoleChangeSerializer)
        try:
            svc.role_grant(event=event, actor=actor, identifier=body["user"], role=body["role"])
        except ServiceError as exc:
            raise _as_user_field(exc) from None
        return Response(_roles_body(event))


class RoleRemoveView(ApiView):
    @_post(
        "Remove an organiser or a referee",
        "The account loses the role (an organiser may remove themself). An event keeps at "
        "least one organiser: removing the last one is a 409. Answers the roles.",
        ls.RoleChangeSerializer,
        ls.RolesSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.RoleChangeSerializer)
        try:
            user = svc.find_account(body["user"])
        except ServiceError as exc:
            raise _as_user_field(exc) from None
        svc.role_remove(event=event, actor=actor, user=user, role=body["role"])
        return Response(_roles_body(event))


class InvitationsView(ApiView):
    @_post(
        "Create an invitation link",
        "A link that makes whoever opens it an organiser or a referee of the event, creating "
        "their account if they have none; it works once, for 7 days, until revoked. `url` is "
        "shown in this answer only.",
        ls.InvitationCreateSerializer,
        ls.NewInvitationSerializer,
        code=201,
    )
    @idempotent(forget=("url",))
    def post(self, request: Request, pk: int) -> Response:
        event, actor, body = organiser_call(request, pk, ls.InvitationCreateSerializer)
        made = svc.invitation_create(
            event=event, actor=actor, role=body["role"], email=body["email"]
        )
        data = {
            **ls.InvitationSerializer(made.invitation).data,
            "url": invitation_url(request, made.token),
        }
        return Response(data, status=status.HTTP_201_CREATED)


class InvitationRevokeView(ApiView):
    @_post(
        "Revoke an invitation",
        "Its link stops working. 409 when it is no longer pending (accepted, revoked or "
        "expired). Answers the roles.",
        None,
        ls.RolesSerializer,
    )
    @idempotent
    def post(self, request: Request, pk: int, invitation_pk: int) -> Response:
        event, actor, _body = organiser_call(request, pk)
        found = get_object_or_404(RoleInvitation, pk=invitation_pk, event=event)
        svc.invitation_revoke(invitation=found, actor=actor)
        return Response(_roles_body(event))
