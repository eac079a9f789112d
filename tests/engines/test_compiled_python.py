"""The compiled engine's two evaluators (exact/engines/compiled_python.py): the pure-Python
light form and the numpy projection give the same exact counts, and which one counts a shoe is
the engine's explicit setting, never what the process imported before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.engines import compiled_python, plan
from exact.engines.shipped import Compiled
from exact.games import get_game

GAME = get_game("punto-banco")
VALUE_LEVEL = Path(__file__).parents[1] / "data" / "value_level_bets.toml"
SHOES = [Shoe.standard(8), Shoe.standard(1).remove("5 9H KD"), Shoe.parse("AS:3,5H:2,9D:2,KC:4")]


def _groups():
    bets = [bet for bet in game_bets(GAME, [VALUE_LEVEL])
            if plan.choose(GAME, bet).engine == "compiled"]
    return plan.plan(GAME, bets).groups(GAME).items()


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    compiled_python.forget()
    yield tmp_path
    compiled_python.forget()


@pytest.mark.parametrize("shoe", SHOES, ids=["8-decks", "1-deck-less-3", "odd"])
def test_the_python_and_numpy_evaluators_are_twins(cache_dir, shoe) -> None:
    for (_, deal), (needs, bets) in _groups():
        python = compiled_python.shoe_counts(GAME, deal, needs, bets, shoe, "python")
        numpy = compiled_python.shoe_counts(GAME, deal, needs, bets, shoe, "numpy")
        assert python == numpy
        assert all(sum(counts) == analyze(GAME, shoe, bets[:1]).total for counts in python)


def test_the_evaluator_is_the_engines_setting(cache_dir, monkeypatch) -> None:
    """``auto``: the light form for the first count of a set of bets when it is on disk, the
    numpy projection after; ``python`` and ``numpy`` always their own; whatever is imported."""
    (_, deal), (needs, bets) = next(iter(_groups()))
    shoe = SHOES[1]
    used: list[str] = []
    light = compiled_python.LightForm.counts

    def spy(self, counted_shoe):
        used.append("python")
        return light(self, counted_shoe)

    monkeypatch.setattr(compiled_python.LightForm, "counts", spy)
    assert "numpy" in sys.modules  # imported before: it decides nothing
    expected = compiled_python.shoe_counts(GAME, deal, needs, bets, shoe, "numpy")
    assert used == []  # numpy, and the light form written beside it
    compiled_python.forget()
    for evaluator, uses in (("auto", ["python"]), ("auto", []), ("python", ["python"]),
                            ("numpy", [])):
        used.clear()
        assert compiled_python.shoe_counts(GAME, deal, needs, bets, shoe, evaluator) == expected
        assert used == uses, evaluator
    engine = Compiled(evaluator="python")
    used.clear()
    assert engine.count(GAME, deal, needs, bets, shoe) == expected and used == ["python"]
