"""The package's import graph, read with :mod:`ast` (imports at the top of a module and those
inside functions alike): no cycle between modules nor between the packages of exact/; every
import goes down the layers that pyproject.toml declares for import-linter (games > command
line > reports > rendering > analyses > engines > model > core); each game's package
(``exact/games/<game>/``) imports no other game's (the shared baccarat coup aside, which
imports none); no generic module imports a game or names one's module (the games are found by
their plugin records, :mod:`exact.model.plugins`); the package reads nothing from tests/;
every error type lives in :mod:`exact.errors`.

import-linter checks the same layers (``make lint``); this test reads them from pyproject.toml,
also counts the imports inside functions, and runs without import-linter.
"""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "exact"
# Modules outside the layers: the package's root, its entry point, the one error module
# (below every layer) and the public name of the cards (a re-export of exact.core.cards).
OUTSIDE_LAYERS = {"exact", "exact.__main__", "exact.errors", "exact.cards"}


def _layers() -> tuple[list[list[str]], set[tuple[str, str]], set[tuple[str, str]]]:
    """The layers of pyproject.toml's import-linter contract (top first, each a list of the
    packages side by side), its ignored imports, and the pairs of independent packages."""
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(contract for contract in config["tool"]["importlinter"]["contracts"]
                    if contract["type"] == "layers")
    layers = [[name.strip() for name in re.split(r"[|:]", layer)] for layer in contract["layers"]]
    ignored = {(source.strip(), target.strip()) for source, _, target in
               (edge.partition("->") for edge in contract.get("ignore_imports", []))}
    independent = {(first.strip(), second.strip()) for layer in contract["layers"]
                   if "|" in layer for first in layer.split("|") for second in layer.split("|")
                   if first != second}
    return layers, ignored, independent


LAYERS, ALLOWED, INDEPENDENT = _layers()
GAMES = LAYERS.index(["exact.games"])
# Every generic package (the layers below the games): none imports a game.
LOWER = tuple(name for layer in LAYERS[GAMES + 1:] for name in layer)
# The games' shared packages: used by several games, they import none.
SHARED = ("exact.games.baccarat", "exact.games.simple")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
# Strings that spell a module's name but are not imported: the entry-point group of the game
# plugins, which is named as the games' package is (exact.model.plugins.GROUP).
NOT_IMPORTED = {("exact.model.plugins", "exact.games")}


def _resolve(name: str) -> str | None:
    """The package module that importing ``name`` loads last (``exact.core.cards.Shoe`` ->
    ``exact.core.cards``), or None for a module outside the package."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def _named_module(text: str) -> str | None:
    """The package module a string names for :func:`importlib.import_module`: a module's dotted
    name, or ``"module:attribute"`` (an entry point's form)."""
    name, colon, attribute = text.partition(":")
    if colon and not attribute.isidentifier():
        return None
    return name if "." in name and name in MODULES else None


def _references(module: str, source: str | None = None) -> dict[str, int]:
    """The package modules ``module`` imports anywhere in its body, with a line of each. A
    string naming a module (its dotted name, or ``module:attribute``) outside a docstring
    counts as an import: a registry entry that :func:`importlib.import_module` loads is an
    import all the same, which could otherwise close a cycle or cross a layer unseen."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, int] = {}
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings and _named_module(node.value)
                and (module, node.value) not in NOT_IMPORTED):
            names = [_named_module(node.value) or ""]
        elif isinstance(node, ast.Import):
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


def _imports(module: str) -> dict[str, int]:
    return _references(module)


@functools.cache
def graph() -> dict[str, dict[str, int]]:
    """Every package module's imports (parsed when a test first asks, not when the file is
    collected: every pytest worker collects this file, one runs its tests)."""
    return {module: _imports(module) for module in MODULES}


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


def _within(module: str, prefixes: tuple[str, ...] | list[str]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def _layer(module: str) -> tuple[int, str] | None:
    """(index of the layer, top first; the package) of ``module``, None outside the layers."""
    for index, layer in enumerate(LAYERS):
        for package in layer:
            if _within(module, (package,)):
                return index, package
    return None


def test_the_graph_is_read() -> None:
    # a reader that saw no imports, or no layers, would pass every test below
    assert "exact.core.cards" in graph()["exact.core.enumerator"]
    assert "exact.games.century21.game" in graph()["exact.games.century21.solve"]
    assert _cycle({"a": {"b": 1}, "b": {"a": 2}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b": 1}, "b": {}}) is None
    # a module named in a string, loaded by importlib.import_module, is an import
    registry = 'PLAYS = {"century21": "exact.games.century21.simulation:Century21Play"}'
    assert "exact.games.century21.simulation" in _references("exact.cli.settle", registry)
    assert _game_of("exact.games.century21.settle") == "century21"
    assert _game_of("exact.games.baccarat.coup") is None
    assert _game_of("exact.cli.app") is None
    assert len(LAYERS) >= 6 and GAMES == 0 and "exact.cli" in LOWER and "exact.engines" in LOWER


def test_no_import_cycle() -> None:
    cycle = _cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_cycle_between_packages() -> None:
    # every import counts, those the layers contract ignores too (a layer exception may not
    # close a cycle: exact.model once imported exact.engines, which imports exact.model)
    packages: dict[str, dict[str, int]] = {}
    for module, targets in graph().items():
        edges = packages.setdefault(_package(module), {})
        for target, line in targets.items():
            if _package(target) != _package(module):
                edges.setdefault(_package(target), line)
    for targets in list(packages.values()):
        for target in targets:
            packages.setdefault(target, {})
    cycle = _cycle(packages)
    assert cycle is None, "package cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_import_goes_down_the_layers(module: str) -> None:
    place = _layer(module)
    if place is None:
        assert module in OUTSIDE_LAYERS, f"{module} is in no layer of pyproject.toml"
        return
    wrong = {}
    for target, line in graph()[module].items():
        target_place = _layer(target)
        if target_place is None or (module, target) in ALLOWED:
            continue
        if target_place[0] < place[0] or (place[1], target_place[1]) in INDEPENDENT:
            wrong[target] = line
    assert not wrong, f"{module} imports up or across the layers: {wrong} (module: line)"


def _game_of(module: str) -> str | None:
    """The game whose package holds ``module`` (``exact.games.century21.settle`` ->
    ``century21``); None for the generic modules and the games' shared packages."""
    parts = module.split(".")
    if len(parts) < 3 or parts[1] != "games" or _within(module, SHARED):
        return None
    return parts[2] if (PACKAGE / "games" / parts[2] / "__init__.py").is_file() else None


def test_the_shipped_games_are_packages() -> None:
    """Every shipped game's code is one package of exact/games/ (its plugin among it)."""
    games = {game for module in MODULES if (game := _game_of(module))}
    assert games == {"century21", "chemin_de_fer", "nine_and_nines", "punto_banco"}
    assert all(f"exact.games.{game}.plugin" in MODULES for game in games)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _within(m, ("exact.games",))))
def test_games_import_no_other_game(module: str) -> None:
    """A game's package imports no other game's; the shared packages import none."""
    own = _game_of(module)
    foreign = {target: line for target, line in graph()[module].items()
               if _game_of(target) not in (None, own)}
    assert not foreign, f"{module} imports {foreign} (module: line)"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _within(m, LOWER)))
def test_generic_modules_import_no_game(module: str) -> None:
    found = {target: line for target, line in graph()[module].items()
             if _within(target, ("exact.games",))}
    assert not found, f"{module} imports {found} (module: line)"


def _names_tests(source: str) -> list[int]:
    """Lines of ``source`` that reach into tests/: an import of the ``tests`` package (at the
    top or in a function), or a string naming it as a path (``"tests/x.py"``, ``"tests"``
    joined to a path) or as a module (``"tests.support.x"``, for importlib)."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if not node.level else []
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings):
            names = [node.value] if re.search(r"(^|/)tests(/|$)", node.value) else []
            names = [*names, *([node.value] if re.match(r"tests\.\w", node.value) else [])]
        else:
            continue
        if any(name == "tests" or name.startswith(("tests.", "tests/")) or "/tests" in name
               for name in names):
            lines.append(node.lineno)
    return lines


def test_the_tests_reader_sees_every_way_in() -> None:
    # a reader that missed one of these would let a report load its checks from tests/ again
    reaching = ['import tests.support.naive_enumerator',
                'def f():\n    from tests.reference import twin',
                'import importlib\nimportlib.import_module("tests.support.shoes")',
                'from pathlib import Path\nPath(__file__).parents[2] / "tests" / "x.py"',
                'import runpy\nrunpy.run_path("tests/games/test_century21.py")']
    assert [bool(_names_tests(source)) for source in reaching] == [True] * len(reaching)
    harmless = ['"""Slow references for the tests and the reports (tests/x.py)."""',
                'message = "run the tests first"', 'from . import tests_of_rules']
    assert [_names_tests(source) for source in harmless] == [[]] * len(harmless)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_package_reads_nothing_from_tests(module: str) -> None:
    lines = _names_tests(MODULES[module].read_text(encoding="utf-8"))
    assert not lines, f"{module} reaches into tests/ at line(s) {lines}"


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


def test_every_error_type_derives_from_one_base() -> None:
    """Every exception of exact.errors is an ExactError (what the command line turns into one
    line and exit 2); the one warning is a Warning, never raised; the one signal (SIGTERM made
    an exception, like KeyboardInterrupt no Exception) is Terminated."""
    import exact.errors

    defined = [value for value in vars(exact.errors).values()
               if isinstance(value, type) and value.__module__ == "exact.errors"]
    errors = [kind for kind in defined if issubclass(kind, Exception)
              and not issubclass(kind, Warning)]
    assert len(errors) >= 10
    assert not [kind.__name__ for kind in errors if not issubclass(kind, exact.errors.ExactError)]
    signals = [kind.__name__ for kind in defined if not issubclass(kind, Exception)]
    assert signals == ["Terminated"]
    assert [kind.__name__ for kind in defined if issubclass(kind, Warning)] == ["CacheWarning"]


def test_the_tests_mirror_the_package() -> None:
    """tests/<package>/ for each package of exact/ (its modules' tests), tests/system/ for the
    whole; no other directory holds tests."""
    tests = PACKAGE.parent / "tests"
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    holding = {path.parent.relative_to(tests).as_posix() for path in tests.rglob("test_*.py")}
    assert holding == packages | {"system"}


def test_every_module_states_its_job_then_its_layer() -> None:
    """Every module opens with a docstring, and a ``Layer:`` line in it names the layer of its
    package (``outside the layers`` for the root, its entry point, the errors and the cards),
    so a reader knows what the module may import before reading it."""
    wrong = []
    for module, path in MODULES.items():
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        stated = [line for line in docstring.splitlines() if line.startswith("Layer: ")]
        layer = "outside the layers" if module in OUTSIDE_LAYERS else module.split(".")[1]
        if len(stated) != 1 or not stated[0].startswith(f"Layer: {layer},"):
            wrong.append((module, stated))
    assert not wrong, wrong


def test_the_type_checker_exempts_nothing_and_strict_covers_core_model_engines() -> None:
    """No module is left out of mypy (``ignore_errors``); every module of the core, the model
    and the engines is checked strictly, and so is the README's toy game (the module a new game
    copies); at most ten ``type: ignore`` remain, each with its reason on the line."""
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = config["tool"]["mypy"]["overrides"]
    assert not [o["module"] for o in overrides if o.get("ignore_errors")]
    strict = {name for o in overrides if o.get("disallow_untyped_defs") for name in o["module"]}
    lower = {name for name in MODULES if name.startswith(("exact.core.", "exact.model.",
                                                          "exact.engines."))}
    assert not lower - strict, sorted(lower - strict)
    assert "tests/toy_games" in config["tool"]["mypy"]["files"]
    assert "tests.toy_games.dragon_tiger" in strict
    ignores = [(name, line) for name, path in MODULES.items()
               for line in path.read_text(encoding="utf-8").splitlines()
               if re.search(r"#\s*type:\s*ignore", line)]
    assert len(ignores) <= 10, ignores
    unexplained = [(name, line) for name, line in ignores
                   if not re.search(r"type:\s*ignore\[[\w-]+(, *[\w-]+)*\]\s+#\s*\S", line)]
    assert not unexplained


ARCHITECTURE_PAGE = PACKAGE.parent / "docs" / "contributing" / "architecture.md"
LARGEST = 10


def test_the_largest_modules_are_each_named_with_their_one_concern() -> None:
    """The ten largest modules under exact/ (by ``wc -l``: newlines counted) are each named on
    the architecture page, in its section "The largest modules, one concern each", on a line
    ``- `exact/PATH.py`: CONCERN`` of a sentence at least; every module the list names
    exists and is named once. A module that grows into the ten must be named (or split), and
    one split or renamed away must leave the list, so the page cannot fall behind the code."""
    page = ARCHITECTURE_PAGE.read_text(encoding="utf-8")
    heading = "\n## The largest modules, one concern each\n"
    assert heading in page
    section = page.split(heading, 1)[1].split("\n## ", 1)[0]
    entries = re.findall(r"^- `(exact/[\w/]+\.py)`: (.+)$", section, flags=re.MULTILINE)
    named = dict(entries)
    assert len(named) == len(entries), "a module is named twice"
    sizes = sorted(((path.read_bytes().count(b"\n"), path.relative_to(PACKAGE.parent).as_posix())
                    for path in MODULES.values()), reverse=True)
    largest = [name for _, name in sizes[:LARGEST]]
    missing = [name for name in largest if name not in named]
    assert not missing, f"among the {LARGEST} largest modules, not on the page: {missing}"
    vague = [name for name in largest if len(named[name].split()) < 6]
    assert not vague, f"no concern said of {vague}"
    gone = [name for name in named if not (PACKAGE.parent / name).is_file()]
    assert not gone, f"named on the page, not in exact/: {gone}"
