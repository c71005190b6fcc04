"""The director's console under a championship round, on the real stack, loopback only.

Same stack and event as ``load_round.py`` (gunicorn, a Celery worker, PostgreSQL, Redis; 400
pairs at 200 tables, 6 boards): while the 200 tables enter and confirm their results through the
REST API, five consoles (organisers' browsers) poll the round's console fragment as the page's
script does (every second, with If-None-Match). For every result, the time from its store (the
201 answer to the table) to each console's first fragment showing it is one sample.

Prints one figure a line: console_update_p50_ms, console_update_p95_ms (the issue's figure,
target below 2,000 ms), console_poll_p95_ms (one console request), console_not_modified_share
(the share of polls answered 304), console_samples, errors_5xx.

Environment: as load_round.py (LOAD_DATABASE_URL, LOAD_REDIS_URL, LOAD_WEB_WORKERS,
LOAD_THINK_S), plus CONSOLES (default 5) and CONSOLE_POLL_S (default 1.0, the page's
``data-live-every``).
"""

import os
import random
import re
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks import load_round as stack  # noqa: E402

CONSOLES = int(os.environ.get("CONSOLES", "5"))
POLL_S = float(os.environ.get("CONSOLE_POLL_S", "1.0"))
CELL = re.compile(r'data-cell="(\d+)-(\d+)" data-state="(\w+)"')
NOT_YET = {"not_started", "missing"}


def organiser_cookie(event) -> str:
    """A logged-in session of the event's organiser, made as Django's login makes one."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    user = event.organisers.get()
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


class Console(threading.Thread):
    """One organiser's console: polls the fragment and notes when each cell first changes."""

    def __init__(self, port: int, path: str, cookie: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.cookie, self.stop = port, path, cookie, stop
        self.seen: dict[tuple[int, int], float] = {}
        self.polls: list[float] = []
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        etag = None
        time.sleep(random.uniform(0, POLL_S))  # consoles opened at different moments
        while not self.stop.is_set():
            started = time.perf_counter()
            headers = {"Cookie": self.cookie, "Accept": "text/html"}
            if etag:
                headers["If-None-Match"] = etag
            conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                conn.request("GET", self.path, headers=headers)
                response = conn.getresponse()
                body = response.read()
                status = response.status
            except OSError:
                status, body = 0, b""
            finally:
                conn.close()
            now = time.perf_counter()
            self.polls.append(now - started)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 200:
                etag = response.getheader("ETag")
                for table, board, state in CELL.findall(body.decode()):
                    key = (int(table), int(board))
                    if state not in NOT_YET and key not in self.seen:
                        self.seen[key] = now
            self.stop.wait(max(0.0, POLL_S - (now - started)))


def play_table(client, table_id: int, number: int, codes: dict, boards: list, stored: dict):
    """One table: NS enters each board, EW confirms it, then the table thinks."""
    rng = random.Random(table_id)
    stack.pause(rng, 0, stack.START_SPREAD_S)
    tokens = {}
    for side in ("NS", "EW"):
        status, body = client.post("/api/v1/table-token", {"code": codes[side]})
        if status != 200:
            return
        tokens[side] = body["token"]
    for board in boards:
        totals = rng.choice([t for t in range(20, 53) if t != 36])
        data = {
            "table": table_id,
            "board": board,
            "delegated": False,
            "trump": "oros",
            "doubles": [],
            "totals": {"NS": totals, "EW": 72 - totals},
        }
        status, body = client.post("/api/v1/results", data, tokens["NS"], uuid.uuid4().hex)
        if status not in (200, 201):
            continue
        stored[(number, board)] = time.perf_counter()
        stack.pause(rng, 0.5, 2.0)
        client.post(f"/api/v1/results/{body['id']}/confirm", {}, tokens["EW"], uuid.uuid4().hex)
        stack.pause(rng, 0.5 * stack.THINK_S, 1.5 * stack.THINK_S)


def main() -> int:
    stack.fresh_services()
    event, tables = stack.build_event()
    from tournaments.models import Table

    numbers = dict(Table.objects.filter(round__event=event).values_list("pk", "number"))
    boards = list(event.board_numbers(1))
    cookie = organiser_cookie(event)
    port = stack.free_port()
    procs = stack.start_stack(port)
    stop = threading.Event()
    consoles = [
        Console(port, f"/manage/{event.pk}/rounds/1/console/", cookie, stop)
        for _ in range(CONSOLES)
    ]
    try:
        for console in consoles:
            console.start()
        client = stack.Client(port)
        stored: dict[tuple[int, int], float] = {}
        with ThreadPoolExecutor(max_workers=len(tables)) as pool:
            for future in [
                pool.submit(play_table, client, pk, numbers[pk], codes, boards, stored)
                for pk, codes in tables
            ]:
                future.result()
        # Let the consoles catch up with the last results.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(set(stored) <= set(c.seen) for c in consoles):
            time.sleep(0.2)
    finally:
        stop.set()
        for console in consoles:
            console.join(timeout=35)
        stack.stop(procs)
    samples = [
        max(0.0, console.seen.get(key, float("inf")) - at)
        for key, at in stored.items()
        for console in consoles
    ]
    polls = [p for c in consoles for p in c.polls]
    statuses: dict[int, int] = {}
    for console in consoles:
        for status, n in console.statuses.items():
            statuses[status] = statuses.get(status, 0) + n
    errors = sum(n for s, n in statuses.items() if s >= 500 or s == 0)
    errors += sum(n for s, n in client.statuses.items() if s >= 500)
    total = sum(statuses.values())
    print(f"console_update_p50_ms: {stack.percentile(samples, 0.50):.0f} ms")
    print(f"console_update_p95_ms: {stack.percentile(samples, 0.95):.0f} ms")
    print(f"console_poll_p95_ms: {stack.percentile(polls, 0.95):.1f} ms")
    print(f"console_not_modified_share: {statuses.get(304, 0) / max(1, total):.2f} of polls")
    print(f"console_samples: {len(samples)} result-console pairs")
    print(f"errors_5xx: {errors} responses")
    return 0 if errors == 0 and all(s != float("inf") for s in samples) else 1


if __name__ == "__main__":
    sys.exit(main())
