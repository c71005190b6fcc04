"""``Idempotency-Key``: a submission sent twice (a retry after a lost answer) runs once.

The first response (status and exact bytes) is stored in ``IdempotentResponse`` under the
authenticated principal and the path; a repeat with the same key gets those bytes back and changes
nothing. A repeat with the same key and a different body is refused with 422.

The race: two identical requests at the same moment. The key row is inserted *first*, in the
transaction that then runs the submission; the second request's insert waits on the unique index
(PostgreSQL) or on the write lock (SQLite) until the first commits, then finds the row and replays
it. If the first fails (any 4xx), its transaction rolls back, key row included, so a retry runs.

The model has no column for the request's fingerprint, so ``body`` holds
``{"request": sha256 of the canonical request JSON, "content": the response text}``: the response
is kept as text so that PostgreSQL's ``jsonb`` (which reorders keys) cannot change its bytes.
"""

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.authentication import TableUser
from api.errors import IdempotencyKeyReused
from tournaments.models import IdempotentResponse

HEADER = "Idempotency-Key"
MAX_KEY = 200
SCOPE_MAX = 80
REPLAYED_HEADER = "Idempotent-Replayed"

IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (a UUID) chosen by the client for this submission. Sending "
    "the same key again returns the first response unchanged and stores nothing new; the same "
    "key with a different body is refused with 422.",
)


class KeyInUse(APIException):
    status_code = 409
    default_detail = _lazy("A request with this Idempotency-Key is still being processed.")
    default_code = "idempotency_key_in_use"


def principal(request: Request) -> str:
    user = request.user
    if isinstance(user, TableUser):
        return f"t{user.table.pk}{user.side or ''}"
    return f"u{user.pk}"


def scope_for(request: Request) -> str:
    scope = f"{principal(request)} {request.path}"
    if len(scope) > SCOPE_MAX:
        scope = f"{principal(request)} #{hashlib.sha256(request.path.encode()).hexdigest()}"
    return scope[:SCOPE_MAX]


def fingerprint(request: Request) -> str:
    data = request.data
    if hasattr(data, "lists"):  # a form's QueryDict
        data = dict(data.lists())
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _replay(row: IdempotentResponse, request_hash: str) -> HttpResponse:
    body = row.body if isinstance(row.body, dict) else {}
    if body.get("request") != request_hash:
        raise IdempotencyKeyReused()
    response = HttpResponse(
        body.get("content", ""), status=row.status_code, content_type="application/json"
    )
    response[REPLAYED_HEADER] = "true"
    return response


def _rendered(response: Response | HttpResponse) -> HttpResponse:
    if not isinstance(response, Response):
        return response
    content = JSONRenderer().render(response.data)
    out = HttpResponse(content, status=response.status_code, content_type="application/json")
    for header, value in response.items():
        if header.lower() != "content-type":
            out[header] = value
    return out


def idempotent(method: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate an API view's ``post``: honour the ``Idempotency-Key`` header when present."""

    @wraps(method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER, "").strip()
        if not key:
            return method(self, request, *args, **kwargs)
        if len(key) > MAX_KEY or "\x00" in key:
            raise ValidationError(
                {HEADER: [_("An Idempotency-Key has at most %(n)s characters.") % {"n": MAX_KEY}]}
            )
        scope, request_hash = scope_for(request), fingerprint(request)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    row = IdempotentResponse.objects.create(
                        scope=scope, key=key, status_code=0, body={"request": request_hash}
                    )
            except IntegrityError:
                # Another request with this key committed first (we waited for it): replay it.
                existing = IdempotentResponse.objects.filter(scope=scope, key=key).first()
                if existing is None or existing.status_code == 0:
                    raise KeyInUse() from None
                return _replay(existing, request_hash)
            response = _rendered(method(self, request, *args, **kwargs))
            if response.status_code >= 400:
                # Nothing was done: forget the key so that a corrected retry may use it.
                transaction.set_rollback(True)
                return response
            row.status_code = response.status_code
            row.body = {"request": request_hash, "content": response.content.decode("utf-8")}
            row.save(update_fields=["status_code", "body"])
            return response

    return wrapper
