"""Table tokens: whoever holds a table's code may act for that table, in that round only."""

from django.core import signing
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from tournaments.models import Round, Table

TABLE_TOKEN_SALT = "botifarra.table-token"


def table_token(table: Table, side: str | None = None) -> str:
    return signing.dumps({"t": table.pk, "s": side or ""}, salt=TABLE_TOKEN_SALT)


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

    def get_username(self) -> str:
        return f"table {self.table.number}"

    def __str__(self) -> str:
        return self.get_username()


class TableTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Table"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid table token header."))
        try:
            data = signing.loads(header[1].decode(), salt=TABLE_TOKEN_SALT)
            table = Table.objects.select_related("round__event", "ns__pair", "ew__pair").get(
                pk=data["t"]
            )
        except (signing.BadSignature, Table.DoesNotExist, KeyError, UnicodeDecodeError):
            raise exceptions.AuthenticationFailed(_("Invalid table token.")) from None
        if table.round.status != Round.Status.OPEN:
            raise exceptions.AuthenticationFailed(_("This table's round is not open any more."))
        return (TableUser(table, data.get("s")), None)

    def authenticate_header(self, request) -> str:
        return self.keyword
