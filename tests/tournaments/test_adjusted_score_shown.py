"""A referee's adjusted score is not a played result (docs/scoring.md §2: it is left out of the
comparison): travellers, round results and scorecards, on the web and in their PDFs, say so in
place of the trumps and calls; the traveller's chart does not draw it as a played 0; the
spreadsheets for people name it in words."""

import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.public_event import build_played_event
from tests.tournaments.test_analysis import _adjust
from tests.tournaments.test_pair_pages import evening, holder, play, tables  # noqa: F401
from tournaments.actors import Actor
from tournaments.models import BoardResult
from tournaments.services import events
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db
SHOWN = "Adjusted score: NS 60 % · EW 40 %"


@pytest.fixture
def adjusted(running_event, organiser):
    """Board 1 at table 1 of the closed round 1: average plus / average minus, match score
    0–0 (the ruling docs/referees.md recommends for a board that could not be played)."""
    event = build_played_event(running_event, organiser)
    result = _adjust(event)
    standings_recompute(event.pk)
    return BoardResult.objects.get(pk=result.pk)


def _words(html: str) -> str:
    return " ".join(re.sub(r"<svg.*?</svg>|<[^>]+>", " ", html, flags=re.S).split())


def _text(html: str) -> str:
    return _words(re.search(r"<main.*?</main>", html, re.S).group(0))


def _row_of_table_1(html: str) -> str:
    return _words(re.search(r'<th scope="row" class="num">1</th>.*?</tr>', html, re.S).group(0))


def test_the_traveller_says_adjusted_and_its_chart_leaves_it_out(client, adjusted):
    event = adjusted.table.round.event
    html = client.get(reverse("public:traveller", args=[event.pk, 1])).content.decode()
    row = _row_of_table_1(html)
    assert SHOWN in row, row
    assert adjusted.trump not in row.lower()
    desc = re.search(r"<desc[^>]*>(.*?)</desc>", html, re.S).group(1)
    assert "table 1:" not in desc and "table 2:" in desc, desc


def test_the_round_page_and_the_scorecard_say_adjusted(client, adjusted):
    event = adjusted.table.round.event
    for page in (
        reverse("public:round_results", args=[event.pk, 1]),
        reverse("public:scorecard", args=[event.pk, adjusted.table.ns.number]),
    ):
        assert SHOWN in _text(client.get(page).content.decode()), page


@pytest.mark.parametrize("kind", ["travellers", "scorecards"])
def test_the_pdfs_say_adjusted(client, adjusted, kind):
    event = adjusted.table.round.event
    response = client.get(reverse("public:pdf", args=[event.pk, kind]) + "?round=1")
    assert response.status_code == 200
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert SHOWN in " ".join(text.split()), text


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Average plus (60 %)"), ("ca", "Mitjana més (60 %)")],
)
def test_the_spreadsheet_for_people_names_the_adjusted_score(client, adjusted, lang, words):
    event = adjusted.table.round.event
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    url = reverse("public:export_sheet_csv", args=[event.pk, "results"])
    body = client.get(url).content.decode("utf-8-sig")
    assert words in body and "avg_plus" not in body and "avg_minus" not in body
    program = client.get(reverse("public:export_csv", args=[event.pk, "results"]))
    assert "avg_plus" in program.content.decode()  # the form for programs keeps the codes


def test_the_pairs_own_scorecard_says_adjusted(evening, organiser):  # noqa: F811
    """The table's scorecard (docs/players.md, "your scorecard"), read on the phone that held
    the code while the round was open, as the public one."""
    t = tables(evening, 1)
    for table in t.values():
        play(table, 1, 40, trump="espases")
        play(table, 2, 30)
    phone = holder(t[1], "NS")
    events.round_close(rnd=evening.rounds.get(number=1), actor=Actor(user=organiser))
    _adjust(evening)  # board 1 at table 1
    standings_recompute(evening.pk)
    html = phone.get(reverse("table:pair_scorecard", args=[t[1].code_ns])).content.decode()
    row = _words(re.search(r'<tr data-board="1".*?</tr>', html, re.S).group(0))
    assert SHOWN in row and "espases" not in row, row


def test_one_sides_adjustment_shows_the_others_complement(client, adjusted):
    """A result holding one side's adjustment only (an archive from another program) gives the
    other side the complement (docs/scoring.md §2), and says so."""
    BoardResult.objects.filter(pk=adjusted.pk).update(adjusted_ew="")
    event = adjusted.table.round.event
    html = client.get(reverse("public:traveller", args=[event.pk, 1])).content.decode()
    assert SHOWN in _row_of_table_1(html)
