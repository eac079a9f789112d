"""The package's import graph, read with :mod:`ast` (imports at the top of a module and those
inside functions alike): no cycle; game definitions import no analysis, command-line, rendering
or report code; the engines know no game; the package reads nothing from tests/; every error
type lives in :mod:`exact.errors`.

The same layers are declared for import-linter in pyproject.toml (``make lint``); this test
also counts the imports inside functions, which import-linter sees too, and runs without it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "exact"

# Modules of the command line, rendering, reports and analyses: a game definition uses none.
UPPER = ("exact.cli.app", "exact.cli.counting", "exact.cli.settle", "exact.core.shoe_options",
         "exact.cli.century21", "exact.cli.own_commands",
         "exact.render.output", "exact.render.spreadsheet", "exact.core.frames", "exact.lab.notebooks", "exact.lab.widgets",
         "exact.reports", "exact.analysis.bet_analysis", "exact.analysis.statistics", "exact.analysis.rarity", "exact.analysis.designer",
         "exact.analysis.validation", "exact.analysis.removal", "exact.analysis.simulation", "exact.analysis.montecarlo",
         "exact.analysis.assumptions", "exact.reference.punto_banco", "exact.reference.nine_and_nines",
         "exact.reference.century21")
# The counting engines and the core they stand on: they import no game (the base class of the
# games, exact.model.game, is the model they count for, not a game).
ENGINES = ("exact.core.cards", "exact.core.enumerator", "exact.engines.compiled", "exact.engines.staged", "exact.engines.batch",
           "exact.engines.cache", "exact.engines.live", "exact.model.expressions", "exact.model.features", "exact.model.bets",
           "exact.core.parsing", "exact.core.files", "exact.core.progress", "exact.errors")

# Known debt, to be moved out of exact/games/ when the package gets its layout (issue 12,
# step 4). These three modules are analysis and rendering code of 21st Century Baccarat (its
# batch evaluator and removal table, its simulation, its analysis text) that still sit beside
# the game; the game no longer reaches them (its commands are registered in exact.cli.own_commands,
# its shoe play in exact.analysis.simulation.OWN_PLAYS). The test fails when an entry is no longer
# needed, so the list only shrinks.
MISPLACED_GAME_MODULES = {"exact.analysis.century21_batch", "exact.render.century21",
                          "exact.analysis.century21_simulation"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The package module that importing ``name`` loads last (``exact.core.cards.Shoe`` ->
    ``exact.core.cards``), or None for a module outside the package."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> dict[str, int]:
    """The package modules ``module`` imports anywhere in its body, with a line of each."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _resolve(name)
            if target is not None and target != module:
                found.setdefault(target, node.lineno)
    return found


GRAPH = {module: _imports(module) for module in MODULES}


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def _cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One cycle of ``graph`` (as a path that ends where it starts), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_graph_is_read() -> None:
    # a reader that saw no imports would pass every test below
    assert "exact.core.cards" in GRAPH["exact.core.enumerator"]
    assert "exact.games.century21.game" in GRAPH["exact.games.century21.solve"]
    assert _cycle({"a": {"b": 1}, "b": {"a": 2}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b": 1}, "b": {}}) is None


def test_no_import_cycle() -> None:
    cycle = _cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_known_debt_is_still_needed() -> None:
    for module in MISPLACED_GAME_MODULES:
        assert module in MODULES and any(_within(t, UPPER) for t in GRAPH[module]), \
            f"{module} imports no upper layer any more: drop the entry"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("exact.games")))
def test_games_import_no_upper_layer(module: str) -> None:
    if module in MISPLACED_GAME_MODULES:
        pytest.skip("known debt: command-line and analysis code still in exact/games/")
    upward = {target: line for target, line in GRAPH[module].items()
              if _within(target, UPPER) or target in MISPLACED_GAME_MODULES}
    assert not upward, f"{module} imports {upward} (module: line)"


@pytest.mark.parametrize("module", ENGINES)
def test_engines_import_no_game(module: str) -> None:
    games = {target: line for target, line in GRAPH[module].items()
             if target.startswith("exact.games") and target not in ("exact.model.game",)}
    upward = {target: line for target, line in GRAPH[module].items() if _within(target, UPPER)}
    assert not games and not upward, f"{module} imports {games | upward} (module: line)"


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_package_reads_nothing_from_tests(module: str) -> None:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    paths = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and id(node) not in docstrings
             and re.search(r"(^|/)tests(/|$)", node.value)]
    assert not paths, f"{module} names tests/ at line(s) {paths}"


def test_every_error_type_is_in_errors() -> None:
    import exact.errors

    known = {name for name, value in vars(exact.errors).items() if isinstance(value, type)}
    stray = []
    for module, path in MODULES.items():
        if module == "exact.errors":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).rpartition(".")[2] for base in node.bases}
                if bases & known or any(base.endswith(("Error", "Exception")) for base in bases):
                    stray.append(f"{module}.{node.name}")
    assert not stray, f"error types outside exact.errors: {stray}"
