"""The browser tests' live server is idle before the database is flushed (tests/conftest.py)."""

import threading
import urllib.request

import pytest

from tests.conftest import _RequestsInFlight


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
    assert not gate.wait_idle(timeout=0.2)  # still inside the application
    release.set()
    worker.join(5)
    assert not gate.wait_idle(timeout=0.1)  # the server has not sent and closed the body yet
    assert list(answered[0]) == [b"ok"]
    answered[0].close()
    assert gate.wait_idle(timeout=1)


def test_a_failing_application_is_not_left_in_flight():
    def app(environ, start_response):
        raise RuntimeError("boom")

    gate = _RequestsInFlight(app)
    with pytest.raises(RuntimeError):
        gate({}, lambda *a: None)
    assert gate.wait_idle(timeout=0.1)


def test_the_live_server_of_a_browser_test_counts_its_requests(live_server):
    app = live_server.thread.httpd.get_app()
    assert isinstance(app, _RequestsInFlight)
    with urllib.request.urlopen(live_server.url + "/healthz") as response:
        assert response.status == 200
    assert app.wait_idle(timeout=5)
