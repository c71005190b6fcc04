"""The event archive in the API: the whole event as one JSON document
(``tournaments.archive``, docs/formats.md) and its import into this installation
(``tournaments.services.archive``, the service ``manage.py import_event`` calls too).
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api import serializers as s
from api.errors import NO_DATA, NON_FIELD
from api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from api.lifecycle import event_body
from api.organiser import visible_event
from api.parsers import ArchiveJSONParser
from api.schema import errors
from api.views import ApiView
from tournaments import archive, policy
from tournaments.services import NotAllowed
from tournaments.services.archive import event_import

TAGS = ["event archive"]


class EventArchiveView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="The event archive",
        description="The whole event as one JSON document: its options, the seed's commitment "
        "(and the seed once the event is finished), pairs with their players, rounds and "
        "tables, boards, every result with every submission and play record (with its "
        "verdict), disputes and rulings, the audit trail and the standings after each round. "
        "Pairs are named by number throughout. Anyone but the organisers gets it without the "
        "players' licence numbers and with accounts named `staff` (tables stay named). "
        "Its JSON Schema is "
        "`docs/schemas/archive.schema.json` (docs/formats.md). The event's organisers may "
        "download it at any time; everyone once the event is finished and published. A team "
        "event's holds its teams, matches, line-ups and team standings too.",
        responses={200: OpenApiTypes.OBJECT, **errors(403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = visible_event(request, pk)
        if not policy.can_download_archive(access.actor_for(request), event):
            access.refuse(
                request,
                _(
                    "The archive is for the event's organisers until the event is finished and "
                    "published."
                ),
            )
        document = archive.event_archive(event, exported_at=timezone.now())
        if not access.actor_for(request).is_organiser(event):
            document = archive.public_archive(document)
        return Response(document)


class EventImportView(ApiView):
    parser_classes = [ArchiveJSONParser]

    @extend_schema(
        tags=TAGS,
        summary="Import an event archive",
        description="Re-creates a finished event from its archive (the body, as `GET "
        "/events/{id}/archive` gave it, up to 2 MB; larger ones with `manage.py import_event "
        "FILE`). Refused, storing nothing, unless the seed deals the archived boards, every "
        "play record replays to its archived verdict and the standings recomputed here equal "
        "the archived ones (400 naming `boards`, `results` or `standings`); an archive of an "
        "event not finished has no seed (409). You become the event's organiser; it is not "
        "published until you publish it.",
        request=OpenApiTypes.OBJECT,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: s.EventSerializer, **errors(400, 401, 403, 409, 422)},
        examples=[OpenApiExample("An archive", value={"format": archive.FORMAT, "version": 1})],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        actor = access.actor_for(request)
        if not actor.is_authenticated:  # a table's token
            raise NotAllowed(_("Log in to import an event."))
        if request.data is None:  # `null`: said at `body`, as on every route with a serializer
            raise ValidationError({NON_FIELD: [NO_DATA]})
        event = event_import(document=request.data, actor=actor)
        return Response(event_body(event), status=status.HTTP_201_CREATED)
