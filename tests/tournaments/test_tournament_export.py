"""The tournament file export (docs/formats.md): an event played through the services, with a
late entry, a requested bye, the clock and a forfeit, downloads as a BTF file that the
independent checker (``python -m scoring check``) re-derives without a difference; the file holds
the seed, so only the organisers get it before the event is finished."""

import datetime
import subprocess
import sys

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from scoring.tournament_file import loads
from tests.factories import EventFactory, PairFactory
from tournaments.actors import Actor
from tournaments.models import Entry
from tournaments.services import changes, clock, events, late_entries, pairings
from tournaments.services.results import result_confirm, result_submit_short

pytestmark = pytest.mark.django_db


def _enter(table, board, ns_total):
    data = {
        "delegated": False,
        "trump": "oros",
        "doubles": [],
        "totals": {"NS": ns_total, "EW": 72 - ns_total},
    }
    stored = result_submit_short(
        table=table, board_number=board, actor=Actor(table=table, side="NS"), data=data
    )
    result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))


def _play(rnd, *, skip=()):
    rnd.refresh_from_db()
    for table in rnd.tables.all():
        if table.number in skip:
            continue
        reached = list(rnd.board_numbers)[: table.time_after]  # time: later boards not played
        for i, board in enumerate(reached):
            _enter(table, board, 20 + (table.number * 7 + i * 11 + rnd.number * 5) % 33)


@pytest.fixture
def played_event(organiser):
    """Three game-mode rounds of 6 pairs and a late entry; pair 2 sits out round 3."""
    actor = Actor(user=organiser)
    event = EventFactory(
        organisers=[organiser],
        status="registration",
        published=True,
        match_mode="game",
        game_target=101,
        deal_limit=4,
        game_cap=121,
        rounds_count=3,
        boards_per_round=4,
        late_entry_points=1,
        requested_bye_points=1,
        round_minutes=45,
    )
    for i in range(1, 7):
        Entry.objects.create(event=event, pair=PairFactory(), number=i)
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()

    pairings.pairings_propose(event.pk, 1)
    rnd1 = event.rounds.get(number=1)
    events.round_open(rnd=rnd1, actor=actor)
    late_entries.late_entry_register(event=event, actor=actor, player1="Late", player2="Comer")
    late_entries.bye_request_add(entry=event.entries.get(number=2), actor=actor, round_number=3)
    # The clock ran out at table 1 during its second deal.
    clock.clock_start(rnd=rnd1, actor=actor, now=timezone.now() - datetime.timedelta(minutes=50))
    t1 = rnd1.tables.get(number=1)
    clock.table_time_called(table=t1, actor=Actor(table=t1, side="NS"), deal=2)
    _play(rnd1)
    events.round_close(rnd=rnd1, actor=actor, accept_missing=True)

    pairings.pairings_propose(event.pk, 2)
    rnd2 = event.rounds.get(number=2)
    events.round_open(rnd=rnd2, actor=actor)
    _play(rnd2, skip=(3,))
    # The pair at table 3 leaves during the round: its match is forfeited.
    # Not pair 2, whose requested bye of round 3 would go with it (docs/scoring.md §4).
    leaving = rnd2.tables.get(number=3)
    changes.entry_withdraw(entry=leaving.ns if leaving.ns.number != 2 else leaving.ew, actor=actor)
    events.round_close(rnd=rnd2, actor=actor, accept_missing=True)

    pairings.pairings_propose(event.pk, 3)
    rnd3 = event.rounds.get(number=3)
    events.round_open(rnd=rnd3, actor=actor)
    _play(rnd3)
    events.round_close(rnd=rnd3, actor=actor)
    return event


def test_an_exported_event_checks_clean(client, organiser, played_event, tmp_path):
    events.event_finish(event=played_event, actor=Actor(user=organiser))
    response = client.get(reverse("public:export_tournament_file", args=[played_event.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="event-{played_event.pk}.btf"'
    text = response.content.decode()
    t = loads(text)
    # What the file must carry for the checker to re-derive the rounds.
    assert t.event.seed == played_event.seed
    assert [x.round for x in t.event.late_entries] == [2]
    assert [(x.round, x.match_points) for x in t.event.bye_requests] == [(3, 1)]
    assert t.event.rounds[0].tables[0].time_after == 2
    assert any(tr.forfeited_by for tr in t.event.rounds[1].tables)
    assert (t.event.match_mode, t.event.deal_limit, t.event.game_cap) == ("game", 4, 121)
    path = tmp_path / "event.btf"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "scoring", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
    )
    assert (run.returncode, run.stdout) == (0, ""), run.stdout + run.stderr
    assert "3 rounds checked, 0 differences" in run.stderr


def test_a_pairing_changed_by_hand_is_reported_by_the_checker(organiser, played_event, tmp_path):
    from tournaments.tournament_export import tournament_file_text

    rnd3 = played_event.rounds.get(number=3)
    t1, t2 = rnd3.tables.order_by("number")[:2]
    # Exchange two pairs of round 3 behind the program's back.
    ns1, ns2 = t1.ns, t2.ns
    t1.ns, t2.ns = ns2, ns1
    type(t1).objects.bulk_update([t1, t2], ["ns"])
    path = tmp_path / "event.btf"
    path.write_text(tournament_file_text(played_event), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "scoring", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
    )
    assert run.returncode == 1
    assert "round 3 table 1: table:" in run.stdout


def test_nobody_has_the_file_before_the_event_is_finished(client, organiser, played_event):
    url = reverse("public:export_tournament_file", args=[played_event.pk])
    response = client.get(url)
    assert response.status_code == 403 and played_event.seed.encode() not in response.content
    client.force_login(organiser)  # the seed is secret from the organisers too
    response = client.get(url)
    assert response.status_code == 403 and played_event.seed.encode() not in response.content
    events.event_finish(event=played_event, actor=Actor(user=organiser))
    response = client.get(url)
    assert response.status_code == 200 and f"SEED {played_event.seed}" in response.content.decode()


@pytest.fixture(params=["swiss", "roundrobin"])
def reinstated_event(request, organiser):
    """Eight pairs, three rounds; pair 3 withdraws before round 2 and is reinstated before 3."""
    actor = Actor(user=organiser)
    event = EventFactory(
        organisers=[organiser],
        status="registration",
        format=request.param,
        round_robin="rounds",  # a round robin of the three rounds set, not the whole field
        rounds_count=3,
        boards_per_round=2,
    )
    for i in range(1, 9):
        Entry.objects.create(event=event, pair=PairFactory(), number=i)
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()
    for number in (1, 2, 3):
        if number == 2:
            changes.entry_withdraw(entry=event.entries.get(number=3), actor=actor)
        if number == 3:
            changes.entry_reinstate(entry=event.entries.get(number=3), actor=actor)
        pairings.pairings_propose(event.pk, number)
        rnd = event.rounds.get(number=number)
        events.round_open(rnd=rnd, actor=actor)
        _play(rnd)
        events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    events.event_finish(event=event, actor=actor)
    return event


def _check(text, tmp_path):
    path = tmp_path / "event.btf"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "scoring", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
    )


def test_a_pair_withdrawn_then_reinstated_checks_clean(reinstated_event, tmp_path):
    """Round 2 was paired without pair 3 (it had withdrawn): the file says so (``missed=2``),
    and the checker re-derives round 2 without it."""
    from tournaments.models import AuditEntry
    from tournaments.tournament_export import tournament_file_text

    back = reinstated_event.entries.get(number=3)
    assert back.withdrawn_after_round is None and back.missed_rounds == [2]
    reinstated = AuditEntry.objects.get(event=reinstated_event, action="entry_reinstated")
    assert reinstated.changes["missed_rounds"] == [[], [2]]
    text = tournament_file_text(reinstated_event)
    assert f"PAIR {back.pk} 3 missed=2" in text
    run = _check(text, tmp_path)
    assert (run.returncode, run.stdout) == (0, ""), run.stdout + run.stderr
    # Without the line's "missed", the checker seats the pair in round 2: differences.
    run = _check(text.replace(" missed=2", ""), tmp_path)
    assert run.returncode == 1 and "round 2" in run.stdout


def test_the_archive_keeps_the_rounds_a_reinstated_pair_missed(reinstated_event, organiser):
    from tournaments import archive
    from tournaments.services import ServiceError
    from tournaments.services.archive import event_import

    document = archive.event_archive(reinstated_event, exported_at=timezone.now())
    rows = {p["number"]: p for p in document["pairs"]}
    assert rows[3]["missed_rounds"] == [2] and "missed_rounds" not in rows[1]
    assert archive.schema_problems(document) == []
    for row in document["pairs"]:
        row["club"] = None  # the factory's clubs have no organiser here: not this test's matter
    document["event"]["club"] = None
    imported = event_import(document=document, actor=Actor(user=organiser))
    assert imported.entries.get(number=3).missed_rounds == [2]
    # A missed round where the archive seats the pair, or that it does not hold: refused.
    for wrong in ([1], [7]):
        rows[3]["missed_rounds"] = wrong
        with pytest.raises(ServiceError) as refused:
            event_import(document=document, actor=Actor(user=organiser))
        assert refused.value.field == "pairs"
