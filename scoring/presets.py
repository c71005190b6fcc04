"""Event presets named after the rules real Catalan events publish, as plain data.

Each preset fills an event's options in one click (the organiser can still change any of them).
``label`` and ``explanation`` are the English source texts; the event form shows its own
translated copies, keyed by ``code``. ``time_minutes`` is the round's clock (None: no clock).

>>> PRESETS["open_swiss"].rules
MatchRules(target=101, deal_limit=12, cap=121, draw='half', tiebreak_deals=2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine import MatchRules
from scoring.types import PairingOptions


@dataclass(frozen=True, slots=True)
class Preset:
    code: str
    label: str
    explanation: str
    match_mode: str
    rules: MatchRules
    pairing: PairingOptions
    ranking_method: str = "wins"
    time_minutes: int | None = None
    boards_per_round: int | None = None


_PRESETS = [
    Preset(
        code="open_swiss",
        label="Open Swiss (ButiNET Lloret, Torrefarrera)",
        explanation=(
            "Seven Swiss rounds; each round is one game that ends at 101 points, 12 deals or "
            "60 minutes, whichever comes first; at most 121 points count; a drawn game is half "
            "a win. Ranked by games won, point difference, points scored."
        ),
        match_mode="game",
        rules=MatchRules(target=101, deal_limit=12, cap=121, draw="half"),
        pairing=PairingOptions(method="swiss", rounds=7),
        time_minutes=60,
        boards_per_round=12,
    ),
    Preset(
        code="open_swiss_accelerated",
        label="Open Swiss, large field (accelerated, clubs kept apart)",
        explanation=(
            "The open Swiss for 100 pairs and more: the top half gets virtual points in the "
            "first rounds so that favourites do not meet too early, and pairs of the same club "
            "do not meet in the first two rounds."
        ),
        match_mode="game",
        rules=MatchRules(target=101, deal_limit=12, cap=121, draw="half"),
        pairing=PairingOptions(
            method="swiss", rounds=7, seeding="rating", accelerated=True, club_rounds=2
        ),
        time_minutes=60,
        boards_per_round=12,
    ),
    Preset(
        code="girona_groups",
        label="Groups and knockout (Girona, Fires de Sant Narcís)",
        explanation=(
            "Groups of four play each other; each game is 8 deals, the higher score wins and a "
            "level game gets two more deals. The group winners and a repesca of the best "
            "runners-up (none with fewer points than a win) fill a knockout bracket."
        ),
        match_mode="game",
        rules=MatchRules(target=None, deal_limit=8, cap=None, draw="tiebreak", tiebreak_deals=2),
        pairing=PairingOptions(
            method="groups", group_size=4, qualifiers=1, repesca=None, repesca_min_points=2
        ),
        boards_per_round=10,
    ),
    Preset(
        code="club_evening",
        label="Club evening (round robin, quick games)",
        explanation=(
            "Everybody plays everybody; games to 51 points or 5 deals; a level game at the "
            "fifth deal goes on until one pair scores (rule R12)."
        ),
        match_mode="game",
        rules=MatchRules(target=51, deal_limit=5, cap=None, draw="play_on"),
        pairing=PairingOptions(method="roundrobin"),
        boards_per_round=8,
    ),
    Preset(
        code="club_league",
        label="Club league (double round robin)",
        explanation=(
            "A season: everybody meets everybody twice, once in each direction; games to 101 "
            "points without a deal limit (rule R12)."
        ),
        match_mode="game",
        rules=MatchRules(target=101, cap=121, draw="play_on"),
        pairing=PairingOptions(method="roundrobin", double=True),
    ),
    Preset(
        code="duplicate_swiss",
        label="Duplicate Swiss (every board counts)",
        explanation=(
            "Every table plays every board of the round and every board counts; Swiss "
            "pairings; ranked by games won, then point difference."
        ),
        match_mode="boards",
        rules=MatchRules(),
        pairing=PairingOptions(method="swiss"),
    ),
]

PRESETS: Mapping[str, Preset] = {p.code: p for p in _PRESETS}
