"""The permission matrix: every kind of caller against reads and writes of table 1's board.

table = table 1's token; other_table = table 2's; player = an account whose pair sits at table 1
(NS); organiser / referee of this event; other_* of another event; staff = is_staff, not a
superuser (staff list every event, and inside one see no more than anyone; writes follow the
services' roles).
"""

import pytest

from tests.api.conftest import PRINCIPALS
from tournaments.actors import Actor
from tournaments.models import BoardResult
from tournaments.services import results

ALLOWED_TO_ENTER = {"table", "player", "organiser"}
# Django staff as such see no more than anyone of an open round (tournaments/policy.py).
ALLOWED_TO_READ_OPEN_RESULT = {"table", "player", "organiser", "referee"}
ALLOWED_TO_RULE = {"organiser", "referee"}
ALLOWED_TO_CALL_REFEREE = {"table", "player", "organiser", "referee"}
SEES_CARDS = {"table", "player", "organiser", "referee"}  # staff follow the card rule too


def expected(who: str, allowed: set[str], ok: int) -> int:
    if who in allowed:
        return ok
    return 401 if who == "anonymous" else 403


def hidden(who: str, allowed: set[str], ok: int) -> int:
    """A read of another table's object answers as one that does not exist: ids are sequential,
    and a 401 or a 403 would tell when the next one is stored."""
    return ok if who in allowed else 404


def hidden_write(who: str, allowed: set[str], ok: int, missing: int) -> int:
    """A write on another table's object of the open round: refused as for an id that does
    not exist (``missing``) to whoever may not read it; a 403 to who may read it, not do it."""
    if who in allowed:
        return ok
    if who == "anonymous":
        return 401
    return 403 if who in ALLOWED_TO_READ_OPEN_RESULT else missing


def _entered(world) -> BoardResult:
    # Entered by table 1's EW pair, so that both NS principals may still act on it.
    return results.result_submit_short(
        table=world.table,
        board_number=1,
        actor=Actor(table=world.table, side="EW"),
        data={"trump": "oros", "totals": {"NS": 40, "EW": 32}},
    ).result


def _disputed(world):
    result = _entered(world)
    from tournaments.services import disputes

    return disputes.dispute_request(
        result=result, actor=Actor(table=world.table, side="EW"), reason="check"
    )


@pytest.mark.parametrize("who", PRINCIPALS)
def test_enter_a_short_result(world, who):
    response = world.client(who).post("/api/v1/results", world.short(), format="json")
    assert response.status_code == expected(who, ALLOWED_TO_ENTER, 201), response.content
    assert BoardResult.objects.exists() == (response.status_code == 201)


@pytest.mark.parametrize("who", PRINCIPALS)
def test_submit_a_play_record(world, who):
    response = world.client(who).post(
        "/api/v1/play-records",
        {"table": world.table.pk, "board": 1, "record": world.record(1)},
        format="json",
    )
    assert response.status_code == expected(who, ALLOWED_TO_ENTER, 201), response.content


@pytest.mark.parametrize("who", PRINCIPALS)
def test_confirm(world, who):
    result = _entered(world)
    response = world.client(who).post(f"/api/v1/results/{result.pk}/confirm", {}, format="json")
    assert response.status_code == hidden_write(who, ALLOWED_TO_ENTER, 200, 404), response.content


@pytest.mark.parametrize("who", PRINCIPALS)
def test_read_a_result_of_an_open_round(world, who):
    result = _entered(world)
    response = world.client(who).get(f"/api/v1/results/{result.pk}")
    assert response.status_code == hidden(who, ALLOWED_TO_READ_OPEN_RESULT, 200)
    missing = world.client(who).get(f"/api/v1/results/{result.pk + 1000}")
    if response.status_code == 404:
        assert response.content == missing.content
    if response.status_code == 200:
        assert (response.json()["submissions"] is not None) == (who in SEES_CARDS)
    listed = world.client(who).get("/api/v1/results")
    assert listed.status_code == 200
    assert listed.json()["count"] == (1 if who in ALLOWED_TO_READ_OPEN_RESULT else 0)


@pytest.mark.parametrize("who", PRINCIPALS)
def test_call_a_referee(world, who):
    result = _entered(world)
    response = world.client(who).post(
        "/api/v1/disputes", {"result": result.pk, "reason": "check"}, format="json"
    )
    status = hidden_write(who, ALLOWED_TO_CALL_REFEREE, 201, 400)
    assert response.status_code == status, response.content


@pytest.mark.parametrize("who", PRINCIPALS)
def test_read_a_dispute(world, who):
    dispute = _disputed(world)
    response = world.client(who).get(f"/api/v1/disputes/{dispute.pk}")
    if who == "anonymous":  # the disputes are for signed-in callers
        assert response.status_code == 401
    else:
        assert response.status_code == hidden(who, ALLOWED_TO_READ_OPEN_RESULT, 200)


@pytest.mark.parametrize("who", PRINCIPALS)
def test_rule(world, who):
    dispute = _disputed(world)
    response = world.client(who).post(
        f"/api/v1/disputes/{dispute.pk}/rule",
        {"kind": "penalty", "explanation": "Revoke.", "data": {"offending_pair": "EW"}},
        format="json",
    )
    # Those who may not read the dispute get the 404 of a missing id; its readers a 403.
    if who in ALLOWED_TO_RULE or who == "anonymous" or who in ALLOWED_TO_READ_OPEN_RESULT:
        assert response.status_code == expected(who, ALLOWED_TO_RULE, 201), response.content
    else:
        assert response.status_code == 404, response.content


@pytest.mark.parametrize("who", PRINCIPALS)
def test_public_reads_of_a_published_event(world, who):
    for url in (
        f"/api/v1/events/{world.event.pk}",
        f"/api/v1/events/{world.event.pk}/rounds",
        f"/api/v1/events/{world.event.pk}/standings",
        f"/api/v1/events/{world.event.pk}/boards/1",
        f"/api/v1/rounds/{world.table.round_id}/tables",
    ):
        assert world.client(who).get(url).status_code == 200, url


@pytest.mark.parametrize("who", PRINCIPALS)
def test_reading_a_play_record(world, who):
    results.result_submit_play_record(
        table=world.table,
        board_number=1,
        actor=Actor(table=world.table, side="EW"),
        record=world.record(1),
    )
    pk = BoardResult.objects.get().play_records.get().pk
    response = world.client(who).get(f"/api/v1/play-records/{pk}")
    assert response.status_code == hidden(who, SEES_CARDS, 200)


def test_django_staff_list_an_unpublished_event_but_read_nothing_inside_it(world):
    """docs/api.md: staff may list every event; inside an event, no more than anyone (who gets
    a 404 for an unpublished one): not its closed rounds' scores."""
    from tournaments.services import events

    result = _entered(world)
    results.result_confirm(result=result, actor=Actor(table=world.table, side="NS"))
    organiser = Actor(user=world.users["organiser"])
    events.round_close(rnd=world.table.round, actor=organiser, accept_missing=True)
    type(world.event).objects.filter(pk=world.event.pk).update(published=False)
    pk = world.event.pk
    # "Anyone": an account with no role in this event (another event's organiser).
    staff, anyone = world.client("staff"), world.client("other_organiser")
    listed = staff.get("/api/v1/events").json()["results"]
    assert pk in [e["id"] for e in listed]
    assert pk not in [e["id"] for e in anyone.get("/api/v1/events").json()["results"]]
    for url in (
        f"/api/v1/events/{pk}",
        f"/api/v1/events/{pk}/standings",
        f"/api/v1/events/{pk}/crosstable",
        f"/api/v1/results/{result.pk}",
    ):
        refused = anyone.get(url)
        assert refused.status_code in (403, 404), url
        assert staff.get(url).status_code == refused.status_code, url
    assert staff.get(f"/api/v1/results?event={pk}").json()["count"] == 0
