"""Public sign-up for an event, its cap and waiting list, fees, and check-in on the day.

A pair signs up while the organiser has registration open. Up to the event's cap the pair is
confirmed, beyond it it waits; a confirmed pair that withdraws gives its place to the first
pair waiting, who is told by e-mail. A player may also sign up alone: the organiser matches two
solo sign-ups into a pair, which then takes a place (or waits) like any pair. On the day the
organiser checks the pairs in (a click on the list, or the QR code of the confirmation opened
on the organiser's phone): checking in registers the pair as an entry of the event, so only
checked-in pairs are paired in round 1. Every message goes by e-mail (``mailings``) in the
language the pair signed up in.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.actors import Actor
from tournaments.models import Event, Registration
from tournaments.services import ServiceError, audit, changes, lock_event, waiting_list
from tournaments.services.events import (
    already_registered_problem,
    entry_register,
    players_key,
    registered_pairs,
    require_organiser,
    same_person_problem,
)
from tournaments.services.names import length_problems, normal_name
from tournaments.services.waiting_list import is_full

CONFIRMED, WAITING = "confirmed", "waiting"
SOLO, MATCHED, REMINDER = "solo", "matched", "reminder"


def _open_for_signup(event: Event) -> None:
    if event.status != Event.Status.REGISTRATION:
        raise ServiceError(_("Registration for this event is closed."), code="closed")
    _pairs_only(event)


def _pairs_only(event: Event) -> None:
    # A team event's teams are registered by its organisers (docs/teams.md): a pair signed up
    # there could never be checked in.
    if event.is_team_event:
        raise ServiceError(
            _("This is a team event: its organisers register the teams."), code="closed"
        )


def pair_registration(registration: Registration) -> Registration:
    """The registration that stands for the pair: a matched solo sign-up's partner's."""
    return registration.matched_into or registration


def _current_pair(registration: Registration) -> Registration:
    """The pair's registration as stored now (the caller's copy may be older than a match)."""
    fresh = Registration.objects.select_related("matched_into", "event").get(pk=registration.pk)
    return pair_registration(fresh)


def readers(registration: Registration) -> list[tuple[Registration, list[str]]]:
    """Who the pair's messages go to, by sign-up: the pair's own (who signed up and the
    partner's e-mail if given) and each solo sign-up matched into it, each read in its own
    language with its own link."""
    pair = pair_registration(registration)
    out = [(pair, [e for e in dict.fromkeys([pair.email, pair.email2]) if e])]
    out += [(solo, [solo.email]) for solo in pair.matched_solos.all() if solo.email]
    return [(reg, emails) for reg, emails in out if emails]


def _new_pair_problem(event: Event, player1: str, player2: str) -> str | None:
    """Why these two players cannot be a new pair of the event, as the pairs' list refuses them
    (one player twice, or two players who already hold a sign-up, confirmed or waiting, or a
    place), or None: a second click, or a match of two solo sign-ups of the same players, would
    hold a second place, and push a pair onto the waiting list, for a pair the check-in then
    refuses."""
    key = players_key(player1, player2)
    if len(key) == 1:
        return same_person_problem()
    signed_up = event.registrations.filter(
        status__in=(Registration.Status.CONFIRMED, Registration.Status.WAITING)
    ).values_list("player1", "player2")
    if any(players_key(a, b) == key for a, b in signed_up):
        return _(
            "These two players have already signed up: the e-mail sent then has the link to see "
            "or withdraw the sign-up."
        )
    entry = registered_pairs(event).get(key)
    return already_registered_problem(entry) if entry is not None else None


def registration_signup(
    *,
    event: Event,
    player1: str,
    player2: str = "",
    email: str,
    language: str,
    email2: str = "",
) -> Registration:
    """Sign a pair up: confirmed within the cap, else on the waiting list; an e-mail says which.
    Without a second player it is a solo sign-up, waiting for the organiser to match it (solo
    sign-ups take no place until they are matched into a pair)."""
    with transaction.atomic():
        # Row lock on the event: two pairs signing up for the last place at once must not both
        # be confirmed.
        event = lock_event(event.pk)
        _open_for_signup(event)
        player1, player2 = normal_name(player1), normal_name(player2)
        if not player1:  # nothing printable was typed (the form requires a name)
            raise ServiceError(_("Type the player's name."), field="player1")
        # Checked as stored: a name's normal form can be longer than what was typed.
        for field, problem in length_problems(player1=player1, player2=player2):
            raise ServiceError(problem, field=field)
        problem = _new_pair_problem(event, player1, player2) if player2 else None
        if problem:
            raise ServiceError(problem, field="player2")
        if not player2:
            status, kind = Registration.Status.SOLO, SOLO
        elif is_full(event):
            status, kind = Registration.Status.WAITING, WAITING
        else:
            status, kind = Registration.Status.CONFIRMED, CONFIRMED
        registration = Registration.objects.create(
            event=event,
            player1=player1,
            player2=player2,
            email=email,
            email2=email2 if player2 else "",
            language=language,
            status=status,
            paired_at=timezone.now() if player2 else None,
        )
        queue.registration_email(registration, kind)
    return registration


def registration_match(*, first: Registration, second: Registration, actor: Actor) -> Registration:
    """The organiser matches two solo sign-ups into a pair: the first becomes the pair's
    registration (confirmed within the cap, else waiting), the second points to it. Both
    players are told by e-mail."""
    event = first.event
    require_organiser(event, actor)
    if first.pk == second.pk:
        raise ServiceError(_("Choose two different players."), field="second")
    _pairs_only(event)
    with transaction.atomic():
        event = lock_event(event.pk)  # see signup: the cap
        if event.status not in Event.BEFORE_START:
            raise ServiceError(_("The event has started: register the pair on the list of pairs."))
        locked = Registration.objects.select_for_update(of=("self",), no_key=True).filter(
            pk__in=[first.pk, second.pk], event=event
        )
        by_pk = {r.pk: r for r in locked}
        if len(by_pk) != 2 or any(r.status != Registration.Status.SOLO for r in by_pk.values()):
            raise ServiceError(
                _("Only two players still looking for a partner can be matched."), field="second"
            )
        first, second = by_pk[first.pk], by_pk[second.pk]
        problem = _new_pair_problem(event, first.player1, second.player1)
        if problem:
            raise ServiceError(problem, field="second")
        full = is_full(event)
        first.player2 = second.player1
        first.status = Registration.Status.WAITING if full else Registration.Status.CONFIRMED
        first.paired_at = timezone.now()
        first.save(update_fields=["player2", "status", "paired_at"])
        second.status = Registration.Status.MATCHED
        second.matched_into = first
        second.save(update_fields=["status", "matched_into"])
        audit.record(
            event=event,
            actor=actor.label,
            action="solo_players_matched",
            changes={"pair": [None, str(first)], "status": [None, first.status]},
        )
        queue.registration_email(first, MATCHED)
    return first


def registration_mark_paid(*, registration: Registration, actor: Actor, paid: bool) -> Registration:
    """The organiser marks the pair's fee paid or not paid (audited)."""
    event = registration.event
    require_organiser(event, actor)
    with transaction.atomic():
        registration = Registration.objects.select_for_update(of=("self",), no_key=True).get(
            pk=registration.pk
        )
        was_paid = registration.paid_at is not None
        if was_paid == paid:
            return registration
        registration.paid_at = timezone.now() if paid else None
        registration.save(update_fields=["paid_at"])
        audit.record(
            event=event,
            actor=actor.label,
            action="registration_paid" if paid else "registration_unpaid",
            changes={"pair": [None, str(registration)], "paid": [was_paid, paid]},
        )
    return registration


def registration_withdraw(*, registration: Registration) -> Registration:
    """The pair withdraws (by the link of its e-mail) before the event starts; the first pair
    waiting takes a freed place."""
    with transaction.atomic():
        event = lock_event(registration.event_id)  # see signup
        # Which pair, read under the event's lock: a solo player's link withdraws the pair an
        # organiser matched them into, also when the match committed a moment ago.
        registration = _current_pair(registration)
        registration = Registration.objects.select_for_update(of=("self",), no_key=True).get(
            pk=registration.pk
        )
        if event.status not in Event.BEFORE_START:
            raise ServiceError(
                _("The event has started: ask the organiser to withdraw the pair."),
                code="closed",
            )
        if registration.status == Registration.Status.WITHDRAWN:
            return registration
        if registration.entry is not None:
            # Checked in, not started: the pair leaves the list of pairs, as when the
            # organiser removes it (changes.entry_withdraw), and the audit trail says so.
            entry, registration.entry = registration.entry, None
            registration.save(update_fields=["entry"])
            changes.entry_delete(
                entry,
                actor_label=Actor().label,
                note=_("Withdrawn by the pair, with its registration link"),
            )
        waiting_list.withdraw(registration, event)
    return registration


def registration_by_checkin_token(*, event_id: int, token: str) -> Registration:
    return Registration.objects.select_related("event", "matched_into", "entry").get(
        event_id=event_id, checkin_token=token
    )


def registration_check_in(*, registration: Registration, actor: Actor) -> Registration:
    """The organiser checks a confirmed pair in: it becomes an entry (numbered in check-in
    order) and will be paired. Checking in twice changes nothing. The players' e-mails and
    language are kept for their results after the event."""
    registration = _current_pair(registration)
    event = registration.event
    require_organiser(event, actor)
    with transaction.atomic():
        # The event's lock first, as signing up, matching and withdrawing take it: the other
        # order deadlocked a check-in against the pair's withdrawal.
        lock_event(event.pk)
        registration = _current_pair(registration)
        registration = Registration.objects.select_for_update(of=("self",), no_key=True).get(
            pk=registration.pk
        )
        if registration.entry_id is not None:
            return registration
        if registration.status != Registration.Status.CONFIRMED:
            raise ServiceError(_("Only a confirmed pair can be checked in."), field="registration")
        entry = entry_register(
            event=event, actor=actor, player1=registration.player1, player2=registration.player2
        )
        partner = registration.matched_solos.first()
        second = partner or registration  # the matched solo player reads in their own language
        for player, email, language in (
            (entry.pair.player1, registration.email, registration.language),
            (
                entry.pair.player2,
                partner.email if partner else registration.email2,
                second.language,
            ),
        ):
            if email:
                player.email, player.language = email, language
                player.save(update_fields=["email", "language"])
        registration.entry = entry
        registration.checked_in_at = timezone.now()
        registration.save(update_fields=["entry", "checked_in_at"])
        audit.record(
            event=event,
            actor=actor.label,
            action="pair_checked_in",
            changes={"entry": [None, str(entry)]},
        )
    return registration
