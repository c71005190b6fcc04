"""A game (partida) between two pairs and the limits that end it (R12 and the events' options).

R12 alone: deals add up until a pair reaches the target; with a deal limit the pair ahead when it
is reached wins, and level scores play on deal by deal until one pair scores. Real events add
options, all held by :class:`MatchRules`:

* ``target`` (101; ``None`` for a game of a fixed number of deals, as in Girona's 8-deal games);
* ``deal_limit`` (the regular deals at most; ``None``: no limit);
* time: the round's clock is called during a deal; that deal is finished and no new deal starts.
  It is an input of each game (:meth:`Partida.call_time`, or ``time_after`` = the last deal);
* ``cap``: the points counted for a game at most (121 in the Catalan opens); the winner is decided
  on the points scored, the cap only limits what counts (point difference);
* ``draw``: what level scores at the end of the regular deals mean:

  - ``play_on`` (R12): play on, deal by deal, until one pair scores;
  - ``half``: the game is drawn (half a win each in the standings);
  - ``tiebreak``: ``tiebreak_deals`` more deals are all played, then the pair ahead wins; still
    level after them, play on deal by deal as in R12 until one pair scores.

The target still ends the game during tie-break deals and sudden death: the first pair at or above
it wins at once (R12). Time only shortens the regular deals: tie-break deals are played after time.

>>> g = Partida.new(OPEN_SWISS, time_after=7)
>>> for ns, ew in [(30, 0), (0, 12), (20, 0), (0, 8), (0, 30), (0, 0), (0, 0)]:
...     g.add({"NS": ns, "EW": ew})
>>> g.finished, g.drawn, g.ended_by, g.scores
(True, True, 'draw', {'NS': 50, 'EW': 50})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "DRAW_RULES",
    "END_REASONS",
    "OPEN_SWISS",
    "R12",
    "MatchRules",
    "Partida",
]

DRAW_RULES = ("play_on", "half", "tiebreak")
# Why a game ended: a pair reached the target; the regular deals were all played (deal limit or
# time) and one pair was ahead; the tie-break deals decided; a later deal decided (sudden death);
# or the game was drawn.
END_REASONS = ("target", "deal_limit", "time", "tiebreak", "sudden_death", "draw")
_PAIRS = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The limits of one game; see the module docstring.

    >>> MatchRules(target=101, deal_limit=12, cap=121, draw="half")
    MatchRules(target=101, deal_limit=12, cap=121, draw='half', tiebreak_deals=2)
    >>> MatchRules(target=101, cap=90)
    Traceback (most recent call last):
    ...
    ValueError: the cap (90) must not be below the target (101)
    """

    target: int | None = 101
    deal_limit: int | None = None
    cap: int | None = None
    draw: str = "play_on"
    tiebreak_deals: int = 2

    def __post_init__(self) -> None:
        if self.target is not None and self.target < 1:
            raise ValueError(f"the target must be at least 1, not {self.target}")
        if self.deal_limit is not None and self.deal_limit < 1:
            raise ValueError(f"the deal limit must be at least 1, not {self.deal_limit}")
        if self.cap is not None and self.cap < 1:
            raise ValueError(f"the cap must be at least 1, not {self.cap}")
        if self.cap is not None and self.target is not None and self.cap < self.target:
            raise ValueError(f"the cap ({self.cap}) must not be below the target ({self.target})")
        if self.draw not in DRAW_RULES:
            raise ValueError(f"unknown draw rule {self.draw!r}; expected one of {DRAW_RULES}")
        if self.tiebreak_deals < 0:
            raise ValueError(f"tie-break deals must be 0 or more, not {self.tiebreak_deals}")


# R12 as the rules write it, and the open Swiss of the Catalan championships (ButiNET's Lloret,
# Torrefarrera, Vilaplana): 101 points or 12 deals or the clock, 121 counted at most, draws stand.
R12 = MatchRules()
OPEN_SWISS = MatchRules(target=101, deal_limit=12, cap=121, draw="half")


@dataclass
class Partida:
    """A game (R12): deals add up until a pair reaches the target or the limits end it.

    >>> g = Partida(target=101)
    >>> g.add({"NS": 70, "EW": 0}); g.add({"NS": 36, "EW": 0})
    >>> g.scores, g.winner, g.finished
    ({'NS': 106, 'EW': 0}, 'NS', True)

    Girona's 8-deal game, level after 8: two more deals decide.

    >>> g = Partida(target=None, deal_limit=8, draw="tiebreak", tiebreak_deals=2)
    >>> for _ in range(4):
    ...     g.add({"NS": 10, "EW": 0}); g.add({"NS": 0, "EW": 10})
    >>> g.finished, g.deals
    (False, 8)
    >>> g.add({"NS": 0, "EW": 6}); g.finished
    False
    >>> g.add({"NS": 8, "EW": 0}); g.winner, g.ended_by, g.scores
    ('NS', 'tiebreak', {'NS': 48, 'EW': 46})
    """

    target: int | None = 101
    deal_limit: int | None = None
    cap: int | None = None
    draw: str = "play_on"
    tiebreak_deals: int = 2
    time_after: int | None = None
    scores: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    deals: int = 0
    winner: str | None = None
    drawn: bool = False
    ended_by: str | None = None

    def __post_init__(self) -> None:
        # Validates the options (raises ValueError) without keeping a second copy of them.
        self.rules  # noqa: B018
        if self.time_after is not None and self.time_after < 0:
            raise ValueError(f"time cannot be called after deal {self.time_after}")

    @classmethod
    def new(cls, rules: MatchRules, *, time_after: int | None = None) -> Partida:
        """A game under ``rules``; ``time_after``: time was called during that deal.

        >>> Partida.new(OPEN_SWISS).deal_limit
        12
        """
        return cls(
            target=rules.target,
            deal_limit=rules.deal_limit,
            cap=rules.cap,
            draw=rules.draw,
            tiebreak_deals=rules.tiebreak_deals,
            time_after=time_after,
        )

    @property
    def rules(self) -> MatchRules:
        """The game's options as a :class:`MatchRules`."""
        return MatchRules(self.target, self.deal_limit, self.cap, self.draw, self.tiebreak_deals)

    @property
    def finished(self) -> bool:
        """True once a pair has won or the game is drawn."""
        return self.winner is not None or self.drawn

    @property
    def counted(self) -> dict[str, int]:
        """The points that count for the standings: the scores, each capped.

        >>> g = Partida(target=101, cap=121)
        >>> g.add({"NS": 96, "EW": 0}); g.add({"NS": 80, "EW": 0})
        >>> g.scores["NS"], g.counted["NS"]
        (176, 121)
        """
        if self.cap is None:
            return dict(self.scores)
        return {pair: min(score, self.cap) for pair, score in self.scores.items()}

    @property
    def regular_deals(self) -> int | None:
        """How many regular deals the game has: the deal limit or the deal time was called in."""
        limits = [x for x in (self.deal_limit, self.time_after) if x is not None]
        return min(limits) if limits else None

    def call_time(self, *, deal_in_progress: bool = True) -> None:
        """The round's time is up: the deal in progress is finished, no new deal starts.

        Without a deal in progress the regular deals end now. Once the regular deals are over
        (tie-break deals, sudden death) time changes nothing.

        >>> g = Partida(target=101); g.add({"NS": 20, "EW": 0}); g.call_time()
        >>> g.add({"NS": 0, "EW": 4}); g.winner, g.ended_by
        ('NS', 'time')
        """
        if self.finished:
            return
        limit = self.regular_deals
        if limit is not None and limit <= self.deals:
            return
        self.time_after = self.deals + (1 if deal_in_progress else 0)
        if not deal_in_progress:
            self._settle()

    def add(self, score: Mapping[str, int]) -> None:
        """Add a complete deal's score (a penalty score counts as a complete deal, R12)."""
        if self.finished:
            raise ValueError("the game is already over (R12)")
        ns, ew = score.get("NS", 0), score.get("EW", 0)
        if ns < 0 or ew < 0 or (ns > 0 and ew > 0):
            raise ValueError("only one pair can score in a deal (R9, R12)")
        self.scores = {"NS": self.scores["NS"] + ns, "EW": self.scores["EW"] + ew}
        self.deals += 1
        if self.target is not None:
            for pair in _PAIRS:
                if self.scores[pair] >= self.target:
                    self.winner, self.ended_by = pair, "target"
                    return
        self._settle()

    def _settle(self) -> None:
        limit = self.regular_deals
        if limit is None or self.deals < limit:
            return
        extra = self.deals - limit
        if self.draw == "tiebreak" and 0 < extra < self.tiebreak_deals:
            return  # the tie-break deals are all played before anyone wins
        ns, ew = self.scores["NS"], self.scores["EW"]
        if ns != ew:
            self.winner = "NS" if ns > ew else "EW"
            if extra == 0:
                by_time = self.time_after == limit and (
                    self.deal_limit is None or limit < self.deal_limit
                )
                self.ended_by = "time" if by_time else "deal_limit"
            elif self.draw == "tiebreak" and extra == self.tiebreak_deals:
                self.ended_by = "tiebreak"
            else:
                self.ended_by = "sudden_death"
        elif extra == 0 and self.draw == "half":
            self.drawn, self.ended_by = True, "draw"
