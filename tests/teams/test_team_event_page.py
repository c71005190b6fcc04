"""A team event's public page speaks of a team event (issue #18, docs/teams.md §5 and §10): its
format and ranking, its team standings, matches and Butler ranking, and only downloads that
exist. It described a Swiss pairs event ranked by games won and offered four PDFs that answered
404 (audit, 2026-12-07)."""

import random
import re

import pytest

from tests.teams.conftest import play_team_round, team_event
from tournaments.services import events

pytestmark = pytest.mark.django_db


def test_a_team_events_page_names_its_format_and_links_only_what_exists(client, actor):
    event = team_event(actor, 4, rounds_count=1, boards_per_round=2)
    events.event_publish(event=event, actor=actor)
    play_team_round(event, actor, 1, random.Random(5))
    events.event_finish(event=event, actor=actor)
    html = client.get(f"/e/{event.pk}/").content.decode()
    facts = re.search(r'<dl class="event-facts">(.*?)</dl>', html, re.S).group(1)
    assert "Teams, Swiss" in facts and "victory points, then unit difference" in facts
    assert "pairs" not in facts.lower() and "games won" not in facts
    main = html[html.index('id="results-title"') : html.index('id="fairness-title"')]
    links = sorted(set(re.findall(r'href="(/e/[^"]+)"', main.replace("&amp;", "&"))))
    assert f"/e/{event.pk}/teams/" in links and f"/e/{event.pk}/butler/" in links
    for url in links:  # a pair's page leads to the Butler ranking (docs/teams.md §10)
        assert client.get(url, follow=True).status_code == 200, url


def test_a_finished_published_team_event_sends_no_results_mail_and_does_not_fail(actor):
    """The results e-mail read a team event's standings as a pairs event's (KeyError: the task
    failed for good on every team event); a team event's results are its team pages."""
    from tournaments.services.mailings import results_mails_send

    event = team_event(actor, 2, rounds_count=1, boards_per_round=2)
    play_team_round(event, actor, 1, random.Random(2))
    events.event_finish(event=event, actor=actor)
    events.event_publish(event=event, actor=actor)
    assert results_mails_send(event.pk) == 0
