"""Every page of the event (pairs pages included) answers a team event without a server error:
the pages made for pairs send to the team pages or say what they show."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.security.routes import fill, walk
from tests.teams.conftest import play_team_round, team_event
from tournaments.models import TeamMatch
from tournaments.services import events
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


def test_no_page_of_a_team_event_fails(actor, organiser, rng):
    event = team_event(actor, 4, rounds_count=3, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    play_team_round(event, actor, 1, rng)
    pairings_propose(event.pk, 2, actor=actor)
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    table = TeamMatch.objects.get(round__number=2, number=1).open_table
    values = {
        "pk": event.pk,
        "number": 1,
        "board": 1,
        "match": 1,
        "entry_number": event.entries.order_by("number").first().number,
        "code": table.code_ns,
        "kind": "standings",
        "table": 1,
    }
    clients = {
        "public": Client(raise_request_exception=False),
        "staff": Client(raise_request_exception=False),
    }
    clients["staff"].force_login(organiser)
    failed = []
    for route in walk():
        if not route.key.startswith(("public:", "tournaments:", "table:", "api:")):
            continue
        if set(route.params) - set(values):
            continue
        url = fill(route.pattern, values)
        for kind in (
            (
                "standings",
                "crosstable",
                "pairings",
                "results",
                "hand-records",
                "travellers",
                "scorecards",
                "teams",
                "butler",
                "team-matches",
            )
            if "kind" in route.params
            else (None,)
        ):
            if kind:
                url = fill(route.pattern, values | {"kind": kind})
            for who, client in clients.items():
                status = client.get(url).status_code
                if status >= 500:
                    failed.append((who, url, status))
    print(failed)
    assert not failed, failed
    assert reverse("public:team_standings", args=[event.pk])
