"""#17: a round robin's all-play-all table (pairs × pairs) on the crosstable page and as a PDF:
each cell the matches of the row's pair against the column's, scores only where the crosstable
shows them (never the open round's to the public)."""

import io
import random
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.test_pairing_methods import actor, play, running  # noqa: F401
from tournaments import public_selectors as sel
from tournaments.demo import play_round
from tournaments.models import Event, StandingsSnapshot
from tournaments.services import events
from tournaments.services.pairings import pairings_propose

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_robin(actor):  # noqa: F811
    """Four pairs, all play all: rounds 1-2 closed, round 3 open with its results entered."""
    event = running(actor, 4, format=Event.Format.ROUND_ROBIN)
    events.event_publish(event=event, actor=actor)
    rng = random.Random(4)
    play(event, actor, 1, rng)
    play(event, actor, 2, rng)
    pairings_propose(event.pk, 3, actor=actor)
    play_round(events.round_open(rnd=event.rounds.get(number=3), actor=actor), rng)
    return Event.objects.get(pk=event.pk)


def pdf_text(response) -> str:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(body)).pages)
    return " ".join(text.split())


def closed_matches(event):
    return StandingsSnapshot.objects.get(event=event, after_round=2).matches


def test_the_grid_holds_each_meeting_once_from_both_sides(round_robin):
    grid = sel.round_robin_grid(sel.event_view(round_robin, staff=False))
    assert [c.number for c in grid.columns] == [1, 2, 3, 4]
    for i, row in enumerate(grid.rows):
        assert row.cells[i] is None  # the diagonal
        for j, meetings in enumerate(row.cells):
            if i == j:
                continue
            # Rounds 1-3 are open or closed: every pair has met every other once.
            assert len(meetings) == 1
            mine, theirs = meetings[0], grid.rows[j].cells[i][0]
            assert mine.round == theirs.round
            if mine.round <= 2:
                assert (mine.points_for, mine.points_against) == (
                    theirs.points_against,
                    theirs.points_for,
                )
                assert {mine.outcome, theirs.outcome} in ({"W", "L"}, {"D"})
            else:  # the open round: no score for the public
                assert mine.points_for is None and mine.outcome is None


def test_the_round_robin_pdf_prints_the_grid_without_the_open_rounds_scores(client, round_robin):
    text = pdf_text(client.get(reverse("public:pdf", args=[round_robin.pk, "round-robin"])))
    assert "Round robin table" in text and round_robin.name in text
    for entry in round_robin.entries.select_related("pair"):
        assert entry.pair.name in text
    for m in closed_matches(round_robin):
        assert f"{m['total_ns']}–{m['total_ew']}" in text
        assert f"{m['total_ew']}–{m['total_ns']}" in text
    assert "R1" in text and "R3" in text  # the open round's meetings, without their scores
    staff = sel.round_robin_grid(sel.event_view(round_robin, staff=True))
    public = sel.round_robin_grid(sel.event_view(round_robin, staff=False))
    open_only = {
        f"{c.points_for}–{c.points_against}"
        for row in staff.rows
        for cells in row.cells
        for c in cells or []
        if c.round == 3
    } - {
        f"{c.points_for}–{c.points_against}"
        for row in public.rows
        for cells in row.cells
        for c in cells or []
    }
    # A score is a whole "a–b" (``2–8`` must not be found inside ``12–8``).
    assert open_only and not any(
        re.search(rf"(?<!\d){re.escape(score)}(?!\d)", text) for score in open_only
    )


def test_the_crosstable_page_shows_the_grid_and_links_its_pdf(client, round_robin):
    page = client.get(reverse("public:crosstable", args=[round_robin.pk])).content.decode()
    assert 'id="round-robin-grid"' in page
    assert reverse("public:pdf", args=[round_robin.pk, "round-robin"]) in page


def test_a_swiss_has_no_round_robin_table(client, actor):  # noqa: F811
    swiss = running(actor, 4)
    events.event_publish(event=swiss, actor=actor)
    page = client.get(reverse("public:crosstable", args=[swiss.pk])).content.decode()
    assert "round-robin-grid" not in page
    response = client.get(reverse("public:pdf", args=[swiss.pk, "round-robin"]))
    assert response.status_code == 404
    assert "not a round robin" in response.content.decode()
