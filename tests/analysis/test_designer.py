"""The paytable designer (exact edge expression, solving, practical rounding) and the tier
rarity report, on NINE (8 decks, engine) and NINES (8 decks, from the plain count)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exact.analysis.bet_analysis import BetAnalysis, analyze, game_bets
from exact.analysis.designer import DesignError, EdgeModel, practical_pays, solve_pays
from exact.analysis.rarity import tier_frequencies, top_award
from exact.analysis.statistics import BetTable
from exact.cli.app import main
from exact.core.cards import Shoe
from exact.games import get_game
from exact.games.nine_and_nines.reference import nines_by_counting

from tests.support.published import NINE_AND_NINES

GAME = get_game("nine-and-nines")
BETS = {bet.id: bet for bet in game_bets(GAME)}
NINE = analyze(GAME, Shoe.standard(8), [BETS["nine-player"]]).bets["nine-player"]
NINE_EDGE = Fraction(NINE_AND_NINES.value("house_edge_exact", bet="nine-player"))  # 259/5395
_COUNTED = nines_by_counting(Shoe.standard(8))
_NINES_TIERS = {"Diamond twins": "diamond twins", "Suited twins": "suited twins",
                "Double without tens": "double without tens", "Double": "double",
                "Single": "single", "No two-card 9": "lose"}
# NINES at 8 decks from the independent plain count, as an analysis of the shipped bet
NINES = BetAnalysis(BETS["nines"], tuple(_COUNTED[_NINES_TIERS[e.name]]
                                         for e in BETS["nines"].events),
                    sum(_COUNTED.values()))


def edge_with(analysis: BetAnalysis, pays: dict[str, Fraction]) -> Fraction:
    """House edge with some pays replaced, through the ordinary return table."""
    bet = replace(analysis.bet, events=tuple(replace(e, pays=pays.get(e.name, e.pays))
                                             for e in analysis.bet.events))
    return BetAnalysis(bet, analysis.counts, analysis.total).table().house_edge


def test_edge_expression_is_exact_and_linear_in_the_pays():
    model = EdgeModel.of(NINE)
    expression = model.expression
    assert expression.subs({model.symbols[t]: sympy.Rational(int(p)) for t, p in
                            model.current_pays.items()}) == sympy.Rational(
                                NINE_EDGE.numerator, NINE_EDGE.denominator)
    for tier in model.tiers:
        coefficient = expression.coeff(model.symbols[tier])
        assert coefficient == -sympy.Rational(model.probabilities[tier].numerator,
                                              model.probabilities[tier].denominator)


@given(st.lists(st.fractions(min_value=0, max_value=50_000, max_denominator=40),
                min_size=5, max_size=5))
def test_model_edge_matches_the_return_table_for_any_pays(pays):
    model = EdgeModel.of(NINES)
    chosen = dict(zip(model.tiers, pays, strict=True))
    assert model.edge(chosen) == edge_with(NINES, chosen)


def test_solve_one_nine_pay_for_five_percent():
    design = solve_pays(NINE, ["unsuited-9-without-a-ten"], Fraction(1, 20))
    tier = "Unsuited 9 without a ten"
    exact = design.exact_pays[tier]
    assert edge_with(NINE, {tier: exact}) == Fraction(1, 20)
    assert design.practical_pays[tier] in practical_pays(exact)
    assert design.practical_edge == edge_with(NINE, dict(design.practical_pays))
    (down, down_edge), (up, up_edge) = design.alternatives
    assert down[tier] <= exact <= up[tier]
    assert down_edge >= Fraction(1, 20) >= up_edge  # a lower pay can only raise the edge


def test_solve_nines_double_for_five_percent_at_8_decks():
    design = solve_pays(NINES, ["double"], Fraction(1, 20))
    exact = design.exact_pays["Double"]
    assert edge_with(NINES, {"Double": exact}) == Fraction(1, 20)
    assert 20 < exact < 40 and design.practical_pays["Double"].denominator == 1
    assert design.practical_edge == edge_with(NINES, dict(design.practical_pays))


def test_common_scale_keeps_the_ratios():
    tiers = ["Diamond twins", "suited-twins", "double-without-tens", "double"]
    design = solve_pays(NINES, tiers, Fraction(3, 100))
    model = design.model
    assert design.scale is not None
    for tier, pays in design.exact_pays.items():
        assert pays == design.scale * model.current_pays[tier]
    assert edge_with(NINES, dict(design.exact_pays)) == Fraction(3, 100)
    assert design.practical_pays["Diamond twins"] % 500 == 0  # two significant figures


def test_impossible_designs_are_typed_errors():
    with pytest.raises(DesignError, match="no tier 'triple'"):
        solve_pays(NINES, ["triple"], Fraction(1, 20))
    with pytest.raises(DesignError, match="negative pay"):
        solve_pays(NINE, ["Unsuited ten-value 9"], Fraction(1, 2))


def test_rarity_of_the_nines_top_award():
    table = NINES.table()
    top = top_award(table)
    assert top.event == "Diamond twins" and top.pays == 30000
    probability = Fraction(2 * 8 * 8 * 2 * 7 * 7, 416 * 415 * 414 * 413)
    assert top.probability == probability and top.one_in == 1 / probability
    assert top.expected == 100_000_000 * probability
    mpmath.mp.dps = 40
    at_least_once = 1 - (1 - mpmath.mpf(probability.numerator) / probability.denominator) \
        ** 100_000_000
    assert top.at_least_once == pytest.approx(float(at_least_once), rel=1e-12)
    assert top.likely_in_rounds
    names = [tier.event for tier in tier_frequencies(table)]
    assert names == ["Diamond twins", "Suited twins", "Double without tens", "Double", "Single"]
    assert sum(t.probability for t in tier_frequencies(table)) == table.hit_frequency


def test_rare_award_is_reported_unlikely_in_a_short_horizon():
    table = BetTable.from_counts("x", "X", "t", [("Jackpot", Fraction(10**6), 1),
                                                 ("Loses", Fraction(-1), 10**9 - 1)], 10**9)
    top = top_award(table)
    assert top.expected == Fraction(1, 10) and not top.likely_in_rounds
    mpmath.mp.dps = 40
    reference = 1 - (1 - mpmath.mpf(1) / 10**9) ** 100_000_000
    assert top.at_least_once == pytest.approx(float(reference), rel=1e-12)


def test_design_cli_json_and_errors(capsys):
    assert main(["design", "nine-and-nines", "--bet", "nine-banker", "--solve-for",
                 "Suited A-8,suited-2-7", "--target-edge", "4%", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["target_edge"] == "1/25" and data["scale"] is not None
    exact = {t: Fraction(p) for t, p in data["exact_pays"].items()}
    assert edge_with(analyze(GAME, Shoe.standard(8), [BETS["nine-banker"]])
                     .bets["nine-banker"], exact) == Fraction(1, 25)
    assert "suited_a_8" in data["house_edge_expression"]
    assert main(["design", "nine-and-nines", "--bet", "nine-banker", "--solve-for", "x",
                 "--target-edge", "0.05"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no tier 'x'" in error


def test_analysis_json_and_text_report_tiers_and_top_award(capsys):
    assert main(["analyze", "nine-and-nines", "--bet", "nine-player", "--json"]) == 0
    bet = json.loads(capsys.readouterr().out)["bets"]["nine-player"]
    assert Fraction(bet["house_edge"]) == NINE_EDGE
    assert [t["event"] for t in bet["tiers"]] == [e.name for e in BETS["nine-player"].events][:-1]
    assert bet["top_award"]["event"] == "Suited A-8"
    assert Fraction(bet["top_award"]["one_in"]) == 1 / Fraction(bet["outcomes"][0]["probability"])
    assert main(["analyze", "nine-and-nines", "--bet", "nine-player"]) == 0
    text = capsys.readouterr().out
    assert "ILLUSTRATIVE" in text and "Top award Suited A-8 (30 to 1)" in text
