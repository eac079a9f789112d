"""The paytable designer's widgets, driven from code: the edge they show is the library's."""

from __future__ import annotations

import html
import sys
from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.designer import EdgeModel
from exact.core.cards import Shoe
from exact.errors import InputError
from exact.lab.widgets import PaytableDesigner, WidgetsError

from tests.support.optional import required_when_run

_ipywidgets = required_when_run("ipywidgets")


@pytest.fixture(scope="module")
def dragon(punto_banco):
    bet = next(b for b in game_bets(punto_banco) if b.id == "dragon-bonus-banker")
    return analyze(punto_banco, Shoe.standard(8), [bet]).bets[bet.id]


def test_moving_sliders_shows_the_librarys_exact_edge(dragon):
    designer = PaytableDesigner(dragon)
    model = EdgeModel.of(dragon)
    assert designer.table.house_edge == dragon.table().house_edge
    designer.sliders["Win by 9"].value = 40
    designer.sliders["Win by 8"].value = 12
    designer.sliders["Natural win"].value = 0.95
    pays = {"Win by 9": Fraction(40), "Win by 8": Fraction(12), "Natural win": Fraction(19, 20)}
    assert designer.pays() == {**model.current_pays, **pays}
    edge = model.edge(pays)
    assert designer.table.house_edge == edge
    assert f"<code>{edge}</code>" in designer.readout.value
    assert f"{float(edge) * 100:.4f}%" in designer.readout.value
    table = designer.table
    assert f"Hit frequency {float(table.hit_frequency) * 100:.4f}%" in designer.readout.value


def test_solving_moves_the_slider_to_the_practical_pay(dragon):
    designer = PaytableDesigner(dragon)
    designer.sliders["Win by 8"].value = 12  # the solve keeps the other tiers as they stand
    designer.target.value = "1/50"
    designer.solve_for.value = "Win by 9"
    designer.solve_button.click()
    design = designer.design
    assert design is not None and design.target_edge == Fraction(1, 50)
    model = EdgeModel.of(dragon)
    exact = design.exact_pays["Win by 9"]
    assert model.edge({"Win by 8": Fraction(12), "Win by 9": exact}) == Fraction(1, 50)
    assert designer.pays()["Win by 9"] == design.practical_pays["Win by 9"]
    assert designer.table.house_edge == design.practical_edge
    assert str(exact) in designer.solution.value


@pytest.mark.parametrize("target, problem", [("150%", "must be at most 1"),
                                             ("-2", "must be at least -1"),
                                             ("five", "is not a number")])
def test_a_bad_target_is_one_line_beside_the_button_not_an_exception(dragon, target, problem):
    designer = PaytableDesigner(dragon)
    before = designer.pays()
    designer.target.value = target
    designer.solve_button.click()  # from the button: the message is shown, nothing raised
    message = html.unescape(designer.solution.value)
    assert f"target edge {target!r}: {problem}" in message and "\n" not in message
    assert "Traceback" not in message and designer.design is None
    assert designer.pays() == before  # no slider moved
    with pytest.raises(InputError, match=problem):  # from code: the typed error
        designer.solve(target)

def test_without_ipywidgets_a_clear_typed_error(dragon, monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    with pytest.raises(WidgetsError, match="notebooks"):
        PaytableDesigner(dragon)
