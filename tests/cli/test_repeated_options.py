"""Repeated and contradictory options are refused in one line (issue 26): a single-valued
option given twice (even with the same value), a repeatable option given the same value (or,
for ``KEY=VALUE`` options, the same key) twice, and pairs of options that contradict each
other. The cases are built from the parsers, so a new option is covered automatically."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import pytest

from exact.cli.app import build_parser, main
from exact.core.options import BurnOption, KeyedOption, NumberOption, OneLineParser
from exact.core.parsing import QUANTITIES
from exact.errors import UsageError


def _value(action: argparse.Action) -> list[str]:
    """A value the option takes on its own (none for a flag)."""
    if action.nargs == 0:
        return []
    if action.choices is not None:
        return [str(next(iter(action.choices)))]
    kind = action.type
    if isinstance(kind, BurnOption):
        return ["none"]
    if isinstance(kind, NumberOption):
        return [str(QUANTITIES[kind.quantity].minimum)]
    if isinstance(kind, KeyedOption):
        if kind.key is not None:
            return ["1=2" if kind.value is not None else "1=9H"]
        return ["tie=1"]
    return ["x.out" if action.dest in ("output", "xlsx") else "x"]


def single_valued() -> Iterator[Any]:
    parser = build_parser()
    for command, sub in sorted(parser.commands.items()):
        for dest, action in sorted(sub.actions.items()):
            if not action.option_strings or dest == "help" or isinstance(
                    action, argparse._AppendAction):
                continue
            flag = max(action.option_strings, key=len)
            yield pytest.param(command, flag, _value(action), id=f"{command} {flag}")


@pytest.mark.parametrize("command, flag, value", list(single_valued()))
def test_a_single_valued_option_given_twice_is_refused(capsys, command, flag, value) -> None:
    """Twice with the same value is refused too: a command line that says a thing twice was
    edited in one place and not the other more often than not (docs: Command-line conventions)."""
    assert main([command, "punto-banco", flag, *value, flag, *value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{flag} given twice" in err, err


def repeatable() -> Iterator[Any]:
    parser = build_parser()
    for command, sub in sorted(parser.commands.items()):
        for _dest, action in sorted(sub.actions.items()):
            if isinstance(action, argparse._AppendAction):
                flag = max(action.option_strings, key=len)
                yield pytest.param(command, flag, action, id=f"{command} {flag}")


@pytest.mark.parametrize("command, flag, action", list(repeatable()))
def test_a_repeatable_option_takes_each_value_or_key_once(command, flag, action) -> None:
    parser = build_parser(command)
    keyed = isinstance(action.type, KeyedOption)
    if keyed and action.type.key is not None and action.type.value is not None:
        first, other, again = "1=2", "2=3", "1=4"  # numbers both sides (--position SEAT=POS)
    elif keyed and action.type.key is not None:
        first, other, again = "1=9H", "2=9D", "1=9D"
    elif keyed:
        first, other, again = "tie=1", "banker=1", "tie=2"
    else:
        first, other, again = "a", "b", "a"
    required = [item for other in parser.commands[command].actions.values()
                if other.required and other.option_strings and other.dest != action.dest
                for item in (max(other.option_strings, key=len), *_value(other))]
    line = [command, "punto-banco", *required, flag, first, flag, other]
    assert len(getattr(parser.parse_args(line), action.dest)) == 2
    with pytest.raises(UsageError, match="given twice: give it once"):
        parser.parse_args([command, "punto-banco", *required, flag, first, flag, again])


@pytest.mark.parametrize("line, both", [
    (["analyze", "punto-banco", "--all", "--bet", "tie"], "--all and --bet contradict"),
    (["analyze", "punto-banco", "--bet", "tie", "--all"], "--all and --bet contradict"),
    (["analyze", "punto-banco", "--all", "--group", "side"], "--all and --group contradict"),
    (["analyze", "punto-banco", "--group", "side", "--bet", "tie"],
     "--bet and --group contradict"),
    (["simulate", "punto-banco", "--shoes", "1", "--seed", "1", "--workers", "1",
      "--scheduler", "tcp://localhost:8786"], "--scheduler and --workers contradict"),
    (["simulate", "punto-banco", "--shoes", "1", "--seed", "1", "--trigger", "tie=1",
      "--trigger", "tie=2"], "--trigger: bet 'tie' given twice"),
    (["analyze", "punto-banco", "--paytable", "tie=9-to-1", "--paytable", "tie=8-to-1"],
     "--paytable: bet 'tie' given twice"),
    (["settle", "century21", "--seat", "3=9S KD", "--seat", "03=9H KD"],
     "--seat: seat 3 given twice"),
    (["edge", "punto-banco", "--known", "1=9H", "--known", "1.0=9D"],
     "--known: position 1 given twice"),
])
def test_contradictions_and_repeated_keys_name_the_options(capsys, line, both) -> None:
    assert main(line) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and both in err, err


def test_different_keys_and_the_defaults_are_not_contradictions(capsys) -> None:
    """--trigger for two bets is two triggers; --workers left at its default is not given."""
    parser = build_parser("simulate")
    args = parser.parse_args(["simulate", "punto-banco", "--shoes", "1", "--seed", "1",
                              "--trigger", "tie=1", "--trigger", "banker=-2.5e-1",
                              "--scheduler", "tcp://localhost:8786"])
    assert [key for key, _count in args.trigger] == ["tie", "banker"]
    assert main(["analyze", "punto-banco", "--decks", "1", "--group", "side", "--group",
                 "main", "--json"]) == 0


def test_the_rule_is_the_parsers_own() -> None:
    """Any OneLineParser (the report builder's too) refuses an option given twice; a
    positional argument is not an option."""
    parser = OneLineParser(prog="x")
    parser.add_argument("names", nargs="*")
    parser.add_argument("--jobs")
    assert parser.parse_args(["a", "b", "--jobs", "2"]).names == ["a", "b"]
    with pytest.raises(UsageError, match=r"--jobs given twice \('2', then '2'\)"):
        parser.parse_args(["--jobs", "2", "--jobs=2"])
    parser.refuse_together("--jobs", "--other", "why")
    parser.add_argument("--other", action="store_true")
    with pytest.raises(UsageError, match="--jobs and --other contradict: why; give one"):
        parser.parse_args(["--other", "--jobs", "1"])
