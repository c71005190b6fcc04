"""The league on the database: teams, the fixture list by round robin (home and away), games
entered and audited, forfeits, the table after each match day (scoring.league), the pages."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from scoring.league import league_table
from tests.factories import UserFactory
from tournaments.actors import Actor
from tournaments.league_selectors import league_input, league_view
from tournaments.models import LeagueAudit, LeagueFixture, LeagueGame
from tournaments.services import Conflict, NotAllowed, ServiceError
from tournaments.services import league as svc

pytestmark = pytest.mark.django_db


def test_fixture_list_home_and_away(league, actor):
    assert svc.fixtures_generate(league=league, actor=actor) == 12  # 4 teams × 3 × 2
    fixtures = list(league.fixtures.all())
    assert max(f.day for f in fixtures) == 6
    meetings = Counter((f.home_id, f.away_id) for f in fixtures)
    assert set(meetings.values()) == {1}
    for f in fixtures:
        assert (f.away_id, f.home_id) in meetings  # the return match
    per_day = Counter(f.day for f in fixtures)
    assert set(per_day.values()) == {2}
    with pytest.raises(Conflict):
        svc.league_team_add(league=league, actor=actor, name="Late")


def test_once_only_when_the_league_says_so(actor):
    league = svc.league_create(actor=actor, name="Lliga curta", home_and_away=False)
    for name in "ABC":
        svc.league_team_add(league=league, actor=actor, name=name)
    assert svc.fixtures_generate(league=league, actor=actor) == 3


def test_games_forfeits_and_the_table_after_each_day(league, actor):
    svc.fixtures_generate(league=league, actor=actor)
    day1 = list(league.fixtures.filter(day=1).order_by("pk"))
    home_win, forfeited = day1
    svc.league_game_enter(fixture=home_win, actor=actor, number=1, hands=[(10, 0), (0, 4)])
    svc.league_game_enter(fixture=home_win, actor=actor, number=2, hands=[(72, 0)])
    svc.league_game_enter(fixture=home_win, actor=actor, number=3, hands=[(0, 10)])
    svc.league_forfeit(fixture=forfeited, actor=actor, side="away")
    view = league_view(league, after_day=1)
    points = {row.team.pk: row.points for row in view.rows}
    assert points[home_win.home_id] == 3 and points[home_win.away_id] == 0
    assert points[forfeited.home_id] == 3 and points[forfeited.away_id] == 0
    assert view.rows[0].points == 3
    # the table is what the pure function gives from the stored games
    fixtures = list(league.fixtures.prefetch_related("games"))
    pure = league_table(league_input(league, fixtures), after_day=1)
    assert [r.team.pk for r in view.rows] == [s.team for s in pure.standings]
    # a correction replaces the game and is audited with the old hands
    svc.league_game_enter(fixture=home_win, actor=actor, number=3, hands=[(0, 0), (5, 0)])
    audit = LeagueAudit.objects.filter(league=league, action="league_game").last()
    assert audit.changes["hands"] == [[[0, 10]], [[0, 0], [5, 0]]]
    assert LeagueGame.objects.filter(fixture=home_win).count() == 3


def test_bad_results_are_refused_and_change_nothing(league, actor):
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.first()
    for hands in ([(10, 4)], [(-1, 0)], [(10, 0)] * 3, []):
        with pytest.raises(ServiceError) as exc:
            svc.league_game_enter(fixture=fixture, actor=actor, number=1, hands=hands)
        assert exc.value.field == "hands"
    with pytest.raises(ServiceError):
        svc.league_game_enter(fixture=fixture, actor=actor, number=4, hands=[(1, 0)])
    with pytest.raises(NotAllowed):
        svc.league_game_enter(
            fixture=fixture, actor=Actor(user=UserFactory()), number=1, hands=[(1, 0)]
        )
    assert not LeagueGame.objects.exists()
    svc.league_game_enter(fixture=fixture, actor=actor, number=1, hands=[(1, 0)])
    with pytest.raises(Conflict):
        svc.fixtures_generate(league=league, actor=actor)
    with pytest.raises(Conflict):
        svc.league_forfeit(fixture=fixture, actor=actor, side="home")


def test_league_pages(league, actor, organiser):
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.filter(day=1).first()
    public = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert public.get(f"/leagues/{league.pk}/").status_code == 404  # not published
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    url = f"/leagues/{league.pk}/fixtures/{fixture.pk}/"
    bad = client.post(url, {"forfeit": "", "game1": "10-0, banana"})
    assert bad.status_code == 400 and "write the home and away scores" in bad.content.decode()
    assert not LeagueGame.objects.exists()
    ok = client.post(url, {"forfeit": "", "game1": "10-0, 0-4", "game2": "36-0", "game3": "0-8"})
    assert ok.status_code == 302
    assert (
        client.post(
            f"/leagues/{league.pk}/manage/", {"action": "publish", "published": "1"}
        ).status_code
        == 302
    )
    page = public.get(f"/leagues/{league.pk}/").content.decode()
    assert page.count("data-team=") == 4 and 'data-points="3"' in page
    assert page.count("data-fixture=") == LeagueFixture.objects.filter(league=league).count()
    pdf = public.get(f"/leagues/{league.pk}/league.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert public.get(f"/leagues/{league.pk}/manage/").status_code == 302  # to the login
    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    stranger.force_login(UserFactory())
    assert stranger.get(f"/leagues/{league.pk}/manage/").status_code == 403
    assert stranger.post(url, {"game1": "1-0"}).status_code == 403


def test_new_league_page(organiser):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    refused = client.post("/leagues/new/", {"name": "", "games_per_match": "0"})
    assert refused.status_code == 400 and "name" in refused.context["form"].errors
    response = client.post(
        "/leagues/new/",
        {
            "name": "Lliga del Camp",
            "club_name": "Reus",
            "starts": "2026-12-01",
            "home_and_away": "on",
            "games_per_match": 6,
            "hands_per_game": 8,
        },
    )
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Lliga del Camp" in page.content.decode()


def test_league_exports_table_and_fixtures(league, actor):
    import csv
    import io

    from openpyxl import load_workbook

    svc.fixtures_generate(league=league, actor=actor)
    home_win, forfeited = list(league.fixtures.filter(day=1).order_by("pk"))
    for number, hands in enumerate([[(10, 0), (0, 4)], [(72, 0)], [(0, 10)]], start=1):
        svc.league_game_enter(fixture=home_win, actor=actor, number=number, hands=hands)
    svc.league_forfeit(fixture=forfeited, actor=actor, side="away")
    public = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert public.get(f"/leagues/{league.pk}/league.json").status_code == 404  # not published
    league.published = True
    league.save()

    data = public.get(f"/leagues/{league.pk}/league.json").json()
    view = league_view(league)
    assert [r["team"] for r in data["table"]] == [row.team.name for row in view.rows]
    points = {r["team"]: r["points"] for r in data["table"]}
    assert points[home_win.home.name] == 3 and points[home_win.away.name] == 0
    assert len(data["fixtures"]) == 12 and data["days_played"] == [1]
    played = {(f["home"], f["away"]): f for f in data["fixtures"] if f["played"]}
    assert played[(home_win.home.name, home_win.away.name)]["games_home"] == 2
    assert played[(forfeited.home.name, forfeited.away.name)]["forfeit"] == "away"
    assert sum(not f["played"] for f in data["fixtures"]) == 10

    table = public.get(f"/leagues/{league.pk}/league-table.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(table)))
    assert [r["team"] for r in rows] == [r["team"] for r in data["table"]]
    assert [int(r["points"]) for r in rows] == [r["points"] for r in data["table"]]
    fixtures = public.get(f"/leagues/{league.pk}/league-fixtures.csv").content.decode()
    assert len(list(csv.DictReader(io.StringIO(fixtures)))) == 12
    book = load_workbook(io.BytesIO(public.get(f"/leagues/{league.pk}/league.xlsx").content))
    assert len(book.sheetnames) == 2
    assert book.worksheets[0].max_row == 1 + len(rows)
    assert book.worksheets[1].max_row == 13


def test_publishing_is_audited_and_a_fixture_saved_again_unchanged_is_not(league, actor, organiser):
    """Every change is on the league's audit trail, and only changes: the fixture's form sends
    all its games each time, and an unchanged game is no new entry."""
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.filter(day=1).first()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    manage = f"/leagues/{league.pk}/manage/"
    assert client.post(manage, {"action": "publish", "published": "1"}).status_code == 302
    assert client.post(manage, {"action": "publish", "published": "1"}).status_code == 302
    published = LeagueAudit.objects.filter(league=league, action="league_published")
    assert [a.changes["published"] for a in published.all()] == [[False, True]]
    assert client.post(manage, {"action": "publish", "published": "0"}).status_code == 302
    assert [a.changes["published"] for a in published.all()] == [[False, True], [True, False]]
    league.refresh_from_db()
    assert not league.published

    url = f"/leagues/{league.pk}/fixtures/{fixture.pk}/"
    games = {"forfeit": "", "game1": "10-0, 0-4", "game2": "36-0"}
    assert client.post(url, games).status_code == 302
    entered = LeagueAudit.objects.filter(league=league, action="league_game")
    assert entered.count() == 2
    assert client.post(url, games | {"game2": "0-36"}).status_code == 302
    assert entered.count() == 3  # game 2 changed, game 1 did not
    with pytest.raises(NotAllowed):
        svc.league_publish(league=league, actor=Actor(user=UserFactory()), published=True)


def test_a_league_in_another_clubs_name_is_refused_as_an_event_is(organiser):
    """docs/organisers.md: only a club's organisers hold events in its name; a league is no way
    round it. A new name makes a club of yours; another's club is refused at the club field."""
    from tests.factories import ClubFactory
    from tournaments.models import Club, League

    valls = ClubFactory(name="Penya de Valls")
    valls.organisers.add(UserFactory(username="valls"))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    form = {"name": "Lliga", "starts": "2026-12-01", "games_per_match": 6, "hands_per_game": 8}
    refused = client.post("/leagues/new/", form | {"club_name": "penya de valls"})
    assert refused.status_code == 400 and "club_name" in refused.context["form"].errors
    assert not League.objects.exists()
    made = client.post("/leagues/new/", form | {"club_name": "Casal  de Cambrils"})
    assert made.status_code == 302
    club = Club.objects.get(name="Casal de Cambrils")
    assert League.objects.get().club == club and club.organisers.filter(pk=organiser.pk).exists()
    with pytest.raises(NotAllowed):
        svc.league_create(actor=Actor(user=organiser), name="Una altra", club=valls)
