"""Every API error is JSON: a 400 names the field and says what is wrong, in a sentence.

The shape is always ``{"detail": sentence, "errors": [{"field": path, "message": sentence}]}``:
``detail`` repeats the first message, ``errors`` lists every problem with the path of the value
it concerns (``totals.NS``, ``record.play[17]``, ``doubles[0].seat``; ``body`` for a body that is
not JSON, ``non_field_errors`` when no single field is to blame).
"""

import logging
from typing import Any

from django.db import DatabaseError, DataError, IntegrityError
from django.http import Http404, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api import idempotency
from api.authentication import TokenStopped
from api.principals import table_principal
from engine import MAX_PROBLEMS, clip
from tournaments.services import ServiceError
from tournaments.services.results import InvalidSubmission

NON_FIELD = "non_field_errors"
NO_DATA = "No data provided"  # DRF's own message for a body of `null`, in English only
# A value a client sent is echoed cut to ECHO_LIMIT characters where it is quoted (the engine's
# problems, api.serializers.ChoiceField); these bound a whole message and a field path.
MESSAGE_LIMIT = 500
FIELD_LIMIT = 200
log = logging.getLogger(__name__)

# Errors that are about the request as a whole get a field name a client can act on.
FIELD_OF = {
    exceptions.ParseError: "body",
    exceptions.UnsupportedMediaType: "body",
    exceptions.NotAuthenticated: "authorization",
    exceptions.AuthenticationFailed: "authorization",
}


def _bounded(errors: list[dict[str, str]]) -> list[dict[str, str]]:
    """At most MAX_PROBLEMS errors (the last then says how many more), each field and message
    of bounded length: a field path can hold a client's key, a message a client's value."""
    out = [
        {
            "field": clip(str(e["field"]), limit=FIELD_LIMIT),
            "message": clip(str(e["message"]), limit=MESSAGE_LIMIT),
        }
        for e in errors
    ]
    if len(out) > MAX_PROBLEMS:
        more = len(out) - (MAX_PROBLEMS - 1)
        note = _("%(n)s more problems were found and are not listed.") % {"n": more}
        out = [*out[: MAX_PROBLEMS - 1], {"field": NON_FIELD, "message": str(note)}]
    return out


def error_body(errors: list[dict[str, str]]) -> dict[str, Any]:
    errors = _bounded(errors)
    return {"detail": errors[0]["message"] if errors else "", "errors": errors}


def service_error_response(exc: ServiceError) -> Response:

    code = {"conflict": status.HTTP_409_CONFLICT, "forbidden": status.HTTP_403_FORBIDDEN}.get(
        exc.code, status.HTTP_400_BAD_REQUEST
    )
    if isinstance(exc, InvalidSubmission):
        errors = [{"field": p.path, "message": p.message} for p in exc.problems]
    else:
        errors = [{"field": exc.field or NON_FIELD, "message": str(exc.message)}]
    return Response(error_body(errors), status=code)


def _flatten(data: Any, prefix: str = "") -> list[dict[str, str]]:
    if isinstance(data, dict):
        out = []
        for key, value in data.items():
            if isinstance(key, int):  # DRF keys a list's errors by position
                path = f"{prefix}[{key}]"
            elif key == NON_FIELD:
                path = prefix
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            out += _flatten(value, path)
        return out
    if isinstance(data, list):
        if all(not isinstance(v, (dict, list)) for v in data):
            return [{"field": prefix or NON_FIELD, "message": str(v)} for v in data]
        out = []
        for i, value in enumerate(data):
            if value in ({}, []):
                continue  # DRF's "no error at this position" in a list of objects
            out += _flatten(value, f"{prefix}[{i}]")
        return out
    return [{"field": prefix or NON_FIELD, "message": str(data)}]


def _throttled_message(wait: float | None) -> str:
    if wait is None:
        return str(_("Too many attempts: wait a moment and try again."))
    seconds = max(1, round(wait))
    return ngettext(
        "Too many attempts: try again in %(n)s second.",
        "Too many attempts: try again in %(n)s seconds.",
        seconds,
    ) % {"n": seconds}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | HttpResponse | None:
    if isinstance(exc, TokenStopped):
        # The same POST sent again by a token that no longer acts: its stored answer, if any.
        answer = idempotency.stored_answer(
            context["request"], table_principal(exc.table_pk, exc.side)
        )
        if answer is not None:
            return answer
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    if isinstance(exc, IntegrityError):
        # A constraint caught a race the services' locks did not: the other write won.
        log.warning("integrity error during an API request", exc_info=exc)
        message = _("This changed meanwhile: reload it and try again.")
        return Response(
            error_body([{"field": NON_FIELD, "message": str(message)}]),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, DataError):
        # A value the checks let through that the column cannot hold (too long, out of range):
        # the request's fault, and sending it again would fail again, so not the 503 below.
        log.error("a value the database cannot hold reached it", exc_info=exc)
        message = _(
            "A value is too long or out of range for what is stored here; nothing was stored."
        )
        return Response(
            error_body([{"field": "body", "message": str(message)}]),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DatabaseError):
        # The database is unreachable or failed mid-request. The transaction was rolled back, so
        # nothing was stored: say so, and when to retry (with the same Idempotency-Key).
        log.error("database error during an API request", exc_info=exc)
        message = _("The database is not answering; nothing was stored. Try again in a moment.")
        response = Response(
            error_body([{"field": NON_FIELD, "message": str(message)}]),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        response["Retry-After"] = "5"
        return response
    if isinstance(exc, Http404):
        # Django's get_object_or_404 says "No Event matches the given query.", in English and
        # with a class name: the client is told in its own language.
        exc = exceptions.NotFound(
            _("Not found: nothing here has this number, or you may not see it.")
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.Throttled):
        # DRF's own sentence is half translated ("… Expected available in 42 seconds.").
        data = {"detail": _throttled_message(exc.wait)}
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # So is this one in Catalan ("Media type … no suportat.").
        request = context.get("request")
        sent = getattr(request, "content_type", "") or "?"
        data = {
            "detail": _("The body must be JSON (Content-Type: application/json), not %(type)s.")
            % {"type": clip(sent)}
        }
    if isinstance(exc, exceptions.ValidationError) and data == {NON_FIELD: [NO_DATA]}:
        # A body of `null`: DRF's sentence for it is not translatable (nor a sentence).
        data = {"detail": _("The body must be a JSON object, not null.")}
        exc.field = "body"
    if isinstance(data, dict) and set(data) == {"detail"}:
        field = next((f for cls, f in FIELD_OF.items() if isinstance(exc, cls)), NON_FIELD)
        field = getattr(exc, "field", None) or field  # a refused body names the value
        errors = [{"field": field, "message": str(data["detail"])}]
    else:
        errors = _flatten(data)
    response.data = error_body(errors)
    return response
