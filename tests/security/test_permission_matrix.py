"""The permission matrix over every route of the project.

The routes are walked from the root URL resolver, so a new route is covered by construction: the
test fails until ``EXPECTED`` says who may use it (and what its ``pk`` is). Every route is asked
by every principal (see conftest.py) with a GET and, when it takes POSTs, an empty POST. Each
request runs in a savepoint that is rolled back, so an organiser's empty POST to "finish" does
not change the scene for the next request.

Checked: no 5xx ever; a principal without the right gets 302 to a login form (or to the table
code form), 401, 403, 404 or 405, never a 200; the event's secret seed appears in no response.
"""

from __future__ import annotations

import re
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import transaction

from tests.factories import WebhookDeliveryFactory, WebhookFactory
from tests.security.conftest import PRINCIPALS, Scene
from tests.security.routes import Route, fill, walk
from tournaments.models import (
    Event,
    ForbiddenPair,
    League,
    LeagueFixture,
    LeagueTeam,
    Season,
    WebhookDelivery,
)

ALL = frozenset(PRINCIPALS)
NOBODY: frozenset[str] = frozenset()
TABLES = frozenset({"table", "other_table"})
ACCOUNTS = ALL - TABLES - {"anonymous"}
EVENT_STAFF = frozenset({"organiser", "referee"})  # the event's organiser and referee
ORGANISER = frozenset({"organiser"})
AT_TABLE_1 = frozenset({"table", "player", "organiser"})  # who may use table 1's pages
STAFF = frozenset({"staff"})


@dataclass(frozen=True)
class Rule:
    """Who may GET / POST a route. ``post=None``: the route takes no POST (405 for all)."""

    area: str  # "web" (session clients), "api" (token clients), "admin"
    get: frozenset[str] | None
    post: frozenset[str] | None = None
    pk: str | None = None  # what <pk> is: event, round, result, record, dispute
    number: str = "round"  # what <number> is: round or board
    body: dict | Callable[[Scene], dict] | None = None  # the POST's body (empty by default)


EXPECTED: dict[str, Rule] = {
    # Read-only views that answer a POST like a GET (harmless: they change nothing).
    "home": Rule("web", ALL, ALL),
    "healthz": Rule("web", ALL, ALL),
    "login": Rule("web", ALL, ALL),
    "logout": Rule("web", None, ALL),
    "set_language": Rule("web", None, ALL),
    "schema": Rule("web", ALL),
    "api-docs": Rule("web", ALL),
    # organiser pages: organisers change, referees read
    "tournaments:event_list": Rule("web", ACCOUNTS),
    "tournaments:event_create": Rule("web", ACCOUNTS, ACCOUNTS),
    "tournaments:event_dashboard": Rule("web", EVENT_STAFF, pk="event"),
    "tournaments:event_edit": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:event_progress": Rule("web", EVENT_STAFF, pk="event"),
    "tournaments:registration_open": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:event_start": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:event_finish": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:event_publish": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:event_roles": Rule("web", EVENT_STAFF, ORGANISER, pk="event"),
    "tournaments:role_invite": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:role_remove": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:invitation_revoke": Rule("web", ORGANISER, ORGANISER, pk="event"),
    # an invitation link: anyone may open one; this one (no such token) is refused to all
    "invitation_accept": Rule("web", NOBODY, NOBODY),
    "tournaments:entries": Rule("web", EVENT_STAFF, ORGANISER, pk="event"),
    "tournaments:entries_import": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:bye_request_add": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:bye_request_remove": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:entries_import_confirm": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:entry_withdraw": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:pairing_method": Rule("web", EVENT_STAFF, ORGANISER, pk="event"),
    "tournaments:pairing_ratings": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:forbidden_add": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:forbidden_remove": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:entry_reinstate": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:entry_substitute": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:round_detail": Rule("web", EVENT_STAFF, pk="event"),
    "tournaments:round_console": Rule("web", EVENT_STAFF, pk="event"),
    "tournaments:round_propose": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:round_swap": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:round_open": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:round_close": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:round_rulings": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:round_clock": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:round_reopen": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:round_unopen": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:round_pairing": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:table_new_codes": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:result_correct": Rule("web", ORGANISER, ORGANISER, pk="event"),
    # webhooks: their secrets and their receivers' answers are the organisers' alone
    "tournaments:webhooks": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:webhook_deliveries": Rule("web", ORGANISER, pk="event"),
    "tournaments:webhook_delete": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:webhook_ping": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:webhook_resend": Rule("web", None, ORGANISER, pk="event"),
    # team events (the scene is a pairs event: the line-up page finds no match, 404;
    # tests/teams/test_team_security.py asks the team routes of a team event)
    "tournaments:teams": Rule("web", EVENT_STAFF, ORGANISER, pk="event"),
    "tournaments:lineup": Rule("web", ORGANISER, ORGANISER, pk="event"),
    # table pages (table 1's code, board 1)
    "table:enter": Rule("web", ALL, ALL),
    "table:table_home": Rule("web", AT_TABLE_1),
    # the offline app's service worker, manifest and notice: nothing of a table in them
    "table:service_worker": Rule("web", ALL),
    "table:manifest": Rule("web", ALL),
    "table:offline": Rule("web", ALL),
    "table:board_list": Rule("web", AT_TABLE_1),
    # the pair's own evening (its scorecard, standings of closed rounds, its rulings)
    "table:pair_scorecard": Rule("web", AT_TABLE_1),
    "table:pair_standings": Rule("web", AT_TABLE_1),
    "table:pair_rulings": Rule("web", AT_TABLE_1),
    "table:table_time": Rule("web", None, AT_TABLE_1),
    "table:table_match": Rule("web", AT_TABLE_1),  # (no team match at a pairs table: 404)
    "table:board_short": Rule("web", AT_TABLE_1, AT_TABLE_1, number="board"),
    "table:short_preview": Rule("web", AT_TABLE_1, number="board"),
    "table:board_confirm": Rule("web", None, AT_TABLE_1, number="board"),
    "table:board_referee": Rule("web", AT_TABLE_1, AT_TABLE_1, number="board"),
    "table:board_play": Rule("web", AT_TABLE_1, AT_TABLE_1, number="board"),
    "table:play_legal": Rule("web", None, AT_TABLE_1, number="board"),
    "table:play_submit": Rule("web", None, AT_TABLE_1, number="board"),
    "table:board_played": Rule("web", None, AT_TABLE_1, number="board"),
    # referee desk
    "referee:queue": Rule("web", EVENT_STAFF, pk="event"),
    "referee:queue_fragment": Rule("web", EVENT_STAFF, pk="event"),
    "referee:dispute": Rule("web", EVENT_STAFF, EVENT_STAFF, pk="dispute"),
    "referee:short_preview": Rule("web", EVENT_STAFF, pk="dispute"),
    "referee:review": Rule("web", EVENT_STAFF, EVENT_STAFF, pk="event"),
    # public pages of a published event (their cards are checked in test_card_leaks.py)
    "public:event": Rule("web", ALL, ALL, pk="event"),
    "public:register": Rule("web", ALL, ALL, pk="event"),  # closed: the event is running
    "public:registration": Rule("web", NOBODY, NOBODY, pk="event"),  # no such token
    "tournaments:registrations": Rule("web", ORGANISER, pk="event"),
    "tournaments:registration_check_in": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:registration_paid": Rule("web", None, ORGANISER, pk="event"),
    "tournaments:registrations_match": Rule("web", ORGANISER, ORGANISER, pk="event"),
    "tournaments:registrations_remind": Rule("web", None, ORGANISER, pk="event"),
    "public:check_in": Rule("web", NOBODY, NOBODY, pk="event"),  # no such token
    "public:standings": Rule("web", ALL, ALL, pk="event"),
    "public:groups": Rule("web", ALL, ALL, pk="event"),
    # a pairs event has no team pages: 404 for everyone (team events: test_team_security.py)
    "public:team_standings": Rule("web", NOBODY, pk="event"),
    "public:team_rounds": Rule("web", NOBODY, pk="event"),
    "public:team_match": Rule("web", NOBODY, pk="event"),
    "public:butler": Rule("web", NOBODY, pk="event"),
    "public:screen": Rule("web", ALL, ALL, pk="event"),
    "public:crosstable": Rule("web", ALL, ALL, pk="event"),
    "public:pairings": Rule("web", ALL, ALL, pk="event"),
    "public:check_boards": Rule("web", ALL, ALL, pk="event"),
    "public:round_results": Rule("web", ALL, ALL, pk="event"),
    # table cards carry the side codes: the event's organisers only
    "public:table_cards": Rule("web", ORGANISER, ORGANISER, pk="event"),
    # board 1's round is open: only the organisers and referees see its traveller
    "public:traveller": Rule("web", EVENT_STAFF, EVENT_STAFF, pk="event"),
    "public:scorecard": Rule("web", ALL, ALL, pk="event"),
    "public:hand_records": Rule("web", ALL, ALL, pk="event"),
    "public:pdf": Rule("web", ALL, ALL, pk="event"),
    "public:pdf_status": Rule("web", NOBODY, pk="event"),  # no such job
    "public:pdf_download": Rule("web", NOBODY, pk="event"),
    "public:export_csv": Rule("web", ALL, ALL, pk="event"),
    "public:export_sheet_csv": Rule("web", ALL, ALL, pk="event"),
    "public:export_xlsx": Rule("web", ALL, ALL, pk="event"),
    "public:export_records": Rule("web", ALL, ALL, pk="event"),
    # the tournament file holds the seed: nobody until the event is finished
    "public:export_tournament_file": Rule("web", NOBODY, pk="event"),
    # players and clubs (player: table 1's NS player 1, the "player" account; partner: NS 2)
    "players:player": Rule("web", ALL, pk="player"),
    "players:partnership": Rule("web", ALL, pk="player"),
    "players:visibility": Rule("web", None, frozenset({"player", "staff"}), pk="player"),
    "players:merge": Rule("web", STAFF, STAFF, pk="player"),
    "clubs:club": Rule("web", ALL, pk="club"),
    "clubs:ratings_recompute": Rule("web", None, NOBODY, pk="club"),  # the club has no organiser
    "clubs:season_new": Rule("web", NOBODY, NOBODY, pk="club"),
    "clubs:season": Rule("web", ALL, pk="club"),
    "clubs:season_csv": Rule("web", ALL, pk="club"),
    "clubs:season_xlsx": Rule("web", ALL, pk="club"),
    "clubs:season_pdf": Rule("web", ALL, pk="club"),
    # the league (a published league whose organiser is the event's organiser)
    "leagues:new": Rule("web", ACCOUNTS, ACCOUNTS),
    "leagues:league": Rule("web", ALL, pk="league"),
    "leagues:pdf": Rule("web", ALL, pk="league"),
    "leagues:csv": Rule("web", ALL, pk="league"),
    "leagues:fixtures_csv": Rule("web", ALL, pk="league"),
    "leagues:xlsx": Rule("web", ALL, pk="league"),
    "leagues:json": Rule("web", ALL, pk="league"),
    "leagues:manage": Rule("web", ORGANISER, ORGANISER, pk="league"),
    "leagues:fixture": Rule("web", ORGANISER, ORGANISER, pk="league"),
    # API
    "api:auth_token": Rule("api", None, ALL),
    "api:table_token": Rule("api", None, ALL),
    "api:event_list": Rule("api", ALL, ACCOUNTS),
    "api:event_detail": Rule("api", ALL, pk="event"),
    # The event's lifecycle (api/lifecycle.py): reads for whoever sees the event, writes for
    # its organisers only (an empty body is then a 400 or a 409, never a 200).
    "api:event_presets": Rule("api", ALL),
    "api:event_pairs": Rule("api", ALL, ORGANISER, pk="event"),
    "api:round": Rule("api", ALL, pk="event"),
    **{
        f"api:{name}": Rule("api", None, ORGANISER, pk="event")
        for name in (
            "event_registration",
            "event_start",
            "event_finish",
            "event_publish",
            "pairs_import",
            "pair_withdraw",
            "pair_reinstate",
            "pair_substitute",
            "round_propose",
            "round_pairing",
            "round_swap",
            "round_open",
            "round_close",
            "round_reopen",
            "round_rulings",
        )
    },
    # Who runs the event (api/roles.py): its organisers and referees read, organisers change.
    "api:event_roles": Rule("api", EVENT_STAFF, ORGANISER, pk="event"),
    "api:role_remove": Rule("api", None, ORGANISER, pk="event"),
    "api:invitations": Rule("api", None, ORGANISER, pk="event"),
    "api:invitation_revoke": Rule("api", None, ORGANISER, pk="event"),
    # The event's webhooks (api/webhooks.py): its organisers only, referees included out.
    "api:webhooks": Rule("api", ORGANISER, ORGANISER, pk="event"),
    "api:webhook_delete": Rule("api", None, ORGANISER, pk="event"),
    "api:webhook_ping": Rule("api", None, ORGANISER, pk="event"),
    "api:webhook_deliveries": Rule("api", ORGANISER, pk="event"),
    "api:webhook_resend": Rule("api", None, ORGANISER, pk="event"),
    "api:not_found": Rule("api", None),
    "api:event_rounds": Rule("api", ALL, pk="event"),
    # everyone reads a board's dealer; its hands only who may see them (test_card_leaks.py)
    "api:board": Rule("api", ALL, pk="event", number="board"),
    "api:standings": Rule("api", ALL, pk="event"),
    # The public pages' data as JSON (api/reads.py): board 1's round is open, so its traveller
    # is the organisers' and referees'; the crosstable and scorecards hide its scores.
    "api:crosstable": Rule("api", ALL, pk="event"),
    "api:traveller": Rule("api", EVENT_STAFF, pk="event", number="board"),
    "api:scorecard": Rule("api", ALL, pk="event"),
    "api:event_audit": Rule("api", ORGANISER, pk="event"),
    # The archive (api/archive.py): the organisers while the event runs (without the seed);
    # any account may import one (an empty body is a 400).
    "api:event_archive": Rule("api", ORGANISER, pk="event"),
    "api:event_import": Rule("api", None, ACCOUNTS),
    # a pairs event has no team standings: 404 for all (tests/teams/test_team_api.py)
    "api:team_standings": Rule("api", NOBODY, pk="event"),
    "api:round_tables": Rule("api", ALL, pk="round"),
    "api:result_list": Rule("api", ALL, ALL - {"anonymous"}),
    # Django staff as such see nothing more of an open round than anyone (policy.py)
    "api:result_detail": Rule("api", AT_TABLE_1 | EVENT_STAFF, pk="result"),
    "api:result_confirm": Rule("api", None, AT_TABLE_1, pk="result"),
    "api:board_played": Rule(
        "api", None, AT_TABLE_1, body=lambda scene: {"table": scene.world.table.pk, "board": 2}
    ),
    "api:table_new_codes": Rule("api", None, ORGANISER, pk="table"),
    "api:play_record_create": Rule("api", None, ALL - {"anonymous"}),
    "api:play_record_detail": Rule("api", AT_TABLE_1 | EVENT_STAFF, pk="record"),
    "api:verify": Rule("api", None, ALL),
    "api:dispute_list": Rule("api", ALL - {"anonymous"}, ALL - {"anonymous"}),
    "api:dispute_detail": Rule("api", AT_TABLE_1 | EVENT_STAFF, pk="dispute"),
    "api:dispute_rule": Rule(
        "api", None, EVENT_STAFF, pk="dispute", body={"kind": "accept", "explanation": "x"}
    ),
    "api:dispute_withdraw": Rule("api", None, AT_TABLE_1 | EVENT_STAFF, pk="dispute"),
}

ADMIN_MODEL_ROUTE = re.compile(
    r"^admin:(?P<app>[a-z]+)_(?P<model>[a-z]+)_"
    r"(?P<action>changelist|add|history|delete|change|password_change)$"
)
ADMIN_EXPECTED: dict[str, Rule] = {
    "admin:index": Rule("admin", STAFF, STAFF),
    "admin:login": Rule("admin", ALL, ALL),
    "admin:logout": Rule("admin", None, ALL),
    "admin:password_change": Rule("admin", STAFF, STAFF),
    "admin:password_change_done": Rule("admin", STAFF),
    "admin:autocomplete": Rule("admin", NOBODY),
    "admin:jsi18n": Rule("admin", STAFF),
    "admin:view_on_site": Rule("admin", STAFF, STAFF),  # a redirect to the object's page
    "admin:app_list": Rule("admin", NOBODY),
}
# The staff principal has no model permission: every model page of the admin refuses it.
ADMIN_MODEL_RULE = Rule("admin", NOBODY, NOBODY)


def rule_for(route: Route) -> Rule | None:
    if route.key in EXPECTED:
        return EXPECTED[route.key]
    if route.key in ADMIN_EXPECTED:
        return ADMIN_EXPECTED[route.key]
    if ADMIN_MODEL_ROUTE.match(route.key) or route.key.startswith("admin:<admin/"):
        return ADMIN_MODEL_RULE
    return None


def _admin_object(route: Route) -> str:
    match = re.match(r"admin/(\w+)/(\w+)/", route.pattern)
    if match is None:
        return "1"
    model = apps.get_model(match.group(1), match.group(2))
    obj = model._default_manager.order_by("pk").first()
    return str(obj.pk) if obj is not None else "999999"


def values_for(route: Route, rule: Rule, scene: Scene) -> dict[str, object]:
    world = scene.world
    event = scene.event
    pks = {
        "event": event.pk,
        "round": event.rounds.get(number=1).pk,
        "result": scene.played.pk,
        "record": scene.record.pk,
        "dispute": scene.dispute.pk,
        "table": world.table.pk,
        "player": world.table.ns.pair.player1_id,
        "club": event.club_id,
        "league": _league(scene).pk,
    }
    kind = "hand-records" if route.key == "public:pdf" else "results"
    return {
        "pk": pks.get(rule.pk or "", event.pk),
        "number": 1,  # round 1 / board 1 (the hidden board)
        "match": 1,
        "board": 1,
        "entry_number": 1,
        "partner": world.table.ns.pair.player2_id,
        "token": "no-such-token",
        "registration_pk": 999999,
        "season_pk": Season.objects.get_or_create(
            club=event.club, name="Season", defaults={"starts": event.date, "ends": event.date}
        )[0].pk,
        "entry_pk": event.entries.order_by("number").first().pk,
        "table": 1,  # table 1 of round 1 (organiser pages)
        "result_pk": scene.played.pk,
        "forbidden_pk": _forbidden_pair(event).pk,
        "fixture_pk": _league(scene).fixtures.first().pk,
        "request_pk": 999999,
        "code": world.table.code_ns,
        "kind": kind,
        "action": "start",
        "job": uuid.UUID(int=7),
        "object_id": _admin_object(route) if "object_id" in route.params else None,
        "id": world.users["staff"].pk,
        "role": "referee",
        "user_pk": world.users["referee"].pk,
        "invitation_pk": scene.invitation.pk,
        "webhook_pk": _delivery(event).webhook_id,
        "delivery_id": _delivery(event).uuid,
        "content_type_id": ContentType.objects.get_for_model(Event).pk,
        "app_label": "tournaments",
        "url": "no-such-page/",
    }


def _league(scene: Scene) -> League:
    league, created = League.objects.get_or_create(
        name="Matrix league", defaults={"published": True}
    )
    if created:
        league.organisers.add(scene.world.users["organiser"])
        home = LeagueTeam.objects.create(league=league, number=1, name="Home")
        away = LeagueTeam.objects.create(league=league, number=2, name="Away")
        LeagueFixture.objects.create(league=league, day=1, home=home, away=away)
    return league


def _forbidden_pair(event: Event) -> ForbiddenPair:
    low, high = event.entries.order_by("pk")[:2]
    return ForbiddenPair.objects.get_or_create(
        event=event, low=low, high=high, defaults={"created_by": "organiser"}
    )[0]


def _delivery(event: Event) -> WebhookDelivery:
    """A webhook of the event with one delivery (to an address nothing is sent to here)."""
    delivery = WebhookDelivery.objects.filter(webhook__event=event).first()
    return delivery or WebhookDeliveryFactory(webhook=WebhookFactory(event=event))


def every_route() -> list[Route]:
    return list(walk())


DENIED = {302, 401, 403, 404, 405}
LOGIN_PAGES = ("/accounts/login/", "/admin/login/", "/table/?code=", "/table/")


@dataclass
class Answer:
    route: str
    who: str
    method: str
    status: int
    location: str
    body: bytes
    error: str = ""  # the traceback of a 5xx


def ask(scene: Scene, route: Route, rule: Rule, who: str, method: str, url: str) -> Answer:
    client = scene.api(who) if rule.area == "api" else scene.web(who)
    # Logging out (or a new table grant) rotates the session cookie: the database is rolled
    # back below, the client's cookies are put back here, so every request starts alike.
    cookies = SimpleCookie()
    cookies.update(client.cookies)
    with transaction.atomic():
        if method == "GET":
            response = client.get(url)
        else:
            body = rule.body(scene) if callable(rule.body) else (rule.body or {})
            if rule.area == "api":
                response = client.post(url, body, format="json")
            else:
                response = client.post(url, body)
        finished_meanwhile = Event.objects.filter(
            pk=scene.event.pk, status=Event.Status.FINISHED
        ).exists()
        transaction.set_rollback(True)
    client.cookies = cookies
    body = b"".join(response.streaming_content) if response.streaming else response.content
    error = ""
    if getattr(response, "exc_info", None):
        error = "".join(traceback.format_exception(*response.exc_info)[-6:])
    return Answer(
        route.key,
        who,
        method,
        response.status_code,
        response.get("Location", ""),
        b"" if finished_meanwhile else body,
        error,
    )


def run_matrix(scene: Scene) -> list[Answer]:
    answers = []
    for who in PRINCIPALS:
        cache.clear()  # attempt counters of the previous principal
        for route in every_route():
            rule = rule_for(route)
            assert rule is not None, f"new route {route.key} ({route.pattern}): add it to EXPECTED"
            url = fill(route.pattern, values_for(route, rule, scene))
            for method in ("GET", "POST"):
                answers.append(ask(scene, route, rule, who, method, url))
    return answers


def judge(answer: Answer) -> str | None:
    rule = EXPECTED.get(answer.route) or ADMIN_EXPECTED.get(answer.route) or ADMIN_MODEL_RULE
    if answer.status >= 500:
        return "server error"
    allowed = rule.get if answer.method == "GET" else rule.post
    if allowed is None:
        return None if answer.status in DENIED else "accepts a method it should not"
    if answer.who in allowed:
        # An allowed POST with an empty body may still be refused for what it asks (403 when
        # a pair confirms its own result): only reads must succeed.
        if answer.method == "GET" and answer.status in (401, 403):
            return "refused someone allowed"
        return None
    if answer.status not in DENIED:
        return "not refused"
    if (
        answer.status == 302
        and not answer.location.startswith(LOGIN_PAGES)
        and not (rule.area == "admin" and answer.location.startswith("/admin/"))
    ):
        # (the admin sends staff without the permission back to its index or to the
        # object's change page, which refuses them in turn)
        return "redirects elsewhere than to a login"
    return None


@pytest.mark.django_db
def test_every_route_is_in_the_matrix():
    missing = [r.key for r in every_route() if rule_for(r) is None]
    assert not missing, f"routes without an expected access: {missing}"


@pytest.mark.slow
@pytest.mark.django_db
def test_permission_matrix(scene):
    answers = run_matrix(scene)
    problems = [
        f"{a.method} {a.route} as {a.who}: {a.status} {a.location} — {judge(a)}{a.error}"
        for a in answers
        if judge(a)
    ]
    statuses = {a.status for a in answers}
    print(f"permission_matrix_requests: {len(answers)} statuses: {sorted(statuses)}")
    assert not problems, "\n".join(problems)
    seed = scene.event.seed
    leaking = {(a.method, a.route, a.who) for a in answers if seed.encode() in a.body}
    assert not leaking, f"the secret seed appears in {sorted(leaking)}"
