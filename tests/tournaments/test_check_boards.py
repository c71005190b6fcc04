"""Check the boards on the web (issue 14): a pasted seed against the event's commitment, any
board re-created from it, the `botifarra` commands beside it; the event's seed never shown
before the event is finished."""

import html
import io
import json
import shlex
from contextlib import redirect_stdout

import pytest
from django.urls import reverse

from engine.cli import main as botifarra
from tests.factories import UserFactory
from tournaments.actors import Actor
from tournaments.models import Event
from tournaments.play import seed_commitment
from tournaments.services import events
from tournaments.templatetags.cards import hand_lines

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(running_event, organiser):
    events.event_publish(event=running_event, actor=Actor(user=organiser))
    running_event.refresh_from_db()
    return running_event


def _url(event):
    return reverse("public:check_boards", args=[event.pk])


def _cli(*argv):
    out = io.StringIO()
    with redirect_stdout(out):
        assert botifarra(list(argv)) == 0
    return out.getvalue().strip()


def _hands_html(hands):
    return [str(hand_lines(tokens)) for tokens in hands.values()]


def test_the_page_shows_the_commitment_and_no_seed_while_running(client, published):
    page = client.get(_url(published)).content.decode()
    assert published.commitment in page
    assert published.seed not in page
    assert "secret until the event is finished" in page
    assert 'class="deal' not in page  # no board before a seed is pasted


def test_any_seed_deals_its_own_boards_and_does_not_match(client, published):
    # A seed is its exact text (deals.md): the spaces around it are part of it.
    response = client.post(_url(published), {"seed": "  my own seed ", "board": 3})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-match="no"' in page
    assert _cli("commit", "--seed", "  my own seed ") in page
    dealt = json.loads(_cli("deal", "--seed", "  my own seed ", "--board", "3"))
    assert all(html in page for html in _hands_html(dealt["hands"]))
    real = published.boards.get(number=3).hands
    assert not any(html in page for html in _hands_html(real))
    assert published.seed not in page
    shown = html.unescape(page)
    assert f"botifarra deal --seed={shlex.quote('  my own seed ')} --board 3" in shown
    plain = json.loads(_cli("deal", "--seed", "my own seed", "--board", "3"))
    assert plain["hands"] != dealt["hands"]
    assert not any(html in page for html in _hands_html(plain["hands"]))


def test_the_events_seed_matches_and_deals_the_board_played(client, published, organiser):
    actor = Actor(user=organiser)
    rnd = published.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=actor, accept_missing=True)
    events.event_finish(event=published, actor=actor)
    published.refresh_from_db()
    assert published.status == Event.Status.FINISHED
    page = client.get(_url(published)).content.decode()
    assert published.seed in page  # revealed now, offered in the form
    response = client.post(_url(published), {"seed": published.seed, "board": 2})
    page = response.content.decode()
    assert 'data-match="yes"' in page and "is the board that was played" in page
    assert all(html in page for html in _hands_html(published.boards.get(number=2).hands))
    assert f"botifarra commit --seed={published.seed}" in page
    assert f"--boards 1-{published.total_boards}" in page


def _finish(event, organiser):
    actor = Actor(user=organiser)
    events.round_close(rnd=event.rounds.get(number=1), actor=actor, accept_missing=True)
    events.event_finish(event=event, actor=actor)
    event.refresh_from_db()


def test_a_seed_with_spaces_of_its_own_matches_exactly(client, published, organiser):
    """An imported event's seed may begin or end with a space: deals.md hashes it as it is."""
    Event.objects.filter(pk=published.pk).update(
        seed=" padded ", commitment=seed_commitment(" padded ")
    )
    _finish(published, organiser)
    page = client.post(_url(published), {"seed": " padded ", "board": 1}).content.decode()
    assert 'data-match="yes"' in page and 'id="trimmed"' not in page
    page = client.post(_url(published), {"seed": "padded", "board": 1}).content.decode()
    assert 'data-match="no"' in page


def test_a_pasted_seed_with_stray_spaces_matches_once_trimmed_and_says_so(client, published):
    page = client.post(
        _url(published), {"seed": f" {published.seed}  ", "board": 2}
    ).content.decode()
    assert 'data-match="yes"' in page and 'id="trimmed"' in page
    assert all(html in page for html in _hands_html(published.boards.get(number=2).hands))


def test_a_wrong_board_or_an_empty_seed_is_a_form_error(client, published):
    total = published.total_boards
    response = client.post(_url(published), {"seed": "x", "board": total + 1})
    assert response.status_code == 400
    assert f"less than or equal to {total}" in response.content.decode()
    response = client.post(_url(published), {"seed": "   ", "board": 1})
    assert response.status_code == 400 and 'class="deal' not in response.content.decode()
    response = client.post(_url(published), {"seed": "s" * 201, "board": 1})
    assert response.status_code == 400


def test_an_unpublished_event_has_no_public_check_page(client, running_event):
    assert client.get(_url(running_event)).status_code == 404
    client.force_login(UserFactory(username="stranger"))
    assert client.post(_url(running_event), {"seed": "x", "board": 1}).status_code == 404
