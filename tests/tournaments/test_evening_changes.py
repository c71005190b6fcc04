"""Undo and late changes (issue 14): reopen and un-open a round, a pairing set by hand,
withdrawal from an open round (forfeit) and reinstatement, substitution; each audited, each
moving the standings as documented in docs/organisers.md."""

import pytest
from django.urls import reverse

from tests.factories import EventFactory, PairFactory
from tournaments import scoring_io, selectors, table_access
from tournaments.actors import Actor
from tournaments.models import AuditEntry, BoardUnlock, Entry, Round, Table, TableToken
from tournaments.services import ServiceError, changes, events
from tournaments.services.results import (
    board_declare_played,
    result_confirm,
    result_submit_short,
    unlock_board,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


def _enter(table, board_number, totals=(40, 32), confirm=True):
    data = {
        "delegated": False,
        "trump": "oros",
        "doubles": [],
        "totals": {"NS": totals[0], "EW": totals[1]},
    }
    stored = result_submit_short(
        table=table, board_number=board_number, actor=Actor(table=table, side="NS"), data=data
    )
    if confirm:
        result_confirm(result=stored.result, actor=Actor(table=table, side="EW"))
    return stored.result


def _round(event, number):
    return event.rounds.get(number=number)


def _tables(event, number):
    return list(_round(event, number).tables.order_by("number"))


def _play_round(event, number):
    for table in _tables(event, number):
        for board in _round(event, number).board_numbers:
            _enter(table, board)


def _close(event, number, actor):
    return events.round_close(rnd=_round(event, number), actor=actor, accept_missing=True)


def _last_audit(event):
    return AuditEntry.objects.filter(event=event).order_by("-pk").first()


def _standing(event, entry_number):
    data = scoring_io.event_input(event)
    from scoring.standings import compute_standings

    entry = event.entries.get(number=entry_number)
    return next(s for s in compute_standings(data).standings if s.entry == entry.pk)


# --- reopening a closed round ----------------------------------------------------------------


def test_a_round_closed_too_early_reopens_and_its_codes_work_again(running_event, actor):
    t1, _t2 = _tables(running_event, 1)
    _enter(t1, 1)
    # Table 1 was playing board 2 when the round was closed.
    board_declare_played(table=t1, board_number=2, actor=Actor(table=t1, side="NS"))
    _close(running_event, 1, actor)
    assert table_access.open_table_for_code(t1.code_ns)[0] is None
    plan = changes.round_reopen(
        rnd=_round(running_event, 1), actor=actor, reason="closed before table 2 finished"
    )
    rnd = _round(running_event, 1)
    assert (rnd.status, rnd.closed_at, plan.dropped, plan.new_codes) == ("open", None, None, [])
    assert rnd.first_closed_at is not None  # the close showed the boards: kept
    assert table_access.open_table_for_code(t1.code_ns)[0] == t1
    # The table enters the board it had missed (it had played it before the close).
    t1, t2 = _tables(running_event, 1)
    _enter(t1, 2)
    entry = _last_audit(running_event)
    assert entry.action == "result_confirmed"
    # Not a board it had not played: closing showed its cards (tests/security/
    # test_reopen_after_reveal.py).
    with pytest.raises(ServiceError, match="ask the organiser to enter it"):
        _enter(t2, 1)
    reopened = AuditEntry.objects.get(event=running_event, action="round_reopened")
    assert reopened.note == "closed before table 2 finished"
    assert reopened.actor == actor.label


def test_reopening_needs_a_reason(running_event, actor):
    _close(running_event, 1, actor)
    with pytest.raises(ServiceError, match="Say why"):
        changes.round_reopen(rnd=_round(running_event, 1), actor=actor, reason="  ")


def test_a_reopened_round_no_longer_counts_as_closed_in_the_standings(running_event, actor):
    t1, t2 = _tables(running_event, 1)
    _enter(t1, 1)  # table 1 played one board of two; table 2 none
    _close(running_event, 1, actor)
    assert _standing(running_event, 1).wins == 1  # closed: the match is over
    changes.round_reopen(rnd=_round(running_event, 1), actor=actor, reason="too early")
    assert _standing(running_event, 1).wins == 0  # open again: not over yet


def test_reopening_drops_the_next_rounds_proposal(running_event, actor):
    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    entries = list(running_event.entries.order_by("number"))
    events.round_propose(
        event=running_event,
        actor=actor,
        number=2,
        tables=[(entries[0].pk, entries[2].pk), (entries[1].pk, entries[3].pk)],
    )
    plan = changes.reopen_plan(_round(running_event, 1))
    assert plan.dropped == 2
    changes.round_reopen(rnd=_round(running_event, 1), actor=actor, reason="a late correction")
    assert not running_event.rounds.filter(number=2).exists()


def test_a_round_cannot_reopen_once_the_next_one_is_open(running_event, actor):
    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    entries = list(running_event.entries.order_by("number"))
    rnd2 = events.round_propose(
        event=running_event,
        actor=actor,
        number=2,
        tables=[(entries[0].pk, entries[2].pk), (entries[1].pk, entries[3].pk)],
    )
    events.round_open(rnd=rnd2, actor=actor)
    with pytest.raises(ServiceError, match="Round 2 has been opened"):
        changes.round_reopen(rnd=_round(running_event, 1), actor=actor, reason="too late")
    with pytest.raises(ServiceError, match="Only a closed round"):
        changes.reopen_plan(rnd2)


def test_reopening_gives_new_codes_to_tables_whose_codes_another_open_round_uses(
    running_event, actor, organiser
):
    t1, t2 = _tables(running_event, 1)
    _close(running_event, 1, actor)
    # Meanwhile another event's open round was given t1's NS code (codes are only kept
    # unique among rounds in play).
    other = EventFactory(organisers=[organiser], status="running")
    a, b = (Entry.objects.create(event=other, pair=PairFactory(), number=n) for n in (1, 2))
    other_round = Round.objects.create(event=other, number=1, status="open")
    Table.objects.create(round=other_round, number=1, ns=a, ew=b, code_ns=t1.code_ns)
    old_codes = (t1.code_ns, t1.code_ew)
    plan = changes.round_reopen(rnd=_round(running_event, 1), actor=actor, reason="too early")
    assert plan.new_codes == [1]
    t1.refresh_from_db()
    t2_after = Table.objects.get(pk=t2.pk)
    assert t1.code_ns not in old_codes and t1.code_ew not in old_codes
    assert t1.codes_version == 2
    assert (t2_after.code_ns, t2_after.code_ew) == (t2.code_ns, t2.code_ew)


# --- un-opening a round ----------------------------------------------------------------------


def test_a_round_opened_by_mistake_goes_back_to_proposed(running_event, actor):
    t1, _t2 = _tables(running_event, 1)
    TableToken.objects.create(table=t1, side="NS", digest="x" * 64, codes_version=t1.codes_version)
    changes.round_unopen(rnd=_round(running_event, 1), actor=actor, reason="wrong pairing")
    rnd = _round(running_event, 1)
    assert (rnd.status, rnd.opened_at) == ("pending", None)
    assert not TableToken.objects.filter(table__round=rnd).exists()
    assert table_access.open_table_for_code(t1.code_ns)[0] is None
    audit = _last_audit(running_event)
    assert audit.action == "round_unopened" and audit.note.startswith("wrong pairing")
    # It can be changed and opened again.
    events.round_swap(
        rnd=rnd,
        actor=actor,
        entry_a=running_event.entries.get(number=1).pk,
        entry_b=running_event.entries.get(number=3).pk,
    )
    events.round_open(rnd=rnd, actor=actor)


def test_a_round_with_a_result_cannot_be_unopened(running_event, actor):
    t1, _t2 = _tables(running_event, 1)
    _enter(t1, 1, confirm=False)
    with pytest.raises(ServiceError, match="already stored a result"):
        changes.round_unopen(rnd=_round(running_event, 1), actor=actor, reason="x")
    assert _round(running_event, 1).status == "open"


def test_a_round_whose_board_a_table_has_seen_cannot_be_unopened(running_event, actor):
    t1, _t2 = _tables(running_event, 1)
    unlock_board(
        table=t1,
        board=running_event.boards.get(number=1),
        actor=Actor(table=t1, side="NS"),
        reason=BoardUnlock.Reason.DECLARED,
    )
    with pytest.raises(ServiceError, match="already played a board"):
        changes.round_unopen(rnd=_round(running_event, 1), actor=actor, reason="x")


# --- a pairing set by hand -------------------------------------------------------------------


def _propose_round_2(event, actor):
    entries = list(event.entries.order_by("number"))
    return events.round_propose(
        event=event,
        actor=actor,
        number=2,
        tables=[(entries[0].pk, entries[2].pk), (entries[1].pk, entries[3].pk)],
    )


def test_a_proposed_pairing_is_set_freely_with_warnings_first(running_event, actor):
    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    rnd = _propose_round_2(running_event, actor)
    ids = dict(running_event.entries.values_list("number", "pk"))
    # 1 v 2 again (they met in round 1), and 2 sits NS after NS in round 1? 1 was NS: 1 NS again.
    warnings = scoring_io.pairing_warnings(rnd, tables=[(ids[1], ids[2]), (ids[3], ids[4])])
    assert any("have already met" in w for w in warnings)
    changes.pairing_set(rnd=rnd, actor=actor, tables=[(2, 1), (4, 3)])
    got = [(t.ns.number, t.ew.number) for t in rnd.tables.order_by("number")]
    assert got == [(2, 1), (4, 3)]
    audit = _last_audit(running_event)
    assert audit.action == "round_pairing_set"
    assert audit.changes["tables"] == [[[1, 3], [2, 4]], [[2, 1], [4, 3]]]


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ([(1, 2), (3, 3)], "against itself"),
        ([(1, 2), (3, 9)], "No pair has the number 9"),
        ([(1, 2), (1, 3)], "appears twice"),
        ([(1, 2)], "Every active pair must play"),
    ],
)
def test_a_pairing_set_by_hand_still_seats_every_pair_once(running_event, actor, tables, message):
    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    rnd = _propose_round_2(running_event, actor)
    before = [(t.ns_id, t.ew_id) for t in rnd.tables.order_by("number")]
    with pytest.raises(ServiceError, match=message):
        changes.pairing_set(rnd=rnd, actor=actor, tables=tables)
    assert [(t.ns_id, t.ew_id) for t in rnd.tables.order_by("number")] == before


def test_an_open_rounds_pairing_cannot_be_set(running_event, actor):
    with pytest.raises(ServiceError, match="not open yet"):
        changes.pairing_set(rnd=_round(running_event, 1), actor=actor, tables=[(1, 2), (3, 4)])


# --- withdrawal from an open round and reinstatement -----------------------------------------


def test_a_pair_withdrawing_mid_round_forfeits_its_match_to_its_opponents(running_event, actor):
    t1, _t2 = _tables(running_event, 1)
    _enter(t1, 1, totals=(20, 52))  # EW (pair 2) was winning board 1
    pair1 = running_event.entries.get(number=1)
    plan = changes.entry_withdraw(entry=pair1, actor=actor, reason="Anna felt unwell")
    assert (plan.after_round, plan.forfeit.pk, plan.forfeit_side) == (1, t1.pk, "NS")
    t1.refresh_from_db()
    assert t1.forfeited_by == "NS"
    # Opponents: a win by the bye score; the withdrawn pair a loss by as much.
    won, lost = _standing(running_event, 2), _standing(running_event, 1)
    bye = running_event.bye_points
    assert (won.wins, won.match_points, won.points_for) == (1, 2.0, bye)
    assert (lost.losses, lost.points_against, lost.withdrawn) == (1, bye, True)
    # The board played before stays on the traveller, the table takes no more results.
    with pytest.raises(ServiceError, match="forfeited"):
        _enter(t1, 2)
    # The round closes without asking about the forfeited table's boards.
    assert [t.number for t, _b in selectors.round_missing(_round(running_event, 1))] == [2]
    audit = _last_audit(running_event)
    assert audit.action == "entry_withdrawn" and audit.note == "Anna felt unwell"
    assert audit.changes["forfeited_table"] == [None, 1]


def test_a_pair_that_finished_its_boards_withdraws_after_the_round_without_forfeit(
    running_event, actor
):
    t1, _t2 = _tables(running_event, 1)
    _enter(t1, 1)
    _enter(t1, 2)
    plan = changes.entry_withdraw(entry=running_event.entries.get(number=2), actor=actor)
    assert (plan.after_round, plan.forfeit) == (1, None)
    assert Table.objects.get(pk=t1.pk).forfeited_by == ""


def test_a_withdrawal_drops_a_proposal_that_includes_the_pair(running_event, actor):
    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    _propose_round_2(running_event, actor)
    plan = changes.entry_withdraw(entry=running_event.entries.get(number=3), actor=actor)
    assert (plan.after_round, plan.dropped) == (1, 2)
    assert not running_event.rounds.filter(number=2).exists()


def test_reinstating_takes_the_forfeit_back(running_event, actor):
    t1, _t2 = _tables(running_event, 1)
    pair1 = running_event.entries.get(number=1)
    changes.entry_withdraw(entry=pair1, actor=actor)
    plan = changes.entry_reinstate(entry=pair1, actor=actor, reason="withdrawn by mistake")
    assert plan.unforfeit.pk == t1.pk
    pair1.refresh_from_db()
    t1.refresh_from_db()
    assert (pair1.withdrawn_after_round, t1.forfeited_by) == (None, "")
    _enter(t1, 1)  # the table takes results again
    assert _last_audit(running_event).action == "result_confirmed"
    assert AuditEntry.objects.filter(event=running_event, action="entry_reinstated").exists()
    with pytest.raises(ServiceError, match="has not withdrawn"):
        changes.entry_reinstate(entry=pair1, actor=actor)


def test_reinstating_a_pair_whose_opponents_withdrew_since_moves_the_forfeit_to_them(
    running_event, actor, client, organiser
):
    t1, _t2 = _tables(running_event, 1)  # pair 1 NS v pair 2 EW
    pair1, pair2 = running_event.entries.get(number=1), running_event.entries.get(number=2)
    changes.entry_withdraw(entry=pair1, actor=actor)
    changes.entry_withdraw(entry=pair2, actor=actor)
    plan = changes.reinstate_plan(Entry.objects.get(pk=pair1.pk))
    assert (plan.unforfeit.pk, plan.forfeit_to) == (t1.pk, "EW")
    client.force_login(organiser)
    page = client.get(
        reverse("tournaments:entry_reinstate", args=[running_event.pk, pair1.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "they forfeit the match now" in page
    changes.entry_reinstate(entry=Entry.objects.get(pk=pair1.pk), actor=actor)
    t1.refresh_from_db()
    assert t1.forfeited_by == "EW"
    assert _last_audit(running_event).changes["forfeit_moved_to"] == [None, "EW"]
    events.round_close(rnd=running_event.rounds.get(number=1), actor=actor, accept_missing=True)
    assert _standing(running_event, 1).match_points == 2


def test_reinstating_the_opponents_of_a_pair_that_forfeited_keeps_that_forfeit(
    running_event, actor
):
    t1, _t2 = _tables(running_event, 1)  # pair 1 NS v pair 2 EW
    pair1, pair2 = running_event.entries.get(number=1), running_event.entries.get(number=2)
    changes.entry_withdraw(entry=pair1, actor=actor)  # table 1 forfeited by NS
    changes.entry_withdraw(entry=pair2, actor=actor)
    plan = changes.entry_reinstate(entry=Entry.objects.get(pk=pair2.pk), actor=actor)
    t1.refresh_from_db()
    assert (plan.unforfeit, t1.forfeited_by) == (None, "NS")


def test_a_pair_reinstated_later_is_paired_again(running_event, actor):
    _play_round(running_event, 1)
    _close(running_event, 1, actor)
    pair4 = running_event.entries.get(number=4)
    changes.entry_withdraw(entry=pair4, actor=actor)
    assert pair4.pk not in scoring_io.event_input(running_event).active(2)
    changes.entry_reinstate(entry=pair4, actor=actor)
    assert pair4.pk in scoring_io.event_input(running_event).active(2)


# --- substitution ----------------------------------------------------------------------------


def test_a_substitute_plays_on_in_the_pair_with_its_number_and_history(running_event, actor):
    entry = running_event.entries.select_related("pair__player1", "pair__player2").get(number=1)
    old_pair, out = entry.pair, entry.pair.player2
    sub = changes.player_substitute(
        entry=entry, actor=actor, seat=2, name="  Pere   Soler ", reason="train late"
    )
    entry.refresh_from_db()
    assert entry.number == 1 and entry.pair_id != old_pair.pk
    assert entry.pair.player1 == old_pair.player1 and entry.pair.player2.name == "Pere Soler"
    assert (sub.from_round, sub.player_out, sub.previous_pair) == (1, out, old_pair)
    assert list(entry.substitutions.all()) == [sub]
    audit = _last_audit(running_event)
    assert audit.action == "player_substituted"
    assert audit.changes["player"] == [out.name, "Pere Soler"]


def test_no_substitute_once_every_round_is_played(organiser, actor):
    """After the last round, a new player would join the pair (and its club's players) without
    playing a board: refused, nothing changed."""
    from tests.conftest import start_four_pairs

    event = start_four_pairs(organiser, rounds_count=1)
    entry = event.entries.select_related("pair").get(number=1)
    _close(event, 1, actor)
    with pytest.raises(ServiceError, match="Every round has been played") as refused:
        changes.player_substitute(entry=entry, actor=actor, seat=2, name="Pere Soler")
    assert refused.value.field == "round"
    entry.refresh_from_db()
    assert not entry.substitutions.exists() and entry.pair.player2.name != "Pere Soler"


def test_a_substitution_needs_a_new_name(running_event, actor):
    entry = running_event.entries.get(number=1)
    with pytest.raises(ServiceError, match="already in the pair"):
        changes.player_substitute(entry=entry, actor=actor, seat=1, name=entry.pair.player2.name)
    with pytest.raises(ServiceError, match="new player's name"):
        changes.player_substitute(entry=entry, actor=actor, seat=1, name="   ")


def test_a_substitute_named_as_the_partner_in_look_alike_characters_is_refused(
    running_event, actor
):
    """Flows audit, 2026-12-06: the substitution compared names by their capitals only, so the
    partner's name typed with a combining accent, a direction mark or a control character came
    in as a second player of the same visible name (and the control character was stored).
    Names go through normal_name, as every other name of the site."""
    entry = running_event.entries.get(number=1)
    partner = entry.pair.player2
    partner.name = "José Puig"
    partner.save(update_fields=["name"])
    for look_alike in ("Jose\u0301 Puig", "José Puig\u200f", "José\x07 Puig", "JOSÉ  puig"):
        with pytest.raises(ServiceError, match="already in the pair"):
            changes.player_substitute(entry=entry, actor=actor, seat=1, name=look_alike)
    sub = changes.player_substitute(entry=entry, actor=actor, seat=1, name="Pere\x07 Soler\u200f")
    assert sub.player_in.name == "Pere Soler"


def test_only_the_organisers_make_these_changes(running_event, referee):
    referee_actor = Actor(user=referee)
    entry = running_event.entries.get(number=1)
    for attempt in (
        lambda: changes.entry_withdraw(entry=entry, actor=referee_actor),
        lambda: changes.player_substitute(entry=entry, actor=referee_actor, seat=1, name="X"),
        lambda: changes.round_unopen(rnd=_round(running_event, 1), actor=referee_actor, reason="x"),
    ):
        with pytest.raises(ServiceError, match="Only the organisers"):
            attempt()


def test_a_round_unopened_after_a_reinstatement_pairs_the_pair_again(organiser, actor):
    """Pair 3 is reinstated while round 2, paired without it, is open with no result: that
    round is missed, until the organiser un-opens it to pair it again (organisers.md)."""
    from tests.conftest import start_four_pairs
    from tournaments.services.pairings import pairings_propose

    event = start_four_pairs(organiser, rounds_count=3)
    _close(event, 1, actor)
    changes.entry_withdraw(entry=event.entries.get(number=3), actor=actor)
    pairings_propose(event.pk, 2, actor=actor)
    events.round_open(rnd=_round(event, 2), actor=actor)
    changes.entry_reinstate(entry=event.entries.get(number=3), actor=actor)
    back = event.entries.get(number=3)
    assert back.missed_rounds == [2]
    changes.round_unopen(rnd=_round(event, 2), actor=actor, reason="pair 3 is back")
    back.refresh_from_db()
    assert back.missed_rounds == []
    assert _last_audit(event).changes["missed_round_taken_back"] == [[3], None]
    pairings_propose(event.pk, 2, actor=actor)
    seated = {p for t in _tables(event, 2) for p in (t.ns_id, t.ew_id)}
    assert back.pk in seated
