"""Derive the Botifarra difference scale from simulated boards (docs/teams.md, "The scale").

Every board is dealt with the engine's seeded generator (``engine.deal_board``) and played at
two tables by the same simple model with independent noise, as the two rooms of a team match.
The difference between the two tables' North–South nets is what a team wins or loses on the
board. The scale has the shape ``units = round(gain × asinh(|d| / width))``: linear for everyday
differences, logarithmic for doubled hands (each doubling of a big swing adds the same number
of units, as a contro doubles the stakes). Two numbers fix it:

* ``width`` comes from the simulated distribution: it is the one for which the largest lliure
  swing (576 points) is worth exactly ``MATCH_OF_EDGES`` (8) boards each won by the mean
  non-zero edge, so that one big doubled hand never outweighs a match of small edges;
* ``gain`` puts the largest difference possible (1152) at 24 units, the top of the IMP table.

The edges are where the rounded value steps, rounded to two significant figures. The same run
gives the victory-point blitz constant (2.5 standard deviations of the per-board units, per
square root of a board) and the units of an artificial adjusted score (the mean |units| a board).

    python benchmarks/difference_scale.py            # figures + check against the shipped table
    python benchmarks/difference_scale.py --write    # rewrite scoring/difference_scale.json
    python benchmarks/difference_scale.py --boards 2000 --sensitivity   # smaller, with variants

The model (its limits are listed in docs/teams.md):

* **Trump choice** (R4). Each player values each suit as trumps and botifarra with a point
  count (length and honours). The dealer names botifarra, names their best suit or delegates;
  after a delegation the partner names botifarra or their best suit. Thresholds are quantiles of
  a calibration sample, so that the frequencies are the model's stated ones (``Model``); each
  valuation gets Gaussian noise, so two tables do not always choose alike.
* **Doubling** (R5). The defenders contro when the better of their two valuations of the
  contract (plus noise) is in the top ``contro`` share; the choosing pair recontros, the
  defenders call Sant Vicenç (suit contracts only: lliure, R11) in the same way.
* **Play** (R6, R7). Legal cards come from ``engine.Hand``. A greedy player: the leader cashes a
  master card (the highest one left in its suit), draws trumps when long in them, otherwise leads
  low from the longest side suit; a follower charges points on a trick the partner surely wins,
  wins with a card nobody left can beat, plays high third hand, otherwise discards the cheapest
  card. With probability ``play_noise`` a player plays a random legal card instead.
* **Illegal plays** (R10). With probability ``illegal`` a table's board ends in an illegal play
  by a random seat: the other pair scores 36 × multiplier.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Hand, Seat, deal_board, hand_score, multiplier, penalty_score  # noqa: E402
from engine.cards import CARD_POINTS, CARD_STRENGTH, CARD_SUIT, SUIT_MASK  # noqa: E402
from engine.deals import Deal  # noqa: E402
from engine.rules import BEATS, TRUMP_INDEX  # noqa: E402

SEED = "botifarra-difference-scale"
CALIBRATION_SEED = "botifarra-difference-scale-calibration"
BOARDS = 20_000
CALIBRATION_BOARDS = 4_000
SUITS = ("oros", "copes", "espases", "bastos")
TABLE_PATH = ROOT / "scoring" / "difference_scale.json"

#: Cards of the same suit stronger than each card (R1 strength order).
HIGHER: tuple[int, ...] = tuple(
    sum(
        1 << x
        for x in range(48)
        if CARD_SUIT[x] == CARD_SUIT[c] and CARD_STRENGTH[x] > CARD_STRENGTH[c]
    )
    for c in range(48)
)


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Model:
    """The simulation's assumptions: call frequencies and noise (none of them measured)."""

    delegate: float = 0.40  # the dealer delegates the choice
    dealer_botifarra: float = 0.12  # the dealer names botifarra
    partner_botifarra: float = 0.20  # after a delegation, the partner names botifarra
    contro: float = 0.25  # of all contracts
    recontro: float = 0.25  # of contros
    sant_vicenc: float = 0.20  # of recontros, suit contracts only (lliure)
    illegal: float = 0.01  # a table's board ends in an illegal play (R10)
    eval_noise: float = 1.5  # sd of the noise on a valuation (valuation points)
    play_noise: float = 0.05  # a player plays a random legal card


# -- valuations ---------------------------------------------------------------------------------
def suit_value(hand: int, trump: int) -> float:
    """A point count of ``hand`` with ``trump`` (0–3) as trumps: trump length and honours, side
    aces and manilles (9s), short side suits."""
    value = 0.0
    for s in range(4):
        cards = hand & SUIT_MASK[s]
        n = cards.bit_count()
        nine = cards >> (12 * s + 8) & 1
        ace = cards >> (12 * s) & 1
        king = cards >> (12 * s + 11) & 1
        if s == trump:
            value += 2 * n + 4 * nine + 3 * ace + 2 * king + (cards >> (12 * s + 10) & 1)
        else:
            value += 3 * nine + (2 if ace and nine else ace) + (1 if king and ace and nine else 0)
            value += {0: 3, 1: 2}.get(n, 0)
    return value


def botifarra_value(hand: int) -> float:
    """A point count for botifarra: sure tricks from the top of each suit and long strong suits."""
    value = 0.0
    for s in range(4):
        cards = hand & SUIT_MASK[s]
        n = cards.bit_count()
        nine = cards >> (12 * s + 8) & 1
        ace = cards >> (12 * s) & 1
        king = cards >> (12 * s + 11) & 1
        value += 4 * nine + (3 if ace and nine else ace) + (2 if king and ace and nine else 0)
        if nine and n > 4:
            value += 2 * (n - 4)
    return value


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered))))]


def _jitter(value: float, rng: random.Random, noise: float) -> float:
    return value + rng.gauss(0, noise) if noise else value


def _views(hand: int, rng: random.Random, noise: float) -> tuple[float, str, float]:
    """A player's noisy view of their hand: botifarra value, best suit and its value."""
    bot = _jitter(botifarra_value(hand), rng, noise)
    suits = [(_jitter(suit_value(hand, TRUMP_INDEX[s]), rng, noise), s) for s in SUITS]
    value, suit = max(suits)
    return bot, suit, value


def pair_value(deal: Deal, trump: str, *, ew: bool) -> float:
    """The better valuation of ``trump`` among the two players of a pair."""
    seats = (Seat.E, Seat.W) if ew else (Seat.N, Seat.S)
    if trump == "botifarra":
        return max(botifarra_value(deal.hands[s]) for s in seats)
    t = TRUMP_INDEX[trump]
    return max(suit_value(deal.hands[s], t) for s in seats)


@dataclass(frozen=True)
class Thresholds:
    dealer_botifarra: float
    dealer_suit: float
    partner_botifarra: float
    contro: tuple[float, float]  # suit contract, botifarra
    recontro: tuple[float, float]
    sant_vicenc: float


def calibrate(model: Model, boards: int = CALIBRATION_BOARDS) -> Thresholds:
    """Thresholds that give the model's frequencies on the noisy valuations of sample deals.

    The calibration deals come from their own seed, not from the boards measured.
    """
    rng = random.Random(CALIBRATION_SEED)
    noise = model.eval_noise
    deals = [deal_board(CALIBRATION_SEED, b) for b in range(1, boards + 1)]
    views = [
        (_views(d.hands[d.dealer], rng, noise), _views(d.hands[d.dealer.partner], rng, noise))
        for d in deals
    ]
    t_dbot = quantile([dv[0] for dv, _ in views], 1 - model.dealer_botifarra)
    kept = [dv[2] for dv, _ in views if dv[0] < t_dbot]
    share_suit = (1 - model.delegate - model.dealer_botifarra) / (1 - model.dealer_botifarra)
    t_dsuit = quantile(kept, 1 - share_suit)
    t_pbot = quantile([pv[0] for _, pv in views], 1 - model.partner_botifarra)
    # Per kind of contract (0 a suit, 1 botifarra): the defenders' and the choosing pair's
    # noisy valuations of the contract.
    values: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for deal, (dv, pv) in zip(deals, views, strict=True):
        trump = _named(dv, pv, t_dbot, t_dsuit, t_pbot)
        ew = deal.dealer.pair == "EW"
        values[int(trump == "botifarra")].append(
            (
                _jitter(pair_value(deal, trump, ew=not ew), rng, noise),
                _jitter(pair_value(deal, trump, ew=ew), rng, noise),
            )
        )
    t_contro = tuple(quantile([d for d, _ in values[k]], 1 - model.contro) for k in (0, 1))
    doubled = tuple([v for v in values[k] if v[0] >= t_contro[k]] for k in (0, 1))
    t_recontro = tuple(quantile([c for _, c in doubled[k]], 1 - model.recontro) for k in (0, 1))
    redoubled = [d for d, c in doubled[0] if c >= t_recontro[0]]
    t_sv = quantile(redoubled, 1 - model.sant_vicenc)
    return Thresholds(t_dbot, t_dsuit, t_pbot, t_contro, t_recontro, t_sv)  # type: ignore[arg-type]


def _named(
    dealer: tuple[float, str, float],
    partner: tuple[float, str, float],
    t_dbot: float,
    t_dsuit: float,
    t_pbot: float,
) -> str:
    if dealer[0] >= t_dbot:
        return "botifarra"
    if dealer[2] >= t_dsuit:
        return dealer[1]
    if partner[0] >= t_pbot:
        return "botifarra"
    return partner[1]


def choose_trump(deal: Deal, th: Thresholds, model: Model, rng: random.Random) -> tuple[str, bool]:
    """The trump named (R4) and whether the choosing pair is EW."""
    dealer = _views(deal.hands[deal.dealer], rng, model.eval_noise)
    partner = _views(deal.hands[deal.dealer.partner], rng, model.eval_noise)
    trump = _named(dealer, partner, th.dealer_botifarra, th.dealer_suit, th.partner_botifarra)
    return trump, deal.dealer.pair == "EW"


def choose_calls(
    deal: Deal, trump: str, chooser_ew: bool, th: Thresholds, model: Model, rng: random.Random
) -> list[str]:
    """The doubling calls (R5): each pair calls when its noisy valuation clears the threshold."""
    kind = int(trump == "botifarra")

    def strong(ew: bool, threshold: float) -> bool:
        return _jitter(pair_value(deal, trump, ew=ew), rng, model.eval_noise) >= threshold

    calls: list[str] = []
    if strong(not chooser_ew, th.contro[kind]):
        calls.append("contro")
        if strong(chooser_ew, th.recontro[kind]):
            calls.append("recontro")
            # Sant Vicenç is not allowed in botifarra under the default rules (lliure, R11).
            if kind == 0 and strong(not chooser_ew, th.sant_vicenc):
                calls.append("sant_vicenc")
    return calls


# -- play ---------------------------------------------------------------------------------------
def _winner(trick: list[tuple[int, int]], t: int) -> tuple[int, int]:
    win_seat, win = trick[0]
    for seat, card in trick[1:]:
        if BEATS[t][win] >> card & 1:
            win_seat, win = seat, card
    return win_seat, win


def _safe(
    card: int, led: int, t: int, outside: int, later_opponents: list[int], voids: list[int]
) -> bool:
    """Nobody still to play can beat ``card``, as far as the player can tell."""
    if HIGHER[card] & outside:
        return False
    if t < 4 and CARD_SUIT[card] != t and SUIT_MASK[t] & outside:
        return not any(voids[o] >> led & 1 for o in later_opponents)
    return True


def choose_card(hand: Hand, t: int, played: int, voids: list[int]) -> int:
    """The greedy model's card for the player to move (``played``: every card seen so far;
    ``voids``: per seat, a bit per suit it is known to be void in)."""
    seat = hand.to_move.value
    me = hand.hands[hand.to_move]
    legal = hand.legal_mask()
    outside = ((1 << 48) - 1) & ~played & ~me
    trump_mask = SUIT_MASK[t] if t < 4 else 0
    options = list(bits(legal))
    if len(options) == 1:
        return options[0]
    trick = [(s.value, c) for s, c in hand.trick]
    opponents = [(seat + 1) & 3, (seat + 3) & 3]
    if not trick:
        masters = [
            c
            for c in options
            if not HIGHER[c] & outside
            and (
                CARD_SUIT[c] == t
                or not trump_mask & outside
                or not any(voids[o] >> CARD_SUIT[c] & 1 for o in opponents)
            )
        ]
        if masters:
            return max(masters, key=lambda c: (CARD_POINTS[c], CARD_STRENGTH[c]))
        mine_t = me & trump_mask
        if (
            mine_t
            and trump_mask & outside
            and mine_t.bit_count() >= (trump_mask & outside).bit_count()
        ):
            return min(bits(mine_t), key=lambda c: CARD_STRENGTH[c])
        side = [s for s in range(4) if s != t and me & SUIT_MASK[s]]
        if side:
            longest = max(side, key=lambda s: ((me & SUIT_MASK[s]).bit_count(), s))
            return min(
                bits(me & SUIT_MASK[longest]), key=lambda c: (CARD_POINTS[c], CARD_STRENGTH[c])
            )
        return min(options, key=lambda c: CARD_STRENGTH[c])
    led = CARD_SUIT[trick[0][1]]
    win_seat, win = _winner(trick, t)
    partner_winning = (win_seat ^ seat) == 2
    pos = len(trick)
    later = [(seat + 3 * k) & 3 for k in range(1, 4 - pos)]
    later_opponents = [s for s in later if (s ^ seat) & 1]
    winners = [c for c in options if BEATS[t][win] >> c & 1]

    def cheapest(cards: list[int]) -> int:
        return min(
            cards, key=lambda c: (CARD_POINTS[c], bool(trump_mask >> c & 1), CARD_STRENGTH[c])
        )

    def charge(cards: list[int]) -> int:
        return max(cards, key=lambda c: (CARD_POINTS[c], -CARD_STRENGTH[c]))

    if partner_winning and (pos == 3 or _safe(win, led, t, outside, later_opponents, voids)):
        return charge(options)
    if winners:
        safe = [c for c in winners if pos == 3 or _safe(c, led, t, outside, later_opponents, voids)]
        if safe:
            return max(safe, key=lambda c: (CARD_POINTS[c], -CARD_STRENGTH[c]))
        if pos == 2 and not partner_winning:
            return max(winners, key=lambda c: CARD_STRENGTH[c])
        if len(winners) == len(options):
            return min(winners, key=lambda c: CARD_STRENGTH[c])
    return cheapest(options)


def play(deal: Deal, trump: str, rng: random.Random, play_noise: float) -> dict[str, int]:
    """Play the hand out with the greedy model; returns the pairs' totals (R9)."""
    hand = Hand(deal, trump)
    t = TRUMP_INDEX[trump]
    played = 0
    voids = [0, 0, 0, 0]
    while not hand.is_over:
        if rng.random() < play_noise:
            card = rng.choice(list(bits(hand.legal_mask())))
        else:
            card = choose_card(hand, t, played, voids)
        trick = hand.trick
        if trick and CARD_SUIT[card] != CARD_SUIT[trick[0][1]]:
            voids[hand.to_move.value] |= 1 << CARD_SUIT[trick[0][1]]
        hand.play(card)
        played |= 1 << card
    return hand.totals


@dataclass(frozen=True, slots=True)
class TableResult:
    trump: str
    calls: tuple[str, ...]
    multiplier: int
    net_ns: int
    illegal: bool


def play_table(deal: Deal, th: Thresholds, model: Model, rng: random.Random) -> TableResult:
    trump, chooser_ew = choose_trump(deal, th, model, rng)
    calls = choose_calls(deal, trump, chooser_ew, th, model, rng)
    mult = multiplier(trump, calls)
    if rng.random() < model.illegal:
        score = penalty_score(rng.choice(("NS", "EW")), mult)
        illegal = True
    else:
        score = hand_score(play(deal, trump, rng, model.play_noise), mult)
        illegal = False
    return TableResult(trump, tuple(calls), mult, score["NS"] - score["EW"], illegal)


def simulate(
    model: Model, th: Thresholds, boards: int, seed: str = SEED
) -> list[tuple[TableResult, TableResult]]:
    out = []
    for b in range(1, boards + 1):
        deal = deal_board(seed, b)
        rooms = []
        for room in (1, 2):
            rng = random.Random(f"{seed}:{b}:{room}")
            rooms.append(play_table(deal, th, model, rng))
        out.append((rooms[0], rooms[1]))
    return out


# -- the scale ---------------------------------------------------------------------------------
#: The largest difference possible: botifarra with Sant Vicenç (×16, obligada) won 72–0 at one
#: table and lost 0–72 at the other: 2 × 36 × 16. Under lliure (×8 at most) it is 576.
TOP = 1152
TOP_LLIURE = 576
#: Like the IMP table, the largest difference possible is worth 24 units.
TOP_UNITS = 24
#: The dominance criterion: the largest lliure swing is worth as much as a match of this many
#: boards, each won by the mean non-zero edge (a Lliga game is eight hands).
MATCH_OF_EDGES = 8


def two_figures(x: float) -> int:
    """``x`` rounded to two significant figures, halves up (edges read like the IMP table's)."""
    if x < 100:
        return round(x)
    step = 10 ** (len(str(int(x))) - 2)
    return math.floor(x / step + 0.5) * step  # halves up


def dominance(abs_diffs: Sequence[int], width: float) -> float:
    """How many mean non-zero edges the largest lliure swing is worth on asinh(d / width)."""
    nonzero = [d for d in abs_diffs if d]
    mean = statistics.fmean(math.asinh(d / width) for d in nonzero)
    return math.asinh(TOP_LLIURE / width) / mean


def body_width(abs_diffs: Sequence[int]) -> float:
    """The width where the scale turns from linear to logarithmic: the one on which the largest
    lliure swing is worth exactly ``MATCH_OF_EDGES`` mean edges (bisection; the ratio grows with
    the width)."""
    low, high = 0.5, float(TOP)
    if not dominance(abs_diffs, low) <= MATCH_OF_EDGES <= dominance(abs_diffs, high):
        raise SystemExit("the dominance criterion cannot be met on this distribution")
    for _ in range(60):
        mid = (low + high) / 2
        if dominance(abs_diffs, mid) < MATCH_OF_EDGES:
            low = mid
        else:
            high = mid
    return round((low + high) / 2, 2)


def scale_edges(width: float) -> tuple[float, list[int]]:
    """The units per e-fold that put the top at ``TOP_UNITS``, and the band edges: unit k from
    the smallest difference where ``gain × asinh(d / width)`` reaches k − ½ (rounded half up),
    rounded to two significant figures."""
    gain = TOP_UNITS / math.asinh(TOP / width)
    edges: list[int] = []
    for k in range(1, TOP_UNITS + 1):
        e = two_figures(math.ceil(width * math.sinh((k - 0.5) / gain)))
        edges.append(max(e, edges[-1] + 1) if edges else max(e, 1))
    return gain, edges


def units(edges: Sequence[int], diff: int) -> int:
    """The scale of ``diff`` with these edges (odd: the sign of the difference)."""
    n = sum(1 for e in edges if abs(diff) >= e)
    return n if diff >= 0 else -n


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %"


#: The blitz (20–0) margin in standard deviations of the margin between two equal teams.
BLITZ_SDS = 2.5

VARIANTS: dict[str, dict[str, float]] = {
    "careful_play": {"play_noise": 0.025},
    "careless_play": {"play_noise": 0.10},
    "similar_choices": {"eval_noise": 1.0},
    "different_choices": {"eval_noise": 2.0},
    "fewer_doubles": {"contro": 0.15, "recontro": 0.15, "sant_vicenc": 0.10},
    "more_doubles": {"contro": 0.35, "recontro": 0.35, "sant_vicenc": 0.30},
}


@dataclass(frozen=True)
class Derivation:
    width: float
    gain: float
    edges: list[int]
    board_units_sd: float
    board_units_abs_mean: float
    nonzero_units_mean: float

    @property
    def blitz_per_sqrt_board(self) -> int:
        return round(BLITZ_SDS * self.board_units_sd)

    @property
    def adjusted_units(self) -> int:
        return round(self.board_units_abs_mean)


def derive(diffs: Sequence[int]) -> Derivation:
    width = body_width(sorted(abs(d) for d in diffs))
    gain, edges = scale_edges(width)
    board_units = [units(edges, d) for d in diffs]
    return Derivation(
        width,
        gain,
        edges,
        statistics.pstdev(board_units),
        statistics.fmean(abs(u) for u in board_units),
        statistics.fmean(abs(u) for u, d in zip(board_units, diffs, strict=True) if d),
    )


def table_json(d: Derivation, boards: int, model: Model) -> dict[str, object]:
    return {
        "about": "The Botifarra difference scale (docs/teams.md). Generated by "
        f"`python benchmarks/difference_scale.py --write --boards {boards}`: do not edit by hand.",
        "edges": d.edges,
        "blitz_per_sqrt_board": d.blitz_per_sqrt_board,
        "adjusted_units": d.adjusted_units,
        "derivation": {
            "seed": SEED,
            "calibration_seed": CALIBRATION_SEED,
            "boards": boards,
            "model": {k: getattr(model, k) for k in Model.__dataclass_fields__},
            "match_of_edges": MATCH_OF_EDGES,
            "top_units": TOP_UNITS,
            "width": d.width,
            "gain": round(d.gain, 4),
            "blitz_sds": BLITZ_SDS,
            "board_units_sd": round(d.board_units_sd, 4),
            "board_units_abs_mean": round(d.board_units_abs_mean, 4),
        },
    }


def report(sims: list[tuple[TableResult, TableResult]], elapsed: float) -> Derivation:
    tables = [r for pair in sims for r in pair]
    diffs = [a.net_ns - b.net_ns for a, b in sims]
    abs_diffs = sorted(abs(d) for d in diffs)
    nets = sorted(abs(r.net_ns) for r in tables)
    n, nt = len(diffs), len(tables)
    print(f"boards: {n} boards")
    print(f"simulation_s: {elapsed:.1f} s")
    print(f"botifarra_named: {pct(sum(r.trump == 'botifarra' for r in tables), nt)}")
    for call in ("contro", "recontro", "sant_vicenc"):
        print(f"{call}_called: {pct(sum(call in r.calls for r in tables), nt)}")
    print(f"illegal_play: {pct(sum(r.illegal for r in tables), nt)}")
    print(f"same_trump_both_tables: {pct(sum(a.trump == b.trump for a, b in sims), n)}")
    same = sum(a.trump == b.trump and a.multiplier == b.multiplier for a, b in sims)
    print(f"same_contract_both_tables: {pct(same, n)}")
    for q in (50, 90, 99):
        print(f"table_abs_net_p{q}: {quantile(nets, q / 100):.0f} points")
    print(f"table_abs_net_max: {nets[-1]} points")
    print(f"difference_zero: {pct(abs_diffs.count(0), n)}")
    for q in (25, 50, 75, 90, 95, 99, 99.9):
        print(f"difference_abs_p{q:g}: {quantile(abs_diffs, q / 100):.0f} points")
    print(f"difference_abs_max: {abs_diffs[-1]} points")
    d = derive(diffs)
    nonzero = [x for x in abs_diffs if x]
    print(f"body_width: {d.width} points")
    print(f"units_per_efold: {d.gain:.3f} units")
    print(f"scale_edges: {','.join(map(str, d.edges))} points")
    print(f"units_median_difference: {units(d.edges, nonzero[len(nonzero) // 2])} units")
    print(f"units_mean_nonzero_difference: {d.nonzero_units_mean:.2f} units")
    print(f"units_{TOP_LLIURE}: {units(d.edges, TOP_LLIURE)} units")
    print(f"units_{TOP}: {units(d.edges, TOP)} units")
    print(f"dominance: {units(d.edges, TOP_LLIURE) / d.nonzero_units_mean:.2f} mean edges")
    print(f"board_units_sd: {d.board_units_sd:.2f} units")
    print(f"board_units_abs_mean: {d.board_units_abs_mean:.2f} units")
    counts = [0] * (TOP_UNITS + 1)
    for x in diffs:
        counts[abs(units(d.edges, x))] += 1
    for k, c in enumerate(counts):
        if c:
            print(f"board_units_{k}: {pct(c, n)}")
    print(f"blitz_per_sqrt_board: {d.blitz_per_sqrt_board} units")
    print(f"adjusted_units: {d.adjusted_units} units")
    return d


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=BOARDS)
    parser.add_argument("--write", action="store_true", help=f"rewrite scoring/{TABLE_PATH.name}")
    parser.add_argument(
        "--sensitivity", action="store_true", help="also derive the scale under other assumptions"
    )
    args = parser.parse_args(argv)
    model = Model()
    start = time.perf_counter()
    sims = simulate(model, calibrate(model), args.boards)
    derivation = report(sims, time.perf_counter() - start)
    new = table_json(derivation, args.boards, model)
    if args.write:
        TABLE_PATH.write_text(json.dumps(new, indent=2) + "\n", encoding="utf-8")
        print(f"written: scoring/{TABLE_PATH.name}")
    elif TABLE_PATH.exists():
        shipped = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
        same = all(
            shipped.get(k) == new[k] for k in ("edges", "blitz_per_sqrt_board", "adjusted_units")
        )
        print(f"matches_shipped_table: {'yes' if same else 'no'}")
    if args.sensitivity:
        boards = max(args.boards // 4, 1000)
        for name, change in VARIANTS.items():
            variant = replace(model, **change)
            d = derive(
                [a.net_ns - b.net_ns for a, b in simulate(variant, calibrate(variant), boards)]
            )
            moved = max(abs(units(d.edges, x) - units(derivation.edges, x)) for x in range(TOP + 1))
            print(f"variant_{name}_body_width: {d.width} points")
            print(f"variant_{name}_edges: {','.join(map(str, d.edges))} points")
            print(f"variant_{name}_max_change: {moved} units")
            print(f"variant_{name}_blitz_per_sqrt_board: {d.blitz_per_sqrt_board} units")
    return 0


if __name__ == "__main__":
    sys.exit(main())
