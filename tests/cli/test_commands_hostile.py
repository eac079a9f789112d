"""Issue 11, command semantics: hostile or meaningless option values end with one line on
standard error and exit 2 (never a traceback, never a silently wrong or empty result); every
command's JSON is strictly valid; century21 ``--remove`` is one shoe in every command."""

from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from exact.analysis.rarity import TierFrequency
from exact.analysis.simulation import MAX_SHOES, SimulationConfig, shoe_seeds, simulate
from exact.cli.app import main
from exact.render.output import json_text

from tests.support.shipped import data_file

ALMOST_SURE = """
[[bet]]
id = "almost-sure"
name = "Almost sure"
otherwise = "Four aces"

  [[bet.event]]
  name = "Wins"
  when = "not (player_initial_ranks == 'AA' and banker_initial_ranks == 'AA')"
  pays = 1
"""


def _limited() -> None:
    limit = 1_500 * 2**20  # the issue's bound: 1.5 GB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The real command line under the issue's bounds (1.5 GB, a timeout)."""
    return subprocess.run([sys.executable, "-m", "exact", *args], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=_limited)


def strict_json(text: str) -> object:
    """JSON as RFC 8259 has it: NaN, Infinity and -Infinity are refused."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"invalid JSON constant {constant}")

    return json.loads(text, parse_constant=refuse)


def one_line(capsys, argv: list[str], word: str) -> str:
    assert main(argv) == 2, argv
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and word in lines[0], (argv, captured.err)
    assert captured.out == "" and "Traceback" not in captured.err
    return lines[0]


# --- the issue's examples, through the real command line ------------------------------------------
@pytest.mark.parametrize(("args", "word"), [
    (["analyze", "punto-banco", "--shoe", ""], "--shoe is empty"),
    (["eor", "punto-banco", "--depth", "1000000", "--bet", "tie"], "--depth 1000000"),
    (["simulate", "punto-banco", "--shoes", "1000000000", "--seed", "1"], "--shoes"),
    (["simulate", "punto-banco", "--shoes", "5", "--seed", "-1"], "--seed"),
    (["simulate", "punto-banco", "--shoes", "5", "--seed", "1", "--scheduler", "not a url"],
     "tcp://HOST:PORT"),
    (["simulate", "punto-banco", "--shoes", "5", "--seed", "1", "--burn", "410"],
     "no round can be dealt"),
    (["simulate", "punto-banco", "--shoes", "5", "--seed", "1", "--trigger", "tie=nan",
      "--json"], "finite"),
])
def test_issue_examples_are_one_line_and_exit_2(args: list[str], word: str) -> None:
    result = run(*args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and word in lines[0], result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


# --- century21: --remove is one shoe, jokers kept -------------------------------------------------
def test_century21_remove_is_the_same_shoe_in_analyze_eor_and_edge(capsys, tmp_path: Path
                                                                    ) -> None:
    assert main(["analyze", "century21", "--remove", "9", "--json"]) == 0
    analysed = strict_json(capsys.readouterr().out)
    assert analysed["shoe"]["cards"] == 423  # 8 decks and 8 jokers, less one nine
    assert main(["eor", "century21", "--remove", "9", "--json"]) == 0
    assert strict_json(capsys.readouterr().out)["cards"] == 423
    seen = tmp_path / "seen.txt"
    seen.write_text("9\n")
    assert main(["edge", "century21", "--seen", str(seen), "--json"]) == 0
    assert strict_json(capsys.readouterr().out)["cards_unseen"] == 423
    # --decks keeps the rules' proportion of jokers in analyze as in eor
    assert main(["analyze", "century21", "--decks", "4", "--json"]) == 0
    assert strict_json(capsys.readouterr().out)["shoe"]["cards"] == 4 * 52 + 4


# --- empty values are errors, not defaults --------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["analyze", "punto-banco", "--remove", ""],
    ["analyze", "punto-banco", "--shoe", "  "],
    ["design", "punto-banco", "--bet", "tie", "--solve-for", "Tie", "--target-edge", "0.05",
     "--shoe", ""],
    ["eor", "punto-banco", "--shoe", ""],
    ["eor", "punto-banco", "--remove", ""],
    ["edge", "punto-banco", "--seen", ""],
    ["edge", "punto-banco", "--shoe", ""],
    ["eor", "century21", "--remove", ""],
    ["analyze", "century21", "--remove", ""],
    ["simulate", "punto-banco", "--shoes", "1", "--seed", "1", "--burn", ""],
])
def test_an_empty_value_is_an_error(argv: list[str], capsys) -> None:
    one_line(capsys, argv, "is empty")


def test_a_shoe_naming_no_card_is_an_error(capsys) -> None:
    one_line(capsys, ["analyze", "punto-banco", "--shoe", ","], "shoe ',' names no card")


# --- results that would be empty or meaningless ---------------------------------------------------
@pytest.mark.parametrize(("argv", "word"), [
    (["eor", "punto-banco", "--depth", "33", "--bet", "tie"], "only 32 card(s)"),
    (["eor", "century21", "--depth", "9"], "only 8 card(s) of X"),
    (["eor", "punto-banco", "--depth", "0"], "argument --depth: '0': must be at least 1"),
])
def test_a_depth_beyond_the_shoe_is_refused(argv: list[str], word: str, capsys) -> None:
    one_line(capsys, argv, word)


@pytest.mark.parametrize(("argv", "word"), [
    (["eor", "punto-banco", "--bet", "tie", "--removal-set", ","], "names no card"),
    (["eor", "punto-banco", "--bet", "tie", "--tags", " , "], "names no card"),
    (["simulate", "punto-banco", "--shoes", "1", "--seed", "1", "--bet", "tie", "--tags", ","],
     "names no card"),
])
def test_a_set_naming_nothing_is_refused(argv: list[str], word: str, capsys) -> None:
    one_line(capsys, argv, word)


def test_the_largest_depth_the_shoe_allows_still_works(capsys) -> None:
    assert main(["eor", "punto-banco", "--decks", "1", "--depth", "4", "--bet", "tie",
                 "--json"]) == 0
    effects = strict_json(capsys.readouterr().out)["bets"]["tie"]["eor_house_edge"]
    assert len(effects) == 13 and any(Fraction(e["exact"]) != 0 for e in effects.values())


@pytest.mark.parametrize(("extra", "word"), [
    (["--workers", "0"], "--workers"),
    (["--workers", "1000000"], "--workers"),
    (["--scheduler", "tcp://host:99999"], "tcp://HOST:PORT"),
    (["--scheduler", "http://host:8786"], "tcp://HOST:PORT"),
    (["--shoes", "0"], "--shoes"),
    (["--shoes", str(MAX_SHOES + 1)], f"must be at most {MAX_SHOES:,}"),
    (["--cut", "416"], "cut_cards"),
    (["--burn", "²"], "burn"),
    (["--decks", "100000"], "argument --decks: '100000': must be at most 1,000"),
    (["--trigger", "tie=inf"], "true count 'inf': is not a number (not finite)"),
])
def test_simulation_settings_are_checked(extra: list[str], word: str, capsys) -> None:
    argv = ["simulate", "punto-banco", "--seed", "1", "--bet", "tie"]
    argv += extra if "--shoes" in extra else ["--shoes", "2", *extra]
    one_line(capsys, argv, word)


def test_a_rule_files_shoe_beyond_the_simulated_bound(capsys, tmp_path: Path) -> None:
    rules = data_file("century21", "rules.toml")
    big = tmp_path / "big.toml"
    big.write_text(rules.read_text().replace("\ndecks = 8\n", "\ndecks = 2000\n"))
    one_line(capsys, ["simulate", "century21", "--shoes", "1", "--seed", "1", "--workers", "1",
                      "--rules", str(big)], "at most 54,000 cards")


HOSTILE_KEY = "\\u001b[2J" + "k" * 100_000  # TOML escape: the terminal's clear-screen


@pytest.mark.parametrize(("argv", "shipped", "typo", "named"), [
    (["analyze", "punto-banco", "--table"], None, ('otherwise = "Four aces"', "nmae = 'x'"),
     "bet 'almost-sure': unknown key(s) 'nmae'; known: "),
    (["analyze", "punto-banco", "--table"], None, ("pays = 1", "pays = 1\ngros = 2"),
     "bet 'almost-sure', event 'Wins': unknown key(s) 'gros'; known: gross, name, pays, when"),
    (["analyze", "chemin-de-fer", "--rules"], "chemin_de_fer",
     ('commission = "0"', "comission = 5"),
     "rules.toml: unknown rule(s) 'comission'; known: commission, decks, house_way"),
    (["analyze", "chemin-de-fer", "--rules"], "chemin_de_fer", ("player_draws_on_five = true",
                                                               "player_draws_on_5 = true"),
     "rules.toml: [house_way]: unknown rule(s) 'player_draws_on_5'; known: "),
    (["analyze", "chemin-de-fer", "--rules"], "chemin_de_fer", ("7 = []", "10 = [1]"),
     "[house_way.banker_draws_on_player_third]: unknown total(s) '10'; known: 0, 1, 2, 3"),
    (["analyze", "century21", "--rules"], "century21", ("natural_pays = 1", "natural_pay = 2"),
     "rules.toml: unknown rule(s) 'natural_pay'; known: collection, decks, drawing"),
    (["analyze", "century21", "--rules"], "century21", ("must_draw_max = 4", "must_draw_mx = 3"),
     "rules.toml: [drawing]: unknown rule(s) 'must_draw_mx'; known: dealer_house_way_draw_max"),
    (["analyze", "century21", "--rules"], "century21", ("fee = 1 }", "fee = 1, fees = 2 }"),
     "[collection] table_tags entry 1: unknown key(s) 'fees'; known: fee, max_bet, min_bet"),
    (["simulate", "century21", "--shoes", "1", "--seed", "1", "--rules"], "century21",
     ("[showdown]", f'[showdown]\n"{HOSTILE_KEY}" = true'),
     "[showdown]: unknown rule(s) '\\x1b[2J" + "k" * 32 + "…' (100004 characters); known: "
     "dealer_wins_ties_on_zero, natural_any_two_jokers, stop_on_dealer_joker_up"),
])
def test_a_user_file_with_an_unknown_key_is_one_line_naming_it(
        argv: list[str], shipped: str | None, typo: tuple[str, str], named: str, capsys,
        tmp_path: Path) -> None:
    """Bet files, chemin-de-fer and century21 rule files (century21 table files: test_settle):
    a misspelt key is refused, not read as its default; a hostile key stays one short line."""
    good = ALMOST_SURE if shipped is None else data_file(shipped, "rules.toml").read_text()
    assert good.count(typo[0]) == 1
    path = tmp_path / ("bets.toml" if shipped is None else "rules.toml")
    path.write_text(good.replace(typo[0], typo[1]))
    line = one_line(capsys, [*argv, str(path)], named)
    assert line.isprintable() and len(line) < 400 + len(str(path))


def test_a_refused_information_mode_lists_the_known_ones_as_words(capsys) -> None:
    """No Python tuple or list repr (``('total', 'cards')``) in the refusal: each game's
    ``--information`` takes its own values (chemin de fer's ``banker-cards`` is not 21st
    Century's)."""
    line = one_line(capsys, ["analyze", "century21", "--information", "banker-cards"],
                    "invalid choice 'banker-cards'")
    assert "total, cards" in line
    assert not any(repr_ in line for repr_ in ("('", "['", "{'"))  # (no Python repr)


def test_no_round_dealt_is_an_error_not_a_division_by_zero(capsys) -> None:
    # the first card's burn (2 to 11 cards) leaves at most 50 of 52 cards: none above the cut
    one_line(capsys, ["simulate", "punto-banco", "--shoes", "3", "--seed", "1", "--bet", "tie",
                      "--workers", "1", "--decks", "1", "--cut", "50"], "no round")


def test_shoes_that_happen_to_deal_no_round_are_an_error(capsys) -> None:
    # 1 deck, cut card at 49: a round only when an ace is shown first (2 cards burned)
    argv = ["simulate", "punto-banco", "--shoes", "2", "--bet", "tie", "--workers", "1",
            "--decks", "1", "--cut", "49", "--json"]
    one_line(capsys, [*argv, "--seed", "1"], "no round was dealt")
    assert main([*argv, "--seed", "2"]) == 0  # seed 2 shows an ace first: one round
    assert strict_json(capsys.readouterr().out)["rounds"] == 1


def test_seeds_are_made_lazily_and_match_the_spawned_children(monkeypatch) -> None:
    spawned = np.random.SeedSequence(2024).spawn(30)
    lazy = shoe_seeds(2024, range(30))
    assert all((a.generate_state(4) == b.generate_state(4)).all()
               for a, b in zip(spawned, lazy, strict=True))

    asked: list[int] = []

    def recorded(seed: int, shoes: range) -> list[np.random.SeedSequence]:
        asked.append(len(shoes))
        return lazy[shoes.start:shoes.stop] if seed == 2024 else []

    monkeypatch.setattr("exact.analysis.simulation.shoe_seeds", recorded)
    result = simulate(SimulationConfig(game="punto-banco", bet_ids=("tie",)), shoes=5,
                      seed=2024, workers=1, chunk=2)
    assert asked == [2, 2, 1]  # job by job, never every seed at once
    assert result.shoes == 5 and result.rounds > 0


# --- strictly valid JSON from every command -------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--json"],
    ["design", "punto-banco", "--bet", "tie", "--solve-for", "Tie", "--target-edge", "0.05",
     "--decks", "1", "--json"],
    ["eor", "punto-banco", "--decks", "1", "--bet", "tie", "--tags", "A=1", "--json"],
    ["eor", "century21", "--json"],
    ["simulate", "punto-banco", "--shoes", "2", "--seed", "3", "--workers", "1", "--bet", "tie",
     "--trigger", "tie=1000", "--json"],
    ["edge", "punto-banco", "--decks", "1", "--seen", "-", "--bet", "tie", "--json"],
])
def test_every_command_writes_strict_json(argv: list[str], capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("5 5 9H\n"))
    assert main(argv) == 0
    assert isinstance(strict_json(capsys.readouterr().out), dict)


def test_the_json_writer_never_writes_nan_or_infinity() -> None:
    text = json_text({"a": [math.nan, math.inf, -math.inf, 1.5], "b": np.float64("nan"),
                      "c": np.int64(7)})
    assert strict_json(text) == {"a": [None, None, None, 1.5], "b": None, "c": 7}


# --- rarity of a tier within a float of certainty -------------------------------------------------
def test_a_tier_whose_probability_rounds_to_one(capsys, tmp_path: Path) -> None:
    tier = TierFrequency("Wins", Fraction(1), 1, 1 - Fraction(1, 10**30), 100)
    assert float(tier.probability) == 1.0 and tier.at_least_once == 1.0
    bets = tmp_path / "sure.toml"
    bets.write_text(ALMOST_SURE)
    # four aces among 100,004 cards: the tier misses about once in 4e18 rounds
    argv = ["analyze", "punto-banco", "--shoe", "A:4,K:100000", "--bets", str(bets),
            "--bet", "almost-sure"]
    assert main([*argv, "--json"]) == 0
    table = strict_json(capsys.readouterr().out)["bets"]["almost-sure"]
    assert table["tiers"][0]["probability_at_least_once"] == 1.0
    assert Fraction(table["tiers"][0]["hit_frequency"]) < 1
    assert main(argv) == 0
    assert "at least once with probability 1.000000" in capsys.readouterr().out
