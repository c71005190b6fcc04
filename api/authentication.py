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
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from tournaments.actors import Actor
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
    row = TableToken(table=table, side=side, digest=_digest(token))
    insert_all([row])
    return token, row


def table_token(table: Table, side: str) -> str:
    return issue_table_token(table, side)[0]


def expires_at(row: TableToken) -> dt.datetime:
    return row.created_at + lifetime()


class StoredAnswer(exceptions.APIException):
    """Not an error: the request is answered by ``response``, the stored answer to the same
    request, although its token no longer acts (its round closed, or it expired). Raised by the
    authentication, before the view runs, so that nothing else of the request is done;
    ``api.errors.exception_handler`` sends it."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__()
        self.response = response


class TableUser:
    """Stands in for request.user when a table token authenticates the request."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    is_active = True
    pk = None
    id = None

    def __init__(self, table: Table, side: str) -> None:
        self.table = table
        self.side = side

    @property
    def actor(self) -> Actor:
        return Actor(table=self.table, side=self.side)

    def get_username(self) -> str:
        return f"table {self.table.number}"

    def __str__(self) -> str:
        return self.get_username()


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
        if found is None or found.side not in SIDES:
            raise exceptions.AuthenticationFailed(invalid)
        table, side = found.table, found.side
        expired = expires_at(found) <= timezone.now()
        if expired or table.round.status != Round.Status.OPEN:
            _replay_stored(request, table, side)
            if expired:
                raise exceptions.AuthenticationFailed(invalid)
            raise exceptions.AuthenticationFailed(_("This table's round is not open any more."))
        return (TableUser(table, side), None)

    def authenticate_header(self, request) -> str:
        return self.keyword


def _replay_stored(request, table: Table, side: str) -> None:
    """A token that no longer acts (its round closed, or it expired) still gets the stored answer
    to a ``POST`` it already made, sent again with the same ``Idempotency-Key`` and body: the
    answer that was lost on the way (docs/api.md, Idempotency). Raises :class:`StoredAnswer`
    with it; returns when there is none, and the token is refused as before."""
    from api import idempotency  # it imports TableUser from here

    answer = idempotency.stored_answer(request, idempotency.table_principal(table.pk, side))
    if answer is not None:
        raise StoredAnswer(answer)


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
