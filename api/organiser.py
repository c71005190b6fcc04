"""What every organiser's POST of the API starts with (``api.lifecycle``, ``api.roles``): the
event, refused to anyone but its organisers before the body is read; the acting organiser; the
body as its serializer validates it. And the schema such a POST publishes."""

from typing import Any, NamedTuple

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.serializers import Serializer

from api import access
from api.idempotency import IDEMPOTENCY_PARAMETER
from api.schema import errors
from api.serializers import RequestSerializer
from tournaments.actors import Actor
from tournaments.models import Event
from tournaments.services import NotAllowed

WRITE = errors(400, 401, 403, 404, 409, 422)


def post_schema(
    tags: list[str],
    summary: str,
    description: str,
    request: Any,
    response: Any,
    *,
    code: int = 200,
) -> Any:
    """The schema of an organiser's POST: its body, its answer, the Idempotency-Key and the
    errors it may answer."""
    return extend_schema(
        tags=tags,
        summary=summary,
        description=description,
        request=request,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={code: response, **WRITE},
    )


def visible_event(request: Request, pk: int) -> Event:
    """The event, for whoever may see it (404 for anyone else)."""
    return get_object_or_404(access.visible_events(request).select_related("club"), pk=pk)


def organised_event(request: Request, pk: int) -> Event:
    """The event, for its organisers only: anyone else is refused before the body is read."""
    event = visible_event(request, pk)
    if not access.actor_for(request).is_organiser(event):
        raise NotAllowed(_("Only the organisers of this event can do that."))
    return event


class OrganiserCall(NamedTuple):
    event: Event
    actor: Actor
    body: dict[str, Any]


def organiser_call(
    request: Request, pk: int, serializer: type[Serializer] | None = None
) -> OrganiserCall:
    """The event (its organisers only), the acting organiser and the body validated by
    ``serializer`` (400 naming the field), in that order."""
    event = organised_event(request, pk)
    body: dict[str, Any] = {}
    if serializer is None:
        no_body(request)
    else:
        checked = serializer(data=request.data)
        checked.is_valid(raise_exception=True)
        body = dict(checked.validated_data)
    return OrganiserCall(event, access.actor_for(request), body)


class _NoBody(RequestSerializer):
    """A step that takes no body: any field sent is unknown."""


def no_body(request: Request) -> None:
    """A 400 at each field of the body of a step that takes none: a mistyped option must not
    be ignored while the step (finishing an event, new codes) goes ahead. No body, ``{}`` and
    ``null`` are all "nothing"."""
    if request.data:
        _NoBody(data=request.data).is_valid(raise_exception=True)
