"""Contracts and scores: doubling (R5), hand scores (R9), penalties (R10).

Games (R12) live in :mod:`engine.match`; ``Partida`` is importable from here too.

>>> multiplier("copes", ["contro", "recontro"])
4
>>> hand_score({"NS": 45, "EW": 27}, 4)
{'NS': 36, 'EW': 0}
>>> penalty_score("NS", 2)
{'NS': 0, 'EW': 72}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Seat
from engine.errors import InvalidRecord
from engine.match import MatchRules, Partida
from engine.problems import MISSING, Problem, ProblemCode, clip, quote
from engine.rules import TRUMPS, Rules

__all__ = [
    "CALLS",
    "HAND_TOTAL",
    "PAIRS",
    "other_total",
    "MatchRules",
    "Partida",
    "ShortScore",
    "check_choice",
    "check_contract",
    "check_doubles",
    "choosing_pair",
    "hand_score",
    "multiplier",
    "penalty_score",
    "possible_hand_score",
    "possible_multipliers",
    "score_short_result",
]

CALLS = ("contro", "recontro", "sant_vicenc")
PAIRS = ("NS", "EW")
#: The two pairs' hand totals always sum to this: 60 card points and 12 tricks (R9).
HAND_TOTAL = 72
_FACTOR = {"contro": 2, "recontro": 4, "sant_vicenc": 8}
_OTHER = {"NS": "EW", "EW": "NS"}
_C = ProblemCode


def other_total(total: int) -> int:
    """The other pair's hand total, given one pair's (R9: they sum to 72).

    >>> other_total(45)
    27
    """
    return HAND_TOTAL - total


def multiplier(trump: str, calls: Sequence[str]) -> int:
    """Base (1 for a suit, 2 for botifarra) × the factor of the highest call (R5).

    Does not check the order of the calls: :func:`check_contract` does.

    >>> multiplier("botifarra", []), multiplier("oros", ["contro"])
    (2, 2)
    >>> multiplier("botifarra", ["contro", "recontro", "sant_vicenc"])
    16
    """
    if trump not in TRUMPS:
        raise ValueError(f"unknown trump choice {trump!r} (R4)")
    factor = 1
    for call in calls:
        if call not in _FACTOR:
            raise ValueError(f"unknown call {call!r} (R5)")
        factor = max(factor, _FACTOR[call])
    return (2 if trump == "botifarra" else 1) * factor


def possible_multipliers(rules: Rules | None = None) -> tuple[int, ...]:
    """Every multiplier a hand can have under ``rules`` (R5, R11), smallest first; with no
    rules, every multiplier any ruleset allows (botifarra with Sant Vicenç included).

    >>> possible_multipliers(Rules()), possible_multipliers()
    ((1, 2, 4, 8), (1, 2, 4, 8, 16))
    """
    sant_vicenc = rules is None or rules.allows_sant_vicenc_in_botifarra
    found = set()
    for trump in TRUMPS:
        for n in range(len(CALLS) + 1):
            if trump == "botifarra" and n == len(CALLS) and not sant_vicenc:
                continue
            found.add(multiplier(trump, CALLS[:n]))
    return tuple(sorted(found))


def possible_hand_score(score: int, rules: Rules | None = None) -> bool:
    """Whether one pair can score ``score`` in a hand (R9, R10): 0, or 1 to 36 times a
    multiplier of :func:`possible_multipliers` (a penalty is 36 times one).

    >>> [possible_hand_score(s) for s in (0, 36, 37, 72, 73, 144, 145, 576, 577)]
    [True, True, False, True, False, True, False, True, False]
    >>> possible_hand_score(576, Rules())
    False
    """
    if score == 0:
        return True
    return any(
        score % m == 0 and 1 <= score // m <= HAND_TOTAL - 36 for m in possible_multipliers(rules)
    )


def hand_score(totals: Mapping[str, int], multiplier: int) -> dict[str, int]:
    """Score of a played hand (R9): the pair over 36 scores (total − 36) × multiplier.

    >>> hand_score({"NS": 36, "EW": 36}, 8)
    {'NS': 0, 'EW': 0}
    >>> hand_score({"NS": 30, "EW": 42}, 2)
    {'NS': 0, 'EW': 12}
    """
    ns, ew = totals["NS"], totals["EW"]
    if ns + ew != HAND_TOTAL or ns < 0 or ew < 0:
        raise ValueError(f"hand totals must be 0–72 and sum to 72, not {ns} + {ew} (R9)")
    return {"NS": max(0, ns - 36) * multiplier, "EW": max(0, ew - 36) * multiplier}


def penalty_score(offending_pair: str, multiplier: int) -> dict[str, int]:
    """Score after an illegal play (R10): the offenders' opponents score 36 × multiplier.

    >>> penalty_score("EW", 8)
    {'NS': 288, 'EW': 0}
    """
    if offending_pair not in PAIRS:
        raise ValueError(f"unknown pair {offending_pair!r}: NS or EW")
    score = {offending_pair: 0, _OTHER[offending_pair]: 36 * multiplier}
    return {"NS": score["NS"], "EW": score["EW"]}


def choosing_pair(dealer: Seat, delegated: bool) -> str:
    """The pair that named trumps (R4): the dealer's, whether or not the choice was delegated.

    >>> choosing_pair(Seat.E, True)
    'EW'
    """
    chooser = dealer.partner if delegated else dealer
    return chooser.pair


def check_contract(
    *,
    dealer: Seat,
    delegated: Any,
    trump: Any,
    doubles: Any,
    rules: Rules,
    path_prefix: str = "",
) -> list[Problem]:
    """Problems with a trump choice (R4) and a doubling sequence (R5, R11), in order found.

    Paths are those of a record (``choice.trump``, ``doubles[1].seat``, ``doubles[1].call``),
    prefixed with ``path_prefix``.

    >>> check_contract(dealer=Seat.N, delegated=False, trump="oros",
    ...                doubles=[{"seat": "E", "call": "contro"}], rules=Rules())
    []
    >>> [(p.path, p.code) for p in check_contract(dealer=Seat.N, delegated=False, trump="oros",
    ...  doubles=[{"seat": "S", "call": "contro"}, {"seat": "N", "call": "contro"}], rules=Rules())]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('doubles[0].seat', <ProblemCode.CALL_WRONG_PAIR: 'call_wrong_pair'>),
     ('doubles[1].call', <ProblemCode.CALL_REPEATED: 'call_repeated'>),
     ('doubles[1].seat', <ProblemCode.CALL_WRONG_PAIR: 'call_wrong_pair'>)]
    """
    problems = check_choice(delegated=delegated, trump=trump, path_prefix=path_prefix)
    problems += check_doubles(
        dealer=dealer, trump=trump, doubles=doubles, rules=rules, path_prefix=path_prefix
    )
    return problems


def check_choice(*, delegated: Any, trump: Any, path_prefix: str = "") -> list[Problem]:
    """Problems with a trump choice (R4): ``choice.delegated`` and ``choice.trump``.

    >>> [p.path for p in check_choice(delegated=False, trump="trumfo")]
    ['choice.trump']
    """
    pre = path_prefix
    problems: list[Problem] = []
    if not isinstance(delegated, bool):
        problems.append(
            Problem(_C.DELEGATED_NOT_BOOL, {"value": quote(delegated)}, f"{pre}choice.delegated")
        )
    if trump is MISSING:
        problems.append(Problem(_C.TRUMP_MISSING, {}, f"{pre}choice.trump"))
    elif not (isinstance(trump, str) and trump in TRUMPS):
        problems.append(Problem(_C.NOT_A_TRUMP, {"value": quote(trump)}, f"{pre}choice.trump"))
    return problems


def check_doubles(
    *, dealer: Seat, trump: Any, doubles: Any, rules: Rules, path_prefix: str = ""
) -> list[Problem]:
    """Problems with a doubling sequence (R5, R11); ``None`` counts as no calls.

    >>> check_doubles(dealer=Seat.N, trump="botifarra", rules=Rules(), doubles=[
    ...     {"seat": "E", "call": "contro"}, {"seat": "N", "call": "recontro"},
    ...     {"seat": "W", "call": "sant_vicenc"}])[0].code
    <ProblemCode.SANT_VICENC_NOT_ALLOWED: 'sant_vicenc_not_allowed'>
    """
    pre = path_prefix
    problems: list[Problem] = []
    if doubles is None:
        return problems
    if not isinstance(doubles, list | tuple):
        problems.append(Problem(_C.DOUBLES_NOT_LIST, {}, f"{pre}doubles"))
        return problems
    chooser = dealer.pair
    level = 0
    for i, entry in enumerate(doubles):
        path = f"{pre}doubles[{i}]"
        if not isinstance(entry, Mapping):
            problems.append(Problem(_C.CALL_NOT_OBJECT, {}, path))
            continue
        seat: Seat | None = None
        raw_seat = entry.get("seat", MISSING)
        if isinstance(raw_seat, str) and raw_seat in Seat.__members__:
            seat = Seat[raw_seat]
        elif raw_seat is MISSING:
            problems.append(Problem(_C.SEAT_MISSING, {}, f"{path}.seat"))
        else:
            problems.append(Problem(_C.NOT_A_SEAT, {"value": quote(raw_seat)}, f"{path}.seat"))
        call = entry.get("call", MISSING)
        if call is MISSING:
            problems.append(Problem(_C.CALL_MISSING, {}, f"{path}.call"))
            continue
        if not (isinstance(call, str) and call in CALLS):
            problems.append(Problem(_C.NOT_A_CALL, {"value": quote(call)}, f"{path}.call"))
            continue
        index = CALLS.index(call)
        if index < level:
            problems.append(Problem(_C.CALL_REPEATED, {"call": call}, f"{path}.call"))
        elif index > level:
            before = CALLS[index - 1]
            problems.append(
                Problem(_C.CALL_OUT_OF_ORDER, {"call": call, "before": before}, f"{path}.call")
            )
        else:
            level += 1
            if (
                call == "sant_vicenc"
                and trump == "botifarra"
                and not rules.allows_sant_vicenc_in_botifarra
            ):
                problems.append(Problem(_C.SANT_VICENC_NOT_ALLOWED, {}, f"{path}.call"))
        # Which pair may make a call does not depend on when it is made: a repeated or early
        # call by the wrong pair is two problems (R10 lists every one).
        if seat is not None:
            entitled = chooser if call == "recontro" else _OTHER[chooser]
            if seat.pair != entitled:
                where = f"{path}.seat"
                if call == "recontro":
                    params: dict[str, str | int] = {"pair": entitled, "seat": seat.name}
                    problems.append(Problem(_C.RECONTRO_WRONG_PAIR, params, where))
                else:
                    params = {"call": call, "pair": entitled, "seat": seat.name}
                    problems.append(Problem(_C.CALL_WRONG_PAIR, params, where))
    return problems


@dataclass(frozen=True, slots=True)
class ShortScore:
    """A board scored from the table's short form (totals, or the pair that played illegally).

    ``capot`` is true when one pair has all 72 (which only all 12 tricks can give, R9).
    """

    multiplier: int
    score: dict[str, int]
    capot: bool = False
    totals: dict[str, int] | None = None
    offending_pair: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON values."""
        out: dict[str, Any] = {
            "multiplier": self.multiplier,
            "score": dict(self.score),
            "capot": self.capot,
        }
        if self.totals is not None:
            out["totals"] = dict(self.totals)
        if self.offending_pair is not None:
            out["offending_pair"] = self.offending_pair
        return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def score_short_result(
    *,
    dealer: Seat,
    delegated: bool,
    trump: str,
    doubles: Sequence[Mapping[str, Any]],
    rules: Rules,
    totals: Mapping[str, int] | None = None,
    offending_pair: str | None = None,
) -> ShortScore:
    """Score a board from its contract and either the hand totals (R9) or the offending pair (R10).

    Raises :class:`InvalidRecord` listing every problem.

    >>> score_short_result(dealer=Seat.N, delegated=False, trump="oros",
    ...     doubles=[{"seat": "W", "call": "contro"}], rules=Rules(), totals={"NS": 45, "EW": 27}).score
    {'NS': 18, 'EW': 0}
    >>> score_short_result(dealer=Seat.N, delegated=False, trump="botifarra", doubles=[],
    ...     rules=Rules(), offending_pair="NS").score
    {'NS': 0, 'EW': 72}
    """
    problems = check_contract(
        dealer=dealer, delegated=delegated, trump=trump, doubles=doubles, rules=rules
    )
    if (totals is None) == (offending_pair is None):
        problems.append(Problem(_C.TOTALS_OR_OFFENDER, {}, "totals"))
    elif totals is not None:
        if not isinstance(totals, Mapping):
            problems.append(Problem(_C.TOTALS_NOT_OBJECT, {}, "totals"))
        else:
            good = True
            for pair in PAIRS:
                value = totals.get(pair)
                if not (_is_int(value) and 0 <= value <= 72):  # type: ignore[operator]
                    problems.append(
                        Problem(
                            _C.TOTAL_NOT_NUMBER,
                            {"pair": pair, "value": quote(value)},
                            f"totals.{pair}",
                        )
                    )
                    good = False
            extra = sorted(clip(k) for k in totals if k not in PAIRS)
            if extra:
                keys = clip(", ".join(extra))
                problems.append(Problem(_C.TOTALS_UNKNOWN_KEYS, {"keys": keys}, "totals"))
            if good and totals["NS"] + totals["EW"] != 72:
                total = totals["NS"] + totals["EW"]
                problems.append(Problem(_C.TOTALS_SUM, {"sum": total}, "totals"))
    elif offending_pair not in PAIRS:
        problems.append(Problem(_C.NOT_A_PAIR, {"value": quote(offending_pair)}, "offending_pair"))
    if problems:
        raise InvalidRecord(problems)
    mult = multiplier(trump, [d["call"] for d in doubles])
    if totals is not None:
        t = {"NS": totals["NS"], "EW": totals["EW"]}
        return ShortScore(mult, hand_score(t, mult), capot=72 in t.values(), totals=t)
    assert offending_pair is not None
    return ShortScore(mult, penalty_score(offending_pair, mult), offending_pair=offending_pair)
