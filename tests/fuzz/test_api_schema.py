"""Schemathesis against the OpenAPI schema (/api/schema/): every operation, called in-process
through the WSGI application with a table token and with an organiser's token, never answers a
5xx (check ``not_a_server_error``), and every answer keeps the published contract
(``tests/contract.py``: its status is listed, its body as described). Path parameters are generated, or taken from the running
event (so that the cases also reach the views behind the 404s).

Bounded by FUZZ_EXAMPLES (25 per operation and principal by default); ``make fuzz`` runs more.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode

from api.authentication import table_token
from config.wsgi import application
from tests import contract
from tests.api.conftest import _fast_passwords, world  # noqa: F401
from tournaments.actors import Actor
from tournaments.models import AttemptCounter, BoardResult, PlayRecord
from tournaments.services import disputes, results

pytestmark = pytest.mark.fuzz

EXAMPLES = max(1, int(os.environ.get("FUZZ_EXAMPLES", "200")) // 8)  # 25 by default
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
SCHEMA.app = application
OPERATIONS = sorted((op.ok() for op in SCHEMA.get_all_operations()), key=lambda o: o.label)
TOTALS = {"cases": 0, "failures": 0}


@pytest.fixture
def wsgi_in_test_transaction(settings):
    """Calls through the WSGI application share the test's transaction, as the test client's
    do: the end of a request must not close the database connection."""
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def api_world(world, wsgi_in_test_transaction):  # noqa: F811
    ns, ew = Actor(table=world.table, side="NS"), Actor(table=world.table, side="EW")
    results.result_submit_short(
        table=world.table,
        board_number=1,
        actor=ns,
        data={"trump": "oros", "totals": {"NS": 40, "EW": 32}},
    )
    result = BoardResult.objects.get(table=world.table, board__number=1)
    world.dispute = disputes.dispute_request(result=result, actor=ew, reason="check")
    world.result = result
    results.result_submit_play_record(
        table=world.table, board_number=2, actor=ns, record=world.record(2)
    )
    world.play_record = PlayRecord.objects.latest("pk")
    return world


def _auth(w, who: str) -> dict[str, str]:
    if who == "table":
        return {"Authorization": f"Table {table_token(w.table, 'EW')}"}
    token, _ = Token.objects.get_or_create(user=w.users[who])
    return {"Authorization": f"Token {token.key}"}


def _real_ids(w, op) -> dict[str, object]:
    path = op.path
    ids = {"id": w.event.pk, "number": 1}
    if path.startswith("/api/v1/rounds/"):
        ids["id"] = w.event.rounds.get(number=1).pk
    elif path.startswith("/api/v1/results/"):
        ids["id"] = w.result.pk
    elif path.startswith("/api/v1/disputes/"):
        ids["id"] = w.dispute.pk
    elif path.startswith("/api/v1/play-records/"):
        ids["id"] = w.play_record.pk
    names = {p.name for p in op.path_parameters}
    return {k: v for k, v in ids.items() if k in names}


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["table", "organiser"])
@pytest.mark.parametrize("op", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_no_operation_answers_a_server_error(api_world, op, who, fuzz_figures):
    headers = _auth(api_world, who)
    real = _real_ids(api_world, op)
    fuzz_figures("schemathesis", "failures", 0)
    # Cases that fit the schema, and cases that do not (wrong types, missing fields...).
    strategy = op.as_strategy() | op.as_strategy(generation_mode=GenerationMode.NEGATIVE)
    if real:
        strategy = st.one_of(strategy, op.as_strategy(path_parameters=real))
    failures = []

    @FUZZ
    @given(case=strategy)
    def run(case):
        cache.clear()  # the attempt counters (Redis and the database): a 429 would hide the view
        AttemptCounter.objects.all().delete()
        case.headers = {**(case.headers or {}), **headers}
        response = case.call(app=application)
        TOTALS["cases"] += 1
        fuzz_figures("schemathesis cases by status", str(response.status_code))
        try:
            case.validate_response(response, checks=[not_a_server_error])
            # The answer keeps the published contract too (status listed, body as described).
            broken = contract.problems(
                case.method,
                case.formatted_path,
                response.status_code,
                response.headers.get("content-type", [""])[0],
                response.content,
            )
            assert not broken, "\n".join(broken)
        except Exception as exc:  # noqa: BLE001 - collected, reported below
            TOTALS["failures"] += 1
            fuzz_figures("schemathesis", "failures")
            failures.append(f"{case.method} {case.formatted_path}: {exc}"[:2000])

    run()
    print(
        f"schemathesis {op.label} as {who}: cases so far {TOTALS['cases']}, "
        f"failures {TOTALS['failures']}"
    )
    assert not failures, "\n".join(failures[:3])
