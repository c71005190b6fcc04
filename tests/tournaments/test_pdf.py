"""PDFs: every kind in every language, the same visibility rules, big ones through a task."""

import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import UserFactory
from tests.tournaments.public_event import build_played_event
from tournaments import pdf
from tournaments.models import BoardResult

pytestmark = pytest.mark.django_db
LANGUAGES = ("ca", "es", "en")
PUBLIC_KINDS = ("standings", "hand-records", "travellers", "scorecards")


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


def fetch(client, event, kind, lang="en", query=""):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(reverse("public:pdf", args=[event.pk, kind]) + query)


def pdf_text(response) -> tuple[int, str]:
    assert response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"]
    data = b"".join(response.streaming_content) if response.streaming else response.content
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return len(reader.pages), " ".join(text.split())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", PUBLIC_KINDS)
def test_public_pdfs_render_in_each_language(client, played_event, kind, lang):
    response = fetch(client, played_event, kind, lang)
    assert response.status_code == 200, response.content[:500]
    pages, text = pdf_text(response)
    assert pages >= 1
    assert played_event.name in text
    names = [e.pair.name for e in played_event.entries.all()]
    if kind in ("standings", "scorecards", "travellers"):
        for name in names:
            assert name in text, (kind, name)
    if kind == "standings":
        # The public sees the standings after the last closed round (round 2 is open).
        rows = played_event.snapshots.get(after_round=1).rows
        for row in rows:
            assert f" {row['points_for']} {row['points_against']} {row['point_diff']} " in text
        sep = "," if lang in ("ca", "es") else "."  # localised numbers: 52,5 or 52.5
        assert re.search(rf" \d{{1,3}}{re.escape(sep)}\d ", text)
    if kind == "travellers":
        for result in BoardResult.objects.filter(table__round__number=1):
            assert f" {result.score_ns} {result.score_ew} " in text
    if kind == "hand-records":
        assert re.search(r"♦ O [0-9]", text)


def test_standings_pdf_dates_follow_the_language(client, played_event):
    _n, ca = pdf_text(fetch(client, played_event, "standings", "ca"))
    _n, es = pdf_text(fetch(client, played_event, "standings", "es"))
    month = played_event.date.month
    catalan = [
        "gener",
        "febrer",
        "març",
        "abril",
        "maig",
        "juny",
        "juliol",
        "agost",
        "setembre",
        "octubre",
        "novembre",
        "desembre",
    ][month - 1]
    spanish = [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ][month - 1]
    assert catalan in ca
    assert spanish in es


def test_scorecards_put_one_pair_per_page(client, played_event):
    pages, text = pdf_text(fetch(client, played_event, "scorecards", query="?round=1"))
    assert pages == played_event.entries.count()
    assert "Rank" in text or "After round" in text  # the rank chart's own text


def test_open_round_boards_never_in_a_public_pdf(client, played_event):
    for kind in ("hand-records", "travellers", "scorecards"):
        assert fetch(client, played_event, kind, query="?round=2").status_code == 403, kind
    for kind in PUBLIC_KINDS:
        _n, text = pdf_text(fetch(client, played_event, kind))
        assert "Board 3" not in text and "Board 4" not in text, kind
    _n, text = pdf_text(fetch(client, played_event, "scorecards"))
    for result in BoardResult.objects.filter(table__round__number=2).select_related("board"):
        assert f" 2 {result.board.number} {result.table.number} " not in text


def test_organisers_get_open_round_travellers_and_table_cards(client, played_event, organiser):
    assert fetch(client, played_event, "table-cards", query="?round=2").status_code in (302, 403)
    client.force_login(organiser)
    _n, text = pdf_text(fetch(client, played_event, "travellers", query="?round=2"))
    assert "Board 3" in text
    pages, text = pdf_text(fetch(client, played_event, "table-cards", query="?round=2"))
    assert pages == 1  # 2 tables, 2 cards to a page
    for table in played_event.rounds.get(number=2).tables.all():
        assert table.code_ns in text
        assert table.ns.pair.name in text


def test_table_cards_refused_to_the_public(client, played_event):
    response = fetch(client, played_event, "table-cards", query="?round=2")
    assert response.status_code == 403
    client.force_login(UserFactory(username="outsider"))
    assert fetch(client, played_event, "table-cards", query="?round=2").status_code == 403


def test_bad_pdf_requests_are_clear_errors(client, played_event, organiser):
    assert fetch(client, played_event, "nonsense").status_code == 404
    assert fetch(client, played_event, "standings", query="?round=abc").status_code == 400
    assert fetch(client, played_event, "standings", query="?round=9").status_code == 404
    client.force_login(organiser)
    assert fetch(client, played_event, "table-cards").status_code == 400
    assert fetch(client, played_event, "hand-records", query="?round=9").status_code == 404


def test_unpublished_event_pdf_is_404(client, running_event, organiser):
    event = build_played_event(running_event, organiser, publish=False)
    assert fetch(client, event, "standings").status_code == 404


def test_pdf_embeds_the_svg_charts(played_event):
    from tournaments import public_selectors as sel

    ev = sel.event_view(played_event, staff=False)
    plan = pdf.pdf_plan(ev, "travellers", None, base="http://testserver")
    html = pdf.part_html(plan, plan.parts[0])
    assert "<svg" in html and "NS net score" in html
    assert "<script" not in html and "http://" not in html.split("</style>")[0]


def test_a_large_pdf_is_built_by_a_task_with_progress(
    client,
    played_event,
    organiser,
    monkeypatch,
    tmp_path,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(pdf, "LARGE_PAIRS", 2)
    url = reverse("public:pdf", args=[played_event.pk, "scorecards"])
    page = client.get(url)
    assert page.status_code == 200 and b"Make the PDF" in page.content
    with django_capture_on_commit_callbacks(execute=True):  # queued after commit
        response = client.post(url)
    assert response.status_code == 302
    job_page = client.get(response["Location"])
    assert job_page.status_code == 200
    job = response["Location"].split("job=")[1]
    status = client.get(reverse("public:pdf_status", args=[played_event.pk, job])).json()
    assert status["state"] == "done" and status["total"] >= 1 and status["done"] == status["total"]
    download = client.get(status["download"])
    assert download.status_code == 200
    _n, text = pdf_text(download)
    assert played_event.entries.get(number=1).pair.name in text
    assert list((tmp_path / "pdf" / str(played_event.pk)).glob("*.pdf"))


def test_an_organisers_pdf_job_is_not_for_the_public(
    client,
    played_event,
    organiser,
    monkeypatch,
    tmp_path,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(pdf, "LARGE_PAIRS", 2)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("public:pdf", args=[played_event.pk, "travellers"]))
    job = response["Location"].split("job=")[1]
    assert (
        client.get(reverse("public:pdf_download", args=[played_event.pk, job])).status_code == 200
    )
    client.logout()
    assert (
        client.get(reverse("public:pdf_download", args=[played_event.pk, job])).status_code == 404
    )
    assert client.get(reverse("public:pdf_status", args=[played_event.pk, job])).status_code == 404


def test_unknown_pdf_job_is_404(client, played_event):
    job = "00000000-0000-4000-8000-000000000000"
    assert client.get(reverse("public:pdf_status", args=[played_event.pk, job])).status_code == 404
    assert (
        client.get(reverse("public:pdf_download", args=[played_event.pk, job])).status_code == 404
    )


def test_a_pdf_job_that_fails_tells_the_reader_without_the_programs_error(
    client, played_event, monkeypatch, tmp_path, settings, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(pdf, "LARGE_PAIRS", 2)

    def broken(plan, progress=None):
        raise KeyError("layout_column_7")

    monkeypatch.setattr(pdf, "render_pdf", broken)
    url = reverse("public:pdf", args=[played_event.pk, "scorecards"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url)
    job = response["Location"].split("job=")[1]
    status = client.get(reverse("public:pdf_status", args=[played_event.pk, job])).json()
    assert status["state"] == "failed" and status["error"] == ""
    page = client.get(response["Location"]).content.decode()
    assert "layout_column_7" not in page
