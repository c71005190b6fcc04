"""tournaments/services/events.py: the life of an event, its boards, pairs and rounds."""

import json
import subprocess
import sys

import pytest

import engine
from tests.factories import EventFactory, PairFactory, UserFactory
from tournaments import play as adapter
from tournaments import selectors
from tournaments.actors import Actor
from tournaments.models import AuditEntry, Board, Entry, Event, Round, Table
from tournaments.services import NotAllowed, ServiceError, changes, clubs, events
from tournaments.services.results import result_submit_short

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


def _entries(event, n):
    return [
        Entry.objects.create(event=event, pair=PairFactory(), number=i) for i in range(1, n + 1)
    ]


# --- the state machine ---------------------------------------------------------------------------


def test_event_create_makes_the_creator_an_organiser(organiser, actor):
    event = events.event_create(actor=actor, name="Festa Major", game_target=51)
    assert event.status == Event.Status.DRAFT
    assert event.is_organiser(organiser)
    assert event.commitment == engine.commitment(event.seed)


def test_event_create_needs_a_login():
    with pytest.raises(NotAllowed, match="Log in"):
        events.event_create(actor=Actor(), name="X")


def test_registration_opens_only_from_draft(organiser, actor):
    event = EventFactory(organisers=[organiser])
    events.registration_open(event=event, actor=actor)
    assert event.status == Event.Status.REGISTRATION
    with pytest.raises(ServiceError, match="Cannot open registration: the event is registration"):
        events.registration_open(event=event, actor=actor)


def test_only_organisers_change_an_event(organiser):
    event = EventFactory(organisers=[organiser])
    referee = UserFactory()
    event.referees.add(referee)
    with pytest.raises(NotAllowed, match="Only the organisers"):
        events.registration_open(event=event, actor=Actor(user=referee))


def test_start_needs_two_pairs(organiser, actor):
    event = EventFactory(organisers=[organiser], status="registration")
    _entries(event, 1)
    with pytest.raises(ServiceError, match="At least two pairs"):
        events.event_start(event=event, actor=actor)


def test_start_closes_registration_and_deals_every_board(
    organiser, actor, django_capture_on_commit_callbacks
):
    event = EventFactory(organisers=[organiser], status="registration")
    _entries(event, 4)
    with django_capture_on_commit_callbacks(execute=True):
        events.event_start(event=event, actor=actor)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert event.boards.count() == event.total_boards == event.boards_ready
    with pytest.raises(ServiceError, match="Cannot register pairs: the event is running"):
        events.entry_register(event=event, actor=actor, player1="A", player2="B")
    with pytest.raises(ServiceError, match="Cannot start the event: the event is running"):
        events.event_start(event=event, actor=actor)


def test_finish_refused_while_a_round_is_open(running_event, actor):
    with pytest.raises(ServiceError, match="Close the open round first"):
        events.event_finish(event=running_event, actor=actor)


def test_finish_reveals_the_seed(running_event, actor):
    rnd = running_event.rounds.get(number=1)
    assert running_event.public_seed is None
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    events.event_finish(event=running_event, actor=actor)
    assert running_event.status == Event.Status.FINISHED
    assert running_event.public_seed == running_event.seed
    assert running_event.finished_at is not None
    with pytest.raises(ServiceError, match="Cannot finish the event: the event is finished"):
        events.event_finish(event=running_event, actor=actor)


def test_publish_and_unpublish_are_audited(running_event, actor):
    events.event_publish(event=running_event, actor=actor, published=True)
    assert Event.objects.get(pk=running_event.pk).published
    events.event_publish(event=running_event, actor=actor, published=False)
    assert not Event.objects.get(pk=running_event.pk).published
    assert AuditEntry.objects.filter(event=running_event, action="event_published").count() == 2


# --- event_update --------------------------------------------------------------------------------


def test_options_change_before_the_start(organiser, actor):
    event = EventFactory(organisers=[organiser], status="registration")
    events.event_update(event=event, actor=actor, game_target=51, deal_limit=5)
    event.refresh_from_db()
    assert (event.game_target, event.deal_limit) == (51, 5)
    assert AuditEntry.objects.get(event=event, action="event_updated").changes["game_target"] == [
        "101",
        "51",
    ]


def test_options_are_refused_once_running(running_event, actor):
    with pytest.raises(ServiceError, match="cannot change once the event has started"):
        events.event_update(event=running_event, actor=actor, boards_per_round=9)
    events.event_update(
        event=running_event,
        actor=actor,
        name="Renamed",
        venue="Casal",
        game_target=running_event.game_target,
    )
    running_event.refresh_from_db()
    assert running_event.name == "Renamed"
    assert running_event.boards_per_round == 2


def test_club_for_reuses_a_club_whatever_the_case(actor):
    club = clubs.club_for(name="Casal de Reus", actor=actor)
    assert clubs.club_for(name="casal de reus", actor=actor) == club
    assert clubs.club_for(name="  ", actor=actor) is None


# --- boards --------------------------------------------------------------------------------------


def test_boards_equal_the_engine_deal_for_the_same_seed(organiser, actor):
    event = EventFactory(
        organisers=[organiser], seed="Reus 2025", rounds_count=2, boards_per_round=3
    )
    assert events.boards_generate(event=event, progress_every=2) == 6
    for board in Board.objects.filter(event=event):
        expected = engine.deal_board("Reus 2025", board.number).to_json()
        assert {"board": board.number, "dealer": board.dealer, "hands": board.hands} == expected
        assert adapter.matches_seed(board)
    event.refresh_from_db()
    assert event.boards_ready == 6


def test_boards_equal_the_command_line_deal(organiser):
    event = EventFactory(organisers=[organiser], seed="Festa 7", rounds_count=1, boards_per_round=2)
    events.boards_generate(event=event)
    out = subprocess.run(
        [sys.executable, "-m", "engine", "deal", "--seed", "Festa 7", "--boards", "1-2"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    stored = [
        {"board": b.number, "dealer": b.dealer, "hands": b.hands}
        for b in Board.objects.filter(event=event).order_by("number")
    ]
    assert [json.loads(line) for line in out] == stored


def test_boards_generate_twice_creates_nothing_new(organiser):
    event = EventFactory(organisers=[organiser])
    events.boards_generate(event=event)
    assert events.boards_generate(event=event) == 0
    assert event.boards.count() == event.total_boards


def test_commitment_matches_the_seed(organiser):
    event = EventFactory(organisers=[organiser], seed="Sant Jordi")
    out = subprocess.run(
        [sys.executable, "-m", "engine", "commit", "--seed", "Sant Jordi"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert event.commitment == engine.commitment("Sant Jordi") == out.strip('"')


# --- pairs and CSV -------------------------------------------------------------------------------


def test_register_numbers_pairs_in_order(organiser, actor):
    event = EventFactory(organisers=[organiser])
    a = events.entry_register(event=event, actor=actor, player1="Anna", player2="Jordi")
    b = events.entry_register(
        event=event, actor=actor, player1="Marta", player2="Pere", name="Els Rapids", club="Reus"
    )
    assert (a.number, a.pair.name) == (1, "Anna – Jordi")
    assert (b.number, b.pair.name, b.pair.club.name) == (2, "Els Rapids", "Reus")


def test_csv_parse_reports_every_bad_line():
    text = (
        "player1,player2,name,club\n"
        "Anna,Jordi,,Reus\n"
        "Solo\n"
        "\n"
        "Marta,Pere,Els Rapids\n"
        "a,b,c,d,e\n"
        "Laia,Joan,els rapids\n"
    )
    preview = events.pairs_csv_parse(text)
    assert [r.line for r in preview.rows] == [2, 5]
    assert [line for line, _m in preview.errors] == [3, 6, 7]
    messages = dict(preview.errors)
    assert messages[3] == "Two player names are needed."
    assert "Too many columns" in messages[6]
    assert "already appears on line 5" in messages[7]
    assert not preview.ok


def test_csv_parse_accepts_semicolons_and_no_header():
    preview = events.pairs_csv_parse("Anna;Jordi;;Reus\nMarta;Pere;;\n")
    assert preview.ok
    assert [(r.player1, r.club) for r in preview.rows] == [("Anna", "Reus"), ("Marta", "")]


def test_csv_parse_reads_lines_ending_in_a_carriage_return_alone():
    """Old Mac spreadsheets end lines with CR only: read as lines, not one unreadable line."""
    preview = events.pairs_csv_parse("player1,player2\rAnna,Jordi\rMarta,Pere\r")
    assert preview.ok, preview.errors
    assert [(r.line, r.player1) for r in preview.rows] == [(2, "Anna"), (3, "Marta")]


def test_csv_parse_reads_the_header_after_a_byte_order_mark():
    """A spreadsheet's "CSV UTF-8" starts with U+FEFF: pasted on the page or sent to the API
    (only an uploaded file was decoded without it), its header was registered as a pair."""
    preview = events.pairs_csv_parse("\ufeffplayer1,player2,name,club\nAnna,Jordi,,\n")
    assert preview.ok, preview.errors
    assert [r.player1 for r in preview.rows] == ["Anna"]


def test_csv_parse_takes_the_header_on_the_first_line_with_text():
    """A header after an empty line (or an empty spreadsheet row) is not a pair "player1 –
    player2"."""
    for text in ("\nplayer1,player2\nAnna,Jordi\n", ",,,\nplayer1,player2\nAnna,Jordi\n"):
        preview = events.pairs_csv_parse(text)
        assert preview.ok, preview.errors
        assert [r.player1 for r in preview.rows] == ["Anna"]


def test_publishing_what_is_already_published_records_nothing(organiser, actor):
    event = EventFactory(organisers=[organiser])
    assert not event.published
    events.event_publish(event=event, actor=actor, published=False)
    assert not AuditEntry.objects.filter(event=event, action="event_published").exists()
    events.event_publish(event=event, actor=actor, published=True)
    events.event_publish(event=event, actor=actor, published=True)
    [entry] = AuditEntry.objects.filter(event=event, action="event_published")
    assert entry.changes == {"published": [False, True]}


def test_csv_parse_of_an_empty_file():
    preview = events.pairs_csv_parse("\n\n")
    assert preview.errors == [(0, "The file holds no pairs.")]


def test_csv_import_registers_nothing_when_a_line_is_wrong(organiser, actor):
    event = EventFactory(organisers=[organiser])
    with pytest.raises(ServiceError, match="Line 2: Two player names are needed"):
        events.entries_import_csv(event=event, actor=actor, text="Anna,Jordi\nSolo\n")
    assert not event.entries.exists()
    created = events.entries_import_csv(event=event, actor=actor, text="Anna,Jordi\nMarta,Pere\n")
    assert [e.number for e in created] == [1, 2]


# --- withdrawal ----------------------------------------------------------------------------------


def test_withdraw_before_the_start_removes_the_pair(organiser, actor):
    event = EventFactory(organisers=[organiser], status="registration")
    entry = events.entry_register(event=event, actor=actor, player1="A", player2="B")
    changes.entry_withdraw(entry=entry, actor=actor)
    assert not event.entries.exists()


def test_withdraw_while_running_keeps_the_pair_after_the_last_closed_round(running_event, actor):
    rnd = running_event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    entry = running_event.entries.get(number=4)
    changes.entry_withdraw(entry=entry, actor=actor)
    entry.refresh_from_db()
    assert entry.withdrawn_after_round == 1
    with pytest.raises(ServiceError, match="already withdrawn"):
        changes.entry_withdraw(entry=entry, actor=actor)


# --- rounds --------------------------------------------------------------------------------------


def test_table_codes_are_unique_within_a_round(organiser, actor):
    event = EventFactory(organisers=[organiser], status="registration")
    entries = _entries(event, 40)
    event = events.event_start(event=event, actor=actor)
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[(entries[i].pk, entries[i + 1].pk) for i in range(0, 40, 2)],
    )
    codes = [c for pair in rnd.tables.values_list("code_ns", "code_ew") for c in pair]
    assert len(codes) == 40 == len(set(codes))
    assert all(len(c) == 6 and set(c) <= set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for c in codes)


def test_a_table_code_is_useless_after_its_round_closes(running_event, actor):
    table = Table.objects.get(round__event=running_event, round__number=1, number=1)
    rnd = table.round
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    table.refresh_from_db()
    table_actor = Actor(table=table, side="NS")
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    with pytest.raises(ServiceError, match="Round 1 is not open for results"):
        result_submit_short(table=table, board_number=1, actor=table_actor, data=data)


def test_propose_checks_every_pair_plays_once(running_event, actor):
    e = list(running_event.entries.order_by("number"))
    # Round 1 closed: round 2 may be proposed, and only its pairings are then in question.
    events.round_close(rnd=running_event.rounds.get(number=1), actor=actor, accept_missing=True)
    with pytest.raises(ServiceError, match="A pair appears twice"):
        events.round_propose(
            event=running_event,
            actor=actor,
            number=2,
            tables=[(e[0].pk, e[1].pk), (e[0].pk, e[3].pk)],
        )
    with pytest.raises(ServiceError, match="Every active pair must play"):
        events.round_propose(
            event=running_event, actor=actor, number=2, tables=[(e[0].pk, e[1].pk)]
        )
    with pytest.raises(ServiceError, match="This event has 3 rounds"):
        events.round_propose(
            event=running_event,
            actor=actor,
            number=4,
            tables=[(e[0].pk, e[1].pk), (e[2].pk, e[3].pk)],
        )


def test_propose_refused_while_the_previous_round_is_open(running_event, actor):
    e = list(running_event.entries.order_by("number"))
    with pytest.raises(ServiceError, match="Close round 1 first"):
        events.round_propose(
            event=running_event,
            actor=actor,
            number=2,
            tables=[(e[0].pk, e[2].pk), (e[1].pk, e[3].pk)],
        )


def test_an_open_round_cannot_be_proposed_again_or_reopened(running_event, actor):
    e = list(running_event.entries.order_by("number"))
    with pytest.raises(ServiceError, match="Round 1 is already open"):
        events.round_propose(
            event=running_event,
            actor=actor,
            number=1,
            tables=[(e[0].pk, e[2].pk), (e[1].pk, e[3].pk)],
        )
    with pytest.raises(ServiceError, match="This round is already open"):
        events.round_open(rnd=running_event.rounds.get(number=1), actor=actor)


def test_swap_exchanges_two_pairs_and_the_bye(organiser, actor):
    event = EventFactory(organisers=[organiser], status="registration")
    e = _entries(event, 5)
    event = events.event_start(event=event, actor=actor)
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[(e[0].pk, e[1].pk), (e[2].pk, e[3].pk)],
        bye=e[4].pk,
    )
    events.round_swap(rnd=rnd, actor=actor, entry_a=e[0].pk, entry_b=e[3].pk)
    t1, t2 = rnd.tables.order_by("number")
    assert (t1.ns_id, t1.ew_id, t2.ns_id, t2.ew_id) == (e[3].pk, e[1].pk, e[2].pk, e[0].pk)
    events.round_swap(rnd=rnd, actor=actor, entry_a=e[4].pk, entry_b=e[1].pk)
    rnd.refresh_from_db()
    assert rnd.bye_id == e[1].pk
    assert rnd.tables.get(number=1).ew_id == e[4].pk
    with pytest.raises(ServiceError, match="not in this round"):
        events.round_swap(rnd=rnd, actor=actor, entry_a=e[0].pk, entry_b=999_999)


def test_swap_refused_once_the_round_is_open(running_event, actor):
    rnd = running_event.rounds.get(number=1)
    e = list(running_event.entries.order_by("number"))
    with pytest.raises(ServiceError, match="Only a round that is not open yet"):
        events.round_swap(rnd=rnd, actor=actor, entry_a=e[0].pk, entry_b=e[2].pk)


def test_open_refused_while_the_boards_are_being_dealt(organiser, actor):
    event = EventFactory(organisers=[organiser], status="running")
    e = _entries(event, 2)
    rnd = events.round_propose(event=event, actor=actor, number=1, tables=[(e[0].pk, e[1].pk)])
    with pytest.raises(ServiceError, match="still being generated"):
        events.round_open(rnd=rnd, actor=actor)
    events.boards_generate(event=event)
    rnd = events.round_open(rnd=rnd, actor=actor)
    assert rnd.status == Round.Status.OPEN


def test_close_refused_while_results_are_missing_then_accepted(running_event, actor):
    rnd = running_event.rounds.get(number=1)
    assert [(t.number, b) for t, b in selectors.round_missing(rnd)] == [(1, [1, 2]), (2, [1, 2])]
    with pytest.raises(ServiceError, match="missing or unconfirmed at tables 1, 2") as exc:
        events.round_close(rnd=rnd, actor=actor)
    assert exc.value.field == "results"
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.OPEN
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert AuditEntry.objects.get(event=running_event, action="round_closed").note
    with pytest.raises(ServiceError, match="Only an open round can be closed"):
        events.round_close(rnd=rnd, actor=actor)
