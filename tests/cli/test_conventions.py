"""The command line a person expects (issue 31, the rest of its command-line items): did you mean
for every id typed, one meaning per option name (old spellings warned), the shoe described in
full, the summary and full views, --decks side by side, simulate's standard errors, the line
naming each file written, examples in --help, and a missing package in one line
(docs/reference/command-line-conventions.md)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.cli.app import build_parser, main
from exact.cli.configuration import decks_option
from exact.cli.parser import example_lines
from exact.core.cards import CARDS, LISTED_REMOVED, Shoe
from exact.model.plugins import game_ids, plugin
from exact.render.output import to_text


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --- 1. did you mean, for every id a user types: tests/cli/test_suggestions.py ------------


# --- 2. one meaning per option name ------------------------------------------------------------
def test_century21_bet_is_the_warned_old_spelling_of_bet_size(capsys) -> None:
    new = run(capsys, ["analyze", "century21", "--bet-size", "25", "--json"])
    old = run(capsys, ["analyze", "century21", "--bet", "25", "--json"])
    assert new[0] == old[0] == 0 and new[1] == old[1] and new[2] == ""
    assert old[2] == ("exact: warning: --bet is the old spelling of --bet-size for century21 "
                      "(elsewhere --bet names a bet)\n")


def test_information_total_is_one_spelling_for_both_strategy_games(capsys) -> None:
    argv = ["analyze", "chemin-de-fer", "--with-replacement", "--strategy", "house"]
    new = run(capsys, [*argv, "--information", "total"])
    old = run(capsys, [*argv, "--information", "totals"])
    assert new[0] == old[0] == 0 and new[1] == old[1] and new[2] == ""
    assert old[2] == ("exact: warning: --information totals is the old spelling of "
                      "--information total\n")
    # century21 reads the same word (its default), and refuses chemin de fer's own mode
    assert main(["analyze", "century21", "--information", "total", "--json"]) == 0
    capsys.readouterr()
    assert main(["analyze", "century21", "--information", "banker-cards"]) == 2


def test_settle_table_hand_and_its_warned_old_spelling(recwarn) -> None:
    parser = build_parser("settle", plugin("century21"))  # the game's own options added
    new = parser.parse_args(["settle", "century21", "--table-hand", "hand.toml"])
    assert new.table == "hand.toml" and not recwarn.list
    old = parser.parse_args(["settle", "century21", "--table", "hand.toml"])
    assert old.table == "hand.toml"
    assert [str(w.message) for w in recwarn.list] == ["--table is the old spelling of "
                                                      "--table-hand"]
    with pytest.raises(Exception, match="given twice"):
        parser.parse_args(["settle", "century21", "--table", "a", "--table-hand", "b"])


def test_a_refused_run_prints_its_error_and_no_warning(capsys) -> None:
    status, _, err = run(capsys, ["analyze", "century21", "--bet", "-5"])
    assert status == 2 and err.count("\n") == 1 and "warning" not in err


# --- 3. the shoe described in full -------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(decks=st.integers(1, 8), jokers=st.integers(0, 3),
       taken=st.lists(st.integers(0, 51), max_size=30))
def test_a_shoe_of_decks_less_cards_is_described_by_both(decks, jokers, taken) -> None:
    full = Shoe.standard(decks, jokers)
    counts = list(full.counts)
    removed = []
    for index in taken:  # only cards still there, and at least one card of the most left
        if counts[index] > 0 and sum(counts[:52]) - 1 > decks * 26:
            counts[index] -= 1
            removed.append(CARDS[index])
    shoe = Shoe(tuple(counts))
    outline = shoe.outline()
    untouched = [c for c in range(52) if counts[c] == decks]
    assert outline is not None and untouched  # (30 cards cannot touch all 52)
    assert outline[0] == decks and sorted(outline[1]) == sorted(removed)
    fields = shoe.fields()
    assert (fields["cards"], fields["decks"], fields["jokers"]) == (shoe.size, decks, jokers)
    assert sorted(fields["removed"]) == sorted(str(c) for c in removed)
    text = shoe.describe()
    assert text.startswith(f"{decks} deck")
    if 0 < len(removed) <= LISTED_REMOVED:
        assert all(str(card) in text for card in removed)
    elif removed:
        assert text.endswith(f"less {len(removed)} cards")
    # the description is of the counts alone: the same shoe from its counts, the same words
    assert Shoe.from_counts({str(c): n for c, n in zip(CARDS, counts, strict=True)}
                            ).describe() == text


def test_remove_shows_the_decks_and_the_cards_in_text_and_json(capsys) -> None:
    status, out, _ = run(capsys, ["analyze", "punto-banco", "--remove", "5,5", "--bet", "tie"])
    assert status == 0
    assert out.splitlines()[0] == "Punto Banco: 8 decks less 5C, 5D (414 cards)"
    status, out, _ = run(capsys, ["analyze", "punto-banco", "--remove", "5,5", "--bet", "tie",
                                  "--json"])
    shoe = json.loads(out)["shoe"]
    assert shoe == {"cards": 414, "description": "8 decks less 5C, 5D", "decks": 8,
                    "jokers": 0, "removed": ["5C", "5D"]}


def test_an_explicit_composition_is_named_by_its_size_once(capsys) -> None:
    status, out, _ = run(capsys, ["analyze", "punto-banco", "--shoe", "A:4,T:16", "--bet",
                                  "tie", "--engine", "direct"])
    assert status == 0 and out.splitlines()[0] == "Punto Banco: 20 cards"


# --- 4. the summary and full views -------------------------------------------------------------
def test_the_summary_has_one_line_per_bet_and_paytable_and_full_is_every_table(capsys) -> None:
    from exact.analysis.bet_analysis import analyze
    from exact.games import get_game

    status, summary, _ = run(capsys, ["analyze", "punto-banco", "--decks", "2"])
    assert status == 0
    game = get_game("punto-banco")
    analysis = analyze(game, Shoe.standard(2))
    tables = analysis.all_tables()
    rows = [line for line in summary.splitlines()
            if line.split(" ")[0] in {t.bet_id for t in tables}]
    assert len(rows) == len(tables)
    for row, table in zip(rows, tables, strict=True):  # the figures are the exact tables'
        cells = row.split()
        assert cells[:2] == [table.bet_id, table.paytable]
        assert cells[2] == f"{float(table.house_edge) * 100:.4f}%"
    status, full, _ = run(capsys, ["analyze", "punto-banco", "--decks", "2", "--view", "full"])
    assert full.startswith(to_text(analysis))
    # chosen bets, JSON and CSV are full by default; --view summary asks for the summary
    assert main(["analyze", "punto-banco", "--decks", "2", "--bet", "tie"]) == 0
    assert "Combinations" in capsys.readouterr().out
    status, out, _ = run(capsys, ["analyze", "punto-banco", "--decks", "2", "--bet", "tie",
                                  "--view", "summary", "--json"])
    data = json.loads(out)
    assert data["view"] == "summary"
    assert [(b["bet"], Fraction(b["house_edge"])) for b in data["bets"]] == [
        (t.bet_id, t.house_edge) for t in analysis.bets["tie"].ordered_tables()]
    status, out, _ = run(capsys, ["analyze", "punto-banco", "--decks", "2", "--group", "main",
                                  "--view", "summary", "--csv"])
    assert len(out.splitlines()) == 1 + sum(len(analysis.bets[b].tables)
                                            for b in ("banker", "player", "tie"))


def test_view_is_refused_for_a_strategy_game(capsys) -> None:
    status, out, err = run(capsys, ["analyze", "century21", "--view", "full"])
    assert (status, out, err.count("\n")) == (2, "", 1)


# --- 5. --decks side by side -------------------------------------------------------------------
def test_decks_side_by_side_agree_with_one_analysis_each(capsys) -> None:
    argv = ["analyze", "punto-banco", "--group", "main", "--decks", "1,2,8"]
    status, out, _ = run(capsys, [*argv, "--json"])
    data = json.loads(out)
    assert status == 0 and data["decks"] == [1, 2, 8]
    for decks in (1, 2, 8):
        status, one, _ = run(capsys, ["analyze", "punto-banco", "--group", "main", "--decks",
                                      str(decks), "--json"])
        single = json.loads(one)["bets"]
        for row in data["bets"]:
            bet = single[row["bet"]]
            expected = (bet if bet["paytable"] == row["paytable"] else
                        bet["alternative_paytables"][row["paytable"]])["house_edge"]
            assert row["house_edge"][str(decks)] == expected
    status, text, _ = run(capsys, argv)
    assert text.splitlines()[3].split() == ["bet", "paytable", "1", "deck", "2", "decks", "8",
                                            "decks"]
    status, csv_text, _ = run(capsys, [*argv, "--csv"])
    assert len(csv_text.splitlines()) == 1 + 3 * len(data["bets"])


@pytest.mark.parametrize("argv", [
    ["analyze", "century21", "--decks", "1,8"],
    ["analyze", "punto-banco", "--decks", "1,8", "--view", "full"],
    ["analyze", "punto-banco", "--decks", "1,8", "--xlsx", "x.xlsx"],
    ["analyze", "punto-banco", "--decks", "1,1"],
    ["analyze", "punto-banco", "--decks", ",".join(["1"] * 17)],
])
def test_decks_side_by_side_refusals(capsys, tmp_path, monkeypatch, argv) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, argv)
    assert (status, out, err.count("\n")) == (2, "", 1), err
    assert list(tmp_path.iterdir()) == []


def test_decks_option_reads_one_or_several() -> None:
    assert decks_option("6") == 6 and decks_option(" 1, 8") == (1, 8)


# --- 6. simulate's standard errors -------------------------------------------------------------
def test_simulate_gives_standard_errors_and_intervals(capsys) -> None:
    argv = ["simulate", "punto-banco", "--shoes", "20", "--seed", "3", "--bet", "dragon-7",
            "--workers", "1"]
    status, out, _ = run(capsys, [*argv, "--json"])
    assert status == 0
    entry = json.loads(out)["bets"]["dragon-7"]
    value, error = entry["perfect_win_per_100_hands"], entry["perfect_win_per_100_hands_se"]
    assert error > 0
    low, high = entry["perfect_win_per_100_hands_ci95"]
    assert low == pytest.approx(value - 1.959964 * error) and high == pytest.approx(
        value + 1.959964 * error)
    _, text, _ = run(capsys, argv)
    row = next(line for line in text.splitlines()[::-1] if line.startswith("Dragon 7"))
    assert f"{value:.4f}" in row and f"{error:.4f}" in row and f"[{low:.4f}, {high:.4f}]" in row


# --- 7. the line naming each file written ------------------------------------------------------
def test_each_file_written_is_named_on_standard_error(capsys, tmp_path, monkeypatch) -> None:
    pytest.importorskip("xlsxwriter")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, ["analyze", "punto-banco", "--decks", "1", "--bet", "tie",
                                    "--xlsx", "par.xlsx"])
    assert (status, out) == (0, "") and err == "exact: wrote 'par.xlsx' (Excel par sheet)\n"
    status, out, err = run(capsys, ["analyze", "punto-banco", "--decks", "1", "--bet", "tie",
                                    "--json", "-o", "tie.json"])
    assert (status, out) == (0, "") and err == "exact: wrote 'tie.json' (JSON)\n"
    assert json.loads((tmp_path / "tie.json").read_text(encoding="utf-8"))["game"]


# --- 8. examples in every --help ---------------------------------------------------------------
def test_every_help_shows_examples_that_parse(capsys) -> None:
    parser = build_parser("eor")  # every command
    assert main(["--help"]) == 0 and "examples:\n  exact games" in capsys.readouterr().out
    for command in parser.commands:
        assert main([command, "--help"]) == 0
        out = capsys.readouterr().out
        assert "examples:\n" in out and example_lines(command), command
        for line in example_lines(command):
            assert f"  {line}\n" in out
            words = shlex.split(line.split("| ")[-1])
            assert words[0] == "exact"
            game = plugin(words[2]) if words[2:3] and words[2] in game_ids() else None
            # a refusal raises: every example is well formed (with its game's own options)
            build_parser(command, game).parse_args(words[1:])


@pytest.mark.parametrize("line", [line for command in (None, *build_parser("eor").commands)
                                  for line in example_lines(command)
                                  if line.split()[1] in {"analyze", "design", "list-bets",
                                                         "features", "games", "settle"}
                                  and "century21 --strategy" not in line])
def test_the_cheap_examples_run(capsys, tmp_path, monkeypatch, line) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(line)[1:]) == 0, capsys.readouterr().err


# --- 9. a missing package ----------------------------------------------------------------------
BLOCK_NUMPY = textwrap.dedent("""
    import runpy, sys
    class Block:
        def find_spec(self, name, path=None, target=None):
            if name == "numpy" or name.startswith("numpy."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    sys.meta_path.insert(0, Block())
    sys.argv = ["exact", *sys.argv[1:]]
    if sys.argv[1:2] == ["--script"]:
        from exact.cli import main
        sys.exit(main(sys.argv[2:]))
    runpy.run_module("exact", run_name="__main__", alter_sys=True)
""")


@pytest.mark.parametrize("how", [[], ["--script"]])
def test_a_missing_package_is_one_line_not_a_traceback(tmp_path: Path, how) -> None:
    script = tmp_path / "block.py"
    script.write_text(BLOCK_NUMPY, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), *how, "analyze", "punto-banco"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("exact: error: the Python package 'numpy' is not installed")


def test_a_missing_module_of_the_toolkit_itself_is_not_hidden() -> None:
    from exact.cli.missing import missing_package

    with pytest.raises(ModuleNotFoundError):
        missing_package(ModuleNotFoundError("No module named 'exact.gone'", name="exact.gone"))
