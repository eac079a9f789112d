"""The paytable designer's widgets, driven from code: the edge they show is the library's."""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from pypdf import PdfReader

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.designer import EdgeModel
from exact.core.cards import Shoe
from exact.errors import InputError
from exact.games import get_game
from exact.lab.widgets import DesignerApp, PaytableDesigner, WidgetsError

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


def _exact(*args, env=None):
    return subprocess.run([sys.executable, "-m", "exact", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **(env or {})})


def test_the_header_names_the_current_paytable(dragon):
    designer = PaytableDesigner(dragon, game_id="punto-banco")
    assert "paytable <b>30-10-6-4-2-1</b>" in designer.header.value
    designer.sliders["Win by 9"].value = 40
    assert "paytable <b>designed</b>, from 30-10-6-4-2-1 with Win by 9 40 to 1" in \
        designer.header.value
    designer.sliders["Win by 9"].value = 30  # back where it started: the shipped paytable
    assert "paytable <b>30-10-6-4-2-1</b>" in designer.header.value
    assert designer.designed_bet() is designer.bet


def test_a_saved_design_reads_back_to_the_same_edge_in_analyze_xlsx_and_report(dragon,
                                                                             tmp_path):
    designer = PaytableDesigner(dragon, game_id="punto-banco")
    designer.sliders["Win by 9"].value = 40
    designer.sliders["Natural win"].value = 0.95
    assert designer.file_name.value == "dragon-bonus-banker-designed.toml"
    saved = tmp_path / "designed.toml"
    designer.file_name.value = str(saved)
    designer.save_button.click()
    assert "Wrote" in designer.saved.value and str(saved) in designer.saved.value
    edge = designer.table.house_edge
    done = _exact("analyze", "punto-banco", "--table", str(saved), "--bet",
                  "dragon-bonus-banker", "--json", "--xlsx", str(tmp_path / "designed.xlsx"))
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["bets"]["dragon-bonus-banker"]
    assert figures["paytable"] == "designed"
    assert Fraction(figures["house_edge"]) == edge
    assert "30-10-6-4-2-1" in figures["alternative_paytables"]  # the start, kept
    assert (tmp_path / "designed.xlsx").stat().st_size > 0
    report = _exact("report", "punto-banco", "--table", str(saved), "--bet",
                    "dragon-bonus-banker", "-o", str(tmp_path / "designed.pdf"),
                    env={"EXACT_REPORT_ROUNDS": "10000", "EXACT_REPORT_SHOES": "10"})
    assert report.returncode == 0, report.stderr
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "designed.pdf").pages)
    assert f"{float(edge) * 100:.4f}%" in text and "designed" in text


def test_a_save_to_a_bad_place_is_one_line_beside_the_button(dragon, tmp_path):
    designer = PaytableDesigner(dragon)
    designer.file_name.value = str(tmp_path / "no-such-folder" / "x.toml")
    designer.save_button.click()
    assert "color:#c00000" in designer.saved.value and "Wrote" not in designer.saved.value
    assert not (tmp_path / "no-such-folder").exists()


def test_the_app_picks_game_bet_paytable_and_decks():
    app = DesignerApp(game="punto-banco", bet="tie", decks=8)
    assert app.designer.bet.id == "tie" and app.designer.analysis.total > 0
    eight = app.designer.table.house_edge
    app.paytable_picker.value = "9-to-1"
    assert app.designer.bet.paytable == "9-to-1" and app.designer.table.house_edge < eight
    app.decks_picker.value = 1
    one_deck = analyze(get_game("punto-banco"), Shoe.standard(1),
                       [app.designer.bet]).bets["tie"].table().house_edge
    assert app.designer.table.house_edge == one_deck
    app.game_picker.value = "nine-and-nines"
    assert app.bet_picker.value in {bet.id for bet in game_bets(get_game("nine-and-nines"))}
    assert app.designer.game_id == "nine-and-nines"
    assert app.designer.analysis.total > 0 and app.body.children == (app.designer.widget,)
