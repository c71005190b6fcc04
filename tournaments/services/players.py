"""One player per person: merging a duplicate into the player who stays, and the privacy setting.

Pairs are registered by name, so the same person often appears as several players (one per
evening). A merge moves everything of the duplicate to the player who stays: their places in
pairs, their substitutions, their account, licence and e-mail (where the person has none
yet), the results already e-mailed to them; then the clubs' ratings are recomputed
(the ratings of two players become one). Each event concerned gets an audit entry, and a
``PlayerMerge`` record keeps what moved.
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from tournaments import policy, queue
from tournaments.actors import Actor
from tournaments.models import (
    Entry,
    Event,
    LineUp,
    Pair,
    Player,
    PlayerMerge,
    ResultsMail,
    Substitution,
    TeamMember,
)
from tournaments.services import Conflict, NotAllowed, ServiceError, audit


@dataclass
class MergePlan:
    """What a merge would move, shown on the confirmation page before it is done."""

    keep: Player
    other: Player
    pairs: list[Pair] = field(default_factory=list)
    substitutions: list[Substitution] = field(default_factory=list)
    teams: list[TeamMember] = field(default_factory=list)  # the duplicate's places on teams
    events: list[Event] = field(default_factory=list)
    takes_account: bool = False
    takes_licence: bool = False
    takes_club: bool = False
    takes_email: bool = False  # with its language: where the person's results go
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def merge_refused() -> NotAllowed:
    """The refusal of a merge the actor may not make; also for a player number that does not
    exist, so that the form does not tell which numbers do (a hidden player's page is a 404)."""
    return NotAllowed(
        _(
            "Only the site's staff, or an organiser of a club both players belong to, "
            "may merge them."
        ),
        field="other",
    )


def merge_plan(*, keep: Player, other: Player, actor: Actor) -> MergePlan:
    """What merging ``other`` into ``keep`` would do, and why it cannot be done if so."""
    if not policy.may_merge_players(actor, keep, other):
        raise merge_refused()
    if keep.pk == other.pk:
        raise ServiceError(_("Choose two different players."), field="other")
    plan = MergePlan(keep=keep, other=other)
    plan.pairs = list(Pair.objects.filter(Q(player1=other) | Q(player2=other)).order_by("pk"))
    plan.substitutions = list(
        Substitution.objects.filter(Q(player_in=other) | Q(player_out=other))
        .select_related("entry__event")
        .order_by("pk")
    )
    plan.teams = list(
        TeamMember.objects.filter(player=other).select_related("team__event").order_by("pk")
    )
    team_events = [m.team.event_id for m in plan.teams]
    played = Q(pk__in=policy.player_entries(other).values("event_id")) | Q(pk__in=team_events)
    # Every event whose rows change: those played in, and those of a pair or a substitution
    # that moves (a line-up replaced before round 1 included), each audited.
    plan.events = list(
        Event.objects.filter(
            played
            | Q(pk__in=Entry.objects.filter(pair__in=plan.pairs).values("event_id"))
            | Q(pk__in=[s.entry.event_id for s in plan.substitutions])
        )
        .select_related("club")
        .order_by("date", "pk")
    )
    # Both played in one event (a pair's, or a team's list of players): two people.
    both = Event.objects.filter(
        Q(pk__in=policy.player_entries(keep).values("event_id"))
        | Q(pk__in=TeamMember.objects.filter(player=keep).values("team__event_id")),
    ).filter(played)
    for event in both.order_by("date", "pk"):
        plan.problems.append(
            _("Both played in %(event)s: they are two people.") % {"event": event.name}
        )
    if keep.user_id and other.user_id and keep.user_id != other.user_id:
        plan.problems.append(_("Both players have their own account: they are two people."))
    for event in _events_given_an_account(keep, other):
        plan.problems.append(
            _(
                "%(event)s is not finished and one of the two players has a place in it: the "
                "merge would give that place to the other's account, with the cards and live "
                "results of its tables. Merge them once the event is finished."
            )
            % {"event": event.name}
        )
    if keep.licence and other.licence and keep.licence != other.licence:
        plan.problems.append(
            _("Their licence numbers differ (%(a)s, %(b)s).")
            % {"a": keep.licence, "b": other.licence}
        )
    plan.takes_account = bool(other.user_id and not keep.user_id)
    plan.takes_licence = bool(other.licence and not keep.licence)
    plan.takes_club = bool(other.club_id and not keep.club_id)
    plan.takes_email = bool(other.email and not keep.email)
    return plan


def _events_not_finished(player: Player) -> QuerySet[Event]:
    """The events not finished where ``player`` has a place: in a pair entered (which sits at
    the tables of its rounds) or on a team."""
    pairs = Pair.objects.filter(Q(player1=player) | Q(player2=player)).values("pk")
    teams = TeamMember.objects.filter(player=player).values("team__event_id")
    return (
        Event.objects.filter(Q(entries__pair__in=pairs) | Q(pk__in=teams))
        .exclude(status=Event.Status.FINISHED)
        .distinct()
    )


def _events_given_an_account(keep: Player, other: Player) -> list[Event]:
    """The events not finished where the merge would give a player's places to an account that
    did not have them: an account reaches the tables where its player's pairs sit (their cards
    once unlocked, their live results), so a merge must not seat it, unseen, at an event being
    played (a club's organiser merging a seated member into their own record). Once the event
    is finished every card and score is public anyway: merging is harmless then."""
    if keep.user_id == other.user_id:
        return []  # the same account, or none: nobody gains a seat
    if keep.user_id and other.user_id:
        return []  # two accounts: refused as two people
    seated = other if keep.user_id else keep  # the one without the account
    return list(_events_not_finished(seated).order_by("date", "pk"))


def players_merge(*, keep: Player, other: Player, actor: Actor) -> PlayerMerge:
    """Merge ``other`` into ``keep``; ``other`` is deleted. Refused when the plan has problems."""
    with transaction.atomic():
        # Row locks on both players: a pair registered or substituted with the duplicate while
        # we move its rows would keep pointing at a player about to be deleted.
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update(of=("self",), no_key=True).filter(
                pk__in=[keep.pk, other.pk]
            )
        }
        if len(locked) != 2:
            raise Conflict(_("One of the players no longer exists."))
        keep, other = locked[keep.pk], locked[other.pk]
        plan = merge_plan(keep=keep, other=other, actor=actor)
        if not plan.ok:
            raise ServiceError(plan.problems[0], field="other")
        moved = {
            "pairs": [p.pk for p in plan.pairs],
            "substitutions": [s.pk for s in plan.substitutions],
            "teams": [m.team_id for m in plan.teams],
            "events": [e.pk for e in plan.events],
            "account": plan.takes_account,
            "licence": plan.takes_licence,
            "club": plan.takes_club,
            "email": plan.takes_email,
        }
        Pair.objects.filter(player1=other).update(player1=keep)
        Pair.objects.filter(player2=other).update(player2=keep)
        Substitution.objects.filter(player_in=other).update(player_in=keep)
        Substitution.objects.filter(player_out=other).update(player_out=keep)
        TeamMember.objects.filter(player=other).update(player=keep)
        # The results already e-mailed to the duplicate stay sent (never twice to a person);
        # an event's results sent to both are one sending (one row a person and event).
        ResultsMail.objects.filter(player=other).exclude(
            event__in=ResultsMail.objects.filter(player=keep).values("event")
        ).update(player=keep)
        for lineup in LineUp.objects.filter(substitutes=other):
            lineup.substitutes.remove(other)
            lineup.substitutes.add(keep)
        user_id, licence, club_id = other.user_id, other.licence, other.club_id
        email, language = other.email, other.language
        # The person's privacy choice survives: the more restrictive of the two stands.
        order = list(Player.Visibility.values)  # hidden, results, rating
        visibility = min(keep.visibility, other.visibility, key=order.index)
        merged_id, merged_name = other.pk, other.name
        other.delete()  # its ratings go with it; the clubs' ratings are recomputed below
        if plan.takes_account:
            keep.user_id = user_id
        if plan.takes_licence:
            keep.licence = licence
        if plan.takes_club:
            keep.club_id = club_id
        if plan.takes_email:
            keep.email, keep.language = email, language
        keep.visibility = visibility
        keep.save(update_fields=["user", "licence", "club", "visibility", "email", "language"])
        record = PlayerMerge.objects.create(
            kept=keep,
            kept_name=keep.name,
            merged_id=merged_id,
            merged_name=merged_name,
            moved=moved,
            actor=actor.label,
        )
        for event in plan.events:
            audit.record(
                event=event,
                actor=actor.label,
                action="player_merged",
                changes={"player": [f"{merged_name} #{merged_id}", f"{keep.name} #{keep.pk}"]},
            )
        for club_id in {e.club_id for e in plan.events if e.club_id}:
            queue.recompute_ratings(club_id)
    return record


def player_visibility_set(*, player: Player, actor: Actor, visibility: str) -> Player:
    """The player's own choice of what the public sees of them (or the site's staff's)."""
    access = policy.PlayerAccess(actor, player)
    if not access.full:
        raise NotAllowed(_("Only the player can change what the public sees of them."))
    if visibility not in Player.Visibility.values:
        raise ServiceError(_("Choose one of the options."), field="visibility")
    player.visibility = visibility
    player.save(update_fields=["visibility"])
    return player
