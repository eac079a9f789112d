"""Assumptions where the numbers are: every command's JSON carries them, text ends with them,
and the data files are checked."""

from __future__ import annotations

import json

import pytest

from exact.analysis.assumptions import (
    SOURCES,
    AssumptionError,
    _read,
    add_to_output,
    assumptions_json,
    game_assumptions,
)
from exact.cli.app import main
from exact.games.century21.rules import DEFAULT_RULES

TINY = "A:1,2:1,5:1,6:2,9:1,K:2,X:2"


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def ids(items) -> set[str]:
    return {item["id"] for item in items}


@pytest.mark.parametrize("argv, required", [
    (["analyze", "punto-banco", "--decks", "1", "--bet", "banker"],
     {"third-card-headings", "side-bet-paytables"}),
    (["analyze", "nine-and-nines", "--decks", "1", "--bet", "nines"],
     {"illustrative-tables", "main-wager-required", "third-card-headings"}),
    (["analyze", "century21", "--shoe", TINY],
     {"action-seat-by-seat", "natural", "natural-declared", "table-tags"}),
])
def test_analyze_json_carries_the_games_assumptions(capsys, argv, required) -> None:
    items = run_json(capsys, *argv)["assumptions"]
    assert required <= ids(items)
    assert all(item["text"] and item["why"] and item["source"] in SOURCES for item in items)
    assert all(item["quote"] for item in items if item["source"] == "seed")
    if "illustrative-tables" in required:
        text = next(i["text"] for i in items if i["id"] == "illustrative-tables")
        assert "round 4" in text and "15" in text
    if "table-tags" in required:
        text = next(i["text"] for i in items if i["id"] == "table-tags")
        assert "$20-$200/$2" in text and "EXAMPLES" in text


def test_other_commands_carry_them_and_follow_the_rules_read(capsys, tmp_path) -> None:
    design = run_json(capsys, "design", "nine-and-nines", "--decks", "1", "--bet", "nines",
                      "--solve-for", "single", "--target-edge", "5%")
    assert "illustrative-tables" in ids(design["assumptions"])
    rules = tmp_path / "rules.toml"
    rules.write_text('[settlement]\naction = "whole-hand"\n')
    whole = run_json(capsys, "analyze", "century21", "--shoe", TINY, "--rules", str(rules))
    assert "action-whole-hand" in ids(whole["assumptions"])
    assert "action-seat-by-seat" not in ids(whole["assumptions"])


def test_text_output_ends_with_a_short_block(capsys) -> None:
    assert main(["analyze", "punto-banco", "--decks", "1", "--bet", "tie"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("\nAssumptions") + 1:]
    assert "third-card headings are swapped" in block and "[seed]" in block
    assert len(block.splitlines()) == 1 + len(game_assumptions("punto-banco"))
    assert main(["analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--csv"]) == 0
    assert "Assumptions" not in capsys.readouterr().out


def test_the_action_reading_follows_the_rules() -> None:
    seat = {item["id"] for item in assumptions_json("century21")}
    assert {"action-seat-by-seat", "action-whole-hand"} <= seat  # by id alone: both listed
    whole = DEFAULT_RULES.replace(action="whole-hand")
    chosen = {item.id for item in game_assumptions("century21", whole)}
    assert "action-whole-hand" in chosen and "action-seat-by-seat" not in chosen


def test_non_object_or_non_finite_json_is_left_as_it_was() -> None:
    assert add_to_output("punto-banco", "[1, 2]\n", True) == "[1, 2]\n"
    assert add_to_output("punto-banco", '{"x": NaN}\n', True) == '{"x": NaN}\n'
    assert add_to_output("no-such-game", "{}\n", True) == "{}\n"


@pytest.mark.parametrize("text, message", [
    ('[[assumption]]\nid = "a"\ntext = "t"\nsource = "rumour"\nwhy = "w"\n', "source"),
    ('[[assumption]]\nid = "a"\ntext = "t"\nsource = "seed"\nwhy = "w"\n', "quote"),
    ('[[assumption]]\nid = "a"\nsource = "method"\nwhy = "w"\n', "missing text"),
    ("[[assumption]\n", "cannot read"),
])
def test_malformed_assumption_files_are_refused(tmp_path, text, message) -> None:
    path = tmp_path / "assumptions.toml"
    path.write_text(text)
    with pytest.raises(AssumptionError, match=message):
        _read(path)


def test_edge_and_settle_json_carry_them(capsys, tmp_path) -> None:
    seen = tmp_path / "seen.txt"
    seen.write_text("9H 5C\n")
    edge = run_json(capsys, "edge", "nine-and-nines", "--decks", "1", "--bet", "nines",
                    "--seen", str(seen))
    assert "illustrative-tables" in ids(edge["assumptions"]) and "bets" in edge
