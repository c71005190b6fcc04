"""Replay of play records: invalid records (R10), events (R11), steps and legal cards."""

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from engine import (
    Deal,
    Hand,
    IllegalPlay,
    InvalidRecord,
    NextPlay,
    Outcome,
    Problem,
    ProblemCode,
    Rule,
    Rules,
    Seat,
    card_token,
    deal_board,
    legal_for_record,
    next_play,
    parse_token,
    replay,
    replay_steps,
)
from engine.problems import MAX_PROBLEMS
from engine.record import canonical, dumps, loads, make_record

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data["record"]


def paths(record: Any, **kwargs: Any) -> list[str]:
    verdict = replay(record, **kwargs)
    assert verdict.outcome == "invalid"
    return [p.path for p in verdict.problems]


def played_record(
    seed: str, board: int, trump: str, ruleset: str = "lliure"
) -> tuple[Deal, dict[str, Any]]:
    deal = deal_board(seed, board)
    hand = Hand(deal, trump, Rules(ruleset))
    while not hand.is_over:
        hand.play(hand.legal_cards()[0])
    record = make_record(
        dealer=deal.dealer.name,
        hands=deal.hands_json(),
        trump=trump,
        play=[card_token(c) for c in hand.played],
        ruleset=ruleset,
    )
    return deal, record


@pytest.mark.parametrize("bad", [None, [], "text", 3])
def test_non_object_record_is_invalid_not_an_exception_r10(bad: Any) -> None:
    """R10: a record that cannot be a real hand is invalid; replay never raises."""
    assert paths(bad) == [""]


def test_unknown_card_token_in_play_r10() -> None:
    """R10: unknown card token."""
    record = example("00000-complete.json")
    record["play"][17] = "13b"
    record["play"][20] = 7
    assert paths(record) == ["play[17]", "play[20]"]


def test_card_not_in_players_hand_r10() -> None:
    """R10: a card not in that player's hand (path play[i])."""
    record = example("00000-complete.json")
    record["play"][1], record["play"][2] = record["play"][2], record["play"][1]
    verdict = replay(record)
    assert verdict.outcome == "invalid"
    assert verdict.problems[0].path == "play[1]" and "hand" in verdict.problems[0].message


def test_card_played_twice_r10() -> None:
    """R10: a card played twice."""
    record = example("00000-complete.json")
    record["play"][4] = record["play"][0]
    verdict = replay(record)
    assert [p.path for p in verdict.problems] == ["play[4]"]
    assert "already played" in verdict.problems[0].message


def test_more_than_48_cards_r10() -> None:
    """R10: more than 48 cards."""
    record = example("00000-complete.json")
    record["play"].append("1o")
    assert "play" in paths(record)


def test_a_play_of_200000_cards_is_one_problem_before_any_replay_r10() -> None:
    """R10: a hand has 48 cards; a longer play is refused as a whole, entries unread (the 12 MB
    answer of issue 13 came from one problem per entry)."""
    record = example("00000-complete.json")
    record["play"] = ["1o", 7, "??"] * 66_667
    verdict = replay(record)
    assert [p.to_json() for p in verdict.problems] == [
        {"path": "play", "message": "the play holds 200001 cards; a hand has 48 (R10)"}
    ]


def test_a_hand_of_more_than_12_cards_is_one_problem_r3() -> None:
    """R3: a hand has 12 cards; a larger one is one problem, its cards not examined (so no
    "dealt twice" per card, and no "missing cards" for the cards it may hold)."""
    record = example("00000-complete.json")
    record["deal"]["hands"]["N"] = record["deal"]["hands"]["N"] * 10_000
    verdict = replay(record)
    assert [p.to_json() for p in verdict.problems] == [
        {"path": "deal.hands.N", "message": "N holds 120000 cards; a hand has 12 (R3)"}
    ]


def test_every_problem_of_a_record_is_listed_r10() -> None:
    """R10 lists every problem: 12 bad cards of N, the 12 cards so missing from the deal (one
    problem) and 48 bad cards in the play make 61, all listed in order."""
    record = example("00000-complete.json")
    record["deal"]["hands"]["N"] = [f"x{i}" for i in range(12)]
    record["play"] = [f"y{i}" for i in range(48)]
    verdict = replay(record)
    problems = [p.to_json() for p in verdict.problems]
    assert len(problems) == 61
    assert problems[0]["path"] == "deal.hands.N[0]"
    assert [p["path"] for p in problems[11:14]] == ["deal.hands.N[11]", "deal.hands", "play[0]"]
    assert problems[-1]["path"] == "play[47]"
    # the verdict keeps the format of play-record.md: every problem a path and a sentence
    assert all(set(p) == {"path", "message"} for p in verdict.to_json()["problems"])


def overflowing() -> dict:
    """A record of more problems than MAX_PROBLEMS: four hands of 48 bad tokens (four sizes
    wrong), 48 bad cards played and ten keys that are not seats."""
    record = example("00000-complete.json")
    record["deal"]["hands"] = {seat: [f"x{i}" for i in range(48)] for seat in "NESW"}
    record["deal"]["hands"].update({f"Q{i}": [] for i in range(10)})
    record["play"] = [f"y{i}" for i in range(48)]
    return record


def test_past_max_problems_the_last_says_how_many_more_r10() -> None:
    verdict = replay(overflowing())
    problems = [p.to_json() for p in verdict.problems]
    found = 4 * 48 + 4 + 10 + 1 + 48  # tokens, sizes, seats, missing cards, played tokens
    assert found > MAX_PROBLEMS and len(problems) == MAX_PROBLEMS
    assert problems[0]["path"] == "deal.hands.N[0]"
    assert problems[-1] == {
        "path": "",
        "message": f"{found - MAX_PROBLEMS + 1} more problems were found and are not listed",
    }


def test_invalid_record_exception_lists_at_most_max_problems() -> None:
    with pytest.raises(InvalidRecord) as caught:
        replay_steps(overflowing())
    assert len(caught.value.problems) == MAX_PROBLEMS
    assert "more problems" in caught.value.problems[-1].message


def test_a_quoted_value_is_cut_to_100_characters_r1() -> None:
    """R1: an unknown token is named in the problem, but a 2 MB token is not echoed whole."""
    record = example("00000-complete.json")
    record["play"][0] = "z" * 2_000_000
    record["choice"]["trump"] = ["x" * 10_000] * 1000
    record["format"] = "f" * 5000
    verdict = replay(record)
    assert {p.path for p in verdict.problems} >= {"play[0]", "choice.trump", "format"}
    for problem in verdict.problems:
        assert len(problem.message) < 300, problem
    card = next(p for p in verdict.problems if p.path == "play[0]")
    assert card.message.startswith('"' + "z" * 99 + '…"')


def test_fewer_than_48_without_illegal_play_r10() -> None:
    """R10: fewer than 48 cards without an illegal play is invalid."""
    record = example("00000-complete.json")
    del record["play"][40:]
    assert paths(record) == ["play"]


def test_cards_after_the_illegal_play_are_not_replayed_r10() -> None:
    """R10: cards recorded after the illegal play are ignored."""
    record = example("00011-illegal.json")
    expected = replay(record).to_json()
    record["play"] += ["9o", "9o", "1o"]
    assert replay(record).to_json() == expected


def test_bad_hands_listed_with_paths_r10() -> None:
    """R10: hands that are not 12 distinct cards each, every problem listed."""
    record = example("00000-complete.json")
    record["deal"]["hands"]["N"][3] = "99o"
    record["deal"]["hands"]["E"].pop()
    got = paths(record)
    assert got[:2] == ["deal.hands.N[3]", "deal.hands.E"]
    assert "deal.hands" in got


def test_every_header_problem_in_order_r4_r5_r11() -> None:
    """R4, R5, R11: ruleset, dealer, trump, call problems all reported, in record order."""
    record = example("00000-complete.json")
    record["format"] = "other/2"
    record["ruleset"] = "free"
    record["deal"]["dealer"] = "Q"
    record["choice"] = {"delegated": "no", "trump": "oros"}
    record["doubles"] = [{"seat": "E", "call": "recontro"}]
    assert paths(record) == [
        "format",
        "ruleset",
        "deal.dealer",
        "choice.delegated",
        "doubles[0].call",
    ]


def test_missing_required_keys_r10() -> None:
    """R10 / play-record.md: format, deal, choice, play are required."""
    assert paths({}) == ["format", "deal", "choice", "play"]


def test_sant_vicenc_in_botifarra_under_lliure_is_invalid_r11() -> None:
    """R11: lliure: Sant Vicenç in botifarra is an invalid doubling sequence."""
    _, record = played_record("sv", 1, "botifarra")
    record["doubles"] = [
        {"seat": "E", "call": "contro"},
        {"seat": "N", "call": "recontro"},
        {"seat": "W", "call": "sant_vicenc"},
    ]
    assert paths(record) == ["doubles[2].call"]
    verdict = replay(record, rules=Rules("lliure", sant_vicenc_in_botifarra=True))
    assert verdict.outcome == "complete" and verdict.multiplier == 16


def test_event_deal_hands_may_be_omitted_and_must_match_r3() -> None:
    """R3 / play-record.md: with the event's board, hands may be omitted; present, they must
    equal the seeded deal, and the dealer must be the board's."""
    deal, record = played_record("event", 6, "espases")
    assert replay(record, deal=deal).outcome == "complete"
    del record["deal"]["hands"]
    assert replay(record, deal=deal).outcome == "complete"
    assert paths(record) == ["deal.hands"]  # outside an event the hands are required
    other = deal_board("event", 7)
    record["deal"]["dealer"] = deal.dealer.name
    assert paths(record, deal=other) == ["deal.dealer"]
    _, with_hands = played_record("event", 6, "espases")
    with_hands["deal"]["dealer"] = other.dealer.name
    assert "deal.hands.N" in paths(with_hands, deal=other)


def test_event_ruleset_must_match_record_r11() -> None:
    """R11: a record ruleset differing from the event's is a problem at ``ruleset``."""
    _, record = played_record("rs", 2, "oros", "lliure")
    assert paths(record, rules=Rules("obligada")) == ["ruleset"]
    del record["ruleset"]  # absent: the event's rules apply
    assert replay(record, rules=Rules("lliure")).outcome == "complete"


def test_capot_is_flagged_r9() -> None:
    """R9: all 12 tricks to one pair is flagged, scoring 36 × multiplier."""
    hands = {s: sum(1 << c for c in range(12 * s, 12 * s + 12)) for s in range(4)}
    # N holds all oros (trumps), leads every trick: NS win all 12 tricks.
    deal = Deal(0, Seat.E, {Seat(s): m for s, m in hands.items()})
    hand = Hand(deal, "oros")
    while not hand.is_over:
        hand.play(hand.legal_cards()[0])
    record = make_record(
        dealer="E", hands=deal.hands_json(), trump="oros", play=[card_token(c) for c in hand.played]
    )
    verdict = replay(record).to_json()
    assert verdict["capot"] is True and verdict["tricks"] == {"NS": 12, "EW": 0}
    assert verdict["totals"] == {"NS": 72, "EW": 0} and verdict["score"] == {"NS": 36, "EW": 0}


def test_replay_steps_follow_the_hand_and_stop_at_the_illegal_card_r6_r10() -> None:
    """R6, R10: the referee's trick-by-trick view."""
    record = example("00010-illegal.json")
    steps = replay_steps(record)
    assert len(steps) == 34
    last = steps[-1]
    assert (last.trick, last.position, last.seat, card_token(last.card), last.rule) == (
        9, 2, Seat.E, "7e", "lowest_card",
    )  # fmt: skip
    assert [card_token(c) for c in last.legal] == ["8o", "6e"]
    winners = [s.winner for s in steps if s.winner is not None]
    assert len(winners) == 8 and steps[3].winner is not None
    complete = replay(example("00000-complete.json")).to_json()
    steps = replay_steps(example("00000-complete.json"))
    assert [s.winner.name for s in steps if s.winner is not None] == complete["trick_winners"]
    assert steps[-1].totals == complete["totals"]
    assert steps[0].to_json()["seat"] == "W"  # dealer N: W leads
    with pytest.raises(InvalidRecord):
        replay_steps({"format": "botifarra-play/1"})


def test_legal_for_record_gives_the_next_seat_and_cards_r7() -> None:
    """R7: the legal cards of the next player of a partial record."""
    record = example("00000-complete.json")
    record["play"] = record["play"][:5]
    result = legal_for_record(record)
    assert set(result) == {"seat", "legal"} and result["seat"] in "NESW"
    for too_much in [example("00000-complete.json"), example("00010-illegal.json"), {"x": 1}]:
        with pytest.raises(InvalidRecord):
            legal_for_record(too_much)


def test_next_play_is_typed_and_legal_for_record_is_its_json_r7() -> None:
    """R7: the next seat as a Seat and the legal cards as ints; the JSON form is the CLI's."""
    record = example("00000-complete.json")
    record["play"] = record["play"][:5]
    nxt = next_play(record)
    assert isinstance(nxt, NextPlay) and isinstance(nxt.seat, Seat)
    assert all(isinstance(c, int) for c in nxt.legal) and nxt.legal
    assert legal_for_record(record) == nxt.to_json()
    assert nxt.legal_tokens == tuple(card_token(c) for c in nxt.legal)
    # R6: the winner of trick 1 led the fifth card, so the sixth is played by the seat on the
    # winner's right (R2).
    assert nxt.seat == replay_steps(record)[3].winner.right  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("00000-complete.json", ProblemCode.HAND_COMPLETE),
        ("00010-illegal.json", ProblemCode.ILLEGAL_CARD),
    ],
)
def test_next_play_says_why_there_is_no_next_card_r10(name: str, code: ProblemCode) -> None:
    """R10: a complete hand or an illegal card leaves no next card to play."""
    with pytest.raises(InvalidRecord) as caught:
        next_play(example(name))
    assert [p.code for p in caught.value.problems] == [code]


def test_rules_carry_the_sections_play_record_md_cites_r7_r8() -> None:
    """play-record.md: follow_suit and must_beat are R7.2, must_trump and must_overtrump R7.3,
    lowest_card is removed by R8; listed in the order a card's obligations are read."""
    assert [(r.value, r.section) for r in Rule] == [
        ("follow_suit", "R7.2"),
        ("must_beat", "R7.2"),
        ("must_trump", "R7.3"),
        ("must_overtrump", "R7.3"),
        ("lowest_card", "R8"),
    ]
    assert all(r.sentence.endswith(".") for r in Rule)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*-illegal.json")))
def test_an_illegal_verdict_is_read_typed_without_to_json_r10(name: str) -> None:
    """R10: every field a caller needs is a typed value; only to_json() writes plain strings."""
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    expected = data["verdict"]
    verdict = replay(data["record"])
    assert verdict.outcome is Outcome.ILLEGAL
    assert verdict.rule is Rule(expected["rule"]) and verdict.seat is Seat[expected["seat"]]
    assert isinstance(verdict.card, int) and verdict.card_token == expected["card"]
    assert verdict.legal_tokens == tuple(expected["legal"])
    assert verdict.offending_pair == Seat[expected["seat"]].pair
    out = verdict.to_json()
    assert type(out["rule"]) is str and type(out["outcome"]) is str


def test_complete_and_invalid_verdicts_are_typed() -> None:
    complete = replay(example("00000-complete.json"))
    assert complete.outcome is Outcome.COMPLETE and complete.rule is None
    assert all(isinstance(s, Seat) for s in complete.trick_winners)
    invalid = replay(example("00003-invalid.json"))
    assert invalid.outcome is Outcome.INVALID and invalid.problems
    assert all(isinstance(p, Problem) and isinstance(p.code, ProblemCode) for p in invalid.problems)


def test_illegal_steps_and_hand_moves_name_a_rule_r10() -> None:
    """R10: the referee's steps, Hand.why_illegal, IllegalPlay and Hand.illegal carry the same
    Rule as the verdict."""
    record = example("00010-illegal.json")
    verdict = replay(record)
    assert verdict.rule is not None and replay_steps(record)[-1].rule is verdict.rule
    hands = {
        Seat[s]: sum(1 << parse_token(t) for t in ts) for s, ts in record["deal"]["hands"].items()
    }
    cards = [parse_token(t) for t in record["play"]]
    rules = Rules(record.get("ruleset", "lliure"))
    dealer, trump = Seat[record["deal"]["dealer"]], record["choice"]["trump"]
    bad = len(replay_steps(record)) - 1
    hand = Hand.from_hands(dealer, hands, trump, rules, play=cards[:bad])
    assert hand.why_illegal(cards[bad]) is verdict.rule
    with pytest.raises(IllegalPlay) as caught:
        hand.play(cards[bad])
    assert caught.value.rule is verdict.rule
    hand.play(cards[bad], allow_illegal=True)
    assert hand.illegal is not None and hand.illegal.rule is verdict.rule


def test_record_dumps_is_canonical_and_round_trips() -> None:
    """play-record.md: stable JSON others can diff."""
    record = example("00005-complete.json")
    shuffled = dict(reversed(list(copy.deepcopy(record).items())))
    assert dumps(shuffled) == dumps(record)
    assert loads(dumps(record)) == record
    assert dumps(record).startswith('{"format": "botifarra-play/1", "ruleset": "obligada", "deal"')


@pytest.mark.parametrize("text", ["NaN", '{"play": [Infinity]}', "[-Infinity]"])
def test_record_loads_refuses_what_json_has_not(text: str) -> None:
    with pytest.raises(ValueError, match="is not a number in JSON"):
        loads(text)


def test_canonical_reads_a_null_ruleset_and_null_hands_as_absent() -> None:
    """play-record.md: ``ruleset`` is optional (default lliure) and an event's record may leave
    the hands out; replay reads null as absent, and the canonical form does the same (it wrote
    ``"ruleset": null`` and failed on null hands)."""
    deal, record = played_record("event", 6, "espases")
    left_out = copy.deepcopy(record)
    del left_out["deal"]["hands"]
    left_out.pop("ruleset", None)
    assert replay(left_out, deal=deal).outcome == "complete"
    nulls = copy.deepcopy(left_out) | {"ruleset": None}
    nulls["deal"]["hands"] = None
    assert replay(nulls, deal=deal).to_json() == replay(left_out, deal=deal).to_json()
    assert canonical(nulls) == canonical(left_out)
    assert canonical(nulls)["ruleset"] == "lliure"
    assert "hands" not in canonical(nulls)["deal"]


def test_a_card_dealt_twice_is_reported_at_the_same_place_whatever_the_key_order_r10() -> None:
    """JSON gives an object's key order no meaning: every order of example 00021's hands gives
    its reference path."""
    data = json.loads((EXAMPLES / "00021-invalid.json").read_text(encoding="utf-8"))
    expected = {p["path"] for p in data["verdict"]["problems"]}
    hands = data["record"]["deal"]["hands"]
    seen = set()
    for order in itertools.permutations(hands):
        record = dict(
            data["record"], deal=dict(data["record"]["deal"], hands={k: hands[k] for k in order})
        )
        found = [p.path for p in replay(record).problems]
        assert expected <= set(found), order
        seen.add(tuple(found))
    assert len(seen) == 1


def test_a_hand_of_a_few_cards_too_many_has_each_card_read_r10() -> None:
    """A 13-card hand: its size and its bad card are both reported."""
    record = example("00000-complete.json")
    record["deal"]["hands"]["N"].append("junk")
    assert {"deal.hands.N", "deal.hands.N[12]"} <= set(paths(record))


def test_the_calls_are_checked_under_the_events_rules_when_the_record_names_others_r5_r11() -> None:
    """A record that names lliure for an obligada event (where 16 is allowed in botifarra):
    the ruleset is a problem, not the Sant Vicenç the event allows (the empty play is the
    other one, under any ruleset)."""
    deal = deal_board("audit-seed", 5)
    assert deal.dealer is Seat.N
    record = {
        "format": "botifarra-play/1",
        "ruleset": "lliure",
        "deal": {"dealer": "N"},
        "choice": {"delegated": False, "trump": "botifarra"},
        "doubles": [
            {"seat": "E", "call": "contro"},
            {"seat": "N", "call": "recontro"},
            {"seat": "W", "call": "sant_vicenc"},
        ],
        "play": [],
    }
    verdict = replay(record, deal=deal, rules=Rules("obligada"))
    assert [p.path for p in verdict.problems] == ["ruleset", "play"]


def test_a_ruleset_mismatch_still_lists_a_card_not_held_r10() -> None:
    """The event's rules still apply to a record that names others: its play is replayed
    under them, and a card its player does not hold is listed with the ruleset."""
    deal = deal_board("audit-spec", 3)
    leader = Seat((deal.dealer.value + 3) % 4)
    foreign = next(c for c in deal.hands_json()[Seat((leader.value + 1) % 4).name])
    record = {
        "format": "botifarra-play/1",
        "ruleset": "obligada",
        "deal": {"dealer": deal.dealer.name},
        "choice": {"delegated": False, "trump": "oros"},
        "doubles": [],
        "play": [foreign],
    }
    verdict = replay(record, deal=deal, rules=Rules())
    assert [p.path for p in verdict.problems] == ["ruleset", "play[0]"]
    assert verdict.problems[1].code is ProblemCode.CARD_NOT_HELD


def test_every_hand_that_differs_from_the_board_is_listed_r10() -> None:
    deal = deal_board("audit-spec", 3)
    hands = deal.hands_json()
    hands["N"][0], hands["E"][0] = hands["E"][0], hands["N"][0]
    hands["S"][0], hands["W"][0] = hands["W"][0], hands["S"][0]
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": deal.dealer.name, "hands": hands},
        "choice": {"delegated": False, "trump": "oros"},
        "doubles": [],
        "play": [],
    }
    verdict = replay(record, deal=deal, rules=Rules())
    assert [p.path for p in verdict.problems] == [f"deal.hands.{s}" for s in "NESW"]


@pytest.mark.parametrize(
    ("doubles", "expected"),
    [
        # Dealer S: NS choose, contro is EW's. N's contro repeats W's, and N may not call it.
        (
            [{"seat": "W", "call": "contro"}, {"seat": "N", "call": "contro"}],
            [("doubles[1].call", "call_repeated"), ("doubles[1].seat", "call_wrong_pair")],
        ),
        # A recontro with no contro before it, by E, whose pair may not recontro.
        (
            [{"seat": "E", "call": "recontro"}],
            [("doubles[0].call", "call_out_of_order"), ("doubles[0].seat", "recontro_wrong_pair")],
        ),
    ],
)
def test_a_call_out_of_turn_by_the_wrong_pair_is_two_problems_r5_r10(doubles, expected) -> None:
    deal = deal_board("audit-spec", 3)
    assert deal.dealer is Seat.S
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": "S", "hands": deal.hands_json()},
        "choice": {"delegated": False, "trump": "oros"},
        "doubles": doubles,
        "play": [],
    }
    found = [(p.path, p.code.value) for p in replay(record).problems if p.path != "play"]
    assert found == expected


def test_an_optional_key_given_as_null_is_as_good_as_absent() -> None:
    """play-record.md: ruleset and doubles are optional, and so are an event's hands; a writer
    that serialises "none" as null means the same."""
    record = example("00000-complete.json")
    expected = replay(record).to_json()
    assert not record.get("doubles")
    assert replay(dict(record, doubles=None)).to_json() == expected
    if record.get("ruleset", "lliure") == "lliure":
        assert replay(dict(record, ruleset=None)).to_json() == expected
    deal = deal_board("null-hands", 1)
    event_record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": deal.dealer.name, "hands": None},
        "choice": {"delegated": False, "trump": "oros"},
        "play": [],
    }
    assert [p.path for p in replay(event_record, deal=deal).problems] == ["play"]  # too short
    assert "deal.hands" in [p.path for p in replay(event_record).problems]  # required outside
