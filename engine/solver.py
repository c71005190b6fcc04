"""Perfect-play (double-dummy) values of a hand: what North–South take when all four players see
every card and play perfectly and legally.

The **value** of a position is North–South's hand total (R9: card points plus one per trick, out
of 72) when, from that position on, North and South play to make it as large as possible and East
and West to make it as small as possible, every card legal (R7, plus R8 under *obligada*). It
counts what NS already won in the completed tricks. East–West's value is 72 minus it.

Two implementations give the same numbers:

- :class:`ReferenceSearch`, pure Python, the specification: alpha-beta over every legal card
  (``engine.rules.legal_mask``, the engine's one legal-card rule) with a table of bounds at the
  start of each trick. Fast enough for positions with a few tricks left.
- ``engine._solver``, a C extension built by ``pip install`` (zero-window searches, a table keyed on
  equivalent positions, equivalent cards tried once, move ordering, bounds from the points still
  in play; see docs/analysis.md). When it could not be built, or when the environment variable
  ``BOTIFARRA_SOLVER=python`` is set, the reference is used instead. :data:`BACKEND` says which,
  and :data:`PROFILE_GUIDED` whether the extension was built profile-guided (setup.py).

>>> from engine import deal_board
>>> deal = deal_board("docs", 1)
>>> ns = solve(deal, trump="oros", played=sample_play(deal, trump="oros"))
>>> 0 <= ns <= 72
True
>>> BACKEND in ("c", "python")
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.cards import CARD_POINTS, CARD_SUIT, Seat
from engine.deals import Deal
from engine.hand import Hand
from engine.rules import BEATS, TRUMP_INDEX, Rules, legal_mask

try:  # built by ``pip install`` when a C compiler is present (setup.py)
    from engine import _solver
except ImportError:  # the pure-Python reference search is used instead
    _solver = None  # type: ignore[assignment]

__all__ = [
    "BACKEND",
    "PROFILE_GUIDED",
    "ReferenceSearch",
    "Solver",
    "sample_play",
    "solve",
    "solve_reference",
]

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_DEFAULT_RULES = Rules()


class _Search(Protocol):
    """What a backend offers: the NS points still to be taken from a position (``future``)."""

    def future(self, hands: Sequence[int], to_move: int, trick: Sequence[int], guess: int) -> int:
        """NS's points from the cards on the table and in the hands, with perfect play."""
        ...

    def at_least(
        self, hands: Sequence[int], to_move: int, trick: Sequence[int], target: int
    ) -> bool:
        """Whether :meth:`future` is at least ``target`` (a cheaper question)."""
        ...


class ReferenceSearch:
    """The pure-Python perfect-play search: the specification of the C solver.

    ``t`` is the trump index (0–3 a suit, 4 botifarra), ``obligada`` whether R8 applies.
    Seats are indexed N=0, E=1, S=2, W=3; ``hands`` holds the remaining cards of each seat as
    bitmasks, ``to_move`` the seat to play and ``trick`` the cards already on the table in the
    current trick, in the order played.

    The search is alpha-beta over every legal card, "fail-soft": with a window (alpha, beta) it
    returns the exact value when it lies strictly inside, otherwise a bound on the same side of
    the window. At the start of a trick the position is fully described by the four hands and the
    leader, so the bounds found there are kept in :attr:`table` (lower, upper) and reused.

    >>> from engine.cards import parse_token as p
    >>> # The last trick, oros trumps, W leads: W 1c, S 2c, E 3o (trumps), N 9c -> EW win 5+4+1.
    >>> hands = [1 << p("9c"), 1 << p("3o"), 1 << p("2c"), 1 << p("1c")]
    >>> ReferenceSearch(0, False).future(hands, 3, (), -1)
    0
    """

    def __init__(self, t: int, obligada: bool) -> None:
        self.t = t
        self.obligada = obligada
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        self.nodes = 0

    def future(self, hands: Sequence[int], to_move: int, trick: Sequence[int], guess: int) -> int:
        """NS's points from here on: the cards on the table and in the hands, plus the tricks."""
        return self._search(tuple(hands), to_move, tuple(trick), -1, 73)

    def at_least(
        self, hands: Sequence[int], to_move: int, trick: Sequence[int], target: int
    ) -> bool:
        """Whether :meth:`future` is at least ``target``."""
        return self._search(tuple(hands), to_move, tuple(trick), target - 1, target) >= target

    def _search(
        self, hands: tuple[int, ...], seat: int, trick: tuple[int, ...], alpha: int, beta: int
    ) -> int:
        self.nodes += 1
        if not trick:
            if not hands[seat]:
                return 0  # all 48 cards played
            key = (hands, seat)
            lower, upper = self.table.get(key, (0, 72))
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        # The trick so far (R6): the suit led, the card winning it and who played that card.
        leader = (seat + len(trick)) & 3  # play moves right: the leader is len(trick) seats back
        led = CARD_SUIT[trick[0]] if trick else 0
        win, win_seat = (trick[0], leader) if trick else (0, seat)
        for i, card in enumerate(trick[1:], start=1):
            if BEATS[self.t][win] >> card & 1:
                win, win_seat = card, (leader + 3 * i) & 3
        partner_winning = bool(trick) and (win_seat ^ seat) == 2
        legal = legal_mask(
            hands[seat], len(trick), led, win, partner_winning, self.t, self.obligada
        )
        maximise = seat in (0, 2)  # North and South
        best = -1 if maximise else 73
        a, b = alpha, beta
        for card in range(48):
            if not legal >> card & 1:
                continue
            value = self._after(hands, seat, trick, card, win, win_seat, a, b)
            if maximise:
                best = max(best, value)
                a = max(a, best)
            else:
                best = min(best, value)
                b = min(b, best)
            if a >= b:
                break
        if not trick:
            lower, upper = self.table.get((hands, seat), (0, 72))
            if best <= alpha:
                upper = min(upper, best)  # failed low: best is an upper bound
            elif best >= beta:
                lower = max(lower, best)  # failed high: best is a lower bound
            else:
                lower = upper = best
            self.table[(hands, seat)] = (lower, upper)
        return best

    def _after(
        self,
        hands: tuple[int, ...],
        seat: int,
        trick: tuple[int, ...],
        card: int,
        win: int,
        win_seat: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value once ``seat`` has played ``card``."""
        rest = tuple(h & ~(1 << card) if s == seat else h for s, h in enumerate(hands))
        if len(trick) < 3:
            return self._search(rest, (seat + 3) & 3, (*trick, card), alpha, beta)
        if BEATS[self.t][win] >> card & 1:
            win_seat = seat
        # R9: the trick's card points plus one for the trick go to the winner's pair.
        points = 1 + CARD_POINTS[card] + sum(CARD_POINTS[c] for c in trick)
        gain = points if win_seat in (0, 2) else 0
        return gain + self._search(rest, win_seat, (), alpha - gain, beta - gain)


def _load_backend() -> tuple[str, Callable[[int, bool], _Search] | None]:
    if os.environ.get("BOTIFARRA_SOLVER", "").lower() in ("python", "reference"):
        return "python", None
    if _solver is None:
        return "python", None
    return "c", _solver.Search


#: ``"c"`` when the C extension is in use, ``"python"`` when the reference search is.
BACKEND, _CSearch = _load_backend()
#: Whether the C extension in use was built profile-guided (setup.py); False for the reference.
PROFILE_GUIDED = BACKEND == "c" and bool(getattr(_solver, "PROFILE_GUIDED", 0))


def _new_search(t: int, obligada: bool, reference: bool) -> _Search:
    if reference or _CSearch is None:
        return ReferenceSearch(t, obligada)
    return _CSearch(t, obligada)


class Solver:
    """Perfect-play values of positions of one deal under one trump and ruleset.

    One solver keeps what it learnt between questions (a table of positions), so asking about
    successive positions of the same hand is much cheaper than starting afresh each time.
    ``played`` is the list of cards played so far (legal, in order; it may stop mid-trick);
    ``reference=True`` forces the pure-Python search.

    >>> from engine import deal_board
    >>> deal = deal_board("docs", 2)
    >>> solver = Solver(deal, trump="botifarra")
    >>> played = sample_play(deal, trump="botifarra")
    >>> v = solver.value(played)
    >>> solver.at_least(played, v), solver.at_least(played, v + 1)
    (True, False)
    """

    def __init__(
        self, deal: Deal, *, trump: str, rules: Rules = _DEFAULT_RULES, reference: bool = False
    ) -> None:
        if trump not in TRUMP_INDEX:
            raise ValueError(f"unknown trump choice {trump!r} (R4)")
        self.deal = deal
        self.trump = trump
        self.rules = rules
        self._search = _new_search(TRUMP_INDEX[trump], rules.obligada, reference)

    def position(self, played: Sequence[int]) -> Hand:
        """The hand after ``played`` (raises ``ValueError``/``IllegalPlay`` as ``Hand.play``)."""
        hand = Hand(self.deal, self.trump, self.rules)
        for card in played:
            hand.play(card)
        return hand

    def value(self, played: Sequence[int] = (), *, guess: int | None = None) -> int:
        """North–South's hand total with perfect play from the position after ``played``.

        ``guess`` (NS total) only speeds the search up when it is close to the answer.
        """
        return self.value_of(self.position(played), guess=guess)

    def value_of(self, hand: Hand, *, guess: int | None = None) -> int:
        """Like :meth:`value`, from a :class:`Hand` of this solver's deal, trump and rules."""
        won = hand.totals["NS"]
        if hand.is_over:
            return won
        hands, to_move, trick = _state(hand)
        return won + self._search.future(
            hands, to_move, trick, -1 if guess is None else guess - won
        )

    def at_least(self, played: Sequence[int], target: int) -> bool:
        """Whether :meth:`value` is at least ``target``, usually faster than computing it."""
        return self.at_least_of(self.position(played), target)

    def at_least_of(self, hand: Hand, target: int) -> bool:
        """Like :meth:`at_least`, from a :class:`Hand`."""
        won = hand.totals["NS"]
        if hand.is_over:
            return won >= target
        hands, to_move, trick = _state(hand)
        return self._search.at_least(hands, to_move, trick, target - won)


def _state(hand: Hand) -> tuple[list[int], int, list[int]]:
    masks = hand.hands
    return [masks[s] for s in _SEATS], hand.to_move.value, [c for _, c in hand.trick]


def solve(
    deal: Deal, *, trump: str, rules: Rules = _DEFAULT_RULES, played: Sequence[int] = ()
) -> int:
    """North–South's hand total (0–72, R9) when all four play perfectly from the start (the
    dealer's right leads, R6) or from the position after the legal cards ``played``.

    >>> from engine import deal_board, parse_token
    >>> deal = deal_board("docs", 3)
    >>> played = sample_play(deal, trump="copes")
    >>> solve(deal, trump="copes", played=played) == solve_reference(
    ...     deal, trump="copes", played=played)
    True
    """
    return Solver(deal, trump=trump, rules=rules).value(played)


def solve_reference(
    deal: Deal, *, trump: str, rules: Rules = _DEFAULT_RULES, played: Sequence[int] = ()
) -> int:
    """:func:`solve` with the pure-Python reference search, whatever :data:`BACKEND` is."""
    return Solver(deal, trump=trump, rules=rules, reference=True).value(played)


def sample_play(
    deal: Deal, *, trump: str, rules: Rules = _DEFAULT_RULES, cards: int = 36
) -> list[int]:
    """The first ``cards`` cards of a legal play where everyone plays their first legal card in
    R1 order: a quick position for examples and tests.

    >>> from engine import deal_board
    >>> len(sample_play(deal_board("docs", 1), trump="oros", cards=40))
    40
    """
    hand = Hand(deal, trump, rules)
    while len(hand.played) < cards:
        hand.play(hand.legal_cards()[0])
    return hand.played
