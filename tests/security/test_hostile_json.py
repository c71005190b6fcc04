"""Hostile JSON (issue 13, audit item 8) sent to every page and API body that reads JSON or text.

``NaN``, ``Infinity``, ``1e999``, integers beyond 64 bits, NUL characters and lone surrogates in
strings and keys, nesting deeper than any stack, a 2 MB string: each gave a 500 (DataError) or a
RecursionError on the table and referee pages. Now every one of them is a 400 (a 413 when the
body is over its route's limit) whose message is the JSON reader's sentence in the reader's
language — never Python's own words — and nothing stored changes.

The targeted tests below check the exact sentence on each reader of JSON; the sweeps at the end
post the same bodies to every POST route of the project (walked from the URL resolver, as the
permission matrix does) and check that none answers a 5xx.
"""

from __future__ import annotations

import csv
import html
import io
import json
from http.cookies import SimpleCookie

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import resolve
from django.utils import translation

from tests.api.conftest import errors_of
from tests.factories import EventFactory
from tests.security.conftest import Scene
from tests.security.routes import fill, walk
from tests.security.test_permission_matrix import rule_for, values_for
from tournaments import body_limits
from tournaments.jsonio import JSONRejected, read_json
from tournaments.models import (
    AuditEntry,
    BoardResult,
    Club,
    Dispute,
    Entry,
    Event,
    Pair,
    Player,
    PlayRecord,
    Ruling,
    Submission,
)

# Each a JSON value, spliced into an otherwise plausible body.
HOSTILE = {
    "nan": "NaN",
    "infinity": "Infinity",
    "minus_infinity": "-Infinity",
    "overflowing_float": "1e999",
    "huge_integer": "1" + "0" * 30,
    "integer_2_to_64": str(2**64),
    "nul_in_string": '"o\\u0000ros"',
    "nul_in_key": '{"a\\u0000b": 1}',
    "surrogate_in_string": '"\\ud800"',
    "surrogate_in_key": '{"\\udfff": 1}',
    "nesting_30": "[" * 30 + "]" * 30,  # deeper than the reader allows
    "nesting_5000": "[" * 5000 + "]" * 5000,  # deeper than Python's stack allows
}
# Larger than every route's body limit (the 100,000-deep nesting is 200 KB).
OVERSIZED = {
    "nesting_100000": "[" * 100_000 + "]" * 100_000,
    "string_2mb": '"' + "x" * 2_000_000 + '"',
}
ALL_HOSTILE = HOSTILE | OVERSIZED

PYTHON_WORDS = (
    "Expecting",
    "(char ",
    "Traceback",
    "RecursionError",
    "Exceeds the limit",
    "JSONDecodeError",
    "surrogates not allowed",
)


def refusal(text: str) -> str:
    """The JSON reader's sentence for ``text`` (in the active language)."""
    try:
        read_json(text)
    except JSONRejected as exc:
        return exc.message
    raise AssertionError(f"the reader accepted {text[:60]!r}")


def stored(scene: Scene) -> dict[str, object]:
    """Everything a refused request must leave as it was."""
    return {
        "results": sorted(
            BoardResult.objects.values_list(
                "pk", "status", "version", "score_ns", "score_ew", "totals_ns", "trump"
            )
        ),
        "submissions": Submission.objects.count(),
        "records": sorted(PlayRecord.objects.values_list("pk", "outcome")),
        "rulings": Ruling.objects.count(),
        "disputes": sorted(Dispute.objects.values_list("pk", "status")),
        "entries": Entry.objects.count(),
        "pairs": Pair.objects.count(),
        "players": Player.objects.count(),
        "clubs": Club.objects.count(),
        "audit": AuditEntry.objects.count(),
    }


def no_python_speak(text: str) -> None:
    for words in PYTHON_WORDS:
        assert words not in text, (words, text[:300])


# --- the API: every body it reads ------------------------------------------------------------


HERE = "@HOSTILE@"  # where a template takes the hostile value


def splice(template: str, fragment: str) -> str:
    return template.replace(HERE, fragment, 1)


RECORD_TEMPLATE = (
    '{"format": "botifarra-play/1", "deal": {"dealer": "N"}, '
    '"choice": {"delegated": false, "trump": "oros"}, "doubles": [], "play": [@HOSTILE@]}'
)


def api_bodies(scene: Scene) -> list[tuple[str, str, str, str]]:
    """(who, url, template, field) for every API POST that reads a body; the template takes the
    hostile value, which the error then names (``field``) when it is one value."""
    table = scene.world.table.pk
    record = RECORD_TEMPLATE
    return [
        ("anonymous", "/api/v1/auth/token", '{"username": @HOSTILE@, "password": "x"}', "username"),
        ("anonymous", "/api/v1/table-token", '{"code": @HOSTILE@, "side": "NS"}', "code"),
        (
            "table",
            "/api/v1/results",
            f'{{"table": {table}, "board": 3, "trump": {HERE}, "totals": {{"NS": 40, "EW": 32}}}}',
            "trump",
        ),
        (
            "table",
            f"/api/v1/results/{scene.disputed.pk}/confirm",
            '{"version": @HOSTILE@}',
            "version",
        ),
        (
            "table",
            "/api/v1/play-records",
            f'{{"table": {table}, "board": 1, "record": {record}}}',
            "record.play[0]",
        ),
        ("anonymous", "/api/v1/verify", f'{{"record": {record}}}', "record.play[0]"),
        (
            "table",
            "/api/v1/disputes",
            f'{{"result": {scene.played.pk}, "reason": {HERE}}}',
            "reason",
        ),
        (
            "referee",
            f"/api/v1/disputes/{scene.dispute.pk}/rule",
            '{"kind": "adjusted", "explanation": "x", "data": {"score": {"NS": @HOSTILE@, "EW": 0}}}',
            "data.score.NS",
        ),
    ]
    # (withdraw takes no body and reads none: the sweep below still posts to it)


def value_field(field: str, fragment: str) -> str:
    """The field an API error names for ``fragment`` spliced at ``field``: the value's path when
    one value is refused (a bad key is refused at the object holding it); ``body`` for nesting,
    which concerns the text as a whole."""
    return "body" if fragment.startswith("[") else field


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ALL_HOSTILE))
def test_every_api_body_refuses_hostile_json_with_a_sentence(scene, name):
    fragment = ALL_HOSTILE[name]
    before = stored(scene)
    for who, url, template, field in api_bodies(scene):
        body = splice(template, fragment)
        response = scene.api(who).post(url, body.encode(), content_type="application/json")
        where = f"{name} → {url}"
        assert response.status_code in (400, 413), (where, response.status_code)
        errors = errors_of(response)
        no_python_speak(json.dumps(response.json()))
        limit = limit_of(url)
        if len(body.encode()) > limit:
            assert response.status_code == 413, where
            assert errors == {"body": body_limits_message(limit)}, where
            continue
        assert errors == {value_field(field, fragment): refusal(body)}, where
        assert len(response.content) < 2000, where
    assert stored(scene) == before


def limit_of(url: str) -> int:
    return body_limits.limit_for(resolve(url))


def body_limits_message(limit: int) -> str:
    return f"This request is too large: at most {limit // 1024} KB here. Nothing was stored."


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["nan", "nul_in_string", "surrogate_in_key", "nesting_30"])
def test_a_whole_body_of_hostile_json_is_refused_on_body(scene, name):
    for who, url, _template, _field in api_bodies(scene):
        body = HOSTILE[name]
        response = scene.api(who).post(url, body, content_type="application/json")
        assert response.status_code == 400, url
        assert errors_of(response) == {"body": refusal(body)}, url


# --- the table's pages: the paste form and the card-by-card requests -------------------------


def table_url(scene: Scene, name: str) -> str:
    return f"/table/{scene.world.table.code_ns}/board/1/{name}"


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ALL_HOSTILE))
def test_the_table_paste_form_refuses_hostile_json_with_a_400(scene, name):
    client = scene.web("table")
    before = stored(scene)
    text = splice(RECORD_TEMPLATE, ALL_HOSTILE[name])
    response = client.post(table_url(scene, "play/"), {"record": text})
    page = response.content.decode()
    no_python_speak(page)
    if name in OVERSIZED:
        assert response.status_code == 413
        assert html.escape(body_limits_message(body_limits.DEFAULT)) in page
    else:
        assert response.status_code == 400
        assert html.escape(refusal(text)) in page
    assert stored(scene) == before


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ALL_HOSTILE))
@pytest.mark.parametrize("endpoint", ["play/legal/", "play/submit/"])
def test_the_card_by_card_requests_refuse_hostile_json_with_a_400(scene, name, endpoint):
    client = scene.web("table")
    before = stored(scene)
    fragment = ALL_HOSTILE[name]
    template = '{"play": [@HOSTILE@]}' if endpoint == "play/legal/" else RECORD_TEMPLATE
    body = splice(template, fragment)
    response = client.post(table_url(scene, endpoint), body, content_type="application/json")
    data = response.json()
    no_python_speak(json.dumps(data))
    if name in OVERSIZED:
        assert response.status_code == 413
        assert data["problems"][0]["message"] == body_limits_message(body_limits.DEFAULT)
    else:
        assert response.status_code == 400
        assert data["problems"] == [{"path": read_path(body), "message": refusal(body)}]
    assert stored(scene) == before


def read_path(text: str) -> str:
    try:
        read_json(text)
    except JSONRejected as exc:
        return exc.path or ""
    raise AssertionError("accepted")


@pytest.mark.django_db
def test_an_empty_or_broken_body_is_a_sentence_not_pythons_message(scene):
    client = scene.web("table")
    for body, words in (
        ("", "There is no JSON here"),
        (
            "{",
            "This is not valid JSON: a key in double quotes was expected here (line 1, column 2)",
        ),
        ('{"play": ["1o",]}', "This is not valid JSON"),
    ):
        response = client.post(table_url(scene, "play/legal/"), body, content_type="text/plain")
        assert response.status_code == 400
        message = response.json()["problems"][0]["message"]
        assert message.startswith(words), message
        no_python_speak(message)


# --- the referee's corrected record: preview and ruling --------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ALL_HOSTILE))
@pytest.mark.parametrize("action", ["preview", "rule"])
def test_the_referee_page_refuses_hostile_json_with_a_400(scene, name, action):
    client = scene.web("referee")
    before = stored(scene)
    text = splice(RECORD_TEMPLATE, ALL_HOSTILE[name])
    response = client.post(
        f"/referee/dispute/{scene.dispute.pk}/",
        {
            "form": "corrected_record",
            "action": action,
            "corrected_record-play_record": text,
            "corrected_record-explanation": "Replayed.",
        },
    )
    page = response.content.decode()
    no_python_speak(page)
    if name in OVERSIZED:
        assert response.status_code == 413
        assert html.escape(body_limits_message(body_limits.DEFAULT)) in page
    else:
        assert response.status_code == 400
        assert html.escape(refusal(text)) in page
    assert stored(scene) == before


# --- a complete, legal record carrying one hostile value: it would have been stored -----------


def with_extra(record: dict, fragment: str) -> str:
    """``record`` as JSON text with one more key holding ``fragment``."""
    return json.dumps(record)[:-1] + ', "comment": ' + fragment + "}"


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_legal_record_with_a_hostile_extra_value_is_refused_not_stored(scene, name):
    """Before the reader, the record below replayed as complete and was stored with its extra
    key: a DataError (500) on PostgreSQL, a stored NaN elsewhere."""
    world = scene.world
    before = stored(scene)
    text = with_extra(scene.record.record, HOSTILE[name])
    api = scene.api("table").post(
        "/api/v1/play-records",
        f'{{"table": {world.table.pk}, "board": 1, "record": {text}}}',
        content_type="application/json",
    )
    assert api.status_code == 400 and len(errors_of(api)) == 1
    web = scene.web("table")
    paste = web.post(table_url(scene, "play/"), {"record": text})
    assert paste.status_code == 400 and html.escape(refusal(text)) in paste.content.decode()
    submit = web.post(table_url(scene, "play/submit/"), text, content_type="application/json")
    assert submit.status_code == 400 and submit.json()["problems"][0]["message"] == refusal(text)
    ruled = scene.web("referee").post(
        f"/referee/dispute/{scene.dispute.pk}/",
        {
            "form": "corrected_record",
            "action": "rule",
            "corrected_record-play_record": with_extra(world.record(2), HOSTILE[name]),
            "corrected_record-explanation": "Replayed.",
        },
    )
    assert ruled.status_code == 400
    assert stored(scene) == before


# --- organiser forms and the CSV import: text, not JSON ---------------------------------------


EVENT_FORM = {
    "date": "2026-12-01",
    "ruleset": "lliure",
    "sant_vicenc_in_botifarra": "",
    "game_target": "101",
    "deal_limit": "",
    "match_mode": "boards",
    "game_cap": "121",
    "rounds_count": "3",
    "boards_per_round": "2",
    "ranking_method": "wins",
    "bye_points": "36",
    "competitor": "pairs",
    "team_bye_vp": "12",
}
# Text that only looks like hostile JSON is text: stored as typed.
JSON_LOOKING = ['NaN Infinity 1e999 {"a": [[[[', "\\ud800 \\u0000", "[" * 150]


@pytest.mark.django_db
def test_a_nul_in_an_organiser_form_is_a_400_with_the_forms_sentence(scene):
    client = scene.web("organiser")
    before = stored(scene)
    for field in ("name", "venue", "club_name"):
        data = EVENT_FORM | {"name": "Open", field: "Anna\x00Puig"}
        response = client.post("/manage/new/", data)
        assert response.status_code == 400, field
        assert "Null characters are not allowed." in response.content.decode()
    entries = f"/manage/{scene.event.pk}/pairs/"
    response = client.post(entries, {"player1": "A\x00", "player2": "B"})
    assert response.status_code == 400
    assert stored(scene) == before


@pytest.mark.django_db
def test_text_that_looks_like_json_is_stored_as_typed(scene):
    client = scene.web("organiser")
    for text in JSON_LOOKING:
        response = client.post("/manage/new/", EVENT_FORM | {"name": text, "venue": text})
        assert response.status_code == 302, text
        assert Event.objects.filter(name=text, venue=text).exists()


@pytest.mark.django_db
def test_form_bytes_of_a_lone_surrogate_are_never_stored_as_one(scene):
    """CESU-8 bytes of a surrogate (ED A0 80) are not UTF-8: Django reads them as U+FFFD, so the
    database never sees a lone surrogate."""
    client = scene.web("organiser")
    body = "name=A%ED%A0%80B&" + "&".join(f"{k}={v}" for k, v in EVENT_FORM.items())
    response = client.post("/manage/new/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 302
    created = Event.objects.latest("pk")
    assert created.name.startswith("A\ufffd") and created.name.endswith("B")


@pytest.mark.django_db
def test_the_csv_import_refuses_a_nul_and_stores_json_looking_text_as_typed(scene):
    client = scene.web("organiser")
    event = EventFactory(organisers=[scene.world.users["organiser"]], status="registration")
    url = f"/manage/{event.pk}/pairs/import/"
    response = client.post(url, {"text": "Anna\x00Puig,Jordi Vila\n"})
    assert response.status_code == 400
    assert "Null characters are not allowed." in response.content.decode()
    out = io.StringIO()
    csv.writer(out).writerows([t, f"Jordi Vila {i}"] for i, t in enumerate(JSON_LOOKING[:2]))
    lines = out.getvalue()
    assert client.post(url, {"text": lines}).status_code == 200  # the preview
    assert client.post(url + "confirm/", {"csv_text": lines}).status_code == 302
    names = set(event.entries.values_list("pair__player1__name", flat=True))
    assert names == set(JSON_LOOKING[:2])


# --- the reader's language ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ca", "es"])
def test_the_refusal_is_in_the_readers_language(scene, settings, compiled_locale, lang):
    settings.LOCALE_PATHS = [compiled_locale]
    text = splice(RECORD_TEMPLATE, "NaN")
    body = f'{{"record": {text}}}'
    with translation.override("en"):
        english = refusal(text)
    with translation.override(lang):
        local = refusal(text)
    assert local != english  # the sentence is translated
    api = scene.api("anonymous")
    response = api.post(
        "/api/v1/verify",
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    with translation.override(lang):
        assert errors_of(response) == {"record.play[0]": refusal(body)}
    page = scene.web("table").post(
        table_url(scene, "play/"), {"record": text}, HTTP_ACCEPT_LANGUAGE=lang
    )
    assert page.status_code == 400
    assert html.escape(local) in page.content.decode()


# --- the sweeps: every POST route of the project ----------------------------------------------


SWEEP_BODIES = {
    **{f"json:{k}": (v, "application/json") for k, v in ALL_HOSTILE.items()},
    "form:nul": ("record=%00&name=a%00b&code=%00&text=%00", "application/x-www-form-urlencoded"),
    "form:surrogate_bytes": (
        "record=%ED%A0%80&name=%ED%A0%80",
        "application/x-www-form-urlencoded",
    ),
    "form:json_text": (
        "record=" + "%5B" * 5000 + "&play_record=NaN",
        "application/x-www-form-urlencoded",
    ),
}


def post_routes(scene: Scene):
    for route in walk():
        rule = rule_for(route)
        assert rule is not None, route.key
        # Django's admin model pages refuse every principal of the scene (the permission
        # matrix checks it); its login form is swept.
        if rule.post is None or (rule.area == "admin" and route.key != "admin:login"):
            continue
        who = next((w for w in ("organiser", "referee", "table") if w in rule.post), "anonymous")
        yield route, rule, who, fill(route.pattern, values_for(route, rule, scene))


@pytest.mark.slow
@pytest.mark.django_db
def test_no_post_route_answers_hostile_bodies_with_a_server_error(scene):
    before = stored(scene)
    failures, sent = [], 0
    for route, rule, who, url in post_routes(scene):
        client = scene.api(who) if rule.area == "api" else scene.web(who)
        for name, (body, content_type) in SWEEP_BODIES.items():
            cookies = SimpleCookie()  # a logout or a new table grant must not carry over
            cookies.update(client.cookies)
            with transaction.atomic():
                response = client.post(url, body, content_type=content_type)
                transaction.set_rollback(True)
            client.cookies = cookies
            cache.clear()  # attempt counters
            sent += 1
            if response.status_code >= 500:
                failures.append(f"{route.key} as {who} with {name}: {response.status_code}")
            if rule.area == "api" and response.status_code >= 400:
                no_python_speak(response.content.decode())
    print(f"hostile_posts_sent: {sent}")
    assert sent > 500
    assert not failures, "\n".join(failures)
    assert stored(scene) == before
