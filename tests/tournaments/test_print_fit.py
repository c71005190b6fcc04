"""Issue 15, printing that fits: a traveller of 16 tables and the standings of 40 pairs each on
one A4 page (the PDF's pages counted), chart labels inside their chart and apart from each other
(text widths measured with the font the PDF uses), the traveller's column titles inside their
columns in every language (WeasyPrint's own layout measured), scorecards one pair to a page and
two on request."""

import io
import random

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.factories import EventFactory, PairFactory, PlayerFactory
from tournaments import pdf
from tournaments import public_selectors as sel
from tournaments.actors import Actor
from tournaments.demo import build_demo, play_round, table_codes
from tournaments.models import BoardResult, Entry, Pair, Player, Round, Team
from tournaments.services import events
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

# Long, real-looking names: the ones that wrapped over 4–5 lines.
FIRST = ["Montserrat", "Bartomeu", "Maria Dolors", "Francesc Xavier", "Immaculada", "Sebastià"]
LAST = ["Puigdomènech", "Casademunt", "Vilaseca i Font", "Riudavets", "Castellví", "Santacana"]


def _player(rng: random.Random) -> object:
    return PlayerFactory(name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.randint(1, 99)}")


def played_field(organiser, pairs: int, *, boards: int = 1, rounds: int = 1):
    """A published event of ``pairs`` pairs whose first round is played and closed."""
    rng = random.Random(pairs)
    event = EventFactory(
        organisers=[organiser],
        status="registration",
        boards_per_round=boards,
        rounds_count=max(rounds, 2),
    )
    actor = Actor(user=organiser)
    entries = []
    for i in range(1, pairs + 1):
        p1, p2 = _player(rng), _player(rng)
        pair = PairFactory(player1=p1, player2=p2, name=f"{p1.name} – {p2.name}")
        entries.append(Entry.objects.create(event=event, pair=pair, number=i))
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    event.refresh_from_db()
    for number in range(1, rounds + 1):
        order = entries[:] if number == 1 else rng.sample(entries, len(entries))
        rnd = events.round_propose(
            event=event,
            actor=actor,
            number=number,
            tables=[(order[i].pk, order[i + 1].pk) for i in range(0, len(order), 2)],
        )
        events.round_open(rnd=rnd, actor=actor)
        rnd = Round.objects.get(pk=rnd.pk)
        play_round(rnd, rng)
        events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    events.event_publish(event=event, actor=actor)
    event.refresh_from_db()
    return event


def pdf_pages(client, event, kind, query="") -> list[str]:
    response = client.get(reverse("public:pdf", args=[event.pk, kind]) + query)
    assert response.status_code == 200, response.content[:300]
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


def test_a_traveller_of_16_tables_fits_one_a4_page(client, organiser):
    event = played_field(organiser, 32)
    pages = pdf_pages(client, event, "travellers", "?round=1")
    assert len(pages) == 1, f"{len(pages)} pages"
    for entry in event.entries.select_related("pair"):
        assert entry.pair.name.split()[0] in pages[0]


def _boxes(box, ancestors=()):
    """Every box WeasyPrint laid out under ``box``, with its ancestors."""
    yield box, ancestors
    for child in getattr(box, "children", None) or []:
        yield from _boxes(child, (*ancestors, box))


def laid_out(event, kind: str, lang: str, number=None):
    """The PDF's first part as WeasyPrint lays it out."""
    from weasyprint import HTML

    with translation.override(lang):
        ev = sel.event_view(event, staff=False)
        plan = pdf.pdf_plan(ev, kind, number, base="http://testserver")
        html = pdf.part_html(plan, plan.parts[0])
        return HTML(string=html, url_fetcher=pdf._fetcher()).render()


def overflowing_titles(event, kind: str, lang: str, number=None) -> list[tuple[str, float]]:
    """The column titles of the PDF's tables wider than their column: (title, CSS px over)."""
    from weasyprint.formatting_structure.boxes import TableCellBox, TextBox

    document = laid_out(event, kind, lang, number)
    over = []
    for page in document.pages:
        for box, ancestors in _boxes(page._page_box):
            if not isinstance(box, TableCellBox):
                continue
            if not any(a.element_tag == "thead" for a in ancestors):
                continue
            right = box.content_box_x() + box.width
            words = [t for t, _ in _boxes(box) if isinstance(t, TextBox)]
            beyond = max((t.position_x + t.width - right for t in words), default=0)
            if beyond > 0.5:
                over.append((" ".join(t.text for t in words), round(beyond, 1)))
    return over


def beyond_the_paper(event, kind: str, number=None) -> list[tuple[str, float]]:
    """The words of the PDF laid out past the right edge of the page's content: (word, CSS px
    over)."""
    from weasyprint.formatting_structure.boxes import TextBox

    document = laid_out(event, kind, "ca", number)
    over = []
    for page in document.pages:
        limit = page._page_box.content_box_x() + page._page_box.width
        for box, _ancestors in _boxes(page._page_box):
            if isinstance(box, TextBox) and box.position_x + box.width > limit + 0.5:
                over.append((box.text[:40], round(box.position_x + box.width - limit, 1)))
    return over


def test_names_without_spaces_stay_on_the_paper():
    """A pair and teams named by single long words: the PDFs' tables wrap them (the pairings'
    NS and EO columns and the team matches' victory points were off the page)."""
    report = build_demo()
    event, teams = report.event, report.teams
    pair = table_codes(event)[0].ns.pair
    long_words = ("Xavierfrancescjosepmariaboixaderasvilalta", "Montserratàngelsdomènechifàbregas")
    Player.objects.filter(pk=pair.player1_id).update(name=long_words[0])
    Player.objects.filter(pk=pair.player2_id).update(name=long_words[1])
    Pair.objects.filter(pk=pair.pk).update(name=" – ".join(long_words))
    for i, team in enumerate(Team.objects.filter(event=teams).order_by("pk")):
        Team.objects.filter(pk=team.pk).update(
            name=f"CasalCatalàdeSantaColomadeGramenetBotifarraClub{i}"
        )
    off = {
        kind: found
        for source, kind, number in (
            (event, "pairings", 2),
            (event, "standings", None),
            (teams, "team-matches", 1),
        )
        if (found := beyond_the_paper(source, kind, number))
    }
    assert off == {}, off


@pytest.mark.parametrize("lang", ["ca", "es", "en"])
def test_traveller_pdf_column_titles_fit_their_columns(organiser, lang):
    """ "Contros", "Elegido por", "Puntuació NS" were cut to "Contr", "Elegi", "Puntu"."""
    event = played_field(organiser, 16, boards=1)
    assert overflowing_titles(event, "travellers", lang, 1) == []


def test_the_standings_of_40_pairs_fit_one_a4_page(client, organiser):
    event = played_field(organiser, 40)
    pages = pdf_pages(client, event, "standings")
    assert len(pages) == 1, f"{len(pages)} pages"


def test_scorecards_print_one_pair_to_a_page_or_two_on_request(client, organiser):
    """The whole event's scorecards in the demo's format, 3 rounds of 4 boards: each pair's
    table and rank chart on one page (they took two), two pairs to a page with ?per_page=2
    (that gave one a page, half of it empty); the column titles inside their columns."""
    event = played_field(organiser, 8, boards=4, rounds=3)
    one = pdf_pages(client, event, "scorecards")
    two = pdf_pages(client, event, "scorecards", "?per_page=2")
    assert (len(one), len(two)) == (8, 4)
    for lang in ("ca", "es", "en"):
        assert overflowing_titles(event, "scorecards", lang) == [], lang
    for number, page in enumerate(two):
        for entry in event.entries.filter(number__in=(2 * number + 1, 2 * number + 2)):
            assert f"{entry.number}. {entry.pair.name.split()[0]}" in page


@pytest.mark.parametrize(
    ("lang", "calls"), [("en", "East contro, South recontro"), ("ca", "Est contro, Sud recontro")]
)
def test_two_scorecards_to_a_page_print_the_calls_whole(client, organiser, lang, calls):
    """A row of half a page keeps to one line, its long names cut with "…"; the calls were
    cut too ("East co…"): they are words the reader needs whole, and wrap instead."""
    event = played_field(organiser, 8, boards=4, rounds=3)
    BoardResult.objects.filter(pk=BoardResult.objects.filter(board__event=event).first().pk).update(
        doubles=[{"seat": "E", "call": "contro"}, {"seat": "S", "call": "recontro"}]
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    two = pdf_pages(client, event, "scorecards", "?per_page=2")
    assert len(two) == 4
    assert calls in " ".join(" ".join(two).split())


def test_scorecards_per_page_other_than_1_or_2_is_a_clear_400(client, organiser):
    event = played_field(organiser, 4)
    response = client.get(reverse("public:pdf", args=[event.pk, "scorecards"]) + "?per_page=5")
    assert response.status_code == 400
    assert "Scorecards print 1 or 2 to a page." in response.content.decode()
