"""The ``settle`` command: the seeds' example rounds replayed from the command line, and bad
input refused in one line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exact.cli.app import main
from exact.games.nine_and_nines.reference import LOSE, MAIN_PAYS, PUSH, ROUNDS

SIDE = ("nine-player", "nine-banker", "nines")
MAIN = ("player", "banker", "tie")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def settle_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "settle", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def expected_net(pays, stake: Fraction) -> Fraction:
    return -stake if pays == LOSE else Fraction(0) if pays == PUSH else stake * Fraction(pays)


@pytest.mark.parametrize("number", sorted(ROUNDS))
def test_nine_and_nines_example_rounds_replay_through_the_command(capsys, number) -> None:
    cards, side_pays, winner = ROUNDS[number]
    stake = Fraction(10)
    data = settle_json(capsys, "nine-and-nines", "--cards", cards,
                       *(f"--wager={bet}=10" for bet in (*SIDE, *MAIN)))
    assert data["winner"] == winner
    by_bet = {item["bet"]: item for item in data["wagers"]}
    for bet, pays in zip(SIDE, side_pays, strict=True):
        assert Fraction(by_bet[bet]["net"]) == expected_net(pays, stake), (number, bet)
        assert by_bet[bet]["result"] == ("loss" if pays == LOSE else "win")
    for bet in MAIN:
        assert Fraction(by_bet[bet]["net"]) == expected_net(MAIN_PAYS[bet][winner], stake)
    totals = {key: Fraction(value) for key, value in data["totals"].items()}
    assert totals["won"] - totals["lost"] == totals["net"]
    assert totals["commission"] == (stake / 20 if winner == "banker" else 0)
    assert data["assumptions"] and all(item["text"] and item["source"]
                                       for item in data["assumptions"])


def test_round_4_names_the_tiers_and_the_text_output_ends_with_assumptions(capsys) -> None:
    code, out, _err = run(capsys, "settle", "nine-and-nines", "--cards", ROUNDS[4][0],
                          "--wager", "banker=5", "--wager", "nine-banker=1", "--wager", "nines=2")
    assert code == 0
    assert "NINE (Banker): Suited 4-5 (banker_initial_ranks = '45'" in out
    assert "WIN   nines: won 60; net 60" in out
    assert "Totals: staked 8, won 75, lost 0, pushed 5" in out
    assert "round 4 is reproduced with one choice among the tiers paying 15" in out


def test_punto_banco_seed_examples(capsys) -> None:
    """The seed's worked totals (7 + 6 = 13 becomes 3, 4 + 6 = 10 becomes 0) as first two
    cards, then its pays: Banker 0.95 to 1, Player 1 to 1, Tie 8 to 1, main bets returned on
    a tie."""
    # Player 7+6 = 3 draws a 5 (8); Banker 4+6 = 0 draws on any third card: a 2 (2)
    data = settle_json(capsys, "punto-banco", "--cards", "7H 4C 6D 6S 5H 2C",
                       "--wager", "player=10", "--wager", "banker=10", "--wager", "tie=10")
    assert [data["hands"][side]["total"] for side in ("player", "banker")] == [8, 2]
    assert [(w["bet"], w["net"]) for w in data["wagers"]] == [
        ("player", "10"), ("banker", "-10"), ("tie", "-10")]
    # Banker wins 9 to 7: pays 0.95 for 1, the 5% commission shown apart
    banker = settle_json(capsys, "punto-banco", "--cards", "7H 4C KD 5S",
                         "--wager", "banker=20")["wagers"][0]
    assert (banker["won"], banker["commission"], banker["returned"]) == ("19", "1", "39")
    # a tie: Tie pays 8 to 1, Player and Banker are returned
    tie = settle_json(capsys, "punto-banco", "--cards", "7H 4C KD 3S",
                      "--wager", "player=10", "--wager", "banker=10", "--wager", "tie=10")
    assert [(w["result"], w["net"], w["pushed"]) for w in tie["wagers"]] == [
        ("push", "0", "10"), ("push", "0", "10"), ("win", "80", "0")]
    # a 4% commission paytable
    four = settle_json(capsys, "punto-banco", "--cards", "7H 4C KD 5S", "--wager", "banker=25",
                       "--paytable", "banker=commission-4%")["wagers"][0]
    assert (four["won"], four["commission"]) == ("24", "1")


@pytest.mark.parametrize("argv, message", [
    (["nine-and-nines", "--cards", "3H 4S 6C 5S", "--wager", "nines=10"],
     "NINES without a main wager"),
    (["nine-and-nines", "--cards", "3H 4S 6C 5S", "--wager", "nine-player=1"],
     "without a main wager"),
    (["punto-banco", "--cards", "7H 4C KD 5S 2C", "--wager", "banker=1"], "deals 4 cards"),
    (["punto-banco", "--cards", "7H 4C KD", "--wager", "banker=1"], "at least 4 cards"),
    (["punto-banco", "--cards", "7 4C KD 5S", "--wager", "banker=1"], "suit"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--wager", "banker=-1"], "positive"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--wager", "banker=nan"], "not finite"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--wager", "banker"], "BET=AMOUNT"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--wager", "nines=1"], "no bet 'nines'"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--wager", "banker=1", "--wager", "banker=2"],
     "--wager: bet 'banker' given twice"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--wager", "tie=1", "--paytable", "tie=7-to-1"],
     "no paytable"),
    (["punto-banco", "--wager", "banker=1"], "--cards"),
    (["punto-banco", "--cards", "7H 4C KD 5S", "--dice", "3", "--wager", "banker=1"],
     "--dice is an option of century21, not of settle punto-banco"),
    (["punto-banco", "--cards", "7H ZZ KD 5S", "--wager", "banker=1"], "unknown card"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message) -> None:
    code, out, err = run(capsys, "settle", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


SIX_SEATS = {1: "KC QD 5S", 2: "3C KH 9S", 3: "9S KD", 4: "8C KD", 5: "KC 4D 2S", 6: "9H KS"}


def table_file(tmp_path, dealer_wager=300, dice=3, extra="", seats=SIX_SEATS):
    text = f'dealer = "KH 7C"\ndealer_wager = {dealer_wager}\ndice = {dice}\n{extra}\n'
    for seat, cards in seats.items():
        text += f'[[seat]]\nseat = {seat}\ncards = "{cards}"\n'
        text += f"[[wager]]\nseat = {seat}\ncircle = 1\namount = 100\n"
    path = tmp_path / "hand.toml"
    path.write_text(text)
    return str(path)


def test_century21_table_file_settles_seat_by_seat_in_dice_order(capsys, tmp_path) -> None:
    """Six seats of 100 against a 300 Player/Dealer wager, dice at seat 3 (worked by hand in
    tests/games/test_century21_table.py): seats 3, 4, 5 have the action (+100, +100, -100)."""
    data = settle_json(capsys, "century21", "--table", table_file(tmp_path))
    assert data["order"] == [3, 4, 5, 6, 1, 2] and data["action_reading"] == "seat-by-seat"
    assert [(w["seat"], w["result"], w["net"], w["collection"]) for w in data["wagers"]] == [
        (1, "no action", "0", "0"), (2, "no action", "0", "0"), (3, "win", "100", "1"),
        (4, "win", "100", "1"), (5, "loss", "-100", "1"), (6, "no action", "0", "0")]
    assert data["totals"]["dealer_net"] == "-101" and data["totals"]["house_collection"] == "4"
    assert data["free_collection_credits"] == ["seat 1 circle 1", "seat 2 circle 1",
                                               "seat 6 circle 1"]
    assert any(item["id"] == "action-seat-by-seat" for item in data["assumptions"])
    whole = settle_json(capsys, "century21", "--table", table_file(tmp_path),
                        "--action", "whole-hand")
    assert {w["result"] for w in whole["wagers"]} == {"no action"}
    assert any(item["id"] == "action-whole-hand" for item in whole["assumptions"])
    code, out, _err = run(capsys, "settle", "century21", "--dealer", "KH 7C", "--seat",
                          "3=9S KD", "--seat", "4=8C KD", "--wager", "3.1=100", "--wager",
                          "4.1=100", "--dealer-wager", "150", "--dice", "4")
    assert code == 0 and "in action for 50 of 100, 50 returned" in out


@pytest.mark.parametrize("extra, message", [
    ("colour = 1", "hand.toml: unknown key(s) 'colour'; known: action, dealer"),
    ("[[seat]]\nseat = 2\ncards = 'KC QD'\nhand = 1",
     "seat entry 2: unknown key(s) 'hand'; known: cards, natural_declared, position, seat"),
    ("[[wager]]\nseat = 1\ncircle = 2\namount = 10\nbet = 5\ncolor = 'red'",
     "wager entry 2: unknown key(s) 'bet', 'color'; known: amount, choice"),
    ("table = 9", "table tag"),
    ('action = "sideways"', "rule action"),
    ("[[wager]]\nseat = 1\ncircle = 2\namount = 1.5", "3/2 is outside the table limits"),
    ("[[wager]]\nseat = 1\ncircle = 2\namount = '\u0663'", "amount '\u0663': is not a number"),
    ("[[wager]]\nseat = 1\ncircle = 2\namount = true", "amount True: is not a number"),
    ("[[wager]]\nseat = 7\ncircle = 1\namount = 10", "dealt no hand"),
    ("[[wager]]\nseat = 1\ncircle = 4\namount = 10", "circle 4"),
    ("[[wager]]\nseat = 1\ncircle = 2\namount = 10\nchoice = 'hit'", "not draw or stand"),
])
def test_century21_bad_table_files(capsys, tmp_path, extra, message) -> None:
    path = table_file(tmp_path, extra=extra) if not extra.startswith("[[") else table_file(
        tmp_path, seats={1: "KC QD 5S"})
    if extra.startswith("[["):
        with open(path, "a") as stream:
            stream.write(extra + "\n")
    code, out, err = run(capsys, "settle", "century21", "--table-hand", path)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_century21_oversized_and_missing_table_files(capsys, tmp_path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 70_000 + "\n")
    for path, message in ((big, "at most"), (tmp_path / "none.toml", "cannot read")):
        code, _out, err = run(capsys, "settle", "century21", "--table-hand", str(path))
        assert code == 2 and message in err and err.count("\n") == 1


def test_century21_table_file_declarations_players_and_choices(capsys, tmp_path) -> None:
    path = tmp_path / "hand.toml"
    path.write_text('dealer = "9C KD"\ndealer_wager = 20\n'
                    '[[seat]]\nseat = 1\ncards = "X X"\nnatural_declared = false\n'
                    '[[seat]]\nseat = 2\ncards = "X X"\n'
                    '[[wager]]\nseat = 1\ncircle = 1\namount = 10\nplayer = "Ann"\n'
                    '[[wager]]\nseat = 2\ncircle = 1\namount = 10\nplayer = "Ann"\n')
    data = settle_json(capsys, "century21", "--table", str(path))
    assert [(w["event"], w["net"], w["player"]) for w in data["wagers"]] == [
        ("tie", "0", "Ann"), ("natural", "10", "Ann")]
    assert data["undeclared_naturals"] == [1]
    path.write_text('dealer = "KH 7C"\ndealer_wager = 100\n'
                    '[[seat]]\nseat = 1\ncards = "3C 2D"\n'
                    '[[wager]]\nseat = 1\ncircle = 1\namount = 10\nchoice = "stand"\n'
                    '[[wager]]\nseat = 1\ncircle = 2\namount = 50\nchoice = "draw"\n')
    code, _out, err = run(capsys, "settle", "century21", "--table-hand", str(path))
    assert code == 2 and "largest wager in action (seat 1 circle 2, 50) chose to draw" in err


@pytest.mark.parametrize("seat", ["²", "³", "٣", "３", "¹"])
def test_century21_seat_numbers_are_ascii_digits(capsys, seat) -> None:
    """A Unicode digit as a seat is refused in one line (fuzz17: '²' passed str.isdigit and
    int() then raised a traceback; '３' was read as seat 3)."""
    for options in (["--seat", f"{seat}=9S KD", "--wager", "3.1=100"],
                    ["--seat", "3=9S KD", "--wager", f"{seat}.1=100"],
                    ["--seat", "3=9S KD", "--wager", "3.1=100", "--dice", seat]):
        code, out, err = run(capsys, "settle", "century21", "--dealer", "KH 7C",
                             "--dealer-wager", "300", *options)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "is not a whole number (ASCII digits" in err and "Traceback" not in err


def test_century21_table_file_numbers_follow_the_grammar(capsys, tmp_path) -> None:
    """A table file's numbers are read by the one number grammar: circle = 2.0 is the whole
    number 2 (as `--decks 8.0` is 8), circle = 2.5 is not a circle, an amount may be a TOML
    float, a decimal with an exponent or a fraction."""
    for circle, amount, verdict in (("2.0", "10", "seat 1 circle 2"),
                                    ("2", "12.5", "seat 1 circle 2"),
                                    ("2", '"2.5e1"', "seat 1 circle 2"),
                                    ("2", '"25/2"', "seat 1 circle 2"),
                                    ("2.5", "10", "circle '2.5': is not a whole number"),
                                    ("4", "10", "circle 4: must be at most 3"),
                                    ('"\u0662"', "10", "is not a whole number (ASCII")):
        path = table_file(tmp_path, seats={1: "KC QD 5S"})
        with open(path, "a") as stream:
            stream.write(f"[[wager]]\nseat = 1\ncircle = {circle}\namount = {amount}\n")
        code, out, err = run(capsys, "settle", "century21", "--table-hand", path)
        assert verdict in (out if code == 0 else err), (circle, amount, err)
        assert code == 0 or (out == "" and err.count("\n") == 1 and code == 2), err


def test_century21_table_file_with_a_byte_order_mark_settles(capsys, tmp_path) -> None:
    """A table file saved with a byte-order mark reads as every other user file does: the
    same hand as without it."""
    path = table_file(tmp_path)
    plain = settle_json(capsys, "century21", "--table", path)
    with open(path, "rb") as stream:
        data = stream.read()
    with open(path, "wb") as stream:
        stream.write(b"\xef\xbb\xbf" + data)
    assert settle_json(capsys, "century21", "--table", path)["wagers"] == plain["wagers"]
