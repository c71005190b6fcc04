"""Who sends an API request: a table side acting with its token (``TableUser``, set by
``api.authentication``) or an account, and the name the API's keys and throttles file it under."""

from rest_framework.request import Request

from tournaments.actors import Actor
from tournaments.models import Table


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


def table_principal(table_pk: int, side: str | None) -> str:
    return f"t{table_pk}{side or ''}"


def principal(request: Request) -> str:
    user = request.user
    if isinstance(user, TableUser):
        return table_principal(user.table.pk, user.side)
    return f"u{user.pk}"
