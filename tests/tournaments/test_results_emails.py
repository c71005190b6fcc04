"""Each player's personal results after the event (scorecard and standing), sent once the
event is finished and published, only to players with an e-mail, in the player's language,
and never twice for the same event (Django's in-memory e-mail backend)."""

from datetime import date

import pytest
from django.core import mail

from tests.conftest import wait_for
from tests.factories import ClubFactory, EventFactory, RegistrationFactory
from tests.tournaments.club_history import club_evening, players
from tournaments.actors import Actor
from tournaments.models import Event, Registration, ResultsMail
from tournaments.services import events
from tournaments.services.mailings import results_mails_send
from tournaments.tasks import send_checkin_reminders, send_results_emails

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organiser):
    club = ClubFactory(name="Penya del Dijous")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def field(club):
    people = players(*[f"Soci {i}" for i in range(8)], club=club)
    for i, p in enumerate(people[:5]):
        p.email = f"soci{i}@example.org"
        p.language = "ca" if i == 0 else "en"
        p.save()
    return people


def _lineup(people):
    return [(people[i], people[i + 4]) for i in range(4)]


def _results(event):
    return [m for m in mail.outbox if m.subject.startswith(("Your results", "Els teus resultats"))]


def test_every_player_with_an_e_mail_gets_their_results_once(
    club, field, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 3))
    sent = _results(event)
    assert sorted(m.to[0] for m in sent) == [f"soci{i}@example.org" for i in range(5)]
    assert ResultsMail.objects.filter(event=event).count() == 5
    # Soci 1 plays in pair 2 with Soci 5: its rank, match points and every board it played.
    entry = event.entries.get(pair__player1=field[1])
    final = event.snapshots.order_by("-after_round").first().rows
    row = next(r for r in final if r["entry"] == entry.pk)
    body = next(m.body for m in sent if m.to == ["soci1@example.org"])
    assert f"Pair {entry.number}: {entry.pair.name}" in body
    assert f"Rank: {row['rank']} of 4" in body
    assert body.count("Round ") == event.rounds_count * event.boards_per_round
    assert f"/e/{event.pk}/pairs/{entry.number}/" in body
    # Soci 0 reads Catalan: the date is written the Catalan way.
    catalan = next(m.body for m in sent if m.to == ["soci0@example.org"])
    assert "de setembre de 2026" in catalan
    # Asked again (the task repeated, the event published again): nothing more is sent.
    mail.outbox.clear()
    assert results_mails_send(event.pk) == 0
    actor = Actor(user=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        events.event_publish(event=event, actor=actor, published=False)
        events.event_publish(event=event, actor=actor)
    assert _results(event) == []
    assert ResultsMail.objects.filter(event=event).count() == 5


def test_nothing_is_sent_before_the_results_are_published(
    club, field, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 10))
        events.event_publish(event=event, actor=Actor(user=organiser), published=False)
    mail.outbox.clear()
    ResultsMail.objects.all().delete()
    assert results_mails_send(event.pk) == 0 and _results(event) == []
    with django_capture_on_commit_callbacks(execute=True):
        events.event_publish(event=event, actor=Actor(user=organiser))
    assert len(_results(event)) == 5


def test_a_running_event_sends_no_results(club, field, organiser):
    event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 17), play=1)
    assert results_mails_send(event.pk) == 0
    assert not ResultsMail.objects.exists()


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_a_worker_the_results_go_once_however_often_the_task_runs(
    celery_worker_process, club, field, organiser
):
    event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 24))
    sent = lambda: ResultsMail.objects.filter(event=event).count()  # noqa: E731
    assert wait_for(lambda: sent() == 5, timeout=60)
    # Delivered again, twice: nothing more is sent. A reminder queued after them (one worker
    # runs the queue in order) says when they have run.
    other = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION)
    marker = RegistrationFactory(event=other, status=Registration.Status.CONFIRMED)
    send_results_emails.delay(event.pk)
    send_results_emails.delay(event.pk)
    send_checkin_reminders.delay(other.pk)
    assert wait_for(
        lambda: Registration.objects.get(pk=marker.pk).reminded_at is not None, timeout=60
    )
    assert sent() == 5
    assert sorted(ResultsMail.objects.values_list("email", flat=True)) == [
        f"soci{i}@example.org" for i in range(5)
    ]


def test_the_results_carry_the_final_numbers_even_before_a_correction_is_recomputed(
    club, field, organiser, django_capture_on_commit_callbacks
):
    """A ruling or correction just before the e-mails go, its recomputation queued on a busy
    worker: the e-mails are written from the standings brought up to date, never with a board
    left without its percentage."""
    from django.core.cache import cache
    from django.utils import timezone

    from tournaments import queue
    from tournaments.models import BoardResult
    from tournaments.scoring_io import standings_stale

    with django_capture_on_commit_callbacks(execute=True):
        event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 17))
    mail.outbox.clear()
    ResultsMail.objects.all().delete()
    # What a correction leaves until the worker runs: a result newer than the standings, and
    # their recomputation queued (not run in-process).
    counted = BoardResult.objects.filter(
        table__round__event=event, status__in=BoardResult.COUNTED
    ).first()
    BoardResult.objects.filter(pk=counted.pk).update(updated_at=timezone.now())
    cache.set(queue.STANDINGS_QUEUED.format(event.pk), "queued", timeout=60)
    try:
        assert standings_stale(event)
        assert results_mails_send(event.pk) == 5
    finally:
        cache.delete(queue.STANDINGS_QUEUED.format(event.pk))
    english = [m for m in _results(event) if m.subject.startswith("Your results")]
    assert english
    for message in english:
        boards = [line for line in message.body.splitlines() if line.startswith("Round ")]
        assert len(boards) == event.rounds_count * event.boards_per_round
        assert all(line.endswith(" %") for line in boards), message.body


BOUNCING = "bounce@example.org"


@pytest.fixture
def refusing(monkeypatch, mailoutbox):
    """A mail server that refuses BOUNCING for good, as smtplib says so."""
    import smtplib

    from django.core.mail.backends import locmem

    real = locmem.EmailBackend.send_messages

    def send_messages(self, messages):
        for m in messages:
            if all(a == BOUNCING for a in m.recipients()):
                raise smtplib.SMTPRecipientsRefused({BOUNCING: (550, b"5.1.1 no such user")})
        return real(self, messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", send_messages)
    return mailoutbox


def test_an_address_refused_for_good_stops_nobody_elses_results(
    club, field, organiser, refusing, django_capture_on_commit_callbacks
):
    """It raised, the retries raised at it again, and the players after it got nothing."""
    field[0].email = BOUNCING
    field[0].save()
    with django_capture_on_commit_callbacks(execute=True):
        event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 3))
    results_mails_send(event.pk)  # a retry finds nothing more to send
    assert sorted(m.to[0] for m in _results(event)) == [
        f"soci{i}@example.org" for i in (1, 2, 3, 4)
    ]


def test_a_player_substituted_out_after_playing_gets_the_pairs_results(
    club, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    from tournaments.services import changes

    people = players(*[f"Soci {i}" for i in range(8)], club=club)
    for p in people:
        p.email, p.language = f"{p.name.replace(' ', '').lower()}@example.org", "en"
        p.save()

    def replace(event):
        entry = event.entries.get(number=1)
        changes.player_substitute(entry=entry, actor=Actor(user=organiser), seat=2, name="Zoe")

    with django_capture_on_commit_callbacks(execute=True):
        event = club_evening(
            club,
            organiser,
            _lineup(people),
            when=date(2026, 9, 3),
            rounds=2,
            before_round={2: replace},
        )
    got = [m.to[0] for m in _results(event)]
    assert "soci4@example.org" in got and len(got) == len(set(got)) == 8


def test_the_partners_reminder_goes_once_when_the_other_address_is_refused(
    organiser, refusing, django_capture_on_commit_callbacks
):
    from tournaments.services import registrations
    from tournaments.services.mailings import reminders_send

    event = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION)
    with django_capture_on_commit_callbacks(execute=True):
        a = registrations.registration_signup(
            event=event, player1="Anna Puig", email="anna@example.org", language="en"
        )
    with django_capture_on_commit_callbacks(execute=True):
        b = registrations.registration_signup(
            event=event, player1="Biel Roca", email=BOUNCING, language="en"
        )
    with django_capture_on_commit_callbacks(execute=True):
        registrations.registration_match(first=a, second=b, actor=Actor(user=organiser))
    refusing.clear()
    reminders_send(event.pk)
    reminders_send(event.pk)  # pressed again, or the task retried
    assert [m.to for m in refusing] == [["anna@example.org"]]


def test_a_refusal_for_now_is_sent_on_the_retry(
    club, field, organiser, monkeypatch, mailoutbox, django_capture_on_commit_callbacks
):
    """A 4xx answer (greylisting) is not a refusal for good: the retry sends it."""
    import smtplib

    from django.core.mail.backends import locmem

    real = locmem.EmailBackend.send_messages
    greylisted = {"soci2@example.org"}

    def send_messages(self, messages):
        for m in messages:
            if set(m.recipients()) <= greylisted:
                raise smtplib.SMTPRecipientsRefused(
                    {m.recipients()[0]: (450, b"4.7.1 greylisted, try later")}
                )
        return real(self, messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", send_messages)
    with django_capture_on_commit_callbacks(execute=False):
        event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 3))
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        results_mails_send(event.pk)  # the others are sent; the task will retry
    assert len(_results(event)) == 4
    greylisted.clear()
    assert results_mails_send(event.pk) == 1  # the retry: soci2 only
    assert sorted(m.to[0] for m in _results(event)) == [f"soci{i}@example.org" for i in range(5)]


def test_a_server_that_does_not_answer_fails_the_run_at_its_first_player(
    club, field, organiser, monkeypatch, mailoutbox, django_capture_on_commit_callbacks
):
    """Each player would wait for the same timeout (docs/deploy.md, EMAIL_TIMEOUT: such a server
    does not hold a worker): the first failure of the server ends the run, the retry goes on."""
    from django.core.mail.backends import locmem

    tried = []

    def send_messages(self, messages):
        tried.extend(messages)
        raise TimeoutError("the server never answered")

    with django_capture_on_commit_callbacks(execute=False):
        event = club_evening(club, organiser, _lineup(field), when=date(2026, 9, 3))
    monkeypatch.setattr(locmem.EmailBackend, "send_messages", send_messages)
    with pytest.raises(TimeoutError):
        results_mails_send(event.pk)
    assert len(tried) == 1 and not ResultsMail.objects.filter(event=event).exists()
