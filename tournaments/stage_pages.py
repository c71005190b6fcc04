"""Reads for the groups-and-knockout page and PDF: the stage stored with the standings snapshot
the viewer may see (``policy.last_scored_round``), with the pairs' names, and the bracket's SVG.

Before any snapshot exists the groups are shown as drawn, without scores. The stage itself is
built from closed rounds only (``tournaments.stages``): no score of an open round, for anyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments import policy
from tournaments.bracket import bracket_svg, round_name
from tournaments.models import Entry, Event, StandingsSnapshot
from tournaments.public_selectors import EventView
from tournaments.scoring_io import event_input
from tournaments.stages import stage_view


@dataclass
class StageRow:
    entry: Entry | None
    data: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def group_letter(self) -> str:
        return group_letter(self.data["group"])


@dataclass
class StageView:
    after_round: int | None
    group_rounds: int
    groups_done: bool
    groups: list[list[StageRow]]
    repesca: list[StageRow]
    repesca_places: int
    rounds: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    svg: SafeString | None = None
    champion: Entry | None = None

    @property
    def group_letters(self) -> list[tuple[str, list[StageRow]]]:
        return [(chr(ord("A") + i), rows) for i, rows in enumerate(self.groups)]


def group_letter(index: int) -> str:
    """Group 1 is A, 2 is B…"""
    return chr(ord("A") + index - 1)


def no_stage_message(event: Event) -> str:
    """What the groups page and PDF say when :func:`stage` has nothing to show."""
    if event.format == Event.Format.GROUPS:
        return _(
            "The groups cannot be drawn from this event's pairs: a pair was added after the start."
        )
    return _("This event has no groups.")


def stage(ev: EventView) -> StageView | None:
    """The groups, repesca and bracket this viewer may see; None unless the event plays groups
    then knockout."""
    if ev.event.format != Event.Format.GROUPS:
        return None
    limit = policy.last_scored_round(staff=ev.staff, rounds=ev.rounds.values())
    snapshot = (
        StandingsSnapshot.objects.filter(event=ev.event, after_round__lte=limit)
        .only("after_round", "stage")
        .order_by("-after_round")
        .first()
    )
    if snapshot is not None and snapshot.stage:
        data, after = snapshot.stage, snapshot.after_round
    else:
        data, after = stage_view(event_input(ev.event, rounds=[]), 0), None
    if not data:
        return None

    def row(d: dict[str, Any]) -> StageRow:
        return StageRow(entry=ev.entries.get(d["entry"]), data=d)

    def name(entry_id: int) -> str:
        entry = ev.entries.get(entry_id)
        return f"{entry.number}. {entry.pair.name}" if entry is not None else "?"

    bracket = data.get("bracket") or []
    return StageView(
        after_round=after,
        group_rounds=data["group_rounds"],
        groups_done=data["groups_done"],
        groups=[[row(d) for d in g] for g in data["groups"]],
        repesca=[row(d) for d in data["repesca"]],
        repesca_places=data["repesca_places"],
        rounds=[(round_name(len(r)), r) for r in bracket],
        svg=mark_safe(bracket_svg(bracket, name)) if bracket else None,  # noqa: S308 - escaped
        champion=ev.entries.get(bracket[-1][0]["winner"]) if bracket else None,
    )
