"""What the table pages' offline outbox (static/js/outbox.js) relies on from the server: JSON
answers to its submissions, each acted on once per Idempotency-Key however late it is sent
again, refusals that store nothing and say why; the service worker and the manifest."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

import engine
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import (
    BoardResult,
    Dispute,
    IdempotentResponse,
    PlayRecord,
    Submission,
    Table,
)
from tournaments.services import events, results

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def table(running_event):
    return Table.objects.get(round__event=running_event, round__number=1, number=1)


def holder(table, side):
    client = Client(enforce_csrf_checks=False)
    assert client.post(reverse("table:enter"), {"code": table.code_for(side)}).status_code == 302
    return client


def legal_game(board, trump):
    hand = engine.Hand(adapter.deal(board), trump, adapter.rules(board.event))
    while not hand.is_over:
        hand.play(hand.legal_cards()[0])
    return [engine.card_token(c) for c in hand.played]


def short(client, table, n=1, key="k1", HTTP_X_TABLE_SIDE="", **fields):
    data = {"delegated": "0", "trump": "oros", "outcome": "played", "totals_ns": "45"} | fields
    return client.post(
        reverse("table:board_short", args=[table.code_ns, n]),
        data,
        HTTP_IDEMPOTENCY_KEY=key,
        HTTP_X_TABLE_SIDE=HTTP_X_TABLE_SIDE,
        **JSON,
    )


def test_a_queued_result_sent_again_hours_later_is_stored_once(table):
    ns = holder(table, "NS")
    first = short(ns, table)
    assert first.status_code == 200
    answer = first.json()
    assert "Waiting for EW to confirm" in answer["message"]
    assert answer["home_url"].endswith("#board-1")
    # The phone lost the answer and slept: the same key comes back five hours later.
    IdempotentResponse.objects.update(created_at=timezone.now() - timedelta(hours=5))
    again = short(ns, table)
    assert again.status_code == 200
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    result = BoardResult.objects.get(table=table, board__number=1)
    assert Submission.objects.filter(result=result).count() == 1
    assert result.version == 1


def test_a_key_sent_again_with_another_result_is_refused(table):
    ns = holder(table, "NS")
    assert short(ns, table).status_code == 200
    other = short(ns, table, totals_ns="50")
    assert other.status_code == 422
    assert other.json()["code"] == "key_reused"
    assert BoardResult.objects.get(table=table, board__number=1).totals_ns == 45


def test_a_refused_result_stores_nothing_and_says_why_by_field(table):
    ns = holder(table, "NS")
    refused = short(ns, table, totals_ns="-10")
    assert refused.status_code == 400
    assert "totals_ns" in refused.json()["errors"]
    assert not BoardResult.objects.exists()
    assert not IdempotentResponse.objects.exists()
    # The same key may carry the corrected result.
    assert short(ns, table, totals_ns="40").status_code == 200


def entered_by_ns(table):
    """Board 1 entered by NS, waiting for EW's confirmation."""
    return results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="NS"),
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}},
    ).result


def test_a_stale_confirmation_is_refused_with_the_reason(table):
    ew = holder(table, "EW")
    entered = entered_by_ns(table)
    url = reverse("table:board_confirm", args=[table.code_ew, 1])
    results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="NS"),
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 41, "EW": 31}},
        expected_version=entered.version,
    )
    refused = ew.post(url, {"version": entered.version}, HTTP_IDEMPOTENCY_KEY="c1", **JSON)
    assert refused.status_code == 409
    assert "changed meanwhile" in refused.json()["error"]
    assert BoardResult.objects.get(pk=entered.pk).status == BoardResult.Status.ENTERED
    fresh = BoardResult.objects.get(pk=entered.pk).version
    done = ew.post(url, {"version": fresh}, HTTP_IDEMPOTENCY_KEY="c2", **JSON)
    assert done.status_code == 200 and done.json()["message"] == "Board 1 confirmed."
    assert ew.post(url, {"version": fresh}, HTTP_IDEMPOTENCY_KEY="c2", **JSON).content == (
        done.content
    )


@pytest.mark.parametrize("version", ["abc", "1.5", "v0", "99999999999999999999"])
def test_a_confirmation_whose_version_is_garbled_is_refused_not_made(table, version):
    """A version that is no number (a tampered or garbled form) is not "no version": the
    confirmation is refused as one from an old page, and the result stays as it was."""
    ew = holder(table, "EW")
    entered = entered_by_ns(table)
    url = reverse("table:board_confirm", args=[table.code_ew, 1])
    refused = ew.post(url, {"version": version}, HTTP_IDEMPOTENCY_KEY="g1", **JSON)
    assert refused.status_code == 409
    assert "changed meanwhile" in refused.json()["error"]
    assert BoardResult.objects.get(pk=entered.pk).status == BoardResult.Status.ENTERED


def test_a_queued_referee_call_opens_one_dispute(table):
    ns = holder(table, "NS")
    short(ns, table)
    url = reverse("table:board_referee", args=[table.code_ns, 1])
    for _ in range(2):
        answer = ns.post(url, {"reason": "Revoke"}, HTTP_IDEMPOTENCY_KEY="r1", **JSON)
        assert answer.status_code == 200
    assert Dispute.objects.filter(reason=Dispute.Reason.PLAYER_REQUEST).count() == 1


def test_a_queued_hand_is_replayed_once(table):
    event = table.round.event
    board = event.boards.get(number=1)
    game = legal_game(board, "copes")
    results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="EW"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 36, "EW": 36}},
    )
    ns = holder(table, "NS")
    record = adapter.record(board, trump="copes", cards=game)
    url = reverse("table:play_submit", args=[table.code_ns, 1])
    answers = [
        ns.post(
            url,
            json.dumps(record),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="h1",
            **JSON,
        )
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].content == answers[1].content
    assert PlayRecord.objects.count() == 1


def test_a_closed_round_is_a_refusal_with_its_reason(table):
    ns = holder(table, "NS")
    table.round.status = "closed"
    table.round.save(update_fields=["status"])
    refused = short(ns, table)
    assert refused.status_code == 403
    assert "round is closed" in refused.json()["error"]
    assert refused.json()["code"] == "closed"


def test_the_service_worker_covers_the_table_pages_and_keeps_only_their_files(client):
    answer = client.get(reverse("table:service_worker"))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/table/"
    body = answer.content.decode()
    assert 'var SCOPE = "/table/"' in body
    for name in ("css/table.css", "js/outbox.js", "js/rules.js", "js/table.js"):
        assert f"{settings.STATIC_URL}{name}" in body
    # Submissions are never kept: only GET requests are answered from the cache.
    assert 'request.method !== "GET"' in body


def test_the_service_worker_works_with_the_production_static_files(client, settings, tmp_path):
    """DEBUG off: hashed file names from collectstatic's manifest (a name the manifest does not
    hold is an error there, where the development storage answers anything)."""
    import json

    from django.utils.html import escapejs

    from tournaments.views.table_app import ASSETS

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    hashed = {name: name.replace(".", ".0123456789ab.", 1) for name in ASSETS}
    (tmp_path / "staticfiles.json").write_text(json.dumps({"version": "1.1", "paths": hashed}))
    answer = client.get(reverse("table:service_worker"))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert all(escapejs(f"{settings.STATIC_URL}{name}") in body for name in hashed.values())


def test_the_notice_for_a_page_never_kept_names_no_table_and_is_kept_at_install(client, table):
    notice = client.get("/table/offline/", HTTP_ACCEPT_LANGUAGE="en")
    assert notice.status_code == 200
    html = notice.content.decode()
    assert "Not on this phone yet" in html
    assert 'id="offline-home"' in html  # table.js points it at the table of the address asked
    assert table.code_ns not in html and table.code_ew not in html
    # In the phone's language; "offline" is not taken for a table code.
    catalan = client.get("/table/offline/", HTTP_ACCEPT_LANGUAGE="ca")
    assert "Encara no és en aquest telèfon" in catalan.content.decode()
    worker = client.get(reverse("table:service_worker")).content.decode()
    assert 'var OFFLINE = "/table/offline/"' in worker
    assert "cache.addAll(ASSETS.concat([OFFLINE]))" in worker


def test_the_manifest_opens_the_table_full_screen(client, table):
    answer = client.get(reverse("table:manifest", args=[table.code_ns]))
    data = answer.json()
    assert answer["Content-Type"] == "application/manifest+json"
    assert data["start_url"] == f"/table/{table.code_ns}/"
    assert data["display"] == "fullscreen"
    assert data["scope"] == "/table/"
    root = Path(settings.BASE_DIR) / "static"
    for icon in data["icons"]:
        assert (root / icon["src"].removeprefix(settings.STATIC_URL)).is_file()
    assert {i["sizes"] for i in data["icons"]} >= {"192x192", "512x512"}


def test_the_installed_app_is_named_in_the_language_the_player_chose(table):
    """The browser fetches the manifest without cookies: the language chosen on the page (here
    Spanish, on a phone whose browser asks for English) reaches it through its address."""
    phone = holder(table, "NS")
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    html = phone.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    href = re.search(r'<link rel="manifest" href="([^"]+)"', html).group(1)
    assert href.endswith("?lang=es")
    fetched = Client(HTTP_ACCEPT_LANGUAGE="en").get(href).json()  # no cookies, as a browser
    with translation.override("es"):
        assert fetched["name"] == translation.gettext("Botifarra Duplicate: my table")
        assert fetched["short_name"] == translation.gettext("Botifarra table")
    assert fetched["name"] != "Botifarra Duplicate: my table"


def test_a_manifest_address_without_a_known_language_follows_the_browser(table):
    url = reverse("table:manifest", args=[table.code_ns])
    for query in ("", "?lang=", "?lang=xx"):
        assert Client(HTTP_ACCEPT_LANGUAGE="en").get(url + query).json()["name"] == (
            "Botifarra Duplicate: my table"
        )


def test_the_table_home_links_the_manifest_and_the_outbox(table):
    page = holder(table, "NS").get(reverse("table:table_home", args=[table.code_ns]))
    html = page.content.decode()
    lang = re.search(r'<html lang="([^"]+)"', html).group(1)
    assert f'href="/table/{table.code_ns}/manifest.webmanifest?lang={lang}"' in html
    assert 'id="outbox"' in html and 'data-sw="/table/sw.js"' in html
    assert 'data-outbox="confirmation"' not in html  # nothing entered yet: nothing to confirm


def test_a_result_kept_for_one_side_waits_while_the_phone_holds_the_other_sides_code(table):
    # NS queued a result, then EW typed its own code on the same phone.
    phone = holder(table, "NS")
    assert phone.post(reverse("table:enter"), {"code": table.code_ew}).status_code == 302
    waiting = short(phone, table, HTTP_X_TABLE_SIDE="NS")
    assert waiting.status_code == 409
    assert waiting.json()["code"] == "side"
    assert "NS's code" in waiting.json()["error"]
    assert not BoardResult.objects.exists()
    # NS's code back on the phone: the same submission goes through, as NS's.
    assert phone.post(reverse("table:enter"), {"code": table.code_ns}).status_code == 302
    assert short(phone, table, HTTP_X_TABLE_SIDE="NS").status_code == 200
    assert BoardResult.objects.get().entered_side == "NS"


def test_the_tables_grant_outlives_a_phone_that_sleeps_or_closes_its_browser(table):
    # The queue sends with the session of the code typed: it must not end with the browser, nor
    # before an evening is over.
    client = Client()
    answer = client.post(reverse("table:enter"), {"code": table.code_ns})
    cookie = answer.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) >= 12 * 3600
    assert not settings.SESSION_EXPIRE_AT_BROWSER_CLOSE


# --- replays after the round closed or new codes (found by an audit; each failed before) ----


def renew_codes(table, organiser):
    events.table_new_codes(table=table, actor=Actor(user=organiser))
    table.refresh_from_db()


def test_a_stored_result_sent_again_after_the_round_closed_answers_as_the_first_time(table):
    # The first send was stored, its answer lost; the organiser closed the round before the
    # phone sent it again. The result counts: the phone must not be told it was refused.
    ns = holder(table, "NS")
    first = short(ns, table)
    assert first.status_code == 200
    table.round.status = "closed"
    table.round.save(update_fields=["status"])
    again = short(ns, table)
    assert again.status_code == 200
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    # A new submission (another key) is still refused: the round is closed.
    assert short(ns, table, key="k2", n=2).json()["code"] == "closed"


def test_after_the_round_closed_a_stored_answer_goes_only_to_the_side_that_sent_it(table):
    ns = holder(table, "NS")
    assert short(ns, table).status_code == 200
    ew = holder(table, "EW")
    other_table = Table.objects.get(round=table.round, number=2)
    elsewhere = holder(other_table, "NS")
    table.round.status = "closed"
    table.round.save(update_fields=["status"])
    assert short(ew, table).json()["code"] == "closed"  # EW's scope: not EW's submission
    assert short(elsewhere, table).status_code == 403  # another table's code was typed
    assert short(Client(), table).status_code == 403  # no code typed at all
    assert short(ns, table, totals_ns="50").json()["code"] == "closed"  # another body


def test_a_shared_phone_gets_the_stored_answer_of_the_other_side_after_the_round_closed(table):
    # NS's result was stored, its answer lost; EW typed its code on the same phone; the round
    # closed. The outbox sends NS's item again: it was stored, and must not show as refused.
    phone = holder(table, "NS")
    first = short(phone, table, HTTP_X_TABLE_SIDE="NS")
    assert first.status_code == 200
    assert phone.post(reverse("table:enter"), {"code": table.code_ew}).status_code == 302
    elsewhere = holder(Table.objects.get(round=table.round, number=2), "EW")
    table.round.status = "closed"
    table.round.save(update_fields=["status"])
    again = short(phone, table, HTTP_X_TABLE_SIDE="NS")
    assert (again.status_code, again.content) == (200, first.content)
    # Another table's phone finds nothing under this table's NS scope.
    assert short(elsewhere, table, HTTP_X_TABLE_SIDE="NS").status_code == 403


@pytest.mark.parametrize("sender", ["organiser", "player"])
def test_a_stored_answer_after_the_round_closed_reaches_an_account_that_sent_it(
    table, organiser, sender
):
    """The organiser's and a player's own account have no table code in their session: their
    stored submission, sent again after the close, was answered "round closed" (audit)."""
    from tests.factories import UserFactory

    client = Client()
    if sender == "organiser":
        client.force_login(organiser)
    else:
        player = UserFactory(username="ns-player")
        pair = table.ns.pair
        pair.player1.user = player
        pair.player1.save()
        client.force_login(player)
    first = short(client, table)
    assert first.status_code == 200, first.content
    table.round.status = "closed"
    table.round.save(update_fields=["status"])
    again = short(client, table)
    assert again.status_code == 200, again.content
    assert again.content == first.content
    assert short(client, table, key="k2", n=2).json()["code"] == "closed"
    other = Client()
    other.force_login(UserFactory(username="stranger"))
    assert short(other, table).status_code == 403  # nobody else's scope holds the key


def test_the_closed_page_shows_the_phones_refusals_for_the_table_it_held(table):
    """A result kept offline and sent once the round had closed is refused; the closed page
    the phone reloads shows that refusal (its outbox panel names the table), not a blank."""
    ns = holder(table, "NS")
    stranger = holder(Table.objects.get(round=table.round, number=2), "NS")
    table.round.status = "closed"
    table.round.save(update_fields=["status"])
    page = ns.get(reverse("table:table_home", args=[table.code_ns]))
    assert page.status_code == 403
    assert f'data-table="{table.pk}"' in page.content.decode()
    # Whoever never held the table's code learns nothing of it from the page.
    other = stranger.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert f'data-table="{table.pk}"' not in other


def test_a_stored_result_sent_again_with_the_old_code_after_new_codes_answers_as_the_first_time(
    table, organiser
):
    ns = holder(table, "NS")
    old_code = table.code_ns
    first = short(ns, table)
    renew_codes(table, organiser)
    # The phone still holds the old code's grant and sends to the old code's address.
    again = ns.post(
        reverse("table:board_short", args=[old_code, 1]),
        {"delegated": "0", "trump": "oros", "outcome": "played", "totals_ns": "45"},
        HTTP_IDEMPOTENCY_KEY="k1",
        **JSON,
    )
    assert again.status_code == 200 and again.content == first.content
    assert again["Idempotent-Replayed"] == "true"


def test_a_stored_result_sent_again_with_the_new_code_answers_as_the_first_time(table, organiser):
    ns = holder(table, "NS")
    first = short(ns, table)
    renew_codes(table, organiser)
    ns = holder(table, "NS")  # the new code typed: the outbox sends under its address
    again = short(ns, table)
    assert again.status_code == 200 and again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert BoardResult.objects.get(table=table, board__number=1).version == 1


def test_a_stored_confirmation_sent_again_after_new_codes_is_not_refused(table, organiser):
    assert short(holder(table, "NS"), table).status_code == 200
    version = BoardResult.objects.get(table=table, board__number=1).version
    ew = holder(table, "EW")
    url = reverse("table:board_confirm", args=[table.code_ew, 1])
    first = ew.post(url, {"version": version}, HTTP_IDEMPOTENCY_KEY="c1", **JSON)
    assert first.status_code == 200
    renew_codes(table, organiser)
    ew = holder(table, "EW")
    url = reverse("table:board_confirm", args=[table.code_ew, 1])
    again = ew.post(url, {"version": version}, HTTP_IDEMPOTENCY_KEY="c1", **JSON)
    assert again.status_code == 200 and again.content == first.content


def test_a_stored_referee_call_sent_again_after_new_codes_is_not_refused(table, organiser):
    ns = holder(table, "NS")
    assert short(ns, table).status_code == 200
    url = reverse("table:board_referee", args=[table.code_ns, 1])
    first = ns.post(url, {"reason": "Revoke"}, HTTP_IDEMPOTENCY_KEY="r1", **JSON)
    assert first.status_code == 200
    renew_codes(table, organiser)
    ns = holder(table, "NS")
    url = reverse("table:board_referee", args=[table.code_ns, 1])
    again = ns.post(url, {"reason": "Revoke"}, HTTP_IDEMPOTENCY_KEY="r1", **JSON)
    assert again.status_code == 200 and again.content == first.content
    assert Dispute.objects.filter(reason=Dispute.Reason.PLAYER_REQUEST).count() == 1


def test_a_stored_hand_sent_again_after_new_codes_is_replayed(table, organiser):
    board = table.round.event.boards.get(number=1)
    results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="EW"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 36, "EW": 36}},
    )
    body = json.dumps(adapter.record(board, trump="copes", cards=legal_game(board, "copes")))

    def send(client):
        url = reverse("table:play_submit", args=[table.code_ns, 1])
        return client.post(
            url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="h1", **JSON
        )

    first = send(holder(table, "NS"))
    renew_codes(table, organiser)
    again = send(holder(table, "NS"))
    assert again.status_code == 200 and again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert PlayRecord.objects.count() == 1


def test_a_pasted_record_sent_by_the_outbox_is_stored_once_or_refused_in_words(table):
    # The paste form goes through the outbox as every table form does: form-encoded, keyed.
    board = table.round.event.boards.get(number=1)
    results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="EW"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 36, "EW": 36}},
    )
    ns = holder(table, "NS")
    url = reverse("table:play_submit", args=[table.code_ns, 1])
    refused = ns.post(url, {"record": "{not json"}, HTTP_IDEMPOTENCY_KEY="p1", **JSON)
    assert refused.status_code == 400
    assert "This is not a play record" in refused.json()["problems"][0]["message"]
    record = json.dumps(adapter.record(board, trump="copes", cards=legal_game(board, "copes")))
    answers = [
        ns.post(url, {"record": record}, HTTP_IDEMPOTENCY_KEY="p1", **JSON) for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[1]["Idempotent-Replayed"] == "true"
    assert PlayRecord.objects.count() == 1


def test_the_paste_form_goes_through_the_outbox_and_still_works_without_javascript(table):
    results.result_submit_short(
        table=table,
        board_number=1,
        actor=Actor(table=table, side="EW"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": {"NS": 36, "EW": 36}},
    )
    html = holder(table, "NS").get(reverse("table:board_play", args=[table.code_ns, 1]))
    html = html.content.decode()
    assert 'data-outbox="record"' in html
    assert f'data-outbox-url="/table/{table.code_ns}/board/1/play/submit/"' in html
    assert f'action="/table/{table.code_ns}/board/1/play/"' in html  # the form without JS
