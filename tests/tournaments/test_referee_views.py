"""The referee's desk pages: permissions, the queue, the dispute page (evidence, replay data,
rulings, revisions, audit trail) and bad input that must never give a 500."""

import json
import random
import re

import pytest
from django.urls import reverse

import engine
from engine import random_play
from tests.factories import UserFactory
from tests.plays import illegal_play, legal_play, record_for
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.forms_referee import AdjustedForm
from tournaments.labels import RULE_TEXT, rule_sentence
from tournaments.models import BoardResult, Dispute, Ruling
from tournaments.services import disputes, events, results

pytestmark = pytest.mark.django_db


def totals_of(board, event, play, trump="copes"):
    hand = engine.Hand(adapter.deal(board), trump, adapter.rules(event))
    for token in play:
        hand.play(engine.parse_token(token))
    return dict(hand.totals)


@pytest.fixture(autouse=True)
def english(client):
    # The site's default language is Catalan; these tests read Django's English messages.
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def illegal_dispute(running_event, table1):
    board = running_event.boards.get(number=1)
    out = results.result_submit_play_record(
        table=table1,
        board_number=1,
        actor=Actor(table=table1, side="NS"),
        record=record_for(board, "copes", illegal_play(board, running_event)),
    )
    return out.result.disputes.get()


@pytest.fixture
def conflict_dispute(running_event, table1):
    board = running_event.boards.get(number=2)
    totals = totals_of(board, running_event, legal_play(board, running_event, seed=3))
    data = {"delegated": False, "trump": "copes", "doubles": [], "totals": totals}
    results.result_submit_short(
        table=table1, board_number=2, actor=Actor(table=table1, side="NS"), data=data
    )
    wrong = {"NS": 50, "EW": 22} if totals["NS"] != 50 else {"NS": 40, "EW": 32}
    out = results.result_submit_short(
        table=table1,
        board_number=2,
        actor=Actor(table=table1, side="EW"),
        data=data | {"totals": wrong},
    )
    return out.result.disputes.get()


def form_of(response, key):
    return next(form for k, _t, _h, form in response.context["forms"] if k == key)


def replay_data(response):
    match = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "no replay data on the page"
    return json.loads(match.group(1))


# --- permissions --------------------------------------------------------------------------------


def test_anonymous_is_sent_to_login(client, running_event, illegal_dispute):
    for url in (
        reverse("referee:queue", args=[running_event.pk]),
        reverse("referee:dispute", args=[illegal_dispute.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_others_get_403_and_a_dispute_as_if_it_did_not_exist(
    client, running_event, illegal_dispute, table1
):
    # A stranger, and a player sitting at the disputed table: neither is a referee. The queue
    # is a 403; a dispute's pages are a 404, as for an id no dispute has: dispute ids are
    # sequential, and a 403 would tell that some table had a board disputed (audit).
    player_user = UserFactory(username="player")
    pair = table1.ns.pair
    pair.player1.user = player_user
    pair.player1.save()
    missing = illegal_dispute.pk + 1000
    for user in (UserFactory(username="stranger"), player_user):
        client.force_login(user)
        assert client.get(reverse("referee:queue", args=[running_event.pk])).status_code == 403
        for name in ("referee:dispute", "referee:short_preview"):
            seen = client.get(reverse(name, args=[illegal_dispute.pk]))
            none = client.get(reverse(name, args=[missing]))
            assert seen.status_code == none.status_code == 404, name
        response = client.post(
            reverse("referee:dispute", args=[illegal_dispute.pk]),
            {"form": "penalty", "penalty-offending_pair": "NS", "penalty-explanation": "mine"},
        )
        assert response.status_code == 404
    assert not Ruling.objects.exists()


def test_referees_and_organisers_see_the_desk(
    client, running_event, illegal_dispute, referee, organiser
):
    for user in (referee, organiser):
        client.force_login(user)
        assert client.get(reverse("referee:queue", args=[running_event.pk])).status_code == 200
        assert client.get(reverse("referee:dispute", args=[illegal_dispute.pk])).status_code == 200


def test_missing_dispute_or_event_is_404(client, referee):
    client.force_login(referee)
    assert client.get(reverse("referee:dispute", args=[999999])).status_code == 404
    assert client.get(reverse("referee:queue", args=[999999])).status_code == 404


# --- the queue ----------------------------------------------------------------------------------


def test_queue_lists_open_disputes_oldest_first_and_recent_rulings(
    client, running_event, referee, illegal_dispute, conflict_dispute, django_assert_max_num_queries
):
    client.force_login(referee)
    url = reverse("referee:queue", args=[running_event.pk])
    response = client.get(url)
    html = response.content.decode()
    assert str(Dispute.Reason.ILLEGAL_PLAY.label) in html
    assert str(Dispute.Reason.CONFLICT.label) in html
    assert html.index(reverse("referee:dispute", args=[illegal_dispute.pk])) < html.index(
        reverse("referee:dispute", args=[conflict_dispute.pk])
    )
    assert list(response.context["open_disputes"]) == [illegal_dispute, conflict_dispute]

    disputes.dispute_rule(
        dispute=illegal_dispute,
        actor=Actor(user=referee),
        kind="penalty",
        explanation="R10.",
        data={"offending_pair": "NS"},
    )
    response = client.get(url)
    assert list(response.context["open_disputes"]) == [conflict_dispute]
    assert list(response.context["closed_disputes"]) == [illegal_dispute]
    assert "Apply the illegal-play penalty" in response.content.decode()
    with django_assert_max_num_queries(12):
        client.get(url)


def test_empty_queue_says_so(client, running_event, referee):
    client.force_login(referee)
    response = client.get(reverse("referee:queue", args=[running_event.pk]))
    assert "No open disputes" in response.content.decode()


# --- the dispute page ---------------------------------------------------------------------------


def test_dispute_page_shows_deal_submissions_and_replay(client, referee, illegal_dispute):
    client.force_login(referee)
    response = client.get(reverse("referee:dispute", args=[illegal_dispute.pk]))
    html = response.content.decode()
    assert 'class="deal' in html
    assert "Every submission, side by side" in html
    assert "table 1, round 1, NS" in html
    record = illegal_dispute.result.play_records.get()
    data = replay_data(response)
    assert data["illegal"]["card"] == record.verdict["card"]
    assert data["illegal"]["legal"] == record.verdict["legal"]
    assert data["illegal"]["penalty"] == record.verdict["score"]
    assert str(RULE_TEXT[record.verdict["rule"]]) in data["illegal"]["sentence"]
    assert data["steps"][-1]["rule"] == record.verdict["rule"]
    assert data["steps"][-1]["card"] == record.verdict["card"]
    assert len(data["steps"]) == len(record.record["play"])
    assert data["hands"] == illegal_dispute.result.board.hands
    assert "js/replay.js" in html
    # The penalty form comes preselected with the offending pair of the verdict.
    offender = engine.Seat.from_str(record.verdict["seat"]).pair
    assert form_of(response, "penalty").initial["offending_pair"] == offender
    assert f'value="{offender}"' in html
    # The static trick table marks the illegal card too.
    assert "illegal-cell" in html


def test_rule_sentences_are_words():
    assert "had to follow suit" in rule_sentence("follow_suit", "W")
    assert rule_sentence("follow_suit", "W").startswith("West")
    for rule in ("must_beat", "must_trump", "must_overtrump", "lowest_card"):
        sentence = rule_sentence(rule, "N")
        assert sentence.startswith("North") and rule not in sentence
    assert rule_sentence(None, "N") == ""


def test_a_rule_of_one_ruleset_names_it_beside_its_section():
    """docs/referees.md: "had to play the lowest card of that suit (obligada, R8)"."""
    assert rule_sentence("lowest_card", "S") == (
        "South had to play the lowest card of that suit (obligada, R8)."
    )
    assert rule_sentence("follow_suit", "S") == "South had to follow suit (R7.2)."


def test_conflict_page_marks_differing_values(client, referee, conflict_dispute):
    client.force_login(referee)
    response = client.get(reverse("referee:dispute", args=[conflict_dispute.pk]))
    html = response.content.decode()
    assert 'class="differs"' in html
    assert "replay-data" not in html  # no play record to replay
    assert response.context["open_form"] == "accept"


def test_player_request_shows_the_players_text(client, referee, running_event, table1):
    board = running_event.boards.get(number=2)
    totals = totals_of(board, running_event, legal_play(board, running_event, seed=3))
    out = results.result_submit_short(
        table=table1,
        board_number=2,
        actor=Actor(table=table1, side="NS"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": totals},
    )
    dispute = disputes.dispute_request(
        result=out.result,
        actor=Actor(table=table1, side="EW"),
        reason="North <b>revoked</b> at trick 5",
    )
    client.force_login(referee)
    html = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "North &lt;b&gt;revoked&lt;/b&gt; at trick 5" in html


# --- rulings through the page --------------------------------------------------------------------


def test_penalty_ruling_through_the_page(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    offender = illegal_dispute.result.offending_pair
    response = client.post(
        url,
        {
            "form": "penalty",
            "penalty-offending_pair": offender,
            "penalty-explanation": "Revoke: R10 applies.",
        },
    )
    assert response.status_code == 302 and response["Location"] == url + "#rulings-h"
    result = BoardResult.objects.get(pk=illegal_dispute.result_id)
    assert result.status == BoardResult.Status.RULED
    ruling = Ruling.objects.get()
    assert (ruling.kind, ruling.explanation, ruling.referee) == (
        "penalty",
        "Revoke: R10 applies.",
        referee,
    )
    html = client.get(url).content.decode()
    assert "Revoke: R10 applies." in html
    assert "Revise the ruling" in html
    assert "Referee&#x27;s ruling" in html or "Referee's ruling" in html  # audit action


def test_ruling_without_explanation_is_refused(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    response = client.post(
        url, {"form": "penalty", "penalty-offending_pair": "NS", "penalty-explanation": "   "}
    )
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    assert response.context["open_form"] == "penalty"
    assert not Ruling.objects.exists()


def test_revision_keeps_the_old_ruling_struck_through(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    client.post(
        url,
        {
            "form": "penalty",
            "penalty-offending_pair": "NS",
            "penalty-explanation": "First thoughts.",
        },
    )
    response = client.post(
        url,
        {
            "form": "adjusted",
            "adjusted-adjusted_ns": "avg_plus",
            "adjusted-adjusted_ew": "avg_minus",
            "adjusted-score_ns": "3",
            "adjusted-score_ew": "0",
            "adjusted-explanation": "Second thoughts.",
        },
    )
    assert response.status_code == 302
    html = client.get(url).content.decode()
    old = html[html.index("First thoughts.") - 400 : html.index("First thoughts.")]
    assert "<del>" in old and 'class="ruling superseded"' in old
    assert "Second thoughts." in html
    assert "replaced by a later ruling" in html
    assert "by referee" in html
    result = BoardResult.objects.get(pk=illegal_dispute.result_id)
    assert (result.adjusted_ns, result.adjusted_ew, result.score_ns) == ("avg_plus", "avg_minus", 3)


def test_an_adjusted_score_for_both_pairs_is_refused_on_the_form(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    response = client.post(
        url,
        {
            "form": "adjusted",
            "adjusted-adjusted_ns": "avg",
            "adjusted-adjusted_ew": "avg",
            "adjusted-score_ns": "10",
            "adjusted-score_ew": "10",
            "adjusted-explanation": "Fouled board.",
        },
    )
    assert response.status_code == 400
    assert form_of(response, "adjusted").errors["score_ns"] == [
        "Only one pair scores on a board (R9): give the other pair 0."
    ]
    assert not Ruling.objects.exists()


def test_the_adjusted_form_checks_the_score_as_the_ruling_does():
    def errors(ns, ew):
        data = {"adjusted_ns": "avg", "adjusted_ew": "avg", "explanation": "x"}
        form = AdjustedForm(data=data | {"score_ns": ns, "score_ew": ew})
        return form.errors.get("score_ns")

    assert errors(5, 0) is None and errors(0, 0) is None
    assert "(R9)" in errors(5, 3)[0]
    assert "576" in errors(600, 0)[0]


def test_accept_ruling_through_the_page(client, referee, conflict_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[conflict_dispute.pk])
    ew_sub = conflict_dispute.result.submissions.get(side="EW")
    response = client.post(
        url,
        {
            "form": "accept",
            "accept-submission": ew_sub.pk,
            "accept-explanation": "EW's scoresheet is right.",
        },
    )
    assert response.status_code == 302
    result = BoardResult.objects.get(pk=conflict_dispute.result_id)
    assert result.totals_ns == ew_sub.data["totals"]["NS"]


def test_accept_refuses_a_foreign_submission(client, referee, conflict_dispute, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[conflict_dispute.pk])
    foreign = illegal_dispute.result.submissions.get()
    response = client.post(
        url, {"form": "accept", "accept-submission": foreign.pk, "accept-explanation": "x"}
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_corrected_short_result_through_the_page(client, referee, conflict_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[conflict_dispute.pk])
    post = {
        "form": "corrected_short",
        "corrected_short-trump": "oros",
        "corrected_short-totals_ns": "40",
        "corrected_short-totals_ew": "32",
        "corrected_short-contro": "",
        "corrected_short-recontro": "",
        "corrected_short-sant_vicenc": "",
        "corrected_short-explanation": "Oros, 40-32.",
    }
    assert client.post(url, post).status_code == 302
    result = BoardResult.objects.get(pk=conflict_dispute.result_id)
    assert (result.trump, result.score_ns, result.score_ew) == ("oros", 4, 0)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"corrected_short-totals_ew": "30"}, "add up to 72"),
        ({"corrected_short-recontro": "CHOOSER"}, "A recontro needs a contro"),
        ({"corrected_short-totals_ns": "abc"}, "whole number from 0 to 72, not abc"),
        ({"corrected_short-totals_ns": "-10", "corrected_short-totals_ew": ""}, "not -10"),
        ({"corrected_short-trump": "hearts"}, "Select a valid choice"),
    ],
)
def test_corrected_short_result_bad_input(client, referee, conflict_dispute, change, message):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[conflict_dispute.pk])
    post = {
        "form": "corrected_short",
        "corrected_short-trump": "oros",
        "corrected_short-totals_ns": "40",
        "corrected_short-totals_ew": "32",
        "corrected_short-explanation": "x",
    } | change
    if post.get("corrected_short-recontro") == "CHOOSER":  # a seat of the pair that chose
        post["corrected_short-recontro"] = conflict_dispute.result.board.dealer
    response = client.post(url, post)
    assert response.status_code == 400
    page = response.content.decode()
    assert page.count(message) == 1
    form = page.split('id="rule-corrected_short"')[1].split("</details>")[0]
    form = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", form)  # random letters
    assert "82" not in form
    assert not Ruling.objects.exists()


def test_the_corrected_result_offers_only_the_seats_that_may_make_each_call(
    client, referee, conflict_dispute
):
    """R5: contro and Sant Vicenç by the opponents of the pair that chose, recontro by that pair
    (the players' form offers the same seats)."""
    client.force_login(referee)
    board = conflict_dispute.result.board
    page = client.get(reverse("referee:dispute", args=[conflict_dispute.pk])).content.decode()
    choosers = {board.dealer, {"N": "S", "S": "N", "E": "W", "W": "E"}[board.dealer]}
    for seat in "NESW":
        mine = seat in choosers
        assert (f'name="corrected_short-contro" value="{seat}"' in page) is not mine
        assert (f'name="corrected_short-sant_vicenc" value="{seat}"' in page) is not mine
        assert (f'name="corrected_short-recontro" value="{seat}"' in page) is mine
    assert 'data-short-form data-prefix="corrected_short-"' in page
    assert reverse("referee:short_preview", args=[conflict_dispute.pk]) in page


def test_the_corrected_result_takes_one_total_and_fills_the_other(
    client, referee, conflict_dispute
):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[conflict_dispute.pk])
    post = {
        "form": "corrected_short",
        "corrected_short-trump": "oros",
        "corrected_short-totals_ns": "",
        "corrected_short-totals_ew": "30",
        "corrected_short-explanation": "Oros, 42-30.",
    }
    assert client.post(url, post).status_code == 302
    result = BoardResult.objects.get(pk=conflict_dispute.result_id)
    assert (result.totals_ns, result.totals_ew) == (42, 30)


def test_the_referees_live_score_comes_from_the_engine(client, referee, conflict_dispute):
    client.force_login(referee)
    board = conflict_dispute.result.board
    url = reverse("referee:short_preview", args=[conflict_dispute.pk])
    opponent = {"N": "E", "S": "E", "E": "N", "W": "N"}[board.dealer]
    params = {
        "corrected_short-trump": "botifarra",
        "corrected_short-contro": opponent,
        "corrected_short-totals_ns": "50",
    }
    data = client.get(url, params).json()
    values = results.short_values(
        board=board,
        data={
            "delegated": False,
            "trump": "botifarra",
            "doubles": [{"seat": opponent, "call": "contro"}],
            "totals": {"NS": 50, "EW": 22},
        },
    )
    assert data["ok"] is True
    assert data["score"] == {"NS": values["score_ns"], "EW": values["score_ew"]}
    assert data["totals"] == {"NS": 50, "EW": 22}
    wrong = client.get(url, params | {"corrected_short-totals_ns": "-10"}).json()
    assert wrong["ok"] is False and list(wrong["errors"]) == ["totals_ns"]
    assert not Ruling.objects.exists()


def test_calls_from_the_wrong_pair_come_back_from_the_engine(client, referee, conflict_dispute):
    client.force_login(referee)
    board = conflict_dispute.result.board
    chooser = engine.Seat.from_str(board.dealer).name  # the dealer's own pair cannot contro
    url = reverse("referee:dispute", args=[conflict_dispute.pk])
    response = client.post(
        url,
        {
            "form": "corrected_short",
            "corrected_short-trump": "oros",
            "corrected_short-totals_ns": "40",
            "corrected_short-totals_ew": "32",
            "corrected_short-contro": chooser,
            "corrected_short-explanation": "x",
        },
    )
    assert response.status_code == 400
    assert form_of(response, "corrected_short").errors
    assert not Ruling.objects.exists()


def test_preview_replays_without_storing(client, referee, running_event, illegal_dispute):
    client.force_login(referee)
    board = illegal_dispute.result.board
    play = legal_play(board, running_event, seed=11)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    response = client.post(
        url,
        {
            "form": "corrected_record",
            "action": "preview",
            "corrected_record-play_record": json.dumps(record_for(board, "copes", play)),
            "corrected_record-explanation": "",
        },
    )
    assert response.status_code == 200
    assert "preview, not stored" in response.content.decode()
    data = replay_data(response)
    assert len(data["steps"]) == 48 and data["illegal"] is None
    assert data["verdict"]["outcome"] == "complete"
    assert not Ruling.objects.exists()
    assert BoardResult.objects.get(pk=illegal_dispute.result_id).status == "disputed"


def test_the_corrected_record_box_holds_the_record_as_sent(client, referee, running_event, table1):
    """referees.md §3: the box holds what the table sent (its program's note, the hands), and
    a preview of it as it is replays to the same verdict; the replay shown reads the stored
    canonical form."""
    board = running_event.boards.get(number=1)
    sent = record_for(board, "copes", illegal_play(board, running_event))
    sent["comment"] = "<b>typed</b> by club software"
    sent["deal"]["hands"] = board.hands
    out = results.result_submit_play_record(
        table=table1, board_number=1, actor=Actor(table=table1, side="NS"), record=sent
    )
    client.force_login(referee)
    url = reverse("referee:dispute", args=[out.result.disputes.get().pk])
    page = client.get(url)
    box = form_of(page, "corrected_record")["play_record"].value()
    assert json.loads(box) == sent
    assert "&lt;b&gt;typed&lt;/b&gt; by club software" in page.content.decode()
    assert replay_data(page)["verdict"] == out.verdict.to_json()
    preview = client.post(
        url,
        {
            "form": "corrected_record",
            "action": "preview",
            "corrected_record-play_record": box,
            "corrected_record-explanation": "",
        },
    )
    assert replay_data(preview)["verdict"] == out.verdict.to_json()


def test_rule_with_a_corrected_record(client, referee, running_event, illegal_dispute):
    client.force_login(referee)
    board = illegal_dispute.result.board
    play = legal_play(board, running_event, seed=11)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    response = client.post(
        url,
        {
            "form": "corrected_record",
            "action": "rule",
            "corrected_record-play_record": json.dumps(record_for(board, "copes", play)),
            "corrected_record-explanation": "Replayed from the cards.",
        },
    )
    assert response.status_code == 302
    totals = totals_of(board, running_event, play)
    result = BoardResult.objects.get(pk=illegal_dispute.result_id)
    assert (result.totals_ns, result.totals_ew) == (totals["NS"], totals["EW"])


@pytest.mark.parametrize(
    "text, message, preview_status",
    [
        ("{not json", "This is not valid JSON", 400),
        ("[1, 2]", "A play record is a JSON object", 400),
        # a readable record: its preview shows the problems; ruling with it is refused
        (
            '{"format": "botifarra-play/1", "choice": {"delegated": false, "trump": "copes"}, '
            '"play": ["99x"]}',
            "play[0]",
            200,
        ),
    ],
)
def test_bad_records_are_explained_not_500(
    client, referee, illegal_dispute, text, message, preview_status
):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    for action in ("preview", "rule"):
        response = client.post(
            url,
            {
                "form": "corrected_record",
                "action": action,
                "corrected_record-play_record": text,
                "corrected_record-explanation": "x",
            },
        )
        assert response.status_code == (preview_status if action == "preview" else 400)
        assert message in response.content.decode()
    assert not Ruling.objects.exists()


def test_unknown_form_is_refused_politely(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    response = client.post(url, {"form": "coin_toss"}, follow=True)
    assert response.status_code == 200
    assert "Choose one of the rulings" in response.content.decode()
    assert not Ruling.objects.exists()


def test_withdrawn_dispute_has_no_ruling_forms(client, referee, running_event, table1):
    board = running_event.boards.get(number=2)
    totals = totals_of(board, running_event, legal_play(board, running_event, seed=3))
    out = results.result_submit_short(
        table=table1,
        board_number=2,
        actor=Actor(table=table1, side="NS"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": totals},
    )
    dispute = disputes.dispute_request(
        result=out.result, actor=Actor(table=table1, side="EW"), reason="doubt"
    )
    disputes.dispute_withdraw(dispute=dispute, actor=Actor(table=table1, side="EW"))
    client.force_login(referee)
    html = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "was withdrawn" in html
    assert 'name="form"' not in html


def test_audit_trail_on_the_page(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    offender = illegal_dispute.result.offending_pair
    other = "EW" if offender == "NS" else "NS"
    client.post(
        url,
        {
            "form": "penalty",
            "penalty-offending_pair": other,
            "penalty-explanation": "It was the other pair.",
        },
    )
    response = client.get(url)
    rows = response.context["audit"]
    assert [r.entry.action for r in rows] == ["result_entered", "dispute_opened", "ruling"]
    ruling_row = rows[-1]
    assert ruling_row.entry.actor == "referee"
    assert ("illegal play by", offender, other) in ruling_row.changes
    assert ("status", "Disputed", "Ruled by a referee") in ruling_row.changes
    html = response.content.decode()
    assert f"<del>{offender}</del> → <ins>{other}</ins>" in html
    assert "It was the other pair." in html


def test_dispute_page_query_count_is_bounded(
    client, referee, illegal_dispute, django_assert_max_num_queries
):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    with django_assert_max_num_queries(30):
        client.get(url)


def test_referee_withdraws_a_players_request(client, referee, running_event, table1):
    board = running_event.boards.get(number=2)
    totals = totals_of(board, running_event, legal_play(board, running_event, seed=3))
    out = results.result_submit_short(
        table=table1,
        board_number=2,
        actor=Actor(table=table1, side="NS"),
        data={"delegated": False, "trump": "copes", "doubles": [], "totals": totals},
    )
    dispute = disputes.dispute_request(
        result=out.result, actor=Actor(table=table1, side="EW"), reason="doubt"
    )
    client.force_login(referee)
    url = reverse("referee:dispute", args=[dispute.pk])
    assert "Withdraw the player" in client.get(url).content.decode()
    response = client.post(url, {"form": "withdraw"}, follow=True)
    assert "The request was withdrawn" in response.content.decode()
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.WITHDRAWN
    assert BoardResult.objects.get(pk=out.result.pk).status == BoardResult.Status.ENTERED
    # Twice: a clear message, not an error page.
    response = client.post(url, {"form": "withdraw"}, follow=True)
    assert response.status_code == 200
    assert "already closed" in response.content.decode()


def test_illegal_play_dispute_cannot_be_withdrawn(client, referee, illegal_dispute):
    client.force_login(referee)
    url = reverse("referee:dispute", args=[illegal_dispute.pk])
    assert "Withdraw the player" not in client.get(url).content.decode()
    response = client.post(url, {"form": "withdraw"}, follow=True)
    assert "Only a player&#x27;s request can be withdrawn" in response.content.decode()
    illegal_dispute.refresh_from_db()
    assert illegal_dispute.status == Dispute.Status.OPEN


# --- a referee's review of a board nobody disputed ------------------------------------------


@pytest.fixture
def confirmed(running_event, table1):
    board = running_event.boards.get(number=1)
    totals = totals_of(board, running_event, legal_play(board, running_event, seed=3))
    data = {"delegated": False, "trump": "copes", "doubles": [], "totals": totals}
    out = results.result_submit_short(
        table=table1, board_number=1, actor=Actor(table=table1, side="NS"), data=data
    )
    results.result_confirm(result=out.result, actor=Actor(table=table1, side="EW"))
    return BoardResult.objects.get(pk=out.result.pk)


def test_the_round_page_offers_a_review_and_the_referee_opens_it(
    client, running_event, referee, confirmed
):
    client.force_login(referee)
    page = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    url = reverse("referee:review", args=[running_event.pk, confirmed.pk])
    assert url in page.content.decode()
    assert client.get(url).status_code == 200
    # A reason is needed; nothing changes without one.
    refused = client.post(url, {"reason": "  "})
    assert refused.status_code == 400
    assert BoardResult.objects.get(pk=confirmed.pk).status == BoardResult.Status.CONFIRMED
    response = client.post(url, {"reason": "A late complaint about the count of points."})
    dispute = Dispute.objects.get(result=confirmed)
    assert response.status_code == 302
    assert response["Location"] == reverse("referee:dispute", args=[dispute.pk])
    assert dispute.reason == Dispute.Reason.REFEREE_REVIEW
    assert dispute.details == "A late complaint about the count of points."
    assert BoardResult.objects.get(pk=confirmed.pk).status == BoardResult.Status.DISPUTED
    # The disputed board links to its dispute, not to a second review.
    page = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    assert url not in page.content.decode()


def test_a_review_needs_rulings_open_and_a_referee(client, running_event, referee, confirmed):
    url = reverse("referee:review", args=[running_event.pk, confirmed.pk])
    client.force_login(UserFactory(username="stranger"))
    assert client.post(url, {"reason": "x"}).status_code == 403
    rnd = running_event.rounds.get(number=1)
    events.round_close(
        rnd=rnd, actor=Actor(user=running_event.organisers.first()), accept_missing=True
    )
    client.force_login(referee)
    page = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    assert url not in page.content.decode()
    closed = client.post(url, {"reason": "Too late?"})
    assert closed.status_code == 409
    assert not Dispute.objects.filter(result=confirmed).exists()
    # Reopened for rulings: the review is offered again and opens.
    events.round_rulings(
        rnd=rnd, actor=Actor(user=running_event.organisers.first()), reopen=True, reason="late"
    )
    page = client.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    assert url in page.content.decode()
    assert client.post(url, {"reason": "A late complaint."}).status_code == 302
    assert Dispute.objects.filter(result=confirmed).exists()


def test_the_penalty_applied_after_a_short_result_is_the_one_the_replay_shows(
    client, running_event, table1, referee
):
    """A short result first (oros, no call); the other pair's play record, in copes with a
    contro, has an illegal card. The page shows that record's R10 penalty (x2), and applying
    the penalty stores it: the hand played, not the short result's contract (rules.md R10)."""
    board = running_event.boards.get(number=1)
    contro = adapter.call_seats(board)["contro"][0]
    doubles = [{"seat": contro, "call": "contro"}]
    rules = adapter.rules(running_event)
    for seed in range(1, 200):
        cards = random_play(adapter.deal(board), "copes", rules, random.Random(seed), illegal_at=9)
        if len(cards) < 48:
            break
    record = adapter.record(board, trump="copes", doubles=doubles, cards=cards)
    verdict = adapter.replay(board, record)
    assert verdict.outcome == engine.Outcome.ILLEGAL and verdict.multiplier == 2
    short = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    results.result_submit_short(
        table=table1, board_number=1, actor=Actor(table=table1, side="NS"), data=short
    )
    out = results.result_submit_play_record(
        table=table1, board_number=1, actor=Actor(table=table1, side="EW"), record=record
    )
    dispute = out.result.disputes.get(status="open")
    client.force_login(referee)
    url = reverse("referee:dispute", args=[dispute.pk])
    page = client.get(url).content.decode()
    shown = json.loads(
        re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)[1]
    )["illegal"]
    assert shown["penalty"] == verdict.score
    ruled = client.post(
        url,
        {
            "form": "penalty",
            "penalty-offending_pair": shown["offender"],
            "penalty-explanation": "The record is what was played: R10.",
        },
    )
    assert ruled.status_code == 302
    result = BoardResult.objects.get(pk=out.result.pk)
    assert {"NS": result.score_ns, "EW": result.score_ew} == verdict.score
    assert (result.trump, result.doubles, result.multiplier) == ("copes", doubles, 2)


def test_the_admin_changes_nothing_of_a_dispute(client, running_event, table1, django_user_model):
    """Who asked for the referee decides who may withdraw the request: it changes at the
    desk only, audited, never in the admin (docs/referees.md: nothing in the trail changes)."""
    out = results.result_submit_short(
        table=table1,
        board_number=1,
        actor=Actor(table=table1, side="NS"),
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}},
    )
    dispute = disputes.dispute_request(
        result=out.result, actor=Actor(table=table1, side="EW"), reason="They revoked"
    )
    client.force_login(django_user_model.objects.create_superuser("boss", "b@x.org", "pw"))
    client.post(
        reverse("admin:tournaments_dispute_change", args=[dispute.pk]),
        {
            "opened_side": "NS",
            "status": "withdrawn",
            "rulings-TOTAL_FORMS": "0",
            "rulings-INITIAL_FORMS": "0",
            "rulings-MIN_NUM_FORMS": "0",
            "rulings-MAX_NUM_FORMS": "1000",
            "_save": "Save",
        },
    )
    dispute.refresh_from_db()
    assert (dispute.opened_side, dispute.status) == ("EW", Dispute.Status.OPEN)
