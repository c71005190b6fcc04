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
from engine.errors import MAX_PROBLEMS, IllegalPlay, InvalidRecord, clip
from engine.hand import Hand, IllegalCard, random_play
from engine.match import DRAW_RULES, OPEN_SWISS, R12, MatchRules
from engine.problems import Problem, ProblemCode
from engine.replay import (
    NextPlay,
    Outcome,
    Step,
    Verdict,
    check_form,
    legal_for_record,
    next_play,
    ordered_verdict,
    recorded_hand,
    replay,
    replay_steps,
)
from engine.rules import Rule, Rules
from engine.scoring import (
    HAND_TOTAL,
    Partida,
    ShortScore,
    check_contract,
    choosing_pair,
    hand_score,
    multiplier,
    other_total,
    penalty_score,
    possible_hand_score,
    possible_multipliers,
    score_short_result,
)

__all__ = [
    "MAX_PROBLEMS",
    "clip",
    "DRAW_RULES",
    "OPEN_SWISS",
    "R12",
    "MatchRules",
    "Deal",
    "Hand",
    "IllegalCard",
    "IllegalPlay",
    "InvalidRecord",
    "NextPlay",
    "Outcome",
    "Partida",
    "Problem",
    "ProblemCode",
    "Rule",
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
    "check_form",
    "choosing_pair",
    "commitment",
    "deal_board",
    "dealer_of_board",
    "HAND_TOTAL",
    "hand_score",
    "other_total",
    "legal_for_record",
    "mask_to_cards",
    "multiplier",
    "next_play",
    "ordered_verdict",
    "parse_card",
    "parse_token",
    "penalty_score",
    "possible_hand_score",
    "possible_multipliers",
    "random_play",
    "recorded_hand",
    "replay",
    "replay_steps",
    "score_short_result",
    "sort_cards",
]
