"""Par: the result of a board when every player sees every card (docs/analysis.md).

From the perfect-play value of each of the five trump choices, the choosing pair (the dealer's
pair, R4) picks the trump that is best for it; then each side calls contro, recontro and Sant
Vicenç exactly when the call gains (R5, R11); the hand is scored as R9 says.

Under perfect information a call gains only the side that will end over 36, and contro and
recontro belong to opposite sides: so at most one pair calls, the opponents with contro when
the choosing pair will end under 36. Delegating (R4) changes nothing: the partner would name the
same trump, with the same cards seen.

>>> p = par(dealer=Seat.N, points={"oros": 40, "copes": 30, "espases": 36, "bastos": 20,
...                               "botifarra": 38}, rules=Rules())
>>> p.trump, p.calls, p.totals, p.score
('oros', (), {'NS': 40, 'EW': 32}, {'NS': 4, 'EW': 0})
>>> p.best_trumps
('oros', 'botifarra')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Seat
from engine.rules import TRUMPS, Rules
from engine.scoring import CALLS, hand_score, multiplier

__all__ = ["Par", "par", "par_calls"]

_OTHER = {"NS": "EW", "EW": "NS"}


@dataclass(frozen=True, slots=True)
class Par:
    """The par result of a board.

    ``trump`` is the choosing pair's best choice (the first in the order oros, copes, espases,
    bastos, botifarra when several score the same; all of them are in ``best_trumps``);
    ``calls`` the calls made (``()`` or ``("contro",)`` in practice); ``totals`` the hand totals
    with perfect play (R9); ``score`` each pair's score; ``capot`` whether one pair takes all
    twelve tricks (a total of 72 can only be made that way).
    """

    choosing_pair: str
    trump: str
    best_trumps: tuple[str, ...]
    calls: tuple[str, ...]
    multiplier: int
    totals: dict[str, int]
    score: dict[str, int]
    capot: bool

    def to_json(self) -> dict[str, Any]:
        """The par as JSON values.

        >>> sorted(par(dealer=Seat.E, points=dict.fromkeys(TRUMPS, 36), rules=Rules()).to_json())
        ['best_trumps', 'calls', 'capot', 'choosing_pair', 'multiplier', 'score', 'totals', 'trump']
        """
        return {
            "choosing_pair": self.choosing_pair,
            "trump": self.trump,
            "best_trumps": list(self.best_trumps),
            "calls": list(self.calls),
            "multiplier": self.multiplier,
            "totals": dict(self.totals),
            "score": dict(self.score),
            "capot": self.capot,
        }


def par_calls(*, trump: str, chooser_total: int, rules: Rules) -> tuple[str, ...]:
    """The calls made when each side calls exactly when the call gains it (R5, R11).

    A call multiplies both pairs' scores; it gains the side that calls only when that side ends
    over 36 (its score grows, the other's stays 0). Contro and Sant Vicenç belong to the
    opponents of the choosing pair, recontro to the choosing pair; each only after the one
    before; Sant Vicenç in a botifarra hand only where the rules allow it.

    >>> par_calls(trump="copes", chooser_total=30, rules=Rules())
    ('contro',)
    >>> par_calls(trump="copes", chooser_total=40, rules=Rules()), par_calls(
    ...     trump="copes", chooser_total=36, rules=Rules())
    ((), ())
    """
    calls: list[str] = []
    for call in CALLS:
        if (
            call == "sant_vicenc"
            and trump == "botifarra"
            and not rules.allows_sant_vicenc_in_botifarra
        ):
            break
        caller_total = chooser_total if call == "recontro" else 72 - chooser_total
        if caller_total <= 36:
            break
        calls.append(call)
    return tuple(calls)


def par(*, dealer: Seat, points: Mapping[str, int], rules: Rules) -> Par:
    """The par of a board from North–South's perfect-play total under each trump.

    ``points`` maps each of the five trump choices to NS's hand total (0–72). The choosing pair
    takes the trump whose score, after the calls of :func:`par_calls`, is best for it (its own
    score minus the opponents').

    >>> # EW choose (dealer E); every trump leaves them 30: NS contro; botifarra doubles it all.
    >>> p = par(dealer=Seat.E, points=dict.fromkeys(TRUMPS, 42), rules=Rules())
    >>> p.choosing_pair, p.trump, p.calls, p.multiplier, p.score
    ('EW', 'oros', ('contro',), 2, {'NS': 12, 'EW': 0})
    """
    missing = [t for t in TRUMPS if t not in points]
    if missing:
        raise ValueError(f"par needs the value of every trump choice; missing: {missing}")
    chooser = dealer.pair
    best: tuple[int, str] | None = None
    outcomes: dict[str, tuple[int, tuple[str, ...], int, dict[str, int], dict[str, int]]] = {}
    for trump in TRUMPS:
        ns = points[trump]
        if not 0 <= ns <= 72:
            raise ValueError(f"a hand total is 0–72, not {ns} (R9)")
        totals = {"NS": ns, "EW": 72 - ns}
        calls = par_calls(trump=trump, chooser_total=totals[chooser], rules=rules)
        mult = multiplier(trump, calls)
        score = hand_score(totals, mult)
        net = score[chooser] - score[_OTHER[chooser]]
        outcomes[trump] = (net, calls, mult, totals, score)
        if best is None or net > best[0]:
            best = (net, trump)
    assert best is not None
    trump = best[1]
    net, calls, mult, totals, score = outcomes[trump]
    return Par(
        choosing_pair=chooser,
        trump=trump,
        best_trumps=tuple(t for t in TRUMPS if outcomes[t][0] == net),
        calls=calls,
        multiplier=mult,
        totals=totals,
        score=score,
        capot=72 in totals.values(),
    )
