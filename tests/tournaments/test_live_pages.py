"""The live evening's pages (issue 14): the round console and the referee queue answer 304 while
nothing changed and the new state when something did; the room's screen shows what the room
may see, whoever opens it."""

import pytest
from django.urls import reverse

from tournaments.actors import Actor
from tournaments.models import Entry
from tournaments.services import events
from tournaments.services.results import result_confirm, result_submit_short

pytestmark = pytest.mark.django_db

DATA = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def _table(event, number=1):
    return event.rounds.get(number=1).tables.get(number=number)


def _enter(table, board, side="NS", data=DATA):
    return result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side=side), data=data
    )


def test_console_answers_304_until_a_result_arrives(logged_in, running_event):
    url = reverse("tournaments:round_console", args=[running_event.pk, 1])
    first = logged_in.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and 'data-cell="1-1" data-state="not_started"' in (
        first.content.decode()
    )
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    _enter(_table(running_event), 1)
    changed = logged_in.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert 'data-cell="1-1" data-state="entered"' in changed.content.decode()


def test_console_shows_a_new_dispute_with_a_link_to_it(logged_in, running_event):
    table = _table(running_event)
    _enter(table, 2)
    _enter(table, 2, side="EW", data=DATA | {"totals": {"NS": 30, "EW": 42}})
    html = logged_in.get(reverse("tournaments:round_console", args=[running_event.pk, 1]))
    text = html.content.decode()
    dispute = table.results.get(board__number=2).disputes.get()
    assert f'data-announce-id="dispute-{dispute.pk}"' in text
    assert reverse("referee:dispute", args=[dispute.pk]) in text
    assert 'data-cell="1-2" data-state="disputed"' in text


def test_referee_queue_fragment_changes_when_a_dispute_arrives(client, running_event, referee):
    client.force_login(referee)
    url = reverse("referee:queue_fragment", args=[running_event.pk])
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    table = _table(running_event)
    _enter(table, 1)
    _enter(table, 1, side="EW", data=DATA | {"totals": {"NS": 30, "EW": 42}})
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    dispute = table.results.get(board__number=1).disputes.get()
    assert reverse("referee:dispute", args=[dispute.pk]) in changed.content.decode()


def test_tables_falling_behind_are_flagged(client, organiser):
    from tests.factories import EventFactory, PairFactory

    # Six tables: five finished both boards, one has entered nothing.
    actor = Actor(user=organiser)
    event = EventFactory(organisers=[organiser], status="registration")
    entries = [
        Entry.objects.create(event=event, pair=PairFactory(), number=n) for n in range(1, 13)
    ]
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[(entries[2 * i].pk, entries[2 * i + 1].pk) for i in range(6)],
    )
    rnd = events.round_open(rnd=rnd, actor=actor)
    for table in rnd.tables.exclude(number=6):
        for board in (1, 2):
            stored = _enter(table, board)
            result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    client.force_login(organiser)
    rows = client.get(reverse("tournaments:round_detail", args=[event.pk, 1])).context["rows"]
    assert [row.table.number for row in rows if row.behind] == [6]


def test_screen_lists_the_open_rounds_players_alphabetically_with_table_and_direction(
    client, running_event
):
    running_event.published = True
    running_event.save()
    page = client.get(reverse("public:screen", args=[running_event.pk]))
    seats = page.context["seats"]
    names = [s.player for s in seats]
    assert names == sorted(names, key=str.casefold) and len(names) == 8
    table = _table(running_event)
    anna = next(s for s in seats if s.player == table.ew.pair.player1.name)
    assert (anna.table, anna.direction) == (1, "EW")
    assert "find your table" in page.content.decode()


def test_screen_never_shows_the_open_rounds_scores_even_to_an_organiser(logged_in, running_event):
    table = _table(running_event)
    for board in (1, 2):
        stored = _enter(table, board)
        result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    # The organiser's own standings page shows the open round live ...
    standings = logged_in.get(reverse("public:standings", args=[running_event.pk]))
    assert standings.context["view"].after_round == 1
    # ... the room's screen does not, even opened from the organiser's laptop.
    screen = logged_in.get(reverse("public:screen", args=[running_event.pk]))
    assert screen.context["standing_rows"] == []
    assert "Standings after round" not in screen.content.decode()


@pytest.mark.parametrize(("every", "seconds"), [("5", 5), ("0", 2), ("9999", 120), ("x", 12)])
def test_screen_rotation_is_bounded(client, running_event, every, seconds):
    running_event.published = True
    running_event.save()
    page = client.get(reverse("public:screen", args=[running_event.pk]), {"every": every})
    assert f'data-rotate-every="{seconds * 1000}"' in page.content.decode()
