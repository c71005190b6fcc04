"""The attempt counter under attack, on the real stack: how many guesses get through.

Starts gunicorn (4 processes × 8 threads, DEBUG off, static files collected) against PostgreSQL
with ``TRUSTED_PROXIES=1``, so that each scenario poses as a client of its own through
``X-Forwarded-For``, and creates a running event with open tables. Then, for each store of the
counter — Redis, and the database (the server restarted with its REDIS_URL on a closed port, as
when Redis dies) — it measures:

- ``*_wrong_before_refusal``: wrong secrets answered, one after the other, before the first
  refusal, on each route (table-code form, table token, site login, account token, admin login);
- ``*_parallel_processed``: of ``*_parallel_sent`` wrong secrets sent at the same instant from
  one client, spread over the routes of that secret (web and API codes; site, API and admin
  logins), how many were processed rather than refused (the limit is the most that may pass);
- ``*_admin_logged_in_after_40_wrong``: 40 wrong admin passwords, then the right one: 1 if it
  logged in (it must not within the window), 0 if refused.

Prints one figure a line, ``name: value unit``. Environment: ATTEMPTS_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/botifarra_attempts, a database it drops and re-creates),
ATTEMPTS_REDIS_URL (default redis://127.0.0.1:6379/12, flushed).
"""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.stack import production_env  # noqa: E402

DATABASE_URL = os.environ.get(
    "ATTEMPTS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/botifarra_attempts"
)
REDIS_URL = os.environ.get("ATTEMPTS_REDIS_URL", "redis://127.0.0.1:6379/12")
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens there: the counter falls back
PASSWORD = "right-pass-word-4321"
ENV = production_env(
    database_url=DATABASE_URL,
    redis_url=REDIS_URL,
    secret="attempts-benchmark",
    TRUSTED_PROXIES="1",
    LOG_LEVEL="ERROR",
)
os.environ.update({k: ENV[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY")})
os.environ.update({k: ENV[k] for k in ("ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")})


def manage(*args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=ENV, check=True)


def fresh_services() -> None:
    import psycopg
    import redis

    url = urlparse(DATABASE_URL)
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.path[1:]}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{url.path[1:]}"')
    redis.Redis.from_url(REDIS_URL).flushdb()
    manage("migrate", "--no-input", "-v", "0")
    manage("collectstatic", "--no-input", "-v", "0")


def build_world() -> str:
    """Users for every scenario and a running event; the code of one open table."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments.actors import Actor
    from tournaments.models import Entry, Pair, Player
    from tournaments.services import events

    users = get_user_model().objects
    organiser = users.create_user("organiser", password=PASSWORD)
    for n in range(40):
        users.create_user(f"user{n}", password=PASSWORD, is_staff=True, is_superuser=True)
    actor = Actor(user=organiser)
    event = events.event_create(actor=actor, name="Attempts", rounds_count=1, boards_per_round=1)
    events.registration_open(event=event, actor=actor)
    for i in range(4):
        p1, p2 = Player.objects.create(name=f"A{i}"), Player.objects.create(name=f"B{i}")
        pair = Pair.objects.create(name=f"Pair {i}", player1=p1, player2=p2)
        Entry.objects.create(event=event, pair=pair, number=i + 1)
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    entries = list(event.entries.order_by("number").values_list("pk", flat=True))
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[(entries[0], entries[1]), (entries[2], entries[3])],
    )
    rnd = events.round_open(rnd=rnd, actor=actor)
    return rnd.tables.order_by("number").first().code


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_web(port: int, redis_url: str) -> subprocess.Popen:
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "-b", f"127.0.0.1:{port}"]
        + ["-w", "4", "-k", "gthread", "--threads", "8", "--log-level", "warning"],
        cwd=ROOT,
        env=dict(ENV, REDIS_URL=redis_url),
        stdout=(logs / "attempts-web.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/table/")
            if conn.getresponse().status == 200:
                return web
        except OSError:
            pass
        time.sleep(0.3)
    stop(web)
    raise SystemExit("gunicorn did not answer within 30 s (see test-artifacts/attempts-web.log)")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


class Client:
    """One client address (X-Forwarded-For, written as the one trusted proxy would)."""

    CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        status, headers, body = self.request("GET", "/accounts/login/")
        # The cookie is Secure (DEBUG off): sent back by hand over this plain loopback.
        cookie = re.search(r"csrftoken=([^;]+)", headers.get("set-cookie", ""))
        self.csrf = cookie.group(1) if cookie else ""
        form = self.CSRF.search(body)
        self.form_token = form.group(1) if form else ""

    def request(self, method: str, path: str, body: str = "", headers: dict | None = None):
        conn = HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            # English pages: a refusal on the admin's login form is found by its sentence.
            conn.request(
                method,
                path,
                body,
                {"X-Forwarded-For": self.address, "Accept-Language": "en", **(headers or {})},
            )
            response = conn.getresponse()
            data = response.read().decode(errors="replace")
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        finally:
            conn.close()

    def form(self, path: str, fields: dict) -> tuple[int, str]:
        body = urlencode({**fields, "csrfmiddlewaretoken": self.form_token})
        status, _headers, data = self.request(
            "POST",
            path,
            body,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={self.csrf}",
            },
        )
        return status, data

    def json(self, path: str, payload: str) -> tuple[int, str]:
        status, _headers, data = self.request(
            "POST", path, payload, {"Content-Type": "application/json"}
        )
        return status, data


REFUSED = "Too many failed attempts"


def refused(answer: tuple[int, str]) -> bool:
    status, body = answer
    return status == 429 or REFUSED in body


def routes(client: Client, code: str, user: str) -> dict:
    """Each route as a function of the secret tried."""
    return {
        "table_code_web": lambda s: client.form("/table/", {"code": s}),
        "table_code_api": lambda s: client.json(
            "/api/v1/table-token", f'{{"code": "{s}", "side": "NS"}}'
        ),
        "password_site": lambda s: client.form(
            "/accounts/login/", {"username": user, "password": s}
        ),
        "password_api": lambda s: client.json(
            "/api/v1/auth/token", f'{{"username": "{user}", "password": "{s}"}}'
        ),
        "password_admin": lambda s: client.form(
            "/admin/login/?next=/admin/", {"username": user, "password": s, "next": "/admin/"}
        ),
    }


def fresh_window(needed_s: float = 25) -> None:
    """Start a scenario where it fits in one counting minute (windows are aligned on it)."""
    left = 60 - time.time() % 60
    if left < needed_s:
        time.sleep(left + 0.5)


class Scenarios:
    def __init__(self, port: int, code: str, store: str) -> None:
        self.port, self.code, self.store = port, code, store
        self.n = 0

    def next_client(self) -> tuple[Client, str]:
        self.n += 1
        offset = 0 if self.store == "redis" else 100
        user = f"user{self.n + (0 if self.store == 'redis' else 20)}"
        return Client(self.port, f"198.51.100.{self.n + offset}"), user

    def sequential(self, route: str) -> int:
        fresh_window()
        client, user = self.next_client()
        send = routes(client, self.code, user)[route]
        wrong = "ZZZZZZ" if route.startswith("table_code") else "guess"
        for n in range(200):
            if refused(send(wrong)):
                return n
        return 200

    def parallel(self, kind: str, sent: int) -> int:
        fresh_window()
        client, user = self.next_client()
        all_routes = routes(client, self.code, user)
        chosen = [f for name, f in all_routes.items() if name.startswith(kind)]
        wrong = "ZZZZZZ" if kind == "table_code" else "guess"
        gate = threading.Barrier(sent)
        answers: list = [None] * sent

        def run(i: int) -> None:
            gate.wait()
            answers[i] = chosen[i % len(chosen)](wrong)

        threads = [threading.Thread(target=run, args=(i,)) for i in range(sent)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return sum(1 for a in answers if not refused(a))

    def admin_after_40_wrong(self) -> int:
        fresh_window(40)
        client, user = self.next_client()
        send = routes(client, self.code, user)["password_admin"]
        for _ in range(40):
            send("guess")
        status, _body = send(PASSWORD)
        return 1 if status == 302 else 0


def measure(store: str, port: int, code: str) -> None:
    s = Scenarios(port, code, store)
    for route in ("table_code_web", "table_code_api", "password_site", "password_api"):
        print(f"{store}_{route}_wrong_before_refusal: {s.sequential(route)} attempts", flush=True)
    print(
        f"{store}_password_admin_wrong_before_refusal: {s.sequential('password_admin')} attempts",
        flush=True,
    )
    for kind, sent in (("table_code", 60), ("password", 30)):
        print(f"{store}_{kind}_parallel_sent: {sent} attempts", flush=True)
        print(f"{store}_{kind}_parallel_processed: {s.parallel(kind, sent)} attempts", flush=True)
    print(f"{store}_admin_logged_in_after_40_wrong: {s.admin_after_40_wrong()} logins", flush=True)


def main() -> int:
    fresh_services()
    code = build_world()
    for store, redis_url in (("redis", REDIS_URL), ("database", DEAD_REDIS)):
        port = free_port()
        web = start_web(port, redis_url)
        try:
            measure(store, port, code)
        finally:
            stop(web)
    return 0


if __name__ == "__main__":
    sys.exit(main())
