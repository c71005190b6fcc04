"""Webhooks on the database: every action that emits one, what a payload may hold (never cards,
scores or the seed), registering and its validation, and sending to a real receiver on loopback
with tasks in-process (tournaments/webhooks.py, services/webhooks.py). The real Celery worker's
retries are in test_webhook_worker.py."""

import json
import random
import socket
import ssl
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tests.factories import UserFactory, WebhookFactory
from tests.teams.conftest import play_team_round, team_event
from tests.webhook_receiver import Receiver, docs_verifier
from tournaments import tasks, webhooks
from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardResult, Webhook, WebhookDelivery
from tournaments.services import Conflict, NotAllowed, ServiceError, changes, disputes, results
from tournaments.services import events as ev
from tournaments.services import webhooks as svc
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

SHORT = {"trump": "oros", "totals": {"NS": 40, "EW": 32}}


@pytest.fixture
def boss(running_event):
    return Actor(user=running_event.organisers.get())


@pytest.fixture
def hook(running_event):
    return WebhookFactory(event=running_event)


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def sent(kind=None):
    qs = WebhookDelivery.objects.order_by("pk")
    return list(qs.filter(kind=kind) if kind else qs)


def side(table, s):
    return Actor(table=table, side=s)


def assert_minimal(delivery, event):
    """Only the keys a payload may hold, only ids/numbers/kinds, and never the seed."""
    body = delivery.payload
    assert set(body) == {"id", "kind", "event", "occurred_at", "data", "links"}
    assert body["id"] == str(delivery.uuid) and body["event"] == event.pk
    assert set(body["data"]) <= webhooks.PAYLOAD_KEYS
    assert event.seed not in json.dumps(body)
    assert all(link.startswith("/api/v1/") for link in body["links"].values())


# ---- every emitting action ------------------------------------------------------------------


def test_opening_a_round_emits_round_opened(running_event, boss, hook):
    ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss, accept_missing=True)
    e1, e2, e3, e4 = running_event.entries.order_by("number")
    rnd = ev.round_propose(
        event=running_event, actor=boss, number=2, tables=[(e1.pk, e3.pk), (e2.pk, e4.pk)]
    )
    WebhookDelivery.objects.all().delete()
    ev.round_open(rnd=rnd, actor=boss)
    (delivery,) = sent()
    assert delivery.kind == "round.opened" and delivery.webhook == hook
    assert delivery.payload["data"] == {"round": 2}
    assert delivery.payload["links"]["round"] == f"/api/v1/events/{running_event.pk}/rounds/2"
    assert_minimal(delivery, running_event)


def test_closing_a_round_emits_round_closed(running_event, boss, hook):
    ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss, accept_missing=True)
    (delivery,) = sent("round.closed")
    assert delivery.payload["data"] == {"round": 1, "missing_accepted": True}
    assert_minimal(delivery, running_event)


def test_a_refused_close_sends_nothing(running_event, boss, hook):
    with pytest.raises(Conflict):
        ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss)
    assert sent() == []


def test_reopening_a_round_emits_round_opened_again(running_event, boss, hook):
    rnd = running_event.rounds.get(number=1)
    ev.round_close(rnd=rnd, actor=boss, accept_missing=True)
    changes.round_reopen(rnd=rnd, actor=boss, reason="closed too early")
    (delivery,) = sent("round.opened")
    assert delivery.payload["data"] == {"round": 1, "reopened": True}


def test_a_result_confirmed_by_the_same_entry_emits_result_confirmed(running_event, table1, hook):
    results.result_submit_short(table=table1, board_number=1, actor=side(table1, "NS"), data=SHORT)
    assert sent("result.confirmed") == []  # entered, not yet confirmed
    out = results.result_submit_short(
        table=table1, board_number=1, actor=side(table1, "EW"), data=SHORT
    )
    assert out.result.status == BoardResult.Status.CONFIRMED
    (delivery,) = sent("result.confirmed")
    assert delivery.payload["data"] == {"result": out.result.pk, "round": 1, "table": 1, "board": 1}
    assert delivery.payload["links"]["result"] == f"/api/v1/results/{out.result.pk}"
    assert_minimal(delivery, running_event)
    # Neither the cards nor the totals of the board travel (a number such as the result's id
    # may contain the totals' digits, so the words are looked for, not the digits).
    text = json.dumps(delivery.payload)
    assert not [word for word in ("totals", "trump", "score", "cards", "hands") if word in text]
    # Sending it again changes nothing and sends nothing more.
    results.result_submit_short(table=table1, board_number=1, actor=side(table1, "EW"), data=SHORT)
    assert len(sent("result.confirmed")) == 1


def test_confirming_a_result_emits_result_confirmed(running_event, table1, hook):
    out = results.result_submit_short(
        table=table1, board_number=2, actor=side(table1, "NS"), data=SHORT
    )
    results.result_confirm(result=out.result, actor=side(table1, "EW"))
    (delivery,) = sent("result.confirmed")
    assert delivery.payload["data"]["board"] == 2


def test_a_dispute_opening_and_its_ruling_emit(running_event, table1, referee, hook):
    out = results.result_submit_short(
        table=table1, board_number=1, actor=side(table1, "NS"), data=SHORT
    )
    dispute = disputes.dispute_request(
        result=out.result, actor=side(table1, "EW"), reason="They revoked the ace of oros"
    )
    (opened,) = sent("dispute.opened")
    assert opened.payload["data"] == {
        "dispute": dispute.pk,
        "reason": "player_request",
        "result": out.result.pk,
        "round": 1,
        "table": 1,
        "board": 1,
    }
    assert "ace" not in json.dumps(opened.payload)  # the players' words stay home
    ruling = disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=referee),
        kind="accept",
        explanation="NS's entry stands: 40 to 32.",
        data={"submission": out.result.submissions.get().pk},
    )
    (ruled,) = sent("dispute.ruled")
    assert ruled.payload["data"] == {
        "dispute": dispute.pk,
        "ruling": ruling.pk,
        "ruling_kind": "accept",
        "revised": False,
        "result": out.result.pk,
        "round": 1,
        "table": 1,
        "board": 1,
    }
    assert "stands" not in json.dumps(ruled.payload)
    for delivery in sent():
        assert_minimal(delivery, running_event)


def test_two_different_entries_open_a_dispute_that_emits(running_event, table1, hook):
    results.result_submit_short(table=table1, board_number=1, actor=side(table1, "NS"), data=SHORT)
    other = {"trump": "oros", "totals": {"NS": 32, "EW": 40}}
    results.result_submit_short(table=table1, board_number=1, actor=side(table1, "EW"), data=other)
    (delivery,) = sent("dispute.opened")
    assert delivery.payload["data"]["reason"] == "conflict"


def test_standings_changed_emit_once_and_unchanged_do_not(running_event, table1, hook):
    results.result_submit_short(table=table1, board_number=1, actor=side(table1, "NS"), data=SHORT)
    results.result_submit_short(table=table1, board_number=1, actor=side(table1, "EW"), data=SHORT)
    standings_recompute(running_event.pk)
    (delivery,) = sent("standings.updated")
    assert delivery.payload["data"] == {"rounds": [1], "results_counted": 1}
    assert delivery.payload["links"]["standings"] == (
        f"/api/v1/events/{running_event.pk}/standings"
    )
    assert_minimal(delivery, running_event)
    standings_recompute(running_event.pk)  # nothing changed since
    assert len(sent("standings.updated")) == 1


def test_a_team_events_standings_changed_emit_too(organiser):
    actor = Actor(user=organiser)
    event = team_event(actor)
    WebhookFactory(event=event)
    play_team_round(event, actor, 1, random.Random(18))
    deliveries = sent("standings.updated")
    assert deliveries and deliveries[-1].payload["data"]["rounds"] == [1]
    assert all(d.payload["data"]["results_counted"] > 0 for d in deliveries)
    assert_minimal(deliveries[-1], event)
    count = len(deliveries)
    standings_recompute(event.pk)  # nothing changed since
    assert len(sent("standings.updated")) == count


def test_finishing_the_event_emits_without_the_seed(running_event, boss, hook):
    ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss, accept_missing=True)
    ev.event_finish(event=running_event, actor=boss)
    (delivery,) = sent("event.finished")
    assert delivery.payload["data"] == {}
    assert_minimal(delivery, running_event)
    running_event.refresh_from_db()
    assert running_event.public_seed  # revealed, yet in no payload
    for d in sent():
        assert running_event.seed not in json.dumps(d.payload)


def test_every_webhook_of_the_event_gets_its_own_delivery(running_event, boss, hook):
    second = WebhookFactory(event=running_event)
    WebhookFactory()  # another event's
    ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss, accept_missing=True)
    deliveries = sent("round.closed")
    assert {d.webhook for d in deliveries} == {hook, second}
    assert len({d.uuid for d in deliveries}) == 2


def test_without_webhooks_nothing_is_recorded(running_event, boss):
    ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss, accept_missing=True)
    assert sent() == []


def test_a_payload_refuses_anything_but_ids_and_numbers(running_event, hook):
    with pytest.raises(ValueError, match="seed"):
        webhooks.emit(running_event, webhooks.EVENT_FINISHED, {"seed": running_event.seed})
    with pytest.raises(ValueError, match="totals"):
        webhooks.emit(running_event, webhooks.RESULT_CONFIRMED, {"totals": {"NS": 40}})
    with pytest.raises(ValueError, match="ids, numbers"):
        webhooks.emit(running_event, webhooks.RESULT_CONFIRMED, {"board": {"hands": []}})
    with pytest.raises(ValueError, match="kind"):
        webhooks.emit(running_event, "cards.dealt", {})
    assert sent() == []


# ---- signing --------------------------------------------------------------------------------


def test_the_signature_is_what_the_documented_receiver_checks(hook):
    delivery = WebhookDelivery.objects.create(
        webhook=hook, kind="ping", payload={"id": "x", "kind": "ping", "data": {}}
    )
    body = webhooks.body_bytes(delivery)
    headers = webhooks.headers(delivery, body)
    verify = docs_verifier()
    assert verify(hook.secret, headers, body)
    assert headers["X-Botifarra-Event"] == "ping"
    assert headers["X-Botifarra-Delivery"] == str(delivery.uuid)
    assert not verify(hook.secret + "x", headers, body)  # another secret
    assert not verify(hook.secret, headers, body + b" ")  # a changed body
    old = webhooks.headers(delivery, body, now=time.time() - 301)
    assert not verify(hook.secret, old, body)  # outside the replay window
    assert verify(hook.secret, old, body, now=time.time() - 300)


# ---- registering ----------------------------------------------------------------------------


def test_registering_makes_a_secret_and_writes_the_audit(running_event, boss):
    a = svc.webhook_create(event=running_event, actor=boss, url=" https://a.example.org/h ")
    b = svc.webhook_create(event=running_event, actor=boss, url="http://b.example.org/h?x=1")
    assert a.url == "https://a.example.org/h"
    assert a.secret.startswith("whsec_") and len(a.secret) == 70 and a.secret != b.secret
    entry = AuditEntry.objects.filter(event=running_event, action="webhook_added").first()
    assert entry.changes == {"url": [None, "https://a.example.org/h"]}
    assert a.secret not in json.dumps(list(AuditEntry.objects.values("changes", "note")))
    svc.webhook_delete(webhook=a, actor=boss)
    assert not Webhook.objects.filter(pk=a.pk).exists()
    assert AuditEntry.objects.filter(event=running_event, action="webhook_removed").exists()


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/h",
        "example.org/h",
        "https://",
        "javascript:alert(1)",
        "http:///x",
        "https://exa mple.org/h",
        "https://example.org:99999/h",
    ],
)
def test_an_address_that_is_not_http_is_refused_on_url(running_event, boss, url):
    with pytest.raises(ServiceError) as exc:
        svc.webhook_create(event=running_event, actor=boss, url=url)
    assert exc.value.field == "url" and "https://" in exc.value.message
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/h",
        "http://localhost/h",
        "http://10.1.2.3/h",
        "http://192.168.1.10/h",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/h",
        "http://[::ffff:127.0.0.1]/h",
        "http://0.0.0.0/h",
        # IPv4 inside IPv6 that a gateway forwards: NAT64 (10.0.0.5, the metadata service,
        # loopback), 6to4, Teredo and the IPv4-compatible form.
        "http://[64:ff9b::a00:5]/h",
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
        "http://[64:ff9b::7f00:1]/h",
        "http://[64:ff9b:1::a00:5]/h",
        "http://[2002:a00:5::1]/h",
        "http://[2001:0:a00:5::1]/h",
        "http://[::a00:5]/h",
    ],
)
def test_in_production_private_addresses_are_refused(running_event, boss, settings, url):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(ServiceError) as exc:
        svc.webhook_create(event=running_event, actor=boss, url=url)
    assert exc.value.field == "url" and "private or local network" in exc.value.message


def test_in_production_a_public_address_passes_and_an_unknown_name_is_refused(
    running_event, boss, settings
):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert webhooks.check_url("https://93.184.215.14/hook") == "https://93.184.215.14/hook"
    with pytest.raises(ServiceError, match="cannot be found"):
        svc.webhook_create(event=running_event, actor=boss, url="https://no-such-host.invalid/h")


def test_the_same_address_twice_and_too_many_are_conflicts(running_event, boss, settings):
    settings.WEBHOOKS_PER_EVENT = 2
    svc.webhook_create(event=running_event, actor=boss, url="https://a.example.org/h")
    with pytest.raises(Conflict, match="already registered"):
        svc.webhook_create(event=running_event, actor=boss, url="https://a.example.org/h")
    svc.webhook_create(event=running_event, actor=boss, url="https://b.example.org/h")
    with pytest.raises(Conflict, match="at most 2"):
        svc.webhook_create(event=running_event, actor=boss, url="https://c.example.org/h")
    assert Webhook.objects.count() == 2


def test_only_the_events_organisers_manage_its_webhooks(running_event, referee, hook):
    for who in (Actor(user=referee), Actor(user=UserFactory())):
        with pytest.raises(NotAllowed):
            svc.webhook_create(event=running_event, actor=who, url="https://x.example.org/h")
        with pytest.raises(NotAllowed):
            svc.webhook_delete(webhook=hook, actor=who)
        with pytest.raises(NotAllowed):
            svc.webhook_ping(webhook=hook, actor=who)
    delivery = WebhookDelivery.objects.create(webhook=hook, kind="ping", payload={})
    with pytest.raises(NotAllowed):
        svc.delivery_resend(delivery=delivery, actor=Actor(user=referee))
    assert Webhook.objects.filter(pk=hook.pk).exists()


# ---- sending, in-process, to a real receiver ------------------------------------------------


def register(event, boss, receiver):
    webhook = svc.webhook_create(event=event, actor=boss, url=receiver.url)
    receiver.secret = webhook.secret
    return webhook


def test_a_delivery_reaches_a_receiver_signed(
    running_event, boss, receiver, django_capture_on_commit_callbacks
):
    register(running_event, boss, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        ev.round_close(rnd=running_event.rounds.get(number=1), actor=boss, accept_missing=True)
    (got,) = [r for r in receiver.received if r.headers["X-Botifarra-Event"] == "round.closed"]
    assert got.verified and got.path == "/hooks/botifarra"
    assert got.json["data"] == {"round": 1, "missing_accepted": True}
    delivery = WebhookDelivery.objects.get(kind="round.closed")
    assert got.headers["X-Botifarra-Delivery"] == str(delivery.uuid)
    assert delivery.status == WebhookDelivery.Status.DELIVERED and delivery.delivered_at
    (attempt,) = delivery.attempts.all()
    assert (attempt.status_code, attempt.response_body, attempt.error) == (200, "ok", "")


def test_a_failure_is_kept_and_a_resend_delivers_the_same_delivery(
    running_event, boss, receiver, django_capture_on_commit_callbacks
):
    webhook = register(running_event, boss, receiver)
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    delivery.refresh_from_db()
    # In-process (no worker) a delivery is tried once: the organiser re-sends it.
    assert delivery.status == WebhookDelivery.Status.FAILED
    (failed,) = delivery.attempts.all()
    assert failed.status_code == 500 and failed.response_body.startswith("boom")
    assert len(failed.response_body) == svc.RESPONSE_KEPT  # truncated
    with django_capture_on_commit_callbacks(execute=True):
        svc.delivery_resend(delivery=delivery, actor=boss)
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.DELIVERED
    assert [a.status_code for a in delivery.attempts.all()] == [500, 200]
    first, second = receiver.received
    assert first.body == second.body and second.verified
    assert first.headers["X-Botifarra-Delivery"] == second.headers["X-Botifarra-Delivery"]


def test_a_late_failure_of_another_attempt_leaves_a_delivered_delivery_delivered(
    running_event, boss, receiver, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The last retry is in flight to a slow receiver when the organiser's re-send is
    delivered: its failure, answered last, is in the list and changes nothing."""
    webhook = register(running_event, boss, receiver)
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    real_post = svc.post

    def slow_failure(*args, **kwargs):
        # While this retry waits for its answer, the re-send's attempt is delivered.
        monkeypatch.setattr(svc, "post", real_post)
        assert svc.delivery_attempt(delivery.pk, tries=1, may_retry=True) is None
        return svc.Answer(500, "boom", "")

    monkeypatch.setattr(svc, "post", slow_failure)
    delay = svc.delivery_attempt(
        delivery.pk, tries=settings.WEBHOOK_MAX_ATTEMPTS - 1, may_retry=True
    )
    delivery.refresh_from_db()
    assert delay is None  # nothing more to try
    assert delivery.status == WebhookDelivery.Status.DELIVERED and delivery.delivered_at
    assert delivery.next_attempt_at is None
    assert [a.status_code for a in delivery.attempts.all()] == [500, 200, 500]


def test_no_answer_in_time_is_a_timeout(
    running_event, boss, receiver, settings, django_capture_on_commit_callbacks
):
    webhook = register(running_event, boss, receiver)
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.3
    receiver.delay = 1.0
    with django_capture_on_commit_callbacks(execute=True):
        delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    (attempt,) = delivery.attempts.all()
    assert (attempt.status_code, attempt.error) == (None, "timeout")
    assert 250 <= attempt.duration_ms < 1000


def _trickler(gap: float) -> tuple[socket.socket, int]:
    """A receiver that sends its status line and headers one byte every ``gap`` seconds (each
    byte within the timeout of one read), on a port of its own."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Pad: aaaaaaaaaa\r\n\r\nok":
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return  # the sender gave up
                time.sleep(gap)

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


def test_an_answer_trickled_past_the_timeout_is_a_timeout():
    """docs/api.md: no answer in time is a failed attempt. The timeout held for each read only:
    a 200 trickled over 17 s with a 1 s timeout was recorded as delivered."""
    server, port = _trickler(0.2)
    started = time.monotonic()
    answer = svc.post(f"http://127.0.0.1:{port}/hook", b"{}", {}, timeout=1.0)
    took = time.monotonic() - started
    server.close()
    assert (answer.status_code, answer.error) == (None, "timeout")
    assert took < 2.5


TLS = Path(__file__).resolve().parents[1] / "data" / "webhook-tls"  # a self-signed localhost


def _tls_trickler(gap: float) -> tuple[socket.socket, int]:
    """A TLS receiver that sends its handshake in 200-byte pieces and then its status line a
    byte at a time, ``gap`` seconds apart (each piece within one read's timeout)."""
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = server.accept()
        conn.settimeout(10)
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        session = tls.wrap_bio(incoming, outgoing, server_side=True)

        def flush() -> None:
            data = outgoing.read()
            for i in range(0, len(data), 200):
                conn.sendall(data[i : i + 200])
                time.sleep(gap)

        try:
            while True:
                try:
                    session.do_handshake()
                    break
                except ssl.SSLWantReadError:
                    flush()
                    incoming.write(conn.recv(65536))
            flush()
            request = b""
            while b"\r\n\r\n" not in request:
                try:
                    request += session.read(65536)
                except ssl.SSLWantReadError:
                    incoming.write(conn.recv(65536))
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok":
                session.write(bytes([byte]))
                conn.sendall(outgoing.read())
                time.sleep(gap)
        except (OSError, ssl.SSLError):
            return  # the sender gave up
        finally:
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


@pytest.mark.parametrize("latency", [0.0, 0.5])
def test_a_tls_receiver_trickling_is_cut_at_the_timeout(monkeypatch, latency):
    """The deadline held only once http.client had its final socket: a handshake under way
    when the timer fired (a receiver 0.5 s away) left the status line that followed unbounded."""
    trusting = ssl.create_default_context(cafile=str(TLS / "cert.pem"))
    monkeypatch.setattr(ssl, "create_default_context", lambda *a, **k: trusting)
    dial = socket.create_connection

    def far_away(*args, **kwargs):
        time.sleep(latency)
        return dial(*args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", far_away)
    server, port = _tls_trickler(0.12)
    started = time.monotonic()
    answer = svc.post(f"https://localhost:{port}/hook", b"{}", {}, 1.0, address="127.0.0.1")
    took = time.monotonic() - started
    server.close()
    assert answer.error == "timeout" and took < 2.5, (answer, took)


def test_a_2xx_in_time_stands_though_its_body_comes_later():
    """docs/api.md: answer with any 2xx quickly and do the work afterwards. A chunked body
    still open at the deadline threw the 200 away as a timeout."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n")
            time.sleep(2)
            try:
                conn.sendall(b"0\r\n\r\n")
            except OSError:
                pass

    threading.Thread(target=serve, daemon=True).start()
    answer = svc.post(f"http://127.0.0.1:{server.getsockname()[1]}/hook", b"{}", {}, 1.0)
    server.close()
    assert (answer.status_code, answer.body, answer.error) == (200, "ok", "")


def test_an_ipv6_address_without_a_port_is_posted_to_the_schemes_port(monkeypatch):
    """http.client read the last group of a bare IPv6 address as the port: [2606:…::1111]
    was sent to port 1111 of '2606:4700:4700:'."""
    dialled = []

    def create_connection(where, *args, **kwargs):
        dialled.append(where)
        raise ConnectionRefusedError

    monkeypatch.setattr(socket, "create_connection", create_connection)
    for url, expected in (
        ("http://[2606:4700:4700::1111]/hook", ("2606:4700:4700::1111", 80)),
        ("https://[2606:4700:4700::1111]/hook", ("2606:4700:4700::1111", 443)),
        ("http://[2606:4700:4700::1111]:8080/hook", ("2606:4700:4700::1111", 8080)),
    ):
        assert svc.post(url, b"{}", {}, timeout=1.0).error == "connection"
        assert dialled.pop() == expected


def test_nobody_listening_is_a_connection_failure(
    running_event, boss, django_capture_on_commit_callbacks
):
    closed = Receiver().start()
    url = closed.url
    closed.stop()
    webhook = svc.webhook_create(event=running_event, actor=boss, url=url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    (attempt,) = delivery.attempts.all()
    assert (attempt.status_code, attempt.error) == (None, "connection")


def test_an_address_refused_since_is_not_contacted(
    running_event, boss, receiver, settings, django_capture_on_commit_callbacks
):
    webhook = register(running_event, boss, receiver)
    settings.WEBHOOKS_ALLOW_PRIVATE = False  # e.g. the name now points at a private address
    with django_capture_on_commit_callbacks(execute=True):
        delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    (attempt,) = delivery.attempts.all()
    assert (attempt.status_code, attempt.error) == (None, "address")
    assert receiver.received == []


def test_a_name_that_no_longer_resolves_is_gone(
    running_event, boss, settings, monkeypatch, django_capture_on_commit_callbacks
):
    webhook = WebhookFactory(event=running_event, url="https://hooks.example.org/x")
    settings.WEBHOOKS_ALLOW_PRIVATE = False  # production: the name is looked up and checked

    def no_such_name(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_name)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = svc.webhook_ping(webhook=webhook, actor=boss)
    (attempt,) = delivery.attempts.all()
    assert (attempt.status_code, attempt.error) == (None, "gone")


def test_retries_wait_longer_each_time(settings):
    settings.WEBHOOK_RETRY_BASE_SECONDS = 60
    assert [svc.retry_delay(n) for n in range(1, 8)] == [60, 120, 240, 480, 960, 1920, 3600]


def test_a_delivery_no_task_will_try_is_queued_again(running_event, boss, receiver):
    """The broker was down when it was queued (or its worker died with its retry): the beat's
    catch-up finds it once it is overdue beyond Redis's redelivery time, and sends it."""
    webhook = register(running_event, boss, receiver)
    long_ago = timezone.now() - timedelta(hours=2)
    lost = WebhookDelivery.objects.create(webhook=webhook, kind="ping", payload={"id": "lost"})
    retry_lost = WebhookDelivery.objects.create(webhook=webhook, kind="ping", payload={"id": "r"})
    fresh = WebhookDelivery.objects.create(webhook=webhook, kind="ping", payload={"id": "new"})
    done = WebhookDelivery.objects.create(
        webhook=webhook, kind="ping", payload={"id": "done"}, status="delivered"
    )
    WebhookDelivery.objects.filter(pk__in=[lost.pk, done.pk]).update(created_at=long_ago)
    WebhookDelivery.objects.filter(pk=retry_lost.pk).update(next_attempt_at=long_ago)
    WebhookDelivery.objects.filter(pk=fresh.pk).update(next_attempt_at=timezone.now())
    assert svc.deliveries_lost() == [lost.pk, retry_lost.pk]
    assert tasks.catch_up_webhooks.delay().get() == 2  # tasks in-process here
    assert sorted(r.json["id"] for r in receiver.received) == ["lost", "r"]
    assert svc.deliveries_lost() == []


def test_an_attempt_connects_to_the_address_it_checked_not_to_a_new_lookup(receiver):
    """DNS rebinding: the name is looked up once, checked, and the connection goes to that IP;
    the name still travels in the Host header. Here the name cannot be resolved at all, so a
    second lookup would fail: the POST arriving proves none was made."""
    receiver.secret = "whsec_test"
    port = receiver.server.server_address[1]
    body = b'{"kind": "ping"}'
    headers = {"Content-Type": "application/json"}
    url = f"http://hooks.invalid:{port}/hooks/botifarra"

    answer = svc.post(url, body, headers, 5.0, "127.0.0.1")

    assert answer.status_code == 400  # it arrived (unsigned, so the receiver refused it)
    assert receiver.received[-1].headers["Host"] == f"hooks.invalid:{port}"
    assert svc.post(url, body, headers, 5.0).error == "gone"  # by name: no such host


def test_a_name_that_resolves_to_a_private_address_is_refused_with_its_ip_unused(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(ServiceError) as refused:
        webhooks.checked("http://localhost:8080/hook")
    assert refused.value.field == "url"
