"""Who is acting: a logged-in user, or someone holding a table's code."""

import re
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.labels import side_label
from tournaments.models import AuditEntry, Event, Table

LABEL_MAX = AuditEntry._meta.get_field("actor").max_length or 120


@dataclass(frozen=True)
class Actor:
    user: AbstractBaseUser | AnonymousUser | None = None
    table: Table | None = None
    side: str | None = None  # "NS" or "EW": the pair this actor speaks for at its table

    @property
    def label(self) -> str:
        if self.user is not None and self.user.is_authenticated:
            # Usernames may have 150 characters; the columns that record who acted hold 120.
            return self.user.get_username()[:LABEL_MAX]
        if self.table is not None:
            side = f" {self.side}" if self.side else ""
            return f"table {self.table.number} round {self.table.round.number}{side}"
        return "anonymous"

    @property
    def is_authenticated(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    def is_organiser(self, event: Event) -> bool:
        return self.is_authenticated and event.is_organiser(self.user)

    def is_referee(self, event: Event) -> bool:
        return self.is_authenticated and event.is_referee(self.user)

    def side_at(self, table: Table) -> str | None:
        """The side this actor plays at ``table``, or None when they do not sit there."""
        if self.table is not None:
            return self.side if self.table.pk == table.pk else None
        if self.is_authenticated:
            for side, entry in (("NS", table.ns), ("EW", table.ew)):
                if entry.pair.has_user(self.user):
                    return side
        return None

    def sits_at(self, table: Table) -> bool:
        if self.table is not None:
            return self.table.pk == table.pk
        return self.side_at(table) is not None


SYSTEM = Actor()

_TABLE_LABEL = re.compile(r"^table (?P<table>\d+) round (?P<round>\d+)(?: (?P<side>NS|EW))?$")


def is_table_label(label: str) -> bool:
    """Whether a stored actor label names a table (not an account)."""
    return _TABLE_LABEL.match(label) is not None


def label_for_display(label: str) -> str:
    """A stored actor label in the reader's language (labels are stored in English)."""
    match = _TABLE_LABEL.match(label)
    if match is None:
        return label
    if match["side"]:
        return _("table %(table)s, round %(round)s, %(side)s") % (
            match.groupdict() | {"side": side_label(match["side"])}
        )
    return _("table %(table)s, round %(round)s") % match.groupdict()
