"""The league (Lliga, docs/teams.md section 7): club teams, the fixture list by round robin
(home and away), the games of each match, forfeits. Every result change is audited
(``LeagueAudit``); the table is computed by the pure ``scoring.league`` on each read."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import formats
from django.utils.translation import gettext as _

from engine import possible_hand_score
from scoring.lots import seeding_order
from scoring.roundrobin import round_robin_schedule
from tournaments.actors import Actor
from tournaments.models import Club, League, LeagueAudit, LeagueFixture, LeagueGame, LeagueTeam
from tournaments.services import Conflict, NotAllowed, ServiceError, clubs
from tournaments.services.names import max_length, normal_name

MAX_HAND_SCORE = 16 * 36  # botifarra with Sant Vicenç, ×16 (R9)
#: Every match day of a league (its first, each fixture's date, the last) falls in these years:
#: a typing slip such as 9999 is refused in words rather than overflowing the calendar.
FIRST_DATE = date(2000, 1, 1)
LAST_DATE = date(2100, 12, 31)


def check_league_date(value: date | None, *, field: str) -> None:
    """Refuse a league date outside ``FIRST_DATE``–``LAST_DATE`` (ServiceError at ``field``)."""
    if value is not None and not FIRST_DATE <= value <= LAST_DATE:
        raise ServiceError(
            _("A league's match days fall between %(first)s and %(last)s.")
            % {
                "first": formats.date_format(FIRST_DATE, "SHORT_DATE_FORMAT"),
                "last": formats.date_format(LAST_DATE, "SHORT_DATE_FORMAT"),
            },
            field=field,
        )


def require_league_organiser(league: League, actor: Actor) -> None:
    if not (actor.is_authenticated and league.is_organiser(actor.user)):
        raise NotAllowed(_("Only the organisers of this league can do that."))


def _audit(league: League, actor: Actor, action: str, changes: dict) -> None:
    LeagueAudit.objects.create(league=league, actor=actor.label, action=action, changes=changes)


def league_create(
    *, actor: Actor, name: str, club: Club | None = None, **options: object
) -> League:
    if not actor.is_authenticated:
        raise NotAllowed(_("Log in to create a league."))
    if club is not None:  # a league is held in a club's name as an event is
        clubs.require_club_organiser(club=club, actor=actor)
    league = League(name=name, club=club, **options)
    check_league_date(league.starts, field="starts")
    with transaction.atomic():
        league.full_clean()
        league.save()
        league.organisers.add(actor.user)
        _audit(league, actor, "league_created", {"name": [None, name]})
    return league


def league_team_add(*, league: League, actor: Actor, name: str, club: str = "") -> LeagueTeam:
    require_league_organiser(league, actor)
    name = normal_name(name)
    if not name or len(name) > max_length(LeagueTeam):
        raise ServiceError(
            _("A team's name has 1 to %(n)s characters.") % {"n": max_length(LeagueTeam)},
            field="name",
        )
    with transaction.atomic():
        League.objects.select_for_update(of=("self",), no_key=True).get(pk=league.pk)
        if league.fixtures.exists():
            raise Conflict(_("The fixture list is made: no team can join now."), field="name")
        if league.teams.filter(name__iexact=name).exists():
            raise ServiceError(_("A team of this league already has this name."), field="name")
        club_obj = clubs.home_club(club)
        number = (league.teams.aggregate(m=Max("number"))["m"] or 0) + 1
        team = LeagueTeam.objects.create(league=league, number=number, name=name, club=club_obj)
        _audit(league, actor, "league_team", {"team": [None, name]})
    return team


def match_day_date(league: League, day: int, days_apart: int = 7) -> date:
    """The date the fixture list gives match day ``day``: one a week from the first."""
    return league.starts + timedelta(days=days_apart * (day - 1))


def _locked_fixture(fixture: LeagueFixture) -> LeagueFixture:
    """``fixture`` locked, after its league's lock (which making the fixture list again takes):
    an entry waits for a new list and is then refused, or the new list waits for the entry and
    is then refused (results are in)."""
    League.objects.select_for_update(of=("self",), no_key=True).get(pk=fixture.league_id)
    found = LeagueFixture.objects.select_for_update(of=("self",), no_key=True).filter(pk=fixture.pk)
    if (locked := found.first()) is None:
        raise Conflict(
            _("The fixture list was made again meanwhile: open the match from the new list."),
            field="fixture",
        )
    return locked


def fixtures_generate(*, league: League, actor: Actor, days_apart: int = 7) -> int:
    """The fixture list by round robin (Berger; home and away when the league says so), in the
    order drawn from the league's seed; one match day a week from the first. Replaces a list
    with no result yet."""
    require_league_organiser(league, actor)
    with transaction.atomic():
        League.objects.select_for_update(of=("self",), no_key=True).get(pk=league.pk)
        if (
            LeagueGame.objects.filter(fixture__league=league).exists()
            or league.fixtures.exclude(forfeit="").exists()
        ):
            raise Conflict(_("Results are in: the fixture list can no longer change."))
        teams = {t.number: t for t in league.teams.all()}
        if len(teams) < 2:
            raise ServiceError(_("A league needs two teams at least."), field="teams")
        order = seeding_order({n: n for n in teams}, league.seed, None)
        schedule = round_robin_schedule(order, double=league.home_and_away)
        # The last match day's date first: nothing is written for a season past LAST_DATE (a
        # league stored with a first match day from before the bound, say 9999, included).
        if (
            league.starts > LAST_DATE
            or days_apart * (len(schedule) - 1) > (LAST_DATE - league.starts).days
        ):
            raise ServiceError(
                _(
                    "The season's %(n)s match days would end after %(last)s: choose an earlier "
                    "first match day."
                )
                % {
                    "n": len(schedule),
                    "last": formats.date_format(LAST_DATE, "SHORT_DATE_FORMAT"),
                },
                field="starts",
            )
        league.fixtures.all().delete()
        fixtures = [
            LeagueFixture(
                league=league,
                day=day,
                home=teams[home],
                away=teams[away],
                date=match_day_date(league, day, days_apart),
            )
            for day, pairing in enumerate(schedule, start=1)
            for home, away in pairing.tables
        ]
        LeagueFixture.objects.bulk_create(fixtures)
        _audit(league, actor, "league_fixtures", {"fixtures": [None, len(fixtures)]})
    return len(fixtures)


def _check_hands(hands: Sequence[Sequence[int]], league: League) -> list[list[int]]:
    if not hands:
        raise ServiceError(_("A game needs its hands."), field="hands")
    if len(hands) > league.hands_per_game:
        raise ServiceError(
            _("A game has at most %(n)s hands.") % {"n": league.hands_per_game}, field="hands"
        )
    out = []
    for k, hand in enumerate(hands, start=1):
        home, away = hand
        if home < 0 or away < 0 or (home and away) or max(home, away) > MAX_HAND_SCORE:
            raise ServiceError(
                _("Hand %(k)s: only one side scores, from 0 to %(max)s (R9).")
                % {"k": k, "max": MAX_HAND_SCORE},
                field="hands",
            )
        # A league has no ruleset (R11): any multiplier a ruleset allows, ×16 included.
        if not possible_hand_score(max(home, away)):
            raise ServiceError(
                _(
                    "Hand %(k)s: %(score)s is not a possible score (R9: 1 to 36 times 1, 2, 4, 8 "
                    "or 16)."
                )
                % {"k": k, "score": max(home, away)},
                field="hands",
            )
        out.append([home, away])
    return out


def league_publish(*, league: League, actor: Actor, published: bool) -> League:
    """Show the league to the public, or hide it again: audited as the event's publishing is."""
    require_league_organiser(league, actor)
    with transaction.atomic():
        league = League.objects.select_for_update(of=("self",), no_key=True).get(pk=league.pk)
        if league.published != published:
            before = league.published
            league.published = published
            league.save(update_fields=["published"])
            _audit(league, actor, "league_published", {"published": [before, published]})
    return league


def league_game_enter(
    *, fixture: LeagueFixture, actor: Actor, number: int, hands: Sequence[Sequence[int]]
) -> LeagueGame:
    """Enter (or correct) game ``number`` of a fixture: its hands' scores, home first."""
    league = fixture.league
    require_league_organiser(league, actor)
    if not 1 <= number <= league.games_per_match:
        raise ServiceError(
            _("A match has games 1 to %(n)s.") % {"n": league.games_per_match}, field="game"
        )
    clean = _check_hands(hands, league)
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        if fixture.forfeit:
            raise Conflict(_("This match was forfeited."), field="game")
        game = LeagueGame.objects.filter(fixture=fixture, number=number).first()
        before = game.hands if game is not None else None
        if game is not None and before == clean:
            return game  # saved again unchanged (the fixture's form sends every game)
        if game is None:
            game = LeagueGame(fixture=fixture, number=number)
        game.hands = clean
        game.entered_by = actor.label
        game.save()
        _audit(
            league,
            actor,
            "league_game",
            {
                "fixture": [None, str(fixture)],
                "day": [None, fixture.day],
                "game": [None, number],
                "hands": [before, clean],
            },
        )
    return game


def league_game_remove(*, fixture: LeagueFixture, actor: Actor, number: int) -> None:
    """Remove game ``number`` of a fixture (entered by mistake, or before a forfeit): audited
    with the hands it had."""
    require_league_organiser(fixture.league, actor)
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        game = LeagueGame.objects.filter(fixture=fixture, number=number).first()
        if game is None:
            return
        game.delete()
        _audit(
            fixture.league,
            actor,
            "league_game_removed",
            {
                "fixture": [None, str(fixture)],
                "day": [None, fixture.day],
                "game": [None, number],
                "hands": [game.hands, None],
            },
        )


def league_fixture_date(
    *, fixture: LeagueFixture, actor: Actor, when: date | None
) -> LeagueFixture:
    """The evening a match is played, when its clubs do not play on the match day's date (a
    match day may be spread over several evenings); ``None``: back to the match day's date.
    Audited; results do not depend on it."""
    league = fixture.league
    require_league_organiser(league, actor)
    if when is None:
        when = match_day_date(league, fixture.day)
    check_league_date(when, field="date")
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        before = fixture.date
        if before == when:
            return fixture
        fixture.date = when
        fixture.save(update_fields=["date"])
        _audit(
            league,
            actor,
            "league_fixture_date",
            {
                "fixture": [None, str(fixture)],
                "day": [None, fixture.day],
                "date": [before.isoformat() if before else None, when.isoformat()],
            },
        )
    return fixture


def league_forfeit(*, fixture: LeagueFixture, actor: Actor, side: str) -> LeagueFixture:
    """A team did not turn up (``side``: home or away; "" to undo): audited."""
    league = fixture.league
    require_league_organiser(league, actor)
    if side not in ("", *LeagueFixture.Forfeit.values):
        raise ServiceError(_("Choose the home or the away team."), field="forfeit")
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        if side and fixture.games.exists():
            raise Conflict(_("Games are entered for this match: remove them first."))
        before = fixture.forfeit
        fixture.forfeit = side
        fixture.save(update_fields=["forfeit"])
        _audit(
            league,
            actor,
            "league_forfeit",
            {"fixture": [None, str(fixture)], "forfeit": [before, side]},
        )
    return fixture
