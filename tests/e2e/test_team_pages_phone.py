"""Team and league pages on a 360 px phone keep the columns a reader needs (the pairs' standings
rule once hid the Butler ranking's pair and average, and a league table's team), and a table's
"our team match" page does not scroll sideways (the public page's phone rule was not loaded
there)."""

import random

import pytest

from tests.e2e.test_phone_layout import SIDEWAYS, phone_context
from tests.teams.conftest import play_team_round, team_event
from tournaments.actors import Actor
from tournaments.demo import build_demo
from tournaments.models import TeamMatch
from tournaments.services import events
from tournaments.services.pairings import pairings_propose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN = """(selector) => [...document.querySelectorAll(selector + ' thead th')]
  .filter((th) => getComputedStyle(th).display !== 'none').map((th) => th.innerText.trim())"""


def test_butler_and_a_tables_team_match_on_a_phone(browser, live_server, organiser):
    actor = Actor(user=organiser)
    event = team_event(actor, 2, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    play_team_round(event, actor, 1, random.Random(3))
    pairings_propose(event.pk, 2, actor=actor)
    events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    table = TeamMatch.objects.get(round__event=event, round__number=2).open_table
    context = phone_context(browser, live_server, "en")
    page = context.new_page()
    try:
        page.goto(f"/e/{event.pk}/butler/")
        assert page.evaluate(SHOWN, "#butler") == ["Rank", "Pair", "Team", "Average"]
        page.goto("/table/")
        page.fill("input[name=code]", table.code_ns)
        page.click("main form button.primary")
        page.wait_for_selector("#boards")
        page.goto(f"/table/{table.code_ns}/match/")
        assert page.evaluate(SIDEWAYS) == []
    finally:
        context.close()


def test_a_league_table_on_a_phone_names_its_teams(browser, live_server):
    report = build_demo()
    context = phone_context(browser, live_server, "en")
    page = context.new_page()
    try:
        page.goto(f"/leagues/{report.league.pk}/")
        shown = page.evaluate(SHOWN, "#league-table")
        assert shown[:3] == ["Rank", "Team", "Pts."] and "Diff" in shown
        assert page.evaluate(SIDEWAYS) == []
    finally:
        context.close()
