"""An event's webhooks in the API: its organisers register and remove addresses, see every
delivery with the receiver's answers, send a test and re-send a delivery, through
``tournaments.services.webhooks`` (the service the webhooks page uses: the same checks and
audit). What is sent, how it is signed and how to verify it: docs/api.md, "Webhooks".

Refusals: 400 with the field (``url``), 403 for anyone but the event's organisers (its
referees included: a webhook's secret and its receiver's answers are the organisers'), 404 for
an event you may not see, 409 for an address registered twice or one webhook too many.
"""

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from api.organiser import no_body, visible_event
from api.parsers import StorableJSONParser
from api.schema import errors
from api.serializers import RequestSerializer
from api.views import ApiView
from tournaments import webhooks
from tournaments.models import Event, Webhook, WebhookAttempt, WebhookDelivery
from tournaments.services import webhooks as svc

TAGS = ["webhooks"]
WRITE = errors(400, 401, 403, 404, 409, 422)
READ = errors(401, 403, 404)
KIND_CHOICES = [(kind, kind) for kind in webhooks.KINDS]  # named in ENUM_NAME_OVERRIDES
ERROR_CHOICES = [(code, code) for code in sorted(svc.ERRORS)]


class WebhookSerializer(serializers.Serializer):
    """A registered address: never its secret, which only the answer to its creation holds."""

    id = serializers.IntegerField(source="pk")
    url = serializers.URLField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()


class NewWebhookSerializer(WebhookSerializer):
    secret = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy(
            "The shared secret that signs every delivery (X-Botifarra-Signature). Shown "
            "in this answer only; a replay (same Idempotency-Key) gives null."
        ),
    )


class WebhookCreateSerializer(RequestSerializer):
    url = serializers.CharField(
        max_length=500,
        help_text=gettext_lazy(
            "Where to POST: an http:// or https:// address on the public internet."
        ),
    )


class WebhookAttemptSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    duration_ms = serializers.IntegerField()
    status_code = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("The receiver's HTTP status; null when none came back."),
    )
    error = serializers.SerializerMethodField()
    response_body = serializers.CharField(
        help_text=gettext_lazy("The start of the receiver's answer.")
    )

    @extend_schema_field(serializers.ChoiceField(choices=ERROR_CHOICES, allow_null=True))
    def get_error(self, attempt: WebhookAttempt) -> str | None:
        return attempt.error or None


class WebhookDeliverySerializer(serializers.Serializer):
    id = serializers.UUIDField(
        source="uuid", help_text=gettext_lazy("As sent in X-Botifarra-Delivery.")
    )
    webhook = serializers.IntegerField(source="webhook_id")
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices)
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(
        allow_null=True, help_text=gettext_lazy("When the next try is due while it is being sent.")
    )
    payload = serializers.JSONField(
        help_text=gettext_lazy("The body sent (docs/api.md, Webhooks).")
    )
    attempts = WebhookAttemptSerializer(many=True)


def _organised(request: Request, pk: int) -> Event:
    """The event, for its organisers only (401 for an anonymous caller, 403 for anyone else)."""
    event = visible_event(request, pk)
    if not access.actor_for(request).is_organiser(event):
        access.refuse(request, _("Only the organisers of this event can do that."))
    return event


def _webhooks_body(event: Event) -> Any:
    return WebhookSerializer(Webhook.objects.filter(event=event).order_by("pk"), many=True).data


def _webhook(request: Request, pk: int, webhook_pk: int) -> Webhook:
    event = _organised(request, pk)
    return get_object_or_404(Webhook.objects.select_related("event"), pk=webhook_pk, event=event)


def _post(summary: str, description: str, request: Any, response: Any, *, code: int = 200) -> Any:
    return extend_schema(
        tags=TAGS,
        summary=summary,
        description=description,
        request=request,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={code: response, **WRITE},
    )


class WebhooksView(ApiView):
    @extend_schema(
        tags=TAGS,
        summary="An event's webhooks",
        description="The addresses that receive the event's notifications. Organisers only.",
        responses={200: WebhookSerializer(many=True), **READ},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(_webhooks_body(_organised(request, pk)))

    @_post(
        "Register a webhook",
        "The site will POST signed JSON to `url` when a round opens or closes, a result is "
        "confirmed, the standings change, a dispute opens or is ruled, and the event "
        "finishes. `secret` is made by the server and shown in this answer only. 400 for an "
        "address that is not http(s) or (in production) is on a private network; 409 for one "
        "already registered, or beyond the webhooks an event may have.",
        WebhookCreateSerializer,
        NewWebhookSerializer,
        code=201,
    )
    @idempotent(forget=("secret",))
    def post(self, request: Request, pk: int) -> Response:
        event = _organised(request, pk)
        body = WebhookCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        webhook = svc.webhook_create(
            event=event, actor=access.actor_for(request), url=body.validated_data["url"]
        )
        data = {**WebhookSerializer(webhook).data, "secret": webhook.secret}
        return Response(data, status=status.HTTP_201_CREATED)


class WebhookDeleteView(ApiView):
    @_post(
        "Remove a webhook",
        "Nothing more is sent to it; its deliveries are deleted with it. Answers the "
        "remaining webhooks.",
        None,
        WebhookSerializer(many=True),
    )
    @idempotent
    def post(self, request: Request, pk: int, webhook_pk: int) -> Response:
        webhook = _webhook(request, pk, webhook_pk)
        no_body(request)
        svc.webhook_delete(webhook=webhook, actor=access.actor_for(request))
        return Response(_webhooks_body(webhook.event))


class WebhookPingView(ApiView):
    @_post(
        "Send a test",
        "Queues a delivery of kind `ping` (empty `data`) to this webhook, to check the "
        "receiver and its signature check. Answers the delivery.",
        None,
        WebhookDeliverySerializer,
        code=202,
    )
    @idempotent
    def post(self, request: Request, pk: int, webhook_pk: int) -> Response:
        webhook = _webhook(request, pk, webhook_pk)
        no_body(request)
        delivery = svc.webhook_ping(webhook=webhook, actor=access.actor_for(request))
        return Response(_delivery_body(delivery), status=status.HTTP_202_ACCEPTED)


def _deliveries(webhook_pks: Any) -> QuerySet[WebhookDelivery]:
    return (
        WebhookDelivery.objects.filter(webhook__in=webhook_pks)
        .prefetch_related("attempts")
        .order_by("-created_at", "-pk")
    )


def _delivery_body(delivery: WebhookDelivery) -> Any:
    return WebhookDeliverySerializer(_deliveries([delivery.webhook_id]).get(pk=delivery.pk)).data


class WebhookDeliveriesView(generics.ListAPIView):
    serializer_class = WebhookDeliverySerializer
    parser_classes = [StorableJSONParser]

    def get_queryset(self) -> QuerySet[WebhookDelivery]:
        webhook = _webhook(self.request, self.kwargs["pk"], self.kwargs["webhook_pk"])
        return _deliveries([webhook.pk])

    @extend_schema(
        tags=TAGS,
        summary="A webhook's deliveries",
        description="Newest first, each with its attempts: when, how long, the receiver's "
        "status and the start of its answer. Organisers only.",
        responses={200: WebhookDeliverySerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class DeliveryResendView(ApiView):
    @_post(
        "Re-send a delivery",
        "The same delivery (same id and body, a new timestamp and signature) is sent again, "
        "with a fresh set of retries; its earlier attempts stay listed. Answers the delivery.",
        None,
        WebhookDeliverySerializer,
        code=202,
    )
    @idempotent
    def post(self, request: Request, pk: int, delivery_id: Any) -> Response:
        event = _organised(request, pk)
        delivery = get_object_or_404(
            WebhookDelivery.objects.select_related("webhook__event"),
            uuid=delivery_id,
            webhook__event=event,
        )
        no_body(request)
        delivery = svc.delivery_resend(delivery=delivery, actor=access.actor_for(request))
        return Response(_delivery_body(delivery), status=status.HTTP_202_ACCEPTED)
