"""A new bet game joins through the registration seam alone: the README's Dragon Tiger
(``tests/toy_games``), registered, analysed by the API and the command line, its exact edges
checked against a brute force over every ordered pair of cards."""

from __future__ import annotations

import json
from fractions import Fraction
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from exact import games
from exact.analysis.bet_analysis import analyze
from exact.cli.app import main
from exact.core.cards import CARDS, RANKS, Shoe

from tests.support.readme_commands import included_files

TOY = Path(__file__).parents[1] / "toy_games"


@pytest.fixture
def dragon_tiger():
    """The toy game's class, registered by importing its module; unregistered afterwards."""
    from tests.toy_games.dragon_tiger import DragonTiger

    games.register(DragonTiger)  # registered again (its import registers it only once)
    yield DragonTiger
    games.unregister("dragon-tiger")


def test_the_site_shows_the_module_and_bet_file_the_test_runs() -> None:
    assert included_files("contributing/adding-a-game.md") == [
        (TOY / "dragon_tiger.py").resolve(), (TOY / "dragon_tiger.toml").resolve()]


def brute_force_edges(shoe: Shoe) -> dict[str, Fraction]:
    """House edges of Dragon, Tiger and Tie by every ordered pair of card ids: Dragon and
    Tiger pay 1 to 1 and lose on a tie; Tie pays 8 to 1."""
    totals = {"dragon": 0, "tiger": 0, "tie": 0}
    pairs = 0
    for first, card in enumerate(CARDS):
        for second, other in enumerate(CARDS):
            weight = shoe.counts[first] * (shoe.counts[second] - (first == second))
            if not weight:
                continue
            dragon, tiger = RANKS.index(card.rank), RANKS.index(other.rank)
            pairs += weight
            for bet, wins in (("dragon", dragon > tiger), ("tiger", tiger > dragon),
                              ("tie", dragon == tiger)):
                pays = 8 if bet == "tie" else 1
                totals[bet] += weight * (pays if wins else -1)
    return {bet: -Fraction(total, pairs) for bet, total in totals.items()}


@pytest.mark.parametrize("shoe", [Shoe.standard(8), Shoe.standard(1).remove("K K Q 7H")],
                         ids=["8 decks", "1 deck depleted"])
def test_the_api_gives_the_brute_force_edges_on_every_engine(dragon_tiger, shoe) -> None:
    game = games.get_game("dragon-tiger")
    expected = brute_force_edges(shoe)
    for engine in ("auto", "compiled", "staged", "direct"):
        result = analyze(game, shoe, engine=engine)
        assert {bet: analysis.table().house_edge for bet, analysis in result.bets.items()
                } == expected, engine
    if shoe == Shoe.standard(8):
        assert expected == {"dragon": Fraction(31, 415), "tiger": Fraction(31, 415),
                            "tie": Fraction(136, 415)}


def test_the_command_line_analyses_it_in_process(dragon_tiger, capsys) -> None:
    assert main(["analyze", "dragon-tiger", "--decks", "8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "dragon-tiger" and data["round_cards"] == 2
    assert {bet: Fraction(entry["house_edge"]) for bet, entry in data["bets"].items()
            } == brute_force_edges(Shoe.standard(8))
    assert main(["games"]) == 0
    assert "dragon-tiger: Dragon Tiger" in capsys.readouterr().out
    assert main(["analyze", "dragon-tiger", "--strategy", "best"]) == 2  # not its option
    assert "not of analyze dragon-tiger" in capsys.readouterr().err


def test_the_site_shows_the_command_module_the_test_runs() -> None:
    assert included_files("contributing/a-command-of-its-own.md") == [
        (TOY / "dragon_tiger_settle.py").resolve()]


@pytest.fixture
def settling(dragon_tiger):
    """Dragon Tiger with its own ``settle``, declared in its plugin record (the module named
    here, under tests/): no module of ``exact`` is edited or told of it."""
    from tests.toy_games.dragon_tiger_settle import settle_command

    games.unregister(dragon_tiger.id)
    yield games.register(games.GamePlugin(dragon_tiger, commands={"settle": settle_command}))
    games.unregister(dragon_tiger.id)


@pytest.mark.parametrize("cards", ["KH 7C", "2D QS", "AS AH", "TC 9D", "JH JS"])
def test_a_command_of_its_own_joins_through_the_plugin_record_alone(settling, cards, capsys
                                                                ) -> None:
    dragon, tiger = cards.split()
    higher = RANKS.index(dragon[0]) - RANKS.index(tiger[0])
    expected = "dragon" if higher > 0 else "tiger" if higher < 0 else "tie"
    assert main(["settle", "dragon-tiger", "--cards", cards]) == 0
    assert capsys.readouterr().out == f"Dragon {dragon}, Tiger {tiger}: {expected}\n"


def test_its_own_command_refuses_bad_input_in_one_line(settling, capsys) -> None:
    assert main(["settle", "dragon-tiger", "--cards", "KH 7C 2D"]) == 2
    assert capsys.readouterr().err == ("exact: error: settle dragon-tiger: give the Dragon's "
                                       "card, then the Tiger's (--cards)\n")
    assert main(["eor", "dragon-tiger", "--decks", "1"]) == 0  # the rest the common way
    assert "dragon" in capsys.readouterr().out


def test_an_entry_point_registers_a_game_without_an_edit(monkeypatch) -> None:
    point = EntryPoint("dragon-tiger", "tests.toy_games.dragon_tiger:DragonTiger", "exact.games")
    monkeypatch.setattr("importlib.metadata.entry_points",
                        lambda group: [point] if group == games.ENTRY_POINT_GROUP else [])
    games.refresh()  # the installed packages were read before the patch
    try:
        assert games.get_game("dragon-tiger").name == "Dragon Tiger"
    finally:
        games.unregister("dragon-tiger")
        monkeypatch.undo()
        games.refresh()


def test_the_toy_game_is_in_no_default_listing() -> None:
    assert "dragon-tiger" not in games.game_ids()
    with pytest.raises(games.UnknownGameError, match="unknown game 'dragon-tiger'"):
        games.get_game("dragon-tiger")
