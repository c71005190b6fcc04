"""Issue 15's smaller things, each as the organiser or a player meets it on a first night."""

import logging
import random
import re
import tomllib
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import BoardResultFactory, EventFactory, PairFactory, UserFactory
from tests.tournaments.public_event import build_played_event
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import MAX_BOARDS_PER_ROUND, MAX_ROUNDS, Board, Entry, Event, Round
from tournaments.services import events
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

ROOT = Path(__file__).resolve().parents[2]


def _started(organiser, pairs: int) -> tuple[Event, list[Entry]]:
    event = EventFactory(organisers=[organiser], status="registration", boards_per_round=2)
    entries = [
        Entry.objects.create(event=event, pair=PairFactory(), number=i) for i in range(1, pairs + 1)
    ]
    events.event_start(event=event, actor=Actor(user=organiser))
    events.boards_generate(event=event)
    event.refresh_from_db()
    return event, entries


@pytest.mark.django_db
def test_a_pair_with_a_bye_and_no_board_shows_a_dash_not_zero_percent(client, organiser):
    event, entries = _started(organiser, 3)
    actor = Actor(user=organiser)
    rnd = events.round_propose(
        event=event,
        actor=actor,
        number=1,
        tables=[(entries[0].pk, entries[1].pk)],
        bye=entries[2].pk,
    )
    events.round_open(rnd=rnd, actor=actor)
    play_round(Round.objects.get(pk=rnd.pk), random.Random(3))
    events.round_close(rnd=Round.objects.get(pk=rnd.pk), actor=actor)
    standings_recompute(event.pk)
    events.event_publish(event=event, actor=actor)
    html = client.get(reverse("public:standings", args=[event.pk])).content.decode()
    row = html[html.index('data-entry="3"') :]
    row = row[: row.index("</tr>")]
    assert "—" in row and "0.0" not in row
    played = html[html.index('data-entry="1"') :]
    assert "—" not in played[: played.index("</tr>")]


@pytest.mark.django_db
def test_event_form_inputs_carry_the_servers_limits(client, organiser):
    client.force_login(organiser)
    html = client.get(reverse("tournaments:event_create")).content.decode()
    rounds_input = html[
        html.index('name="rounds_count"') - 200 : html.index('name="rounds_count"') + 200
    ]
    boards_input = html[
        html.index('name="boards_per_round"') - 200 : html.index('name="boards_per_round"') + 200
    ]
    assert f'max="{MAX_ROUNDS}"' in rounds_input
    assert f'max="{MAX_BOARDS_PER_ROUND}"' in boards_input


@pytest.mark.django_db
def test_a_game_target_of_0_is_refused_by_the_form_and_the_model(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:event_create"),
        {
            "name": "Zero",
            "date": "2026-12-01",
            "ruleset": "lliure",
            "game_target": 0,
            "game_cap": 121,
            "match_mode": "boards",
            "rounds_count": 3,
            "boards_per_round": 4,
            "ranking_method": "wins",
            "bye_points": 36,
        },
    )
    assert response.status_code in (200, 400)
    assert "game_target" in response.context["form"].errors
    assert not Event.objects.filter(name="Zero").exists()
    with pytest.raises(ValidationError) as refused:
        Event(name="Zero", game_target=0, rounds_count=31, boards_per_round=37).full_clean(
            exclude=["commitment"]
        )
    assert {"game_target", "rounds_count", "boards_per_round"} <= set(refused.value.error_dict)


@pytest.mark.django_db
def test_the_language_menu_has_a_button_and_no_submit_on_change(client):
    html = client.get("/").content.decode()
    form = html[html.index('class="lang"') : html.index("</form>", html.index('class="lang"'))]
    assert '<button type="submit" id="lang-submit">' in form
    assert "autosubmit" not in html and "<noscript>" not in form
    assert not (ROOT / "static" / "js" / "site.js").exists()


@pytest.mark.django_db
def test_the_dashboard_after_the_start_offers_to_pair_round_1(client, organiser):
    event, _entries = _started(organiser, 4)
    client.force_login(organiser)
    html = client.get(reverse("tournaments:event_dashboard", args=[event.pk])).content.decode()
    assert "once the event has started" not in html
    assert reverse("tournaments:round_detail", args=[event.pk, 1]) in html
    assert "round 1 is not paired yet" in html


@pytest.mark.django_db
def test_close_round_warning_separates_disputed_unconfirmed_and_missing(
    client, running_event, organiser
):
    rnd = running_event.rounds.get(number=1)
    t1, t2 = rnd.tables.order_by("number")
    b1, b2 = (Board.objects.get(event=running_event, number=n) for n in rnd.board_numbers[:2])
    BoardResultFactory(table=t1, board=b1, status="disputed")
    BoardResultFactory(table=t1, board=b2, status="entered")
    BoardResultFactory(table=t2, board=b1, status="confirmed")
    client.force_login(organiser)
    html = client.get(
        reverse("tournaments:round_close", args=[running_event.pk, 1])
    ).content.decode()
    table1 = html[html.index('data-table="1"') : html.index('data-table="2"')]
    assert f"disputed, waiting for a referee: board {b1.number}" in table1
    assert f"entered, not confirmed by the other pair: board {b2.number}" in table1
    assert "no result entered" not in table1
    table2 = html[html.index('data-table="2"') :]
    assert f"no result entered: board {b2.number}" in table2
    assert "disputed" not in table2[: table2.index("</ul>")]
    # Closing freezes the rulings (docs/organisers.md); the page once promised the opposite.
    assert "can still rule" not in html and "reopen the round for rulings" in html


@pytest.mark.django_db
def test_a_proposed_round_is_called_proposed(client, running_event, organiser):
    """docs/organisers.md: propose → open → close; the round's badge said "Pending"."""
    actor = Actor(user=organiser)
    events.round_close(rnd=running_event.rounds.get(number=1), actor=actor, accept_missing=True)
    pairings_propose(running_event.pk, 2, actor=actor)
    client.force_login(organiser)
    html = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 2])).content
    assert b'id="round-status"' in html and b">Proposed<" in html and b"Pending" not in html


@pytest.mark.django_db
def test_match_points_and_a_boards_score_have_different_short_names(client, played_event):
    """Issue 15: a word means one thing. The public round page headed its match points "NS Pts"
    and the boards' scores "NS pts" (as travellers did)."""
    html = client.get(reverse("public:round_results", args=[played_event.pk, 1])).content.decode()
    shorts = [s for s in re.findall(r'class="short-label"[^>]*>([^<]+)<', html) if "NS" in s]
    assert "NS Pts" in shorts and "NS score" in shorts
    assert len({s.casefold() for s in set(shorts)}) == len(set(shorts)), shorts


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True


@pytest.mark.django_db
def test_with_debug_on_a_missing_page_is_the_projects_own_404(client, debug_on):
    for url in ("/no/such/page/", "/e/999999/"):
        response = client.get(url)
        assert response.status_code == 404, url
        body = response.content.decode()
        assert "Page not found" in body and "Enter a table code" in body, url
        assert "DEBUG = True" not in body and "URLconf" not in body, url


@pytest.mark.django_db
def test_with_debug_on_a_403_is_the_projects_page_and_logs_no_traceback(
    client, running_event, debug_on, caplog
):
    running_event.published = True
    running_event.save(update_fields=["published"])
    client.force_login(UserFactory(username="outsider"))
    url = reverse("public:table_cards", args=[running_event.pk, 1])
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(url)
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()
    forbidden = [r for r in caplog.records if r.name == "django.request"]
    assert forbidden and all(r.exc_info is None for r in forbidden)


def test_pyproject_declares_the_license_as_an_spdx_string():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["license"] == "AGPL-3.0-or-later"
    setuptools = next(r for r in data["build-system"]["requires"] if r.startswith("setuptools"))
    assert int(setuptools.split(">=")[1].split(".")[0]) >= 77  # PEP 639 license strings


@pytest.mark.django_db
def test_with_debug_on_a_missing_slash_still_redirects(client, debug_on):
    response = client.get("/table")
    assert response.status_code == 301 and response["Location"] == "/table/"
