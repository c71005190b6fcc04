"""The public standings page is rendered once per version for every anonymous viewer: each
still gets a CSRF token of their own, the organiser never gets (nor leaves) the shared copy, and
a round's close shows at once."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.public_event import build_played_event
from tournaments.actors import Actor
from tournaments.models import Round
from tournaments.services import events
from tournaments.services.standings import standings_recompute
from tournaments.views.live import CSRF_SLOT

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')
AFTER_ROUND_2 = '<option value="2"'


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


def standings_url(event, query=""):
    return reverse("public:standings", args=[event.pk]) + query


def snapshot_reads(queries):
    """The reads of snapshots' rows (a rendering); not the version's read of their newest time."""
    return [
        q["sql"]
        for q in queries
        if "standingssnapshot" in q["sql"].lower() and "max(" not in q["sql"].lower()
    ]


def test_every_viewer_gets_a_working_token_of_their_own(played_event):
    url = standings_url(played_event)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    pages = []
    for client in (first, second):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        content = response.content.decode()
        assert CSRF_SLOT not in content
        pages.append((client, TOKEN.search(content).group(1), queries.captured_queries))
    (first, first_token, first_queries), (second, second_token, second_queries) = pages
    assert snapshot_reads(first_queries)  # rendered
    assert not snapshot_reads(second_queries)  # the first rendering, served again
    assert first_token != second_token
    set_language = reverse("set_language")
    assert (
        second.post(
            set_language, {"language": "es", "csrfmiddlewaretoken": first_token}
        ).status_code
        == 403
    )
    for client, token in ((first, first_token), (second, second_token)):
        answer = client.post(set_language, {"language": "es", "csrfmiddlewaretoken": token})
        assert answer.status_code == 302


def test_the_organiser_sees_the_open_round_and_the_public_still_does_not(played_event, organiser):
    url = standings_url(played_event)
    public = Client()
    assert AFTER_ROUND_2 not in public.get(url).content.decode()
    staff = Client()
    staff.force_login(organiser)
    assert AFTER_ROUND_2 in staff.get(url).content.decode()  # round 2 live, for staff only
    again = public.get(url).content.decode()
    assert AFTER_ROUND_2 not in again
    assert "Manage" not in again and organiser.username not in again


def test_a_round_closed_shows_at_once(played_event, organiser):
    url = standings_url(played_event)
    public = Client()
    for query in ("", "?fragment=1"):
        public.get(url + query)
    events.round_close(
        rnd=Round.objects.get(event=played_event, number=2), actor=Actor(user=organiser)
    )
    standings_recompute(played_event.pk)
    assert AFTER_ROUND_2 in public.get(url).content.decode()
    fragment = public.get(url + "?fragment=1").content.decode()
    assert fragment.count("<tr") > 1


def test_a_browser_copy_is_revalidated_against_its_own_cookie(played_event):
    url = standings_url(played_event)
    client = Client()
    first = client.get(url)  # sets the CSRF cookie the page's token is made from
    etag = first["ETag"]
    assert first["Cache-Control"] == "no-cache"
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    other = Client()  # no CSRF cookie yet: the copy's token would not be its own
    assert other.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_other_parameters_are_rendered_for_the_request(played_event):
    client = Client()
    client.get(standings_url(played_event))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(standings_url(played_event, "?utm_source=poster"))
    assert response.status_code == 200
    assert snapshot_reads(queries.captured_queries)


def test_with_the_cache_down_each_viewer_gets_a_rendering(played_event, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    response = Client().get(standings_url(played_event))
    assert response.status_code == 200
    assert played_event.entries.get(number=1).pair.name in response.content.decode()


def test_the_version_says_nothing_of_the_seed(played_event):
    from tournaments import public_selectors as sel

    ev = sel.event_view(played_event, staff=False)
    before = sel.public_version(ev, "fresh", "/")
    played_event.seed = "another secret seed"
    assert sel.public_version(ev, "fresh", "/") == before
    played_event.name = "Renamed"
    assert sel.public_version(ev, "fresh", "/") != before


def test_a_reader_who_switches_language_is_not_told_not_modified(played_event):
    """The fresh-checkout audit: the standings stayed in the first language after a switch,
    because the browser's copy was revalidated by an ETag that did not name the language."""
    url = standings_url(played_event)
    reader = Client()
    english = reader.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200
    reader.cookies["django_language"] = "ca"
    again = reader.get(url, HTTP_IF_NONE_MATCH=english["ETag"])
    assert again.status_code == 200 and again["ETag"] != english["ETag"]
    assert 'lang="ca"' in again.content.decode()
    assert reader.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
