"""Table pages: short-form entry, live preview, confirming, differing, asking for a referee."""

import pytest
from django.test import Client
from django.urls import reverse

import engine
from tournaments import play as adapter
from tournaments.actors import Actor
from tournaments.models import Board, BoardResult, Dispute, Table
from tournaments.services import disputes, results

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(running_event):
    return Table.objects.get(round__event=running_event, round__number=1, number=1)


def holder(table, side):
    client = Client()
    assert client.post(reverse("table:enter"), {"code": table.code_for(side)}).status_code == 302
    return client


def short_url(table, n=1, **query):
    url = reverse("table:board_short", args=[table.code_ns, n])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def form(**overrides):
    data = {
        "delegated": "0",
        "trump": "oros",
        "contro": "",
        "recontro": "",
        "sant_vicenc": "",
        "outcome": "played",
        "totals_ns": "45",
        "totals_ew": "",
    }
    data.update(overrides)
    return data


def opponents_of_dealer(board):
    return ("E", "W") if board.dealer in "NS" else ("N", "S")


def result_of(table, n=1):
    return BoardResult.objects.filter(table=table, board__number=n).first()


# --- entering ------------------------------------------------------------------------------


def test_short_form_offers_trumps_and_the_right_seats_for_each_call(table):
    board = Board.objects.get(event=table.round.event, number=1)
    page = holder(table, "NS").get(short_url(table)).content.decode()
    for trump in ("oros", "copes", "espases", "bastos", "botifarra"):
        assert f'name="trump" value="{trump}"' in page
    opp = opponents_of_dealer(board)
    mine = tuple(s for s in "NESW" if s not in opp)
    for seat in opp:
        assert f'name="contro" value="{seat}"' in page
        assert f'name="sant_vicenc" value="{seat}"' in page
        assert f'name="recontro" value="{seat}"' not in page
    for seat in mine:
        assert f'name="recontro" value="{seat}"' in page
        assert f'name="contro" value="{seat}"' not in page


def test_short_entry_happy_path_scores_with_the_engine(table):
    board = Board.objects.get(event=table.round.event, number=1)
    opp = opponents_of_dealer(board)
    client = holder(table, "NS")
    response = client.post(short_url(table), form(contro=opp[0]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("table:table_home", args=[table.code_ns]))
    result = result_of(table)
    expected = engine.score_short_result(
        dealer=engine.Seat.from_str(board.dealer),
        delegated=False,
        trump="oros",
        doubles=[{"seat": opp[0], "call": "contro"}],
        rules=adapter.rules(table.round.event),
        totals={"NS": 45, "EW": 27},
    )
    assert (result.score_ns, result.score_ew) == (expected.score["NS"], expected.score["EW"])
    assert (result.totals_ns, result.totals_ew) == (45, 27)  # EW = 72 − NS
    assert result.status == BoardResult.Status.ENTERED and result.entered_side == "NS"
    page = client.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "Entered by NS, waiting for EW" in page
    assert "Waiting for EW to confirm" in page  # the flash message


def test_only_the_other_total_may_be_given(table):
    client = holder(table, "EW")
    client.post(short_url(table), form(totals_ns="", totals_ew="30"))
    result = result_of(table)
    assert (result.totals_ns, result.totals_ew) == (42, 30)


def test_illegal_play_outcome(table):
    client = holder(table, "NS")
    client.post(short_url(table), form(outcome="illegal_EW", totals_ns=""))
    result = result_of(table)
    assert result.offending_pair == "EW" and result.score_ns == 36 and result.score_ew == 0


def errors_in(response):
    return response.content.decode()


@pytest.mark.parametrize(
    "overrides, field_id, text",
    [
        ({"trump": ""}, "field-trump", "Choose the trump"),
        ({"trump": "trumfo"}, "field-trump", "trumfo"),
        ({"totals_ns": "", "totals_ew": ""}, "field-outcome", "Enter one pair"),
        ({"totals_ns": "abc"}, "field-outcome", "whole number"),
        ({"totals_ns": "80"}, "field-outcome", "from 0 to 72"),
        ({"totals_ns": "40", "totals_ew": "40"}, "field-outcome", "add up to 72"),
        ({"outcome": ""}, "field-outcome", "how the hand ended"),
        ({"outcome": "illegal_XX"}, "field-outcome", "how the hand ended"),
        ({"delegated": "maybe"}, "field-delegated", "who chose the trump"),
        ({"delegated": "true"}, "field-delegated", "who chose the trump"),
        ({"delegated": ""}, "field-delegated", "who chose the trump"),
    ],
)
def test_errors_come_back_per_field(table, overrides, field_id, text):
    client = holder(table, "NS")
    response = client.post(short_url(table), form(**overrides))
    assert response.status_code == 400
    page = response.content.decode()
    start = page.index(f'id="{field_id}"')
    end = page.index("</fieldset>", start)
    assert text in page[start:end], page[start:end]
    assert 'class="tp-group has-error" id="' + field_id + '"' in page
    assert result_of(table) is None


@pytest.mark.parametrize("typed", ["-10", "−10", "73", "100", "4.5", "3_0", "٤٠"])
def test_a_total_out_of_range_is_refused_on_its_own_field_and_kept_as_typed(table, typed):
    """-10 for NS once became EW 82, then "not 82" on an empty EW field and the NS error twice:
    now one sentence on the NS field, the NS field keeps -10, EW stays as typed (empty)."""
    client = holder(table, "NS")
    response = client.post(short_url(table), form(totals_ns=typed, totals_ew=""))
    assert response.status_code == 400
    page = response.content.decode()
    assert f'id="id_totals_ns" min="0" max="72" inputmode="numeric" value="{typed}"' in page
    assert 'id="id_totals_ew" min="0" max="72" inputmode="numeric" value=""' in page
    sentence = f"The NS hand total is a whole number from 0 to 72, not {typed}."
    assert page.count(sentence) == 1
    ns_field = page[page.index('id="field-totals_ns"') : page.index('id="field-totals_ew"')]
    assert sentence in ns_field and 'aria-invalid="true"' in ns_field
    ew_field = page[page.index('id="field-totals_ew"') : page.index("</fieldset>")]
    assert 'class="error"' not in ew_field and "has-error" not in ew_field
    assert str(72 - int(typed.replace("−", "-").split(".")[0])) not in ew_field
    assert result_of(table) is None
    data = preview(client, table, totals_ns=typed, totals_ew="").json()
    assert data == {"ok": False, "complete": False, "errors": {"totals_ns": [sentence]}}


def test_two_totals_that_do_not_add_up_get_one_sentence(table):
    client = holder(table, "NS")
    response = client.post(short_url(table), form(totals_ns="40", totals_ew="40"))
    page = response.content.decode()
    assert page.count("The two hand totals add up to 72, not 80") == 1
    assert 'value="40"' in page


def test_call_errors_are_shown_on_the_call_they_concern(table):
    board = Board.objects.get(event=table.round.event, number=1)
    opp = opponents_of_dealer(board)
    mine = [s for s in "NESW" if s not in opp]
    client = holder(table, "NS")
    # A recontro without a contro: the engine's problem is at doubles[0], i.e. the recontro.
    response = client.post(short_url(table), form(recontro=mine[0]))
    assert response.status_code == 400
    page = response.content.decode()
    start = page.index('id="field-recontro"')
    assert "error" in page[start : page.index("</div>", page.index("choice-row", start) + 1) + 200]
    assert 'call-row has-error" data-call="recontro"' in page
    # A contro by the wrong pair (a seat posted by hand): doubles[0].seat → the contro row.
    response = client.post(short_url(table), form(contro=mine[0]))
    assert 'call-row has-error" data-call="contro"' in response.content.decode()
    # Sant Vicenç called by the wrong pair: doubles[2].seat → the Sant Vicenç row.
    response = client.post(
        short_url(table), form(contro=opp[0], recontro=mine[0], sant_vicenc=mine[1])
    )
    assert 'call-row has-error" data-call="sant_vicenc"' in response.content.decode()
    assert result_of(table) is None


def test_problem_paths_map_to_fields():
    from tournaments.forms_results import problem_field

    calls = ["contro", "recontro"]
    assert problem_field("choice.trump", calls) == "trump"
    assert problem_field("choice.delegated", calls) == "delegated"
    assert problem_field("doubles[1].seat", calls) == "recontro"
    assert problem_field("doubles[0].call", calls) == "contro"
    assert problem_field("doubles[5].call", calls) == "calls"
    assert problem_field("totals.NS", calls) == "totals_ns"
    assert problem_field("totals.EW", calls) == "totals_ew"
    assert problem_field("totals", calls) == "totals"
    assert problem_field("offending_pair", calls) == "outcome"
    assert problem_field("round", calls) == "__all__"


def test_entering_the_same_board_twice_from_one_side_asks_for_a_correction(table):
    client = holder(table, "NS")
    client.post(short_url(table), form())
    response = client.post(short_url(table), form(totals_ns="50"))
    assert response.status_code == 409
    assert "already entered" in response.content.decode()
    assert result_of(table).totals_ns == 45


def test_correcting_your_own_entry(table):
    client = holder(table, "NS")
    client.post(short_url(table), form())
    page = client.get(short_url(table, mode="correct")).content.decode()
    assert (
        'name="totals_ns" id="id_totals_ns" min="0" max="72" inputmode="numeric" value="45"' in page
    )
    version = result_of(table).version
    response = client.post(
        short_url(table), form(totals_ns="50", mode="correct", version=str(version))
    )
    assert response.status_code == 302
    assert result_of(table).totals_ns == 50


# --- confirming ----------------------------------------------------------------------------


def test_confirm_flow_ns_enters_ew_confirms(table):
    ns, ew = holder(table, "NS"), holder(table, "EW")
    ns.post(short_url(table), form())
    page = ew.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "NS entered this. Is it right?" in page
    assert "totals NS 45 – EW 27" in page
    assert "Confirm" in page and "It's different" in page
    # The side that entered is not offered the confirmation.
    assert (
        "Is it right?"
        not in ns.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    )
    response = ew.post(
        reverse("table:board_confirm", args=[table.code_ns, 1]),
        {"version": result_of(table).version},
    )
    assert response.status_code == 302
    result = result_of(table)
    assert result.status == BoardResult.Status.CONFIRMED
    assert "Confirmed" in ew.get(reverse("table:table_home", args=[table.code_ns])).content.decode()


def test_entering_side_cannot_confirm_itself(table):
    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    ns.post(reverse("table:board_confirm", args=[table.code_ns, 1]))
    assert result_of(table).status == BoardResult.Status.ENTERED


def test_confirm_flow_ew_differs_makes_it_disputed(table):
    ns, ew = holder(table, "NS"), holder(table, "EW")
    ns.post(short_url(table), form())
    page = ew.get(short_url(table, mode="differ")).content.decode()
    assert "NS entered:" in page
    assert 'value="45"' in page  # their version, ready to change
    response = ew.post(short_url(table), form(totals_ns="40", mode="differ"))
    assert response.status_code == 302
    result = result_of(table)
    assert result.status == BoardResult.Status.DISPUTED
    assert result.disputes.get().reason == Dispute.Reason.CONFLICT
    home = ew.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "Disputed: a referee will decide" in home


def test_other_side_entering_the_same_confirms(table):
    ns, ew = holder(table, "NS"), holder(table, "EW")
    ns.post(short_url(table), form())
    ew.post(short_url(table), form(totals_ns="", totals_ew="27", mode="differ"))
    assert result_of(table).status == BoardResult.Status.CONFIRMED


def test_ruled_board_shows_the_referees_explanation(table, organiser):
    ns, ew = holder(table, "NS"), holder(table, "EW")
    ns.post(short_url(table), form())
    ew.post(short_url(table), form(totals_ns="40"))
    dispute = result_of(table).disputes.get()
    disputes.dispute_rule(
        dispute=dispute,
        actor=Actor(user=organiser),
        kind="corrected",
        explanation="Trick 7 belonged to NS.",
        data={"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 44, "EW": 28}},
    )
    page = ns.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "Ruled by the referee" in page
    assert "Trick 7 belonged to NS." in page


def test_status_fragment_for_the_refresh(table):
    ns = holder(table, "NS")
    before = ns.get(reverse("table:board_list", args=[table.code_ns])).content.decode()
    assert 'id="boards"' in before and "<html" not in before
    ns.post(short_url(table), form())
    after = ns.get(reverse("table:board_list", args=[table.code_ns])).content.decode()
    stamp = lambda html: html.split('data-stamp="')[1].split('"')[0]  # noqa: E731
    assert stamp(before) != stamp(after)
    assert "Entered by NS, waiting for EW" in after


# --- asking for a referee ------------------------------------------------------------------


def test_asking_for_a_referee(table):
    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    response = ns.post(
        reverse("table:board_referee", args=[table.code_ns, 1]), {"reason": "We miscounted"}
    )
    assert response.status_code == 302
    dispute = result_of(table).disputes.get()
    assert dispute.reason == Dispute.Reason.PLAYER_REQUEST and dispute.details == "We miscounted"
    page = ns.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "A referee has been called for this board." in page


def test_asking_for_a_referee_needs_a_reason(table):
    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    response = ns.post(reverse("table:board_referee", args=[table.code_ns, 1]), {"reason": " "})
    assert response.status_code == 400
    assert "Say briefly what went wrong" in response.content.decode()


def test_asking_for_a_referee_before_any_result_is_a_refusal(table):
    """The form's POST was answered 200 with the refusal on the page (audit); its JSON twin
    already answered 409."""
    ns = holder(table, "NS")
    url = reverse("table:board_referee", args=[table.code_ns, 1])
    assert ns.get(url).status_code == 200
    response = ns.post(url, {"reason": "We miscounted"})
    assert response.status_code == 409
    assert "Enter the result first" in response.content.decode()
    assert not Dispute.objects.exists()


# --- the live preview ----------------------------------------------------------------------


def preview(client, table, **overrides):
    url = reverse("table:short_preview", args=[table.code_ns, 1])
    return client.get(url, form(**overrides), HTTP_ACCEPT="application/json")


def test_preview_returns_the_engines_score(table):
    board = Board.objects.get(event=table.round.event, number=1)
    opp = opponents_of_dealer(board)
    client = holder(table, "NS")
    data = preview(client, table, trump="botifarra", contro=opp[1], totals_ns="50").json()
    values = results.short_values(
        board=board,
        data={
            "delegated": False,
            "trump": "botifarra",
            "doubles": [{"seat": opp[1], "call": "contro"}],
            "totals": {"NS": 50, "EW": 22},
        },
    )
    assert data["ok"] is True
    assert data["score"] == {"NS": values["score_ns"], "EW": values["score_ew"]}
    assert data["multiplier"] == values["multiplier"] == 4
    assert data["totals"] == {"NS": 50, "EW": 22}


def test_preview_reports_incomplete_and_wrong_input(table):
    client = holder(table, "NS")
    data = preview(client, table, trump="").json()
    assert data == {"ok": False, "complete": False, "errors": {"trump": ["Choose the trump."]}}
    data = preview(client, table, totals_ns="40", totals_ew="40").json()
    assert data["ok"] is False and "totals" in data["errors"]
    # Complete as typed, refused by the engine: a contro by the choosing pair.
    board = Board.objects.get(event=table.round.event, number=1)
    data = preview(client, table, contro=board.dealer).json()
    assert data["ok"] is False and data["complete"] is True and "contro" in data["errors"]
    assert result_of(table) is None  # the preview never stores anything


def test_preview_for_a_board_of_another_round_is_404(table):
    client = holder(table, "NS")
    url = reverse("table:short_preview", args=[table.code_ns, 5])
    assert client.get(url, HTTP_ACCEPT="application/json").status_code == 404
    assert client.get(short_url(table, 5)).status_code == 404


def test_organiser_enters_and_confirms(table, organiser):
    client = Client()
    client.force_login(organiser)
    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    page = client.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "Is it right?" in page
    client.post(reverse("table:board_confirm", args=[table.code_ns, 1]))
    assert result_of(table).status == BoardResult.Status.CONFIRMED
    response = client.post(short_url(table, 2), form())
    assert response.status_code == 302
    assert result_of(table, 2).entered_side == ""


# --- one phone for both pairs: the other pair types its own code ---------------------------


def test_the_other_pair_confirms_on_the_same_phone_with_its_own_code(table):
    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    home = ns.get(reverse("table:table_home", args=[table.code_ns])).content.decode()
    assert "EW confirms on this phone" in home
    url = reverse("table:board_confirm", args=[table.code_ns, 1])
    # NS's own code, or a wrong one, confirms nothing.
    for typed in (table.code_ns, "ZZZZZZ"):
        ns.post(url, {"version": result_of(table).version, "other_code": typed})
        assert result_of(table).status == BoardResult.Status.ENTERED
    ns.post(url, {"version": result_of(table).version, "other_code": table.code_ew.lower()})
    result = result_of(table)
    assert result.status == BoardResult.Status.CONFIRMED
    assert result.confirmed_by == "table 1 round 1 EW"
    audit = result.audit.get(action="result_confirmed")
    assert audit.actor.endswith("EW")


def test_the_other_pair_differs_on_the_same_phone_with_its_own_code(table):
    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    page = ns.get(short_url(table, mode="differ")).content.decode()
    assert 'name="other_code"' in page
    wrong = ns.post(short_url(table), form(totals_ns="40", mode="differ", other_code="ZZZZZZ"))
    assert wrong.status_code == 400
    assert "not the other pair&#x27;s code" in wrong.content.decode()
    assert result_of(table).status == BoardResult.Status.ENTERED
    ns.post(short_url(table), form(totals_ns="40", mode="differ", other_code=table.code_ew))
    result = result_of(table)
    assert result.status == BoardResult.Status.DISPUTED
    assert result.submissions.order_by("pk").last().side == "EW"


def test_a_wrong_other_code_counts_as_a_wrong_code(table):
    from tournaments import ratelimit

    ns = holder(table, "NS")
    ns.post(short_url(table), form())
    url = reverse("table:board_confirm", args=[table.code_ns, 1])
    for _ in range(ratelimit.TABLE_CODE.limit):
        ns.post(url, {"other_code": "ZZZZZZ"})
    # Blocked: even the right code is not read, and the answer says so and when to try again,
    # as the code form does (docs/operations.md, "Guessing"), on the page and to the outbox.
    blocked = ns.post(url, {"other_code": table.code_ew})
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) > 0
    page = blocked.content.decode()
    assert "Too many wrong table codes from this device" in page
    assert reverse("table:table_home", args=[table.code_ns]) in page  # back to the table
    queued = ns.post(
        url,
        {"other_code": table.code_ew},
        HTTP_ACCEPT="application/json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert queued.status_code == 429 and int(queued["Retry-After"]) > 0
    assert "Try again in" in queued.json()["error"]
    differ = form(totals_ns="40", mode="differ", other_code=table.code_ew)
    typed = ns.post(short_url(table), differ)
    assert typed.status_code == 429 and int(typed["Retry-After"]) > 0
    page = typed.content.decode()
    assert "Too many wrong table codes from this device" in page
    assert 'value="40"' in page  # the result typed is kept
    queued = ns.post(short_url(table), differ, HTTP_ACCEPT="application/json")
    assert queued.status_code == 429 and "Try again in" in queued.json()["error"]
    assert result_of(table).status == BoardResult.Status.ENTERED  # no guessing
