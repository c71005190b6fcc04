"""Problems as codes with params and a path (issue 16): what each problem of a record or a
short result carries, the English sentences the command line keeps, and the code table of
docs/engine.md that translations are written from."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import (
    InvalidRecord,
    Problem,
    ProblemCode,
    Rules,
    Seat,
    check_form,
    deal_board,
    replay,
    score_short_result,
)
from engine.problems import MAX_PROBLEMS, MESSAGES, PARAMS, limit_problems
from engine.scoring import check_doubles

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "examples"
C = ProblemCode


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data["record"]


def problems(record: Any, **kwargs: Any) -> list[Problem]:
    verdict = replay(record, **kwargs)
    assert verdict.outcome == "invalid"
    return list(verdict.problems)


def test_every_code_has_an_english_template() -> None:
    assert set(MESSAGES) == set(ProblemCode)


def test_code_values_are_lowercase_identifiers_that_name_their_member() -> None:
    """The codes are the stable identifiers a translation table is keyed by."""
    for code in ProblemCode:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code.value)
        assert code.value == code.name.lower()


def test_a_card_not_held_names_the_card_and_the_seat_r10() -> None:
    """R10: the problem of play-record.md's own example, ``7b is not in W's hand``, as a code."""
    record = example("00000-complete.json")
    record["play"][1], record["play"][2] = record["play"][2], record["play"][1]
    second = Seat.from_str(record["deal"]["dealer"]).right.right  # R6: dealer's right leads
    [problem] = problems(record)
    assert (problem.code, problem.params, problem.path) == (
        C.CARD_NOT_HELD,
        {"card": record["play"][1], "seat": second.name},
        "play[1]",
    )
    assert problem.message == f"{record['play'][1]} is not in {second.name}'s hand"


def test_a_repeated_card_names_where_it_was_first_played_r10() -> None:
    """R10: a card played twice points at its first play."""
    record = example("00000-complete.json")
    first = record["play"][0]
    record["play"][5] = first
    [problem] = problems(record)
    assert (problem.code, problem.params, problem.path) == (
        C.CARD_ALREADY_PLAYED,
        {"card": first, "first": "play[0]"},
        "play[5]",
    )
    # check_form leaves it to the replay: after an illegal play it would not count.
    assert problem not in check_form(record, deal=deal_board("any", 1))


def test_a_card_not_held_before_an_unknown_token_is_listed_too_r10() -> None:
    """R10 lists every problem: the cards before an unknown token are known, so a card there
    that its player does not hold is reported, in the order found (before the token)."""
    record = example("00000-complete.json")
    record["play"][1], record["play"][2] = record["play"][2], record["play"][1]
    record["play"][20] = "13o"
    found = problems(record)
    assert [(p.code, p.path) for p in found] == [
        (C.CARD_NOT_HELD, "play[1]"),
        (C.NOT_A_CARD, "play[20]"),
    ]


def test_what_follows_an_unknown_token_or_an_illegal_play_is_not_judged_r10() -> None:
    """After an unknown token nothing can be replayed; before it, an illegal play stops the
    replay as in any record: only the token is a problem then."""
    record = example("00000-complete.json")
    record["play"][20] = "xx"
    record["play"][30] = record["play"][0]  # a repeat after the token: not reported
    assert [(p.code, p.path) for p in problems(record)] == [(C.NOT_A_CARD, "play[20]")]
    illegal = example("00011-illegal.json")  # its last card is the illegal one
    assert replay(illegal).outcome == "illegal"
    illegal["play"] += [illegal["play"][0], "xx"]  # a repeat after the illegal card, a token
    end = len(illegal["play"]) - 1
    assert [(p.code, p.path) for p in problems(illegal)] == [(C.NOT_A_CARD, f"play[{end}]")]


def test_check_form_and_the_replay_agree_on_a_card_repeated_after_an_illegal_play_r10() -> None:
    """Cards after the first illegal play are not replayed (play-record.md): a repeat there
    leaves the verdict illegal, and check_form (which cannot know where that play is without
    the cards) must not refuse the record that the replay accepts."""
    record = example("00011-illegal.json")
    verdict = replay(record)
    assert verdict.outcome == "illegal"
    record["play"] += [record["play"][0]]
    assert replay(record).outcome == "illegal"
    board = next(
        n for n in range(1, 5) if deal_board("any", n).dealer.name == record["deal"]["dealer"]
    )
    assert check_form(record, deal=deal_board("any", board)) == ()


def test_an_unknown_token_carries_the_quoted_value_cut_to_100_characters_r1() -> None:
    """R1: the offending value is a param as a message shows it: quoted, at most 100 characters."""
    record = example("00000-complete.json")
    record["play"][3] = "z" * 5000
    record["play"][4] = 17
    found = {p.path: p for p in problems(record)}
    long, number = found["play[3]"], found["play[4]"]
    assert long.code is C.NOT_A_CARD and number.code is C.NOT_A_CARD
    assert long.params["value"] == '"' + "z" * 99 + '…"'
    assert number.params == {"value": "17"}


def test_a_deal_problem_names_the_seat_and_the_count_r3() -> None:
    """R3: each hand holds 12 cards; a short hand is reported with its seat and size."""
    record = example("00000-complete.json")
    kept, cut = record["deal"]["hands"]["E"][:10], record["deal"]["hands"]["E"][10:]
    record["deal"]["hands"]["E"] = kept
    found = problems(record)
    size = next(p for p in found if p.code is C.HAND_SIZE)
    assert (size.params, size.path) == ({"seat": "E", "count": 10}, "deal.hands.E")
    missing = next(p for p in found if p.code is C.CARDS_MISSING)
    assert sorted(missing.params["cards"].split()) == sorted(cut)


def test_doubling_problems_carry_the_call_the_pair_and_the_seat_r5() -> None:
    """R5: with N dealing, NS choose: contro is for EW, recontro for NS, each call once."""
    found = check_doubles(
        dealer=Seat.N,
        trump="oros",
        rules=Rules(),
        doubles=[
            {"seat": "S", "call": "contro"},
            {"seat": "E", "call": "recontro"},
            {"seat": "W", "call": "contro"},
            {"seat": "Q", "call": "trumfo"},
        ],
    )
    assert [(p.code, dict(p.params), p.path) for p in found] == [
        (C.CALL_WRONG_PAIR, {"call": "contro", "pair": "EW", "seat": "S"}, "doubles[0].seat"),
        (C.RECONTRO_WRONG_PAIR, {"pair": "NS", "seat": "E"}, "doubles[1].seat"),
        (C.CALL_REPEATED, {"call": "contro"}, "doubles[2].call"),
        (C.NOT_A_SEAT, {"value": '"Q"'}, "doubles[3].seat"),
        (C.NOT_A_CALL, {"value": '"trumfo"'}, "doubles[3].call"),
    ]


def test_wrong_pair_calls_are_not_reported_while_the_dealer_is_unknown_r5() -> None:
    """R5: the pairs follow from the dealer; with no dealer, a call's pair cannot be wrong."""
    record = example("00000-complete.json")
    record["deal"]["dealer"] = "X"
    record["doubles"] = [{"seat": "N", "call": "contro"}, {"seat": "E", "call": "contro"}]
    codes = [p.code for p in problems(record)]
    assert C.DEALER_NOT_A_SEAT in codes and C.CALL_REPEATED in codes
    assert C.CALL_WRONG_PAIR not in codes and C.RECONTRO_WRONG_PAIR not in codes


def test_short_result_problems_carry_their_numbers_r9_r10() -> None:
    """R9: totals are whole numbers 0–72 summing to 72; R10: the offender is NS or EW."""
    contract: dict[str, Any] = {
        "dealer": Seat.N,
        "delegated": False,
        "trump": "oros",
        "doubles": [],
        "rules": Rules(),
    }
    with pytest.raises(InvalidRecord) as caught:
        score_short_result(**contract, totals={"NS": 40, "EW": 33})
    assert [(p.code, dict(p.params), p.path) for p in caught.value.problems] == [
        (C.TOTALS_SUM, {"sum": 73}, "totals")
    ]
    with pytest.raises(InvalidRecord) as caught:
        score_short_result(**contract, totals={"NS": "40", "EW": 32, "XX": 0})
    assert [(p.code, dict(p.params)) for p in caught.value.problems] == [
        (C.TOTAL_NOT_NUMBER, {"pair": "NS", "value": '"40"'}),
        (C.TOTALS_UNKNOWN_KEYS, {"keys": "XX"}),
    ]
    with pytest.raises(InvalidRecord) as caught:
        score_short_result(**contract, offending_pair="NW")
    assert [(p.code, p.path) for p in caught.value.problems] == [(C.NOT_A_PAIR, "offending_pair")]


def test_unknown_totals_keys_are_bounded_like_any_echoed_value() -> None:
    with pytest.raises(InvalidRecord) as caught:
        score_short_result(
            dealer=Seat.N,
            delegated=False,
            trump="oros",
            doubles=[],
            rules=Rules(),
            totals={"NS": 36, "EW": 36, **{f"k{i}" * 50: 0 for i in range(1000)}},
        )
    [problem] = caught.value.problems
    assert problem.code is C.TOTALS_UNKNOWN_KEYS and len(problem.params["keys"]) <= 100


def test_more_problems_is_a_code_with_the_count() -> None:
    found = [Problem(C.NOT_A_CARD, {"value": '"x"'}, f"play[{i}]") for i in range(MAX_PROBLEMS + 5)]
    last = limit_problems(found)[-1]
    assert (last.code, dict(last.params), last.path) == (C.MORE_PROBLEMS, {"count": 6}, "")


def test_messages_keep_the_engines_english_sentences() -> None:
    """The command line and the JSON verdicts keep their sentences (play-record.md's example,
    and the sentences of docs/engine.md's choices 2 and 7)."""
    assert Problem(C.CARD_NOT_HELD, {"card": "7b", "seat": "W"}, "play[17]").to_json() == {
        "path": "play[17]",
        "message": "7b is not in W's hand",
    }
    assert (
        Problem(C.SANT_VICENC_NOT_ALLOWED, {}, "doubles[2].call").message
        == "sant_vicenc is not allowed in a botifarra hand under these rules (R5, R11)"
    )
    assert (
        Problem(C.CARD_ALREADY_PLAYED, {"card": "1o", "first": "play[0]"}).message
        == "1o was already played (play[0])"
    )


def test_a_param_that_looks_like_a_template_field_is_shown_as_it_is() -> None:
    """A hostile value is a param, never part of the template: ``{seat}`` stays ``{seat}``."""
    problem = Problem(C.NOT_A_CARD, {"value": '"{seat} {0} {__class__}"'}, "play[0]")
    assert problem.message == '"{seat} {0} {__class__}" is not a card token (R1)'


def test_params_must_be_those_of_the_code() -> None:
    with pytest.raises(ValueError, match="card_not_held"):
        Problem(C.CARD_NOT_HELD, {"card": "7b"}, "play[1]")
    with pytest.raises(ValueError):
        Problem(C.DEAL_MISSING, {"extra": 1}, "deal")
    with pytest.raises(ValueError):
        Problem("no_such_code", {}, "")


def test_a_problem_is_an_immutable_hashable_value() -> None:
    params = {"card": "7b", "seat": "W"}
    problem = Problem(C.CARD_NOT_HELD, params, "play[17]")
    params["seat"] = "N"  # the caller's dict is copied, not shared
    assert problem.params["seat"] == "W"
    with pytest.raises(TypeError):
        problem.params["seat"] = "N"  # type: ignore[index]
    same = Problem("card_not_held", {"seat": "W", "card": "7b"}, "play[17]")
    assert same == problem and hash(same) == hash(problem) and len({same, problem}) == 1


def test_problem_repr_is_valid_python() -> None:
    problem = Problem(C.HAND_SIZE, {"seat": "N", "count": 13}, "deal.hands.N")
    assert eval(repr(problem), {"Problem": Problem, "ProblemCode": ProblemCode}) == problem


def _doc_rows() -> dict[str, tuple[str, str, str]]:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"`[a-z_]+`", cells[0]):
            rows[cells[0].strip("`")] = (cells[1], cells[2], cells[3])
    return rows


def test_docs_list_every_code_with_its_params_and_english_template() -> None:
    """docs/engine.md's table is what the Catalan and Spanish sentences are written from."""
    rows = _doc_rows()
    assert set(rows) == {c.value for c in ProblemCode}
    for code in ProblemCode:
        _path, params, english = rows[code.value]
        assert set(re.findall(r"`(\w+)`", params)) == PARAMS[code], code
        template = MESSAGES[code].replace("{{", "{").replace("}}", "}")
        assert english == f"`{template}`", code
