"""``Idempotency-Key`` on the API's submissions: the sender is the authenticated principal (a
table's side or a user) and the body DRF's parsed data. The storing, the replay and the race are
in :mod:`tournaments.idempotency`, shared with the table pages.
"""

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.principals import principal
from tournaments import idempotency as once
from tournaments.idempotency import HEADER, MAX_KEY, REPLAYED_HEADER

__all__ = ["HEADER", "IDEMPOTENCY_PARAMETER", "REPLAYED_HEADER", "idempotent"]

IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (a UUID) chosen by the client for this submission. Sending "
    "the same key again returns the first response unchanged and stores nothing new; the same "
    "key with a different body is refused with 422.",
)


class IdempotencyKeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = _lazy(
        "This Idempotency-Key was already used for a different request: use a new key for a "
        "new submission."
    )
    default_code = "idempotency_key_reused"
    field = "Idempotency-Key"  # where api.errors files the message


class KeyInUse(APIException):
    status_code = 409
    default_detail = _lazy("A request with this Idempotency-Key is still being processed.")
    default_code = "idempotency_key_in_use"


def scope_for(request: Request) -> str:
    return once.scope_for(principal(request), request.path)


def fingerprint(request: Request) -> str:
    data = request.data
    if hasattr(data, "lists"):  # a form's QueryDict
        data = dict(data.lists())
    return once.fingerprint(data)


def stored_answer(request: Request, sender: str) -> HttpResponse | None:
    """The answer stored for this ``POST``'s key and body under ``sender`` (a principal), replayed,
    or None: no key, another key, another body, a body that cannot be read. For a sender whose
    credentials no longer act (a table token after its round closed or once it expired): it gets
    the answer to what it already submitted, nothing else (``tournaments.idempotency``)."""
    if request.method != "POST":
        return None
    key = request.headers.get(HEADER, "").strip()
    if not key or not once.key_ok(key):
        return None
    try:
        request_hash = fingerprint(request)
    except APIException:  # a body that is not JSON, too large, …: nothing was stored for it
        return None
    scope = once.scope_for(sender, request.path)
    return once.stored_answer(scope=scope, key=key, request_hash=request_hash)


def _rendered(response: Response | HttpResponse) -> HttpResponse:
    if not isinstance(response, Response):
        return response
    content = JSONRenderer().render(response.data)
    out = HttpResponse(content, status=response.status_code, content_type="application/json")
    for header, value in response.items():
        if header.lower() != "content-type":
            out[header] = value
    return out


def _without(fields: tuple[str, ...]) -> Callable[[HttpResponse], str]:
    def stored(response: HttpResponse) -> str:
        data = json.loads(response.content)
        if isinstance(data, dict):
            data.update({field: None for field in fields if field in data})
        return JSONRenderer().render(data).decode("utf-8")

    return stored


def idempotent(method: Callable[..., Any] | None = None, *, forget: tuple[str, ...] = ()) -> Any:
    """Decorate an API view's ``post``: honour the ``Idempotency-Key`` header when present.
    ``forget``: fields of the answer that are shown once (a secret link) and replayed as null."""
    if method is None:
        return lambda m: idempotent(m, forget=forget)

    @wraps(method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER, "").strip()
        if not key:
            return method(self, request, *args, **kwargs)
        if not once.key_ok(key):
            raise ValidationError(
                {HEADER: [_("An Idempotency-Key has at most %(n)s characters.") % {"n": MAX_KEY}]}
            )
        try:
            return once.run_once(
                scope=scope_for(request),
                key=key,
                request_hash=fingerprint(request),
                run=lambda: _rendered(method(self, request, *args, **kwargs)),
                stored=_without(forget) if forget else None,
            )
        except once.KeyReused:
            raise IdempotencyKeyReused() from None
        except once.KeyBusy:
            raise KeyInUse() from None

    return wrapper
