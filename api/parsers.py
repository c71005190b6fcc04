"""A JSON parser that refuses, as a 400 on ``body``, what the database could not store.

PostgreSQL rejects a NUL character in text and in ``jsonb``, lone surrogates cannot be encoded
as UTF-8, and ``1e999`` parses as an infinite float that JSON cannot write back: each of these
would otherwise surface as a 500 deep inside a save. A very deeply nested body is refused here
too, before anything recurses over it.
"""

import codecs
import json
import math
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

MAX_DEPTH = 64


def _check_storable(data: Any) -> None:
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ParseError(_("The JSON is nested too deeply."))
        if isinstance(value, str):
            if "\x00" in value:
                raise ParseError(_("The text contains a NUL character, which cannot be stored."))
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError(_("The text contains an invalid Unicode character.")) from None
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ParseError(_("A number in the JSON is too large."))
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


class StorableJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(text, parse_constant=strict_constant)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None
        except (ValueError, LookupError) as exc:
            raise ParseError(_("The body is not valid JSON: %(error)s") % {"error": exc}) from None
        _check_storable(data)
        return data
