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


def _playing(entry: Entry, *, played: int, finished: bool) -> list[Pair]:
    """The line-ups that played a round; while the event runs, the pair now too (its rounds
    are to come)."""
    lines = lineups(entry, played=played)
    last = len(lines) - 1
    return [
        pair for i, (pair, rounds) in enumerate(lines) if rounds or (i == last and not finished)
    ]


def players_who_played(entry: Entry, *, played: int, finished: bool) -> list[Player]:
    """Everyone who played for the entry, in the order they first played."""
    seen: dict[int, Player] = {}
    for pair in _playing(entry, played=played, finished=finished):
        for p in (pair.player1, pair.player2):
            seen.setdefault(p.pk, p)
    return list(seen.values())


def partners_of(player: Player, entry: Entry, *, played: int, finished: bool) -> list[Player]:
    """The players who sat beside ``player`` for the entry: the other player of each line-up
    of theirs that played (or, while the event runs, of the pair now)."""
    seen: dict[int, Player] = {}
    for pair in _playing(entry, played=played, finished=finished):
        members = (pair.player1, pair.player2)
        if player.pk in (p.pk for p in members):
            for p in members:
                if p.pk != player.pk:
                    seen.setdefault(p.pk, p)
    return list(seen.values())
