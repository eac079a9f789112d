"""Published exact figures (../shared/reference/published-figures.md), asserted exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import analyze
from exact.core.cards import Shoe
from exact.core.enumerator import falling

from tests.support.batch_helpers import engine_counts

MAIN = {  # decks: (banker, player, tie, total)
    1: (6_737_232_640, 6_548_674_432, 1_372_227_328, 14_658_134_400),
    6: (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288, 878_869_206_895_680),
    8: (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216,
        4_998_398_275_503_360),
}


@pytest.mark.parametrize("decks", sorted(MAIN))
def test_main_game_counts(punto_banco, decks):
    banker, player, tie, total = MAIN[decks]
    result = analyze(punto_banco, Shoe.standard(decks))
    assert result.total == total == falling(52 * decks, 6)
    assert result.bets["banker"].counts == (banker, tie, player)
    assert result.bets["player"].counts == (player, tie, banker)
    assert result.bets["tie"].counts == (tie, banker + player)


def _rounded_percent(value: Fraction, places: int = 4) -> str:
    return f"{float(value) * 100:.{places}f}"


def test_eight_deck_edges_and_deviations(punto_banco):
    bets = analyze(punto_banco, Shoe.standard(8)).bets
    banker, player, tie = (bets[b].table() for b in ("banker", "player", "tie"))
    assert banker.house_edge == Fraction(114753351728, 10847218479825)
    assert _rounded_percent(banker.house_edge) == "1.0579"
    assert _rounded_percent(player.house_edge) == "1.2351"
    assert _rounded_percent(tie.house_edge) == "14.3596"
    assert _rounded_percent(bets["tie"].table("9-to-1").house_edge) == "4.8440"
    assert _rounded_percent(banker.house_edge_per_resolved_bet) == "1.1692"
    assert _rounded_percent(player.house_edge_per_resolved_bet) == "1.3650"
    assert f"{banker.standard_deviation:.4f}" == "0.9274"
    assert f"{player.standard_deviation:.4f}" == "0.9512"
    assert f"{tie.standard_deviation:.4f}" == "2.6409"


WINNING_SIDE_AND_TOTAL = {  # total: (player wins, banker wins, tie)
    9: (613_074_020_540_416, 586_850_279_002_112, 55_146_054_060_032),
    8: (555_823_197_134_848, 529_914_458_673_152, 54_879_416_675_072),
    7: (408_043_979_470_848, 384_279_324_919_808, 101_717_538_899_968),
    6: (312_658_895_192_064, 269_232_304_455_680, 96_170_001_308_416),
    5: (122_838_277_197_824, 216_715_928_915_968, 39_684_046_743_808),
    4: (86_165_771_096_064, 163_359_790_133_248, 36_294_133_463_040),
    3: (62_946_423_310_336, 72_927_778_568_192, 22_250_510_129_408),
    2: (44_328_525_111_296, 44_681_581_871_104, 20_006_606_104_576),
    1: (24_639_193_538_560, 24_291_119_898_624, 20_499_217_668_352),
    0: (0, 0, 28_979_901_420_544),
}


@pytest.mark.parametrize("engine", ["compiled", "direct"])
def test_winning_side_and_final_total(punto_banco, engine):
    counts = engine_counts(
        punto_banco, Shoe.standard(8), ["winner", "player_total", "banker_total"],
        lambda f: (f["winner"], max(f["player_total"], f["banker_total"])), engine)
    for winning_total, (player, banker, tie) in WINNING_SIDE_AND_TOTAL.items():
        assert counts[("player", winning_total)] == player
        assert counts[("banker", winning_total)] == banker
        assert counts[("tie", winning_total)] == tie


def test_cards_dealt(punto_banco):
    counts = engine_counts(punto_banco, Shoe.standard(8), ["cards_dealt"],
                           lambda f: f["cards_dealt"], "compiled")
    total = falling(416, 6)
    assert {n: f"{counts[n] / total:.6f}" for n in (4, 5, 6)} == {
        4: "0.378868", 5: "0.303444", 6: "0.317687"}
