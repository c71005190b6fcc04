"""Team events (docs/teams.md): teams of four to six, their line-ups, the rounds of matches.

A team match is two tables of the round playing the same boards, the teams' pairs crossed:
the open room seats team A's first pair North–South against team B's first pair, the closed
room team B's second pair North–South against team A's second pair. Each pair of players is an
``Entry`` of the event (with its ``team``), so entry at the table, codes, double entry, play
records and referees work as in pairs events.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.actors import Actor
from tournaments.models import (
    BoardResult,
    BoardUnlock,
    Entry,
    Event,
    LineUp,
    Pair,
    Player,
    Round,
    Table,
    Team,
    TeamMatch,
    TeamMember,
)
from tournaments.services import Conflict, ServiceError, audit, clubs, lock_event, relock
from tournaments.services.events import (
    fresh_codes,
    pair_display_name,
    proposal_gone,
    proposal_round,
    renew_codes,
    require_organiser,
    require_status,
)
from tournaments.services.names import max_length, normal_name


def require_team_event(event: Event) -> None:
    if not event.is_team_event:
        raise Conflict(_("This is not a team event."), field="competitor")


def team_register(
    *, event: Event, actor: Actor, name: str, players: Sequence[str], club: str = ""
) -> Team:
    """A new team of 4 to 6 players (names; new players of the event's club), audited."""
    require_organiser(event, actor)
    require_team_event(event)
    require_status(event, Event.Status.DRAFT, Event.Status.REGISTRATION, doing=_("register teams"))
    name = normal_name(name)
    names = [n for n in (normal_name(p) for p in players) if n]
    if not name:
        raise ServiceError(_("A team needs a name."), field="name")
    if len(name) > max_length(Team):
        raise ServiceError(_("At most %(n)s characters.") % {"n": max_length(Team)}, field="name")
    if not Team.MIN_PLAYERS <= len(names) <= Team.MAX_PLAYERS:
        raise ServiceError(
            _("A team has %(min)s to %(max)s players.")
            % {"min": Team.MIN_PLAYERS, "max": Team.MAX_PLAYERS},
            field="players",
        )
    if len({n.casefold() for n in names}) != len(names):
        raise ServiceError(_("A player is listed twice."), field="players")
    if any(len(n) > max_length(Player) for n in names):
        raise ServiceError(
            _("A player's name has at most %(n)s characters.") % {"n": max_length(Player)},
            field="players",
        )
    with transaction.atomic():
        # Row lock on the event: two organisers registering at once must not get one number,
        # and a start committed meanwhile (which fixed the rounds) is seen.
        current = lock_event(event.pk)
        require_status(
            current, Event.Status.DRAFT, Event.Status.REGISTRATION, doing=_("register teams")
        )
        if event.teams.filter(name__iexact=name).exists():
            raise ServiceError(_("A team of this event already has this name."), field="name")
        club_obj = clubs.home_club(club) or event.club
        number = (event.teams.aggregate(m=Max("number"))["m"] or 0) + 1
        team = Team.objects.create(event=event, number=number, name=name, club=club_obj)
        for order, player_name in enumerate(names, start=1):
            player = Player.objects.create(name=player_name, club=club_obj)
            TeamMember.objects.create(team=team, player=player, order=order)
        audit.record(
            event=event,
            actor=actor.label,
            action="team_registered",
            changes={"team": [None, str(team)], "players": [None, names]},
        )
    return team


def _pair_entry(team: Team, p1: Player, p2: Player) -> Entry:
    """The event's entry for these two players of the team (made the first time they pair)."""
    for entry in Entry.objects.filter(team=team).select_related("pair"):
        if {entry.pair.player1_id, entry.pair.player2_id} == {p1.pk, p2.pk}:
            return entry
    pair = Pair.objects.create(
        name=pair_display_name(p1.name, p2.name), player1=p1, player2=p2, club=team.club
    )
    number = (team.event.entries.aggregate(m=Max("number"))["m"] or 0) + 1
    return Entry.objects.create(event=team.event, pair=pair, number=number, team=team)


def _default_pairs(team: Team) -> tuple[Entry, Entry]:
    """The team's last line-up's pairs, else its first four players (1–2 and 3–4)."""
    last = LineUp.objects.filter(team=team).order_by("-match__round__number").first()
    if last is not None:
        return last.first, last.second
    members = [m.player for m in team.members.select_related("player").order_by("order")[:4]]
    if len(members) < Team.MIN_PLAYERS:
        raise ServiceError(
            _("Team %(team)s has fewer than %(n)s players.")
            % {"team": team.name, "n": Team.MIN_PLAYERS},
            field="teams",
        )
    return _pair_entry(team, members[0], members[1]), _pair_entry(team, members[2], members[3])


def _store_lineup(match: TeamMatch, team: Team, first: Entry, second: Entry, actor: str) -> None:
    playing = {first.pair.player1_id, first.pair.player2_id}
    playing |= {second.pair.player1_id, second.pair.player2_id}
    lineup, _created = LineUp.objects.update_or_create(
        match=match, team=team, defaults={"first": first, "second": second, "entered_by": actor}
    )
    lineup.substitutes.set(team.players.exclude(pk__in=playing))


def team_round_store(
    *,
    event: Event,
    actor: Actor | None,
    number: int,
    matches: Sequence[tuple[int, int]],
    bye: int | None = None,
    replace: bool = True,
) -> Round:
    """Store a proposed round of a team event: its matches (team A, team B) and each match's
    two tables with the teams' current line-ups (replacing an earlier proposal, or, with
    ``replace`` false, leaving an existing round as it is)."""
    if actor is not None:
        require_organiser(event, actor)
    require_team_event(event)
    require_status(event, Event.Status.RUNNING, doing=_("pair a round"))
    teams = {t.pk: t for t in event.teams.filter(withdrawn_after_round__isnull=True)}
    seen = [x for m in matches for x in m] + ([bye] if bye else [])
    if len(seen) != len(set(seen)) or not set(seen) <= set(teams):
        raise ServiceError(_("A team appears twice in these pairings."), field="matches")
    with transaction.atomic():
        # The event's lock first, as reopening a round takes it (events.round_propose).
        lock_event(event.pk)
        rnd, store = proposal_round(event, number, replace=replace)
        if not store:
            return rnd
        tables = list(rnd.tables.all())
        TeamMatch.objects.filter(round=rnd).delete()
        Table.objects.filter(pk__in=[t.pk for t in tables]).delete()
        codes = fresh_codes(4 * len(matches))
        for k, (a, b) in enumerate(matches, start=1):
            team_a, team_b = teams[a], teams[b]
            a1, a2 = _default_pairs(team_a)
            b1, b2 = _default_pairs(team_b)
            c = codes[4 * k - 4 : 4 * k]
            open_table = Table.objects.create(
                round=rnd, number=2 * k - 1, ns=a1, ew=b1, code_ns=c[0], code_ew=c[1]
            )
            closed_table = Table.objects.create(
                round=rnd, number=2 * k, ns=b2, ew=a2, code_ns=c[2], code_ew=c[3]
            )
            match = TeamMatch.objects.create(
                round=rnd,
                number=k,
                team_a=team_a,
                team_b=team_b,
                open_table=open_table,
                closed_table=closed_table,
            )
            label = actor.label if actor is not None else "system"
            _store_lineup(match, team_a, a1, a2, label)
            _store_lineup(match, team_b, b1, b2, label)
        rnd.team_bye = teams[bye] if bye else None
        rnd.save(update_fields=["team_bye"])
        if actor is not None:
            audit.record(
                event=event,
                actor=actor.label,
                action="round_proposed",
                changes={"round": [None, number]},
            )
    return rnd


def lineup_set(
    *,
    match: TeamMatch,
    team: Team,
    actor: Actor,
    first: tuple[int, int],
    second: tuple[int, int],
) -> LineUp:
    """Enter a team's line-up for a match (player ids of its first and second pair): the two
    tables seat the new pairs. Before the match only: refused once either table has seen a board
    (declared it played or stored its result), so that no player who saw a board in one room
    plays it in the other. In an open round a table whose pairs change gets new codes (its
    old codes, sessions and tokens stop working): a pair moved to the other room keeps no way
    into the room it left. A proposed round's codes are not handed out yet and stay."""
    event = match.round.event
    require_organiser(event, actor)
    if team.pk not in (match.team_a_id, match.team_b_id):
        raise ServiceError(_("This team does not play this match."), field="team")
    players = [*first, *second]
    members = {m.player_id: m.player for m in team.members.select_related("player")}
    if len(set(players)) != 4:
        raise ServiceError(_("Four different players make the two pairs."), field="players")
    if not set(players) <= set(members):
        raise ServiceError(_("Every player must be a member of the team."), field="players")
    with transaction.atomic():
        rnd = relock(Round.objects, match.round_id, gone=proposal_gone(), field="match")
        # Under the round's lock: the round may have been proposed again since the match was
        # read (its matches and tables made anew).
        if (match := TeamMatch.objects.filter(pk=match.pk).first()) is None:
            raise Conflict(
                _("Round %(n)s was proposed again meanwhile: enter the line-up on its new matches.")
                % {"n": rnd.number},
                field="match",
            )
        # The tables' locks: a result stored meanwhile waits, then finds the new pairs (or we
        # find its result and refuse).
        tables = {
            t.pk: t
            for t in Table.objects.select_for_update(of=("self",), no_key=True)
            .filter(pk__in=[match.open_table_id, match.closed_table_id])
            .order_by("number")
        }
        # A board a table has seen (declared played, or its result stored): the match started.
        played = (
            BoardUnlock.objects.filter(table__in=list(tables)).exists()
            or BoardResult.objects.filter(table__in=list(tables)).exists()
        )
        if rnd.status == Round.Status.CLOSED or played:
            raise Conflict(
                _(
                    "A table of this match has already played a board: its line-ups can no "
                    "longer change."
                ),
                field="match",
            )
        before = LineUp.objects.filter(match=match, team=team).first()
        old = [str(before.first), str(before.second)] if before is not None else [None, None]
        e1 = _pair_entry(team, members[first[0]], members[first[1]])
        e2 = _pair_entry(team, members[second[0]], members[second[1]])
        open_t, closed_t = tables[match.open_table_id], tables[match.closed_table_id]
        seated = {t.pk: (t.ns_id, t.ew_id) for t in (open_t, closed_t)}
        if team.pk == match.team_a_id:
            open_t.ns, closed_t.ew = e1, e2
        else:
            open_t.ew, closed_t.ns = e1, e2
        open_t.save(update_fields=["ns", "ew"])
        closed_t.save(update_fields=["ns", "ew"])
        reseated = [t for t in (open_t, closed_t) if seated[t.pk] != (t.ns_id, t.ew_id)]
        # Codes work (and are handed out) only once the round is open.
        renewed = reseated if rnd.status == Round.Status.OPEN else []
        revoked = renew_codes(renewed)
        _store_lineup(match, team, e1, e2, actor.label)
        changes: dict[str, list] = {
            "match": [None, str(match)],
            "team": [None, team.name],
            "pairs": [old, [str(e1), str(e2)]],
        }
        if renewed:
            changes["new_codes_tables"] = [None, [t.number for t in renewed]]
        audit.record(
            event=event,
            actor=actor.label,
            action="team_lineup",
            changes=changes,
            note=audit.revoked_note(revoked) if renewed else "",
        )
    queue.request_standings(event)
    return LineUp.objects.get(match=match, team=team)
