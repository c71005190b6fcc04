"""League input (issue 18, docs/teams.md sections 7 and 11): a date past the calendar's end is
refused in words, never a 500; a hand score must be one R9 can produce; each match may have its
own evening."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from tournaments.models import League, LeagueAudit, LeagueFixture, LeagueGame
from tournaments.services import ServiceError
from tournaments.services import league as svc

pytestmark = pytest.mark.django_db


def _league_starting(actor, starts: date) -> League:
    """A league of four teams stored with ``starts`` as its first match day (written past the
    service, as a league stored before the dates were bounded)."""
    made = svc.league_create(actor=actor, name="Lliga", games_per_match=3, hands_per_game=2)
    for name in ("Reus", "Valls", "Tarragona", "Cambrils"):
        svc.league_team_add(league=made, actor=actor, name=name)
    League.objects.filter(pk=made.pk).update(starts=starts)
    return League.objects.get(pk=made.pk)


def test_a_fixture_list_past_the_calendars_end_is_refused_not_a_500(actor, organiser):
    # Was: OverflowError in league.starts + timedelta(...) -> 500.
    league = _league_starting(actor, date(9999, 12, 20))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    response = client.post(f"/leagues/{league.pk}/manage/", {"action": "fixtures"})
    assert response.status_code == 400
    assert "would end after" in response.content.decode()
    assert not LeagueFixture.objects.filter(league=league).exists()
    with pytest.raises(ServiceError) as exc:
        svc.fixtures_generate(league=league, actor=actor)
    assert exc.value.field == "starts"


def test_the_season_must_end_by_the_last_date(actor):
    # Four teams home and away: six match days a week apart, the last 35 days after the first.
    late = _league_starting(actor, date(2100, 12, 1))  # would end on 2101-01-05
    with pytest.raises(ServiceError) as exc:
        svc.fixtures_generate(league=late, actor=actor)
    assert exc.value.field == "starts" and "6 match days" in exc.value.message
    assert not late.fixtures.exists()
    in_time = _league_starting(actor, date(2100, 11, 26))  # ends on 2100-12-31
    assert svc.fixtures_generate(league=in_time, actor=actor) == 12
    assert max(f.date for f in in_time.fixtures.all()) == svc.LAST_DATE


@pytest.mark.parametrize("starts", ["9999-12-20", "2101-01-01", "1999-12-31"])
def test_the_new_league_form_bounds_the_first_match_day(organiser, starts):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    response = client.post(
        "/leagues/new/",
        {"name": "Lliga", "starts": starts, "games_per_match": 6, "hands_per_game": 8},
    )
    assert response.status_code == 400
    errors = response.context["form"].errors["starts"]
    assert errors == ["A league's match days fall between 01/01/2000 and 12/31/2100."]
    assert not League.objects.exists()


def test_the_service_bounds_the_first_match_day(actor):
    with pytest.raises(ServiceError) as exc:
        svc.league_create(actor=actor, name="Lliga", starts=date(9999, 12, 20))
    assert exc.value.field == "starts"
    assert not League.objects.exists()


@pytest.mark.parametrize(
    ("hand", "score"), [((37, 0), 37), ((0, 73), 73), ((145, 0), 145), ((575, 0), 575)]
)
def test_a_hand_score_r9_cannot_produce_is_refused_r9(league, actor, hand, score):
    # R9: (total - 36) x multiplier, total 37..72, multiplier 1, 2, 4, 8 (16 with Sant Vicenç
    # in botifarra, R11: a league has no ruleset, so any).
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.first()
    with pytest.raises(ServiceError) as exc:
        svc.league_game_enter(fixture=fixture, actor=actor, number=1, hands=[(10, 0), hand])
    assert exc.value.field == "hands"
    assert exc.value.message == (
        f"Hand 2: {score} is not a possible score (R9: 1 to 36 times 1, 2, 4, 8 or 16)."
    )
    assert not LeagueGame.objects.filter(fixture=fixture).exists()


def test_every_score_r9_can_produce_is_taken_r9(league, actor):
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.first()
    hands = [(36, 0), (0, 72)]  # x1 capot, a botifarra's capot
    svc.league_game_enter(fixture=fixture, actor=actor, number=1, hands=hands)
    svc.league_game_enter(fixture=fixture, actor=actor, number=2, hands=[(304, 0), (0, 576)])
    assert LeagueGame.objects.filter(fixture=fixture).count() == 2


def test_the_results_page_refuses_an_impossible_hand_in_words(league, actor, organiser):
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.first()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    url = f"/leagues/{league.pk}/fixtures/{fixture.pk}/"
    response = client.post(url, {"forfeit": "", "game1": "10-0", "game2": "0-37"})
    assert response.status_code == 400
    assert "37 is not a possible score" in response.content.decode()
    form = response.context["form"]
    assert list(form.errors) == ["game2"]  # beside the game to mend, not above the form
    assert not LeagueGame.objects.exists()


def test_a_match_may_have_its_own_evening(league, actor, organiser):
    # A match day may be played at different clubs on different evenings (issue 18).
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.filter(day=1).first()
    day_date = fixture.date
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    url = f"/leagues/{league.pk}/fixtures/{fixture.pk}/"
    assert f'value="{day_date.isoformat()}"' in client.get(url).content.decode()
    own = date(2030, 3, 14)
    assert client.post(url, {"date": own.isoformat(), "forfeit": ""}).status_code == 302
    fixture.refresh_from_db()
    assert fixture.date == own
    audit = LeagueAudit.objects.get(league=league, action="league_fixture_date")
    assert audit.changes["date"] == [day_date.isoformat(), own.isoformat()]
    others = league.fixtures.filter(day=1).exclude(pk=fixture.pk)
    assert {f.date for f in others} == {day_date}  # the rest of the match day keeps its date
    manage = client.get(f"/leagues/{league.pk}/manage/").content.decode()
    assert "03/14/2030" in manage
    client.post(f"/leagues/{league.pk}/manage/", {"action": "publish", "published": "1"})
    season = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/leagues/{league.pk}/").content.decode()
    assert "03/14/2030" in season
    # Emptied: back to its match day's date.
    assert client.post(url, {"date": "", "forfeit": ""}).status_code == 302
    fixture.refresh_from_db()
    assert fixture.date == day_date


def test_a_matchs_evening_out_of_bounds_or_with_a_bad_hand_stores_nothing(league, actor, organiser):
    svc.fixtures_generate(league=league, actor=actor)
    fixture = league.fixtures.first()
    before = fixture.date
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    url = f"/leagues/{league.pk}/fixtures/{fixture.pk}/"
    far = client.post(url, {"date": "9999-12-31", "forfeit": "", "game1": "10-0"})
    assert far.status_code == 400
    assert far.context["form"].errors["date"] == [
        "A league's match days fall between 01/01/2000 and 12/31/2100."
    ]
    bad_hand = client.post(url, {"date": "2030-03-14", "forfeit": "", "game1": "0-37"})
    assert bad_hand.status_code == 400
    fixture.refresh_from_db()
    assert fixture.date == before and not LeagueGame.objects.exists()
    assert not LeagueAudit.objects.filter(action="league_fixture_date").exists()
    with pytest.raises(ServiceError) as exc:
        svc.league_fixture_date(fixture=fixture, actor=actor, when=date(1999, 1, 1))
    assert exc.value.field == "date"
