"""Garbage of many shapes posted to every POST endpoint: never a 500, and a refused request
changes nothing that is stored. Bounded (FUZZ_EXAMPLES, 200 by default, per endpoint; `make fuzz`
runs 5000)."""

import copy
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.actors import Actor
from tournaments.models import (
    BoardResult,
    Dispute,
    IdempotentResponse,
    PlayRecord,
    Ruling,
    Submission,
)
from tournaments.services import disputes, results

pytestmark = pytest.mark.fuzz  # `make fuzz` runs it with FUZZ_EXAMPLES=5000

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

PLAUSIBLE = [
    "NS",
    "EW",
    "N",
    "E",
    "S",
    "W",
    "oros",
    "copes",
    "botifarra",
    "contro",
    "recontro",
    "sant_vicenc",
    "accept",
    "penalty",
    "corrected",
    "adjusted",
    "avg",
    "avg_plus",
    "botifarra-play/1",
    "lliure",
    "obligada",
    "1o",
    "12e",
    "",
    " ",
    "1",
    0,
    1,
    2,
    3,
    36,
    72,
    -1,
    2**31,
    2**63,
    10**30,
    1.5,
    True,
    False,
    None,
    [],
    {},
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(PLAUSIBLE)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["NS", "EW", "seat", "call"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)

KEYS = {
    "/api/v1/results": [
        "table",
        "board",
        "delegated",
        "trump",
        "doubles",
        "totals",
        "offending_pair",
        "version",
        "score",
    ],
    "confirm": ["version"],
    "/api/v1/play-records": ["table", "board", "record", "version"],
    "/api/v1/verify": ["record", "event", "board"],
    "/api/v1/disputes": ["result", "reason"],
    "rule": ["kind", "explanation", "data"],
    "withdraw": ["reason"],
    "/api/v1/table-token": ["code", "side"],
    "/api/v1/auth/token": ["username", "password"],
}
DATA_KEYS = [
    "submission",
    "offending_pair",
    "trump",
    "delegated",
    "doubles",
    "totals",
    "play_record",
    "adjusted_ns",
    "adjusted_ew",
    "score",
]


def shaped(keys: list[str], ids: list[int]) -> st.SearchStrategy:
    value = json_values | st.sampled_from(ids)
    return st.fixed_dictionaries({}, optional=dict.fromkeys(keys, value))


def mutated_record(record: dict) -> st.SearchStrategy:
    def mutate(args):
        where, garbage, index = args
        out = copy.deepcopy(record)
        if where == "play":
            out["play"][index % len(out["play"])] = garbage
        elif where in ("deal.dealer", "choice.trump", "choice.delegated"):
            a, b = where.split(".")
            out[a][b] = garbage
        elif where == "cut":
            out["play"] = out["play"][: index % 48]
        else:
            out[where] = garbage
        return out

    return st.tuples(
        st.sampled_from(
            [
                "play",
                "deal.dealer",
                "choice.trump",
                "choice.delegated",
                "cut",
                "format",
                "ruleset",
                "deal",
                "choice",
                "doubles",
                "play",
            ]
        ),
        json_values,
        st.integers(min_value=0, max_value=100),
    ).map(mutate)


def stored() -> tuple:
    return (
        list(BoardResult.objects.order_by("pk").values()),
        Submission.objects.count(),
        PlayRecord.objects.count(),
        list(Dispute.objects.order_by("pk").values("pk", "status")),
        Ruling.objects.count(),
        IdempotentResponse.objects.count(),
    )


@pytest.fixture
def fuzz_world(world):
    """Board 1 confirmed, board 2 entered by NS and disputed by EW (an open player request)."""
    ns, ew = Actor(table=world.table, side="NS"), Actor(table=world.table, side="EW")
    data = {"trump": "oros", "totals": {"NS": 40, "EW": 32}}
    for board in (1, 2):
        results.result_submit_short(table=world.table, board_number=board, actor=ns, data=data)
    results.result_submit_short(table=world.table, board_number=1, actor=ew, data=data)
    second = BoardResult.objects.get(board__number=2)
    world.dispute = disputes.dispute_request(result=second, actor=ew, reason="check")
    world.results = list(BoardResult.objects.order_by("pk"))
    return world


def _check(client, url: str, body, raw: bytes | None = None, key: str | None = None) -> None:
    before = stored()
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    content = raw if raw is not None else json.dumps(body).encode()
    response = client.post(url, content, content_type="application/json", **extra)
    assert response.status_code < 500, (url, body, raw, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    if response.status_code >= 400:
        assert stored() == before, (url, body, response.status_code)


ENDPOINTS = [
    ("/api/v1/results", "table"),
    ("confirm", "table"),
    ("/api/v1/play-records", "table"),
    ("/api/v1/verify", "anonymous"),
    ("/api/v1/disputes", "table"),
    ("rule", "referee"),
    ("withdraw", "table"),
    ("/api/v1/table-token", "anonymous"),
    ("/api/v1/auth/token", "anonymous"),
]


@pytest.mark.parametrize(("endpoint", "who"), ENDPOINTS, ids=[e for e, _ in ENDPOINTS])
def test_garbage_never_gives_a_500_nor_changes_anything(fuzz_world, endpoint, who):
    world = fuzz_world
    url = {
        "confirm": f"/api/v1/results/{world.results[1].pk}/confirm",
        "rule": f"/api/v1/disputes/{world.dispute.pk}/rule",
        "withdraw": f"/api/v1/disputes/{world.dispute.pk}/withdraw",
    }.get(endpoint, endpoint)
    ids = [
        world.table.pk,
        world.other.pk,
        world.event.pk,
        world.dispute.pk,
        *[r.pk for r in world.results],
        *[s.pk for s in Submission.objects.all()],
    ]
    client = world.client(who)
    keys = KEYS[endpoint]
    bodies = json_values | shaped(keys, ids)
    if endpoint in ("/api/v1/play-records", "/api/v1/verify"):
        record = world.record(1)
        if endpoint == "/api/v1/verify":
            record["deal"]["hands"] = world.board(1).hands
        bodies = bodies | st.builds(
            lambda r, extra: {"table": world.table.pk, "board": 1, "record": r} | extra,
            mutated_record(record),
            shaped(["version", "event"], ids),
        )
    if endpoint == "rule":
        bodies = bodies | st.fixed_dictionaries(
            {
                "kind": st.sampled_from(["accept", "penalty", "corrected", "adjusted"]),
                "explanation": st.text(max_size=5),
            },
            optional={
                "data": st.fixed_dictionaries(
                    {}, optional={k: json_values | st.sampled_from(ids) for k in DATA_KEYS}
                )
            },
        )

    @FUZZ
    @given(
        body=bodies, raw=st.none() | st.binary(max_size=40), key=st.none() | st.text(max_size=10)
    )
    def run(body, raw, key):
        _check(client, url, body, raw, key)

    run()
