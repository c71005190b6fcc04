"""The one adapter between the models and the engine.

Boards as deals, events as rules, records written with ``engine.record``, replays and their
verdicts, the card-by-card state, short results scored, a verdict as the values a result stores.
Everything on the Django side that needs the engine's rules goes through here; the engine stays
pure Python and knows nothing of the models.
"""

from __future__ import annotations

import hmac
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine.analysis import Analysis, CardCost, analyse_deal
from engine.analysis import card_costs as engine_card_costs
from engine.record import FORMAT as RECORD_FORMAT
from engine.record import canonical as canonical_record
from engine.record import make_record
from engine.replay import ordered_verdict
from engine.solver import BACKEND
from tournaments.models import Board, BoardResult, Event

FORMAT = RECORD_FORMAT
SOLVER = BACKEND  # the perfect-play search that runs: "c" (the extension) or "python"
SEATS_ANTICLOCKWISE = ("N", "W", "S", "E")  # the order of play (R2)


def partner(seat: str) -> str:
    return engine.Seat.from_str(seat).partner.name


def choosing_pair(dealer: str) -> str:
    """The pair that chose the trump: the dealer's, delegated or not (R4)."""
    return engine.choosing_pair(engine.Seat.from_str(dealer), False)


def pair_of(seat: str) -> str:
    """``NS`` or ``EW``: the partnership of a seat (R2)."""
    return engine.Seat.from_str(seat).pair


def call_seats(board: Board) -> dict[str, list[str]]:
    """Who may make each call on this board (R5): contro and Sant Vicenç the opponents of the
    choosing pair, recontro the choosing pair (the dealer's, delegated or not), each list from
    the dealer round the table as play goes."""
    choosers = choosing_pair(board.dealer)
    start = SEATS_ANTICLOCKWISE.index(board.dealer)
    order = SEATS_ANTICLOCKWISE[start:] + SEATS_ANTICLOCKWISE[:start]
    mine = [s for s in order if engine.Seat.from_str(s).pair == choosers]
    theirs = [s for s in order if engine.Seat.from_str(s).pair != choosers]
    return {"contro": theirs, "recontro": mine, "sant_vicenc": theirs}


def rules(event: Event) -> engine.Rules:
    """The event's rules (R11): its ruleset and its Sant Vicenç setting."""
    return engine.Rules(
        ruleset=event.ruleset, sant_vicenc_in_botifarra=event.sant_vicenc_in_botifarra
    )


def deal(board: Board) -> engine.Deal:
    """The board's seeded deal as the engine reads it."""
    return engine.Deal(
        board=board.number,
        dealer=engine.Seat.from_str(board.dealer),
        hands={
            engine.Seat.from_str(seat): engine.cards_to_mask(engine.parse_token(t) for t in tokens)
            for seat, tokens in board.hands.items()
        },
    )


def seeded(event: Event, number: int) -> Board:
    """Board ``number`` of the event, dealt from its seed (deals.md), not yet saved."""
    return dealt_from(event.seed, number, event=event)


def dealt_from(seed: str, number: int, *, event: Event | None = None) -> Board:
    """Board ``number`` as ``seed`` deals it (deals.md), not saved: any seed, anyone's."""
    dealt = engine.deal_board(seed, number).to_json()
    return Board(event=event, number=number, dealer=dealt["dealer"], hands=dealt["hands"])


def seed_commitment(seed: str) -> str:
    return engine.commitment(seed)


def seed_matches(event: Event, seed: str) -> bool:
    """Whether ``seed`` is the one the event committed to (its SHA-256 is the commitment)."""
    return hmac.compare_digest(seed_commitment(seed), event.commitment)


def matches_seed(board: Board) -> bool:
    fresh = seeded(board.event, board.number)
    return (fresh.dealer, fresh.hands) == (board.dealer, board.hands)


def record(
    board: Board,
    *,
    trump: str,
    delegated: bool = False,
    doubles: Sequence[Mapping[str, str]] = (),
    cards: Sequence[str] = (),
) -> dict[str, Any]:
    """A play record for the board (its hands left out: the board holds them)."""
    return make_record(
        dealer=board.dealer,
        hands=None,
        trump=trump,
        delegated=delegated,
        doubles=doubles,
        play=cards,
        ruleset=board.event.ruleset,
    )


def result_record(board: Board, result: BoardResult, cards: Sequence[str]) -> dict[str, Any]:
    """A record with the contract of the table's short result (card-by-card entry)."""
    return record(
        board,
        trump=result.trump,
        delegated=result.delegated,
        doubles=result.doubles,
        cards=cards,
    )


def as_sent(raw: Any) -> str:
    """A record as the table sent it, for ``PlayRecord.received``: JSON text, keys in the order
    sent."""
    return json.dumps(raw, ensure_ascii=False)


def canonical(board: Board, raw: Mapping[str, Any]) -> dict[str, Any]:
    """What is stored of a valid record for ``board``: play-record.md's keys only, without the
    hands, and with the event's ruleset (the one it was judged under: a record that leaves
    ``ruleset`` out would otherwise be stored with the default, lliure, and no longer replay
    against the board of an obligada event)."""
    out = canonical_record(raw, hands=False)
    out["ruleset"] = board.event.ruleset
    return out


def record_out(record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored record as it is given out: play-record.md's keys in their order (the database
    may give JSON back with its keys sorted)."""
    return canonical_record(record)


def verdict_out(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A stored verdict as it is given out, in play-record.md's key order."""
    return ordered_verdict(verdict)


def published(board: Board, stored: Mapping[str, Any], *, ruleset: str) -> dict[str, Any]:
    """A stored record as it is republished: canonical, with the board's hands and the event's
    ruleset."""
    out = canonical_record(stored, hands=False)
    out["ruleset"] = ruleset
    out["deal"]["hands"] = {s: board.hands[s] for s in ("N", "E", "S", "W")}
    return out


def check_form(board: Board, raw: Any) -> list[engine.Problem]:
    """The record's problems that do not depend on the board's cards (``engine.check_form``)."""
    return list(engine.check_form(raw, deal=deal(board), rules=rules(board.event)))


def replay(board: Board, raw: Any) -> engine.Verdict:
    return engine.replay(raw, deal=deal(board), rules=rules(board.event))


def steps(board: Board, raw: Any) -> list[engine.Step]:
    """Every card with its seat, legal cards, trick winners and totals (the referee's replay).
    Raises ``engine.InvalidRecord``."""
    return engine.replay_steps(raw, deal=deal(board), rules=rules(board.event))


def analyse(board: Board) -> Analysis:
    """The board's perfect-play totals under the five trumps and its par (docs/analysis.md):
    five whole-deal solves, seconds to minutes each."""
    return analyse_deal(deal(board), rules=rules(board.event))


def card_costs(board: Board, raw: Any) -> list[CardCost]:
    """What each legal card of a play record of this board cost its side (perfect play).
    Raises ``engine.InvalidRecord``."""
    return engine_card_costs(raw, deal=deal(board), rules=rules(board.event))


def short_score(board: Board, **contract: Any) -> engine.ShortScore:
    """Score a short result (R5, R9, R10); raises ``engine.InvalidRecord`` with every problem."""
    return engine.score_short_result(
        dealer=engine.Seat.from_str(board.dealer), rules=rules(board.event), **contract
    )


def stored_values(verdict: engine.Verdict, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The values a result stores for a complete or illegal verdict of ``raw``."""
    choice = raw["choice"]
    assert verdict.score is not None and verdict.multiplier is not None
    values: dict[str, Any] = {
        "delegated": bool(choice["delegated"]),
        "trump": choice["trump"],
        "doubles": [{"seat": d["seat"], "call": d["call"]} for d in raw.get("doubles") or []],
        "multiplier": verdict.multiplier,
        "score_ns": verdict.score["NS"],
        "score_ew": verdict.score["EW"],
    }
    if verdict.outcome == engine.Outcome.COMPLETE:
        assert verdict.totals is not None
        return values | {
            "totals_ns": verdict.totals["NS"],
            "totals_ew": verdict.totals["EW"],
            "offending_pair": "",
            "capot": bool(verdict.capot),
        }
    return values | {
        "totals_ns": None,
        "totals_ew": None,
        "offending_pair": verdict.offending_pair,
        "capot": False,
    }


@dataclass(frozen=True)
class PlayState:
    """What the card-by-card page draws after the cards so far."""

    to_move: str | None  # the seat to play, None once the hand is over
    legal: list[str]  # its legal cards
    hands: dict[str, list[str]]  # what each seat still holds
    trick: list[dict[str, str]]  # the cards of the current trick, with their seats
    trick_number: int
    trick_winner: str | None
    tricks: dict[str, int]
    totals: dict[str, int]
    verdict: engine.Verdict | None  # once 48 cards are in

    def to_json(self) -> dict[str, Any]:
        state = {
            "count": sum(12 - len(h) for h in self.hands.values()),
            "to_move": self.to_move,
            "hands": self.hands,
            "trick": self.trick,
            "trick_number": self.trick_number,
            "trick_winner": self.trick_winner,
            "tricks": self.tricks,
            "totals": self.totals,
            "complete": self.to_move is None,
        }
        if self.verdict is not None:
            state["verdict"] = self.verdict.to_json()
        return state


def play_state(board: Board, result: BoardResult, cards: Sequence[str]) -> PlayState:
    """The state after ``cards`` under the table's short result; raises
    ``engine.InvalidRecord`` when they are not a legal beginning of the hand."""
    raw = result_record(board, result, cards)
    the_deal, the_rules = deal(board), rules(board.event)
    done = engine.replay_steps(raw, deal=the_deal, rules=the_rules)
    if any(s.rule is not None for s in done):
        raise engine.InvalidRecord(
            [
                engine.Problem(
                    engine.ProblemCode.ILLEGAL_CARD,
                    {"card": done[-1].card_token},
                    f"play[{done[-1].index}]",
                )
            ]
        )
    played = set(cards)
    hands = {seat: [t for t in tokens if t not in played] for seat, tokens in board.hands.items()}
    tricks = {"NS": 0, "EW": 0}
    for step in done:
        if step.winner is not None:
            tricks[step.winner.pair] += 1
    n = len(done)
    current = done[n - (n % 4 or 4) :] if n else []
    complete = n == 48
    following = None if complete else engine.next_play(raw, deal=the_deal, rules=the_rules)
    return PlayState(
        to_move=following.seat.name if following else None,
        legal=list(following.legal_tokens) if following else [],
        hands=hands,
        trick=[{"seat": s.seat.name, "card": s.card_token} for s in current],
        trick_number=current[0].trick if current else 1,
        trick_winner=(
            current[-1].winner.name if current and current[-1].winner is not None else None
        ),
        tricks=tricks,
        totals=done[-1].totals if done else {"NS": 0, "EW": 0},
        verdict=engine.replay(raw, deal=the_deal, rules=the_rules) if complete else None,
    )


def random_play(
    board: Board, trump: str, rng: random.Random, illegal_at: int | None = None
) -> list[str]:
    """A hand of the board played at random by the event's rules (the demo's tables)."""
    return engine.random_play(deal(board), trump, rules(board.event), rng, illegal_at)
