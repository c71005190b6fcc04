"""Names as every way in stores them: normalised as the pages show them, and refused at their
field when too long for their column once normalised (a few characters decompose into two or
three: a name that fits as typed may not once composed)."""

import unicodedata

from django.db.models import Model
from django.utils.translation import gettext as _

from tournaments.models import Club, Pair, Player


def normal_name(name: str) -> str:
    """A name with its spaces collapsed and its accents composed (NFC), as the pages show it:
    "Penya   Lloret" is Penya Lloret, and an "À" typed on a Mac (A + combining grave) is the "À"
    of other keyboards, not a look-alike club (one its typist would organise, or a pair's second
    club) or a look-alike player. Control characters are dropped: they print as nothing and
    some files cannot hold them (an Excel sheet)."""
    name = unicodedata.normalize("NFC", name)
    if not name.isprintable():
        name = "".join(" " if c.isspace() else c for c in name if c.isspace() or c.isprintable())
    return " ".join(name.split())


def alphabetical(name: str) -> tuple[str, str]:
    """A sort key that files a name by its letters as a reader's alphabet does: accents and
    capitals aside ("Àlex" with the A's, "Òscar" between Núria and Pere, not after Zoe), then
    as typed, so that the order is the same every time."""
    folded = unicodedata.normalize("NFD", name.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c)), name.casefold()


def max_length(model: type[Model], field: str = "name") -> int:
    """The column size of ``model.field``, which a value must fit before it is saved."""
    size = model._meta.get_field(field).max_length
    assert size is not None
    return size


def length_problems(**values: str) -> list[tuple[str, str]]:
    """(field, sentence) for each of ``player1``, ``player2``, ``name``, ``club`` too long for
    its column."""
    columns = {
        "player1": (Player, _("The name of player 1")),
        "player2": (Player, _("The name of player 2")),
        "name": (Pair, _("The pair name")),
        "club": (Club, _("The club name")),
    }
    problems = []
    for field_name, value in values.items():
        model, label = columns[field_name]
        limit = max_length(model)
        if len(value) > limit:
            problems.append(
                (
                    field_name,
                    _("%(what)s is too long: at most %(max)s characters (it has %(n)s).")
                    % {"what": label, "max": limit, "n": len(value)},
                )
            )
    return problems
