"""Results services: the cards-visibility rule, short-form validation, codes across events."""

import pytest

from tests.factories import UserFactory
from tournaments import policy
from tournaments.actors import Actor
from tournaments.models import Event, Round, Table
from tournaments.services import events, results

SHORT = {"delegated": False, "trump": "espases", "doubles": [], "totals": {"NS": 44, "EW": 28}}


def _tables(event):
    return list(Table.objects.filter(round__event=event, round__number=1).order_by("number"))


@pytest.mark.django_db
def test_a_table_sees_a_board_only_after_entering_its_result(running_event):
    t1, t2 = _tables(running_event)
    board = results.board_for_table(t1, 1)
    ns1, ns2 = Actor(table=t1, side="NS"), Actor(table=t2, side="NS")
    assert not policy.can_see_cards(ns1, board)
    results.result_submit_short(table=t1, board_number=1, actor=ns1, data=SHORT)
    assert policy.can_see_cards(ns1, board)
    assert policy.can_see_cards(Actor(table=t1, side="EW"), board)  # the whole table played it
    assert not policy.can_see_cards(ns2, board)  # table 2 has not played it yet
    assert not policy.can_see_cards(Actor(), board)


@pytest.mark.django_db
def test_declaring_a_board_played_unlocks_it_and_is_audited(running_event):
    t1, _t2 = _tables(running_event)
    board = results.board_for_table(t1, 2)
    ew = Actor(table=t1, side="EW")
    assert not policy.can_see_cards(ew, board)
    unlock = results.board_declare_played(table=t1, board_number=2, actor=ew)
    assert unlock.reason == "declared"
    assert policy.can_see_cards(ew, board)
    again = results.board_declare_played(table=t1, board_number=2, actor=ew)
    assert again.pk == unlock.pk  # once: the first moment is what the organiser sees
    entry = running_event.audit.get(action="board_unlocked")
    assert entry.changes == {"board": [None, 2], "table": [None, 1]} and entry.note == "declared"


@pytest.mark.django_db
def test_closed_round_boards_are_public_only_once_the_event_is_published(running_event, organiser):
    t1, t2 = _tables(running_event)
    board = results.board_for_table(t1, 1)
    rnd = running_event.rounds.get(number=1)
    events.round_close(rnd=rnd, actor=Actor(user=organiser), accept_missing=True)
    stranger = Actor(user=UserFactory())
    assert not policy.can_see_cards(stranger, board)
    # Everyone who sat in the round played the board: they may look now.
    assert policy.can_see_cards(Actor(table=t2, side="EW"), board)
    Event.objects.filter(pk=running_event.pk).update(published=True)
    board.event.refresh_from_db()
    assert policy.can_see_cards(stranger, board)


@pytest.mark.django_db
def test_a_missing_trump_is_named_as_such(running_event):
    t1 = _tables(running_event)[0]
    with pytest.raises(results.InvalidSubmission) as caught:
        results.result_submit_short(
            table=t1, board_number=1, actor=Actor(table=t1, side="NS"), data=SHORT | {"trump": None}
        )
    assert [p.path for p in caught.value.problems] == ["trump"]


@pytest.mark.django_db
def test_table_codes_are_unique_across_open_rounds_of_all_events(
    running_event, organiser, monkeypatch
):
    codes = iter(["AAAAAA", "DDDDDD", "AAAAAA", "BBBBBB", "DDDDDD", "CCCCCC"])
    monkeypatch.setattr(events, "new_table_code", lambda: next(codes))
    Table.objects.filter(pk=_tables(running_event)[0].pk).update(code_ns="AAAAAA")
    Table.objects.filter(pk=_tables(running_event)[1].pk).update(code_ew="DDDDDD")
    fresh = events.fresh_codes(2)
    assert fresh == ["BBBBBB", "CCCCCC"]
    assert Round.objects.filter(status=Round.Status.OPEN).exists()


@pytest.mark.django_db
def test_engine_problems_reach_people_in_their_language(running_event):
    from django.utils import translation

    t1 = _tables(running_event)[0]
    bad = SHORT | {"totals": {"NS": 40, "EW": 40}, "doubles": [{"seat": "N", "call": "contro"}]}
    for language, words in (("en", "add up to 72"), ("ca", "72")):
        with translation.override(language), pytest.raises(results.InvalidSubmission) as caught:
            results.result_submit_short(
                table=t1, board_number=1, actor=Actor(table=t1, side="NS"), data=bad
            )
        messages = {p.path: p.message for p in caught.value.problems}
        assert words in messages["totals"]
        assert "(R5)" in messages["doubles[0].seat"]  # board 1: N deals, NS chose; N can't contro
        assert not messages["totals"].startswith("the totals")  # not the engine's raw sentence


def test_every_engine_problem_code_has_words_for_people():
    """labels.PROBLEM_TEXT translates the engine's problems by code: none is left to English."""
    from engine import ProblemCode
    from tournaments.labels import PROBLEM_TEXT

    assert set(PROBLEM_TEXT) == set(ProblemCode)


def test_stored_actor_labels_are_shown_in_the_readers_language():
    from django.utils import translation

    from tournaments.actors import Actor, label_for_display

    assert Actor().label == "anonymous"
    with translation.override("ca"):
        assert label_for_display("table 3 round 2 NS") == "taula 3, ronda 2, NS"
        assert label_for_display("organiser") == "organiser"  # a user name stays as it is
    with translation.override("es"):
        assert label_for_display("table 3 round 2") == "mesa 3, ronda 2"
