"""Reads of the player and partnership pages, limited by ``policy.PlayerAccess``.

A place in an event comes from the standings snapshot after the last round the reader may see
scored (``policy.last_scored_round``): a player page shows nobody a score of an open round
but the event's own organisers and referees, as the event's pages do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from django.db.models import Prefetch, Q

from scoring.ratings import DEFAULT_PARAMS, Rating, expected_pct
from tournaments import policy
from tournaments.lineups import partners_of, played_rounds
from tournaments.models import (
    Club,
    Entry,
    Event,
    Player,
    PlayerRating,
    RatingHistory,
    Round,
    StandingsSnapshot,
    Substitution,
    Table,
)


@dataclass(frozen=True)
class EventLine:
    event: Event
    entry_number: int
    partners: list[Player]
    rank: int | None  # None: no round the reader may see is scored yet
    field: int
    after_round: int
    final: bool  # the event is finished and its last round scored
    team_event: bool  # the place is the pair's team's, among the teams
    linked: bool  # the event's pages open for the reader (policy.event_pages_open)
    linked_partners: frozenset[int]  # the partners whose page opens for the reader
    match_points: float | None
    duplicate_pct: float | None


@dataclass(frozen=True)
class ClubRating:
    club: Club
    mu: float
    sigma: float
    conservative: float
    expected_pct: float
    events: int
    boards: int


@dataclass(frozen=True)
class HistoryPoint:
    event: Event
    when: date
    mu: float
    sigma: float


@dataclass
class PlayerPage:
    player: Player
    access: policy.PlayerAccess
    events: list[EventLine] = field(default_factory=list)
    partners: list[tuple[Player, int]] = field(default_factory=list)  # partner, events together
    ratings: list[ClubRating] = field(default_factory=list)
    history: list[HistoryPoint] = field(default_factory=list)


def _entries(player: Player, events) -> list[Entry]:  # noqa: ANN001 - a queryset of events
    subs = Substitution.objects.select_related(
        "previous_pair__player1", "previous_pair__player2", "player_in", "player_out"
    )
    return list(
        policy.player_entries(player)
        .filter(event__in=events)
        .select_related("event__club", "pair__player1", "pair__player2")
        .prefetch_related(Prefetch("substitutions", queryset=subs))
        .order_by("-event__date", "-event_id")
    )


def _rounds_by_event(entries: list[Entry]) -> dict[int, list[Round]]:
    rounds: dict[int, list[Round]] = {}
    for rnd in Round.objects.filter(event__in={e.event_id for e in entries}):
        rounds.setdefault(rnd.event_id, []).append(rnd)
    return rounds


def _scored(
    entries: list[Entry],
    actor,
    rounds: dict[int, list[Round]],  # noqa: ANN001
) -> dict[int, tuple[int, dict | None, int, bool]]:
    """entry id -> (the round its standings were read after, its standings row, field size,
    whether they are after the last round this reader may see scored).

    As the event's own pages: the newest standings after a round this reader may see scored (an
    organiser's open round has none until its first result counts: the round before stands). A
    team event ranks teams: the row is the pair's team's, the field the number of teams."""
    events = {e.event_id: e.event for e in entries}
    last = {
        pk: policy.last_scored_round(
            staff=policy.is_event_staff(actor, ev), rounds=rounds.get(pk, [])
        )
        for pk, ev in events.items()
    }
    snaps: dict[int, StandingsSnapshot] = {}
    for s in StandingsSnapshot.objects.filter(event__in=events).defer("matches", "travellers"):
        if s.after_round <= last[s.event_id] and (
            s.event_id not in snaps or s.after_round > snaps[s.event_id].after_round
        ):
            snaps[s.event_id] = s
    out: dict[int, tuple[int, dict | None, int, bool]] = {}
    for entry in entries:
        snap = snaps.get(entry.event_id)
        after = snap.after_round if snap is not None else 0
        rows = snap.rows if snap is not None else []
        key, value = ("team", entry.team_id) if entry.event.is_team_event else ("entry", entry.pk)
        row = next((r for r in rows if r.get(key) == value), None)
        out[entry.pk] = (after, row, len(rows), after == last[entry.event_id])
    return out


def _rating_rows(player: Player, access: policy.PlayerAccess) -> list[ClubRating]:
    rows = []
    for r in PlayerRating.objects.filter(player=player).select_related("club"):
        if not access.may_rate_club(r.club_id):
            continue
        rating = Rating(mu=r.mu, sigma=r.sigma, events=r.events, boards=r.boards)
        rows.append(
            ClubRating(
                club=r.club,
                mu=r.mu,
                sigma=r.sigma,
                conservative=rating.conservative,
                expected_pct=expected_pct(rating, params=DEFAULT_PARAMS),
                events=r.events,
                boards=r.boards,
            )
        )
    return rows


def _seated_rounds(entries: list[Entry]) -> dict[int, set[int]]:
    """The rounds (opened or closed) each entry sat at a table: in a team event a pair entry plays
    only where a match's line-up seats it (a substitute's pair entry never sits). One query, none
    without such entries."""
    if not entries:
        return {}
    ids = [e.pk for e in entries]
    seated: dict[int, set[int]] = {}
    for ns, ew, number in (
        Table.objects.filter(Q(ns_id__in=ids) | Q(ew_id__in=ids))
        .exclude(round__status=Round.Status.PENDING)
        .values_list("ns_id", "ew_id", "round__number")
    ):
        for entry_id in (ns, ew):
            seated.setdefault(entry_id, set()).add(number)
    return seated


def player_page(player: Player, access: policy.PlayerAccess) -> PlayerPage:
    page = PlayerPage(player=player, access=access)
    events = access.events()
    entries = _entries(player, events)
    rounds = _rounds_by_event(entries)
    scored = _scored(entries, access.actor, rounds)
    seated = _seated_rounds([e for e in entries if e.event.is_team_event])
    partners: Counter[int] = Counter()
    by_pk: dict[int, Player] = {}
    opens: dict[int, bool] = {}

    def page_opens(other: Player) -> bool:
        # Only a hidden player needs the reader's rights read (one query each).
        if other.pk not in opens:
            opens[other.pk] = (
                other.visibility != Player.Visibility.HIDDEN
                or policy.PlayerAccess(access.actor, other).page
            )
        return opens[other.pk]

    for entry in entries:
        others = partners_of(
            player,
            entry,
            played=played_rounds(rounds.get(entry.event_id, [])),
            finished=entry.event.status == Event.Status.FINISHED,
            seated=seated.get(entry.pk, set()) if entry.event.is_team_event else None,
        )
        if others is None:
            continue  # replaced from a round the event never reached
        for p in others:
            partners[p.pk] += 1
            by_pk[p.pk] = p
        n, row, size, current = scored[entry.pk]
        event = entry.event
        page.events.append(
            EventLine(
                event=event,
                entry_number=entry.number,
                partners=others,
                rank=row["rank"] if row else None,
                field=size,
                after_round=n,
                # A finished event's place is final, even when it ended before its planned rounds
                # (once its last round's standings are computed).
                final=event.status == Event.Status.FINISHED and current,
                team_event=event.is_team_event,
                linked=policy.event_pages_open(access.actor, event),
                linked_partners=frozenset(p.pk for p in others if page_opens(p)),
                # A team's row has neither (its victory points and units are on its page).
                match_points=row.get("match_points") if row else None,
                duplicate_pct=row.get("duplicate_pct") if row else None,
            )
        )
    # A partner whose page the reader may not open is not listed (nor linked) here: their
    # name stays on the lines of the events they played only.
    page.partners = [
        (by_pk[pk], count) for pk, count in partners.most_common() if page_opens(by_pk[pk])
    ]
    page.ratings = _rating_rows(player, access)
    rated_clubs = {r.club.pk for r in page.ratings}
    page.history = [
        HistoryPoint(event=h.event, when=h.event.date, mu=h.mu, sigma=h.sigma)
        for h in RatingHistory.objects.filter(
            player=player, event__in=events, event__club__in=rated_clubs
        ).select_related("event")
    ]
    return page


@dataclass
class PartnershipPage:
    players: tuple[Player, Player]
    events: list[EventLine] = field(default_factory=list)

    @property
    def average_place_pct(self) -> float | None:
        """The average place as a share of the field (0 = always first, 100 = always last)."""
        placed = [e for e in self.events if e.rank is not None and e.field > 1]
        if not placed:
            return None
        return 100 * sum((e.rank - 1) / (e.field - 1) for e in placed) / len(placed)


def partnership_page(a: PlayerPage, b: Player) -> PartnershipPage:
    """The events of ``a``'s page in which ``b`` played for the same entry."""
    page = PartnershipPage(players=(a.player, b))
    page.events = [e for e in a.events if any(p.pk == b.pk for p in e.partners)]
    return page
