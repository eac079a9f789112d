"""Disk-cache keys are unambiguous (issue 26): two bets that differ never share an entry.

The keys once joined each event's name and condition text with ``|``. An event name may hold
``|``, and a condition may hold it in a comment or in a string literal, so the pairs below
gave one key to two different bets, and whichever ran first decided the other's counts on
every later run. Each pair is checked to collide under that old scheme (rebuilt here, as text),
to have different counts, and then to give each bet its own counts, equal to a cold run of
that bet alone, whatever the order: cold and warm, A then B and B then A, each in fresh cache
directories and in one shared directory, in one process (the command line's ``main``, the
in-memory forms forgotten so that the disk answers) and through fresh processes
(``python -m exact``; a fresh ``analyze`` reads the light form, without numpy). The value-level
pairs go through the compiled deal's bet-event matrices and light forms, the card-level pairs
through the factorised counter's entries.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import Shoe
from exact.errors import CacheWarning

# name -> (event of bet A, event of bet B): (event name, condition). Every pair collides under
# the old key: A's "name|condition" is B's, character for character.
PAIRS = {
    # B's condition holds the "|" in a comment: it reads winner == 'tie'; A's name holds it
    "name-and-comment": (("Win|winner == 'tie' #", "winner == 'banker'"),
                         ("Win", "winner == 'tie' #|winner == 'banker'")),
    # A's condition holds the "|" in a string literal (then a comment in B's reading)
    "string-literal": (("Win", "'|winner == \"tie\" #' != '' and winner == 'banker'"),
                       ("Win|'", "winner == \"tie\" #' != '' and winner == 'banker'")),
    # the same on card-level conditions (the factorised counter's entries)
    "card-name-and-comment": (
        ("Red|player_card1_suit == 'H' #", "player_card1_colour == 'red'"),
        ("Red", "player_card1_suit == 'H' #|player_card1_colour == 'red'")),
    "card-string-literal": (
        ("Red", "'|player_card1_suit == \"H\" #' != '' and player_card1_colour == 'red'"),
        ("Red|'", "player_card1_suit == \"H\" #' != '' and player_card1_colour == 'red'")),
}
SEEN = "9H KS 3D 3C"


def bet_file(pair: str) -> str:
    """A bet file holding both bets of ``pair``: ids ``a`` and ``b``."""
    lines = []
    for bet_id, (name, when) in zip("ab", PAIRS[pair], strict=True):
        lines += ["[[bet]]", f"id = {json.dumps(bet_id)}", "[[bet.event]]",
                  f"name = {json.dumps(name)}", f"when = {json.dumps(when)}", "pays = 3", ""]
    return "\n".join(lines)


def old_key(name: str, condition: str) -> str:
    """The old key of a one-event bet, as every kind of entry built it: the bet's events as
    ``name|condition`` joined by ``|`` (the ``otherwise`` event last, with no condition)."""
    return "bet:2|" + "|".join([f"{name}|{condition.strip()}", "Loses|"])


@pytest.mark.parametrize("pair", list(PAIRS))
def test_each_pair_collides_under_the_old_key_yet_counts_differently(pair, punto_banco,
                                                                      tmp_path,
                                                                      monkeypatch) -> None:
    """The pairs are real collisions of the old scheme, and of bets that count differently
    (so that a test giving one bet the other's counts fails)."""
    (first, second) = PAIRS[pair]
    assert old_key(*first) == old_key(*second)
    path = tmp_path / "bets.toml"
    path.write_text(bet_file(pair))
    bets = {b.id: b for b in game_bets(punto_banco, [path]) if b.id in "ab"}
    assert [e.condition.text for e in bets["a"].events[:1]] == [first[1]]
    from exact.analysis.bet_analysis import analyze

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    analysis = analyze(punto_banco, Shoe.standard(1), [bets["a"], bets["b"]])
    assert analysis.bets["a"].counts != analysis.bets["b"].counts


# --- in one process ------------------------------------------------------------------------------
def _forget() -> None:
    """The in-memory forms a process keeps in front of the disk, forgotten."""
    from exact.analysis import bet_analysis
    from exact.engines import factorised
    from exact.engines.compiled import compiled_for

    bet_analysis._PROJECTIONS.clear()
    compiled_for.cache_clear()
    factorised._compiled_bet.cache_clear()


def _argv(command: str, bets: Path, *ids: str, seen: Path) -> list[str]:
    argv = [command, "punto-banco", "--decks", "1", "--bets", str(bets)]
    for bet_id in ids:
        argv += ["--bet", bet_id]
    if command == "edge":
        argv += ["--seen", str(seen)]
    return [*argv, "--json"]


COMMANDS = ("analyze", "eor", "edge")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("pair", list(PAIRS))
def test_cold_warm_and_mixed_orders_in_one_process(pair, command, tmp_path, monkeypatch,
                                                   capsys) -> None:
    from exact.cli.app import main

    bets, seen = tmp_path / "bets.toml", tmp_path / "seen.txt"
    bets.write_text(bet_file(pair))
    seen.write_text(SEEN)

    def run(directory: str, *ids: str) -> dict:
        monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / directory))
        _forget()
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheWarning)  # no entry of another key is met
            assert main(_argv(command, bets, *ids, seen=seen)) == 0
        out, err = capsys.readouterr()
        assert err == ""
        return json.loads(out)["bets"]

    cold = {bet_id: run(f"cold-{bet_id}", bet_id) for bet_id in "ab"}
    # A then B, B then A: each in the other's directory, then again (warm), in one shared
    # directory, and both together in one run (the same entries read for both bets)
    assert run("cold-a", "b") == cold["b"] and run("cold-b", "a") == cold["a"]
    assert run("cold-a", "a") == cold["a"] and run("cold-b", "b") == cold["b"]
    for order in ("ab", "ba"):
        for bet_id in order * 2:
            assert run(f"shared-{order}", bet_id) == cold[bet_id]
    for _ in range(2):
        assert run("both", "a", "b") == {**cold["a"], **cold["b"]}
    if command == "analyze":  # the entries the pair's bets went through: of the right kind
        kinds = {path.suffix for path in (tmp_path / "cold-a").iterdir()}
        assert (".factorised" in kinds) == pair.startswith("card"), kinds


# --- through the command line, in fresh processes -------------------------------------------------
def _fresh(command: str, bets: Path, directory: Path, bet_id: str, seen: Path) -> dict:
    ran = subprocess.run([sys.executable, "-m", "exact", *_argv(command, bets, bet_id,
                                                                   seen=seen)],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "EXACT_CACHE_DIR": str(directory),
                              "PYTHONPATH": str(Path(__file__).parents[2])})
    assert ran.returncode == 0 and ran.stderr == "", ran.stderr[-2000:]
    return json.loads(ran.stdout)["bets"]


FRESH = [pytest.param(pair, command, marks=[] if command == "analyze" or pair in (
    "name-and-comment", "card-string-literal") else [pytest.mark.slow])
    for pair in PAIRS for command in COMMANDS]


@pytest.mark.parametrize(("pair", "command"), FRESH)
def test_cold_warm_and_mixed_orders_through_the_command_line(pair, command, tmp_path) -> None:
    """Fresh processes: A and B cold in fresh directories, then each in the directory the
    other warmed, then both again in a shared one."""
    bets, seen = tmp_path / "bets.toml", tmp_path / "seen.txt"
    bets.write_text(bet_file(pair))
    seen.write_text(SEEN)
    cold = {bet_id: _fresh(command, bets, tmp_path / bet_id, bet_id, seen) for bet_id in "ab"}
    assert _fresh(command, bets, tmp_path / "a", "b", seen) == cold["b"]
    assert _fresh(command, bets, tmp_path / "b", "a", seen) == cold["a"]
    assert _fresh(command, bets, tmp_path / "a", "a", seen) == cold["a"]
