"""The club's season on a page and in CSV (scoring.season over the stored final standings):
best N of M with the field's point table, only finished events of the season's dates, only
events the reader may see; seasons created by the club's organisers only."""

import csv
import io
import re
from datetime import date

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.club_history import club_evening, evening_with_a_replacement, players
from tournaments.actors import Actor
from tournaments.club_selectors import season_view
from tournaments.models import Event, Season
from tournaments.services import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organiser):
    club = ClubFactory(name="Penya Botifarrera")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def members(club):
    return players(*[f"Soci {i}" for i in range(10)], club=club)


def _lineup(members, shift):
    order = members[shift:] + members[:shift]
    return [(order[i], order[i + 5]) for i in range(4)]


def _evening(club, organiser, members, n, **kw):
    return club_evening(
        club, organiser, _lineup(members, n), when=date(2026, 9, 1 + 7 * n), seed=n, **kw
    )


def _field_points(event):
    """Each player's points in ``event`` by the field table (N − place + 1, shared places
    averaged), read from the final snapshot without the season code."""
    rows = event.snapshots.order_by("-after_round").first().rows
    n = len(rows)
    share = {}
    for r in rows:
        share.setdefault(r["rank"], []).append(r["entry"])
    points = {}
    for rank, entries in share.items():
        value = sum(n - p + 1 for p in range(rank, rank + len(entries))) / len(entries)
        for entry in event.entries.filter(pk__in=entries):
            points[entry.pair.player1_id] = value
            points[entry.pair.player2_id] = value
    return points


def test_the_season_counts_each_players_best_events(club, organiser, members):
    evenings = [_evening(club, organiser, members, n) for n in range(3)]
    _evening(club, organiser, members, 3, finish=False)  # running: not in the season yet
    season = Season.objects.create(
        club=club, name="Tardor", starts=date(2026, 9, 1), ends=date(2026, 12, 31), best=2
    )
    view = season_view(season, Actor(user=organiser))
    assert [e.pk for e in view.events] == [e.pk for e in evenings]
    per_event = [_field_points(e) for e in evenings]
    for row in view.rows:
        (player,) = row.players
        scores = sorted((pts[player.pk] for pts in per_event if player.pk in pts), reverse=True)
        assert row.total == pytest.approx(sum(scores[:2]))
        assert row.events_played == len(scores)
    totals = [r.total for r in view.rows]
    assert totals == sorted(totals, reverse=True)
    assert {p.pk for r in view.rows for p in r.players} == {m.pk for m in members}


def test_the_season_keeps_to_its_dates_and_to_what_the_reader_may_see(
    client, club, organiser, members
):
    inside = _evening(club, organiser, members, 0)
    outside = _evening(club, organiser, members, 1)
    hidden = _evening(club, organiser, members, 2)
    events.event_publish(event=hidden, actor=Actor(user=organiser), published=False)
    season = Season.objects.create(club=club, name="Setembre", starts=inside.date, ends=hidden.date)
    Event.objects.filter(pk=outside.pk).update(date=date(2027, 1, 1))
    url = reverse("clubs:season", args=[club.pk, season.pk])
    public = client.get(url)
    assert public.status_code == 200
    assert [e.pk for e in public.context["view"].events] == [inside.pk]
    client.force_login(organiser)
    assert [e.pk for e in client.get(url).context["view"].events] == [inside.pk, hidden.pk]


def test_the_season_csv_has_a_row_per_player_and_event(client, club, organiser, members):
    members[0].name = "=cmd()"
    members[0].save()
    first = _evening(club, organiser, members, 0)
    _evening(club, organiser, members, 1)
    season = Season.objects.create(
        club=club, name="S", starts=first.date, ends=date(2026, 12, 31), rank_by="pair"
    )
    response = client.get(reverse("clubs:season_csv", args=[club.pk, season.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 8  # four partnerships each evening, all different
    assert {r["counted"] for r in rows} == {"1"}
    assert any(r["players"].startswith("'=cmd()") for r in rows)


def test_only_the_clubs_organisers_create_a_season(client, club, organiser):
    url = reverse("clubs:season_new", args=[club.pk])
    form = {
        "name": "Hivern",
        "starts": "2027-01-01",
        "ends": "2027-03-31",
        "point_table": "top10",
        "best": "",
        "rank_by": "player",
    }
    client.force_login(UserFactory())
    assert client.post(url, form).status_code == 404
    client.force_login(organiser)
    wrong = client.post(url, form | {"ends": "2026-12-01"})
    assert wrong.status_code == 400 and "comes before the first" in wrong.content.decode()
    assert not Season.objects.exists()
    assert client.post(url, form).status_code == 302
    season = Season.objects.get()
    assert (season.club, season.point_table, season.best) == (club, "top10", None)
    assert "Hivern" in client.get(reverse("clubs:club", args=[club.pk])).content.decode()


@pytest.mark.parametrize("name", ["Temporada 2025/26", "Lliga: hivern", "Season [A]"])
def test_a_season_named_as_clubs_name_them_downloads_as_excel(client, club, name):
    """A sheet's name may not hold \\ / * ? : [ ]: "Temporada 2025/26" made the download a
    500. The sheet keeps the name, those characters made dashes."""
    season = Season.objects.create(
        club=club, name=name, starts=date(2025, 9, 1), ends=date(2026, 6, 30)
    )
    response = client.get(reverse("clubs:season_xlsx", args=[club.pk, season.pk]))
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == re.sub(r"[/:\[\]]", "-", name)[:31]


def test_the_season_pdf_and_xlsx_give_the_ranking_the_reader_may_see(
    client, club, organiser, members
):
    first = _evening(club, organiser, members, 0)
    second = _evening(club, organiser, members, 1)
    hidden = _evening(club, organiser, members, 2)
    events.event_publish(event=hidden, actor=Actor(user=organiser), published=False)
    season = Season.objects.create(
        club=club, name="Tardor", starts=first.date, ends=date(2026, 12, 31), best=1
    )
    view = season_view(season, Actor())
    assert [e.pk for e in view.events] == [first.pk, second.pk]

    response = client.get(reverse("clubs:season_pdf", args=[club.pk, season.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Penya Botifarrera · Tardor" in text and "best 1 of 2 events" in text
    assert first.name in text and second.name in text and hidden.name not in text
    top = view.rows[0]
    assert top.players[0].name in text

    book = load_workbook(
        io.BytesIO(client.get(reverse("clubs:season_xlsx", args=[club.pk, season.pk])).content)
    )
    sheet = book.active
    header = [c.value for c in sheet[1]]
    records = [dict(zip(header, (c.value for c in row), strict=True)) for row in sheet.iter_rows(2)]
    assert len(records) == 16  # eight players each evening (the hidden one not shown)
    assert {r["Event id"] for r in records} == {first.pk, second.pk}
    assert all(isinstance(r["Points"], int | float) for r in records)
    players = {r["Players"] for r in records}
    assert sum(1 for r in records if r["Counted"]) == len(players)  # best 1: one event each


def test_a_season_of_partnerships_credits_two_players_even_with_a_substitute(club, organiser):
    from tournaments.models import Pair, Substitution

    a, b, c, d, e, f, g, h, sub = players(*"ABCDEFGH", "Sub", club=club)
    event = club_evening(
        club, organiser, [(a, b), (c, d), (e, f), (g, h)], when=date(2026, 9, 1), rounds=3
    )
    entry = event.entries.get(pair__player1=a)
    old = entry.pair
    # Sub came in for B from round 3: A–B played two rounds, A–Sub one.
    entry.pair = Pair.objects.create(name="A – Sub", player1=a, player2=sub)
    entry.save(update_fields=["pair"])
    Substitution.objects.create(
        entry=entry, from_round=3, player_out=b, player_in=sub, previous_pair=old, created_by="x"
    )
    by_pair = Season.objects.create(
        club=club, name="Parelles", starts=date(2026, 1, 1), ends=date(2026, 12, 31), rank_by="pair"
    )
    rows = season_view(by_pair, Actor(user=organiser)).rows
    assert all(len(r.players) == 2 for r in rows)
    assert {frozenset(p.name for p in r.players) for r in rows} >= {frozenset("AB")}
    by_player = Season.objects.create(
        club=club, name="Jugadors", starts=date(2026, 1, 1), ends=date(2026, 12, 31)
    )
    credited = {
        p.name for r in season_view(by_player, Actor(user=organiser)).rows for p in r.players
    }
    assert {"A", "B", "Sub"} <= credited  # every player who played for the pair


def test_a_player_replaced_before_round_1_did_not_play_and_scores_nothing(client, club, organiser):
    """clubs.md §2: every player who played for the pair gets its points; one replaced before
    the first round opened played none of it (nor is the event on their page)."""
    ps = players(*[f"Q{i}" for i in range(8)], club=club)
    event, sub = evening_with_a_replacement(club, organiser, ps, when=date(2026, 10, 1))
    assert sub.from_round == 1
    season = Season.objects.create(
        club=club, name="S", starts=date(2026, 1, 1), ends=date(2026, 12, 31)
    )
    credited = {p.name for r in season_view(season, Actor(user=None)).rows for p in r.players}
    assert "Zoe" in credited and sub.player_in.name == "Zoe"
    assert sub.player_out.name not in credited
    page = client.get(reverse("players:player", args=[sub.player_out.pk])).content.decode()
    assert event.name not in page
