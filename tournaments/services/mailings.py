"""The e-mails of registration and results, sent by Celery tasks (``tasks.py``) through Django's
e-mail framework, each in its reader's language.

- a registration's messages (confirmed, waiting, a place freed, solo, matched, withdrawn),
  to every e-mail of the pair, a message a sign-up (``registrations.readers``); those that let
  the pair play carry the check-in QR code as an attached PNG and its link;
- the check-in reminder, once per pair, when the organiser sends the reminders;
- each player's personal results (scorecard and standing) once the event is finished and
  published, once per player and event (``ResultsMail``): a task run twice sends nothing twice.

An address the mail server refuses for good (a 5xx answer) is logged and passed over
(``_deliver``); any other failure raises, and the task's retry sends what was not sent.
"""

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments import public_selectors as sel
from tournaments.models import (
    Entry,
    Event,
    Player,
    Registration,
    ResultsMail,
    StandingsSnapshot,
    Substitution,
)
from tournaments.qr import qr_png
from tournaments.scoring_io import stale_events
from tournaments.services.registrations import (
    CONFIRMED,
    MATCHED,
    REMINDER,
    SOLO,
    WAITING,
    pair_registration,
    readers,
)
from tournaments.services.standings import standings_recompute
from tournaments.services.waiting_list import PROMOTED, WITHDRAWN
from tournaments.site import site_url

log = logging.getLogger(__name__)


def _deliver(message: EmailMultiAlternatives) -> int:
    """Send ``message``; 0 when the mail server refuses every recipient for good (5xx): a
    retry would only send the other readers their message again, or stop at this address
    every time, so it is logged and passed over. A refusal for now (4xx: greylisting, a full
    mailbox) raises like any other failure, and the task's retry sends it."""
    try:
        return message.send()
    except smtplib.SMTPRecipientsRefused as refused:
        if any(code < 500 for code, _reply in refused.recipients.values()):
            raise
        log.warning("the mail server refused %s: %s", ", ".join(message.to), refused.recipients)
        return 0


def registration_link(registration: Registration) -> str:
    path = reverse("public:registration", args=[registration.event_id, registration.token])
    # Sent by a task, with no request: SITE_URL when set, else the default address.
    return site_url() + path


def checkin_link(registration: Registration, *, base: str = "") -> str:
    """What the check-in QR code encodes: the organiser's phone opens it to check the pair in.
    ``base``: the site's address (a page gives its request's); else as for a task's e-mail."""
    pair = pair_registration(registration)
    path = reverse("public:check_in", args=[pair.event_id, pair.checkin_token])
    return (base or site_url()) + path


def _subject(kind: str, event: Event) -> str:
    subjects = {
        CONFIRMED: _("Registration confirmed: %(event)s"),
        WAITING: _("On the waiting list: %(event)s"),
        PROMOTED: _("A place for you: %(event)s"),
        WITHDRAWN: _("Registration withdrawn: %(event)s"),
        SOLO: _("Signed up alone: %(event)s"),
        MATCHED: _("Your partner for %(event)s"),
        REMINDER: _("Check in on the day: %(event)s"),
    }
    return subjects[kind] % {"event": event.name}


def registration_email_send(registration_id: int, kind: str) -> int:
    """Send one of the pair's messages to every e-mail of the pair: one message a sign-up (a
    matched solo player gets their own), in the language it was made in, with its own link."""
    registration = Registration.objects.select_related("event").get(pk=registration_id)
    pair = pair_registration(registration)
    event = registration.event
    playing = pair.status == Registration.Status.CONFIRMED and kind in (
        CONFIRMED,
        PROMOTED,
        MATCHED,
        REMINDER,
    )
    qr = qr_png(checkin_link(pair)) if playing else None  # the pair's: one for every message
    sent = 0
    for reader, emails in readers(pair):
        with translation.override(reader.language or settings.LANGUAGE_CODE):
            body = render_to_string(
                "email/registration.txt",
                {
                    "registration": pair,
                    "event": event,
                    "kind": kind,
                    "link": registration_link(reader),
                    "checkin_link": checkin_link(pair) if playing else "",
                },
            )
            message = EmailMultiAlternatives(_subject(kind, event), body, None, emails)
        if qr is not None:
            message.attach("check-in.png", qr, "image/png")
        sent += _deliver(message)
    return sent


def reminders_send(event_id: int) -> int:
    """The check-in reminder to every confirmed pair not yet checked in nor reminded; the
    number of pairs reminded. Each pair is reminded once, however often it is asked; none
    once the event has started (the reminder asks them to check in before the first round)."""
    if not Event.objects.filter(pk=event_id, status__in=Event.BEFORE_START).exists():
        return 0
    sent = 0
    pending = Registration.objects.filter(
        event_id=event_id,
        status=Registration.Status.CONFIRMED,
        entry__isnull=True,
        reminded_at__isnull=True,
    ).values_list("pk", flat=True)
    for pk in list(pending):
        with transaction.atomic():
            # Row lock: two reminder runs at once must not both send to this pair.
            reg = Registration.objects.select_for_update(of=("self",), no_key=True).get(pk=pk)
            if reg.reminded_at is not None:
                continue
            registration_email_send(reg.pk, REMINDER)
            reg.reminded_at = timezone.now()
            reg.save(update_fields=["reminded_at"])
            sent += 1
    return sent


def _final_standings(event: Event, ev: sel.EventView) -> dict[int, sel.StandingRow]:
    if stale_events().filter(pk=event.pk).exists():
        standings_recompute(event.pk)  # the mails must not give a rank of before the last round
    snapshot = (
        StandingsSnapshot.objects.filter(event=event).defer("matches").order_by("-after_round")
    ).first()
    return {row.entry.pk: row for row in sel.standing_rows(ev, snapshot)}


def results_mails_send(event_id: int) -> int:
    """Each player with an e-mail gets their scorecard and standing once the event is finished
    and published; the number of e-mails sent by this call (0 when all have been sent)."""
    event = Event.objects.get(pk=event_id)
    if event.status != Event.Status.FINISHED or not event.published or event.is_team_event:
        return 0  # a team event's results are its team pages (docs/clubs.md 3.3)
    ev = sel.event_view(event, staff=False)
    rows = _final_standings(event, ev)
    entries = list(ev.entries.values())
    cards = {card.entry.pk: card for card in sel.scorecards(ev, entries)}
    left: dict[int, list[Substitution]] = {}
    for sub in Substitution.objects.filter(entry__event=event).select_related("player_out"):
        left.setdefault(sub.entry_id, []).append(sub)
    sent = 0
    failure: OSError | None = None
    for entry in entries:
        for player in _players(entry, left.get(entry.pk, [])):
            if not player.email:
                continue
            try:
                if _results_mail(event, ev, entry, player, cards, rows):
                    sent += 1
            except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as exc:
                failure = exc  # this message only (4xx): the others still get theirs now
            # Anything else (the server down, or answering nothing) fails the run at once: each
            # player would wait for the same timeout. The retry sends what is still missing.
    if failure is not None:
        raise failure  # the task's retry sends what is still missing
    return sent


def _players(entry: Entry, substitutions: list[Substitution]) -> list[Player]:
    """The pair's players now, and each one substituted out after playing a round for it."""
    players = {p.pk: p for p in (entry.pair.player1, entry.pair.player2)}
    first = entry.joins_round or 1
    for sub in substitutions:
        if sub.from_round > first:
            players.setdefault(sub.player_out_id, sub.player_out)
    return list(players.values())


def _results_mail(
    event: Event,
    ev: sel.EventView,
    entry: Entry,
    player: Player,
    cards: dict[int, sel.Scorecard],
    rows: dict[int, sel.StandingRow],
) -> bool:
    """Send ``player`` their results unless it was done; whether it was sent now."""
    try:
        with transaction.atomic():
            # The unique (event, player) row is taken before sending: a second run (or one
            # running at the same time, which waits on the insert) finds it and sends nothing.
            # If sending fails the row is rolled back and the task's retry sends it; an
            # address refused for good keeps its row (nothing to retry).
            ResultsMail.objects.create(event=event, player=player, email=player.email)
            with translation.override(player.language or settings.LANGUAGE_CODE):
                url = reverse("public:scorecard", args=[event.pk, entry.number])
                body = render_to_string(
                    "email/results.txt",
                    {
                        "player": player,
                        "event": event,
                        "entry": entry,
                        "card": cards.get(entry.pk),
                        "row": rows.get(entry.pk),
                        "pairs": len(ev.entries),
                        "link": site_url() + url,
                    },
                )
                subject = _("Your results: %(event)s") % {"event": event.name}
            delivered = _deliver(EmailMultiAlternatives(subject, body, None, [player.email]))
    except IntegrityError:
        return False
    return delivered > 0
