"""The pairing methods through the product: an event chooses round robin, groups then knockout,
or an accelerated Swiss with prohibited pairings, and every round is proposed, opened, played
and closed through the services (tournaments/services/pairings.py → scoring.methods)."""

import random
from collections import Counter
from itertools import combinations

import pytest
from django.utils import translation

from scoring.methods import next_pairing
from scoring.pairing import initial_order
from tests.factories import ClubFactory, PairFactory
from tournaments import selectors
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import Entry, Event, ForbiddenPair, Round, StandingsSnapshot
from tournaments.scoring_io import event_input
from tournaments.services import ServiceError, changes, events, pairing_rules
from tournaments.services.pairings import pairings_propose
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def actor(organiser):
    return Actor(user=organiser)


def running(actor, n, seed=None, **options):
    """An event with ``n`` pairs, started (boards dealt), under ``options``; ``seed``: the
    event's (its lot and its deals), else a new random one."""
    options = {"match_mode": "game", "boards_per_round": 4, "game_target": 51} | options
    event = events.event_create(actor=actor, name="Torneig", **options)
    if seed is not None:
        event.seed = seed
        event.save()
    events.registration_open(event=event, actor=actor)
    for i in range(n):
        events.entry_register(event=event, actor=actor, player1=f"A{i}", player2=f"B{i}")
    event = events.event_start(event=event, actor=actor)
    events.boards_generate(event=event)
    return Event.objects.get(pk=event.pk)


def play(event, actor, number, rng):
    """Propose, open, play (every table enters and confirms) and close round ``number``."""
    pairings_propose(event.pk, number, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=number), actor=actor)
    play_round(rnd, rng)
    events.round_close(rnd=rnd, actor=actor)
    standings_recompute(event.pk)
    return Round.objects.get(pk=rnd.pk)


def seats(rnd):
    return [(t.ns_id, t.ew_id) for t in rnd.tables.order_by("number")]


def assert_rederived(event):
    """Every stored round is what the pure pairing derives from the rounds before it, as the
    independent checker would: tables in order (NS first), the bye and the rests."""
    rounds = list(event.rounds.order_by("number"))
    for i, rnd in enumerate(rounds):
        derived = next_pairing(event_input(event, rounds=rounds[:i]))
        assert seats(rnd) == derived.tables, rnd.number
        assert rnd.bye_id == derived.bye, rnd.number
        assert sorted(rnd.rests.values_list("pk", flat=True)) == sorted(derived.rests)


# --- round robin --------------------------------------------------------------------------------


def test_round_robin_of_an_odd_field_meets_everybody_once_with_one_rest_a_round(actor):
    event = running(actor, 5, format=Event.Format.ROUND_ROBIN)
    assert event.rounds_count == 5  # 5 pairs: 5 rounds, one pair resting in each
    rng = random.Random(1)
    met, rests, ns, ew = Counter(), Counter(), Counter(), Counter()
    for number in range(1, 6):
        rnd = play(event, actor, number, rng)
        assert rnd.bye_id is None
        resting = list(rnd.rests.values_list("pk", flat=True))
        assert len(resting) == 1 and len(seats(rnd)) == 2
        rests.update(resting)
        for a, b in seats(rnd):
            met[frozenset((a, b))] += 1
            ns[a] += 1
            ew[b] += 1
    entries = list(event.entries.values_list("pk", flat=True))
    assert set(met) == {frozenset(p) for p in combinations(entries, 2)}
    assert set(met.values()) == {1}
    assert rests == Counter(entries)
    assert all(abs(ns[e] - ew[e]) <= 1 for e in entries)
    assert_rederived(event)
    with pytest.raises(ServiceError, match="This event has 5 rounds"):
        pairings_propose(event.pk, 6, actor=actor)
    # The stored rests count in the standings (a rest scores nothing).
    rows = StandingsSnapshot.objects.get(event=event, after_round=5).rows
    assert {r["entry"]: r["rests"] for r in rows} == dict.fromkeys(entries, 1)
    assert sum(r["match_points"] for r in rows) == 2 * 10  # ten games, two points each


def test_round_robin_over_fewer_rounds_than_the_field_needs(actor):
    event = running(actor, 6, format=Event.Format.ROUND_ROBIN, round_robin="rounds", rounds_count=3)
    assert event.rounds_count == 3
    rng = random.Random(2)
    for number in (1, 2, 3):
        assert len(seats(play(event, actor, number, rng))) == 3


def test_a_round_robin_round_is_the_pure_schedule(actor):
    event = running(actor, 4, format=Event.Format.ROUND_ROBIN, round_robin="double")
    assert event.rounds_count == 6
    pairings_propose(event.pk, 1, actor=actor)
    expected = next_pairing(event_input(event, rounds=[]))
    assert seats(event.rounds.get(number=1)) == expected.tables


def test_a_round_robin_with_more_rounds_than_the_field_is_refused_at_the_start(actor):
    event = events.event_create(
        actor=actor, name="X", format="roundrobin", round_robin="rounds", rounds_count=9
    )
    events.registration_open(event=event, actor=actor)
    for i in range(4):
        events.entry_register(event=event, actor=actor, player1=f"A{i}", player2=f"B{i}")
    with pytest.raises(ServiceError, match="has 3 rounds at most, not 9"):
        events.event_start(event=event, actor=actor)
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "5 competitors in groups of 2 would leave one alone in a group"),
        ("ca", "5 competidors en grups de 2"),
        ("es", "5 competidores en grupos de 2"),
    ],
)
def test_groups_that_leave_a_pair_alone_are_refused_in_the_organisers_language(
    actor, language, words
):
    event = events.event_create(actor=actor, name="X", format="groups", group_size=2)
    events.registration_open(event=event, actor=actor)
    for i in range(5):
        events.entry_register(event=event, actor=actor, player1=f"A{i}", player2=f"B{i}")
    with translation.override(language), pytest.raises(ServiceError) as refused:
        events.event_start(event=event, actor=actor)
    assert words in refused.value.message and refused.value.field == "format"
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION


# --- groups then knockout -------------------------------------------------------------------------


def test_groups_then_knockout_to_the_final(actor):
    # 8 pairs in groups of 4: 3 group rounds; the two winners and a repesca of the best two
    # others play semi-finals and a final.
    event = running(
        actor,
        8,
        format=Event.Format.GROUPS,
        group_size=4,
        qualifiers=1,
        repesca=2,
    )
    assert event.rounds_count == 3 + 2
    rng = random.Random(3)
    for number in (1, 2, 3):
        rnd = play(event, actor, number, rng)
        assert len(seats(rnd)) == 4
    stage = StandingsSnapshot.objects.get(event=event, after_round=3).stage
    assert stage["groups_done"] and len(stage["groups"]) == 2
    groups = [{row["entry"] for row in g} for g in stage["groups"]]
    winners = [g[0]["entry"] for g in stage["groups"]]
    assert all(g[0]["qualified"] for g in stage["groups"])
    repesca = [r["entry"] for r in stage["repesca"] if r["taken"]]
    assert len(repesca) == 2 and stage["repesca_places"] == 2
    semis = stage["bracket"][0]
    assert {m["top"] for m in semis} == set(winners)  # group winners are the top seeds
    # The bracket splits pairs of the same group whenever it can: it cannot when both repesca
    # pairs come from one group (the event's seed decides the boards, so the groups' results).
    avoidable = len({i for r in repesca for i, g in enumerate(groups) if r in g}) == 2
    for m in semis:
        assert not avoidable or not any({m["top"], m["bottom"]} <= g for g in groups)

    semi = play(event, actor, 4, rng)
    assert {frozenset(t) for t in seats(semi)} == {
        frozenset((m["top"], m["bottom"])) for m in semis
    }
    final = play(event, actor, 5, rng)
    stage = StandingsSnapshot.objects.get(event=event, after_round=5).stage
    winners_of_semis = {m["winner"] for m in stage["bracket"][0]}
    assert set(seats(final)[0]) == winners_of_semis
    assert stage["bracket"][1][0]["winner"] in winners_of_semis
    assert stage["bracket"][1][0]["score"] is not None
    # Knocked-out pairs are neither seated nor resting in the knockout.
    assert not final.rests.exists() and final.bye_id is None
    assert_rederived(event)
    with pytest.raises(ServiceError, match="This event has 5 rounds"):
        pairings_propose(event.pk, 6, actor=actor)


def test_the_stage_never_shows_an_open_rounds_matches(actor):
    event = running(actor, 4, format=Event.Format.GROUPS, group_size=4)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = events.round_open(rnd=event.rounds.get(number=1), actor=actor)
    play_round(rnd, random.Random(4))
    standings_recompute(event.pk)
    stage = StandingsSnapshot.objects.get(event=event, after_round=1).stage
    assert all(row["games"] == 0 for g in stage["groups"] for row in g)


# --- Swiss options --------------------------------------------------------------------------------


def test_swiss_keeps_named_pairs_and_clubs_apart(actor):
    event = running(actor, 8, format=Event.Format.SWISS, rounds_count=3, club_rounds=1)
    entries = list(event.entries.order_by("number"))
    club = ClubFactory()
    # Two clubs of four: in round 1 nobody meets a clubmate.
    for i, e in enumerate(entries):
        e.pair.club = club if i % 2 else ClubFactory(name=f"Penya {i}")
        e.pair.save()
    clubmates = [e.pk for e in entries if e.pair.club_id == club.pk]
    pairing_rules.forbidden_add(event=event, actor=actor, a=entries[0].pk, b=entries[2].pk)
    rng = random.Random(5)
    for number in (1, 2, 3):
        rnd = play(event, actor, number, rng)
        for a, b in seats(rnd):
            assert {a, b} != {entries[0].pk, entries[2].pk}
            if number == 1:
                assert not {a, b} <= set(clubmates)
    assert_rederived(Event.objects.get(pk=event.pk))


# A seed whose round 1 has no drawn match (the lot and the deals come from it).
SEED = "accelerated-0"


def test_accelerated_swiss_pairs_the_top_half_on_virtual_points(actor):
    # 8 pairs, 5 rounds: group A is the first 4 of the lot; rounds 1-2 give them 2 virtual
    # match points. After round 1 (A v A, B v B), A's winners (2 + 2) meet each other, B's
    # losers (0) each other, and A's losers (0 + 2) and B's winners (2 + 0) are paired together.
    event = running(
        actor, 8, seed=SEED, format=Event.Format.SWISS, rounds_count=5, accelerated=True
    )
    order = initial_order(event_input(event, rounds=[]))
    group_a = set(order[:4])
    rnd = play(event, actor, 1, random.Random(6))
    rows = StandingsSnapshot.objects.get(event=event, after_round=1).rows
    mp = {r["entry"]: r["match_points"] for r in rows}
    assert sorted(mp.values()) == [0, 0, 0, 0, 2, 2, 2, 2]  # no draw with this seed
    assert {frozenset(t) for t in seats(rnd)} == {
        frozenset(order[i : i + 2]) for i in range(0, 8, 2)
    }
    pairings_propose(event.pk, 2, actor=actor)
    tables = {frozenset(t) for t in seats(event.rounds.get(number=2))}
    a_winners = frozenset(e for e in group_a if mp[e] == 2)
    assert a_winners in tables
    b_losers = frozenset(e for e in order[4:] if mp[e] == 0)
    assert b_losers in tables
    # A's losers and B's winners (2 each, virtual or real) are paired among themselves.
    middle = {e for e in group_a if mp[e] == 0} | {e for e in order[4:] if mp[e] == 2}
    assert all(t <= middle for t in tables - {a_winners, b_losers})
    # Virtual points never reach the standings.
    assert sum(mp.values()) == 8


def test_forbidden_pairs_are_added_once_removed_and_audited(actor, organiser):
    event = running(actor, 4, format=Event.Format.SWISS)
    a, b = event.entries.order_by("number").values_list("pk", flat=True)[:2]
    pair = pairing_rules.forbidden_add(event=event, actor=actor, a=b, b=a)
    assert (pair.low_id, pair.high_id) == (a, b)
    with pytest.raises(ServiceError, match="already"):
        pairing_rules.forbidden_add(event=event, actor=actor, a=a, b=b)
    with pytest.raises(ServiceError, match="two different pairs"):
        pairing_rules.forbidden_add(event=event, actor=actor, a=a, b=a)
    other = Entry.objects.create(event=running(actor, 2), pair=PairFactory(), number=9)
    with pytest.raises(ServiceError, match="not a pair of this event"):
        pairing_rules.forbidden_add(event=event, actor=actor, a=a, b=other.pk)
    pairing_rules.forbidden_remove(pair=pair, actor=actor)
    assert not ForbiddenPair.objects.filter(event=event).exists()
    actions = list(event.audit.values_list("action", flat=True))
    assert "forbidden_pair_added" in actions and "forbidden_pair_removed" in actions
    # Once finished, the prohibitions the rounds were paired with stay as they are.
    kept = pairing_rules.forbidden_add(event=event, actor=actor, a=a, b=b)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(ServiceError, match="prohibited pairings"):
        pairing_rules.forbidden_remove(pair=ForbiddenPair.objects.get(pk=kept.pk), actor=actor)
    assert ForbiddenPair.objects.filter(pk=kept.pk).exists()


def test_seeding_by_rating_orders_round_one(actor):
    event = running(actor, 4, format=Event.Format.ROUND_ROBIN, seeding="rating")
    entries = list(event.entries.order_by("number"))
    # Ratings are set before the start; here straight on the rows of a running event.
    for e, rating in zip(entries, (1200, 1800, 1500, 1000), strict=True):
        Entry.objects.filter(pk=e.pk).update(rating=rating)
    pairings_propose(event.pk, 1, actor=actor)
    # Berger round 1 of 4 seats 1 v 4 and 2 v 3 in seeding order (1800, 1500, 1200, 1000).
    order = [entries[1].pk, entries[2].pk, entries[0].pk, entries[3].pk]
    assert seats(event.rounds.get(number=1)) == [(order[0], order[3]), (order[1], order[2])]


# --- the demo ------------------------------------------------------------------------------------


def test_the_demo_has_a_round_robin_evening_and_a_groups_event_in_progress(settings):
    from tournaments.demo import build_demo

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    report = build_demo()
    rr, groups = report.round_robin, report.groups
    assert rr.format == Event.Format.ROUND_ROBIN and rr.rounds_count == 5
    assert [r.status for r in rr.rounds.order_by("number")] == ["closed", "closed", "pending"]
    assert rr.rounds.get(number=3).rests.count() == 1
    assert groups.format == Event.Format.GROUPS and groups.rounds_count == 5
    assert groups.rounds.get(number=4).status == Round.Status.OPEN
    stage = StandingsSnapshot.objects.get(event=groups, after_round=3).stage
    assert stage["groups_done"] and len(stage["bracket"][0]) == 2
    # Built once: a second run changes nothing.
    again = build_demo()
    assert (again.round_robin, again.groups) == (rr, groups)


def test_a_round_robin_pairing_set_by_hand_rests_whoever_is_left_without_a_table(actor):
    from tournaments.services import changes

    event = running(actor, 5, format=Event.Format.ROUND_ROBIN)
    pairings_propose(event.pk, 1, actor=actor)
    rnd = event.rounds.get(number=1)
    resting = rnd.rests.get()
    seated = [(t.ns, t.ew) for t in rnd.tables.select_related("ns", "ew").order_by("number")]
    # The resting pair takes table 1's EW seat; table 1's EW pair rests instead.
    (ns1, ew1), (ns2, ew2) = seated
    changes.pairing_set(
        rnd=rnd,
        actor=actor,
        tables=[(ns1.number, resting.number), (ns2.number, ew2.number)],
    )
    assert list(rnd.rests.all()) == [ew1]
    assert event.audit.filter(action="round_pairing_set").exists()


def _groups_played(actor, rng):
    """12 pairs in 3 groups of 4, the best 2 of each: 6 qualifiers in a bracket of 8; the
    group rounds played. The event and the bracket's first round."""
    event = running(
        actor,
        12,
        format=Event.Format.GROUPS,
        group_size=4,
        qualifiers=2,
        repesca=0,
        boards_per_round=2,
    )
    assert event.rounds_count == 3 + 3
    for number in (1, 2, 3):
        assert len(seats(play(event, actor, number, rng))) == 6
    return event, StandingsSnapshot.objects.get(event=event, after_round=3).stage["bracket"][0]


def test_a_knockout_with_byes_for_the_top_seeds(actor):
    # The two group winners seeded first go straight to the semi-finals (they rest in round 4).
    rng = random.Random(12)
    event, first = _groups_played(actor, rng)
    byes = [m["top"] for m in first if m["bottom"] is None]
    assert len(first) == 4 and len(byes) == 2
    quarter = play(event, actor, 4, rng)
    assert len(seats(quarter)) == 2
    assert sorted(quarter.rests.values_list("pk", flat=True)) == sorted(byes)
    semi = play(event, actor, 5, rng)
    assert {e for t in seats(semi) for e in t} >= set(byes)
    play(event, actor, 6, rng)
    assert_rederived(event)
    stage = StandingsSnapshot.objects.get(event=event, after_round=6).stage
    assert stage["bracket"][-1][0]["winner"] is not None


def test_a_knockout_bye_whose_holder_withdrew_leaves_its_place_empty(actor):
    # As above, but a group winner with a bye withdraws before the knockout: the quarter-finals
    # are proposed without it (it used to be put to rest, a pair not playing, and the round
    # could not be paired at all), and its semi-final opponent goes straight through.
    rng = random.Random(12)
    event, first = _groups_played(actor, rng)
    gone, stays = [m["top"] for m in first if m["bottom"] is None]
    changes.entry_withdraw(entry=Entry.objects.get(pk=gone), actor=actor)
    quarter = play(event, actor, 4, rng)
    assert len(seats(quarter)) == 2
    assert list(quarter.rests.values_list("pk", flat=True)) == [stays]
    semi = play(event, actor, 5, rng)
    assert gone not in {e for t in seats(semi) for e in t}
    assert len(seats(semi)) == 1 and semi.rests.count() == 1  # the withdrawn's opponent
    play(event, actor, 6, rng)
    assert_rederived(event)


def test_a_level_knockout_game_plays_its_tie_break_deals_when_draws_stand_elsewhere(actor):
    """docs/scoring.md §7.6: a knockout game needs a winner, so a level game goes to tie-break
    deals also when the event's draw rule is "half a win": the table owes and may enter them,
    and whoever wins them goes through, not the better seed."""
    from tests.tournaments.test_match_limits_clock import _enter

    event = running(
        actor,
        4,
        format=Event.Format.GROUPS,
        group_size=2,
        qualifiers=1,
        repesca=0,
        game_target=None,
        deal_limit=2,
        draw="half",
        tiebreak_deals=2,
    )
    play(event, actor, 1, random.Random(5))
    pairings_propose(event.pk, 2, actor=actor)
    final = events.round_open(rnd=event.rounds.get(number=2), actor=actor)
    table = final.tables.select_related("round__event").get(number=1)
    b = final.board_numbers
    _enter(table, b[0], 40)  # NS (the better seed) 4
    _enter(table, b[1], 32)  # EW 4: level after the regular deals
    owed = {t.number: boards for t, boards in selectors.round_missing(final)}
    assert owed == {1: [b[2], b[3]]}
    _enter(table, b[2], 30)  # EW 6
    _enter(table, b[3], 36)  # nothing: EW ahead after both tie-break deals
    events.round_close(rnd=Round.objects.get(pk=final.pk), actor=actor)
    standings_recompute(event.pk)
    stage = StandingsSnapshot.objects.get(event=event, after_round=2).stage
    assert stage["bracket"][-1][0]["winner"] == table.ew_id
    assert stage["bracket"][-1][0]["score"] == [4, 10]
