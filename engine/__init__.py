"""Botifarra rules engine: cards, seeded deals, legal plays, replay of play records, scores.

Pure Python, standard library only; never imports Django. See docs/engine.md. The perfect-play
search of engine.solver has an optional C twin, engine/_solver.c (docs/analysis.md).

>>> from engine import deal_board, Hand, Seat
>>> h = Hand(deal_board("seed", 3), "botifarra")
>>> h.to_move == deal_board("seed", 3).dealer.right
True
"""

from engine.cards import (
    Seat,
    Suit,
    card_points,
    card_token,
    cards_to_mask,
    mask_to_cards,
    parse_card,
    parse_token,
    sort_cards,
)
from engine.deals import Deal, commitment, deal_board, dealer_of_board
from engine.errors import IllegalPlay, InvalidRecord, Problem
from engine.hand import Hand, IllegalCard
from engine.replay import Step, Verdict, legal_for_record, recorded_hand, replay, replay_steps
from engine.rules import Rules
from engine.scoring import (
    Partida,
    ShortScore,
    check_contract,
    choosing_pair,
    hand_score,
    multiplier,
    penalty_score,
    score_short_result,
)

__all__ = [
    "Deal",
    "Hand",
    "IllegalCard",
    "IllegalPlay",
    "InvalidRecord",
    "Partida",
    "Problem",
    "Rules",
    "Seat",
    "ShortScore",
    "Step",
    "Suit",
    "Verdict",
    "card_points",
    "card_token",
    "cards_to_mask",
    "check_contract",
    "choosing_pair",
    "commitment",
    "deal_board",
    "dealer_of_board",
    "hand_score",
    "legal_for_record",
    "mask_to_cards",
    "multiplier",
    "parse_card",
    "parse_token",
    "penalty_score",
    "recorded_hand",
    "replay",
    "replay_steps",
    "score_short_result",
    "sort_cards",
]
