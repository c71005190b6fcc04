"""No card leaks: board 1 of the open round was played by table 1 only, board 2 entered by table
1 only. Nobody who may not see them (anonymous, table 2, another event's organiser or referee,
staff who are not superusers) finds their cards in any answer: every route of the permission
matrix (GET and POST), table 2's own pages and JSON endpoints, the API, the public pages, the
exports and every PDF (text extracted), the referee desk, the admin.

"Finding the cards" means any of: a seat's 12 cards as JSON (as the deal is stored), the play
record's card sequence as JSON, the HTML of a seat's hand (``cards`` / ``hand_lines`` tags), a
deal diagram (``class="deal``), or in a PDF's text a seat's four suit lines.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from pypdf import PdfReader

from tests.factories import UserFactory
from tests.security.conftest import Scene, hand_signatures
from tests.security.routes import fill, walk
from tests.security.test_permission_matrix import ask, rule_for, values_for
from tournaments.actors import Actor
from tournaments.pdf import KINDS
from tournaments.services import events
from tournaments.templatetags.cards import cards, hand_lines

MAY_NOT_SEE = ["anonymous", "other_table", "other_organiser", "other_referee", "staff"]
BOARDS = (1, 2)
SUITS = "oceb"


def signatures(scene: Scene) -> list[str]:
    out = ['class="deal']
    for number in BOARDS:
        hands = scene.hands(number)
        out += hand_signatures(hands)
        for tokens in hands.values():
            out += [str(cards(tokens)), str(hand_lines(tokens))]
    play = scene.record.record["play"]
    out += [json.dumps(play), json.dumps(play, separators=(",", ":"))]
    return out


def pdf_lines(hands: dict[str, list[str]]) -> list[list[str]]:
    """Per seat, its four suit lines as they read in a PDF: ``O 12 9 7`` (— for a void)."""
    seats = []
    for tokens in hands.values():
        lines = []
        for letter in SUITS:
            ranks = " ".join(t[:-1] for t in tokens if t.endswith(letter)) or "—"
            lines.append(f"{letter.upper()} {ranks}")
        seats.append(lines)
    return seats


def pdf_text(body: bytes) -> str:
    reader = PdfReader(io.BytesIO(body))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in reader.pages))


def leaks(scene: Scene, body: bytes, content_type: str = "") -> list[str]:
    if body.startswith(b"%PDF"):
        text = pdf_text(body)
        return [
            f"board {n} seat {i} in a PDF"
            for n in BOARDS
            for i, lines in enumerate(pdf_lines(scene.hands(n)))
            if all(line in text for line in lines)
        ]
    text = body.decode("utf-8", "replace")
    return [s[:40] for s in signatures(scene) if s in text]


def extra_requests(scene: Scene) -> list[tuple[str, str, str, dict | None]]:
    """(area, method, url, json body): what the matrix does not ask with table 1's code."""
    world, pk = scene.world, scene.event.pk
    code = world.other.code_ns
    rnd = scene.event.rounds.get(number=1).pk
    asks: list[tuple[str, str, str, dict | None]] = []
    for board in BOARDS:
        base = f"/table/{code}/board/{board}"
        asks += [
            ("web", "GET", f"{base}/", None),
            ("web", "GET", f"{base}/play/", None),
            ("web", "GET", f"{base}/referee/", None),
            ("web", "GET", f"{base}/preview/?trump=oros&ns=40&ew=32", None),
            ("web", "POST", f"{base}/play/legal/", {"play": []}),
            ("web", "POST", f"{base}/play/legal/", {"play": scene.record.record["play"][:3]}),
            ("web", "POST", f"{base}/play/submit/", {"play": []}),
            ("api", "GET", f"/api/v1/events/{pk}/boards/{board}", None),
            ("web", "GET", f"/e/{pk}/boards/{board}/", None),
        ]
    asks += [
        ("web", "GET", f"/table/{code}/", None),
        ("web", "GET", f"/table/{code}/boards/", None),
        ("api", "GET", f"/api/v1/results?event={pk}", None),
        ("api", "GET", f"/api/v1/results?table={world.table.pk}", None),
        ("api", "GET", f"/api/v1/rounds/{rnd}/tables", None),
        ("api", "GET", "/api/v1/disputes", None),
        ("api", "GET", f"/api/v1/disputes/{scene.dispute.pk}", None),
        ("api", "GET", f"/api/v1/results/{scene.disputed.pk}", None),
        ("web", "GET", f"/e/{pk}/hand-records/?round=1", None),
        ("web", "GET", f"/e/{pk}/rounds/1/", None),
        ("web", "GET", f"/e/{pk}/export/standings.csv", None),
        ("web", "GET", f"/e/{pk}/export/results.csv", None),
    ]
    asks += [("web", "GET", f"/e/{pk}/pairs/{n}/", None) for n in range(1, 5)]
    for kind in KINDS:
        asks += [
            ("web", "GET", f"/e/{pk}/pdf/{kind}/", None),
            ("web", "GET", f"/e/{pk}/pdf/{kind}/?round=1", None),
        ]
    return asks


def _send(scene: Scene, who: str, area: str, method: str, url: str, body: dict | None):
    if area == "api":
        client = scene.api(who)
        return client.get(url) if method == "GET" else client.post(url, body, format="json")
    client = scene.web(who)
    if method == "GET":
        return client.get(url)
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_ACCEPT="application/json"
    )


@pytest.mark.slow
@pytest.mark.django_db
def test_nobody_who_may_not_see_a_board_finds_its_cards(scene):
    found = []
    asked = 0
    for who in MAY_NOT_SEE:
        cache.clear()
        for route in walk():
            rule = rule_for(route)
            url = fill(route.pattern, values_for(route, rule, scene))
            for method in ("GET", "POST"):
                answer = ask(scene, route, rule, who, method, url)
                asked += 1
                assert answer.status < 500, (route.key, who, answer.error)
                found += [f"{method} {route.key} as {who}: {x}" for x in leaks(scene, answer.body)]
        for area, method, url, body in extra_requests(scene):
            response = _send(scene, who, area, method, url, body)
            asked += 1
            assert response.status_code < 500, (url, who)
            content = (
                b"".join(response.streaming_content) if response.streaming else response.content
            )
            found += [f"{method} {url} as {who}: {x}" for x in leaks(scene, content)]
    print(f"card_leak_requests: {asked}")
    assert not found, "\n".join(found)


@pytest.mark.django_db
def test_the_checks_do_find_cards_where_they_may_be_seen(scene):
    """The control: the same checks do find the cards for the event's organiser and for table 1,
    so the test above could fail."""
    pk = scene.event.pk
    organiser = scene.web("organiser")
    assert leaks(scene, organiser.get(f"/e/{pk}/hand-records/?round=1").content)
    assert leaks(scene, scene.api("table").get(f"/api/v1/events/{pk}/boards/1").content)
    assert leaks(scene, organiser.get(f"/e/{pk}/pdf/hand-records/?round=1").content)


@pytest.mark.django_db
def test_staff_with_every_view_permission_follow_the_policy_in_the_admin(scene):
    """A staff account given every view permission (not a superuser, not the event's organiser
    or referee) finds no board, result, play record, ruling or code of the open round in the
    admin: its lists leave them out and their pages answer as for a missing object."""
    viewer = UserFactory(username="viewer", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client = scene.web("anonymous", fresh=True)
    client.force_login(viewer)
    board = scene.world.board(1)
    hidden = (
        f"/admin/tournaments/board/{board.pk}/change/",
        f"/admin/tournaments/boardresult/{scene.played.pk}/change/",
        f"/admin/tournaments/playrecord/{scene.record.pk}/change/",
        f"/admin/tournaments/dispute/{scene.dispute.pk}/change/",
    )
    for url in hidden:
        response = client.get(url)
        assert response.status_code in (302, 404), url
        assert "/change/" not in response.get("Location", ""), url
    secrets = [s for n in BOARDS for s in hand_signatures(scene.hands(n))] + ['class="deal']
    table = scene.world.table
    secrets += [table.code_ns, table.code_ew]
    for url in (
        "/admin/tournaments/board/",
        "/admin/tournaments/boardresult/",
        "/admin/tournaments/playrecord/",
        "/admin/tournaments/dispute/",
        "/admin/tournaments/auditentry/",
        "/admin/tournaments/standingssnapshot/",
        f"/admin/tournaments/event/{scene.event.pk}/change/",
        f"/admin/tournaments/round/{table.round_id}/change/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        assert not [s for s in secrets if s in text], url
    assert "0 board results" in client.get("/admin/tournaments/boardresult/").content.decode()
    # Nor the open round's progress: which table unlocked which board, and when.
    assert "board_unlocked" not in client.get("/admin/tournaments/auditentry/").content.decode()


@pytest.mark.django_db
def test_the_events_organiser_sees_its_open_round_in_the_admin(scene):
    """The control: the same admin pages do show the open round to the event's organiser."""
    organiser = scene.world.users["organiser"]
    organiser.is_staff = True
    organiser.save()
    organiser.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client = scene.web("anonymous", fresh=True)
    client.force_login(organiser)
    response = client.get(f"/admin/tournaments/boardresult/{scene.played.pk}/change/")
    assert response.status_code == 200
    assert "board_unlocked" in client.get("/admin/tournaments/auditentry/").content.decode()


@pytest.mark.django_db
def test_the_seed_is_secret_until_the_event_is_finished(scene):
    event, organiser = scene.event, Actor(user=scene.world.users["organiser"])
    anonymous = scene.web("anonymous")
    page = anonymous.get(f"/e/{event.pk}/")
    assert page.status_code == 200
    assert event.seed not in page.content.decode()
    assert event.commitment in page.content.decode()
    events.round_close(rnd=event.rounds.get(number=1), actor=organiser, accept_missing=True)
    event.refresh_from_db()
    assert event.seed not in anonymous.get(f"/e/{event.pk}/").content.decode()  # closed, running
    events.event_finish(event=event, actor=organiser)
    page = anonymous.get(f"/e/{event.pk}/")
    assert event.seed in page.content.decode()
