"""The engines read roles, never names (issue 28): no module under exact/engines/ holds, as a
string constant (docstrings and their doctests aside), the id of a registered game or a stage,
hand, bet or feature name a registered game declares."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from exact.games import game_ids, get_game
from exact.model.bets import game_bets
from exact.model.contracts import BetGame, CardPositions, DealtPositions, StageRoles

ENGINES = Path(__file__).parents[2] / "exact" / "engines"


def _declared_names() -> dict[str, str]:
    """Every name a registered game declares, with what it is."""
    names: dict[str, str] = {}
    for game_id in game_ids():
        game = get_game(game_id)
        names[game_id] = f"the id of {game_id}"
        if not isinstance(game, BetGame):
            continue
        stages = {stage for feature in game.features.values() for stage in feature.needs.stages}
        if isinstance(game, StageRoles):
            stages |= {*game.hand_stages, *game.draw_stages}
        if isinstance(game, CardPositions):
            stages |= set(game.stage_positions)
        if isinstance(game, DealtPositions):
            stages |= set(game.position_stages)
        names.update({stage: f"a stage of {game_id}" for stage in stages})
        names.update({name: f"a feature of {game_id}" for name in game.features})
        names.update({bet.id: f"a bet of {game_id}" for bet in game_bets(game)})
    return names


def _constants(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, docstrings aside (f-strings' literal parts too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def test_the_check_sees_the_names_it_looks_for(tmp_path: Path) -> None:
    """The declared names hold Punto Banco's stages and the shipped game ids, and the scan
    finds a constant planted in a module's code but not in its docstring."""
    names = _declared_names()
    assert {"punto-banco", "century21", "draws", "player", "banker", "tie"} <= set(names)
    planted = tmp_path / "planted.py"
    planted.write_text('"""draws in a docstring"""\n\n\ndef f():\n    """player"""\n'
                       '    return f"{1} banker", "draws"\n', encoding="utf-8")
    assert sorted(value for _, value in _constants(planted)) == [" banker", "draws"]


@pytest.mark.parametrize("path", sorted(ENGINES.glob("*.py")), ids=lambda path: path.name)
def test_no_engine_module_names_a_game(path: Path) -> None:
    names = _declared_names()
    found = [f"{path.name}:{line}: {value!r} ({names[value]})"
             for line, value in _constants(path) if value in names]
    assert not found, "\n".join(found)
