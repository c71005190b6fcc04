"""Match limits per event and the round clock, through the services and the database: the game
ends at the target, the deal limit or time, whichever comes first; the boards it did not reach
are not owed and do not count; draws are half a win or broken by tie-break deals (docs/scoring.md
§1.1, docs/organisers.md "Match limits" and "The round clock")."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.standings import compute_standings
from tests.conftest import start_four_pairs
from tournaments import scoring_io, selectors
from tournaments.actors import Actor
from tournaments.clock import OVER, PAUSED, RUNNING, round_clock
from tournaments.models import AuditEntry, Event, Round
from tournaments.services import ServiceError, clock
from tournaments.services.results import (
    board_declare_played,
    result_confirm,
    result_submit_short,
)

pytestmark = pytest.mark.django_db


def _game_event(organiser, **options):
    """A running game-mode event of 4 pairs (open-Swiss limits unless told), round 1 open."""
    values = {
        "match_mode": "game",
        "game_target": 101,
        "game_cap": 121,
        "deal_limit": 3,
        "draw": "half",
        "boards_per_round": 5,
        "rounds_count": 2,
        "round_minutes": 50,
        "status": "registration",
    }
    return start_four_pairs(organiser, **(values | options))


def _enter(table, board, ns_total, trump="oros"):
    """A confirmed hand: NS took ``ns_total`` card points (R9: the side over 36 scores)."""
    data = {
        "delegated": False,
        "trump": trump,
        "doubles": [],
        "totals": {"NS": ns_total, "EW": 72 - ns_total},
    }
    stored = result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
    )
    result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


def _table(event, number=1):
    return event.rounds.get(number=1).tables.select_related("round__event").get(number=number)


def _match(event, table_number=1):
    data = scoring_io.event_input(event)
    result = compute_standings(data)
    return next(m for m in result.matches if m.table == table_number)


def _owed(event):
    return {t.number: boards for t, boards in selectors.round_missing(event.rounds.get(number=1))}


def test_101_reached_first_ends_the_game_and_the_cap_limits_what_counts(organiser):
    event = _game_event(organiser)
    t1 = _table(event)
    _enter(t1, 1, 70, trump="botifarra")  # NS 68
    _enter(t1, 2, 70, trump="botifarra")  # NS 136: over 101 after two deals
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.boards_played, m.mp_ns, m.final) == (121, 0, 2, 2, True)
    assert 1 not in _owed(event)  # boards 3–5 are not owed
    cells = selectors.round_tables(event.rounds.get(number=1))[0].cells
    assert [c.state for c in cells] == ["confirmed", "confirmed"] + ["not_played"] * 3


def test_deal_limit_reached_first_the_pair_ahead_wins(organiser):
    event = _game_event(organiser)
    t1 = _table(event)
    for board, ns in zip((1, 2, 3), (46, 30, 40), strict=True):  # NS 10, EW 6, NS 4
        _enter(t1, board, ns)
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.boards_played, m.mp_ns, m.mp_ew) == (14, 6, 3, 2, 0)
    assert 1 not in _owed(event)
    # The table cannot enter a board after the limit (it would see cards other tables may be
    # playing); one the organiser enters does not count.
    with pytest.raises(ServiceError, match="board 4 is not played"):
        _enter(t1, 4, 10)
    with pytest.raises(ServiceError, match="board 5 is not played"):
        board_declare_played(table=t1, board_number=5, actor=Actor(table=t1, side="EW"))
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 10, "EW": 62}}
    stored = result_submit_short(table=t1, board_number=4, actor=Actor(user=organiser), data=data)
    result_confirm(result=stored.result, actor=Actor(table=t1, side="NS"))
    assert _match(event).total_ew == 6


def test_a_level_game_is_half_a_win_each(organiser):
    event = _game_event(organiser, draw="half")
    t1 = _table(event)
    for board, ns in zip((1, 2, 3), (40, 32, 36), strict=True):  # NS 4, EW 4, nothing
        _enter(t1, board, ns)
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.mp_ns, m.mp_ew, m.final) == (4, 4, 1, 1, True)
    assert 1 not in _owed(event)


def test_a_level_game_plays_the_tie_break_deals(organiser):
    event = _game_event(organiser, draw="tiebreak", tiebreak_deals=2)
    t1 = _table(event)
    for board, ns in zip((1, 2, 3), (40, 32, 36), strict=True):
        _enter(t1, board, ns)
    assert _owed(event)[1] == [4, 5]  # level after 3: both tie-break deals are owed
    assert not _match(event).final
    _enter(t1, 4, 30)  # EW 6
    _enter(t1, 5, 40)  # NS 4: EW ahead after the tie-break deals
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.boards_played, m.mp_ns, m.mp_ew) == (8, 10, 5, 0, 2)


def test_time_called_first_counts_the_deal_in_progress_only(organiser):
    event = _game_event(organiser, deal_limit=5)
    rnd = event.rounds.get(number=1)
    actor = Actor(user=organiser)
    started = timezone.now() - datetime.timedelta(minutes=55)
    clock.clock_start(rnd=rnd, actor=actor, now=started)  # 50 minutes: over 5 minutes ago
    t1 = _table(event)
    _enter(t1, 1, 46)  # NS 10
    clock.table_time_called(table=t1, actor=Actor(table=t1, side="EW"), deal=2)
    assert _owed(event)[1] == [2]  # the deal in progress is still owed, 3–5 are not
    _enter(t1, 2, 30)  # EW 6
    t1.refresh_from_db()
    m = _match(event)
    assert (t1.time_after, m.total_ns, m.total_ew, m.boards_played, m.mp_ns) == (2, 10, 6, 2, 2)
    assert 1 not in _owed(event)
    assert AuditEntry.objects.filter(event=event, action="table_time_called").exists()
    # The referee sees that table 1 finished after time (its results came 5 minutes late).
    late = selectors.tables_after_time(Round.objects.get(pk=rnd.pk))
    assert [(x.table.number, x.minutes_over >= 5) for x in late] == [(1, True)]


def _time_called_level(organiser, **options):
    """Round 1's clock over, table 1 level after two deals (NS 4, EW 4), time called in deal 2."""
    event = _game_event(organiser, deal_limit=None, boards_per_round=6, **options)
    started = timezone.now() - datetime.timedelta(hours=1)
    clock.clock_start(rnd=event.rounds.get(number=1), actor=Actor(user=organiser), now=started)
    t1 = _table(event)
    _enter(t1, 1, 40)  # NS 4
    _enter(t1, 2, 32)  # EW 4
    clock.table_time_called(table=t1, actor=Actor(table=t1, side="EW"), deal=2)
    t1.refresh_from_db()
    return event, t1


def test_time_then_level_the_tie_break_deals_are_played_and_decide(organiser):
    """docs/scoring.md §1.1: time only shortens the regular deals; tie-break deals are played
    after time."""
    event, t1 = _time_called_level(
        organiser, draw="tiebreak", tiebreak_deals=2, game_target=None, game_cap=None
    )
    assert _owed(event)[1] == [3, 4, 5, 6]  # the tie-break deals, then sudden death
    assert not _match(event).final
    _enter(t1, 3, 30)  # EW 6: the table plays its first tie-break deal
    _enter(t1, 4, 40)  # NS 4: EW ahead after both
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.boards_played) == (8, 10, 4)
    assert (m.mp_ns, m.mp_ew, m.final) == (0, 2, True)
    assert 1 not in _owed(event)
    with pytest.raises(ServiceError, match="board 5 is not played"):
        _enter(t1, 5, 46)


def test_time_then_level_plays_on_until_one_pair_scores(organiser):
    """R12 (draw "play on", the club presets): level at time, play on deal by deal."""
    event, t1 = _time_called_level(organiser, draw="play_on")
    assert not _match(event).final
    _enter(t1, 3, 36)  # nobody scores: still level
    assert _owed(event)[1] == [4, 5, 6]
    _enter(t1, 4, 46)  # NS 10
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.mp_ns, m.mp_ew, m.final) == (14, 4, 2, 0, True)
    assert 1 not in _owed(event)


def test_time_then_level_is_a_draw_when_draws_stand(organiser):
    event, t1 = _time_called_level(organiser, draw="half")
    m = _match(event)
    assert (m.total_ns, m.total_ew, m.mp_ns, m.mp_ew, m.final) == (4, 4, 1, 1, True)
    assert 1 not in _owed(event)
    with pytest.raises(ServiceError, match="board 3 is not played"):
        _enter(t1, 3, 46)


@pytest.mark.parametrize(
    "draw, says",
    [
        ("tiebreak", "If your game is level then, it goes on with the next boards"),
        ("play_on", "If your game is level then, it goes on with the next boards"),
        ("half", "finish and enter that deal; the later boards are not played."),
    ],
)
def test_the_table_page_says_whether_a_level_game_goes_on_after_time(client, organiser, draw, says):
    _event, t1 = _time_called_level(organiser, draw=draw)
    client.post(reverse("table:enter"), {"code": t1.code_ns})
    page = client.get(reverse("table:table_home", args=[t1.code_ns])).content.decode()
    notice = page[page.index('id="time-called"') :]
    assert says in notice[: notice.index("</p>")]


def test_the_table_cannot_call_time_before_the_clock_is_over(organiser):
    event = _game_event(organiser)
    rnd = event.rounds.get(number=1)
    clock.clock_start(rnd=rnd, actor=Actor(user=organiser))
    t1 = _table(event)
    with pytest.raises(ServiceError) as err:
        clock.table_time_called(table=t1, actor=Actor(table=t1, side="NS"), deal=1)
    assert err.value.field == "deal"
    t1.refresh_from_db()
    assert t1.time_after is None


def test_time_cannot_be_called_before_a_board_with_a_result(organiser):
    event = _game_event(organiser)
    t1 = _table(event)
    _enter(t1, 1, 40)
    _enter(t1, 2, 40)
    with pytest.raises(ServiceError, match="Board 2 already has a result"):
        clock.table_time_called(table=t1, actor=Actor(user=organiser), deal=1)


def test_the_clock_starts_pauses_resumes_and_extends_each_audited(organiser):
    event = _game_event(organiser)
    actor = Actor(user=organiser)
    rnd = event.rounds.get(number=1)
    t0 = timezone.now()
    assert round_clock(rnd, now=t0).state == "not_started"
    rnd = clock.clock_start(rnd=rnd, actor=actor, now=t0)
    assert (round_clock(rnd, now=t0).state, round_clock(rnd, now=t0).seconds_left) == (
        RUNNING,
        50 * 60,
    )
    rnd = clock.clock_pause(rnd=rnd, actor=actor, now=t0 + datetime.timedelta(minutes=10))
    later = t0 + datetime.timedelta(hours=2)  # paused: the time left does not move
    assert (round_clock(rnd, now=later).state, round_clock(rnd, now=later).seconds_left) == (
        PAUSED,
        40 * 60,
    )
    rnd = clock.clock_extend(rnd=rnd, actor=actor, minutes=5, now=later)
    rnd = clock.clock_start(rnd=rnd, actor=actor, now=later)
    assert round_clock(rnd, now=later).seconds_left == 45 * 60
    assert round_clock(rnd, now=later + datetime.timedelta(minutes=45)).state == OVER
    actions = list(
        AuditEntry.objects.filter(event=event, action__startswith="clock_").values_list(
            "action", flat=True
        )
    )
    assert actions == ["clock_started", "clock_paused", "clock_extended", "clock_resumed"]


def test_clock_refusals_are_messages_and_change_nothing(client, organiser):
    event = _game_event(organiser, round_minutes=None)
    client.force_login(organiser)
    url = reverse("tournaments:round_clock", args=[event.pk, 1, "start"])
    response = client.post(url, {"minutes": "abc"}, follow=True)
    assert response.status_code == 200
    assert "Give a whole number of minutes from 1 to 600." in response.content.decode()
    assert event.rounds.get(number=1).clock_ends_at is None
    response = client.post(reverse("tournaments:round_clock", args=[event.pk, 1, "pause"]))
    assert response.status_code == 302
    assert event.rounds.get(number=1).clock_ends_at is None
    client.post(url, {"minutes": "30"})
    assert round_clock(event.rounds.get(number=1)).state == RUNNING


def test_the_table_page_asks_when_time_was_called_once_it_is_over(client, organiser):
    event = _game_event(organiser)
    rnd = event.rounds.get(number=1)
    clock.clock_start(
        rnd=rnd, actor=Actor(user=organiser), now=timezone.now() - datetime.timedelta(hours=1)
    )
    t1 = _table(event)
    _enter(t1, 1, 46)
    code = t1.code_ns
    client.post(reverse("table:enter"), {"code": code})
    page = client.get(reverse("table:table_home", args=[code])).content.decode()
    assert 'id="time-form"' in page and "Time is up" in page
    response = client.post(reverse("table:table_time", args=[code]), {"deal": "2"})
    assert response.status_code == 302
    t1.refresh_from_db()
    assert t1.time_after == 2
    page = client.get(reverse("table:table_home", args=[code])).content.decode()
    assert 'id="time-called"' in page and 'id="time-form"' not in page


def test_the_organiser_sets_or_corrects_the_deal_of_a_table(client, organiser):
    event = _game_event(organiser)
    clock.clock_start(rnd=event.rounds.get(number=1), actor=Actor(user=organiser))
    client.force_login(organiser)
    url = reverse("tournaments:round_clock", args=[event.pk, 1, "time"])
    page = client.get(reverse("tournaments:round_detail", args=[event.pk, 1])).content.decode()
    assert 'id="set-time"' in page and 'data-clock-state="running"' in page
    client.post(url, {"table": "2", "deal": "3"})
    client.post(url, {"table": "2", "deal": "4"})  # a correction: the organiser may
    assert _table(event, 2).time_after == 4
    response = client.post(url, {"table": "9", "deal": "1"}, follow=True)
    assert "There is no such table in this round." in response.content.decode()
    changes = [
        a.changes["time_after"]
        for a in AuditEntry.objects.filter(event=event, action="table_time_called")
    ]
    assert changes == [[None, 3], [3, 4]]


def test_the_referee_queue_and_the_console_list_tables_finished_after_time(client, organiser):
    event = _game_event(organiser)
    rnd = event.rounds.get(number=1)
    ago = timezone.now() - datetime.timedelta(minutes=58)
    clock.clock_start(rnd=rnd, actor=Actor(user=organiser), now=ago)  # over 8 minutes ago
    _enter(_table(event, 2), 1, 46)
    client.force_login(organiser)
    queue = client.get(reverse("referee:queue", args=[event.pk])).content.decode()
    assert 'data-late-table="2"' in queue and 'data-late-table="1"' not in queue
    assert "has not said when time was called" in queue
    console = client.get(reverse("tournaments:round_console", args=[event.pk, 1])).content.decode()
    assert 'id="late-tables"' in console and 'data-late-table="2"' in console


def test_the_api_gives_the_rounds_clock_and_the_tables_time(client, organiser):
    event = _game_event(organiser)
    Event.objects.filter(pk=event.pk).update(published=True)
    rnd = event.rounds.get(number=1)
    clock.clock_start(rnd=rnd, actor=Actor(user=organiser))
    rounds = client.get(reverse("api:event_rounds", args=[event.pk])).json()["results"]
    assert rounds[0]["clock"]["state"] == "running"
    assert 49 * 60 < rounds[0]["clock"]["seconds_left"] <= 50 * 60
    clock.table_time_called(table=_table(event), actor=Actor(user=organiser), deal=2)
    url = reverse("api:round_tables", args=[rnd.pk])

    def times():
        tables = client.get(url).json()["results"]
        return [t["time_after"] for t in sorted(tables, key=lambda t: t["number"])]

    assert times() == [None, None]  # the open round's progress is the staff's (fair play)
    client.force_login(organiser)
    assert times() == [2, None]


def test_an_event_without_a_time_limit_has_no_seconds_left_in_the_api(client, organiser):
    event = _game_event(organiser, round_minutes=0)
    Event.objects.filter(pk=event.pk).update(published=True)
    rounds = client.get(reverse("api:event_rounds", args=[event.pk])).json()["results"]
    assert rounds[0]["clock"] == {"state": "none", "seconds_left": None, "ends_at": None}


@pytest.mark.parametrize("paused", [False, True])
def test_more_time_reaches_the_table_phones(client, organiser, running_event, paused):
    """The phone swaps in the refreshed boards (with the countdown) when their stamp changes:
    "Give more time" moves the clock's end and nothing else, so the stamp must change too."""
    import re

    actor = Actor(user=organiser)
    rnd = running_event.rounds.get(number=1)
    clock.clock_start(rnd=rnd, actor=actor, minutes=10)
    if paused:
        rnd.refresh_from_db()
        clock.clock_pause(rnd=rnd, actor=actor)
    table = rnd.tables.get(number=1)
    assert client.post(reverse("table:enter"), {"code": table.code_ns}).status_code == 302
    url = reverse("table:board_list", args=[table.code_ns])

    def page_stamp():
        return re.search(r'data-stamp="([^"]+)"', client.get(url).content.decode()).group(1)

    before = page_stamp()
    assert page_stamp() == before  # nothing changed: the phone keeps its page
    rnd.refresh_from_db()
    clock.clock_extend(rnd=rnd, actor=actor, minutes=5)
    assert page_stamp() != before
