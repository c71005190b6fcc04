"""The pairing methods through the pages: the organiser's pairing page (method, ratings,
prohibited pairings), an event of each method run from the organiser's buttons, and the public
groups-and-knockout page and PDF (no score of an open round)."""

import random

import pytest
from django.urls import reverse

from tests.factories import EventFactory, PairFactory
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Entry, Event, ForbiddenPair, Round
from tournaments.services import ServiceError, events, pairing_rules
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def _messages(response):
    return [str(m) for m in response.context["messages"]]


METHOD_FORM = {
    "format": "groups",
    "seeding": "lot",
    "club_rounds": "0",
    "round_robin": "field",
    "group_size": "4",
    "qualifiers": "1",
    "repesca": "2",
    "repesca_min_points": "0",
}


# --- the organiser's pairing page -----------------------------------------------------------------


def test_the_organiser_chooses_the_method_on_the_pairing_page(logged_in, organiser):
    event = EventFactory(organisers=[organiser])
    url = reverse("tournaments:pairing_method", args=[event.pk])
    page = logged_in.get(url)
    assert page.status_code == 200
    assert "Groups, then knockout" in page.content.decode()
    response = logged_in.post(url, METHOD_FORM, follow=True)
    assert "Pairing method saved." in _messages(response)
    event.refresh_from_db()
    assert (event.format, event.group_size, event.repesca) == ("groups", 4, 2)
    assert event.audit.filter(action="event_updated").exists()


def test_an_empty_repesca_fills_the_bracket(logged_in, organiser):
    event = EventFactory(organisers=[organiser])
    url = reverse("tournaments:pairing_method", args=[event.pk])
    logged_in.post(url, METHOD_FORM | {"repesca": ""})
    event.refresh_from_db()
    assert event.repesca is None


def test_more_qualifiers_than_the_group_holds_is_a_form_error(logged_in, organiser):
    event = EventFactory(organisers=[organiser])
    url = reverse("tournaments:pairing_method", args=[event.pk])
    response = logged_in.post(url, METHOD_FORM | {"qualifiers": "5"})
    assert response.status_code == 400
    assert "Between 1 and the group size (4)." in response.content.decode()
    event.refresh_from_db()
    assert event.format == "swiss"


def test_the_method_is_fixed_once_the_event_runs(logged_in, organiser):
    event = EventFactory(organisers=[organiser], status="running")
    url = reverse("tournaments:pairing_method", args=[event.pk])
    response = logged_in.post(url, METHOD_FORM, follow=True)
    assert "The pairing method cannot change once the event has started." in _messages(response)
    event.refresh_from_db()
    assert event.format == "swiss"
    assert 'disabled id="id_format_0"' in logged_in.get(url).content.decode()


def test_a_referee_sees_the_page_but_cannot_change_it(client, organiser, django_user_model):
    event = EventFactory(organisers=[organiser])
    referee = django_user_model.objects.create_user("ref")
    event.referees.add(referee)
    client.force_login(referee)
    url = reverse("tournaments:pairing_method", args=[event.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, METHOD_FORM).status_code == 403


def _entries(event, n):
    return [
        Entry.objects.create(event=event, pair=PairFactory(), number=i) for i in range(1, n + 1)
    ]


def test_prohibited_pairings_are_added_and_removed_after_a_confirmation(logged_in, organiser):
    event = EventFactory(organisers=[organiser], status="registration")
    a, b, _c = _entries(event, 3)
    add = reverse("tournaments:forbidden_add", args=[event.pk])
    response = logged_in.post(add, {"entry_a": b.pk, "entry_b": a.pk}, follow=True)
    assert "The two pairs will not be paired against each other." in _messages(response)
    pair = ForbiddenPair.objects.get(event=event)
    assert (pair.low, pair.high) == (a, b)
    again = logged_in.post(add, {"entry_a": a.pk, "entry_b": b.pk})
    assert again.status_code == 400 and "already kept apart" in again.content.decode()
    same = logged_in.post(add, {"entry_a": a.pk, "entry_b": a.pk})
    assert same.status_code == 400 and "Choose two different pairs." in same.content.decode()
    remove = reverse("tournaments:forbidden_remove", args=[event.pk, pair.pk])
    confirm = logged_in.get(remove)
    assert confirm.status_code == 200 and "Remove the prohibition" in confirm.content.decode()
    assert ForbiddenPair.objects.filter(event=event).exists()
    response = logged_in.post(remove, follow=True)
    assert "The two pairs may be paired against each other again." in _messages(response)
    assert not ForbiddenPair.objects.filter(event=event).exists()


def test_ratings_are_set_before_the_start(logged_in, organiser):
    event = EventFactory(organisers=[organiser], status="registration", seeding="rating")
    a, b = _entries(event, 2)
    url = reverse("tournaments:pairing_ratings", args=[event.pk])
    page = logged_in.get(reverse("tournaments:pairing_method", args=[event.pk]))
    assert f'name="rating_{a.pk}"' in page.content.decode()
    logged_in.post(url, {f"rating_{a.pk}": "1650", f"rating_{b.pk}": ""})
    a.refresh_from_db()
    assert a.rating == 1650
    bad = logged_in.post(url, {f"rating_{a.pk}": "-3", f"rating_{b.pk}": "abc"})
    assert bad.status_code == 400
    a.refresh_from_db()
    assert a.rating == 1650


# --- an event of each method, run from the organiser's pages --------------------------------------


def _run_from_the_pages(client, organiser, n, before_start=None, **options):
    """Create, choose the method, register, start; then every round from the dashboard's next
    step (propose, open, close), the tables' results entered through the result services."""
    response = client.post(
        reverse("tournaments:event_create"),
        {
            "name": "Vespre",
            "date": "2026-12-01",
            "ruleset": "lliure",
            "game_target": "51",
            "match_mode": "game",
            "game_cap": "121",
            "rounds_count": str(options.pop("rounds_count", 3)),
            "boards_per_round": "4",
            "ranking_method": "wins",
            "bye_points": "36",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(name="Vespre")
    client.post(
        reverse("tournaments:pairing_method", args=[event.pk]), METHOD_FORM | options, follow=True
    )
    client.post(reverse("tournaments:registration_open", args=[event.pk]))
    for i in range(n):
        client.post(
            reverse("tournaments:entries", args=[event.pk]),
            {"player1": f"A{i}", "player2": f"B{i}", "name": "", "club": ""},
        )
    if before_start is not None:
        before_start(event)
    client.post(reverse("tournaments:event_start", args=[event.pk]))
    event.refresh_from_db()
    events.boards_generate(event=event)
    rng = random.Random(7)
    notes = []
    for number in range(1, event.rounds_count + 1):
        for step in ("propose", "open"):
            response = client.post(
                reverse(f"tournaments:round_{step}", args=[event.pk, number]), follow=True
            )
            assert not [m for m in response.context["messages"] if m.level_tag == "error"], (
                number,
                step,
                _messages(response),
            )
        rnd = event.rounds.get(number=number)
        play_round(rnd, rng)
        client.post(reverse("tournaments:round_close", args=[event.pk, number]))
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
        standings_recompute(event.pk)
        if number < event.rounds_count:
            step = client.get(reverse("tournaments:event_dashboard", args=[event.pk]))
            assert step.context["step"].label == f"Propose round {number + 1}"
            notes.append(step.context["step"].note)
    dashboard = client.get(reverse("tournaments:event_dashboard", args=[event.pk]))
    assert dashboard.context["step"].label == "Finish the event"
    event.notes = notes
    return event


def test_a_round_robin_evening_from_the_pages(logged_in, organiser):
    event = _run_from_the_pages(logged_in, organiser, 5, format="roundrobin")
    assert event.rounds_count == 5
    met = {frozenset((t.ns_id, t.ew_id)) for r in event.rounds.all() for t in r.tables.all()}
    assert len(met) == 10  # every pair of the five met
    assert event.notes[0] == "Round 2 follows the round robin's schedule."
    page = logged_in.get(reverse("tournaments:round_detail", args=[event.pk, 1])).content.decode()
    assert "Resting (no game, no score)" in page
    public = logged_in.get(reverse("public:round_results", args=[event.pk, 1])).content.decode()
    assert "Resting (no game, no score)" in public


def test_an_accelerated_swiss_with_a_prohibited_pairing_from_the_pages(logged_in, organiser):
    kept_apart = []

    def forbid(event):
        a, b = event.entries.order_by("number")[:2]
        logged_in.post(
            reverse("tournaments:forbidden_add", args=[event.pk]),
            {"entry_a": a.pk, "entry_b": b.pk},
        )
        kept_apart.extend((a.pk, b.pk))

    event = _run_from_the_pages(
        logged_in, organiser, 6, forbid, format="swiss", accelerated="on", rounds_count=3
    )
    assert event.accelerated and event.rounds.count() == 3
    assert ForbiddenPair.objects.filter(event=event).count() == 1
    for rnd in event.rounds.all():
        for t in rnd.tables.all():
            assert {t.ns_id, t.ew_id} != set(kept_apart)


def test_groups_and_knockout_from_the_pages_to_the_public_bracket(client, logged_in, organiser):
    event = _run_from_the_pages(logged_in, organiser, 8, format="groups")
    assert event.rounds_count == 5
    assert event.notes[3] == "Round 5 follows the groups' schedule, then the knockout bracket."
    events.event_publish(event=event, actor=Actor(user=organiser))
    client.logout()
    page = client.get(reverse("public:groups", args=[event.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Group A" in html and "Group B" in html and "Repesca" in html
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html and "Final" in html
    assert html.count("▶") == 3  # two semi-final winners and the champion
    pdf = client.get(reverse("public:pdf", args=[event.pk, "groups"]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


# --- the public page respects the policy -------------------------------------------------------


def _groups_event(organiser, n=8):
    actor = Actor(user=organiser)
    event = events.event_create(
        actor=actor,
        name="Fires",
        format="groups",
        match_mode="game",
        boards_per_round=4,
        game_target=51,
        repesca=2,
    )
    events.registration_open(event=event, actor=actor)
    for i in range(n):
        events.entry_register(event=event, actor=actor, player1=f"A{i}", player2=f"B{i}")
    events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    events.event_publish(event=event, actor=actor)
    return Event.objects.get(pk=event.pk), actor


def test_the_groups_page_shows_the_draw_before_any_result(client, organiser):
    event, _actor = _groups_event(organiser)
    html = client.get(reverse("public:groups", args=[event.pk])).content.decode()
    assert "The groups as drawn" in html
    assert "The bracket is drawn once the group rounds are closed." in html


def test_the_public_never_sees_the_scores_of_an_open_round(client, organiser):
    event, actor = _groups_event(organiser)
    rng = random.Random(9)
    for number in (1, 2, 3):
        pairings_propose(event.pk, number, actor=actor)
        rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
        play_round(rnd, rng)
        if number < 3:
            events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    # Round 3 is played but open: the public sees the groups after round 2, no bracket.
    html = client.get(reverse("public:groups", args=[event.pk])).content.decode()
    assert "After round 2." in html
    assert "The bracket is drawn once" in html
    # Organisers too see no open round in the stage (the knockout is decided at closing).
    client.force_login(organiser)
    staff = client.get(reverse("public:groups", args=[event.pk])).content.decode()
    assert "The bracket is drawn once" in staff
    events.round_close(rnd=event.rounds.get(number=3), actor=actor)
    standings_recompute(event.pk)
    client.logout()
    html = client.get(reverse("public:groups", args=[event.pk])).content.decode()
    assert "After round 3." in html and 'id="bracket"' in html


def test_a_swiss_event_has_no_groups_page(client, organiser):
    event = EventFactory(organisers=[organiser], published=True)
    assert client.get(reverse("public:groups", args=[event.pk])).status_code == 404
    assert client.get(reverse("public:pdf", args=[event.pk, "groups"])).status_code == 404


def test_forbidden_pairs_of_another_event_are_refused(organiser):
    event = EventFactory(organisers=[organiser])
    other = EventFactory(organisers=[organiser])
    a = Entry.objects.create(event=event, pair=PairFactory(), number=1)
    b = Entry.objects.create(event=other, pair=PairFactory(), number=1)
    with pytest.raises(ServiceError, match="not a pair of this event"):
        pairing_rules.forbidden_add(event=event, actor=Actor(user=organiser), a=a.pk, b=b.pk)


@pytest.mark.parametrize(
    "options", [{"format": Event.Format.ROUND_ROBIN}, {"format": Event.Format.GROUPS}]
)
def test_a_round_robin_or_groups_keeps_no_pairs_apart_and_says_so(logged_in, organiser, options):
    """Their every round is drawn from the lot at the start: a prohibition would be ignored, so
    the page offers none and says why, and the service refuses one (docs/organisers.md)."""
    event = EventFactory(organisers=[organiser], status="registration", **options)
    a, b, _c = _entries(event, 3)
    page = logged_in.get(reverse("tournaments:pairing_method", args=[event.pk])).content.decode()
    assert "Only the Swiss keeps two pairs apart" in page
    assert reverse("tournaments:forbidden_add", args=[event.pk]) not in page
    refused = logged_in.post(
        reverse("tournaments:forbidden_add", args=[event.pk]), {"entry_a": a.pk, "entry_b": b.pk}
    )
    assert refused.status_code == 400
    assert "Only the Swiss keeps two pairs apart" in refused.content.decode()
    assert not ForbiddenPair.objects.filter(event=event).exists()
