"""Pages of every API list: ``limit`` (1–200, 100 by default) and ``offset`` (0 or more).

DRF's ``LimitOffsetPagination`` ignores a limit it cannot read and passes any integer to the
database: ``limit=10**30`` became an out-of-range SQL LIMIT and a 503. Here a value that is not
a whole number in range is a 400 naming the parameter.
"""

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_LIMIT = 200
MAX_OFFSET = 2**31 - 1


def _bounded(request: Request, name: str, *, low: int, high: int, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    text = raw.strip()
    digits = text.removeprefix("-")
    readable = digits.isascii() and digits.isdigit() and len(digits) <= 12
    if not readable or not low <= int(text) <= high:
        raise ValidationError(
            {
                name: [
                    _("Give a whole number from %(low)s to %(high)s.") % {"low": low, "high": high}
                ]
            }
        )
    return int(text)


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request: Request) -> int:
        assert self.default_limit is not None
        return _bounded(
            request, self.limit_query_param, low=1, high=MAX_LIMIT, default=self.default_limit
        )

    def get_offset(self, request: Request) -> int:
        return _bounded(request, self.offset_query_param, low=0, high=MAX_OFFSET, default=0)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "default": self.default_limit,
            },
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET, "default": 0},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
