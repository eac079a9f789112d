"""Assumptions where the numbers are: every command's JSON carries them, text ends with them,
and the data files are checked."""

from __future__ import annotations

import io
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
    (["analyze", "chemin-de-fer", "--decks", "1", "--information", "totals"],
     {"card-values", "heads-up", "choices", "information", "shoe", "commission"}),
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


# --- each command's assumptions are true of it (issue 27) ------------------------------------
NOT_MODELLED = "burn cards and the cut card are not modelled"
FRESH_SHOE = "dealt from the shoe analysed"


def block(capsys, argv: list[str], stdin: str | None = None, monkeypatch=None) -> str:
    """The assumptions block of ``argv``'s text output (``stdin``: its standard input)."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert main(argv) == 0
    out = capsys.readouterr().out
    return out[out.index("\nAssumptions"):]


SIMULATE = {"punto-banco": ["--bet", "tie"], "nine-and-nines": ["--bet", "nine-player"],
            "century21": []}


@pytest.mark.parametrize("game", sorted(SIMULATE))
def test_simulate_states_its_burn_and_cut_card(capsys, game) -> None:
    decks = ["--decks", "1"]
    text = block(capsys, ["simulate", game, *decks, "--shoes", "1", "--seed", "5",
                          "--workers", "1", "--cut", "9", "--burn", "2", *SIMULATE[game]])
    assert NOT_MODELLED not in text and FRESH_SHOE not in text
    line = next(line for line in text.splitlines() if "cut card" in line)
    assert "the cut card is 9 cards from the end" in line and "2 card(s) are burned" in line
    text = block(capsys, ["simulate", game, *decks, "--shoes", "1", "--seed", "5",
                          "--workers", "1", *SIMULATE[game]])
    assert "the first card is shown" in text and "14 cards from the end" in text


@pytest.mark.parametrize("game", ["punto-banco", "nine-and-nines", "century21"])
def test_edge_uses_the_cards_seen(capsys, monkeypatch, game) -> None:
    bets = [] if game == "century21" else ["--bet", "tie"]
    text = block(capsys, ["edge", game, "--decks", "1", *bets], "9H 9D 8C", monkeypatch)
    assert NOT_MODELLED not in text and FRESH_SHOE not in text
    assert "dealt from the unseen cards (the shoe less the cards seen)" in text


@pytest.mark.parametrize("game", ["punto-banco", "nine-and-nines", "century21"])
def test_eor_removes_cards_from_the_shoe(capsys, game) -> None:
    bets = [] if game == "century21" else ["--bet", "tie"]
    text = block(capsys, ["eor", game, "--decks", "1", *bets])
    assert NOT_MODELLED not in text and FRESH_SHOE not in text
    assert "Effects of removal: cards taken out of the shoe (less any --remove)" in text


@pytest.mark.parametrize("argv", [
    ["settle", "punto-banco", "--cards", "7H 4C 6D 6S 5H 2C", "--wager", "player=10"],
    ["settle", "nine-and-nines", "--cards", "3H 4S 6C 5S", "--wager", "banker=10"],
    ["settle", "century21", "--dealer", "KH 7C", "--seat", "3=9S KD", "--wager", "3.1=100",
     "--dealer-wager", "150", "--dice", "4"],
])
def test_settle_settles_one_round_given_its_cards(capsys, argv) -> None:
    text = block(capsys, argv)
    assert NOT_MODELLED not in text and FRESH_SHOE not in text
    assert "heads-up" not in text
    assert "settle settles the one " in text and "whose cards are given" in text


def test_analyze_keeps_the_fresh_shoe_and_json_follows_the_command(capsys) -> None:
    text = block(capsys, ["analyze", "punto-banco", "--decks", "1", "--bet", "tie"])
    assert FRESH_SHOE in text and NOT_MODELLED in text
    data = run_json(capsys, "simulate", "punto-banco", "--decks", "1", "--shoes", "1", "--seed",
                    "5", "--workers", "1", "--bet", "tie", "--cut", "7")
    simulated = next(i for i in data["assumptions"] if i["id"] == "simulated-shoe")
    assert "7 cards from the end" in simulated["text"] and "{" not in simulated["text"]
    assert "shuffle" not in ids(data["assumptions"])


def test_an_assumption_names_known_commands(tmp_path) -> None:
    path = tmp_path / "assumptions.toml"
    path.write_text('[[assumption]]\nid = "a"\ntext = "t"\nsource = "method"\nwhy = "w"\n'
                    'commands = ["deal"]\n')
    with pytest.raises(AssumptionError, match="commands"):
        _read(path)


def test_the_reports_assumptions_allow_for_their_simulations() -> None:
    """The Punto Banco and NINE & NINES reports deal shoes to the cut card in their verification
    simulation: their assumptions do not say the cut card is not modelled; the 21st Century
    report simulates rounds from fresh shoes and keeps the fresh shoe's line."""
    from exact.analysis.assumptions import report_assumptions

    for game in ("punto-banco", "nine-and-nines"):
        texts = [item["text"] for item in report_assumptions(game)]
        assert not any(NOT_MODELLED in text for text in texts)
        assert any("with the burn and the cut card they state" in text for text in texts)
    assert any(NOT_MODELLED in item["text"] for item in report_assumptions("century21"))
