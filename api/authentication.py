"""Table tokens: whoever holds a side's code may act for that side of that table, in that round.

A token is an opaque random string; the database keeps only its SHA-256 (``TableToken``), so a
token tells nothing about the table or its codes. It stops working when the round closes, when
the organiser gives the table new codes (which deletes its tokens), and at the latest
``TABLE_TOKEN_HOURS`` after it was issued (its ``expires``: a lost phone's token does not outlive
the evening). A token stopped by the close or by time still gets the stored answer of a ``POST``
it made, sent again with the same ``Idempotency-Key`` and body, and nothing else; a deleted one
gets nothing.
"""

import datetime as dt
import hashlib
import secrets

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from api.principals import TableUser
from tournaments.models import Round, Table, TableToken
from tournaments.prepared import Prepared
from tournaments.rows import insert_all

SIDES = ("NS", "EW")

# What a table's requests use: its round, event and the two entries (their numbers). The pairs
# and players are read only by the pages, which authenticate by session.
_TOKEN = Prepared(
    lambda digest: TableToken.objects.select_related(
        "table__round__event", "table__ns", "table__ew"
    ).filter(digest=digest),
    digest=str,
)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def lifetime() -> dt.timedelta:
    return dt.timedelta(hours=settings.TABLE_TOKEN_HOURS)


def issue_table_token(table: Table, side: str) -> tuple[str, TableToken]:
    """A new token for ``side`` of ``table`` and its row (only its digest is stored)."""
    token = secrets.token_urlsafe(32)
    row = TableToken(
        table=table, side=side, digest=_digest(token), codes_version=table.codes_version
    )
    insert_all([row])
    return token, row


def table_token(table: Table, side: str) -> str:
    return issue_table_token(table, side)[0]


def expires_at(row: TableToken) -> dt.datetime:
    return row.created_at + lifetime()


class TokenStopped(exceptions.AuthenticationFailed):
    """A token found but no longer acting: its round closed, or it expired. Refused as any
    other, except that a ``POST`` it already made, sent again with the same ``Idempotency-Key``
    and body, gets its stored answer, the one lost on the way (``api.errors.exception_handler``;
    docs/api.md, Idempotency)."""

    def __init__(self, detail: str, *, table_pk: int, side: str) -> None:
        super().__init__(detail)
        self.table_pk = table_pk
        self.side = side


class TableTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Table <token>``, the token from ``POST /api/v1/table-token``."""

    keyword = "Table"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid table token header."))
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid table token.")) from None
        found = _TOKEN.first(digest=_digest(token))
        invalid = _("This table token is not valid (or no longer): enter your code again.")
        if (
            found is None
            or found.side not in SIDES
            or found.codes_version != found.table.codes_version
        ):
            raise exceptions.AuthenticationFailed(invalid)
        table, side = found.table, found.side
        expired = expires_at(found) <= timezone.now()
        if expired or table.round.status != Round.Status.OPEN:
            raise TokenStopped(
                invalid if expired else _("This table's round is not open any more."),
                table_pk=table.pk,
                side=side,
            )
        return (TableUser(table, side), None)

    def authenticate_header(self, request) -> str:
        return self.keyword


class TableTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Table <token>`: the token from `POST /api/v1/table-token`, acting "
            "for one side of one table while its round is open (until new codes are issued). "
            "After the close or its `expires` it only replays the stored answer of a `POST` it "
            "made, sent again with the same `Idempotency-Key` and body.",
        }
