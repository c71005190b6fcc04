"""Refusals of the lifecycle API found by an audit: a wrong state is a 409 naming what is in
the wrong state, bad input a 400 at its field, and neither changes anything."""

import uuid

import pytest

from tests.api.event_run import API, login, run_event
from tournaments.models import AuditEntry


def _post(client, url, body=None, **extra):
    return client.post(
        url,
        body if body is not None else {},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **extra,
    )


def _started(captured):
    """An event of 3 rounds and 4 pairs, started through the API: (organiser, id, its URL)."""
    run = login(captured)
    org = run.organiser
    with captured(execute=True):
        pk = _post(org, f"{API}/events", {"name": "T", "rounds_count": 3}).json()["id"]
        url = f"{API}/events/{pk}"
        _post(org, f"{url}/registration")
        _post(
            org,
            f"{url}/pairs",
            {"pairs": [{"player1": f"A{i}", "player2": f"B{i}"} for i in range(4)]},
        )
        _post(org, f"{url}/start")
    return org, pk, url


def _codes(response):
    return [(e["field"], e["message"]) for e in response.json()["errors"]]


def test_propose_before_previous_round_exists_names_the_reason(
    db, django_capture_on_commit_callbacks
):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    response = _post(org, f"{E}/rounds/2/propose")
    assert response.status_code == 409
    # docs/api.md: "A step the event's state does not allow is a 409 naming the reason
    # (status, round, results, confirm, pair)".
    fields = {f for f, _m in _codes(response)}
    assert fields <= {"status", "round", "results", "confirm", "pair"}, fields


def test_late_entry_when_every_round_has_started_is_a_409(db, django_capture_on_commit_callbacks):
    run = run_event(django_capture_on_commit_callbacks, finish=False)  # round 2 of 2 open
    org = run.organiser
    before = AuditEntry.objects.filter(event_id=run.pk).count()
    response = _post(org, f"{API}/events/{run.pk}/pairs", {"player1": "L", "player2": "M"})
    # The event's state (no round left to join) refuses it: a 409 naming the reason.
    assert response.status_code == 409, (response.status_code, _codes(response))
    assert AuditEntry.objects.filter(event_id=run.pk).count() == before


def test_swap_a_pair_with_itself_is_refused_and_changes_nothing(
    db, django_capture_on_commit_callbacks
):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        _post(org, f"{E}/rounds/1/propose")
    swaps = AuditEntry.objects.filter(event_id=pk, action="round_swap").count()
    response = _post(org, f"{E}/rounds/1/swap", {"pairs": [1, 1]})
    # "two pairs exchange places": the same pair twice is bad input (400 at pairs), not an
    # audited swap that changes nothing.
    assert response.status_code == 400, response.status_code
    assert AuditEntry.objects.filter(event_id=pk, action="round_swap").count() == swaps


def test_swap_with_a_pair_number_no_pair_has_is_a_400_at_pairs(
    db, django_capture_on_commit_callbacks
):
    """A number from the body is bad input, as in the pairing by hand: not a 404 (audit)."""
    org, pk, E = _started(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        _post(org, f"{E}/rounds/1/propose")
    before = AuditEntry.objects.filter(event_id=pk).count()
    response = _post(org, f"{E}/rounds/1/swap", {"pairs": [1, 99]})
    assert response.status_code == 400, response.status_code
    assert _codes(response) == [("pairs", "No pair has the number 99.")]
    assert AuditEntry.objects.filter(event_id=pk).count() == before


def test_the_frameworks_own_messages_come_in_the_readers_language(
    db, django_capture_on_commit_callbacks
):
    """DRF's Catalan catalogue lacks some of its messages; the project's supplies them."""
    org, _pk, url = _started(django_capture_on_commit_callbacks)
    cases = [
        (f"{url}/publish", {"published": "potser"}, "published", "Ha de ser un valor booleà"),
        (f"{url}/pairs", {"pairs": []}, "pairs", "com a mínim 1 elements"),
    ]
    for path, body, field, words in cases:
        answer = _post(org, path, body, HTTP_ACCEPT_LANGUAGE="ca")
        assert answer.status_code == 400, answer.content
        message = dict(_codes(answer))[field]
        assert words in message, message


@pytest.mark.parametrize(
    "step, body",
    [
        ("open", {}),
        ("close", {"accept_missing": True}),
        ("reopen", {"reason": "x"}),
        ("rulings", {"open": True, "reason": "x"}),
        ("swap", {"pairs": [1, 2]}),
        ("pairing", {"tables": [[1, 2], [3, 4]]}),
    ],
)
def test_a_step_on_a_round_not_proposed_yet_is_a_409_at_round(
    db, django_capture_on_commit_callbacks, step, body
):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    before = AuditEntry.objects.filter(event_id=pk).count()
    response = _post(org, f"{E}/rounds/1/{step}", body)
    # The round exists (GET answers it, status null) but is in no state for the step: a 409
    # saying so, not the 404 of a wrong event or a round the event does not have.
    assert response.status_code == 409, (response.status_code, _codes(response))
    assert _codes(response) == [("round", "Round 1 has not been proposed yet: propose it first.")]
    assert AuditEntry.objects.filter(event_id=pk).count() == before
    assert _post(org, f"{E}/rounds/4/{step}", body).status_code == 404


def test_opening_the_round_after_an_open_one_is_a_409_at_round(
    db, django_capture_on_commit_callbacks
):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        _post(org, f"{E}/rounds/1/propose")
        _post(org, f"{E}/rounds/1/open")
    response = _post(org, f"{E}/rounds/2/open")
    assert response.status_code == 409
    assert [f for f, _m in _codes(response)] == ["round"]


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("publish", {"publish": False}, "publish"),
        ("pairs", {"player1": "Q", "player2": "R", "extra": 1}, "extra"),
        ("pairs", {"pairs": [{"player1": "Q", "player2": "R", "clubb": "X"}]}, "pairs[0].clubb"),
        ("pairs/import", {"csv": "Q,R\n", "header": True}, "header"),
        ("pairs/1/withdraw", {"reasn": "ill"}, "reasn"),
        ("pairs/1/substitute", {"seat": 1, "name": "Z", "from": 2}, "from"),
        ("rounds/1/pairing", {"tables": [[1, 2], [3, 4]], "byes": 5}, "byes"),
        ("rounds/1/swap", {"pairs": [1, 2], "force": True}, "force"),
        ("rounds/1/close", {"accept_misssing": True}, "accept_misssing"),
        ("rounds/1/reopen", {"reason": "x", "round": 2}, "round"),
        ("rounds/1/rulings", {"open": True, "why": "x"}, "why"),
        ("roles", {"role": "referee", "user": "someone", "note": "x"}, "note"),
        ("invitations", {"role": "referee", "mail": "x@example.com"}, "mail"),
        ("webhooks", {"url": "https://example.com/hook", "events": ["all"]}, "events"),
    ],
)
def test_an_unknown_field_is_a_400_at_it_and_changes_nothing(
    db, django_capture_on_commit_callbacks, path, body, field
):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    before = AuditEntry.objects.filter(event_id=pk).count()
    response = _post(org, f"{E}/{path}", body)
    assert response.status_code == 400, (response.status_code, _codes(response))
    codes = _codes(response)
    assert [c for c in codes if c[1] == "Unknown field."] == [(field, "Unknown field.")]
    # Beside it, only what the body lacks (``publish`` for ``published``: that is required).
    assert {m for _f, m in codes} <= {"Unknown field.", "This field is required."}
    assert AuditEntry.objects.filter(event_id=pk).count() == before


def test_every_unknown_field_is_listed_beside_the_bodys_other_problems(
    db, django_capture_on_commit_callbacks
):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    before = AuditEntry.objects.filter(event_id=pk).count()
    many = {f"extra{i:02}": i for i in range(15)}
    response = _post(org, f"{E}/pairs", {**many, "player1": "Q"})
    assert response.status_code == 400
    assert _codes(response) == [("player2", "This field is required.")] + [
        (key, "Unknown field.") for key in sorted(many)
    ]
    assert AuditEntry.objects.filter(event_id=pk).count() == before


def test_publish_needs_the_published_field(db, django_capture_on_commit_callbacks):
    org, pk, E = _started(django_capture_on_commit_callbacks)
    response = _post(org, f"{E}/publish", {})
    # No default: an empty body does not publish the results.
    assert response.status_code == 400
    assert [f for f, _m in _codes(response)] == ["published"]
    assert org.get(E).json()["published"] is False


def test_the_pairs_csv_takes_through_the_api_the_file_the_page_takes(
    db, django_capture_on_commit_callbacks
):
    """The schema and the page allow a 512 KB file; the API's general 64 KB body limit refused
    such a file with a 413 (review, 2026-12-06)."""
    run = login(django_capture_on_commit_callbacks)
    org = run.organiser
    pk = _post(org, f"{API}/events", {"name": "Big", "rounds_count": 3}).json()["id"]
    _post(org, f"{API}/events/{pk}/registration")
    note = "x" * 100  # a long club name: the file is over 64 KB with 500 pairs
    lines = [f"Player {i} A,Player {i} B,Pair {i},{note}" for i in range(500)]
    text = "\n".join(lines)
    assert len(text.encode()) > 64 * 1024
    response = _post(org, f"{API}/events/{pk}/pairs/import", {"csv": text})
    assert response.status_code == 201, response.content[:300]
    assert len(response.json()) == 500
    too_long = _post(org, f"{API}/events/{pk}/pairs/import", {"csv": "a,b\n" * (140 * 1024)})
    assert too_long.status_code == 400
    assert [f for f, _m in _codes(too_long)] == ["csv"]


def test_proposing_an_open_round_after_a_withdrawal_is_still_a_409_at_round(
    db, django_capture_on_commit_callbacks
):
    captured = django_capture_on_commit_callbacks
    org, pk, E = _started(captured)
    with captured(execute=True):
        assert _post(org, f"{E}/rounds/1/propose").status_code == 200
        assert _post(org, f"{E}/rounds/1/open").status_code == 200
        assert _post(org, f"{E}/pairs/3/withdraw", {"reason": "left"}).status_code == 200
        before = AuditEntry.objects.filter(event_id=pk).count()
        response = _post(org, f"{E}/rounds/1/propose")
    # The round is open, whoever it seats: not a 400 at `tables`, a field never sent.
    assert response.status_code == 409
    assert _codes(response) == [("round", "Round 1 is already open.")]
    assert AuditEntry.objects.filter(event_id=pk).count() == before


def test_a_substitution_the_events_state_refuses_is_a_409_at_pair_or_round(
    db, django_capture_on_commit_callbacks
):
    captured = django_capture_on_commit_callbacks
    run = run_event(captured, finish=False)  # round 2 of 2 open
    org, E = run.organiser, f"{API}/events/{run.pk}"
    substitute = {"seat": 1, "name": "Nova Jugadora"}
    with captured(execute=True):
        assert _post(org, f"{E}/pairs/1/withdraw", {"reason": "left"}).status_code == 200
        withdrawn = _post(org, f"{E}/pairs/1/substitute", substitute)
        closed = _post(org, f"{E}/rounds/2/close", {"accept_missing": True})
        assert closed.status_code == 200, closed.content
        played = _post(org, f"{E}/pairs/2/substitute", substitute)
    assert (withdrawn.status_code, _codes(withdrawn)) == (
        409,
        [("pair", "This pair has withdrawn.")],
    )
    assert (played.status_code, _codes(played)) == (
        409,
        [("round", "Every round has been played: a new player would play none.")],
    )


def test_proposing_a_round_of_a_finished_event_names_its_status(
    db, django_capture_on_commit_callbacks
):
    captured = django_capture_on_commit_callbacks
    run = run_event(captured, finish=True)
    with captured(execute=True):
        response = _post(run.organiser, f"{API}/events/{run.pk}/rounds/1/propose")
    assert response.status_code == 409
    assert [field for field, _m in _codes(response)] == ["status"]
