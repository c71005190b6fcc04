"""Public sign-up with a cap and a waiting list that moves up by itself, withdrawal by the
e-mail's link, check-in that makes the pair an entry (only checked-in pairs are paired), and
the e-mails in the pair's language (Django's in-memory backend)."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Event, Pair, Registration
from tournaments.services import ServiceError, events
from tournaments.services import registrations as svc
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event(organiser):
    return EventFactory(
        organisers=[organiser], status=Event.Status.REGISTRATION, registration_cap=2
    )


@pytest.fixture
def sent(django_capture_on_commit_callbacks):
    """Run the e-mail tasks queued after commit, as a worker would."""

    def run(action):
        with django_capture_on_commit_callbacks(execute=True):
            return action()

    return run


def _signup(event, n, language="en"):
    return svc.registration_signup(
        event=event,
        player1=f"Anna {n}",
        player2=f"Biel {n}",
        email=f"pair{n}@example.org",
        language=language,
    )


def _link(message):
    return re.search(r"https?://\S+/registration/\S+/", message.body).group(0)


def test_pairs_within_the_cap_are_confirmed_and_the_rest_wait(open_event, sent):
    first = sent(lambda: _signup(open_event, 1))
    second = sent(lambda: _signup(open_event, 2))
    third = sent(lambda: _signup(open_event, 3))
    assert [r.status for r in (first, second, third)] == ["confirmed", "confirmed", "waiting"]
    assert [m.to for m in mail.outbox] == [[f"pair{n}@example.org"] for n in (1, 2, 3)]
    assert mail.outbox[0].subject == f"Registration confirmed: {open_event.name}"
    assert "waiting list" in mail.outbox[2].body
    assert _link(mail.outbox[0]).endswith(
        reverse("public:registration", args=[open_event.pk, first.token])
    )


def test_raising_the_cap_moves_the_waiting_list_up_before_any_newcomer(open_event, organiser, sent):
    for n in (1, 2):
        sent(lambda n=n: _signup(open_event, n))
    third = sent(lambda: _signup(open_event, 3))
    fourth = sent(lambda: _signup(open_event, 4))
    mail.outbox.clear()
    sent(
        lambda: events.event_update(
            event=open_event, actor=Actor(user=organiser), registration_cap=3
        )
    )
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert (third.status, fourth.status) == ("confirmed", "waiting")
    assert [m.to for m in mail.outbox] == [["pair3@example.org"]]  # "a place for you"
    fifth = sent(lambda: _signup(open_event, 5))
    assert fifth.status == "waiting"
    sent(
        lambda: events.event_update(
            event=open_event, actor=Actor(user=organiser), registration_cap=None
        )
    )
    fourth.refresh_from_db()
    fifth.refresh_from_db()
    assert (fourth.status, fifth.status) == ("confirmed", "confirmed")


def test_a_withdrawal_moves_the_first_waiting_pair_up_and_tells_it(open_event, sent):
    first = sent(lambda: _signup(open_event, 1))
    sent(lambda: _signup(open_event, 2))
    third = sent(lambda: _signup(open_event, 3))
    fourth = sent(lambda: _signup(open_event, 4))
    mail.outbox.clear()
    sent(lambda: svc.registration_withdraw(registration=first))
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert (third.status, fourth.status) == ("confirmed", "waiting")
    assert [m.to for m in mail.outbox] == [["pair1@example.org"], ["pair3@example.org"]]
    assert mail.outbox[1].subject == f"A place for you: {open_event.name}"
    sent(lambda: svc.registration_withdraw(registration=fourth))  # a waiting pair: no one moves
    assert Registration.objects.filter(status="confirmed").count() == 2


def test_removing_a_checked_in_pair_withdraws_its_sign_up_and_frees_its_place(
    open_event, organiser, sent, client
):
    actor = Actor(user=organiser)
    first = sent(lambda: _signup(open_event, 1))
    sent(lambda: _signup(open_event, 2))
    third = sent(lambda: _signup(open_event, 3))
    first = sent(lambda: svc.registration_check_in(registration=first, actor=actor))
    entry = first.entry
    client.force_login(organiser)
    url = reverse("tournaments:entry_withdraw", args=[open_event.pk, entry.pk])
    assert "the first pair on the waiting list gets its place" in client.get(url).content.decode()
    mail.outbox.clear()
    sent(lambda: client.post(url, {}))
    first.refresh_from_db()
    third.refresh_from_db()
    assert not open_event.entries.filter(pk=entry.pk).exists()
    assert (first.status, first.entry) == ("withdrawn", None)
    assert third.status == "confirmed"  # moved up, and told
    # The pair removed is told too, as when it withdraws by its link.
    assert [(m.to, m.subject.split(":")[0]) for m in mail.outbox] == [
        (["pair1@example.org"], "Registration withdrawn"),
        (["pair3@example.org"], "A place for you"),
    ]
    # Its registration page no longer offers a check-in, nor does the organiser's check-in.
    page = client.get(reverse("public:registration", args=[open_event.pk, first.token]))
    assert 'id="check-in-qr"' not in page.content.decode()
    assert "Withdrawn." in page.content.decode()
    with pytest.raises(ServiceError):
        svc.registration_check_in(registration=first, actor=actor)


def test_the_emails_speak_the_language_the_pair_signed_up_in(
    open_event, sent, settings, compiled_locale
):
    settings.LOCALE_PATHS = [compiled_locale]
    sent(lambda: _signup(open_event, 1, language="ca"))
    sent(lambda: _signup(open_event, 2, language="es"))
    assert mail.outbox[0].subject.startswith("Inscripció confirmada")
    assert mail.outbox[1].subject.startswith("Inscripción confirmada")


def test_sign_up_is_refused_unless_registration_is_open(client, organiser):
    draft = EventFactory(organisers=[organiser])
    with pytest.raises(ServiceError):
        _signup(draft, 1)
    assert not Registration.objects.exists()
    url = reverse("public:register", args=[draft.pk])
    assert client.get(url).status_code == 404  # not published: the public learns nothing of it
    draft.published = True
    draft.save()
    closed = client.post(url, {"player1": "A", "player2": "B", "email": "a@example.org"})
    assert closed.status_code == 409 and "Registration for this event is closed." in (
        closed.content.decode()
    )
    assert not Registration.objects.exists()


def test_only_checked_in_pairs_become_entries_and_are_paired(open_event, organiser, sent):
    open_event.registration_cap = None
    open_event.save()
    regs = [sent(lambda n=n: _signup(open_event, n)) for n in range(1, 6)]
    actor = Actor(user=organiser)
    for reg in regs[:4]:
        svc.registration_check_in(registration=reg, actor=actor)
    svc.registration_check_in(registration=regs[0], actor=actor)  # twice: nothing more
    assert open_event.entries.count() == 4
    assert AuditEntry.objects.filter(event=open_event, action="pair_checked_in").count() == 4
    events.event_start(event=open_event, actor=actor)
    events.boards_generate(event=open_event)
    pairings_propose(open_event.pk, 1, actor=actor)
    seated = {e.pk for t in open_event.rounds.get(number=1).tables.all() for e in (t.ns, t.ew)}
    assert seated == {r.entry_id for r in Registration.objects.filter(entry__isnull=False)}
    regs[4].refresh_from_db()
    assert regs[4].entry is None
    with pytest.raises(ServiceError):  # started: no more check-in, no withdrawal by link
        svc.registration_withdraw(registration=regs[4])


def test_a_waiting_pair_cannot_be_checked_in(open_event, organiser, sent):
    for n in range(1, 4):
        sent(lambda n=n: _signup(open_event, n))
    waiting = Registration.objects.get(status="waiting")
    with pytest.raises(ServiceError):
        svc.registration_check_in(registration=waiting, actor=Actor(user=organiser))
    assert not open_event.entries.exists()


def test_the_sign_up_page_and_the_registrations_page(client, open_event, organiser, sent):
    url = reverse("public:register", args=[open_event.pk])
    open_event.published = True
    open_event.save()
    assert url in client.get(reverse("public:event", args=[open_event.pk])).content.decode()
    assert "0 of 2 places taken" in client.get(url).content.decode()
    bad = client.post(url, {"player1": "Anna", "player2": "", "email": "no"})
    assert bad.status_code == 400 and not Registration.objects.exists()
    with_mail = lambda: client.post(  # noqa: E731
        url, {"player1": "Anna", "player2": "Biel", "email": "anna@example.org"}
    )
    done = sent(with_mail)
    reg = Registration.objects.get()
    assert done.status_code == 302 and done["Location"].endswith(reg.token + "/")
    assert "Registered." in client.get(done["Location"]).content.decode()
    client.force_login(organiser)
    listing = reverse("tournaments:registrations", args=[open_event.pk])
    assert "Anna – Biel" in client.get(listing).content.decode()
    check_in = reverse("tournaments:registration_check_in", args=[open_event.pk, reg.pk])
    assert client.post(check_in).status_code == 302
    reg.refresh_from_db()
    assert reg.entry.number == 1 and reg.entry.pair.player1.name == "Anna"
    client.force_login(UserFactory())
    assert client.post(check_in).status_code == 403


def test_withdrawing_by_the_link_removes_a_checked_in_pair_before_the_start(
    client, open_event, organiser, sent
):
    reg = sent(lambda: _signup(open_event, 1))
    svc.registration_check_in(registration=reg, actor=Actor(user=organiser))
    page = reverse("public:registration", args=[open_event.pk, reg.token])
    pairs = Pair.objects.count()
    assert client.post(page).status_code == 302
    reg.refresh_from_db()
    assert reg.status == "withdrawn" and reg.entry is None and not open_event.entries.exists()
    # As when the organiser removes it: on the audit trail, and the pair gone with its entry.
    removed = AuditEntry.objects.get(event=open_event, action="entry_deleted")
    assert removed.actor == "anonymous" and "registration link" in removed.note
    assert Pair.objects.count() == pairs - 1
    assert (
        client.get(reverse("public:registration", args=[open_event.pk, "x" * 20])).status_code
        == 404
    )


def test_the_event_form_takes_a_cap_of_two_pairs_or_more(client, organiser):
    event = EventFactory(organisers=[organiser], status=Event.Status.REGISTRATION, club=None)
    form = {
        "name": "Obert",
        "club_name": "",
        "date": "2027-06-24",
        "venue": "Sala gran",
        "ruleset": "lliure",
        "game_target": "101",
        "match_mode": "boards",
        "game_cap": "121",
        "rounds_count": "4",
        "boards_per_round": "6",
        "ranking_method": "wins",
        "bye_points": "36",
    }
    client.force_login(organiser)
    url = reverse("tournaments:event_edit", args=[event.pk])
    refused = client.post(url, form | {"registration_cap": "1"})
    assert refused.status_code == 400 and "registration_cap" in refused.context["form"].errors
    assert client.post(url, form | {"registration_cap": "24"}).status_code == 302
    event.refresh_from_db()
    assert event.registration_cap == 24


def test_one_address_signs_up_at_most_ten_pairs_an_hour(client, open_event, sent):
    open_event.registration_cap = None
    open_event.save()
    url = reverse("public:register", args=[open_event.pk])
    for n in range(10):
        pair = {"player1": f"A{n}", "player2": f"B{n}", "email": f"p{n}@example.org"}
        assert sent(lambda pair=pair: client.post(url, pair)).status_code == 302
    refused = client.post(url, {"player1": "X", "player2": "Y", "email": "x@example.org"})
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "Too many sign-ups from this address" in refused.content.decode()
    assert Registration.objects.count() == 10


def test_refused_sign_ups_do_not_count_against_the_ten_pairs(client, open_event, sent):
    """The limit is on pairs signed up (docs/clubs.md): a pair sent again and refused, nine
    times, left the address one sign-up for its second pair."""
    open_event.registration_cap = None
    open_event.save()
    url = reverse("public:register", args=[open_event.pk])
    pair = {"player1": "Anna", "player2": "Biel", "email": "a@example.org"}
    assert sent(lambda: client.post(url, pair)).status_code == 302
    for _ in range(12):
        assert client.post(url, pair).status_code == 400  # signed up already
    for n in range(9):
        other = {"player1": f"A{n}", "player2": f"B{n}", "email": f"p{n}@example.org"}
        assert sent(lambda other=other: client.post(url, other)).status_code == 302
    third = {"player1": "X", "player2": "Y", "email": "x@example.org"}
    assert client.post(url, third).status_code == 429
    assert Registration.objects.count() == 10


def test_a_withdrawal_confirms_a_waiting_pair_only_within_a_lowered_cap(organiser):
    """The organiser lowered the cap below the pairs already confirmed: a pair that withdraws
    frees no place until the event is below the cap again."""
    actor = Actor(user=organiser)
    event = events.event_create(actor=actor, name="Open", registration_cap=3)
    events.registration_open(event=event, actor=actor)
    made = [
        svc.registration_signup(
            event=event, player1=f"A{i}", player2=f"B{i}", email=f"p{i}@example.org", language="en"
        )
        for i in range(4)
    ]
    assert [r.status for r in made][-1] == Registration.Status.WAITING
    events.event_update(event=event, actor=actor, registration_cap=2)
    svc.registration_withdraw(registration=made[0])
    statuses = dict(event.registrations.values_list("pk", "status"))
    assert list(statuses.values()).count(Registration.Status.CONFIRMED) == 2
    assert statuses[made[3].pk] == Registration.Status.WAITING


def test_the_same_pair_signs_up_once_and_one_player_is_not_a_pair(client, open_event):
    """Flows audit, 2026-12-06: the sign-up took the same two players twice (a second click,
    other capitals) and one player twice, each holding a place of the cap (and pushing a real
    pair onto the waiting list) for a pair the check-in then refused. Refused as the list of
    pairs refuses them, at player 2, storing nothing."""
    url = reverse("public:register", args=[open_event.pk])
    form = {"player1": "Laia Costa", "player2": "Joan Serra", "email": "laia@example.org"}
    assert client.post(url, form).status_code == 302
    again = client.post(
        url, form | {"player1": "joan  SERRA", "player2": "Laia Costa", "email": "j@example.org"}
    )
    assert again.status_code == 400
    assert "These two players have already signed up" in again.content.decode()
    same = client.post(url, form | {"player1": "Anna Puig", "player2": "anna  puig"})
    assert same.status_code == 400
    assert "The two players are the same person" in same.content.decode()
    assert Registration.objects.filter(event=open_event).count() == 1
    # Withdrawn, the two players may sign up again.
    first = Registration.objects.get(event=open_event)
    svc.registration_withdraw(registration=first)
    assert client.post(url, form).status_code == 302


def test_a_name_that_outgrows_its_column_once_normalised_is_refused(client, open_event):
    """120 characters typed, 240 once in normal form (U+0958 composes to two): refused at
    its field, on the form and in the service, nothing stored (not a 500 on PostgreSQL)."""
    grows = "\u0958" * 120
    url = reverse("public:register", args=[open_event.pk])
    answer = client.post(url, {"player1": grows, "player2": "Biel", "email": "a@example.org"})
    assert answer.status_code == 400
    assert answer.context["form"].errors["player1"] == [
        "The name of player 1 is too long: at most 120 characters (it has 240)."
    ]
    with pytest.raises(ServiceError) as refused:
        svc.registration_signup(
            event=open_event, player1="Anna", player2=grows, email="a@x.org", language="en"
        )
    assert refused.value.field == "player2"
    assert not Registration.objects.exists()
