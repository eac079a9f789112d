"""The typed game contracts (exact/model/contracts.py): what each game offers, named refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exact.analysis.bet_analysis import analyze
from exact.cli.app import main
from exact.core.cards import Card, Shoe
from exact.errors import ExactError, UnknownGameError
from exact.games import game_ids, get_game
from exact.model import contracts
from exact.model.plugins import COMMANDS, GamePlugin, plugin

from tests.support.parsers import full_parser

OFFERS = {  # game id -> the capabilities it offers
    "punto-banco": {"BetGame", "HasRules"},
    "nine-and-nines": {"BetGame", "HasRules", "WinsWhen", "SymmetricBets", "SymmetricFeatures",
                       "MainWager"},
    # their own commands (and 21st Century's shoe play) and options are in their plugin
    # records (exact.model.plugins.GamePlugin): the games themselves offer their rules
    "century21": {"HasRules"},
    "chemin-de-fer": {"HasRules"},
}
CAPABILITIES = ("BetGame", "WinsWhen", "SymmetricBets", "SymmetricFeatures",
                "MainWager", "HasRules")


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_offers_what_it_declares(game_id: str) -> None:
    game = get_game(game_id)
    offered = {name for name in CAPABILITIES if isinstance(game, getattr(contracts, name))}
    assert offered == OFFERS[game_id]


EXTENDS = {  # game id -> the commands it runs its own way, and whether it plays shoes its own way
    "punto-banco": (set(), False), "nine-and-nines": (set(), False),
    "century21": ({"analyze", "eor", "edge", "settle"}, True),
    "chemin-de-fer": ({"analyze"}, False),
}


@pytest.mark.parametrize("game_id", game_ids())
def test_each_games_own_code_is_in_its_plugin_and_called_as_its_command_says(game_id: str
                                                                             ) -> None:
    import inspect

    record = plugin(game_id)
    assert (set(record.commands), record.simulation is not None) == EXTENDS[game_id]
    for command, code in record.commands.items():  # (game, args, seen) for edge, else 2
        assert len(inspect.signature(code).parameters) == (3 if command == "edge" else 2)
        assert code.__module__.startswith(f"exact.games.{game_id.replace('-', '_')}.")
    if record.simulation is not None:
        assert len(inspect.signature(record.simulation).parameters) == 2  # (game, config)


def test_a_plugin_record_refuses_an_unknown_command_or_a_class_without_an_id() -> None:
    from exact.games.baccarat.coup import PuntoBanco

    with pytest.raises(UnknownGameError, match="no command 'anlyze' of its own"):
        GamePlugin(PuntoBanco, commands={"anlyze": lambda game, args: ""})
    with pytest.raises(UnknownGameError, match="has no game id"):
        GamePlugin(type("Nameless", (), {}))
    assert set(COMMANDS) == {"analyze", "eor", "edge", "settle"}


def test_a_strategy_game_has_no_bet_table_and_says_so() -> None:
    with pytest.raises(contracts.CapabilityError, match="century21 does not offer a bet table"):
        analyze(get_game("century21"), Shoe.standard(1))
    assert issubclass(contracts.CapabilityError, ExactError)
    contracts.require(get_game("punto-banco"), contracts.BetGame)  # offered: no error


@pytest.mark.parametrize(("argv", "owners"), [
    (["analyze", "punto-banco", "--strategy", "best"], "century21, chemin-de-fer"),
    (["analyze", "nine-and-nines", "--information", "cards", "--decks", "1"],
     "century21, chemin-de-fer"),
    (["analyze", "punto-banco", "--with-replacement"], "chemin-de-fer"),
    (["analyze", "punto-banco", "--players", "3"], "century21"),
    (["analyze", "chemin-de-fer", "--collection", "1"], "century21"),
    (["analyze", "chemin-de-fer", "--jokers", "2"], "century21, nine-and-nines, punto-banco"),
    (["analyze", "century21", "--group", "main"], "nine-and-nines, punto-banco"),
    (["analyze", "century21", "--with-replacement"], "chemin-de-fer"),
    (["analyze", "punto-banco", "--bet-size", "10"], "century21"),
    (["eor", "punto-banco", "--strategy", "best"], "century21"),
    (["eor", "century21", "--bet", "tie"], "nine-and-nines, punto-banco"),
    (["edge", "punto-banco", "--information", "cards"], "century21"),
    (["settle", "punto-banco", "--dice", "3"], "century21"),
    (["settle", "century21", "--cards", "9H 9D 2C 3C"], "nine-and-nines, punto-banco"),
    # a strategy game takes no bet game's option on the commands of bet tables
    (["design", "century21", "--bet", "tie", "--solve-for", "Tie", "--target-edge", "0.05"],
     "nine-and-nines, punto-banco"),
    (["design", "chemin-de-fer", "--bet", "tie", "--solve-for", "Tie", "--target-edge", "1%",
      "--paytable", "x"], "nine-and-nines, punto-banco"),
    (["list-bets", "century21", "--bets", "mine.toml"], "nine-and-nines, punto-banco"),
    (["features", "chemin-de-fer", "--bets", "mine.toml"], "nine-and-nines, punto-banco"),
    (["eor", "chemin-de-fer", "--decks", "6"], "century21, nine-and-nines, punto-banco"),
])
def test_one_games_option_is_refused_on_another(argv: list[str], owners: str, capsys) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err
    flag = next(word for word in argv[2:] if word.startswith("--"))
    assert error == (f"exact: error: {flag} is an option of {owners}, "
                     f"not of {argv[0]} {argv[1]}\n")


def test_every_option_belongs_to_some_game() -> None:
    """No option of a command is refused by every game (each is someone's)."""
    from exact.cli.refusals import SHARED_OPTIONS, game_options

    commands = full_parser().commands
    assert {"analyze", "design", "list-bets", "features", "eor", "simulate", "edge",
            "settle", "games"} <= set(commands)
    for command, parser in commands.items():
        if command == "games":
            continue
        taken = set(SHARED_OPTIONS).union(*(game_options(get_game(game_id), command)
                                            for game_id in game_ids()))
        options = set(parser.options) - {"help"}
        assert {"game", "bets"} <= options  # (the options kept include the groups')
        assert options <= taken, (command, options - taken)


def test_the_parser_keeps_each_option_under_its_argparse_name() -> None:
    """The options a command's parser keeps are exactly the names argparse gives the parsed
    values (every one, defaults included), each with the flag that spells it."""

    parser = full_parser()
    args = parser.parse_args(["analyze", "punto-banco"])
    analyze = parser.commands["analyze"]
    assert set(analyze.options) - {"help"} == set(vars(args)) - {"command", "run"}
    assert analyze.options["bet_size"] == "--bet-size" and analyze.options["output"] == "--output"
    assert analyze.options["json"] == "--json" and analyze.options["strategy"] == "--strategy"


def test_bet_size_and_its_old_spelling_agree_on_century21(capsys) -> None:
    outputs = []
    for flag in ("--bet-size", "--bet"):
        assert main(["analyze", "century21", "--decks", "1", flag, "10", "--json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and '"bet": "10"' in outputs[0]


def test_no_capability_is_found_by_getattr() -> None:
    hooks = ("wins_when", "symmetric_bets",
             "symmetric_features", "needs_main_wager", "fixed_stages")
    package = Path(contracts.__file__).parents[1]  # the whole package, not exact/model/
    pattern = re.compile(r"(getattr|hasattr)\([^)]*[\"'](" + "|".join(hooks) + r")[\"']")
    found = [f"{path.relative_to(package)}: {match.group(0)}"
             for path in sorted(package.rglob("*.py"))
             for match in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


# A bet on the third cards' suits (a round of 6 cards); the engines' choice for a bet like it
# cost seconds before a shoe too small was refused (6.4 s for `analyze --engine auto`).
CARD_LEVEL = Path(__file__).parents[1] / "data" / "card_level_bets.toml"
BET = "suited-third-cards"


def _never(*_args, **_kwargs):
    raise AssertionError("planned or counted a shoe that cannot deal a round")


@pytest.fixture
def unplanned(monkeypatch):
    """The engines' plans and evaluators made to fail: a refusal must come before them."""
    import exact.analysis.bet_analysis as bet_analysis
    import exact.analysis.removal as removal
    import exact.cli.counting as counting
    import exact.engines.live as live

    for module, name in ((bet_analysis, "plan"), (removal, "BetEvaluator"),
                         (live, "BetEvaluator"), (live, "plan"), (counting, "BetEvaluator")):
        monkeypatch.setattr(module, name, _never)


def test_a_shoe_too_small_for_a_round_is_refused_before_any_plan(unplanned):
    from exact.analysis.removal import effects_of_removal
    from exact.engines.live import next_round
    from exact.errors import ShoeError
    from exact.model.bets import load_bets

    game = get_game("punto-banco")
    bets = [b for b in load_bets(CARD_LEVEL, game.features) if b.id == BET]
    tiny = Shoe.parse("A:1,A:1")
    message = "a shoe of 2 cards cannot deal a round: the counting unit needs 6 cards"
    with pytest.raises(ShoeError, match=message):
        contracts.check_dealable(game, tiny, bets)
    with pytest.raises(ShoeError, match=message):
        analyze(game, tiny, bets, engine="auto")
    with pytest.raises(ShoeError, match=message):
        effects_of_removal(game, tiny, bets)
    with pytest.raises(ShoeError, match=message):
        next_round(game, tiny, bets)
    # with a known card: counted among the unseen cards, as the user counts them
    with pytest.raises(ShoeError, match=re.escape("3 unseen cards (1 known) cannot fill a "
                                                  "round of 6")):
        next_round(game, Shoe.parse("AS:1,KD:2"), bets, {1: Card.parse("AS")})
    # a round's unit exactly: dealable; no bets: a round of the game
    contracts.check_dealable(game, Shoe.parse("A:3,K:3"), bets)
    contracts.check_dealable(game, Shoe.parse("A:3,K:3"), [])
    with pytest.raises(ShoeError, match="a shoe of 5 cards"):
        contracts.check_dealable(game, Shoe.parse("A:3,K:2"), [])


@pytest.mark.parametrize("command", ["analyze", "eor", "edge"])
def test_the_commands_refuse_it_in_one_line_before_any_plan(unplanned, tmp_path, capsys,
                                                            command):
    seen = tmp_path / "seen.txt"
    seen.write_text("A\n")
    shoe = ["--shoe", "A:1,A:2"] if command == "edge" else ["--shoe", "A:1,A:1"]
    extra = ["--seen", str(seen)] if command == "edge" else []
    argv = [command, "punto-banco", *shoe, "--bets", str(CARD_LEVEL), "--bet", BET,
            *extra]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("exact: error: a shoe of 2 cards cannot deal a round: the counting "
                            "unit needs 6 cards\n")
