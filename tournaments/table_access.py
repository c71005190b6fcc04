"""Who may use a table's pages: table codes and the session grant.

A table code is a bearer secret for one table of one round. Entering it stores that table (and,
once chosen, the pair you are) in the session; the pages of any other table answer 403. A code
is useless once its round is closed. Attempts at a code are counted by ``tournaments.ratelimit``
(one budget with the API's table tokens) so that a code cannot be found by trying.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import HttpRequest

from tournaments.actors import Actor
from tournaments.models import TABLE_CODE_ALPHABET, Round, Table

CODE_LENGTH = 6
SESSION_KEY = "table_grant"
SIDES = ("NS", "EW")


def normalise_code(raw: str | None) -> str:
    """Upper case, spaces and dashes removed: what people type from a printed card."""
    return "".join(ch for ch in (raw or "").upper() if not ch.isspace() and ch != "-")


def code_well_formed(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in TABLE_CODE_ALPHABET for ch in code)


def tables_with_code(code: str) -> QuerySet[Table]:
    """Tables carrying ``code`` (codes are unique per round), with what the pages show."""
    return (
        Table.objects.filter(code=code)
        .select_related(
            "round__event",
            "ns__pair__player1",
            "ns__pair__player2",
            "ew__pair__player1",
            "ew__pair__player2",
        )
        .order_by("-round__opened_at", "-pk")
    )


def open_table_for_code(code: str) -> tuple[Table | None, bool]:
    """(the table of an open round with this code, whether the code belongs to a closed round)."""
    tables = list(tables_with_code(code))
    for table in tables:
        if table.round.status == Round.Status.OPEN:
            return table, False
    return None, any(t.round.status == Round.Status.CLOSED for t in tables)


def player_open_table(user) -> Table | None:
    """The table of an open round where the logged-in user's pair sits (latest round first)."""
    if not user.is_authenticated:
        return None
    mine = (
        Q(ns__pair__player1__user=user)
        | Q(ns__pair__player2__user=user)
        | Q(ew__pair__player1__user=user)
        | Q(ew__pair__player2__user=user)
    )
    return (
        Table.objects.filter(mine, round__status=Round.Status.OPEN)
        .select_related("round")
        .order_by("-round__opened_at", "-pk")
        .first()
    )


# --- the session grant ---------------------------------------------------------------------


def grant(request: HttpRequest, table: Table, side: str | None = None) -> None:
    """Remember the table (one at a time) and, when known, the side this device speaks for."""
    request.session.cycle_key()  # a fresh session id for a new privilege
    request.session[SESSION_KEY] = {"table": table.pk, "side": side}


def set_side(request: HttpRequest, table: Table, side: str) -> None:
    request.session[SESSION_KEY] = {"table": table.pk, "side": side}


def granted(request: HttpRequest) -> dict | None:
    value = request.session.get(SESSION_KEY)
    return value if isinstance(value, dict) and "table" in value else None


@dataclass(frozen=True)
class Access:
    """How the current request may use a table's pages."""

    table: Table
    actor: Actor
    side: str  # "NS", "EW", or "" for an organiser acting as organiser
    organiser: bool

    @property
    def other_side(self) -> str:
        return {"NS": "EW", "EW": "NS"}.get(self.side, "")


class NoAccess(Exception):
    """``kind``: 'login' (send to the code form), 'forbidden', 'closed', or 'side' (choose)."""

    def __init__(self, kind: str, table: Table | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.table = table


def resolve(request: HttpRequest, raw_code: str, *, need_side: bool = True) -> Access:
    """The access the request has to the table with this code, or :class:`NoAccess`.

    Nothing about whether a code exists is told to someone who holds no right to it.
    """
    code = normalise_code(raw_code)
    user = request.user
    held = granted(request)
    tables = list(tables_with_code(code)) if code_well_formed(code) else []
    table: Table | None = None
    via_grant = False
    if held is not None:
        table = next((t for t in tables if t.pk == held["table"]), None)
        via_grant = table is not None
    if table is None and user.is_authenticated:
        for candidate in tables:
            event = candidate.round.event
            if event.is_organiser(user) or Actor(user=user).sits_at(candidate):
                table = candidate
                break
    if table is None:
        if held is not None or user.is_authenticated:
            raise NoAccess("forbidden")
        raise NoAccess("login")
    if table.round.status != Round.Status.OPEN:
        raise NoAccess("closed", table)
    event = table.round.event
    organiser = event.is_organiser(user)
    if organiser:
        side = (held or {}).get("side") if via_grant else ""
        side = side if side in SIDES else ""
        if side:
            return Access(table, Actor(user=user, table=table, side=side), side, True)
        return Access(table, Actor(user=user), "", True)
    if via_grant:
        side = held.get("side") if held else None
        if side not in SIDES:
            if need_side:
                raise NoAccess("side", table)
            return Access(table, Actor(table=table, side=None), "", False)
        return Access(table, Actor(table=table, side=side), side, False)
    actor = Actor(user=user)
    return Access(table, actor, actor.side_at(table) or "", False)
