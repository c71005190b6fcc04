"""Public sign-up for an event, its cap and waiting list, and check-in on the day.

A pair signs up while the organiser has registration open. Up to the event's cap the pair is
confirmed, beyond it it waits; a confirmed pair that withdraws gives its place to the first
pair waiting, who is told by e-mail. On the day the organiser checks the pairs in: checking in
registers the pair as an entry of the event, so only checked-in pairs are paired in round 1.
Every message goes by e-mail (Django's e-mail framework, sent by a task) in the language the
pair signed up in.
"""

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.actors import Actor
from tournaments.models import Event, Registration
from tournaments.services import ServiceError, audit
from tournaments.services.events import entry_register, require_organiser
from tournaments.site import site_url

CONFIRMED, WAITING, PROMOTED, WITHDRAWN = "confirmed", "waiting", "promoted", "withdrawn"


def _open_for_signup(event: Event) -> None:
    if event.status != Event.Status.REGISTRATION:
        raise ServiceError(_("Registration for this event is closed."), code="closed")


def registration_signup(
    *, event: Event, player1: str, player2: str, email: str, language: str
) -> Registration:
    """Sign a pair up: confirmed within the cap, else on the waiting list; an e-mail says which."""
    with transaction.atomic():
        # Row lock on the event: two pairs signing up for the last place at once must not both
        # be confirmed.
        event = Event.objects.select_for_update().get(pk=event.pk)
        _open_for_signup(event)
        taken = event.registrations.filter(status=Registration.Status.CONFIRMED).count()
        full = event.registration_cap is not None and taken >= event.registration_cap
        registration = Registration.objects.create(
            event=event,
            player1=player1.strip(),
            player2=player2.strip(),
            email=email,
            language=language,
            status=Registration.Status.WAITING if full else Registration.Status.CONFIRMED,
        )
        queue.registration_email(registration, WAITING if full else CONFIRMED)
    return registration


def registration_withdraw(*, registration: Registration) -> Registration:
    """The pair withdraws (by the link of its e-mail) before the event starts; the first pair
    waiting takes a freed place."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=registration.event_id)  # see signup
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
            raise ServiceError(
                _("The event has started: ask the organiser to withdraw the pair."),
                code="closed",
            )
        if registration.status == Registration.Status.WITHDRAWN:
            return registration
        was_confirmed = registration.status == Registration.Status.CONFIRMED
        registration.status = Registration.Status.WITHDRAWN
        registration.save(update_fields=["status"])
        if registration.entry is not None:
            entry, registration.entry = registration.entry, None
            registration.save(update_fields=["entry"])
            entry.delete()  # not started: the pair leaves the list, as a withdrawal does
        queue.registration_email(registration, WITHDRAWN)
        if was_confirmed:
            _promote_first_waiting(event)
    return registration


def _promote_first_waiting(event: Event) -> None:
    waiting = event.registrations.filter(status=Registration.Status.WAITING).order_by(
        "created_at", "pk"
    )
    first = waiting.first()
    if first is not None:
        first.status = Registration.Status.CONFIRMED
        first.save(update_fields=["status"])
        queue.registration_email(first, PROMOTED)


def registration_check_in(*, registration: Registration, actor: Actor) -> Registration:
    """The organiser checks a confirmed pair in: it becomes an entry (numbered in check-in
    order) and will be paired. Checking in twice changes nothing."""
    event = registration.event
    require_organiser(event, actor)
    with transaction.atomic():
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.entry_id is not None:
            return registration
        if registration.status != Registration.Status.CONFIRMED:
            raise ServiceError(_("Only a confirmed pair can be checked in."), field="registration")
        entry = entry_register(
            event=event, actor=actor, player1=registration.player1, player2=registration.player2
        )
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


def registration_link(registration: Registration) -> str:
    path = reverse("public:registration", args=[registration.event_id, registration.token])
    # Sent by a task, with no request: SITE_URL when set, else the default address.
    return site_url() + path


def registration_email_send(registration_id: int, kind: str) -> int:
    """Send one of the pair's messages, in the language they signed up in."""
    registration = Registration.objects.select_related("event").get(pk=registration_id)
    with translation.override(registration.language or settings.LANGUAGE_CODE):
        subjects = {
            CONFIRMED: _("Registration confirmed: %(event)s"),
            WAITING: _("On the waiting list: %(event)s"),
            PROMOTED: _("A place for you: %(event)s"),
            WITHDRAWN: _("Registration withdrawn: %(event)s"),
        }
        subject = subjects[kind] % {"event": registration.event.name}
        body = render_to_string(
            "email/registration.txt",
            {
                "registration": registration,
                "event": registration.event,
                "kind": kind,
                "link": registration_link(registration),
            },
        )
    return send_mail(subject, body, None, [registration.email])
