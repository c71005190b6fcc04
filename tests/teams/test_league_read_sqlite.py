"""On SQLite (the demo's database) a league page is a plain read: it does not wait for another
request's write lock (``tournaments.snapshot.one_moment`` takes its snapshot on PostgreSQL only;
a transaction on SQLite would begin IMMEDIATE, with the write lock)."""

import sqlite3
import time

import pytest
from django.db import connection
from django.test import Client

from tournaments.services import league as svc

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's write lock"),
]


def test_a_league_page_does_not_wait_for_a_writer(actor, league):
    svc.fixtures_generate(league=league, actor=actor)
    svc.league_publish(league=league, actor=actor, published=True)
    page = Client(raise_request_exception=False)
    other = sqlite3.connect(connection.settings_dict["NAME"], timeout=1, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another request is writing
    try:
        started = time.monotonic()
        status = page.get(f"/leagues/{league.pk}/league.json").status_code
        waited = time.monotonic() - started
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert status == 200 and waited < 5, (status, waited)
