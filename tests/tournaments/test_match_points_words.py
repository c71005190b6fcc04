"""Issue 15: "MP" means one thing. Match points (the standings: 2 a win) and matchpoints (a
board's duplicate comparison: travellers, scorecards) are abbreviated differently in every
language, on the pages and so in the PDFs (the same templates), and in the CSV headers."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.tournaments.public_event import build_played_event
from tournaments import exports

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


def abbreviations(html: str) -> dict[str, str]:
    """Each <abbr>'s title → its text."""
    return {
        title: text.strip()
        for title, text in re.findall(r'<abbr title="([^"]+)">([^<]+)</abbr>', html)
    }


def page(client, name, *args, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(reverse(f"public:{name}", args=args))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("lang", ["en", "ca", "es"])
def test_match_points_and_matchpoints_never_share_an_abbreviation(client, played_event, lang):
    standings = abbreviations(page(client, "standings", played_event.pk, lang=lang))
    scorecard = abbreviations(page(client, "scorecard", played_event.pk, 1, lang=lang))
    traveller = abbreviations(page(client, "traveller", played_event.pk, 1, lang=lang))
    match_points = [t for title, t in standings.items() if "2" in title]  # "…: 2 a win, …"
    assert len(match_points) == 1
    (scorecard_mp,) = scorecard.values()
    assert match_points[0] != scorecard_mp
    words = [text.split() for text in traveller.values()]
    assert sum(scorecard_mp in w for w in words) == 2  # "NS MP", "EW MP": the scorecard's word
    assert not [w for w in words if match_points[0] in w]


def test_english_standings_say_pts_and_travellers_mp(client, played_event):
    standings = page(client, "standings", played_event.pk, lang="en")
    assert ">Pts</abbr>" in standings and ">MP<" not in standings
    assert 'title="Matchpoints on the board' in page(
        client, "scorecard", played_event.pk, 1, lang="en"
    )


def test_csv_headers_name_matchpoints_in_full():
    assert "match_points" in exports.STANDINGS_COLUMNS
    assert {"matchpoints_ns", "matchpoints_ew"} <= set(exports.RESULTS_COLUMNS)
    assert not [c for c in exports.RESULTS_COLUMNS + exports.STANDINGS_COLUMNS if "mp_" in c]


@pytest.mark.parametrize("lang", ["en", "ca", "es"])
@pytest.mark.parametrize("name", ["crosstable", "pairings", "round_results"])
def test_every_page_abbreviates_match_points_as_the_standings_do(client, played_event, name, lang):
    """The crosstable, the pairings list (match points before the round) and a round's results
    (each pair's match points) say it as the standings do, never as a traveller's matchpoints."""
    standings = abbreviations(page(client, "standings", played_event.pk, lang=lang))
    (pts,) = [t for title, t in standings.items() if "2" in title]
    (scorecard_mp,) = abbreviations(
        page(client, "scorecard", played_event.pk, 1, lang=lang)
    ).values()
    args = (played_event.pk, 1) if name == "round_results" else (played_event.pk,)
    html = page(client, name, *args, lang=lang)
    heads = [w for text in re.findall(r"<abbr[^>]*>([^<]+)</abbr>", html) for w in text.split()]
    assert pts in heads
    assert scorecard_mp not in heads or scorecard_mp == pts
