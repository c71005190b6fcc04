"""Organiser pages: pairs (one by one, CSV with a preview, withdrawal) and rounds."""

import datetime
import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from django.utils import formats, timezone

from tests.factories import EventFactory, PairFactory
from tournaments.actors import Actor
from tournaments.models import BoardResult, BoardUnlock, Entry, Event, Round
from tournaments.services import events
from tournaments.services.results import result_confirm, result_submit_short

pytestmark = pytest.mark.django_db

GOOD_CSV = (
    "player1,player2,name,club\n"
    "Anna Puig,Jordi Vila,Els Rapids,Reus\n"
    "Marta Soler,Pere Riera,,\n"
    "Laia Costa,Joan Serra,,Valls\n"
)
BAD_CSV = "Anna Puig,Jordi Vila\nSolo\nMarta,Pere,a,b,c\n"


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def open_event(organiser):
    return EventFactory(organisers=[organiser], status="registration")


def _messages(response):
    return [str(m) for m in response.context["messages"]]


# --- pairs ---------------------------------------------------------------------------------------


def test_register_one_pair(logged_in, open_event):
    url = reverse("tournaments:entries", args=[open_event.pk])
    response = logged_in.post(
        url, {"player1": "Anna", "player2": "Jordi", "name": "", "club": "Reus"}, follow=True
    )
    assert "Pair 1 registered: Anna – Jordi" in _messages(response)
    entry = open_event.entries.get()
    assert (entry.number, entry.pair.club.name) == (1, "Reus")
    assert "Anna – Jordi" in response.content.decode()


def test_register_needs_two_names(logged_in, open_event):
    response = logged_in.post(
        reverse("tournaments:entries", args=[open_event.pk]), {"player1": "Anna", "player2": ""}
    )
    assert response.status_code == 400
    assert "player2" in response.context["form"].errors
    assert not open_event.entries.exists()


def test_once_running_a_pair_registers_as_a_late_entry(logged_in, running_event):
    url = reverse("tournaments:entries", args=[running_event.pk])
    page = logged_in.get(url).content.decode()
    assert 'id="register-form"' not in page and 'id="late-form"' in page
    asked = logged_in.post(url, {"player1": "Late", "player2": "Comers"})
    assert asked.status_code == 200 and not running_event.entries.filter(number=5).exists()
    response = logged_in.post(url, {"player1": "Late", "player2": "Comers", "confirmed": "1"})
    assert response.status_code == 302
    assert running_event.entries.get(number=5).joins_round == 2


def test_register_refused_once_finished_is_a_message_not_a_500(logged_in, running_event):
    running_event.status = "finished"
    running_event.save(update_fields=["status"])
    url = reverse("tournaments:entries", args=[running_event.pk])
    page = logged_in.get(url).content.decode()
    assert "The event is finished: its pairs no longer change." in page
    assert 'id="register-form"' not in page and 'id="late-form"' not in page
    # A form sent from a page opened earlier: the page has no form to show the reason beside.
    response = logged_in.post(url, {"player1": "Late", "player2": "Comers"}, follow=True)
    assert "Cannot register pairs: the event is finished" in response.content.decode()


def test_csv_preview_shows_rows_and_registers_nothing_yet(logged_in, open_event):
    upload = SimpleUploadedFile("pairs.csv", GOOD_CSV.encode(), content_type="text/csv")
    response = logged_in.post(
        reverse("tournaments:entries_import", args=[open_event.pk]), {"file": upload}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Register these 3 pairs" in html
    assert "Els Rapids" in html and "Marta Soler – Pere Riera" in html
    assert not open_event.entries.exists()
    # Step 2: confirm with what the preview page carries.
    text = response.context["confirm_form"].initial["csv_text"]
    response = logged_in.post(
        reverse("tournaments:entries_import_confirm", args=[open_event.pk]),
        {"csv_text": text},
        follow=True,
    )
    assert "3 pairs registered." in _messages(response)
    assert list(open_event.entries.values_list("number", "pair__name")) == [
        (1, "Els Rapids"),
        (2, "Marta Soler – Pere Riera"),
        (3, "Laia Costa – Joan Serra"),
    ]


def test_csv_preview_lists_errors_line_by_line_and_offers_no_confirm(logged_in, open_event):
    upload = SimpleUploadedFile("pairs.csv", BAD_CSV.encode(), content_type="text/csv")
    response = logged_in.post(
        reverse("tournaments:entries_import", args=[open_event.pk]), {"file": upload}
    )
    html = response.content.decode()
    assert "2 lines need fixing" in html
    assert "<strong>Line 2</strong>: Two player names are needed." in html
    assert "<strong>Line 3</strong>: Too many columns" in html
    assert "Nothing has been registered" in html
    assert 'id="confirm-import"' not in html
    assert not open_event.entries.exists()
    # The lines are in the box below, to correct one line without pasting them all again.
    box = re.search(r'(?s)<textarea[^>]*name="text"[^>]*>(.*?)</textarea>', html)
    assert box and unescape(box.group(1)).strip() == BAD_CSV.strip()


def test_csv_confirm_with_a_bad_file_registers_nothing(logged_in, open_event):
    response = logged_in.post(
        reverse("tournaments:entries_import_confirm", args=[open_event.pk]), {"csv_text": BAD_CSV}
    )
    assert response.status_code == 400
    assert "Line 2: Two player names are needed." in _messages(response)
    assert not open_event.entries.exists()
    box = re.search(
        r'(?s)<textarea[^>]*name="text"[^>]*>(.*?)</textarea>', response.content.decode()
    )
    assert box and unescape(box.group(1)).strip() == BAD_CSV.strip()


def test_csv_pasted_text_with_semicolons_and_a_windows_file(logged_in, open_event):
    url = reverse("tournaments:entries_import", args=[open_event.pk])
    response = logged_in.post(url, {"text": "Núria;Josep;;\nMontse;Xavier;;\n"})
    assert "Register these 2 pairs" in response.content.decode()
    upload = SimpleUploadedFile("p.csv", "Núria,Josep\nMontse,Xavier\n".encode("cp1252"))
    response = logged_in.post(url, {"file": upload})
    assert "Núria" in response.content.decode()


@pytest.mark.parametrize(
    "data,message",
    [
        ({}, "Choose a CSV file or paste the lines."),
        (
            {"file": SimpleUploadedFile("x.xlsx", b"PK\x03\x04\x00\x00binary")},
            "This is not a text file",
        ),
    ],
)
def test_csv_upload_problems_are_form_errors(logged_in, open_event, data, message):
    response = logged_in.post(reverse("tournaments:entries_import", args=[open_event.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_withdraw_confirms_first_then_removes(logged_in, open_event, organiser):
    entry = events.entry_register(
        event=open_event, actor=Actor(user=organiser), player1="A", player2="B"
    )
    url = reverse("tournaments:entry_withdraw", args=[open_event.pk, entry.pk])
    page = logged_in.get(url).content.decode()
    assert "Remove pair 1" in page and '<form method="post"' in page
    assert open_event.entries.exists()
    response = logged_in.post(url, follow=True)
    assert "Pair 1 removed." in _messages(response)
    assert not open_event.entries.exists()


def test_withdraw_while_running_explains_the_forfeit_and_refuses_twice(logged_in, running_event):
    entry = running_event.entries.get(number=2)
    url = reverse("tournaments:entry_withdraw", args=[running_event.pk, entry.pk])
    page = logged_in.get(url).content.decode()
    assert "keeps the results it played" in page
    assert "Its match at table 1 of round 1 is forfeited" in page
    logged_in.post(url)
    entry.refresh_from_db()
    # It sits at table 1 of the open round 1: it withdraws after round 1, forfeiting it.
    assert entry.withdrawn_after_round == 1
    assert running_event.rounds.get(number=1).tables.get(number=1).forfeited_by == "EW"
    response = logged_in.post(url, follow=True)
    assert "This pair has already withdrawn." in _messages(response)


def test_withdraw_an_entry_of_another_event_is_404(logged_in, running_event, organiser):
    other = EventFactory(organisers=[organiser])
    entry = Entry.objects.create(event=other, pair=PairFactory(), number=1)
    url = reverse("tournaments:entry_withdraw", args=[running_event.pk, entry.pk])
    assert logged_in.get(url).status_code == 404


# --- rounds --------------------------------------------------------------------------------------


def _enter(table, board_number, confirm=True):
    data = {"delegated": False, "trump": "oros", "doubles": [], "totals": {"NS": 40, "EW": 32}}
    stored = result_submit_short(
        table=table, board_number=board_number, actor=Actor(table=table, side="NS"), data=data
    )
    if confirm:
        result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    return stored.result


def test_round_page_shows_tables_codes_and_result_status(logged_in, running_event):
    rnd = running_event.rounds.get(number=1)
    t1, t2 = rnd.tables.order_by("number")
    _enter(t1, 1)
    _enter(t1, 2, confirm=False)
    response = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    html = response.content.decode()
    for code in (t1.code_ns, t1.code_ew, t2.code_ns, t2.code_ew):
        assert code in html
    assert f"{t1.ns.number}. {t1.ns.pair.name}" in html
    rows = response.context["rows"]
    assert [(c.board, c.status) for c in rows[0].cells] == [(1, "confirmed"), (2, "entered")]
    assert [(c.board, c.status) for c in rows[1].cells] == [(1, "missing"), (2, "missing")]
    # When each table could first see the cards, relative to its result.
    assert all(c.unlocked_at is not None and c.unlock_reason == "result" for c in rows[0].cells)
    assert all(c.unlocked_at is None for c in rows[1].cells)
    assert "cards seen" in html
    assert 'id="close-round"' in html


@override_settings(TIME_ZONE="Europe/Madrid")
def test_round_page_shows_when_cards_were_seen_in_the_sites_time(logged_in, running_event):
    t1 = running_event.rounds.get(number=1).tables.get(number=1)
    result = _enter(t1, 1)
    unlocked = BoardUnlock.objects.get(table=t1, board=result.board).created_at
    response = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    html = response.content.decode()
    local = formats.time_format(timezone.localtime(unlocked), "TIME_FORMAT")
    utc = formats.time_format(unlocked.astimezone(datetime.UTC), "TIME_FORMAT")
    assert local != utc  # Madrid is one or two hours ahead of UTC
    assert f"cards seen {local}" in html
    assert f"cards seen {utc}" not in html


def test_round_page_in_few_queries(logged_in, running_event, django_assert_max_num_queries):
    with django_assert_max_num_queries(22):
        logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))


def test_close_refused_lists_tables_then_close_anyway(logged_in, running_event):
    url = reverse("tournaments:round_close", args=[running_event.pk, 1])
    response = logged_in.post(url, follow=True)
    assert "Results are missing or unconfirmed at tables 1, 2." in _messages(response)
    html = response.content.decode()
    assert "Close anyway: these boards count as not played" in html
    assert "boards 1, 2" in html
    assert running_event.rounds.get(number=1).status == Round.Status.OPEN
    response = logged_in.post(url, {"accept_missing": "1"}, follow=True)
    assert running_event.rounds.get(number=1).status == Round.Status.CLOSED
    assert "Round 1 is closed; the standings are being updated." in _messages(response)


def test_close_with_every_result_in(logged_in, running_event):
    rnd = running_event.rounds.get(number=1)
    for table in rnd.tables.all():
        for board in rnd.board_numbers:
            _enter(table, board)
    logged_in.post(reverse("tournaments:round_close", args=[running_event.pk, 1]))
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED


def test_propose_round_2_is_gated_while_round_1_is_open(logged_in, running_event):
    html = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 2]))
    assert "Pairings wait for round 1: results are missing or unconfirmed at tables 1, 2" in (
        html.content.decode()
    )
    response = logged_in.post(
        reverse("tournaments:round_propose", args=[running_event.pk, 2]), follow=True
    )
    assert any("missing or unconfirmed at tables 1, 2" in m for m in _messages(response))
    assert not running_event.rounds.filter(number=2).exists()


def test_propose_after_closing_anyway(logged_in, running_event, organiser):
    events.round_close(
        rnd=running_event.rounds.get(number=1), actor=Actor(user=organiser), accept_missing=True
    )
    page = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 2]))
    assert page.context["gate_message"] == ""
    response = logged_in.post(
        reverse("tournaments:round_propose", args=[running_event.pk, 2]), follow=True
    )
    assert "Round 2 is proposed: check the pairings, then open it." in _messages(response)
    rnd = running_event.rounds.get(number=2)
    assert rnd.tables.count() == 2
    assert 'id="open-round"' in response.content.decode()


def _round_2(running_event, organiser):
    actor = Actor(user=organiser)
    rnd1 = running_event.rounds.get(number=1)
    for table in rnd1.tables.all():
        for board in rnd1.board_numbers:
            _enter(table, board)
    events.round_close(rnd=rnd1, actor=actor)
    from tournaments.services.pairings import pairings_propose

    pairings_propose(running_event.pk, 2)
    return running_event.rounds.get(number=2)


def test_swap_with_a_rematch_asks_to_confirm(logged_in, running_event, organiser):
    rnd = _round_2(running_event, organiser)
    t1, t2 = rnd.tables.order_by("number")
    rnd1_t1 = running_event.rounds.get(number=1).tables.get(number=1)
    # Put round 1's table-1 opponents together again: a rematch.
    a = t1.ew_id if t1.ns_id == rnd1_t1.ns_id else t1.ns_id
    partner = rnd1_t1.ew_id if rnd1_t1.ns_id in (t1.ns_id, t1.ew_id) else rnd1_t1.ns_id
    url = reverse("tournaments:round_swap", args=[running_event.pk, 2])
    response = logged_in.post(url, {"entry_a": a, "entry_b": partner})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Swap anyway" in html
    assert response.context["warnings"]
    before = list(rnd.tables.order_by("number").values_list("ns_id", "ew_id"))
    assert before == [(t1.ns_id, t1.ew_id), (t2.ns_id, t2.ew_id)]
    logged_in.post(url, {"entry_a": a, "entry_b": partner, "confirm": "True"})
    after = list(rnd.tables.order_by("number").values_list("ns_id", "ew_id"))
    assert after != before


def test_swap_the_same_pair_twice_is_refused(logged_in, running_event, organiser):
    rnd = _round_2(running_event, organiser)
    t1 = rnd.tables.get(number=1)
    response = logged_in.post(
        reverse("tournaments:round_swap", args=[running_event.pk, 2]),
        {"entry_a": t1.ns_id, "entry_b": t1.ns_id},
        follow=True,
    )
    assert "Choose two different pairs." in _messages(response)


def test_swap_in_an_open_round_is_a_message(logged_in, running_event):
    e = list(running_event.entries.order_by("number"))
    response = logged_in.post(
        reverse("tournaments:round_swap", args=[running_event.pk, 1]),
        {"entry_a": e[0].pk, "entry_b": e[2].pk, "confirm": "True"},
        follow=True,
    )
    assert "Only a round that is not open yet can be changed." in _messages(response)


def test_open_round_2_and_codes_appear(logged_in, running_event, organiser):
    rnd = _round_2(running_event, organiser)
    response = logged_in.post(
        reverse("tournaments:round_open", args=[running_event.pk, 2]), follow=True
    )
    assert "Round 2 is open: give each table its code." in _messages(response)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.OPEN
    html = response.content.decode()
    for pair in rnd.tables.values_list("code_ns", "code_ew"):
        assert pair[0] in html and pair[1] in html
    response = logged_in.post(
        reverse("tournaments:round_open", args=[running_event.pk, 2]), follow=True
    )
    assert "This round is already open." in _messages(response)


def test_round_page_says_being_recomputed_only_while_one_is_in_flight(logged_in, running_event):
    from django.core.cache import cache

    from tournaments.queue import STANDINGS_QUEUED

    Event.objects.filter(pk=running_event.pk).update(standings_requested_at=timezone.now())
    cache.set(STANDINGS_QUEUED.format(running_event.pk), "now", timeout=60)
    html = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    assert "being recomputed" in html.content.decode()


def test_stale_standings_with_nothing_in_flight_are_recomputed_not_shown_stuck(
    logged_in, running_event
):
    # A request that was lost (no task queued): in-process tasks recompute on the spot.
    Event.objects.filter(pk=running_event.pk).update(standings_requested_at=timezone.now())
    html = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    assert "being recomputed" not in html.content.decode()
    assert "updated at" in html.content.decode()


def test_round_number_out_of_range_goes_to_the_dashboard(logged_in, running_event):
    response = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 9]))
    assert response.status_code == 302


def test_a_board_result_status_badge_for_disputes(logged_in, running_event):
    table = running_event.rounds.get(number=1).tables.get(number=2)
    result = _enter(table, 1, confirm=False)
    BoardResult.objects.filter(pk=result.pk).update(status="disputed")
    response = logged_in.get(reverse("tournaments:round_detail", args=[running_event.pk, 1]))
    cell = response.context["rows"][1].cells[0]
    assert (cell.board, cell.status) == (1, "disputed")


def test_the_round_page_reports_a_rematch_before_the_round_opens(
    logged_in, running_event, organiser
):
    """scoring.md §5: a rematch that is made is reported (as the API's round warnings)."""
    rnd = _round_2(running_event, organiser)
    t1 = rnd.tables.get(number=1)
    first = running_event.rounds.get(number=1).tables.get(number=1)
    url = reverse("tournaments:round_detail", args=[running_event.pk, 2])
    assert 'id="pairing-warnings"' not in logged_in.get(url).content.decode()
    # Round 1's table-1 opponents together again, a swap the organiser confirmed.
    a = t1.ew_id if t1.ns_id == first.ns_id else t1.ns_id
    partner = first.ew_id if first.ns_id in (t1.ns_id, t1.ew_id) else first.ns_id
    swap = reverse("tournaments:round_swap", args=[running_event.pk, 2])
    logged_in.post(swap, {"entry_a": a, "entry_b": partner, "confirm": "True"})
    html = logged_in.get(url).content.decode()
    assert 'id="pairing-warnings"' in html
    assert "have already met" in html


@pytest.mark.parametrize("sep", ["\t", ";"])
def test_a_file_whose_last_lines_leave_name_and_club_empty_registers_as_previewed(
    logged_in, open_event, sep
):
    """A spreadsheet saved as text keeps the empty name and club cells as trailing separators;
    the confirmation's hidden copy of the file must not lose them (it did: the lines' column
    counts then differed, the separator was no longer recognised and nothing registered)."""
    text = sep.join(["Anna Puig", "Berta Vila", "Les Dues", "Casal"]) + "\n"
    text += sep.join(["Carles Mas", "Dolors Pi", "", ""]) + "\n"
    text += sep.join(["Enric Sol", "Fina Roca", "", ""]) + "\n"
    upload = SimpleUploadedFile("pairs.txt", text.encode(), content_type="text/plain")
    response = logged_in.post(
        reverse("tournaments:entries_import", args=[open_event.pk]), {"file": upload}
    )
    assert "Register these 3 pairs" in response.content.decode()
    # What the browser sends back: the hidden field's value as the page carries it.
    hidden = response.context["confirm_form"]["csv_text"].value()
    response = logged_in.post(
        reverse("tournaments:entries_import_confirm", args=[open_event.pk]), {"csv_text": hidden}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    names = sorted(open_event.entries.values_list("pair__player1__name", flat=True))
    assert names == ["Anna Puig", "Carles Mas", "Enric Sol"]
