"""Table tokens: whoever holds a table's code may act for that table, in that round only.

A token is signed (never stored) and names the table, the side and the table's code. It stops
working when the round closes, and when the organiser gives the table a new code (so a code that
leaked can be revoked by changing it).
"""

import hmac

from django.core import signing
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from tournaments.actors import Actor
from tournaments.models import Round, Table

TABLE_TOKEN_SALT = "botifarra.table-token"
SIDES = ("NS", "EW")


def table_token(table: Table, side: str | None = None) -> str:
    return signing.dumps({"t": table.pk, "s": side or "", "c": table.code}, salt=TABLE_TOKEN_SALT)


class TableUser:
    """Stands in for request.user when a table token authenticates the request."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False
    is_active = True
    pk = None
    id = None

    def __init__(self, table: Table, side: str | None) -> None:
        self.table = table
        self.side = side or None

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
            data = signing.loads(header[1].decode(), salt=TABLE_TOKEN_SALT)
            table = Table.objects.select_related(
                "round__event",
                "ns__pair__player1",
                "ns__pair__player2",
                "ew__pair__player1",
                "ew__pair__player2",
            ).get(pk=data["t"])
            side = data.get("s") or None
        except (
            signing.BadSignature,
            Table.DoesNotExist,
            KeyError,
            TypeError,
            ValueError,
            UnicodeDecodeError,
        ):
            raise exceptions.AuthenticationFailed(_("Invalid table token.")) from None
        if side not in (None, *SIDES) or not hmac.compare_digest(
            str(data.get("c", "")), table.code
        ):
            raise exceptions.AuthenticationFailed(
                _("This table token is no longer valid: enter the table code again.")
            )
        if table.round.status != Round.Status.OPEN:
            raise exceptions.AuthenticationFailed(_("This table's round is not open any more."))
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
            "description": "`Table <token>`: the token from `POST /api/v1/table-token`, valid for "
            "that table while its round is open.",
        }
