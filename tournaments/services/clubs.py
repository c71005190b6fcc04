"""Clubs belong to their organisers: only they create events in a club's name.

A new club name creates the club with the person who typed it as its first organiser; an
existing club needs its organisers' consent, given by adding the account to the club (the club's
organisers ask the site's staff, who manage memberships in the admin). A club only ever typed as
where a pair or a team comes from has no organisers: the staff give it its first, since a club's
organisers see its players' pages.
"""

import hashlib
import logging
from typing import Any

from django.db import connection, transaction
from django.db.models.functions import Length
from django.utils.translation import gettext as _

from tournaments.actors import Actor
from tournaments.models import Club, Season
from tournaments.services import NotAllowed, ServiceError
from tournaments.services.names import length_problems, normal_name

log = logging.getLogger(__name__)


def require_club_organiser(*, club: Club, actor: Actor) -> None:
    if club.may_act_for(actor.user):
        return
    if actor.is_authenticated and not club.organisers.exists():
        # Typed for visiting pairs or teams (or left by its organisers), never claimed by
        # whoever types it next: its organisers see its players' pages and merge them, so the
        # staff check who asks.
        raise NotAllowed(
            _("Nobody organises %(club)s here yet: ask the site's staff to make you its organiser.")
            % {"club": club.name},
            field="club",
        )
    raise NotAllowed(
        _(
            "Only the organisers of %(club)s can create events in its name. Ask one of them, "
            "or the site's staff, to add you to the club."
        )
        % {"club": club.name},
        field="club",
    )


def home_club(name: str) -> Club | None:
    """The club a pair or a team says it comes from (None for no name): it needs no membership,
    so an unknown name makes a club without organisers. Found whatever its capitals or spacing,
    so "casal de reus" is Casal de Reus, not a second club."""
    name = stored_name(name)
    if not name:
        return None
    return named(name) or _found_or_created(name)[0]


_CLUB_NAMES = 0x636C7562  # "club": the class of the names' advisory locks


def _found_or_created(name: str, organiser: Any = None) -> tuple[Club, bool]:
    """The club of this name, created when there is none. Two requests naming one new club at
    once, in whatever capitals, make one: on PostgreSQL they take turns on a lock of the name's
    folded form, held until their transactions end (a unique index on a folded name would need
    the clubs already stored twice merged first)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            digest = hashlib.blake2b(name.casefold().encode(), digest_size=4).digest()
            key = int.from_bytes(digest, "big", signed=True)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_CLUB_NAMES, key])
        club = named(name)
        if club is not None:
            return club, False
        club = Club.objects.create(name=name)
        if organiser is not None:
            club.organisers.add(organiser)
        return club, True


def stored_name(name: str) -> str:
    """A club's name as stored (``normal_name``), refused at ``club`` when it outgrows its
    column once normalised (a name that fits as typed may not: a few characters decompose)."""
    name = normal_name(name)
    for _field, problem in length_problems(club=name):
        raise ServiceError(problem, field="club")
    return name


def named(name: str) -> Club | None:
    """The club of this (normal) name, whatever its capitals."""
    club = Club.objects.filter(name__iexact=name).order_by("pk").first()
    if club is not None or name.isascii():
        return club
    # SQLite's case-insensitive match folds ASCII letters only ("èlit" is not "Èlit" there):
    # the names of that length are compared here, as PostgreSQL's UPPER() already does.
    key = name.casefold()
    same_length = Club.objects.annotate(chars=Length("name")).filter(chars=len(name))
    return next((c for c in same_length.order_by("pk") if c.name.casefold() == key), None)


def club_for(*, name: str, actor: Actor, current: Club | None = None) -> Club | None:
    """The club named ``name`` for an event ``actor`` creates or edits (None for no club).

    ``current`` is the event's club before the edit: keeping it needs no membership, so a
    co-organiser of an event can still change its other details.
    """
    name = stored_name(name)
    if not name:
        return None
    club = named(name)
    if club is None:
        if not actor.is_authenticated:
            raise NotAllowed(_("Log in to create a club."), field="club")
        club, created = _found_or_created(name, organiser=actor.user)
        if created:
            # Once stored: a club made inside a refused import (rolled back) was never created.
            transaction.on_commit(
                lambda: log.info("club %s (%s) created by %s", club.pk, club.name, actor.label)
            )
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
