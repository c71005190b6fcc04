"""The demonstration event of ``manage.py demo``: built through the same services as real use."""

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments import play
from tournaments.actors import Actor
from tournaments.models import (
    Board,
    BoardResult,
    BoardUnlock,
    Club,
    Entry,
    Event,
    Pair,
    Player,
    Round,
    Season,
    Table,
)
from tournaments.scoring_io import stale_events
from tournaments.services import events, results
from tournaments.services.pairings import pairings_propose
from tournaments.services.ratings import ratings_recompute
from tournaments.services.registrations import registration_signup
from tournaments.services.standings import standings_recompute

DEMO_EVENT = "Torneig de demostració"
DEMO_EVENING = "Vespre de club"
DEMO_SEASON = "Temporada de tardor"
DEMO_SEASON_EVENING = "Dijous de club, %d"
DEMO_OPEN = "Obert de tardor"
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
    season: Season | None = None
    open_event: Event | None = None
    notes: list[str] = field(default_factory=list)


def _user(username: str, *, staff: bool = False) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username)
    if created or not user.check_password(PASSWORD):
        user.set_password(PASSWORD)
    user.is_staff = user.is_superuser = staff
    user.save()
    return user


# A round in progress (the console's every state): table -> (boards played, how the last of
# them stands). Table 4 is behind, 5 has a result waiting for confirmation, 6 has not started,
# 7 declared its first board played and owes the result; the others have finished.
IN_PROGRESS = {4: (1, "confirmed"), 5: (2, "entered"), 6: (0, ""), 7: (0, "declared")}


def play_round(
    rnd: Round,
    rng: random.Random,
    *,
    dispute: bool = False,
    illegal: bool = False,
    in_progress: bool = False,
) -> None:
    """Every table enters and confirms its boards; optionally one conflict and one illegal card,
    and (``in_progress``) tables at every stage of the round (``IN_PROGRESS``)."""
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
            data = {"delegated": False, "trump": trump, "doubles": [], "totals": totals}
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


@transaction.atomic
def build_demo() -> DemoReport:
    report = DemoReport()
    organiser = _user("organiser")
    referee = _user("referee")
    _user("admin", staff=True)
    report.logins = [
        ("admin", PASSWORD, "staff: the admin site"),
        ("organiser", PASSWORD, "organiser of the demo events"),
        ("referee", PASSWORD, "referee of the demo events"),
    ]
    club, _ = Club.objects.get_or_create(name="Casal de la Botifarra", defaults={"city": "Vic"})
    club.organisers.add(organiser)  # only a club's organisers create events in its name
    event = Event.objects.filter(name=DEMO_EVENT).first()
    if event is not None:
        report.event = event
        report.evening = Event.objects.filter(name=DEMO_EVENING).first()
        report.notes.append("The demo events already exist; nothing was changed.")
        for stale in stale_events():  # e.g. after an upgrade that stores more per snapshot
            standings_recompute(stale.pk)
        return report
    actor = Actor(user=organiser)
    rng = random.Random(2026)

    # The championship: round 1 played, round 2 in progress (tables at every stage, a dispute
    # and an illegal card for the referee): the console and the room's screen to open.
    event = _running_event(actor, referee, club, DEMO_EVENT, PAIR_NAMES, rounds=4, boards=4)
    for number in (1, 2):
        pairings_propose(event.pk, number, actor=actor)
        rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
        last = number == 2
        play_round(rnd, rng, dispute=last, illegal=last, in_progress=last)
        if not last:
            events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    # A club evening: round 1 closed, standings computed, round 2's pairings proposed and
    # waiting for the organiser to accept them.
    evening = _running_event(actor, referee, club, DEMO_EVENING, PAIR_NAMES[:8], rounds=3, boards=3)
    pairings_propose(evening.pk, 1, actor=actor)
    rnd = events.round_open(rnd=evening.rounds.get(number=1), actor=actor)
    play_round(rnd, rng)
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(evening.pk)
    pairings_propose(evening.pk, 2, actor=actor)
    report.event = event
    report.evening = evening
    report.season = _season(actor, club, rng)
    report.open_event = _open_championship(actor, club)
    return report


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
            rounds_count=2,
            boards_per_round=3,
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
    )
    events.registration_open(event=event, actor=actor)
    events.event_publish(event=event, actor=actor)
    for number, (a, b) in enumerate(PAIR_NAMES[8:11], start=1):
        registration_signup(
            event=event, player1=a, player2=b, email=f"parella{number}@exemple.cat", language="ca"
        )
    return event


def _running_event(
    actor: Actor,
    referee: Any,
    club: Club,
    name: str,
    pairs: list[tuple[str, str]],
    *,
    rounds: int,
    boards: int,
) -> Event:
    event = events.event_create(
        actor=actor,
        name=name,
        club=club,
        venue="Casal, sala gran",
        rounds_count=rounds,
        boards_per_round=boards,
    )
    event.referees.add(referee)
    events.registration_open(event=event, actor=actor)
    for p1, p2 in pairs:
        events.entry_register(event=event, actor=actor, player1=p1, player2=p2, club=club.name)
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    events.event_publish(event=event, actor=actor)
    return event


def table_codes(event: Event) -> list[Table]:
    return list(
        Table.objects.filter(round__event=event, round__status=Round.Status.OPEN)
        .select_related("ns__pair", "ew__pair")
        .order_by("number")
    )
