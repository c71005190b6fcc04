"""Redis stopped while the tables submit results: every result is stored, the standings catch up.

The web app runs in a subprocess (``manage.py runserver``) against the test database and a
private redis-server that the test kills and starts again. Table 1 uses the table pages, table 2
the API. While Redis is down every submission must be stored and confirmed, /healthz must say
so, and the standings must say they are stale; once Redis is back and a worker runs,
``celery call tournaments.tasks.catch_up_standings`` (or the next counted result) brings the
standings up to date with every result.
"""

import time
import uuid

import pytest
import requests

from scoring.standings import compute_standings
from tests.conftest import wait_for
from tests.faults.conftest import TABLE_FORM, manage
from tournaments import scoring_io
from tournaments.models import BoardResult, Event, StandingsSnapshot, Submission

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

API_RESULT = {"trump": "copes", "delegated": False, "doubles": [], "totals": {"NS": 44, "EW": 28}}
SLOW = 10.0  # seconds: a submission slower than this while Redis is down is a failure too


class WebSide:
    """One pair's phone on the table pages (a session with its CSRF cookie)."""

    def __init__(self, base: str, code: str, side: str) -> None:
        self.base, self.code = base, code
        self.http = requests.Session()
        self.http.headers["Accept-Language"] = "en"
        assert self.http.get(f"{base}/table/", timeout=10).status_code == 200
        response = self.post("/table/", {"code": code})
        assert response.status_code == 302, response.text[:500]

    def post(self, path: str, data: dict, follow: bool = False) -> requests.Response:
        data = dict(data, csrfmiddlewaretoken=self.http.cookies.get("csrftoken", ""))
        return self.http.post(
            self.base + path,
            data=data,
            allow_redirects=follow,
            timeout=30,
            headers={"Referer": self.base + path},
        )

    def submit(self, board: int) -> requests.Response:
        return self.post(f"/table/{self.code}/board/{board}/", TABLE_FORM, follow=True)


class ApiSide:
    """One pair's device on the API (a table token)."""

    def __init__(self, base: str, code: str, side: str) -> None:
        self.base = base
        response = requests.post(
            f"{base}/api/v1/table-token", json={"code": code, "side": side}, timeout=10
        )
        assert response.status_code == 200, response.text[:500]
        self.token = response.json()["token"]

    def submit(self, table_id: int, board: int) -> requests.Response:
        return requests.post(
            f"{self.base}/api/v1/results",
            json=dict(API_RESULT, table=table_id, board=board),
            headers={"Authorization": f"Table {self.token}", "Idempotency-Key": str(uuid.uuid4())},
            timeout=30,
        )


def timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def standings_note(base: str, event_id: int, http=requests) -> str:  # noqa: ANN001
    response = http.get(
        f"{base}/e/{event_id}/standings/?fragment=1", timeout=10, headers={"Accept-Language": "en"}
    )
    assert response.status_code == 200, response.text[:500]
    return response.text


def health(base: str) -> requests.Response:
    return requests.get(f"{base}/healthz", timeout=10)


def snapshot_counted(event) -> int:
    snap = StandingsSnapshot.objects.filter(event=event, after_round=1).first()
    return snap.results_counted if snap else -1


def organiser_session(base: str) -> requests.Session:
    http = requests.Session()
    http.headers["Accept-Language"] = "en"
    assert http.get(f"{base}/accounts/login/", timeout=10).status_code == 200
    response = http.post(
        f"{base}/accounts/login/",
        allow_redirects=False,
        timeout=10,
        data={
            "username": "organiser",
            "password": "pass-word-123",
            "csrfmiddlewaretoken": http.cookies.get("csrftoken", ""),
        },
    )
    assert response.status_code == 302, response.text[:500]
    return http


def test_results_are_kept_while_redis_is_down_and_standings_catch_up(
    running_event, organiser, private_redis, app_server, workers
):
    event = running_event
    Event.objects.filter(pk=event.pk).update(published=True)
    table1, table2 = event.rounds.get(number=1).tables.order_by("number")
    boards = list(table1.round.board_numbers)
    redis_url = private_redis.url(0)
    app_server.start(redis_url=redis_url)
    base = app_server.url
    assert health(base).status_code == 200

    # The devices joined their tables before the outage (their sessions live in the database).
    web = {side: WebSide(base, table1.code_for(side), side) for side in ("NS", "EW")}
    api = {side: ApiSide(base, table2.code_for(side), side) for side in ("NS", "EW")}
    boss = organiser_session(base)

    private_redis.stop()
    down = health(base)
    assert down.status_code == 503
    assert down.json()["checks"]["redis"] == "down" and down.json()["checks"]["database"] == "ok"

    # Table 1 enters and confirms both boards on the pages; table 2 confirms board 1 and only
    # enters board 2 (its confirmation comes after the outage).
    for board in boards:
        for side in ("NS", "EW"):
            response, seconds = timed(lambda side=side, board=board: web[side].submit(board))
            assert response.status_code == 200 and response.history[0].status_code == 302, (
                response.text[:500]
            )
            assert seconds < SLOW
    for board, sides in ((boards[0], ("NS", "EW")), (boards[1], ("NS",))):
        for side in sides:
            response, seconds = timed(
                lambda side=side, board=board: api[side].submit(table2.pk, board)
            )
            assert response.status_code in (200, 201), response.text[:500]
            assert seconds < SLOW

    stored = BoardResult.objects.filter(table__round__event=event)
    assert stored.filter(status=BoardResult.Status.CONFIRMED).count() == 3
    assert stored.filter(status=BoardResult.Status.ENTERED).count() == 1
    assert Submission.objects.filter(result__table__round__event=event).count() == 7
    event.refresh_from_db()
    assert scoring_io.standings_stale(event)
    assert not StandingsSnapshot.objects.filter(event=event).exists()
    # Nothing can be queued while the broker is down: the page says the standings may be out of
    # date, and promises no recomputation.
    # (To the organiser, who follows the open round live; the public, shown no standings while
    # no round is closed, is told nothing of the open round's results.)
    note = standings_note(base, event.pk, boss)
    assert "may be out of date" in note and "being updated" not in note
    assert "may be out of date" not in standings_note(base, event.pk)
    assert health(base).status_code == 503
    # An organiser already logged in follows the event and reaches the tables' pages.
    assert boss.get(f"{base}/manage/{event.pk}/", timeout=10).status_code == 200
    assert boss.get(f"{base}/table/{table2.code_ns}/", timeout=10).status_code == 200

    # Redis comes back (empty: it kept nothing), a worker starts, the operator runs catch-up.
    private_redis.start()
    assert wait_for(lambda: health(base).status_code == 200, timeout=20)
    worker = workers.start(redis_url=redis_url)
    call = manage(
        [".venv/bin/celery", "-A", "config", "call", "tournaments.tasks.catch_up_standings"],
        redis_url=redis_url,
    )
    assert call.returncode == 0, call.stderr
    assert wait_for(lambda: snapshot_counted(event) == 3, timeout=30), worker.text()[-3000:]
    event.refresh_from_db()
    assert not scoring_io.standings_stale(event)
    note = standings_note(base, event.pk, boss)
    assert "being updated" not in note and "may be out of date" not in note

    # The next counted result queues its own recomputation: all four are in.
    response = api["EW"].submit(table2.pk, boards[1])
    assert response.status_code == 200 and response.json()["status"] == "confirmed", response.text
    assert wait_for(lambda: snapshot_counted(event) == 4, timeout=30), worker.text()[-3000:]
    event.refresh_from_db()
    assert not scoring_io.standings_stale(event)
    snap = StandingsSnapshot.objects.get(event=event, after_round=1)
    direct = compute_standings(scoring_io.event_input(event), after_round=1)
    assert [(r["entry"], r["rank"]) for r in snap.rows] == [
        (s.entry, s.rank) for s in direct.standings
    ]


def _form_post(base: str, path: str, data: dict) -> int:
    http = requests.Session()
    assert http.get(base + path, timeout=10).status_code == 200
    data = dict(data, csrfmiddlewaretoken=http.cookies.get("csrftoken", ""))
    return http.post(base + path, data=data, allow_redirects=False, timeout=30).status_code


def test_a_table_can_join_while_redis_is_down(running_event, private_redis, app_server):
    """The table code's attempt counter fails open: a new device still joins its table."""
    table = running_event.rounds.get(number=1).tables.order_by("number").first()
    app_server.start(redis_url=private_redis.url(0))
    private_redis.stop()
    assert _form_post(app_server.url, "/table/", {"code": table.code_ns}) == 302


def test_organisers_and_api_clients_can_sign_in_while_redis_is_down(
    running_event, organiser, private_redis, app_server
):
    table = running_event.rounds.get(number=1).tables.order_by("number").first()
    app_server.start(redis_url=private_redis.url(0))
    private_redis.stop()
    base = app_server.url
    logged_in = _form_post(
        base, "/accounts/login/", {"username": "organiser", "password": "pass-word-123"}
    )
    token = requests.post(
        f"{base}/api/v1/table-token", json={"code": table.code_ns, "side": "NS"}, timeout=30
    ).status_code
    assert (logged_in, token) == (302, 200)
