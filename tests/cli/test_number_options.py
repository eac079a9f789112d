"""Every number of every command goes through the one grammar (exact/core/parsing.py), and
every option is given once (issue 26).

The list of numeric options is built from the parsers themselves: an option whose ``type=``
reads a quantity (:class:`~exact.core.options.NumberOption`, a number side of a
:class:`~exact.core.options.KeyedOption`, ``--burn``), or a composite one whose numbers are
read at run time (``--shoe``, ``--tags``, ``analyze century21 --bet``). Every other option must
be named in :data:`TEXT_OPTIONS`, so a new option is either covered here or declared to take
no number: the classification test fails otherwise.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from exact.analysis.removal import parse_tags
from exact.cli.app import build_parser, main
from exact.core.cards import Shoe
from exact.core.options import KeyedOption
from exact.core.parsing import QUANTITIES, parse_integer, parse_number, shown
from exact.errors import InputError

# The grammar's hard cases (issue 26): accepted ones and refused ones, per quantity
HARD = ("2.5e-3", "1e12", "\u0663", "\u00b2", "\uff11\uff12", "1_000", "0x10", "nan", "inf")

# Options that take no number (ids, names, files, cards, flags, choices), by argparse name.
TEXT_OPTIONS = frozenset({
    "help", "game", "bets", "bet", "group", "all", "paytable", "table", "engine", "json", "csv",
    "output", "xlsx", "strategy", "information", "with_replacement", "rules", "remove",
    "solve_for", "removal_set", "scheduler", "seen", "cards", "dealer", "action", "pdf",
    "submission", "view", "owners",
})

# Options holding numbers inside a composite text, read at run time by the grammar (in
# Shoe.parse, parse_tags, the century21 analysis): quantity, the argument with the number in
# its place, the game, and the reader the command uses (for an accepted value).
Reader = Callable[[str], object]
COMPOSITE: dict[tuple[str, str], tuple[str, str, str, Reader]] = {
    **{(command, "shoe"): ("cards", "A:{}", "punto-banco",
                           lambda text: Shoe.parse(text).count("A"))
       for command in ("analyze", "design", "eor", "edge", "settle", "report")},
    **{(command, "tags"): ("tag", "A={}", "punto-banco", lambda text: parse_tags(text)["A"])
       for command in ("eor", "simulate")},
    # --bet AMOUNT is century21's old spelling of --bet-size (an id elsewhere)
    ("analyze", "bet"): ("bet", "{}", "century21", lambda text: parse_number(text, "bet")),
    # --wagers W1,W2,...: each seat's wager, one seat here
    ("analyze", "wagers"): ("bet", "{}", "century21", lambda text: parse_number(text, "bet")),
}
# What one option needs beside it to be read (--wagers is read for a --seats table)
BESIDE = {("analyze", "wagers"): ["--seats", "1"]}
# What a command needs besides the option under test for the number to be reached
NEEDS = {"settle": ["--cards", "7H 4C KD 5S"], "edge": ["--seen", "/dev/null"]}


def options() -> Iterator[tuple[str, str, argparse.Action]]:
    parser = build_parser()
    for command, sub in sorted(parser.commands.items()):
        for dest, action in sorted(sub.actions.items()):
            yield command, dest, action


def quantity_of(action: argparse.Action) -> tuple[str, str] | None:
    """(quantity, how the argument holds the number) of a typed numeric option, else None."""
    kind = action.type
    if isinstance(kind, KeyedOption):
        if kind.key is not None:
            return kind.key, "{}=9H"
        return (kind.value, "tie={}") if kind.value is not None else None
    quantity = getattr(kind, "quantity", None)
    return (quantity, "{}") if quantity is not None else None


def numeric_cases() -> Iterator[Any]:
    for command, dest, action in options():
        typed = quantity_of(action)
        composite = COMPOSITE.get((command, dest))
        if typed is None and composite is None:
            continue
        flag = max(action.option_strings, key=len)
        for text in HARD:
            yield pytest.param(command, dest, flag, text, id=f"{command} {flag} {text}")


def verdict(quantity: str, text: str) -> Fraction | int | InputError:
    """The grammar's verdict on ``text`` as a ``quantity``: its value, or its refusal."""
    reader = parse_integer if QUANTITIES[quantity].integer else parse_number
    try:
        return reader(text, quantity, "X")
    except InputError as error:
        return error


def test_every_option_is_numeric_or_declared_text() -> None:
    """A new option is covered by the parametrised test below, or declared to take no number
    (TEXT_OPTIONS): an option that reads a number without the grammar cannot slip in."""
    unclassified = sorted({(command, dest) for command, dest, action in options()
                           if quantity_of(action) is None and (command, dest) not in COMPOSITE
                           and dest not in TEXT_OPTIONS})
    assert not unclassified
    # and no declared text option reads a number through a typed reader
    assert not [(command, dest) for command, dest, action in options()
                if dest in TEXT_OPTIONS and quantity_of(action) is not None]


def _command_line(parser: Any, command: str, dest: str, flag: str, argument: str,
                  game: str) -> list[str]:
    """The command with ``flag argument`` and the other options it requires."""
    sub = parser.commands[command]
    line = [command, game, *NEEDS.get(command, [])]
    for other, action in sub.actions.items():
        if action.required and action.option_strings and other != dest:
            line += [max(action.option_strings, key=len), "1" if quantity_of(action) else "x"]
    return [*line, *BESIDE.get((command, dest), []), flag, argument]


@pytest.mark.parametrize("command, dest, flag, text", list(numeric_cases()))
def test_every_numeric_option_gives_the_grammars_verdict(capsys, command, dest, flag,
                                                         text) -> None:
    """Each hard case is accepted with the grammar's value, or refused in one line (exit
    status 2) with the grammar's reason, by every numeric option of every command."""
    parser = build_parser()
    action = parser.commands[command].actions[dest]
    typed = quantity_of(action)
    if typed is not None:
        quantity, form = typed
        game = "punto-banco"
    else:
        quantity, form, game, reader = COMPOSITE[(command, dest)]
    argument = form.format(text)
    line = _command_line(parser, command, dest, flag, argument, game)
    expected = verdict(quantity, text)
    if isinstance(expected, InputError):
        assert main(line) == 2, line
        err = capsys.readouterr().err
        reason = str(expected).split(": ", 1)[1]
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert reason in err and shown(text) in err, (reason, err)
        return
    if typed is None:  # read at run time: the reader the command uses gives the value
        assert reader(argument) == expected
        return
    value = getattr(build_parser(command).parse_args(line), dest)
    if isinstance(value, list):  # a repeatable option: its pair (KeyedOption)
        key, side = value[-1]
        value = key if action.type.key is not None else side
    assert value in (expected, str(expected)), (line, value, expected)  # --burn keeps digits


def test_settle_takes_the_grammars_amounts(capsys) -> None:
    """`settle` took neither 2.5e-3 nor 1e12 (issue 26): both are amounts of the grammar."""
    import json

    assert main(["settle", "punto-banco", "--cards", "7H 4C 6D 6S 5H 2C", "--wager",
                 "player=2.5e-3", "--wager", "banker=1e12", "--json"]) == 0
    wagers = json.loads(capsys.readouterr().out)["wagers"]
    assert [(w["bet"], w["amount"], w["net"]) for w in wagers] == [
        ("player", "1/400", "1/400"), ("banker", "1000000000000", "-1000000000000")]


@pytest.mark.parametrize("commission, verdict_", [
    ("5%", "commission 1/20"), ("2.5e-2", "commission 1/40"), ("1/20", "commission 1/20"),
    ("\u0663%", "is not a number"), ("\u0660.\u0660\u0665", "is not a number"),
    ("\uff15%", "is not a number"), ("20%", "must be at most 1/10")])
def test_commission_is_read_by_the_grammar(capsys, commission, verdict_) -> None:
    """--commission took Arabic-Indic digits (a regular expression's Unicode \\d)."""
    code = main(["analyze", "chemin-de-fer", "--decks", "1", "--commission", commission])
    captured = capsys.readouterr()
    assert verdict_ in (captured.out if code == 0 else captured.err)
    assert code == 0 or (code == 2 and captured.err.count("\n") == 1)
