"""The Python session of docs/api.md runs, as written, against a live server: the documented
client cannot go out of date. Every response it receives is checked against the published
schema (tests/contract.py), as the test client's are."""

import re
from pathlib import Path
from urllib.parse import urlsplit

import requests

from tests import contract
from tests.factories import UserFactory
from tournaments.models import Event, StandingsSnapshot

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BASE_LINE = 'BASE = "http://127.0.0.1:8000/api/v1"  # your installation'
LOGIN_LINE = 'USERNAME, PASSWORD = "anna", "her password"'


def session_code() -> str:
    section = DOC.read_text(encoding="utf-8").split("## A session in Python", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found, "docs/api.md has no Python block under 'A session in Python'"
    return found.group(1)


def test_the_python_session_of_the_docs_runs(live_server, monkeypatch, capsys):
    UserFactory(username="anna", password="her password")
    code = session_code()
    assert BASE_LINE in code and LOGIN_LINE in code  # the lines the test points elsewhere
    code = code.replace(BASE_LINE, f'BASE = "{live_server.url}/api/v1"')

    problems: list[str] = []
    send = requests.Session.request

    def checked(self, method, url, *args, **kwargs):
        answer = send(self, method, url, *args, **kwargs)
        problems.extend(
            contract.problems(
                method,
                urlsplit(url).path,
                answer.status_code,
                answer.headers.get("Content-Type", ""),
                answer.content,
            )
        )
        return answer

    monkeypatch.setattr(requests.Session, "request", checked)
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs_api_session"})  # noqa: S102
    assert not problems, problems

    event = Event.objects.get()
    assert (event.name, event.status, event.published) == ("Club night", "finished", True)
    assert StandingsSnapshot.objects.filter(event=event).count() == 2
    out = capsys.readouterr().out
    assert "round 2: closed" in out and f"seed: {event.seed}" in out
    ranks = [line.split()[0] for line in out.splitlines()[-4:]]
    assert ranks[0] == "1" and len(ranks) == 4
