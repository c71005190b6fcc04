"""The independent pairing checker: re-derive every round of a tournament file from the file alone.

For each round ``r`` the checker builds the event as the file records it up to round ``r − 1``
(competitors, options, results, withdrawals, late entries, requests) and asks the pairing code
for round ``r``; it then compares the result with the file's round ``r``, table by table: who
sits North–South and East–West at each table number, the bye and the rests. It reads nothing
but the file (no database, no clock, no randomness): the same file always gives the same report.
It does not judge the results themselves: they are the inputs the pairings are derived from.

>>> from scoring.tournament_file import loads
>>> t = loads("BTF 1\\nSEED s\\nPAIR 1 1\\nPAIR 2 2\\nROUND 1 boards=1\\nTABLE 1 1 2 1 1:0-4\\n")
>>> [d.code for d in check(t)]  # the lot puts 1 first: 1 sits NS
['table']
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.methods import next_pairing
from scoring.tournament_file import TournamentFile
from scoring.types import Pairing


@dataclass(frozen=True, slots=True)
class Difference:
    """One difference: ``code`` is ``table`` (a table differs, or is in one side only),
    ``bye``, ``rests`` or ``error`` (the round could not be derived: ``derived`` says why)."""

    round: int
    code: str
    table: int | None
    in_file: str
    derived: str

    def __str__(self) -> str:
        where = f"round {self.round}" + (f" table {self.table}" if self.table is not None else "")
        return f"{where}: {self.code}: file {self.in_file}, derived {self.derived}"


def _seat(t: tuple[int, int] | None) -> str:
    return "-" if t is None else f"{t[0]}-{t[1]}"


def _ids(ids: list[int]) -> str:
    return ",".join(map(str, sorted(ids))) or "-"


def compare(
    number: int,
    in_file: dict[int, tuple[int, int]],
    derived: Pairing,
    *,
    bye: int | None,
    rests: list[int],
) -> list[Difference]:
    """The differences of round ``number``: ``in_file`` maps each table number of the file to
    its (NS, EW); the derived tables are numbered 1, 2, … in order. A table number in one side
    only is a difference too (``-`` on the other side)."""
    out = []
    seats = dict(enumerate(derived.tables, start=1))
    for table in sorted(set(in_file) | set(seats)):
        a, b = in_file.get(table), seats.get(table)
        if a != b:
            out.append(Difference(number, "table", table, _seat(a), _seat(b)))
    if bye != derived.bye:
        out.append(Difference(number, "bye", None, str(bye or "-"), str(derived.bye or "-")))
    if sorted(rests) != sorted(derived.rests):
        out.append(Difference(number, "rests", None, _ids(rests), _ids(derived.rests)))
    return out


def check(t: TournamentFile) -> list[Difference]:
    """Every difference between the file's pairings and the ones derived from it."""
    ev = t.event
    out: list[Difference] = []
    for i, rnd in enumerate(ev.rounds):
        before = replace(ev, rounds=ev.rounds[:i])
        # By table number (the parser refuses a number given twice in a round).
        in_file = {x.table: (x.ns, x.ew) for x in rnd.tables}
        try:
            derived = next_pairing(before, order=t.order)
        except ValueError as exc:
            out.append(Difference(rnd.number, "error", None, "a round", str(exc)))
            continue
        out += compare(rnd.number, in_file, derived, bye=rnd.bye, rests=rnd.rests)
    return out
