"""Who may use a table's pages: side codes and the session grant.

Each side of a table has its own code, a bearer secret for that side of that table in that round
(printed on its half of the table card). Entering it stores the table and the side in the
session; the pages of any other table answer 403. The other pair confirms with its own code, on
its own phone or typed on the same one. A code is useless once its round is closed or the
organiser has issued new codes (but the phone that held it still opens the pair's own read-only
evening pages of the closed round). Attempts at a code are counted by ``tournaments.ratelimit``
(one budget with the API's table tokens) so that a code cannot be found by trying.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import HttpRequest

from tournaments.actors import Actor
from tournaments.models import TABLE_CODE_ALPHABET, Round, Table
from tournaments.prepared import Prepared

CODE_LENGTH = 6
SESSION_KEY = "table_grant"
SIDES = ("NS", "EW")


def normalise_code(raw: str | None) -> str:
    """Upper case, spaces and dashes removed: what people type from a printed card."""
    return "".join(ch for ch in (raw or "").upper() if not ch.isspace() and ch != "-")


def code_well_formed(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in TABLE_CODE_ALPHABET for ch in code)


PAGE_RELATED = (
    "ns__pair__player1",
    "ns__pair__player2",
    "ew__pair__player1",
    "ew__pair__player2",
)


def tables_with_code(code: str, *, players: bool = True) -> QuerySet[Table]:
    """Tables carrying ``code`` on either side (codes are unique per round), with what the
    pages show (``players``: the pairs and their players; the API's token needs neither)."""
    related = ("round__event", *PAGE_RELATED) if players else ("round__event",)
    return (
        Table.objects.filter(Q(code_ns=code) | Q(code_ew=code))
        .select_related(*related)
        .order_by("-round__opened_at", "-pk")
    )


# Asked by every code typed and every token issued: compiled once (tournaments.prepared).
_WITH_CODE = {
    players: Prepared(
        lambda code, players=players: tables_with_code(code, players=players), code=str
    )
    for players in (False, True)
}


def open_table_for_code(code: str, *, players: bool = True) -> tuple[Table | None, bool]:
    """(the table of an open round with this code, whether the code belongs to a closed round)."""
    tables = _WITH_CODE[players].all(code=code)
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


def grant(request: HttpRequest, table: Table, side: str) -> None:
    """Remember the table and the side whose code was typed (one at a time)."""
    request.session.cycle_key()  # a fresh session id for a new privilege
    request.session[SESSION_KEY] = {"table": table.pk, "side": side, "v": table.codes_version}


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
    code: str  # the code in the page's address, for its links

    @property
    def other_side(self) -> str:
        return {"NS": "EW", "EW": "NS"}.get(self.side, "")


class NoAccess(Exception):
    """``kind``: 'login' (send to the code form), 'replaced' (the session's table has new
    codes since: the new one is to be typed), 'forbidden' or 'closed'."""

    def __init__(self, kind: str, table: Table | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.table = table


def _held(held: dict | None, table: Table) -> bool:
    """Does the session's grant speak for this table, with codes still valid?

    The side comes from the grant (the code that was typed), whichever side's code the page's
    address carries: an address holding the other side's code gives nothing its holder could
    not get by typing that code.
    """
    return (
        held is not None
        and held.get("table") == table.pk
        and held.get("v") == table.codes_version
        and held.get("side") in SIDES
    )


def _replaced(held: dict) -> bool:
    """Has the organiser given the session's table new codes since its code was typed (its
    round still open)? Said to that phone only, whatever code its address holds: it held the
    table, and learns nothing of a board nor of which codes exist."""
    return isinstance(held.get("table"), int) and (
        Table.objects.filter(pk=held["table"], round__status=Round.Status.OPEN)
        .exclude(codes_version=held.get("v"))
        .exists()
    )


def resolve(request: HttpRequest, raw_code: str, *, closed_ok: bool = False) -> Access:
    """The access the request has to the table with this code, or :class:`NoAccess`.

    Nothing about whether a code exists is told to someone who holds no right to it.
    ``closed_ok``: a page that only reads what the pair may see anyway (its own evening) also
    opens once the round is closed, for whoever held the code then (nothing can be entered).
    """
    code = normalise_code(raw_code)
    user = request.user
    held = granted(request)
    tables = _WITH_CODE[True].all(code=code) if code_well_formed(code) else []
    access: Access | None = None
    for table in tables:
        if user.is_authenticated and table.round.event.is_organiser(user):
            access = Access(table, Actor(user=user), "", True, code)
        elif _held(held, table):
            side = held["side"]  # type: ignore[index]
            access = Access(table, Actor(table=table, side=side), side, False, code)
        elif user.is_authenticated and (side := Actor(user=user).side_at(table)):
            access = Access(table, Actor(user=user), side, False, code)
        if access is not None:
            break
    if access is None:
        # From the session alone, whatever the address's code: which codes exist is not told.
        if held is not None and _replaced(held):
            raise NoAccess("replaced")
        if held is not None or user.is_authenticated:
            raise NoAccess("forbidden")
        raise NoAccess("login")
    status = access.table.round.status
    if status != Round.Status.OPEN and not (closed_ok and status == Round.Status.CLOSED):
        raise NoAccess("closed", access.table)
    return access
