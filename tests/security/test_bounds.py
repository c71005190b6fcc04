"""Bounded everything (issue 13, audit items 6 and 9).

* The anonymous ``verify`` answered a 0.6 MB record of 200,000 cards with 12.5 MB (one problem
  per card), and error answers echoed a 2 MB value twice. Now: a body over its route's limit
  is a 413; ``play`` over 48 entries and a hand over 48 cards are one problem each; at most
  ``MAX_PROBLEMS`` problems, the last saying how many more; an echoed value is cut to 100
  characters.
* ``limit=<huge>`` became an out-of-range SQL LIMIT (a 503): ``limit`` and ``offset`` of every
  list are checked (400 naming the parameter).
* Two 120-character names without a pair name, or a 121-character club in a CSV, were 500s:
  every length is checked against its column before saving.

Sizes and counts are asserted, never timings.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import resolve

from api import lifecycle_serializers as ls
from api import serializers as s
from api.errors import error_body
from api.pagination import MAX_LIMIT
from api.webhooks import WebhookCreateSerializer
from engine.errors import MAX_PROBLEMS
from tests.api.conftest import errors_of
from tests.factories import EventFactory, UserFactory
from tournaments import body_limits
from tournaments.actors import Actor
from tournaments.models import BoardResult, Club, Entry, Pair
from tournaments.services import ServiceError, events, results

ROOT = Path(__file__).resolve().parents[2]
KB = 1024


def verify_body(play: list, hands: dict | None = None) -> bytes:
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": "N", "hands": hands or {}},
        "choice": {"delegated": False, "trump": "oros"},
        "play": play,
    }
    return json.dumps({"record": record}, separators=(",", ":")).encode()


# --- verify: the amplification case -----------------------------------------------------------


@pytest.mark.django_db
def test_the_audits_200000_card_record_is_refused_small(world):
    body = verify_body(["xx"] * 200_000)
    assert len(body) > 600 * KB  # the audit's 0.6 MB
    response = world.client("anonymous").post(
        "/api/v1/verify", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert len(response.content) < 300
    assert errors_of(response) == {
        "body": "This request is too large: at most 64 KB here. Nothing was stored."
    }


@pytest.mark.django_db
def test_a_long_play_within_the_body_limit_is_one_problem(world):
    body = verify_body(["xx"] * 12_000)
    assert 48 * KB < len(body) < 64 * KB
    response = world.client("anonymous").post(
        "/api/v1/verify", body, content_type="application/json"
    )
    assert response.status_code == 200
    verdict = response.json()
    play_problems = [p for p in verdict["problems"] if p["path"].startswith("play")]
    assert play_problems == [
        {"path": "play", "message": "The play holds 12000 cards; a whole hand has 48 (R10)."}
    ]
    assert len(response.content) < 1 * KB


@pytest.mark.django_db
def test_a_hand_of_thousands_of_cards_is_one_problem(world):
    hands = {"N": ["1o"] * 5000, "E": [], "S": [], "W": []}
    response = world.client("anonymous").post(
        "/api/v1/verify", verify_body(["1o"], hands), content_type="application/json"
    )
    assert response.status_code == 200
    paths = [p["path"] for p in response.json()["problems"]]
    assert paths.count("deal.hands.N") == 1
    assert not any(p.startswith("deal.hands.N[") for p in paths)


def overflowing_hands() -> dict:
    """Four hands of 48 unknown tokens and ten keys that are not seats: with 48 unknown tokens
    played, more problems than MAX_PROBLEMS."""
    hands = {seat: [f"x{i}" for i in range(48)] for seat in "NESW"}
    hands.update({f"Q{i}": [] for i in range(10)})
    return hands


FOUND = 4 * 48 + 4 + 10 + 1 + 48  # tokens, sizes, seats, missing cards, played tokens


@pytest.mark.django_db
def test_at_most_max_problems_the_last_saying_how_many_more(world):
    response = world.client("anonymous").post(
        "/api/v1/verify",
        verify_body([f"y{i}" for i in range(48)], overflowing_hands()),
        content_type="application/json",
    )
    problems = response.json()["problems"]
    assert FOUND > MAX_PROBLEMS and len(problems) == MAX_PROBLEMS
    more = FOUND - MAX_PROBLEMS + 1
    assert problems[-1] == {
        "path": "",
        "message": f"{more} more problems were found and are not listed.",
    }
    assert all(set(p) == {"path", "message"} for p in problems)  # play-record.md's format
    assert len(response.content) < 40 * KB


@pytest.mark.django_db
def test_a_submitted_record_reports_at_most_max_problems_translated(world):
    record = json.loads(verify_body([f"y{i}" for i in range(48)], overflowing_hands()))["record"]
    record["deal"]["dealer"] = world.board(1).dealer
    response = world.client("table").post(
        "/api/v1/play-records",
        {"table": world.table.pk, "board": 1, "record": record},
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert len(errors) == MAX_PROBLEMS
    more = FOUND - MAX_PROBLEMS + 1
    assert errors[-1]["message"] == f"{more} more problems were found and are not listed."
    assert not BoardResult.objects.exists()


@pytest.mark.django_db
def test_an_echoed_value_is_cut_to_100_characters(world):
    token = "z" * 60_000
    response = world.client("anonymous").post(
        "/api/v1/verify", verify_body([token]), content_type="application/json"
    )
    assert response.status_code == 200
    assert len(response.content) < 2 * KB
    [message] = [p["message"] for p in response.json()["problems"] if p["path"] == "play[0]"]
    assert '"' + "z" * 99 + '…"' in message


@pytest.mark.django_db
def test_an_api_error_does_not_echo_a_large_value(world):
    """DRF's choice error quotes the value: cut to 100 characters, in detail and errors."""
    for url, body, field, client in (
        ("/api/v1/results", world.short(trump="x" * 60_000), "trump", world.client("table")),
        ("/api/v1/table-token", {"code": "ABC", "side": "y" * 3000}, "side", world.client()),
    ):
        response = client.post(url, body, format="json")
        assert response.status_code == 400, url
        assert len(response.content) < 1 * KB, url
        message = errors_of(response)[field]
        assert re.search(r"[xy]{99}…", message) and not re.search(r"[xy]{100}", message)


def test_the_error_renderer_lists_at_most_max_problems_errors_and_bounds_each():
    errors = [{"field": f"f{i}", "message": "bad"} for i in range(MAX_PROBLEMS + 70)]
    errors.append({"field": "k" * 5000, "message": "m" * 50_000})
    body = error_body(errors)
    assert len(body["errors"]) == MAX_PROBLEMS
    assert body["errors"][-1] == {
        "field": "non_field_errors",
        "message": "72 more problems were found and are not listed.",
    }
    huge = error_body([{"field": "k" * 5000, "message": "m" * 50_000}])["errors"][0]
    assert len(huge["field"]) <= 200 and len(huge["message"]) <= 500


# --- body size per route -----------------------------------------------------------------------


def test_every_route_limit_is_in_the_operations_guide():
    """docs/operations.md's table says the limit of each route named in the code."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    for view, limit in body_limits.BY_VIEW.items():
        row = next((line for line in text.splitlines() if f"`{view}`" in line), None)
        assert row is not None, view
        assert f"{limit // KB} KB" in row, (view, row)
    assert f"{body_limits.DEFAULT // KB} KB" in text
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == body_limits.LARGEST


@pytest.mark.parametrize(
    "path, limit",
    [
        ("/api/v1/verify", 64 * KB),
        ("/api/v1/play-records", 64 * KB),
        ("/api/v1/table-token", 4 * KB),
        ("/api/v1/auth/token", 4 * KB),
        ("/accounts/login/", 4 * KB),
        ("/admin/login/", 4 * KB),
        ("/table/", 4 * KB),
        ("/table/ABC123/board/1/confirm/", 64 * KB),
        ("/table/ABC123/board/1/play/submit/", 64 * KB),
        ("/referee/dispute/1/", 64 * KB),
        ("/manage/1/pairs/import/", 1536 * KB),
        ("/manage/1/pairs/import/confirm/", 2048 * KB),
        ("/api/v1/events/1/pairs/import", 1536 * KB),
        ("/admin/tournaments/event/", 256 * KB),
    ],
)
def test_route_limits(path, limit):
    assert body_limits.limit_for(resolve(path)) == limit


@pytest.mark.django_db
def test_a_code_form_over_4_kb_is_a_413_page_in_the_readers_language(client):
    response = client.post("/table/", {"code": "x" * 5000}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    page = response.content.decode()
    assert "This request is too large: at most 4 KB here. Nothing was stored." in page
    assert "<html" in page


@pytest.mark.django_db
def test_the_card_by_card_entry_gets_a_413_it_can_show(scene):
    client = scene.web("table")
    url = f"/table/{scene.world.table.code_ns}/board/1/play/submit/"
    response = client.post(
        url, '{"play": ["' + "x" * 70_000 + '"]}', content_type="application/json"
    )
    assert response.status_code == 413
    message = "This request is too large: at most 64 KB here. Nothing was stored."
    assert response.json() == {"error": message, "problems": [{"path": "", "message": message}]}


@pytest.mark.django_db
def test_the_csv_import_still_takes_a_file_near_its_own_limit(scene):
    """The import route's body limit is above the 512 KB the form itself allows: a 600 KB file
    is refused by the form's sentence, not by the body limit."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = scene.web("organiser")
    event = EventFactory(organisers=[scene.world.users["organiser"]], status="registration")
    upload = SimpleUploadedFile("pairs.csv", b"a,b\n" * (150 * KB), content_type="text/csv")
    response = client.post(f"/manage/{event.pk}/pairs/import/", {"file": upload})
    assert response.status_code == 400
    assert "The file is too large (at most 512 KB)." in response.content.decode()


# --- limit and offset --------------------------------------------------------------------------


def list_urls(world) -> list[str]:
    rnd = world.event.rounds.get(number=1)
    return [
        "/api/v1/events",
        f"/api/v1/events/{world.event.pk}/rounds",
        f"/api/v1/rounds/{rnd.pk}/tables",
        "/api/v1/results",
        "/api/v1/disputes",
    ]


BAD_LIMITS = ["1" + "0" * 30, str(2**63), str(MAX_LIMIT + 1), "0", "-1", "abc", "1.5", "1e3", "٣"]
BAD_OFFSETS = ["-1", "abc", "1" + "0" * 30, str(2**31)]


@pytest.mark.django_db
def test_limit_and_offset_out_of_range_are_a_400_on_every_list(world):
    client = world.client("organiser")
    for url in list_urls(world):
        for value in BAD_LIMITS:
            response = client.get(url, {"limit": value})
            assert response.status_code == 400, (url, value)
            assert errors_of(response) == {"limit": "Give a whole number from 1 to 200."}
        for value in BAD_OFFSETS:
            response = client.get(url, {"offset": value})
            assert response.status_code == 400, (url, value)
            assert errors_of(response) == {"offset": "Give a whole number from 0 to 2147483647."}


@pytest.mark.django_db
def test_limits_within_range_page_the_list(world):
    client = world.client("organiser")
    for url in list_urls(world):
        whole = client.get(url, {"limit": MAX_LIMIT})
        assert whole.status_code == 200, url
        count = whole.json()["count"]
        assert len(whole.json()["results"]) == min(count, MAX_LIMIT)
        one = client.get(url, {"limit": 1, "offset": 0}).json()
        assert len(one["results"]) == min(count, 1)
        past = client.get(url, {"offset": 1_000_000}).json()
        assert past["results"] == [] and past["count"] == count


@pytest.mark.django_db
def test_an_unknown_format_is_a_400_at_format_on_every_list(world):
    client = world.client("organiser")
    for url in list_urls(world):
        response = client.get(url, {"format": "xyz"})
        assert response.status_code == 400, (url, response.status_code)
        assert list(errors_of(response)) == ["format"], url
        assert client.get(url, {"format": "json"}).status_code == 200, url


@pytest.mark.django_db
def test_the_schema_documents_the_page_size_bounds(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    parameters = schema["paths"]["/api/v1/events"]["get"]["parameters"]
    limit = next(p for p in parameters if p["name"] == "limit")
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, MAX_LIMIT)


# --- lengths against the columns -----------------------------------------------------------------


@pytest.fixture
def open_event(organiser):
    return EventFactory(organisers=[organiser], status="registration")


@pytest.mark.django_db
def test_two_120_character_names_make_a_pair_name_that_fits(client, organiser, open_event):
    client.force_login(organiser)
    first, second = "A" * 120, "B" * 120
    response = client.post(f"/manage/{open_event.pk}/pairs/", {"player1": first, "player2": second})
    assert response.status_code == 302
    pair = Entry.objects.get(event=open_event).pair
    limit = Pair._meta.get_field("name").max_length
    assert len(pair.name) <= limit
    left, right = pair.name.split(" – ")
    assert first.startswith(left.rstrip("…")) and second.startswith(right.rstrip("…"))
    assert (pair.player1.name, pair.player2.name) == (first, second)  # the players keep theirs


def test_short_names_make_the_usual_pair_name():
    assert events.pair_display_name("Anna Puig", "Jordi Vila") == "Anna Puig – Jordi Vila"


@pytest.mark.django_db
def test_a_club_name_over_its_column_is_refused_by_the_service(organiser, open_event):
    with pytest.raises(ServiceError) as refused:
        events.entry_register(
            event=open_event, actor=Actor(user=organiser), player1="A", player2="B", club="C" * 121
        )
    assert refused.value.field == "club"
    assert refused.value.message == (
        "The club name is too long: at most 120 characters (it has 121)."
    )
    assert not Club.objects.filter(name="C" * 121).exists()


@pytest.mark.django_db
def test_a_csv_line_with_a_long_club_is_that_lines_error(client, organiser, open_event):
    client.force_login(organiser)
    text = "Anna Puig,Jordi Vila,,Reus\nMarta Soler,Pau Roca,," + "C" * 121 + "\n"
    url = f"/manage/{open_event.pk}/pairs/import/"
    preview = client.post(url, {"text": text})
    sentence = "The club name is too long: at most 120 characters (it has 121)."
    assert preview.status_code == 200 and sentence in preview.content.decode()
    confirm = client.post(url + "confirm/", {"csv_text": text})
    assert confirm.status_code == 400
    assert f"Line 2: {sentence}" in confirm.content.decode()
    assert not open_event.entries.exists()


@pytest.mark.django_db
def test_a_csv_cell_past_the_csv_modules_limit_is_that_lines_error(client, organiser, open_event):
    """An unclosed quotation mark makes the rest of a file (within the form's 512 KB) one cell,
    past the 131,072 characters Python's csv module reads: each of the preview, the upload and
    the confirmation was a 500 (inputs audit, 2026-12-06)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(organiser)
    text = 'Anna Puig,Jordi Vila\n"' + "x" * 140_000 + "\n"
    url = f"/manage/{open_event.pk}/pairs/import/"
    sentence = "This line cannot be read: a cell is too long, or a quotation mark is not closed."
    preview = client.post(url, {"text": text})
    assert preview.status_code == 200 and sentence in preview.content.decode()
    upload = SimpleUploadedFile("pairs.csv", text.encode(), content_type="text/csv")
    uploaded = client.post(url, {"file": upload})
    assert uploaded.status_code == 200 and sentence in uploaded.content.decode()
    confirm = client.post(url + "confirm/", {"csv_text": text})
    assert confirm.status_code == 400
    assert f"Line 2: {sentence}" in confirm.content.decode()
    assert not open_event.entries.exists()


@pytest.mark.django_db
def test_a_csv_line_with_two_long_names_imports_with_a_fitting_pair_name(
    client, organiser, open_event
):
    client.force_login(organiser)
    text = "A" * 120 + "," + "B" * 120 + "\n"
    url = f"/manage/{open_event.pk}/pairs/import/"
    assert client.post(url + "confirm/", {"csv_text": text}).status_code == 302
    pair = Entry.objects.get(event=open_event).pair
    assert len(pair.name) <= Pair._meta.get_field("name").max_length


@pytest.mark.django_db
def test_a_150_character_username_fits_the_columns_that_record_who_acted(world):
    user = UserFactory(username="u" * 150)
    world.event.organisers.add(user)
    outcome = results.result_submit_short(
        table=world.other,
        board_number=1,
        actor=Actor(user=user),
        data={"trump": "oros", "totals": {"NS": 40, "EW": 32}},
    )
    stored = BoardResult.objects.get(pk=outcome.result.pk)
    assert stored.entered_by == "u" * 120


REQUEST_SERIALIZERS = [
    s.LoginSerializer,
    s.TableCodeSerializer,
    s.ShortResultSerializer,
    s.VersionSerializer,
    s.ResultFilterSerializer,
    s.PlayRecordSubmitSerializer,
    s.VerifySerializer,
    s.DisputeRequestSerializer,
    s.RuleSerializer,
    # The organisers' endpoints (an over-long e-mail reached the database: a 503 there).
    ls.EventWriteSerializer,
    ls.PairRegisterSerializer,
    ls.PairsImportSerializer,
    ls.ReasonSerializer,
    ls.RequiredReasonSerializer,
    ls.WithdrawalSerializer,
    ls.ReinstatementSerializer,
    ls.SubstituteSerializer,
    ls.RulingsSerializer,
    ls.RoleChangeSerializer,
    ls.InvitationCreateSerializer,
    WebhookCreateSerializer,
]


@pytest.mark.parametrize("serializer", REQUEST_SERIALIZERS, ids=lambda c: c.__name__)
def test_every_text_field_the_api_reads_has_a_maximum_length(serializer):
    from rest_framework import serializers as drf

    for name, field in serializer().fields.items():
        if isinstance(field, drf.CharField) and not isinstance(field, drf.ChoiceField):
            assert field.max_length is not None, (serializer.__name__, name)


LONG_EMAIL = "a" * 250 + "@ex.com"  # a valid address of 257 characters; the columns hold 254


@pytest.mark.django_db
def test_a_sign_up_with_an_e_mail_over_its_column_is_a_form_error(open_event):
    from tournaments.models import Registration

    open_event.published = True
    open_event.save(update_fields=["published"])
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        f"/e/{open_event.pk}/register/",
        {"player1": "Anna Puig", "player2": "Jordi Vila", "email": LONG_EMAIL},
    )
    assert response.status_code in (200, 400), response.status_code
    assert "at most 254 characters" in response.content.decode()
    assert not Registration.objects.exists()


@pytest.mark.django_db
def test_an_invitation_with_an_e_mail_over_its_column_is_a_400(world):
    response = world.client("organiser").post(
        f"/api/v1/events/{world.event.pk}/invitations",
        {"role": "referee", "email": LONG_EMAIL},
        format="json",
    )
    assert response.status_code == 400 and "email" in errors_of(response)


# --- numbers in query strings ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_digit_python_cannot_read_is_refused_on_the_league_pages(client):
    """A match day that is not one (a digit int() refuses, 5,000 digits) is a 400, not a 500."""
    from tests.factories import LeagueFactory

    league = LeagueFactory(published=True)
    for suffix in ("", "league-table.csv"):
        for after in ("²", "9" * 5000):
            response = client.get(f"/leagues/{league.pk}/{suffix}", {"after": after})
            assert response.status_code == 400, (suffix, after[:3], response.status_code)


@pytest.mark.django_db
def test_the_referees_page_ignores_a_record_number_it_cannot_read(scene):
    from tournaments.actors import Actor
    from tournaments.services import disputes

    dispute = disputes.dispute_request(
        result=scene.played, actor=Actor(table=scene.world.table, side="EW"), reason="check"
    )
    response = scene.web("referee").get(f"/referee/dispute/{dispute.pk}/", {"record": "²"})
    assert response.status_code == 200


def test_the_shipped_verify_bounds_script_runs_and_prints_its_figures():
    """benchmarks/verify_bounds.py is what docs/operations.md's amplification table comes from:
    it must run on a clean checkout (it once needed a database it did not create)."""
    env = dict(os.environ, DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("DATABASE_URL", None)
    proc = subprocess.run(
        [sys.executable, "benchmarks/verify_bounds.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    figures = dict(line.split(": ", 1) for line in proc.stdout.splitlines())
    assert all(re.fullmatch(r"[\d.]+ (B|s|problems)|\d{3}", v) for v in figures.values()), figures
    assert figures["verify_200000_cards_status"] == "413"
    assert figures["verify_every_token_wrong_problems"] == "97 problems"
    assert figures["verify_most_problems_problems"] == f"{MAX_PROBLEMS} problems"
