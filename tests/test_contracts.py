"""The typed game contracts (exact/contracts.py): what each game offers, named refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exact import contracts
from exact.analysis import analyze
from exact.cards import Shoe
from exact.cli import main
from exact.errors import ExactError
from exact.games import REGISTRY, get_game

OFFERS = {  # game id -> the capabilities it offers
    "punto-banco": {"BetGame", "HasRules"},
    "nine-and-nines": {"BetGame", "HasRules", "WinsWhen", "SymmetricBets", "SymmetricFeatures",
                       "MainWager"},
    "century21": {"OwnAnalyze", "OwnEor", "OwnEdge", "OwnShoePlay", "HasRules"},
    "chemin-de-fer": {"OwnAnalyze", "HasRules"},
}
CAPABILITIES = ("BetGame", "OwnAnalyze", "OwnEor", "OwnEdge", "OwnShoePlay", "WinsWhen",
                "SymmetricBets", "SymmetricFeatures", "MainWager", "HasRules")


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_each_game_offers_what_it_declares(game_id: str) -> None:
    game = get_game(game_id)
    offered = {name for name in CAPABILITIES if isinstance(game, getattr(contracts, name))}
    assert offered == OFFERS[game_id]


def test_a_strategy_game_has_no_bet_table_and_says_so() -> None:
    with pytest.raises(contracts.CapabilityError, match="century21 does not offer a bet table"):
        analyze(get_game("century21"), Shoe.standard(1))
    assert issubclass(contracts.CapabilityError, ExactError)
    contracts.require(get_game("punto-banco"), contracts.BetGame)  # offered: no error


@pytest.mark.parametrize("argv", [
    ["analyze", "punto-banco", "--strategy", "best"],
    ["analyze", "nine-and-nines", "--decks", "1", "--information", "cards"],
    ["analyze", "punto-banco", "--with-replacement"],
    ["analyze", "punto-banco", "--players", "3"],
])
def test_a_strategy_game_option_is_refused_on_a_bet_game(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is an option of the strategy games" in error
    assert f"not of {argv[1]}" in error


def test_no_capability_is_found_by_getattr() -> None:
    hooks = ("analyze_cli", "eor_cli", "edge_cli", "shoe_play", "wins_when", "symmetric_bets",
             "symmetric_features", "needs_main_wager", "fixed_stages")
    package = Path(contracts.__file__).parent
    pattern = re.compile(r"(getattr|hasattr)\([^)]*[\"'](" + "|".join(hooks) + r")[\"']")
    found = [f"{path.relative_to(package)}: {match.group(0)}"
             for path in sorted(package.rglob("*.py"))
             for match in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
