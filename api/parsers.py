"""The API's JSON parser: ``tournaments.jsonio.read_json``, the reader the web pages use too.

It refuses, as a 400 on ``body`` in the reader's language, what the database could not store
(NUL characters, lone surrogates, infinite or out-of-range numbers, ``NaN``), nesting deep enough
to exhaust a stack, and bodies over the API's size limit; a body that is not JSON gets a sentence
with the line and column, not Python's message.
"""

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from tournaments.body_limits import API_JSON_MAX_BYTES, ARCHIVE, CSV_UPLOAD
from tournaments.jsonio import MAX_DEPTH, JSONRejected, read_json

# Refusals of one value, which then names the field; the others concern the text as a whole.
VALUE_CODES = ("constant", "number", "nul", "surrogate")


class BodyRejected(ParseError):
    """A refused body; ``field`` is the path of the value concerned (``body`` for the text as a
    whole), so that the error names it like any other field error."""

    def __init__(self, rejected: JSONRejected) -> None:
        super().__init__(rejected.message)
        self.field = rejected.path if rejected.code in VALUE_CODES and rejected.path else "body"


class StorableJSONParser(JSONParser):
    max_bytes = API_JSON_MAX_BYTES
    max_depth = MAX_DEPTH

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        # The body-size middleware has already refused a larger Content-Length; reading one
        # byte more than the limit still catches a body that arrives without one.
        raw = stream.read(self.max_bytes + 1) if stream is not None else b""
        try:
            return read_json(raw, max_bytes=self.max_bytes, max_depth=self.max_depth)
        except JSONRejected as exc:
            raise BodyRejected(exc) from None


class ArchiveJSONParser(StorableJSONParser):
    """An event archive: larger than any other body, and nested deeper (a play record's hands
    inside a submission inside a result)."""

    max_bytes = ARCHIVE
    max_depth = 32


class PairsCsvJSONParser(StorableJSONParser):
    """The pairs' CSV import: the organiser's page takes a file of 512 KB; the API takes the
    same file as a JSON string (its escapes make it longer)."""

    max_bytes = CSV_UPLOAD
