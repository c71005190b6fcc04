"""Team pages on the database: organiser pages, public standings/Butler/matches, PDFs and CSV,
and the fairness rule of a team match (a board shows once both tables have entered it; the
public sees a match once its round is closed)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.teams.conftest import play_team_round, team_event
from tournaments.actors import Actor
from tournaments.models import AuditEntry, ByeRequest, Event, ForbiddenPair, TeamMatch
from tournaments.services import Conflict, events, late_entries, pairing_rules, results
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def enter(table, board, ns_total):
    """Both sides of ``table`` enter the same short result of ``board`` (so it is confirmed)."""
    data = {"trump": "oros", "totals": {"NS": ns_total, "EW": 72 - ns_total}}
    for side in ("NS", "EW"):
        results.result_submit_short(
            table=table, board_number=board, actor=Actor(table=table, side=side), data=data
        )


@pytest.fixture
def live(actor):
    """A published team event with round 1 open, nothing entered yet."""
    event = team_event(actor, 2, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    pairings_propose(event.pk, 1, actor=actor)
    events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    return Event.objects.get(pk=event.pk)


def table_client(table):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert client.post("/table/", {"code": table.code_ns}).status_code == 302
    return client


def test_a_board_shows_to_the_tables_only_once_both_have_entered_it(live, actor):
    match = TeamMatch.objects.get(round__event=live)
    open_room, closed_room = match.open_table, match.closed_table
    phone = table_client(open_room)
    url = f"/table/{open_room.code_ns}/match/"
    enter(open_room, 1, 50)  # open room: NS score 50 − 36 = 14
    page = phone.get(url).content.decode()
    assert 'data-board="1" class="waiting"' in page and ">14<" not in page
    enter(closed_room, 1, 30)  # closed room: EW scores 42 − 36 = 6, NS net −6
    page = phone.get(url).content.decode()
    assert 'data-board="1" data-units="5"' in page  # 14 − (−6) = 20 points: 5 units for A
    assert ">20<" in page and ">14<" in page and ">-6<" in page
    assert 'data-board="2" class="waiting"' in page
    # The public (the event is published) sees nothing of the match while the round is open.
    public = Client(HTTP_ACCEPT_LANGUAGE="en")
    url = f"/e/{live.pk}/teams/matches/1/1/"
    assert public.get(url).status_code == 403
    # Another account, not at the match: refused too; the organiser follows it live.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.force_login(UserFactory())
    assert other.get(url).status_code == 403
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(live.organisers.get())
    body = staff.get(url).content.decode()
    assert 'data-board="1" data-units="' in body and 'data-board="2" class="waiting"' in body


def test_public_pages_after_the_round_is_closed(actor, rng):
    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    play_team_round(event, actor, 1, rng)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    standings = client.get(f"/e/{event.pk}/teams/")
    assert standings.status_code == 200
    page = standings.content.decode()
    assert page.count("data-team=") == 4 and "Equip 1" in page
    butler = client.get(f"/e/{event.pk}/butler/").content.decode()
    assert butler.count("data-pair=") == 8
    rounds = client.get(f"/e/{event.pk}/teams/matches/").content.decode()
    assert f"/e/{event.pk}/teams/matches/1/1/" in rounds
    match = client.get(f"/e/{event.pk}/teams/matches/1/1/").content.decode()
    assert "waiting for both tables" not in match and "data-total-a" in match
    for kind in ("teams", "butler", "team-matches"):
        pdf = client.get(f"/e/{event.pk}/pdf/{kind}/")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), kind
    csv = client.get(f"/e/{event.pk}/export/teams.csv").content.decode()
    assert csv.splitlines()[0].startswith("after_round,rank,rank_shared,number,team")
    assert len(csv.splitlines()) == 5
    assert len(client.get(f"/e/{event.pk}/export/butler.csv").content.decode().splitlines()) == 9
    assert client.get(f"/e/{event.pk}/export/teams.xlsx").status_code == 200
    # docs/teams.md §10: both pages offer "PDF and CSV/XLSX", and every link of them answers.
    for path, kind in ((f"/e/{event.pk}/teams/", "teams"), (f"/e/{event.pk}/butler/", "butler")):
        page = client.get(path).content.decode()
        for link in (f"/pdf/{kind}/?round=1", f"/export/{kind}.csv?round=1"):
            assert f"/e/{event.pk}{link}" in page, link
        xlsx = f"/e/{event.pk}/export/{kind}.xlsx?round=1"
        assert xlsx in page
        answer = client.get(xlsx)
        assert answer.status_code == 200 and answer.content.startswith(b"PK"), kind


def test_a_large_team_events_pdfs_are_built_in_the_background(actor, rng, monkeypatch):
    """docs/exports.md: a PDF of a large event (more than 60 pairs, or more than 40 boards) is
    built by a task; a team event's were always built in the request (audit)."""
    from tournaments import pdf

    event = team_event(actor, 4, rounds_count=2, boards_per_round=2)  # 8 pairs
    events.event_publish(event=event, actor=actor)
    play_team_round(event, actor, 1, rng)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    monkeypatch.setattr(pdf, "LARGE_PAIRS", 7)
    for kind in ("teams", "butler", "team-matches"):
        page = client.get(f"/e/{event.pk}/pdf/{kind}/")
        assert page.status_code == 200 and b"Make the PDF" in page.content, kind
    monkeypatch.setattr(pdf, "LARGE_PAIRS", 8)
    monkeypatch.setattr(pdf, "LARGE_BOARDS", 3)  # two matches of two boards: four lines
    assert b"Make the PDF" in client.get(f"/e/{event.pk}/pdf/team-matches/").content
    assert client.get(f"/e/{event.pk}/pdf/teams/").content.startswith(b"%PDF")


def test_team_pages_of_a_pairs_event_say_so(actor):
    event = events.event_create(actor=actor, name="Parelles", published=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(f"/e/{event.pk}/teams/").status_code == 404
    assert client.get(f"/e/{event.pk}/pdf/teams/").status_code == 404
    assert client.get(f"/e/{event.pk}/export/butler.csv").status_code == 404


def test_organiser_registers_a_team_and_enters_a_line_up(organiser):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor, name="Equips", competitor=Event.Competitor.TEAMS, boards_per_round=2
    )
    events.registration_open(event=event, actor=actor)
    url = f"/manage/{event.pk}/teams/"
    bad = client.post(url, {"name": "Els Rapids", "player1": "A", "player2": "B", "player3": "C"})
    assert bad.status_code == 400 and event.teams.count() == 0  # three players: refused
    twice = {"name": "Els Rapids", "player1": "A", "player2": "B", "player3": "C", "player4": "a"}
    assert client.post(url, twice).status_code == 400 and event.teams.count() == 0
    for name, players in (("Els Rapids", "ABCDE"), ("La Penya", "FGHI")):
        data = {"name": name} | {f"player{k}": p for k, p in enumerate(players, start=1)}
        assert client.post(url, data).status_code == 302
    assert event.teams.count() == 2
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    pairings_propose(event.pk, 1, actor=actor)
    match = TeamMatch.objects.get(round__event=event)
    page = client.get(url).content.decode()
    lineup_url = f"/manage/{event.pk}/rounds/1/matches/1/lineup/"
    assert lineup_url in page
    team = event.teams.get(name="Els Rapids")
    ids = {m.player.name: m.player_id for m in team.members.select_related("player")}
    prefix = f"t{team.pk}"
    form = {
        "team": team.pk,
        f"{prefix}-first1": ids["E"],
        f"{prefix}-first2": ids["A"],
        f"{prefix}-second1": ids["B"],
        f"{prefix}-second2": ids["C"],
    }
    assert client.post(lineup_url, form).status_code == 302
    match.refresh_from_db()
    side = match.open_table.ns if match.team_a_id == team.pk else match.open_table.ew
    assert {side.pair.player1.name, side.pair.player2.name} == {"E", "A"}
    assert AuditEntry.objects.filter(event=event, action="team_lineup").count() == 1
    # a player twice: refused with a sentence, nothing changed
    form[f"{prefix}-second1"] = ids["E"]
    refused = client.post(lineup_url, form)
    assert refused.status_code == 400 and "Four different players" in refused.content.decode()
    assert AuditEntry.objects.filter(event=event, action="team_lineup").count() == 1
    standings_recompute(event.pk)


def test_a_line_up_change_in_the_open_round_asks_for_new_cards_then_is_refused(live, organiser):
    """While no board is played the line-up changes, the re-seated tables get new codes and the
    organiser is told to print their cards again; once a table has played a board, refused."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    match = TeamMatch.objects.get(round__event=live)
    url = f"/manage/{live.pk}/rounds/1/matches/1/lineup/"
    assert "print their table cards again" in client.get(url).content.decode()
    team = match.team_b
    ids = [m.player_id for m in team.members.order_by("order")]
    prefix = f"t{team.pk}"
    form = {"team": team.pk} | {
        f"{prefix}-{field}": ids[k]
        for k, field in enumerate(("second1", "second2", "first1", "first2"))
    }  # the team's pairs change rooms
    old = (match.open_table.code_ew, match.closed_table.code_ns)
    done = client.post(url, form, follow=True).content.decode()
    tables = f"{match.open_table.number}, {match.closed_table.number}"
    assert f"Tables {tables} have new codes: print their cards again." in done
    match.open_table.refresh_from_db()
    match.closed_table.refresh_from_db()
    assert old[0] != match.open_table.code_ew and old[1] != match.closed_table.code_ns
    table = match.open_table
    results.board_declare_played(table=table, board_number=1, actor=Actor(table=table, side="NS"))
    form |= {
        f"{prefix}-{field}": ids[k]
        for k, field in enumerate(("first1", "first2", "second1", "second2"))
    }
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "already played a board" in refused.content.decode()


@pytest.mark.django_db
def test_a_team_event_takes_no_requested_bye_nor_prohibited_pairing(organiser, actor, client):
    """Flows audit, 2026-12-06: the pairs and pairing pages of a team event offered a pair's
    requested bye and a prohibited pairing, and stored them, while the team pairing reads
    neither (docs/teams.md: pair-by-pair tools do not apply): the organiser was told a pair
    would sit out a round it was then seated in."""
    event = team_event(actor, n=4)
    pairings_propose(event.pk, 1, actor=actor)
    first, _second, third, *_ = event.entries.order_by("pk")
    with pytest.raises(Conflict):
        late_entries.bye_request_add(entry=first, actor=actor, round_number=2)
    with pytest.raises(Conflict):
        pairing_rules.forbidden_add(event=event, actor=actor, a=first.pk, b=third.pk)
    client.force_login(organiser)
    asked = client.post(
        f"/manage/{event.pk}/pairs/byes/", {"entry": first.pk, "round_number": 2}, follow=True
    )
    assert "In a team event the pairs come from the teams&#x27; line-ups." in asked.content.decode()
    client.post(
        f"/manage/{event.pk}/pairing/prohibited/", {"entry_a": first.pk, "entry_b": third.pk}
    )
    assert not ByeRequest.objects.exists() and not ForbiddenPair.objects.exists()
    assert "/pairs/byes/" not in client.get(f"/manage/{event.pk}/pairs/").content.decode()
    pairing = client.get(f"/manage/{event.pk}/pairing/").content.decode()
    assert "/pairing/prohibited/" not in pairing
