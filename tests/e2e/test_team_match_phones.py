"""A team match from the phones of its two tables to the match scorecard: each table enters and
confirms board 1 on its phones; the open room's phone opens "our team match" and sees board 1
only once the closed room has entered it too; after the round the public scorecard shows both
tables, the net, the units and the VPs, and the team standings. Screenshots:
test-artifacts/screenshots/team-match-*/."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_entry import enter_code
from tests.teams.test_team_pages import enter
from tournaments.actors import Actor
from tournaments.models import Event, TeamMatch
from tournaments.services import events, teams
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute


def short_entry(page, ns_total):
    page.click("#board-1 a.button.primary")
    page.wait_for_selector("#short-form")
    page.click("label.trump-copes")
    page.fill("input[name=totals_ns]", str(ns_total))
    page.click("#short-form button[type=submit]")
    page.wait_for_selector("#board-1[data-status=entered]")


def confirm(page):
    page.click("#board-1 form button.primary")
    page.wait_for_selector("#board-1[data-status=confirmed]")


@pytest.mark.django_db(transaction=True)
def test_team_match_from_two_tables_phones_to_the_scorecard(organiser, new_page):
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor,
        name="Lliga d'equips",
        competitor=Event.Competitor.TEAMS,
        boards_per_round=2,
        rounds_count=1,
    )
    events.registration_open(event=event, actor=actor)
    teams.team_register(
        event=event, actor=actor, name="Els Rapids", players=["Anna", "Berta", "Carles", "Dolors"]
    )
    teams.team_register(
        event=event, actor=actor, name="La Penya", players=["Enric", "Fina", "Gil", "Helena"]
    )
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    events.event_publish(event=event, actor=actor)
    pairings_propose(event.pk, 1, actor=actor)
    events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    match = TeamMatch.objects.get(round__event=event)
    open_room, closed_room = match.open_table, match.closed_table

    # --- the open room: NS enters board 1 (NS 50 → 14), EW confirms on its own phone ---
    open_ns, open_ns_problems, shoot = new_page("team-match-open-room", phone=True)
    enter_code(open_ns, open_room.code_ns)
    short_entry(open_ns, 50)
    open_ew, open_ew_problems, _shoot = new_page("team-match-open-room-ew", phone=True)
    enter_code(open_ew, open_room.code_ew)
    confirm(open_ew)

    # The open room looks at its match: board 1 waits for the closed room.
    open_ns.click("#my-match a")
    open_ns.wait_for_selector("table.scorecard")
    expect(open_ns.locator('tr[data-board="1"]')).to_have_class("waiting")
    assert "14" not in open_ns.inner_text('tr[data-board="1"]')
    shoot("match-waiting")

    # --- the closed room: NS enters (NS 30: EW scores 6), EW confirms ---
    closed_ns, closed_ns_problems, closed_shoot = new_page("team-match-closed-room", phone=True)
    enter_code(closed_ns, closed_room.code_ns)
    short_entry(closed_ns, 30)
    closed_ew, closed_ew_problems, _s = new_page("team-match-closed-room-ew", phone=True)
    enter_code(closed_ew, closed_room.code_ew)
    confirm(closed_ew)
    closed_shoot("closed-room-confirmed")

    # Both tables have board 1: it shows, 14 − (−6) = 20 points, 5 units to the first team.
    open_ns.reload()
    row = open_ns.locator('tr[data-board="1"]')
    expect(row).to_have_attribute("data-units", "5")
    cells = row.locator("td").all_inner_texts()
    assert cells[:4] == ["1", "14", "-6", "20"], cells
    expect(open_ns.locator('tr[data-board="2"]')).to_have_class("waiting")
    width = open_ns.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # fits the phone (the tables scroll inside their frame)
    shoot("match-board-1")

    # The phones are done (their pages poll the table, which a closed round refuses).
    for page, problems in (
        (open_ns, open_ns_problems),
        (open_ew, open_ew_problems),
        (closed_ns, closed_ns_problems),
        (closed_ew, closed_ew_problems),
    ):
        problems.assert_clean()
        page.close()

    # --- board 2 played at both tables, the round closed: the public scorecard ---
    enter(open_room, 2, 36)
    enter(closed_room, 2, 36)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor)
    standings_recompute(event.pk)
    public, public_problems, public_shoot = new_page("team-match-public")
    public.goto(f"/e/{event.pk}/teams/matches/1/1/")
    expect(public.locator("[data-total-a]")).to_have_text("5")
    expect(public.locator("[data-total-b]")).to_have_text("0")
    vp = public.inner_text("[data-vp]")
    assert vp.startswith("1") and "–" in vp
    a_vp, b_vp = (float(x) for x in vp.split("–"))
    assert a_vp > 10 > b_vp and a_vp + b_vp == pytest.approx(20)
    public_shoot("scorecard")
    public.click("text=Team standings")
    expect(public.locator("#team-standings tbody tr")).to_have_count(2)
    first = public.locator("#team-standings tbody tr").first
    expect(first).to_have_attribute("data-vp", f"{a_vp:.2f}")
    public_shoot("team-standings")
    public_problems.assert_clean()
