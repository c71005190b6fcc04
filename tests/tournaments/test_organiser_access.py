"""Who may see and change an event's organiser pages: login, organisers, referees, others."""

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

# (url name, args from (event, entry), may a referee see it with GET?)
VIEW_PAGES = [
    ("tournaments:event_dashboard", lambda ev, en: [ev.pk]),
    ("tournaments:event_progress", lambda ev, en: [ev.pk]),
    ("tournaments:entries", lambda ev, en: [ev.pk]),
    ("tournaments:round_detail", lambda ev, en: [ev.pk, 1]),
]
ORGANISER_PAGES = [
    ("tournaments:event_edit", lambda ev, en: [ev.pk]),
    ("tournaments:event_start", lambda ev, en: [ev.pk]),
    ("tournaments:event_finish", lambda ev, en: [ev.pk]),
    ("tournaments:entry_withdraw", lambda ev, en: [ev.pk, en.pk]),
    ("tournaments:round_close", lambda ev, en: [ev.pk, 1]),
]
ACTIONS = [
    ("tournaments:registration_open", lambda ev, en: [ev.pk]),
    ("tournaments:event_start", lambda ev, en: [ev.pk]),
    ("tournaments:event_finish", lambda ev, en: [ev.pk]),
    ("tournaments:event_publish", lambda ev, en: [ev.pk]),
    ("tournaments:event_edit", lambda ev, en: [ev.pk]),
    ("tournaments:entries", lambda ev, en: [ev.pk]),
    ("tournaments:entries_import", lambda ev, en: [ev.pk]),
    ("tournaments:entries_import_confirm", lambda ev, en: [ev.pk]),
    ("tournaments:entry_withdraw", lambda ev, en: [ev.pk, en.pk]),
    ("tournaments:round_propose", lambda ev, en: [ev.pk, 2]),
    ("tournaments:round_swap", lambda ev, en: [ev.pk, 1]),
    ("tournaments:round_open", lambda ev, en: [ev.pk, 1]),
    ("tournaments:round_close", lambda ev, en: [ev.pk, 1]),
]
ALL_GET = VIEW_PAGES + ORGANISER_PAGES


@pytest.fixture
def stranger(db):
    """An organiser, but of another event."""
    user = UserFactory(username="stranger")
    EventFactory(organisers=[user])
    return user


def _url(name, args, event):
    return reverse(name, args=args(event, event.entries.order_by("number").first()))


@pytest.mark.parametrize("name,args", ALL_GET + ACTIONS)
def test_anonymous_is_sent_to_the_login_page(client, running_event, name, args):
    url = _url(name, args, running_event)
    response = client.post(url) if (name, args) in ACTIONS else client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name,args", ALL_GET)
def test_another_organiser_gets_403_on_every_page(client, running_event, stranger, name, args):
    client.force_login(stranger)
    assert client.get(_url(name, args, running_event)).status_code == 403


@pytest.mark.parametrize("name,args", ACTIONS)
def test_another_organiser_gets_403_on_every_action(client, running_event, stranger, name, args):
    client.force_login(stranger)
    assert client.post(_url(name, args, running_event)).status_code == 403


@pytest.mark.parametrize("name,args", VIEW_PAGES)
def test_the_referee_may_view(client, running_event, referee, name, args):
    client.force_login(referee)
    assert client.get(_url(name, args, running_event)).status_code == 200


@pytest.mark.parametrize("name,args", ORGANISER_PAGES)
def test_the_referee_may_not_open_organiser_pages(client, running_event, referee, name, args):
    client.force_login(referee)
    assert client.get(_url(name, args, running_event)).status_code == 403


@pytest.mark.parametrize("name,args", ACTIONS)
def test_the_referee_may_not_act(client, running_event, referee, name, args):
    client.force_login(referee)
    before = (running_event.status, list(running_event.rounds.values_list("status", flat=True)))
    assert client.post(_url(name, args, running_event)).status_code == 403
    event = Event.objects.get(pk=running_event.pk)
    assert (event.status, list(event.rounds.values_list("status", flat=True))) == before


def test_the_referee_sees_no_action_buttons_nor_table_codes(client, running_event, referee):
    client.force_login(referee)
    page = client.get(reverse("tournaments:event_dashboard", args=[running_event.pk]))
    assert b'id="next-step"' not in page.content
    assert "You referee this event" in page.content.decode()
    page = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    table = running_event.rounds.get(number=1).tables.first()
    assert table.code_ns not in page.content.decode()
    assert table.code_ew not in page.content.decode()
    assert b'id="close-round"' not in page.content


@pytest.mark.parametrize("name,args", ALL_GET)
def test_the_organiser_opens_every_page(client, running_event, organiser, name, args):
    client.force_login(organiser)
    response = client.get(_url(name, args, running_event))
    # A confirmation page may redirect with a message when the state forbids it (e.g. start).
    assert response.status_code in (200, 302)


def test_the_event_list_shows_organised_and_refereed_events(client, running_event, referee):
    other = EventFactory(name="Not mine")
    client.force_login(referee)
    page = client.get(reverse("tournaments:event_list")).content.decode()
    assert running_event.name in page
    assert other.name not in page
    assert "referee" in page


def test_a_missing_event_or_round_is_404(client, running_event, organiser):
    client.force_login(organiser)
    assert client.get(reverse("tournaments:event_dashboard", args=[99999])).status_code == 404
    assert (
        client.post(reverse("tournaments:round_open", args=[running_event.pk, 3])).status_code
        == 404
    )
