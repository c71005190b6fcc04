"""Ranking with criteria and head-to-head: the shared machinery of team standings and the league.

A ranking is a chain of criteria. ``ranked_groups`` sorts competitors by the criteria *before*
head-to-head, splits each group still equal by their results *against each other*, then sorts
what is still tied by the criteria *after* head-to-head. Competitors equal on everything form one
group: they share a rank (1, 2, 2, 4), and only the lot orders them on the page.

Head-to-head among more than two teams is a mini-table of the matches among them only. If it
separates some of them, it is applied again to each block still tied, with only the matches
among that block's members; when it separates nobody, the next criterion decides.

>>> ranked_groups([1, 2, 3], before=lambda t: (0,), after=lambda t: (t % 2 == 0,))  # odd first
[[1, 3], [2]]
>>> shared_ranks([[1, 3], [2]], lot={1: 2, 2: 3, 3: 1})
[(3, 1), (1, 1), (2, 3)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

SortKey = tuple[float, ...]
#: The mini-table of head-to-head: for a set of competitors, each one's sort key computed from
#: the matches among them only (smaller sorts first).
MiniTable = Callable[[Collection[int]], Mapping[int, SortKey]]


def _blocks(ids: Sequence[int], key: Callable[[int], SortKey]) -> list[list[int]]:
    keyed = sorted(ids, key=key)
    blocks: list[list[int]] = []
    previous: SortKey | None = None
    for i in keyed:
        k = key(i)
        if blocks and k == previous:
            blocks[-1].append(i)
        else:
            blocks.append([i])
            previous = k
    return blocks


def head_to_head_blocks(group: Sequence[int], mini_table: MiniTable) -> list[list[int]]:
    """Split a group of equal competitors by their results against each other, re-applied to
    every block still tied; the blocks in order, each block's members still tied."""
    if len(group) < 2:
        return [list(group)]
    keys = mini_table(group)
    blocks = _blocks(group, lambda i: keys[i])
    if len(blocks) == 1:
        return blocks
    out: list[list[int]] = []
    for block in blocks:
        out.extend(head_to_head_blocks(block, mini_table))
    return out


def ranked_groups(
    ids: Sequence[int],
    *,
    before: Callable[[int], SortKey],
    after: Callable[[int], SortKey],
    head_to_head: MiniTable | None = None,
) -> list[list[int]]:
    """Competitors in ranking order, as groups of competitors equal on every criterion."""
    out: list[list[int]] = []
    for group in _blocks(ids, before):
        tied = head_to_head_blocks(group, head_to_head) if head_to_head else [group]
        for block in tied:
            out.extend(_blocks(block, after))
    return out


def shared_ranks(
    groups: Sequence[Sequence[int]], *, lot: Mapping[int, int]
) -> list[tuple[int, int]]:
    """``(competitor, rank)`` in display order: a group shares the rank of its first place and is
    listed in lot order."""
    out: list[tuple[int, int]] = []
    position = 1
    for group in groups:
        for i in sorted(group, key=lambda c: lot[c]):
            out.append((i, position))
        position += len(group)
    return out
