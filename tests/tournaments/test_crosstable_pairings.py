"""The crosstable (pairs × rounds) and the pairings list (score groups, direction history), on
screen and in print (issue 14): never a score of an open round for the public."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import UserFactory
from tests.tournaments.public_event import build_played_event
from tournaments import public_selectors as sel
from tournaments.actors import Actor
from tournaments.models import StandingsSnapshot
from tournaments.services import events
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_event(running_event, organiser):
    """Round 1 closed (1 v 2, 3 v 4), round 2 open with every result in (1 v 3, 2 v 4)."""
    return build_played_event(running_event, organiser)


def _match(event, number, table):
    snapshot = StandingsSnapshot.objects.get(event=event, after_round=number)
    return next(m for m in snapshot.matches if m["table"] == table)


def _scores(event, number):
    """How the round's match totals print in a cell, from both sides."""
    matches = StandingsSnapshot.objects.get(event=event, after_round=number).matches
    return {f"{m['total_ns']}–{m['total_ew']}" for m in matches} | {
        f"{m['total_ew']}–{m['total_ns']}" for m in matches
    }


def _open_round_only(event):
    only = _scores(event, 2) - _scores(event, 1)
    assert only, "the demo play gave both rounds the same scores: change the seed"
    return only


def test_crosstable_cells_read_the_stored_matches(played_event):
    ev = sel.event_view(played_event, staff=True)
    view = sel.crosstable(ev)
    assert view.rounds == [1, 2] and view.scored_round == 2
    row = next(r for r in view.rows if r.entry.number == 1)
    r1, r2 = row.cells
    m1 = _match(played_event, 1, 1)
    assert (r1.opponent.number, r1.direction, r1.table) == (2, "NS", 1)
    assert (r1.points_for, r1.points_against) == (m1["total_ns"], m1["total_ew"])
    expected = "W" if m1["mp_ns"] > m1["mp_ew"] else "L" if m1["mp_ns"] < m1["mp_ew"] else "D"
    assert r1.outcome == expected
    assert (r2.opponent.number, r2.direction) == (3, "NS")
    row3 = next(r for r in view.rows if r.entry.number == 3)
    assert (row3.cells[1].opponent.number, row3.cells[1].direction) == (1, "EW")
    assert row3.cells[1].points_for == _match(played_event, 2, 1)["total_ew"]


def test_the_public_crosstable_shows_no_score_of_the_open_round(played_event):
    ev = sel.event_view(played_event, staff=False)
    view = sel.crosstable(ev)
    assert view.scored_round == 1
    for row in view.rows:
        assert row.cells[0].scored
        open_cell = row.cells[1]
        assert open_cell.opponent is not None and open_cell.direction in ("NS", "EW")
        assert not open_cell.scored and open_cell.outcome is None


def test_crosstable_page_public_and_staff(client, played_event):
    url = reverse("public:crosstable", args=[played_event.pk])
    hidden = _open_round_only(played_event)
    page = client.get(url).content.decode()
    assert 'id="crosstable"' in page
    assert all(score in page for score in _scores(played_event, 1))
    assert not any(score in page for score in hidden)
    cells = page.split('data-round="2"')[1:]
    assert cells and all('class="res"' not in cell.split("</td>")[0] for cell in cells)
    referee = UserFactory(username="ref")
    played_event.referees.add(referee)
    client.force_login(referee)
    staff_page = client.get(url).content.decode()
    assert (
        all(score in staff_page for score in hidden) and "open round's results live" in staff_page
    )


def test_pairings_list_by_score_group_with_direction_history(played_event):
    ev = sel.event_view(played_event, staff=False)
    view = sel.pairings_list(ev, 2)
    before = {
        r["entry"]: r["match_points"]
        for r in StandingsSnapshot.objects.get(event=played_event, after_round=1).rows
    }
    scores = [g.score for g in view.groups]
    assert scores == sorted(set(before.values()), reverse=True)
    for group in view.groups:
        for line in group.lines:
            assert line.score == before[line.entry.pk] == group.score
    one = next(line for line in view.lines if line.entry.number == 1)
    assert (one.table, one.direction, one.opponent.number, one.history) == (1, "NS", 3, ["NS"])
    four = next(line for line in view.lines if line.entry.number == 4)
    assert (four.direction, four.history) == ("EW", ["EW"])
    assert one.floated == (before[one.entry.pk] != before[one.opponent.pk])
    first = sel.pairings_list(ev, 1)
    assert [g.score for g in first.groups] == [0.0] and all(not ln.history for ln in first.lines)


def test_a_proposed_round_is_listed_for_staff_only(client, played_event, organiser):
    actor = Actor(user=organiser)
    events.round_close(rnd=played_event.rounds.get(number=2), actor=actor)
    entries = list(played_event.entries.order_by("number"))
    events.round_propose(
        event=played_event,
        actor=actor,
        number=3,
        tables=[(entries[3].pk, entries[0].pk), (entries[2].pk, entries[1].pk)],
    )
    url = reverse("public:pairings", args=[played_event.pk])
    assert client.get(url + "?round=3").status_code == 404
    assert "selected>2<" in client.get(url).content.decode()  # the public's latest: round 2
    assert sel.pairings_list(sel.event_view(played_event, staff=False), 3) is None
    client.force_login(organiser)
    round_page = client.get(reverse("tournaments:round_detail", args=[played_event.pk, 3]))
    assert f"{url}?round=3" in round_page.content.decode()
    page = client.get(url + "?round=3").content.decode()
    assert "proposed, not open" in page
    view = sel.pairings_list(sel.event_view(played_event, staff=True), 3)
    four = next(line for line in view.lines if line.entry.number == 4)
    assert (four.direction, four.history) == ("NS", ["EW", "EW"])
    assert client.get(url + "?round=x").status_code == 400


@pytest.mark.parametrize("kind, query", [("crosstable", ""), ("pairings", "?round=2")])
def test_crosstable_and_pairings_print_as_pdf(client, played_event, kind, query):
    response = client.get(reverse("public:pdf", args=[played_event.pk, kind]) + query)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(body)).pages)
    name = played_event.entries.get(number=1).pair.name
    assert name in text
    if kind == "crosstable":  # the open round's scores are not printed for the public
        # Whole numbers only: "2–8" is not printed where "12–8" or "2–80" is.
        printed = [
            score
            for score in _open_round_only(played_event)
            if re.search(rf"(?<!\d){re.escape(score)}(?!\d)", text)
        ]
        assert printed == []


def test_a_table_that_played_nothing_before_the_close_has_no_match_in_the_crosstable(
    client, running_event, organiser
):
    """docs/organisers.md: such a table has no match at all; its cells said "… 0–0", as for a
    match still being played."""
    rnd = running_event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    standings_recompute(running_event.pk)
    ev = sel.event_view(running_event, staff=True)
    cells = [row.cells[0] for row in sel.crosstable(ev).rows]
    assert cells and all(c.no_match and not c.scored and c.outcome is None for c in cells)
    client.force_login(organiser)
    page = client.get(reverse("public:crosstable", args=[running_event.pk])).content.decode()
    assert page.count(">no match<") == len(cells) and "0–0" not in page
