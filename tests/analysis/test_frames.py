"""DataFrames of analyses and their HTML in notebooks: exact values kept exact."""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.frames import FramesError
from exact.core.cards import Shoe

from tests.support.optional import required_when_run

_pandas = required_when_run("pandas")


@pytest.fixture(scope="module")
def analysis(punto_banco):
    bets = [b for b in game_bets(punto_banco) if b.group == "main"]
    return analyze(punto_banco, Shoe.standard(8), bets)


def test_one_row_per_bet_paytable_and_event_with_exact_values(analysis):
    frame = analysis.to_frame()
    expected = [(bet.bet.id, table.paytable, o) for bet in analysis.bets.values()
                for table in bet.ordered_tables() for o in table.outcomes]
    assert len(frame) == len(expected)
    for (_, row), (bet_id, paytable, outcome) in zip(frame.iterrows(), expected, strict=True):
        assert (row["bet"], row["paytable"], row["event"]) == (bet_id, paytable, outcome.event)
        assert type(row["combinations"]) is int and row["combinations"] == outcome.combinations
        assert type(row["probability"]) is Fraction and row["probability"] == outcome.probability
        assert row["pays"] == outcome.pays and row["return"] == outcome.expected_return
        assert row["probability_float"] == float(outcome.probability)
    # exact arithmetic straight from the frame: every table's probabilities sum to 1 and its
    # returns to minus the house edge
    for (bet_id, paytable), rows in frame.groupby(["bet", "paytable"], sort=False):
        assert sum(rows["probability"], Fraction(0)) == 1
        edge = analysis.bets[bet_id].table(paytable).house_edge
        assert -sum(rows["return"], Fraction(0)) == edge
    assert set(frame["group"]) == {"main"} and frame["own_paytable"].any()


def test_summary_frame_and_a_tables_frame(analysis):
    summary = analysis.summary_frame()
    tables = analysis.all_tables()
    assert list(summary["house_edge"]) == [t.house_edge for t in tables]
    assert list(summary["paytable"]) == [t.paytable for t in tables]
    banker = analysis.bets["banker"].table()
    frame = banker.to_frame()
    assert list(frame["combinations"]) == [o.combinations for o in banker.outcomes]
    assert analysis.bets["banker"].to_frame()["paytable"].nunique() == len(
        analysis.bets["banker"].tables)


def test_a_notebook_cell_shows_an_html_table(analysis):
    page = analysis._repr_html_()
    assert page.startswith("<table>") and page.count("<tr>") == 1 + len(analysis.all_tables())
    banker = analysis.bets["banker"].table()
    assert str(banker.house_edge) in page and "Banker" in page
    assert str(banker.house_edge) in banker._repr_html_()
    assert "<caption>Banker [banker]" in analysis.bets["banker"]._repr_html_()


def test_without_pandas_a_clear_typed_error(analysis, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(FramesError, match=r"pip install 'exact\[frames\]'"):
        analysis.to_frame()
    assert "<table>" in analysis._repr_html_()  # HTML needs no pandas
