"""The OpenAPI schema lists every status an operation can answer, with the error's shape.

A view lists the errors of its own logic (``errors(400, 409)``); ``ApiSchema`` adds those that
any operation of its kind can answer, whatever its view does:

- 401 where the view authenticates (a token that is wrong or no longer valid is refused
  before the view runs), 403 on a write through a browser session (CSRF);
- 404 where the path names an object;
- 400 everywhere (a ``?format=`` other than ``json``; on a paginated list also a ``limit`` or
  ``offset`` out of range);
- 413 and 415 on a write (a body over the route's limit, a body that is not JSON);
- 503 everywhere (the database did not answer; nothing was stored).
"""

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication

from api.serializers import ErrorSerializer
from tournaments.idempotency import HEADER, REPLAYED_HEADER

TEXT = {
    400: "Bad input: every problem with its field path.",
    401: "Not authenticated, or the token is not valid (any more).",
    403: "Not yours: not your table, not your event, or not allowed in your role.",
    404: "No such object (or not visible to you).",
    409: "Conflict: the object is not in a state that allows this (see the message), or it "
    "changed meanwhile (version).",
    413: "The body is larger than this route accepts; nothing was stored.",
    415: "The body is not JSON.",
    422: "This Idempotency-Key was used for a different request.",
    429: "Too many attempts: wait (the message says how long) and try again.",
    503: "The database did not answer; nothing was stored. Try again (Retry-After).",
}
WRITES = ("POST", "PUT", "PATCH")


NOT_MODIFIED = {
    304: OpenApiResponse(
        description="Not modified: the answer is the one whose ETag you sent in If-None-Match "
        "(no body)."
    )
}


# The headers docs/api.md promises, declared where they are sent.
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[429, 503],
    description="Seconds to wait before trying again.",
)
# On the success of a write that takes an Idempotency-Key (declared by extend_schema, whose
# parameters come after this class's: hence added where the response headers are built).
REPLAYED = {
    "schema": {"type": "string", "enum": ["true"]},
    "description": "Present when this is the stored answer to the first request with the same "
    "Idempotency-Key: nothing new was stored.",
}
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="Identifies this answer: send it in If-None-Match to get a 304 while it is "
    "unchanged.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the answer you hold: a 304 without a body if it is still the same.",
)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error responses ``codes`` for ``extend_schema(responses=...)``."""
    return {code: OpenApiResponse(ErrorSerializer, description=TEXT[code]) for code in codes}


class ApiSchema(AutoSchema):
    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        parameters.append(RETRY_AFTER)
        if getattr(self.view, "conditional_get", False) and self.method == "GET":
            parameters += [IF_NONE_MATCH, ETAG]
        return parameters

    def _implied_errors(self) -> list[int]:
        view, write = self.view, self.method in WRITES
        codes = [503]
        authenticators = view.get_authenticators()
        if authenticators:
            codes.append(401)
            if write and any(isinstance(a, SessionAuthentication) for a in authenticators):
                codes.append(403)
        if "{" in self.path:
            codes.append(404)
        codes.append(400)  # ?format= other than json (api/negotiation.py), and bad paging
        if write:
            codes += [413, 415]
        return codes

    def _get_response_headers_for_code(self, status_code: Any, direction: Any = "response") -> Any:
        headers = super()._get_response_headers_for_code(status_code, direction)
        keyed = any(getattr(p, "name", None) == HEADER for p in self.get_override_parameters())
        if keyed and str(status_code) in ("200", "201", "202"):
            headers = {**headers, REPLAYED_HEADER: REPLAYED}
        return headers

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        # A list of objects some of which are null (drf-spectacular drops the child's null).
        child = getattr(field, "child", None)
        items = schema.get("items", {})
        if (
            isinstance(field, serializers.ListField)
            and isinstance(child, serializers.BaseSerializer)
            and child.allow_null
            and "$ref" in items
        ):
            schema["items"] = {"allOf": [items], "nullable": True}
        return schema

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for code, response in errors(*self._implied_errors()).items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    response, str(code), direction=direction
                )
        return dict(sorted(responses.items()))
