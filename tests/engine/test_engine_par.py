"""Par (docs/analysis.md): the choosing pair's best trump (R4), the calls that gain (R5, R11),
the score (R9); on hand-made deals whose perfect-play totals are known without a search."""

import sys
from pathlib import Path

import pytest

from engine import Rules, Seat
from engine.analysis import analyse_deal
from engine.par import par, par_calls

sys.path.insert(0, str(Path(__file__).parent))
from solver_cases import TRUMPS, needs_c_solver, split_deal, top_six_deal  # noqa: E402


def values(**ns: int) -> dict[str, int]:
    return {t: ns.get(t, 36) for t in TRUMPS}


def test_choosing_pair_is_the_dealers_r4() -> None:
    assert par(dealer=Seat.S, points=values(), rules=Rules()).choosing_pair == "NS"
    assert par(dealer=Seat.W, points=values(), rules=Rules()).choosing_pair == "EW"


def test_opponents_call_contro_exactly_when_the_choosers_end_under_36_r5() -> None:
    rules = Rules()
    assert par_calls(trump="oros", chooser_total=35, rules=rules) == ("contro",)
    assert par_calls(trump="oros", chooser_total=36, rules=rules) == ()
    assert par_calls(trump="oros", chooser_total=37, rules=rules) == ()


def test_no_recontro_nor_sant_vicenc_under_perfect_information_r5_r11() -> None:
    """Recontro would gain only a choosing pair over 36, whose opponents never called contro."""
    for rules in (Rules("lliure"), Rules("obligada"), Rules("lliure", True)):
        for trump in TRUMPS:
            for total in range(73):
                assert par_calls(trump=trump, chooser_total=total, rules=rules) in ((), ("contro",))


def test_choosers_take_the_trump_with_the_best_score_r9() -> None:
    """Botifarra doubles (R5): 41 in botifarra (5 x 2) beats 44 in a suit (8 x 1)."""
    p = par(dealer=Seat.N, points=values(copes=44, botifarra=41), rules=Rules())
    assert (p.trump, p.calls, p.multiplier) == ("botifarra", (), 2)
    assert p.totals == {"NS": 41, "EW": 31}
    assert p.score == {"NS": 10, "EW": 0}


def test_choosers_losing_everywhere_lose_least_r5_r9() -> None:
    """EW choose; NS make 40 in every suit and 38 in botifarra: with NS's contro, a suit costs EW
    (40-36) x 2 = 8, botifarra (38-36) x 4 = 8: both equal, the first suit is named."""
    p = par(
        dealer=Seat.E,
        points=values(oros=40, copes=40, espases=40, bastos=40, botifarra=38),
        rules=Rules(),
    )
    assert p.choosing_pair == "EW" and p.calls == ("contro",)
    assert p.score == {"NS": 8, "EW": 0}
    assert p.best_trumps == TRUMPS and p.trump == "oros"


def test_par_of_a_deal_where_one_pair_holds_every_point_card() -> None:
    """top_six_deal: NS take all 72 whatever the trump (solver_cases). Dealer N: NS choose
    botifarra, 36 x 2 = 72, capot (R9). Dealer E: EW choose a suit (botifarra would double their
    loss); NS call contro: 36 x 2 = 72."""
    north = analyse_deal(top_six_deal(Seat.N))
    assert north.points == dict.fromkeys(TRUMPS, 72)
    assert (north.par.trump, north.par.calls, north.par.capot) == ("botifarra", (), True)
    assert north.par.score == {"NS": 72, "EW": 0}
    east = analyse_deal(top_six_deal(Seat.E), rules=Rules("obligada"))
    assert (east.par.trump, east.par.calls, east.par.multiplier) == ("oros", ("contro",), 2)
    assert east.par.score == {"NS": 72, "EW": 0}
    assert east.par.best_trumps == ("oros", "copes", "espases", "bastos")


@needs_c_solver
@pytest.mark.parametrize("ruleset", ["lliure", "obligada"])
def test_par_of_a_level_deal_is_nothing_r9(ruleset: str) -> None:
    """split_deal: 36-36 whatever the trump: nobody scores, nobody calls."""
    analysis = analyse_deal(split_deal(Seat.W), rules=Rules(ruleset))
    assert analysis.points == dict.fromkeys(TRUMPS, 36)
    assert analysis.par.calls == () and analysis.par.score == {"NS": 0, "EW": 0}
    assert analysis.to_json()["points"]["bastos"] == {"NS": 36, "EW": 36}


def test_par_needs_every_trump_and_totals_in_range() -> None:
    with pytest.raises(ValueError, match="missing"):
        par(dealer=Seat.N, points={"oros": 40}, rules=Rules())
    with pytest.raises(ValueError, match="0–72"):
        par(dealer=Seat.N, points=values(oros=73), rules=Rules())
