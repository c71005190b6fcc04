"""A league's fixture entry (the organiser's page) racing reads of the league table (league.json,
the public page): the table is built from the fixtures and their games, read in one snapshot."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments.services import league as svc

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_undoing_a_forfeit_while_the_table_is_read(actor, organiser, league):
    svc.fixtures_generate(league=league, actor=actor)
    svc.league_publish(league=league, actor=actor, published=True)
    fixture = league.fixtures.order_by("day", "pk").first()
    url = reverse("leagues:fixture", args=(league.pk, fixture.pk))
    games = {"game1": "10-0, 0-4", "game2": "0-10, 4-0", "game3": "36-0, 0-2"}
    forfeit = {"forfeit": "home", "game1": "", "game2": "", "game3": ""}
    stop = threading.Event()
    reads: list[int] = []
    writes: list[int] = []

    def writer():
        page = Client()
        page.force_login(organiser)
        try:
            for _ in range(60):
                writes.append(page.post(url, {"forfeit": "", **games}).status_code)
                writes.append(page.post(url, forfeit).status_code)
        finally:
            stop.set()
            connection.close()

    def reader(path):
        public = Client(raise_request_exception=False)
        try:
            while not stop.is_set():
                reads.append(public.get(path).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader, args=(p,))
        for p in (f"/leagues/{league.pk}/league.json", f"/leagues/{league.pk}/")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert set(writes) == {302}, writes
    assert reads.count(500) == 0, (len(reads), reads.count(500))
