"""Every API error is JSON: a 400 names the field and says what is wrong, in a sentence."""

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.services import ServiceError


def service_error_response(exc: ServiceError) -> Response:
    from tournaments.services.results import InvalidSubmission

    code = {"conflict": status.HTTP_409_CONFLICT, "forbidden": status.HTTP_403_FORBIDDEN}.get(
        exc.code, status.HTTP_400_BAD_REQUEST
    )
    if isinstance(exc, InvalidSubmission):
        errors = [{"field": p.path, "message": p.message} for p in exc.problems]
    else:
        errors = [{"field": exc.field or "non_field_errors", "message": exc.message}]
    return Response({"detail": errors[0]["message"], "errors": errors}, status=code)


def _flatten(data: Any, prefix: str = "") -> list[dict[str, str]]:
    if isinstance(data, dict):
        out = []
        for key, value in data.items():
            path = key if not prefix else (f"{prefix}.{key}" if key != "non_field_errors" else prefix)
            out += _flatten(value, path)
        return out
    if isinstance(data, list):
        if all(not isinstance(v, (dict, list)) for v in data):
            return [{"field": prefix or "non_field_errors", "message": str(v)} for v in data]
        out = []
        for i, value in enumerate(data):
            out += _flatten(value, f"{prefix}[{i}]")
        return out
    return [{"field": prefix or "non_field_errors", "message": str(data)}]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and set(data) == {"detail"}:
        response.data = {"detail": str(data["detail"]),
                         "errors": [{"field": "non_field_errors", "message": str(data["detail"])}]}
    else:
        errors = _flatten(data)
        response.data = {"detail": errors[0]["message"] if errors else "", "errors": errors}
    return response
