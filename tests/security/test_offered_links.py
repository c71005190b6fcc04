"""A page offers only the links its reader may follow: a referee (who sees every page of the event
but its sign-ups, its table cards with their codes and its webhooks) is not shown a link that
answers 403, nor is an organiser."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

HREF = re.compile(r'href="(/[^"#?]*)[^"]*"')
NOT_PAGES = ("/static/", "/accounts/logout", "/i18n/")


def _links(client: Client, url: str) -> set[str]:
    page = client.get(url)
    assert page.status_code == 200, url
    return {h for h in HREF.findall(page.content.decode()) if not h.startswith(NOT_PAGES)}


@pytest.mark.parametrize("who", ["referee", "organiser"])
def test_every_link_of_the_event_pages_opens_for_its_reader(
    request, running_event, referee, organiser, who
):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(request.getfixturevalue(who))
    pages = [
        reverse("tournaments:event_dashboard", args=[running_event.pk]),
        reverse("public:event", args=[running_event.pk]),
    ]
    links = set().union(*(_links(client, page) for page in pages))
    assert reverse("public:standings", args=[running_event.pk]) in links  # the scan reads links
    refused = {link: client.get(link).status_code for link in sorted(links)}
    assert {link: code for link, code in refused.items() if code in (403, 404, 500)} == {}


def test_a_referee_is_not_offered_the_organisers_pages(running_event, referee):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(referee)
    links = _links(client, reverse("tournaments:event_dashboard", args=[running_event.pk]))
    links |= _links(client, reverse("public:event", args=[running_event.pk]))
    assert reverse("tournaments:registrations", args=[running_event.pk]) not in links
    assert reverse("public:table_cards", args=[running_event.pk, 1]) not in links


def _refused(client: Client, links: set[str]) -> dict[str, int]:
    """The links that answer an error (a redirect, to the page's own place, is an answer)."""
    return {link: code for link in sorted(links) if (code := client.get(link).status_code) >= 400}


def test_the_downloads_of_a_running_event_all_open_for_the_public(running_event, organiser):
    """Round 1 open, nothing closed: no PDF is offered that has nothing to print yet."""
    from tournaments.actors import Actor
    from tournaments.services import events

    events.event_publish(event=running_event, actor=Actor(user=organiser))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    links = _links(client, reverse("public:event", args=[running_event.pk]))
    assert reverse("public:pdf", args=[running_event.pk, "standings"]) in links
    assert _refused(client, links) == {}


def test_the_downloads_of_a_running_team_event_all_open_for_the_public(organiser):
    from tests.teams.conftest import team_event
    from tournaments.actors import Actor
    from tournaments.services import events
    from tournaments.services.pairings import pairings_propose

    actor = Actor(user=organiser)
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    pairings_propose(event.pk, 1, actor=actor)
    events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    events.event_publish(event=event, actor=actor)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    links = _links(client, reverse("public:event", args=[event.pk]))
    assert reverse("public:pdf", args=[event.pk, "teams"]) in links
    assert _refused(client, links) == {}
