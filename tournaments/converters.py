"""``<num:…>`` in the URL patterns: a number of the site (an id, a round's or a board's number)
as ``<int:…>`` reads it, but at most 18 digits. A longer one cannot name anything (ids are
64-bit), and handed to the database it would overflow the column's type (a server error where
a 404 is the answer)."""

from django.urls import register_converter


class NumberConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    register_converter(NumberConverter, "num")
