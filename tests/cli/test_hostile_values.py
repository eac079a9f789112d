"""Every value the command line takes, given a hostile value (100,000 characters, or line breaks
and terminal control sequences): one short line on standard error and exit 2, never a
traceback, never the value echoed back whole.

The commands, their options and which game takes which option are read from the parser and
the games themselves (:func:`exact.cli.app.build_parser`, :func:`exact.cli.refusals.game_options`),
so an option added later is covered without being listed here."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import pytest

from exact.cli.app import main
from exact.cli.refusals import SHARED_OPTIONS, game_options
from exact.games import game_ids, get_game

from tests.support.parsers import full_parser

HOSTILE = {
    "digits": "9" * 100_000,  # a number too long for int() (and any bound)
    "cards": "A," * 50_000,  # a card list, a comma list and a BET=... of 100,000 characters
    "control": "no-such/\n\x1b[2J\x0b\x85\u2028\r\tx=1",  # line breaks, a terminal escape
}
LONGEST_LINE = 300  # characters of the one line on standard error (the file names are short)

# Valid values of the options a command needs, so that the hostile value is read past the
# check that they are given: those argparse requires (the test fails when a command requires
# one not listed here), and those a command asks for itself (settle's round).
REQUIRED = {"--bet": "tie", "--solve-for": "Tie", "--target-edge": "0.05", "--shoes": "1",
            "--seed": "1", "--output": "r.pdf"}  # (report's --output: the PDF it writes)
BET_ROUND = {"--cards": "9H 8D KS QC", "--wager": "tie=10", "--paytable": "tie=9-to-1"}
NEEDED = {("settle", "punto-banco"): BET_ROUND, ("settle", "nine-and-nines"): BET_ROUND,
          **{("simulate", game_id): {"--workers": "1"} for game_id in game_ids()},
          ("settle", "century21"): {"--dealer": "KH 7C", "--seat": "3=9S KD",
                                    "--wager": "3.1=100", "--dealer-wager": "150"}}


@functools.cache
def _required(command: str) -> list[str]:
    sub = full_parser().commands[command]
    required = [sub.options[dest] for dest, action in sub.actions.items()
                if action.required and action.option_strings]
    assert set(required) <= set(REQUIRED), f"{command}: give a valid value of {required}"
    return required


def _valued_arguments() -> list[tuple[str, str, str]]:
    """(command, game, flag) for every argument that takes a value, with each game taking it
    (and the options the command requires) on that command ("" as the flag: the game id
    itself, given the hostile value)."""
    parser = full_parser()
    found = []
    for command, sub in parser.commands.items():
        valued = {dest: action for dest, action in sub.actions.items() if action.nargs != 0}
        if "game" in valued:
            found.append((command, "punto-banco", ""))
        required = {dest for dest, action in sub.actions.items() if action.required}
        for game_id in game_ids():
            taken = SHARED_OPTIONS | game_options(get_game(game_id), command)
            if required <= taken:
                found += [(command, game_id, sub.options[dest]) for dest in valued
                          if dest != "game" and dest in taken]
    return found


ARGUMENTS = _valued_arguments()


def _argv(command: str, game_id: str, flag: str, value: str) -> list[str]:
    """``command`` run on ``game_id`` with ``value`` for ``flag`` (the game id if none), and
    valid values for the options it needs."""
    needed = {name: REQUIRED[name] for name in _required(command)}
    if flag != "--table":  # settle century21: the table file instead of the hand's options
        needed.update(NEEDED.get((command, game_id), {}))
    needed[flag] = value
    options = [item for name, given in needed.items() if name for item in (name, given)]
    return [command, value if not flag else game_id, *options]


def test_every_command_and_its_options_are_found() -> None:
    """The derivation finds what the parser has (a sample of each kind), so that the
    parametrised test below cannot pass by testing nothing."""
    found = set(ARGUMENTS)
    assert {("analyze", "punto-banco", ""), ("analyze", "punto-banco", "--engine"),
            ("analyze", "century21", "--strategy"), ("design", "punto-banco", "--target-edge"),
            ("settle", "century21", "--seat"), ("simulate", "nine-and-nines", "--trigger"),
            ("edge", "punto-banco", "--output")} <= found
    assert {command for command, _, _ in found} == set(full_parser().commands) - {"games"}
    assert not any(flag in ("--json", "--all", "--csv") for _, _, flag in found)


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize(("command", "game_id", "flag"), ARGUMENTS)
def test_a_hostile_value_is_one_short_line_and_exit_2(
        command: str, game_id: str, flag: str, kind: str, capsys, monkeypatch,
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # a value taken as an output file name is written nowhere else
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # edge without --seen reads it
    argv = _argv(command, game_id, flag, HOSTILE[kind])
    status = main(argv)
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    shown = [command, game_id, flag or "game id", kind]
    assert status == 2, (shown, status, captured.err[:500])
    assert "Traceback" not in captured.err, (shown, captured.err[-2000:])
    assert len(lines) == 1 and captured.err.endswith("\n"), (shown, captured.err[:500])
    assert len(lines[0]) < LONGEST_LINE, (shown, lines[0][:200], len(lines[0]))
    assert lines[0].isprintable(), (shown, lines[0][:500])


LONG = HOSTILE["digits"]


@pytest.mark.parametrize(("argv", "named"), [
    (["x" + LONG], "argument command: invalid choice 'x999"),  # no such command
    (["games", LONG, "a\nb"], "unrecognized arguments: '999"),
    (["analyze", "punto-banco", *["y"] * 10_000], "'y', 'y', 'y', 'y', 'y' and 9995 more"),
    (["analyze", "punto-banco", "--" + LONG], "unrecognized arguments: '--999"),
    (["analyze", "punto-banco", "--b=" + LONG], "ambiguous option: --b=999"),  # --bet, --bets...
    (["analyze", "punto-banco", "--all=" + LONG], "argument --all: ignored explicit argument"),
])
def test_argparse_refusals_are_cut_short(argv: list[str], named: str, capsys) -> None:
    """argparse's own refusals, which quote the user's arguments whole, are one short line."""
    assert main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and named in lines[0] and len(lines[0]) < LONGEST_LINE, lines


@pytest.mark.parametrize("argv", [["--bogus=" + LONG], ["--jobs", LONG], ["--out"]])
def test_the_reports_command_line_refuses_in_one_short_line(argv: list[str], capsys) -> None:
    """``python -m exact.reports`` shares the parser (exact.core.options.OneLineParser)."""
    from exact.reports.build import main as reports_main

    assert reports_main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exact.reports: "), lines
    assert len(lines[0]) < LONGEST_LINE, lines[0][:500]


def test_an_invalid_choice_names_the_choices_as_words(capsys) -> None:
    """Not argparse's Python reprs (``'auto', 'factorised'``): the choices, comma-separated,
    from the parser itself."""
    assert main(["analyze", "punto-banco", "--engine", "fast"]) == 2
    line = capsys.readouterr().err.strip()
    choices = full_parser().commands["analyze"].actions["engine"].choices
    assert line.endswith(f"argument --engine: invalid choice 'fast'; choose from "
                         f"{', '.join(choices)} (see --help)"), line


def _bet_file(bet_id: str = "mine", event: str = "e", when: str = "winner == 'tie'",
              pays: str = "1", extra: str = "") -> str:
    return (f'[[bet]]\nid = "{bet_id}"\n{extra}\n[[bet.event]]\nname = "{event}"\n'
            f'when = """{when}"""\npays = {pays}\n')


KEY = "k" * 100_000
WORD = "k" * 1_900  # conditions are at most 2,000 characters: a long name within them
BET_FILES = {
    "an id, with a bad pay": _bet_file(bet_id=KEY, pays='"x"'),
    "an event, with an unknown feature": _bet_file(event=KEY, when="nosuch == 1"),
    "an unknown feature": _bet_file(when=WORD + " == 1"),
    "a paytable's event": _bet_file(extra=f'[bet.paytables]\nalt = {{ "{KEY}" = 2 }}\n'),
    "a paytable's pay": _bet_file(extra=f'[bet.paytables]\nalt = {{ e = "{KEY}" }}\n'),
    "a duplicate id": _bet_file(bet_id=KEY) * 2,
    "otherwise": _bet_file(event=KEY, extra=f'otherwise = "{KEY}"'),
    "a control character": _bet_file(bet_id="\\u001b[2J\\n" + KEY, pays='"x"'),
}


@pytest.mark.parametrize("command", [["list-bets", "punto-banco", "--bets"],
                                     ["analyze", "punto-banco", "--bet", "tie", "--table"]])
@pytest.mark.parametrize("kind", list(BET_FILES))
def test_a_hostile_name_in_a_bet_file_is_one_short_line(kind: str, command: list[str], capsys,
                                                         tmp_path: Path) -> None:
    """Names a bet file gives (ids, events, paytables, features) are quoted cut short."""
    path = tmp_path / "bets.toml"
    path.write_text(BET_FILES[kind])
    assert main([*command, str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and len(lines[0]) < LONGEST_LINE + len(str(path)), lines[0][:500]
    assert lines[0].isprintable()
