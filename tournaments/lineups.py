"""Who played for an entry: its line-ups in the order they played (the pairs its substitutions
replaced, then its pair now), each with the number of the event's played rounds it played.

A line-up replaced before it played a round (a substitution from round 1, or one from a round
the event never reached: an evening finished early) played none, and its players did not play
for the entry: not on the pair's line of their page, not as anyone's partner, not in a season.
Nor did a line-up whose rounds the entry itself did not play (before a late entry joined, after
it withdrew, while it was out).
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.models import Entry, Pair, Player, Round, Substitution


def played_rounds(rounds: Iterable[Round]) -> int:
    """The number of the last round that was opened (open or closed): 0 before the first."""
    return max(
        (r.number for r in rounds if r.status in (Round.Status.OPEN, Round.Status.CLOSED)),
        default=0,
    )


def entry_rounds(entry: Entry, *, played: int) -> set[int]:
    """The rounds of 1..``played`` the entry took part in: from the round it joined (a late
    entry) to the one after which it withdrew, less those it missed while withdrawn."""
    last = (
        played if entry.withdrawn_after_round is None else min(played, entry.withdrawn_after_round)
    )
    return set(range(entry.joins_round or 1, last + 1)) - set(entry.missed_rounds or ())


def lineups(entry: Entry, *, played: int, seated: set[int] | None = None) -> list[tuple[Pair, int]]:
    """The entry's line-ups in order, each with the number of rounds of 1..``played`` it played
    (rounds the entry itself did not play count for none: :func:`entry_rounds`; in a team event,
    whose pair entries sit only where a match's line-up seats them, nor do rounds outside
    ``seated``, the rounds it sat at a table)."""
    subs: list[Substitution] = sorted(entry.substitutions.all(), key=lambda s: s.from_round)
    rounds = entry_rounds(entry, played=played)
    if seated is not None:
        rounds &= seated
    out, start = [], 1
    for sub in subs:
        end = min(sub.from_round, played + 1)
        out.append((sub.previous_pair, len(rounds & set(range(start, end)))))
        start = max(start, end)
    out.append((entry.pair, len(rounds & set(range(start, played + 1)))))
    return out


def partners_of(
    player: Player, entry: Entry, *, played: int, finished: bool, seated: set[int] | None = None
) -> list[Player] | None:
    """The players who sat beside ``player`` for the entry: the other player of each line-up of
    theirs that played a round (while the event runs, the pair now too: its rounds are to
    come). None when ``player`` played no round for the entry."""
    lines = lineups(entry, played=played, seated=seated)
    last = len(lines) - 1
    seen: dict[int, Player] | None = None
    for i, (pair, rounds) in enumerate(lines):
        members = (pair.player1, pair.player2)
        if not (rounds or (i == last and not finished)) or player.pk not in (p.pk for p in members):
            continue
        seen = seen if seen is not None else {}
        for p in members:
            if p.pk != player.pk:
                seen.setdefault(p.pk, p)
    return None if seen is None else list(seen.values())
