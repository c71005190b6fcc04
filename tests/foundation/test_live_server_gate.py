"""The browser tests' live server is idle before the database is flushed (tests/conftest.py)."""

import threading
import urllib.request

import pytest

from tests.conftest import _RequestsInFlight, wait_for


def test_a_request_is_in_flight_until_its_response_is_closed():
    release = threading.Event()

    def app(environ, start_response):
        start_response("200 OK", [])
        release.wait(5)
        return [b"ok"]

    gate = _RequestsInFlight(app)
    answered = []
    worker = threading.Thread(target=lambda: answered.append(gate({}, lambda *a: None)))
    worker.start()
    assert not gate.close_and_wait(timeout=0.2)  # still inside the application
    release.set()
    worker.join(5)
    assert not gate.close_and_wait(timeout=0.1)  # the server has not sent and closed the body
    assert list(answered[0]) == [b"ok"]
    answered[0].close()
    assert gate.close_and_wait(timeout=1)


def test_a_closed_gate_answers_without_the_application():
    called = []
    gate = _RequestsInFlight(lambda environ, start_response: called.append(1) or [b"ok"])
    assert gate.close_and_wait(timeout=0.1)
    statuses = []
    assert list(gate({}, lambda status, headers: statuses.append(status))) == [b"The test is over."]
    assert statuses == ["503 Service Unavailable"] and not called
    gate.open()
    assert list(gate({}, lambda status, headers: None)) == [b"ok"] and called


def test_a_failing_application_is_not_left_in_flight():
    def app(environ, start_response):
        raise RuntimeError("boom")

    gate = _RequestsInFlight(app)
    with pytest.raises(RuntimeError):
        gate({}, lambda *a: None)
    assert gate.close_and_wait(timeout=0.1)


def test_the_live_server_of_a_browser_test_counts_its_requests(live_server):
    app = live_server.thread.httpd.get_app()
    assert isinstance(app, _RequestsInFlight)
    with urllib.request.urlopen(live_server.url + "/healthz") as response:
        assert response.status == 200
    assert not app.closed
    assert wait_for(lambda: app.count == 0, timeout=5)
