"""Clubs belong to their organisers: only they create events in a club's name.

A new club name creates the club with the person who typed it as its first organiser; an
existing club needs its organisers' consent, given by adding the account to the club (the club's
organisers ask the site's staff, who manage memberships in the admin).
"""

from django.utils.translation import gettext as _

from tournaments.actors import Actor
from tournaments.models import Club, Season
from tournaments.services import NotAllowed, ServiceError


def require_club_organiser(*, club: Club, actor: Actor) -> None:
    if not actor.is_authenticated or not club.may_act_for(actor.user):
        raise NotAllowed(
            _(
                "Only the organisers of %(club)s can create events in its name. Ask one of them, "
                "or the site's staff, to add you to the club."
            )
            % {"club": club.name},
            field="club",
        )


def normal_name(name: str) -> str:
    """A club's name with its spaces collapsed, as the pages show it: "Penya   Lloret" is Penya
    Lloret, not a look-alike club (one its typist would organise, or a pair's second club)."""
    return " ".join(name.split())


def club_for(*, name: str, actor: Actor, current: Club | None = None) -> Club | None:
    """The club named ``name`` for an event ``actor`` creates or edits (None for no club).

    ``current`` is the event's club before the edit: keeping it needs no membership, so a
    co-organiser of an event can still change its other details.
    """
    name = normal_name(name)
    if not name:
        return None
    club = Club.objects.filter(name__iexact=name).first()
    if club is None:
        if not actor.is_authenticated:
            raise NotAllowed(_("Log in to create a club."), field="club")
        club = Club.objects.create(name=name)
        club.organisers.add(actor.user)
        return club
    if current is None or club.pk != current.pk:
        require_club_organiser(club=club, actor=actor)
    return club


def season_create(*, club: Club, actor: Actor, **fields: object) -> Season:
    """A new season of ``club`` (its organisers only)."""
    if not club.may_act_for(actor.user):
        raise NotAllowed(
            _("Only the organisers of %(club)s can manage its seasons.") % {"club": club.name}
        )
    season = Season(club=club, **fields)
    if season.ends < season.starts:  # type: ignore[operator]
        raise ServiceError(_("The last day comes before the first."), field="ends")
    season.save()
    return season
