"""The command line's edge (exact/cli/edge.py): parsed options become typed records there, and
nothing below the command line reads an :class:`argparse.Namespace`."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
from pathlib import Path

import pytest

from exact.analysis.assumptions import CommandRun, add_for_command
from exact.cli.edge import command_run, rules_for
from exact.games import get_game

PACKAGE = Path(__file__).resolve().parents[2] / "exact"
# The command line (and the lab beside it) and the games above it read parsed options; the
# number grammar's argparse types and actions are argparse's own callbacks, handed the
# namespace by argparse itself (exact/core/options.py).
EDGE = ("cli/", "lab/", "games/")
CALLBACKS = {"core/options.py"}


def _reads_options(source: str) -> list[str]:
    """What in ``source`` takes parsed options: a name or attribute ``Namespace``, or a
    parameter called ``args`` or ``namespace`` (``*args`` aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Name) and node.id == "Namespace") or \
                (isinstance(node, ast.Attribute) and node.attr == "Namespace"):
            found.append(f"Namespace (line {node.lineno})")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = node.args
            for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                if argument.arg in ("args", "namespace"):
                    found.append(f"parameter {argument.arg} (line {argument.lineno})")
    return found


def test_the_reader_sees_each_way_of_taking_options() -> None:
    assert _reads_options("def f(args): pass\n") == ["parameter args (line 1)"]
    assert _reads_options("import argparse\nx: argparse.Namespace\n") == [
        "Namespace (line 2)"]
    assert _reads_options("from types import SimpleNamespace\ng = lambda namespace: 1\n") == [
        "parameter namespace (line 2)"]
    assert _reads_options("def f(*args, **kwargs): pass\n") == []


def test_nothing_below_the_command_line_takes_parsed_options() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(EDGE) or relative in CALLBACKS:
            continue
        hits = _reads_options(path.read_text(encoding="utf-8"))
        if hits:
            found[relative] = hits
    assert found == {}


def _namespace(**values: object) -> argparse.Namespace:
    return argparse.Namespace(**{"game": "century21", "command": "analyze", "json": False,
                                 "csv": False, "rules": None, **values})


def test_a_run_record_is_frozen_and_carries_what_the_assumptions_depend_on(tmp_path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[settlement]\naction = "whole-hand"\n')
    args = _namespace(rules=str(rules), json=True)
    run = command_run(args)
    assert run.command == "analyze" and run.game == "century21" and run.json and not run.csv
    # the rule file is read once: the record and a game's command share the rules read
    assert run.rules is rules_for(get_game("century21"), args) is args.resolved_rules
    assert run.rules != get_game("century21").rules
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.game = "punto-banco"  # type: ignore[misc]


def test_simulate_carries_its_shoe_and_other_commands_none() -> None:
    run = command_run(_namespace(game="punto-banco", command="simulate", cut=14, burn="none"))
    assert run.shoe == {"burn": "no card is burned", "cut": "14"} and run.rules is None
    assert command_run(_namespace(game="punto-banco")).shoe is None


def test_the_assumptions_are_added_by_the_record() -> None:
    shown = add_for_command(CommandRun("analyze", "punto-banco", json=True), '{"a": 1}\n')
    assert json.loads(shown)["a"] == 1 and json.loads(shown)["assumptions"]
    assert add_for_command(CommandRun("analyze", "punto-banco", csv=True), "a,b\n") == "a,b\n"
    assert add_for_command(CommandRun("features", "punto-banco"), "x\n") == "x\n"
    text = add_for_command(CommandRun("analyze", "punto-banco"), "x\n")
    assert text.startswith("x\n\n") and len(text) > len("x\n\n")
