"""Events, rounds, tables, boards and standings: what each reader may see."""

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.api.conftest import errors_of
from tests.factories import EventFactory
from tournaments.actors import Actor
from tournaments.models import Event
from tournaments.queue import STANDINGS_QUEUED
from tournaments.services import events


def test_events_lists_published_and_ones_own(world):
    draft = EventFactory(organisers=[world.users["organiser"]], published=False)
    foreign_draft = EventFactory(published=False)
    anonymous = {e["id"] for e in world.client().get("/api/v1/events").json()["results"]}
    assert world.event.pk in anonymous and draft.pk not in anonymous
    own = {e["id"] for e in world.client("organiser").get("/api/v1/events").json()["results"]}
    assert draft.pk in own and foreign_draft.pk not in own
    staff = {e["id"] for e in world.client("staff").get("/api/v1/events").json()["results"]}
    assert foreign_draft.pk in staff
    assert world.client().get(f"/api/v1/events/{draft.pk}").status_code == 404
    assert world.client("organiser").get(f"/api/v1/events/{draft.pk}").status_code == 200


def test_unpublished_event_is_visible_to_its_players_and_tables(world):
    world.event.published = False
    world.event.save()
    url = f"/api/v1/events/{world.event.pk}"
    assert world.client().get(url).status_code == 404
    assert world.client("other_organiser").get(url).status_code == 404
    for who in ("table", "player", "referee", "organiser"):
        assert world.client(who).get(url).status_code == 200, who


def test_the_seed_only_once_the_event_is_finished(world):
    url = f"/api/v1/events/{world.event.pk}"
    running = world.client("organiser").get(url).json()
    assert running["commitment"] == world.event.commitment and running["seed"] is None
    assert world.event.seed not in str(world.client("organiser").get(url).content)
    actor = Actor(user=world.users["organiser"])
    events.round_close(rnd=world.table.round, actor=actor, accept_missing=True)
    events.event_finish(event=world.event, actor=actor)
    finished = world.client().get(url).json()
    assert finished["seed"] == world.event.seed


def test_rounds_and_tables_with_codes_for_organisers_only(world):
    rounds = world.client().get(f"/api/v1/events/{world.event.pk}/rounds").json()["results"]
    assert [(r["number"], r["status"], r["tables"], r["boards"]) for r in rounds] == [
        (1, "open", 2, [1, 2])
    ]
    url = f"/api/v1/rounds/{rounds[0]['id']}/tables"
    tables = world.client("organiser").get(url).json()["results"]
    assert [(t["code_ns"], t["code_ew"]) for t in tables] == [
        (world.table.code_ns, world.table.code_ew),
        (world.other.code_ns, world.other.code_ew),
    ]
    assert tables[0]["ns"]["pair"] == world.table.ns.pair.name
    for who in ("anonymous", "table", "player", "referee", "other_organiser", "staff"):
        listed = world.client(who).get(url).json()["results"]
        codes = [(t["code_ns"], t["code_ew"]) for t in listed]
        assert codes == [(None, None), (None, None)], who
    assert world.client().get("/api/v1/rounds/999999/tables").status_code == 404


def test_board_dealer_always_hands_only_when_visible(world):
    url = f"/api/v1/events/{world.event.pk}/boards/1"
    board = world.board(1)
    for who in ("anonymous", "table", "other_table", "player", "other_organiser", "staff"):
        body = world.client(who).get(url).json()
        assert body["dealer"] == board.dealer and body["hands_visible"] is False, who
        assert "hands" not in body, who
    for who in ("organiser", "referee"):
        body = world.client(who).get(url).json()
        assert body["hands_visible"] is True and body["hands"] == board.hands, who
    # Once table 1 entered the board, its players may see it; table 2 still may not.
    world.client("table").post("/api/v1/results", world.short(board=1), format="json")
    assert world.client("table").get(url).json()["hands"] == board.hands
    assert world.client("player").get(url).json()["hands_visible"] is True
    assert "hands" not in world.client("other_table").get(url).json()
    assert "hands" not in world.client().get(url).json()
    # After the round closes everyone may.
    events.round_close(
        rnd=world.table.round, actor=Actor(user=world.users["organiser"]), accept_missing=True
    )
    assert world.client().get(url).json()["hands"] == board.hands
    # A board of a later round stays hidden.
    later = world.client().get(f"/api/v1/events/{world.event.pk}/boards/5").json()
    assert later["hands_visible"] is False and "hands" not in later
    assert world.client().get(f"/api/v1/events/{world.event.pk}/boards/999").status_code == 404


def test_standings_snapshot_stale_flag(world, django_capture_on_commit_callbacks):
    url = f"/api/v1/events/{world.event.pk}/standings"
    empty = world.client().get(url).json()
    assert empty["rows"] == [] and empty["after_round"] is None and empty["stale"] is False
    # A recomputation requested and queued, not done yet (as while a worker is busy): stale to
    # the organiser; the public, shown no standings while no round is closed, is told nothing.
    Event.objects.filter(pk=world.event.pk).update(standings_requested_at=timezone.now())
    cache.set(STANDINGS_QUEUED.format(world.event.pk), "now", timeout=60)
    assert world.client("organiser").get(url).json()["stale"] is True
    assert world.client().get(url).json()["stale"] is False
    # None in flight (the request was lost): the read queues one, here run in-process.
    cache.delete(STANDINGS_QUEUED.format(world.event.pk))
    assert world.client().get(url).json()["stale"] is False
    with django_capture_on_commit_callbacks(execute=True):
        world.client("table").post("/api/v1/results", world.short(board=1), format="json")
        world.client("table_ew").post("/api/v1/results", world.short(board=1), format="json")
        world.client("table_ew").post("/api/v1/results", world.short(board=2), format="json")
        world.client("table").post("/api/v1/results", world.short(board=2), format="json")
    body = world.client("organiser").get(url).json()
    # Tasks run in-process in tests: the recomputation happened after the commit.
    assert body["stale"] is False and body["updated_at"]
    assert body["after_round"] == 1 and len(body["rows"]) == 4
    assert {"entry", "rank", "match_points"} <= set(body["rows"][0])
    # The public and the tables see nothing of the open round's scores.
    for who in ("anonymous", "table", "other_table", "player"):
        hidden = world.client(who).get(url).json()
        assert hidden["after_round"] is None and hidden["rows"] == [], who
    events.round_close(
        rnd=world.table.round, actor=Actor(user=world.users["organiser"]), accept_missing=True
    )
    assert world.client().get(url).json()["after_round"] == 1


@pytest.mark.parametrize(
    "url",
    ["/api/v1/events/999999", "/api/v1/events/999999/rounds", "/api/v1/events/999999/standings"],
)
def test_unknown_event_is_a_json_404(world, url):
    response = world.client().get(url)
    assert response.status_code == 404 and errors_of(response)


def test_standings_after_a_round_only_once_it_may_be_seen(
    world, django_capture_on_commit_callbacks
):
    url = f"/api/v1/events/{world.event.pk}/standings"
    with django_capture_on_commit_callbacks(execute=True):
        world.client("table").post("/api/v1/results", world.short(board=1), format="json")
        world.client("table_ew").post("/api/v1/results", world.short(board=1), format="json")
    assert world.client().get(url, {"after": 1}).status_code == 404  # round 1 still open
    live = world.client("organiser").get(url, {"after": 1}).json()
    assert live["after_round"] == 1 and live["rounds"] == [1]
    row = next(r for r in live["rows"] if r["pair"] == world.table.ns.number)
    assert row["name"] == world.table.ns.pair.name and row["entry"] == world.table.ns.pk
    assert live["matches"][0]["ns"] == world.table.ns.number
    assert world.client().get(url, {"after": "x"}).status_code == 400


def test_standings_polled_with_their_etag_are_a_304_until_they_change(
    world, django_capture_on_commit_callbacks
):
    url = f"/api/v1/events/{world.event.pk}/standings"
    organiser = world.client("organiser")
    first = organiser.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "no-cache"
    unchanged = organiser.get(url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == etag
    with django_capture_on_commit_callbacks(execute=True):
        world.client("table").post("/api/v1/results", world.short(board=1), format="json")
        world.client("table_ew").post("/api/v1/results", world.short(board=1), format="json")
    changed = organiser.get(url, HTTP_IF_NONE_MATCH=etag)  # the open round, live for staff
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["after_round"] == 1
    # The public's copy did not change (round 1 is open): still a 304 for it.
    public = world.client().get(url)
    assert world.client().get(url, HTTP_IF_NONE_MATCH=public["ETag"]).status_code == 304


def test_a_polls_write_preconditions_do_not_refuse_it(world):
    """If-Match / If-Unmodified-Since are for writes: on the standings they got Django's empty
    412, a status the API does not document (audit). The poll is answered as without them."""
    url = f"/api/v1/events/{world.event.pk}/standings"
    client = world.client("organiser")
    etag = client.get(url)["ETag"]
    odd = {
        "HTTP_IF_MATCH": '"nothing"',
        "HTTP_IF_UNMODIFIED_SINCE": "Sat, 01 Jan 2000 00:00:00 GMT",
    }
    answer = client.get(url, **odd)
    assert answer.status_code == 200 and answer["ETag"] == etag
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **odd).status_code == 304


def test_an_events_empty_texts_are_null_not_empty_strings(world):
    Event.objects.filter(pk=world.event.pk).update(venue="", fee_instructions="")
    body = world.client("anonymous").get(f"/api/v1/events/{world.event.pk}").json()
    assert body["venue"] is None and body["fee_instructions"] is None
    Event.objects.filter(pk=world.event.pk).update(venue="Casal", fee_instructions="At the bar")
    body = world.client("anonymous").get(f"/api/v1/events/{world.event.pk}").json()
    assert (body["venue"], body["fee_instructions"]) == ("Casal", "At the bar")


@pytest.mark.parametrize("body", ["null", "5", '"preset"', "[1, 2]"])
def test_a_patch_whose_body_is_not_an_object_is_a_400(world, body):
    response = world.client("organiser").patch(
        f"/api/v1/events/{world.event.pk}", body, content_type="application/json"
    )
    assert response.status_code == 400, (body, response.status_code)
    assert response.json()["errors"]
