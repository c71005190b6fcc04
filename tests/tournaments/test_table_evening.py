"""A pair's own evening on its phone: where it sits next once the next round is open (public
then, without its code), and the link to its public scorecard (its own pages inside the table
pages: test_pair_pages.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.actors import Actor
from tournaments.models import Entry, Round, Table
from tournaments.services import events

pytestmark = pytest.mark.django_db


def holder(table, side):
    client = Client()
    assert client.post(reverse("table:enter"), {"code": table.code_for(side)}).status_code == 302
    return client


def test_a_closed_rounds_page_says_where_the_pair_sits_next(running_event, organiser):
    event = running_event
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    ew = holder(table, "EW")  # pair 2
    Round.objects.filter(event=event, number=1).update(status=Round.Status.CLOSED)
    closed = ew.get(reverse("table:table_home", args=[table.code_ew]))
    assert closed.status_code == 403
    assert 'id="next-seat"' not in closed.content.decode()  # no round open yet

    entries = {e.number: e for e in Entry.objects.filter(event=event)}
    rnd = events.round_propose(
        event=event,
        actor=Actor(user=organiser),
        number=2,
        tables=[(entries[3].pk, entries[1].pk), (entries[2].pk, entries[4].pk)],
    )
    events.round_open(rnd=rnd, actor=Actor(user=organiser))
    page = ew.get(reverse("table:table_home", args=[table.code_ew])).content.decode()
    four = entries[4].pair.name
    assert f"Round 2: table 2, North–South, against pair 4. {four}." in page
    nxt = Table.objects.get(round=rnd, number=2)
    assert nxt.code_ns not in page and nxt.code_ew not in page  # the code is on the card only


def test_the_pairs_scorecard_links_the_public_one_once_the_event_is_published(running_event):
    event = running_event
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    ns = holder(table, "NS")
    url = reverse("table:pair_scorecard", args=[table.code_ns])
    scorecard = reverse("public:scorecard", args=[event.pk, table.ns.number])
    assert f'href="{scorecard}"' not in ns.get(url).content.decode()
    event.published = True
    event.save(update_fields=["published"])
    assert f'href="{scorecard}"' in ns.get(url).content.decode()
    assert ns.get(scorecard).status_code == 200
