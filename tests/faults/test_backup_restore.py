"""The backup of docs/operations.md, tested: pg_dump -Fc, pg_restore into a fresh database.

An event with confirmed short results, a play record, a dispute and its standings is dumped
with ``pg_dump -Fc`` exactly as the cron line of the guide does, restored with ``pg_restore``
into a new database, and compared: every row of the event's tables is identical, the restored
database needs no migration, and the app pointed at it computes the same standings.
"""

import json
import os
import random
import subprocess
import sys
import uuid

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from engine import random_play
from tests.faults.conftest import ROOT
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import (
    AuditEntry,
    Board,
    BoardResult,
    Dispute,
    Entry,
    Event,
    PlayRecord,
    Round,
    StandingsSnapshot,
    Submission,
    Table,
)
from tournaments.services import results
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

MODELS = (
    Event,
    Entry,
    Round,
    Table,
    Board,
    BoardResult,
    Submission,
    PlayRecord,
    Dispute,
    AuditEntry,
    StandingsSnapshot,
)


def _pg_env() -> dict[str, str]:
    db = settings.DATABASES["default"]
    env = dict(
        os.environ,
        PGHOST=db["HOST"] or "127.0.0.1",
        PGPORT=db["PORT"] or "5432",
        PGUSER=db["USER"] or "postgres",
    )
    if db["PASSWORD"]:
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def _run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(
        argv,
        env=kwargs.pop("env", _pg_env()),
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )
    assert done.returncode == 0, f"{' '.join(argv)}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture
def restored_name(transactional_db):
    name = f"{settings.DATABASES['default']['NAME']}_restored_{uuid.uuid4().hex[:6]}"
    yield name
    _run(["psql", "-q", "-d", "postgres", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'])


def _play_event(event) -> None:
    table1, table2 = event.rounds.get(number=1).tables.order_by("number")
    boards = list(table1.round.board_numbers)
    short = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 41, "EW": 31}}
    for board in boards:
        for side in ("NS", "EW"):
            results.result_submit_short(
                table=table1, board_number=board, actor=Actor(table=table1, side=side), data=short
            )
    played = event.boards.get(number=boards[0])
    record = {
        "format": "botifarra-play/1",
        "ruleset": event.ruleset,
        "deal": {"dealer": played.dealer},
        "choice": {"delegated": False, "trump": "copes"},
        "doubles": [],
        "play": random_play(adapter.deal(played), "copes", adapter.rules(event), random.Random(3)),
    }
    for side in ("NS", "EW"):
        results.result_submit_play_record(
            table=table2,
            board_number=boards[0],
            actor=Actor(table=table2, side=side),
            record=record,
        )
    # Board 2 of table 2: the pairs disagree, a dispute is open.
    results.result_submit_short(
        table=table2, board_number=boards[1], actor=Actor(table=table2, side="NS"), data=short
    )
    results.result_submit_short(
        table=table2,
        board_number=boards[1],
        actor=Actor(table=table2, side="EW"),
        data=dict(short, totals={"NS": 30, "EW": 42}),
    )
    standings_recompute(event.pk)


def _rows(conn, model) -> list[dict]:
    """Every row of the model's table, every column, as PostgreSQL renders it in JSON."""
    table = model._meta.db_table
    with conn.cursor() as cursor:
        cursor.execute(f'SELECT row_to_json(t)::text FROM "{table}" t ORDER BY id')
        return [json.loads(text) for (text,) in cursor.fetchall()]


def test_an_event_restored_from_a_pg_dump_is_identical(running_event, restored_name, tmp_path):
    event = running_event
    _play_event(event)
    assert BoardResult.objects.filter(status="confirmed").count() == 3
    assert Dispute.objects.count() == 1 and PlayRecord.objects.count() == 2
    snapshot = StandingsSnapshot.objects.get(event=event, after_round=1)
    assert snapshot.results_counted == 3

    name = settings.DATABASES["default"]["NAME"]
    dump = tmp_path / "botifarra.dump"
    _run(["pg_dump", "-Fc", "--no-owner", "-d", name, "-f", str(dump)])
    _run(["createdb", restored_name])
    _run(["pg_restore", "--no-owner", "--exit-on-error", "-d", restored_name, str(dump)])

    params = connection.get_connection_params()
    params["dbname"] = restored_name
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(
        **{k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port")}
    ) as copy:
        for model in MODELS:
            original = _rows(connection, model)
            assert original, model.__name__
            assert _rows(copy, model) == original, model.__name__

    # The app runs on the restored database: no migration missing, same standings computed.
    db_url = (
        f"postgres://{params.get('user') or 'postgres'}@{params.get('host') or '127.0.0.1'}:"
        f"{params.get('port') or 5432}/{restored_name}"
    )
    env = dict(os.environ, DATABASE_URL=db_url, DEBUG="1", REDIS_URL="")
    _run([sys.executable, "manage.py", "migrate", "--check", "--no-input"], env=env, cwd=ROOT)
    script = (
        "import json; from dataclasses import asdict; "
        "from django.core.serializers.json import DjangoJSONEncoder; "
        "from tournaments.scoring_io import event_input; from scoring.standings import compute_standings; "
        "from tournaments.models import Event; "
        f"e = Event.objects.get(pk={event.pk}); "
        "print(json.dumps([asdict(s) for s in compute_standings(event_input(e), after_round=1)"
        ".standings], cls=DjangoJSONEncoder))"
    )
    out = _run([sys.executable, "manage.py", "shell", "-c", script], env=env, cwd=ROOT)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == snapshot.rows
