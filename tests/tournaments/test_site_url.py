"""Issue 15: table cards and the demo's links point at the server they are served from, not at
a fixed http://127.0.0.1:8000, when SITE_URL is not set."""

import io
import subprocess
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.public_event import build_played_event
from tournaments.demo import DEMO_EVENT
from tournaments.models import Event

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


@pytest.fixture
def no_site_url(settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "testserver", "club.example"]


def _pdf_text(response) -> str:
    data = b"".join(response.streaming_content) if response.streaming else response.content
    reader = PdfReader(io.BytesIO(data))
    # Without whitespace: the PDF's text layer splits the code's letters and the URL.
    return "".join("".join(page.extract_text() for page in reader.pages).split())


def test_table_cards_page_points_at_the_port_it_was_served_on(
    client, played_event, organiser, no_site_url
):
    client.force_login(organiser)
    url = reverse("public:table_cards", args=[played_event.pk, 2])
    content = client.get(url, HTTP_HOST="127.0.0.1:8101").content.decode()
    for table in played_event.rounds.get(number=2).tables.all():
        for code in (table.code_ns, table.code_ew):
            assert f"http://127.0.0.1:8101/table/{code}/" in content
    assert "127.0.0.1:8000" not in content


def test_table_cards_pdf_points_at_the_request_host(client, played_event, organiser, no_site_url):
    client.force_login(organiser)
    url = reverse("public:pdf", args=[played_event.pk, "table-cards"]) + "?round=2"
    text = _pdf_text(client.get(url, HTTP_HOST="club.example:8101", secure=True))
    code = played_event.rounds.get(number=2).tables.first().code_ns
    assert f"https://club.example:8101/table/{code}/" in text
    assert "8000" not in text


def test_site_url_when_set_wins_over_the_request(client, played_event, organiser, settings):
    settings.SITE_URL = "https://botifarra.example/"
    client.force_login(organiser)
    url = reverse("public:table_cards", args=[played_event.pk, 2])
    content = client.get(url, HTTP_HOST="127.0.0.1:8101").content.decode()
    code = played_event.rounds.get(number=2).tables.first().code_ew
    assert f"https://botifarra.example/table/{code}/" in content
    assert "8101" not in content


def test_room_screen_qr_points_at_the_request_host(client, played_event, no_site_url):
    url = reverse("public:screen", args=[played_event.pk])
    content = client.get(url, HTTP_HOST="127.0.0.1:8101").content.decode()
    assert f"http://127.0.0.1:8101/e/{played_event.pk}/" in content


@pytest.mark.django_db(transaction=True)  # the e-mails leave on commit, as in `make demo`
def test_demo_prints_links_on_the_port_it_will_serve(capsys, no_site_url):
    call_command("demo", port=8101)
    printed = capsys.readouterr().out
    event = Event.objects.get(name=DEMO_EVENT)
    assert f"http://127.0.0.1:8101/e/{event.pk}/" in printed
    assert "http://127.0.0.1:8101/table/" in printed
    assert ":8000" not in printed
    # The registrations' e-mails too, though made without a request (the audit of 2026-12-05).
    assert mail.outbox and all(":8000" not in m.body for m in mail.outbox)
    assert any("http://127.0.0.1:8101/" in m.body for m in mail.outbox)


def test_make_demo_passes_its_port_to_the_demo_command():
    dry = subprocess.run(
        ["make", "-n", "demo", "PORT=8101", "HOST=127.0.0.1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    demo_line = next(line for line in dry.splitlines() if "manage.py demo" in line)
    assert "--port 8101" in demo_line and "--host 127.0.0.1" in demo_line
    assert "runserver 127.0.0.1:8101" in dry
