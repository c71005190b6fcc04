"""Who played for an entry: its line-ups in the order they played (the pairs its substitutions
replaced, then its pair now), each with the number of the event's played rounds it played.

A line-up replaced before it played a round (a substitution from round 1, or one from a round
the event never reached: an evening finished early) played none, and its players did not play
for the entry: not on the pair's line of their page, not as anyone's partner, not in a season.
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


def lineups(entry: Entry, *, played: int) -> list[tuple[Pair, int]]:
    """The entry's line-ups in order, each with the rounds of 1..``played`` it played."""
    subs: list[Substitution] = sorted(entry.substitutions.all(), key=lambda s: s.from_round)
    out, start = [], 1
    for sub in subs:
        end = min(sub.from_round, played + 1)
        out.append((sub.previous_pair, max(0, end - start)))
        start = max(start, end)
    out.append((entry.pair, max(0, played - start + 1)))
    return out


def partners_of(
    player: Player, entry: Entry, *, played: int, finished: bool
) -> list[Player] | None:
    """The players who sat beside ``player`` for the entry: the other player of each line-up of
    theirs that played a round (while the event runs, the pair now too: its rounds are to
    come). None when ``player`` played no round for the entry."""
    lines = lineups(entry, played=played)
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
