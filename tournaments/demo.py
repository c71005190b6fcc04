"""The demonstration event of ``manage.py demo``: built through the same services as real use."""

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.presets import PRESETS
from tournaments import play
from tournaments.actors import Actor
from tournaments.models import (
    Board,
    BoardResult,
    BoardUnlock,
    Club,
    Entry,
    Event,
    League,
    Pair,
    Player,
    Round,
    Season,
    Table,
)
from tournaments.scoring_io import stale_events
from tournaments.selectors import table_boards_due
from tournaments.services import events, pairing_rules, results, roles, teams
from tournaments.services import league as league_services
from tournaments.services.pairings import pairings_propose
from tournaments.services.ratings import ratings_recompute
from tournaments.services.registrations import registration_signup
from tournaments.services.standings import standings_recompute

DEMO_EVENT = "Torneig de demostració"
DEMO_EVENING = "Vespre de club"
DEMO_ROUND_ROBIN = "Lliga del dijous (tots contra tots)"
DEMO_GROUPS = "Fires de Sant Narcís (grups i eliminatòries)"
DEMO_SEASON = "Temporada de tardor"
DEMO_SEASON_EVENING = "Dijous de club, %d"
DEMO_OPEN = "Obert de tardor"
DEMO_TEAMS = "Campionat d'equips"
DEMO_LEAGUE = "Lliga de clubs"
TEAM_NAMES = ["Els Rapids", "La Penya", "Cal Botifarra", "Els Manillers"]
LEAGUE_CLUBS = ["Casal de Vic", "Ateneu de Manlleu", "Penya de Torelló", "Cercle de Tona"]
DEMO_LLORET = "Obert de Lloret (sistema suís)"
DEMO_ACCELERATED = "Gran obert de Lloret (suís accelerat)"
DEMO_GIRONA = "Campionat de Girona (grups de 8 mans)"
DEMO_CLUB_LEAGUE = "Lliga de l'Agrupació (anada i tornada)"
LLORET_CLUB = ("Penya Botifarrera de Lloret", "Lloret de Mar")
GIRONA_CLUB = ("Agrupació Botifarrera de Girona", "Girona")
# One demo event per preset of scoring.presets, built with the preset's options (events.
# preset_fields) in a field of demo size: fewer pairs, and the Swiss opens play 3 rounds of
# their 7. Each ran to its last round and is finished, with its standings, except those of
# IN_PROGRESS_PRESETS, left under way: their rounds up to the one named closed, with their
# standings, and the next one proposed (the club evening, the league after its first leg, the
# accelerated open before its last round). The duplicate Swiss is the season's evenings (the
# last one stands for them).
PRESET_EVENTS = {
    "open_swiss": DEMO_LLORET,
    "open_swiss_accelerated": DEMO_ACCELERATED,
    "girona_groups": DEMO_GIRONA,
    "club_evening": DEMO_ROUND_ROBIN,
    "club_league": DEMO_CLUB_LEAGUE,
    "duplicate_swiss": DEMO_SEASON_EVENING % 6,
}
IN_PROGRESS_PRESETS = {"club_evening": 2, "club_league": 3, "open_swiss_accelerated": 2}
PASSWORD = "botifarra-demo"
PAIR_NAMES = [
    ("Anna Puig", "Jordi Vila"),
    ("Marta Soler", "Pere Riera"),
    ("Laia Costa", "Joan Serra"),
    ("Núria Font", "Josep Roca"),
    ("Montse Pla", "Xavier Mas"),
    ("Carme Rovira", "Albert Camps"),
    ("Rosa Vidal", "Miquel Pons"),
    ("Teresa Prat", "Lluís Ferrer"),
    ("Pilar Sala", "Ramon Bosch"),
    ("Mercè Gil", "Enric Martí"),
    ("Glòria Comas", "Jaume Oliver"),
    ("Elena Roig", "Francesc Pujol"),
    ("Sílvia Bertran", "Antoni Coll"),
    ("Dolors Mir", "Manel Torres"),
    ("Isabel Nadal", "Carles Ros"),
    ("Eva Mora", "Sergi Vives"),
]


@dataclass
class DemoReport:
    logins: list[tuple[str, str, str]] = field(default_factory=list)
    event: Event | None = None
    evening: Event | None = None
    round_robin: Event | None = None
    teams: Event | None = None
    league: League | None = None
    groups: Event | None = None
    season: Season | None = None
    open_event: Event | None = None
    # preset code -> the demo event built with it (PRESET_EVENTS)
    presets: dict[str, Event] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # The pending invitation's token: shown once, when the demo is built (only its hash is kept).
    invitation_token: str | None = None


def _user(username: str, *, staff: bool = False, email: str = "") -> Any:
    """The demo's account ``username``: made with the published password, or as it is now (a
    later run leaves an account alone: its password may have been changed since)."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username, defaults={"email": email})
    if created:
        user.set_password(PASSWORD)
        user.is_staff = user.is_superuser = staff
        user.save()
    return user


# A round in progress (the console's every state): table -> (boards played, how the last of
# them stands). Table 4 is behind, 5 has a result waiting for confirmation, 6 has not started,
# 7 declared its first board played and owes the result; the others have finished.
IN_PROGRESS = {4: (1, "confirmed"), 5: (2, "entered"), 6: (0, ""), 7: (0, "declared")}


def _game_over(table: Table, number: int) -> bool:
    """Whether the table's match ended before board ``number`` (a game to the target)."""
    scores = {
        b: (ns, ew)
        for b, ns, ew in table.results.filter(status__in=BoardResult.COUNTED).values_list(
            "board__number", "score_ns", "score_ew"
        )
    }
    _owed, not_played = table_boards_due(
        table.round.event, table, list(table.round.board_numbers), scores
    )
    return number in not_played


def play_round(
    rnd: Round,
    rng: random.Random,
    *,
    dispute: bool = False,
    illegal: bool = False,
    in_progress: bool = False,
    calls: bool = False,
) -> None:
    """Every table enters and confirms its boards; optionally one conflict and one illegal card,
    and (``in_progress``) tables at every stage of the round (``IN_PROGRESS``); with ``calls``
    the opponents of the choosing pair call contro on some boards (games to 101 then end in a
    realistic number of deals)."""
    event = rnd.event
    tables = list(rnd.tables.select_related("ns__pair", "ew__pair").order_by("number"))
    for table in tables:
        ns = Actor(table=table, side="NS")
        ew = Actor(table=table, side="EW")
        stop, last = IN_PROGRESS.get(table.number, (None, "")) if in_progress else (None, "")
        boards = list(Board.objects.filter(event=event, number__in=rnd.board_numbers))
        for index, board in enumerate(boards):
            trump = rng.choice(["oros", "copes", "espases", "bastos", "botifarra"])
            if BoardResult.objects.filter(table=table, board=board).exists():
                continue
            if _game_over(table, board.number):
                break
            if stop is not None and index >= stop:
                if last == "declared" and index == stop:
                    results.unlock_board(
                        table=table, board=board, actor=ns, reason=BoardUnlock.Reason.DECLARED
                    )
                break
            if last == "entered" and stop is not None and index == stop - 1:
                played_record = play.record(
                    board, trump=trump, cards=play.random_play(board, trump, rng)
                )
                data = {
                    "delegated": False,
                    "trump": trump,
                    "doubles": [],
                    "totals": play.replay(board, played_record).totals,
                }
                results.result_submit_short(
                    table=table, board_number=board.number, actor=ns, data=data
                )
                continue
            if illegal and table.number == 2 and board.number == rnd.board_numbers[0]:
                cards = play.random_play(board, trump, rng, illegal_at=rng.randint(8, 30))
                results.result_submit_play_record(
                    table=table,
                    board_number=board.number,
                    actor=ns,
                    record=play.record(board, trump=trump, cards=cards),
                )
                continue
            if table.number == 1 and board.number == rnd.board_numbers[0]:
                cards = play.random_play(board, trump, rng)
                out = results.result_submit_play_record(
                    table=table,
                    board_number=board.number,
                    actor=ns,
                    record=play.record(board, trump=trump, cards=cards),
                )
                results.result_confirm(result=out.result, actor=ew)
                continue
            played = play.record(board, trump=trump, cards=play.random_play(board, trump, rng))
            totals = play.replay(board, played).totals
            doubles = []
            if calls and rng.random() < 0.5:
                seats = play.call_seats(board)
                doubles = [{"seat": seats["contro"][0], "call": "contro"}]
                if rng.random() < 0.3:
                    doubles.append({"seat": seats["recontro"][0], "call": "recontro"})
            data = {"delegated": False, "trump": trump, "doubles": doubles, "totals": totals}
            results.result_submit_short(table=table, board_number=board.number, actor=ns, data=data)
            if dispute and table.number == 3 and board.number == rnd.board_numbers[-1]:
                wrong = {"NS": min(72, totals["NS"] + 4), "EW": max(0, totals["EW"] - 4)}
                if wrong["NS"] + wrong["EW"] != 72:
                    wrong = {"NS": totals["NS"] - 4, "EW": totals["EW"] + 4}
                results.result_submit_short(
                    table=table, board_number=board.number, actor=ew, data=data | {"totals": wrong}
                )
            else:
                results.result_submit_short(
                    table=table, board_number=board.number, actor=ew, data=data
                )


class DemoRefused(Exception):
    """The demo would take over accounts it did not make."""


DEMO_USERS = ("organiser", "referee", "coorganiser", "admin")


def _built_demo() -> Event | None:
    """The championship an earlier run of the demo built: by its name and its organiser, the
    demo's own account (an event of the same name that someone else organises is not it)."""
    return Event.objects.filter(name=DEMO_EVENT, organisers__username="organiser").first()


@transaction.atomic
def build_demo() -> DemoReport:
    built = _built_demo()
    if built is None:
        # Its accounts get the password printed in the README: never someone's own account.
        taken = sorted(
            get_user_model()
            .objects.filter(username__in=DEMO_USERS)
            .values_list("username", flat=True)
        )
        if taken:
            raise DemoRefused(
                f"This database already has accounts named {', '.join(taken)}: the demo would "
                "give them its published password. Build the demo on a database of its own."
            )
    report = DemoReport()
    organiser = _user("organiser")
    referee = _user("referee")
    _user("coorganiser", email="coorganiser@example.org")
    _user("admin", staff=True)
    report.logins = [
        ("admin", PASSWORD, "staff: the admin site"),
        ("organiser", PASSWORD, "organiser of the demo events"),
        ("referee", PASSWORD, "referee of the demo events"),
        ("coorganiser", PASSWORD, f"co-organiser of {DEMO_EVENT} (appointed by e-mail)"),
    ]
    club, _ = Club.objects.get_or_create(name="Casal de la Botifarra", defaults={"city": "Vic"})
    club.organisers.add(organiser)  # only a club's organisers create events in its name
    if built is not None:
        report.event = built
        report.evening = Event.objects.filter(name=DEMO_EVENING).first()
        report.season = Season.objects.filter(club=club, name=DEMO_SEASON).first()
        report.open_event = Event.objects.filter(name=DEMO_OPEN).first()
        report.notes.append(
            "The demo events already exist; nothing was changed (its accounts neither: a "
            "password changed since stays changed)."
        )
        _format_events(report, Actor(user=organiser), referee, club, random.Random(2027))
        _preset_events(report, Actor(user=organiser), referee)
        for stale in stale_events():  # e.g. after an upgrade that stores more per snapshot
            standings_recompute(stale.pk)
        return report
    actor = Actor(user=organiser)
    rng = random.Random(2026)

    # The championship: round 1 played, round 2 in progress (tables at every stage, a dispute
    # and an illegal card for the referee): the console and the room's screen to open.
    event = _running_event(
        actor, referee, club, DEMO_EVENT, PAIR_NAMES, rounds_count=4, boards_per_round=4
    )
    for number in (1, 2):
        pairings_propose(event.pk, number, actor=actor)
        rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
        last = number == 2
        play_round(rnd, rng, dispute=last, illegal=last, in_progress=last)
        if not last:
            events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    # Roles from the organiser's pages: a co-organiser appointed by e-mail, and a referee's
    # invitation link still waiting to be accepted.
    roles.role_grant(
        event=event, actor=actor, identifier="coorganiser@example.org", role="organiser"
    )
    invited = roles.invitation_create(
        event=event, actor=actor, role="referee", email="nova.arbitra@example.org"
    )
    report.invitation_token = invited.token
    # A club evening: round 1 closed, standings computed, round 2's pairings proposed and
    # waiting for the organiser to accept them.
    evening = _running_event(
        actor, referee, club, DEMO_EVENING, PAIR_NAMES[:8], rounds_count=3, boards_per_round=3
    )
    pairings_propose(evening.pk, 1, actor=actor)
    rnd = events.round_open(rnd=evening.rounds.get(number=1), actor=actor)
    play_round(rnd, rng)
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(evening.pk)
    pairings_propose(evening.pk, 2, actor=actor)
    report.event = event
    report.evening = evening
    _format_events(report, actor, referee, club, rng)
    report.season = _season(actor, club, rng)
    report.open_event = _open_championship(actor, club)
    _preset_events(report, actor, referee)
    return report


def _format_events(
    report: DemoReport, actor: Actor, referee: Any, club: Club, rng: random.Random
) -> None:
    """The other pairing methods, each built once: a round robin club evening (the club evening
    preset, five pairs, one resting each round; rounds 1–2 closed, round 3 proposed) and a
    groups-and-knockout event
    (eight pairs in two groups, a repesca of two; the groups closed, the semi-finals open with
    their results in)."""
    report.round_robin = Event.objects.filter(name=DEMO_ROUND_ROBIN).first()
    if report.round_robin is None:
        rr = _running_event(
            actor, referee, club, DEMO_ROUND_ROBIN, PAIR_NAMES[8:13], **_preset("club_evening")
        )
        for number in (1, 2):
            _play_and_close(rr, number, actor, rng)
        standings_recompute(rr.pk)
        pairings_propose(rr.pk, 3, actor=actor)
        report.round_robin = rr
    report.teams = Event.objects.filter(name=DEMO_TEAMS).first() or _team_event(
        actor, referee, club, rng
    )
    report.league = League.objects.filter(name=DEMO_LEAGUE).first() or _league(actor, club, rng)
    report.groups = Event.objects.filter(name=DEMO_GROUPS).first()
    if report.groups is None:
        groups = _running_event(
            actor,
            referee,
            club,
            DEMO_GROUPS,
            PAIR_NAMES[:8],
            boards_per_round=3,
            format=Event.Format.GROUPS,
            match_mode=Event.MatchMode.GAME,
            game_target=51,
            group_size=4,
            qualifiers=1,
            repesca=2,
        )
        for number in (1, 2, 3):
            _play_and_close(groups, number, actor, rng)
        pairings_propose(groups.pk, 4, actor=actor)
        semis = events.round_open(rnd=groups.rounds.get(number=4), actor=actor)
        play_round(semis, rng)
        standings_recompute(groups.pk)
        report.groups = groups


def _play_and_close(
    event: Event, number: int, actor: Actor, rng: random.Random, *, calls: bool = False
) -> None:
    pairings_propose(event.pk, number, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
    play_round(rnd, rng, calls=calls)
    events.round_close(rnd=rnd, actor=actor)


def _preset(code: str, **demo_size: Any) -> dict[str, Any]:
    """The options of preset ``code`` (scoring.presets), with the demo's field size."""
    return events.preset_fields(PRESETS[code]) | demo_size


def _demo_club(actor: Actor, name: str, city: str) -> Club:
    club, _ = Club.objects.get_or_create(name=name, defaults={"city": city})
    club.organisers.add(actor.user)
    return club


def _played_out(event: Event, actor: Actor, rng: random.Random, code: str) -> Event:
    """Every round paired, played (contros called now and then) and closed, the standings
    computed and the event finished; or, for a preset of ``IN_PROGRESS_PRESETS``, the rounds up
    to the one it names, and the next one proposed."""
    last = IN_PROGRESS_PRESETS.get(code, event.rounds_count)
    for number in range(1, last + 1):
        _play_and_close(event, number, actor, rng, calls=True)
    standings_recompute(event.pk)
    if last < event.rounds_count:
        pairings_propose(event.pk, last + 1, actor=actor)
        return Event.objects.get(pk=event.pk)
    return events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)


def _open_swiss(actor: Actor, referee: Any, rng: random.Random) -> Event:
    """Lloret's open Swiss with four pairs: three rounds of games to 101, 12 deals or the
    clock, 121 counted at most, a level game half a win."""
    club = _demo_club(actor, *LLORET_CLUB)
    event = _running_event(
        actor, referee, club, DEMO_LLORET, PAIR_NAMES[:4], **_preset("open_swiss", rounds_count=3)
    )
    return _played_out(event, actor, rng, "open_swiss")


def _open_swiss_accelerated(actor: Actor, referee: Any, rng: random.Random) -> Event:
    """The accelerated open with four pairs of two clubs, seeded by rating: the top two carry
    virtual points in rounds 1-2 and pairs of one club do not meet in those rounds; round 3
    proposed."""
    club = _demo_club(actor, *LLORET_CLUB)
    event = _running_event(
        actor,
        referee,
        club,
        DEMO_ACCELERATED,
        PAIR_NAMES[4:8],
        clubs=[LLORET_CLUB[0], "Casal de la Botifarra"] * 2,
        ratings=[1850, 1720, 1600, 1480],
        **_preset("open_swiss_accelerated", rounds_count=3),
    )
    return _played_out(event, actor, rng, "open_swiss_accelerated")


def _girona_groups(actor: Actor, referee: Any, rng: random.Random) -> Event:
    """Girona's groups with six pairs: two groups of three (8-deal games, two tie-break deals
    for a level game), then the final of the group winners."""
    club = _demo_club(actor, *GIRONA_CLUB)
    event = _running_event(
        actor, referee, club, DEMO_GIRONA, PAIR_NAMES[10:16], **_preset("girona_groups")
    )
    return _played_out(event, actor, rng, "girona_groups")


def _club_league(actor: Actor, referee: Any, rng: random.Random) -> Event:
    """The club league with three pairs: everybody meets everybody twice (six rounds, one pair
    resting in each), games to 101 over four boards a round (the preset leaves it open); the
    first leg played, round 4 proposed."""
    club = _demo_club(actor, *GIRONA_CLUB)
    event = _running_event(
        actor,
        referee,
        club,
        DEMO_CLUB_LEAGUE,
        PAIR_NAMES[13:16],
        **_preset("club_league", boards_per_round=4),
    )
    return _played_out(event, actor, rng, "club_league")


# The presets whose demo event is built here (the others' events are built above).
_PRESET_BUILDERS = {
    "open_swiss": _open_swiss,
    "open_swiss_accelerated": _open_swiss_accelerated,
    "girona_groups": _girona_groups,
    "club_league": _club_league,
}


def _preset_events(report: DemoReport, actor: Actor, referee: Any) -> None:
    """One event per preset (PRESET_EVENTS): those not there yet are built and played out."""
    rng = random.Random(2028)  # its own: the other events' results stay as they were
    for code, name in PRESET_EVENTS.items():
        event = Event.objects.filter(name=name).first()
        if event is None and code in _PRESET_BUILDERS:
            event = _PRESET_BUILDERS[code](actor, referee, rng)
        if event is not None:
            report.presets[code] = event


def _season(actor: Actor, club: Club, rng: random.Random) -> Season:
    """Six finished weekly evenings of the same twelve members, partners changing, their
    ratings computed, and the season that ranks them."""
    members = [Player.objects.create(name=n, club=club) for pair in PAIR_NAMES[:6] for n in pair]
    first = date.today() - timedelta(weeks=7)
    for week in range(6):
        # The circle method: a new partner for everyone each week.
        rest = members[1:]
        circle = [members[0], *rest[week:], *rest[:week]]
        evening = events.event_create(
            actor=actor,
            name=DEMO_SEASON_EVENING % (week + 1),
            club=club,
            date=first + timedelta(weeks=week),
            venue="Casal, sala gran",
            **_preset("duplicate_swiss", rounds_count=2, boards_per_round=3),
        )
        events.registration_open(event=evening, actor=actor)
        for number in range(1, 7):
            a, b = circle[number - 1], circle[12 - number]
            pair = Pair.objects.create(name=f"{a.name} – {b.name}", player1=a, player2=b)
            Entry.objects.create(event=evening, pair=pair, number=number)
        evening = events.event_start(event=evening, actor=actor)
        events.boards_generate(event=evening)
        for number in (1, 2):
            pairings_propose(evening.pk, number, actor=actor)
            rnd = events.round_open(rnd=evening.rounds.get(number=number), actor=actor)
            play_round(rnd, rng)
            events.round_close(rnd=rnd, actor=actor)
        standings_recompute(evening.pk)
        events.event_publish(event=evening, actor=actor)
        events.event_finish(event=Event.objects.get(pk=evening.pk), actor=actor)
    ratings_recompute(club.pk)
    # Some members show their rating to everyone; the others keep the default.
    Player.objects.filter(pk__in=[m.pk for m in members[::2]]).update(
        visibility=Player.Visibility.RATING
    )
    return Season.objects.create(
        club=club,
        name=DEMO_SEASON,
        starts=first,
        ends=first + timedelta(weeks=12),
        point_table=Season.PointTable.FIELD,
        best=4,
    )


def _open_championship(actor: Actor, club: Club) -> Event:
    """An open championship taking sign-ups (the confirmations go to the console)."""
    event = events.event_create(
        actor=actor,
        name=DEMO_OPEN,
        club=club,
        date=date.today() + timedelta(weeks=3),
        venue="Casal, sala gran",
        registration_cap=16,
        fee_amount=Decimal("20.00"),
        fee_instructions="En efectiu a l'entrada.",
    )
    events.registration_open(event=event, actor=actor)
    events.event_publish(event=event, actor=actor)
    for number, (a, b) in enumerate(PAIR_NAMES[8:11], start=1):
        registration_signup(
            event=event, player1=a, player2=b, email=f"parella{number}@exemple.cat", language="ca"
        )
    # Two players without a partner, for the organiser to match on the sign-ups page.
    for number, (name, _partner) in enumerate(PAIR_NAMES[11:13], start=1):
        registration_signup(
            event=event, player1=name, email=f"sol{number}@exemple.cat", language="ca"
        )
    return event


def _running_event(
    actor: Actor,
    referee: Any,
    club: Club,
    name: str,
    pairs: list[tuple[str, str]],
    *,
    clubs: list[str] | None = None,
    ratings: list[int] | None = None,
    **options: Any,
) -> Event:
    """An event started with ``pairs`` registered (of ``clubs``, one a pair, else the event's
    club), seeded by ``ratings`` (one a pair) when given, its boards dealt and published."""
    event = events.event_create(
        actor=actor, name=name, club=club, venue="Casal, sala gran", **options
    )
    roles.role_grant(event=event, actor=actor, identifier=referee.username, role="referee")
    events.registration_open(event=event, actor=actor)
    entries = [
        events.entry_register(
            event=event,
            actor=actor,
            player1=p1,
            player2=p2,
            club=clubs[i] if clubs else club.name,
        )
        for i, (p1, p2) in enumerate(pairs)
    ]
    if ratings:
        pairing_rules.ratings_set(
            event=event,
            actor=actor,
            ratings={e.pk: r for e, r in zip(entries, ratings, strict=True)},
        )
    event = events.event_start(event=event, actor=actor)
    event.refresh_from_db()  # the method may have set the number of rounds
    events.boards_generate(event=event)
    events.event_publish(event=event, actor=actor)
    return event


def table_codes(event: Event) -> list[Table]:
    return list(
        Table.objects.filter(round__event=event, round__status=Round.Status.OPEN)
        .select_related("ns__pair", "ew__pair")
        .order_by("number")
    )


def _team_event(actor: Actor, referee: Any, club: Club, rng: random.Random) -> Event:
    """A Swiss of four teams of four (one of five, with a substitute): rounds 1 and 2 played
    and closed, the team standings and Butler computed."""
    event = events.event_create(
        actor=actor,
        name=DEMO_TEAMS,
        club=club,
        competitor=Event.Competitor.TEAMS,
        rounds_count=3,
        boards_per_round=4,
        date=date.today(),
    )
    event.referees.add(referee)
    events.registration_open(event=event, actor=actor)
    names = [p for pair in PAIR_NAMES for p in pair]
    for k, team in enumerate(TEAM_NAMES):
        players = names[4 * k : 4 * k + 4] + ([names[20]] if k == 0 else [])
        teams.team_register(event=event, actor=actor, name=team, players=players)
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    events.event_publish(event=event, actor=actor)
    for number in (1, 2):
        _play_and_close(event, number, actor, rng)
    standings_recompute(event.pk)
    return event


def _league(actor: Actor, club: Club, rng: random.Random) -> League:
    """A league of four club teams, home and away: three match days played (six games of
    eight hands each match)."""
    league = league_services.league_create(
        actor=actor,
        name=DEMO_LEAGUE,
        club=club,
        games_per_match=6,
        hands_per_game=8,
        published=True,
        starts=date.today() - timedelta(days=21),
    )
    for name in LEAGUE_CLUBS:
        league_services.league_team_add(league=league, actor=actor, name=name, club=name)
    league_services.fixtures_generate(league=league, actor=actor)
    for fixture in league.fixtures.filter(day__lte=3).order_by("day", "pk"):
        for number in range(1, league.games_per_match + 1):
            hands = []
            for _ in range(league.hands_per_game):
                score = rng.choice([0, 2, 4, 6, 8, 10, 14, 20, 36, 72])
                hands.append((score, 0) if rng.random() < 0.5 else (0, score))
            league_services.league_game_enter(
                fixture=fixture, actor=actor, number=number, hands=hands
            )
    return league
