"""Punto Banco's rule file reader (the deal and bets are tested through the analyses)."""

from __future__ import annotations

from pathlib import Path

import pytest

from exact.errors import RuleError
from exact.games.baccarat.coup import DATA, STANDARD_RULES, Rules


@pytest.mark.parametrize(("typo", "message"), [
    (('name = "', 'nmae = "'), "unknown rule(s) 'nmae'; known: banker_draws_on_player_third"),
    (("naturals = [8, 9]", "naturals = [8, 9]\nnaturals_pay = 1"), "unknown rule(s) "
     "'naturals_pay'"),
])
def test_a_rule_file_with_an_unknown_key_is_refused(tmp_path: Path, typo: tuple[str, str],
                                                    message: str) -> None:
    """A misspelt ``name`` would otherwise be dropped and the id shown in its place."""
    good = (DATA / "rules.toml").read_text()
    assert good.count(typo[0]) == 1
    path = tmp_path / "rules.toml"
    path.write_text(good.replace(*typo))
    with pytest.raises(RuleError) as error:
        Rules.load(path)
    assert str(error.value).startswith(f"{path}: {message}") and "\n" not in str(error.value)
    path.write_text(good)
    assert Rules.load(path) == STANDARD_RULES


def test_a_refused_tableau_names_totals_as_numbers_not_a_list(tmp_path: Path) -> None:
    good = (DATA / "rules.toml").read_text()
    path = tmp_path / "rules.toml"
    for old, new, message in (
            ("player_draws_on = [0, 1, 2, 3, 4, 5]", "player_draws_on = [0, 1, 8, 9]",
             "cannot draw on a natural total (8, 9)"),
            ("6 = [6, 7]\n", "", "no entry for banker total(s) 6")):
        path.write_text(good.replace(old, new))
        with pytest.raises(RuleError) as error:
            Rules.load(path)
        assert message in str(error.value) and "[" not in str(error.value)


def test_a_deal_with_third_cards_deals_both_hands_and_its_views_are_read_only() -> None:
    """Third cards are drawn on both initial hands, so a deal of one hand with draws is refused
    when built (it would count a missing hand's total as 0); the planned deal's views cannot be
    changed under the Draws it worked out from them."""
    from exact.games.baccarat.coup import PuntoBanco, plan_deal, tableau_coup

    deal = plan_deal(STANDARD_RULES, PuntoBanco().needs(["winner"]))
    with pytest.raises(ValueError, match="both"):
        tableau_coup(STANDARD_RULES, order=("player",), views=deal.views, draws=True)
    with pytest.raises(TypeError):
        deal.views["draws"] = deal.views["player"]  # type: ignore[index]  # the write refused


def test_a_round_from_cards_gives_each_hand_its_cards_whatever_the_deals_order(monkeypatch
                                                                              ) -> None:
    """record_from_cards deals Player, Banker, Player, Banker into the hands the deal takes
    in its own order: the finer view first, the Player on a tie (the plan's whole sort key).
    With the Banker seen more finely the deal takes the Banker first, and the Player still
    gets the first and third cards."""
    from exact.core.cards import parse_cards
    from exact.games.baccarat import coup
    from exact.model.features import Needs

    game = coup.PuntoBanco()
    tie = Needs.of(player=["rank", "suit"], banker=["rank", "suit"], draws=["rank"])
    assert coup.plan_deal(STANDARD_RULES, tie).order == ("player", "banker")
    finer = Needs.of(player=["rank"], banker=["rank", "suit"], draws=["rank"])
    assert coup.plan_deal(STANDARD_RULES, finer).order == ("banker", "player")
    cards = parse_cards("9H 5C 9D 2S")  # Player 9 9 (8), Banker 5 2 (7)
    standard = game.record_from_cards(cards)
    monkeypatch.setattr(coup, "_EVERY_CARD", Needs.of(
        player=["rank", "suit"], banker=["rank", "suit", "colour"], draws=["rank", "suit"]))
    assert coup.plan_deal(STANDARD_RULES, coup._EVERY_CARD).order == ("banker", "player")
    record = game.record_from_cards(cards)
    assert game.read(record, "winner") == "player"
    assert game.read(record, "player_total") == 8 and game.read(record, "banker_total") == 7
    assert game.read(standard, "winner") == "player"
