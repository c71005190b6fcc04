"""An organiser runs an event from nothing to round 1's table codes, in a real browser."""

import pytest
from playwright.sync_api import expect

from tests.e2e.journey import log_in
from tests.factories import UserFactory
from tournaments.models import Event, Round

ONE_BY_ONE = [
    ("Anna Puig", "Jordi Vila"),
    ("Marta Soler", "Pere Riera"),
    ("Laia Costa", "Joan Serra"),
    ("Núria Font", "Josep Roca"),
]
CSV = (
    "player1,player2,name,club\n"
    "Montse Pla,Xavier Mas,,Reus\n"
    "Carme Rovira,Albert Camps,Els Rapids,Valls\n"
    "Rosa Vidal,Miquel Pons,,\n"
    "Teresa Prat,Lluís Ferrer,,Reus\n"
    "Pilar Sala,Ramon Bosch,,\n"
    "Mercè Gil,Enric Martí,,\n"
)


def _no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


@pytest.mark.django_db(transaction=True)
def test_organiser_journey(new_page):
    UserFactory(username="marta")
    page, problems, shoot = new_page("organiser-journey")
    log_in(page, "marta")
    shoot("event-list")

    # Create the event, starting from the quick-game preset.
    page.click("text=New event")
    page.fill("#id_name", "Torneig de Sant Joan")
    page.fill("#id_club_name", "Casal de Reus")
    page.fill("#id_venue", "Sala gran")
    page.click("button.preset[value=quick]")
    assert page.input_value("#id_game_target") == "51"
    assert page.input_value("#id_deal_limit") == "5"
    page.fill("#id_rounds_count", "3")
    page.fill("#id_boards_per_round", "4")
    shoot("event-form-quick-preset")
    page.click("text=Create the event")
    page.wait_for_selector("#next-step")
    assert page.inner_text("#next-step") == "Open registration"
    shoot("dashboard-draft")
    event = Event.objects.get(name="Torneig de Sant Joan")
    assert (event.game_target, event.deal_limit, event.boards_per_round) == (51, 5, 4)

    # Registration: four pairs one by one.
    page.click("#next-step")
    page.click("#next-step")  # "Register pairs"
    for player1, player2 in ONE_BY_ONE:
        page.fill("#id_player1", player1)
        page.fill("#id_player2", player2)
        page.click("#register-form button[type=submit]")
        page.wait_for_selector(f"text={player1} – {player2}")
    shoot("four-pairs")

    # Six more from a CSV file, through the preview.
    page.set_input_files(
        "#id_file", files=[{"name": "pairs.csv", "mimeType": "text/csv", "buffer": CSV.encode()}]
    )
    page.click("#csv-form button[type=submit]")
    page.wait_for_selector("#preview-rows")
    assert page.locator("#preview-rows tbody tr").count() == 6
    assert event.entries.count() == 4
    shoot("csv-preview")
    page.click("#confirm-import")
    page.wait_for_selector("text=6 pairs registered.")
    assert page.locator("#entries tbody tr").count() == 10
    shoot("ten-pairs")

    # Start: the confirmation page, then the boards are dealt.
    page.click("text=Dashboard")
    assert page.inner_text("#next-step") == "Start the event"
    page.click("#next-step")
    page.wait_for_selector("text=Start the event?")
    shoot("start-confirm")
    page.click("#confirm")
    page.wait_for_selector("#boards-ready")
    expect(page.locator("#boards-ready")).to_have_text("12", timeout=15000)
    assert page.inner_text("#boards-total") == "12"
    shoot("boards-dealt")

    # Round 1: propose, open, and read the table codes.
    assert page.inner_text("#next-step") == "Propose round 1"
    page.click("#next-step")
    page.wait_for_selector("#open-round")
    shoot("round-1-proposed")
    page.click("#open-round")
    page.wait_for_selector("#round-status.open")
    rnd = Round.objects.get(event=event, number=1)
    codes = [c for pair in rnd.tables.values_list("code_ns", "code_ew") for c in pair]
    assert len(codes) == 10
    shown = page.locator(".table-code").all_inner_texts()
    assert sorted(shown) == sorted(codes)
    shoot("round-1-open-codes")
    problems.assert_clean()

    # The same pages on a phone.
    phone, phone_problems, phone_shoot = new_page("organiser-journey-phone", phone=True)
    log_in(phone, "marta")
    phone.goto(f"/manage/{event.pk}/")
    assert phone.inner_text("#next-step") == "Close round 1"
    _no_sideways_scroll(phone)
    phone_shoot("dashboard")
    phone.goto(f"/manage/{event.pk}/rounds/1/")
    assert phone.locator(".table-code").count() == 10
    phone_shoot("round-1")
    phone.goto(f"/manage/{event.pk}/pairs/")
    _no_sideways_scroll(phone)
    phone_shoot("pairs")
    phone.goto(f"/manage/{event.pk}/edit/")
    _no_sideways_scroll(phone)
    phone_shoot("edit-locked")
    phone_problems.assert_clean()


@pytest.mark.django_db(transaction=True)
def test_dashboard_counts_the_boards_without_reloading(new_page):
    from tests.factories import EventFactory, PairFactory
    from tournaments.models import Board, Entry
    from tournaments.services import events

    user = UserFactory(username="jordi")
    event = EventFactory(organisers=[user], status="running", rounds_count=2, boards_per_round=4)
    e = [Entry.objects.create(event=event, pair=PairFactory(), number=i) for i in (1, 2)]
    events.round_propose(event=event, actor=None, number=1, tables=[(e[0].pk, e[1].pk)])
    events.boards_generate(event=event)
    Board.objects.filter(event=event, number__gt=3).delete()
    Event.objects.filter(pk=event.pk).update(boards_ready=3)
    page, problems, shoot = new_page("organiser-progress")
    log_in(page, "jordi")
    page.goto(f"/manage/{event.pk}/")
    assert page.inner_text("#boards-ready") == "3"
    assert page.inner_text("#next-step") == "Open round 1"
    assert page.is_disabled("#next-step")
    shoot("boards-3-of-8")
    page.evaluate("window.__marker = 1")  # gone if the page reloads
    events.boards_generate(event=event)
    expect(page.locator("#boards-ready")).to_have_text("8", timeout=10000)
    assert page.evaluate("window.__marker") == 1
    assert page.is_enabled("#next-step")
    shoot("boards-8-of-8")
    page.click("#next-step")
    page.wait_for_selector("#round-status.open")
    problems.assert_clean()
