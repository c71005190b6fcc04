"""An event as a Botifarra tournament file (docs/formats.md): what ``python -m scoring check``
re-derives every round's pairing from. Built from the same plain objects the standings and the
pairings read (``scoring_io.event_input``), so the file says what the program saw.

It holds the seed: who may download it is ``policy.can_download_tournament_file``.
"""

from __future__ import annotations

from scoring.tournament_file import TournamentFile, dumps
from tournaments.models import Event
from tournaments.scoring_io import event_input


def _one_line(text: str) -> str:
    return " ".join(text.split())


def tournament_file(event: Event) -> TournamentFile:
    data = event_input(event)
    names = {
        pk: _one_line(name) for pk, name in event.entries.values_list("pk", "pair__name") if name
    }
    return TournamentFile(event=data, name=_one_line(event.name), names=names)


def tournament_file_text(event: Event) -> str:
    return dumps(tournament_file(event))
