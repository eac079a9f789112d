"""Settling refuses cards no shoe could hold and arguments of the wrong type (issue 26):
the shoe check against a brute force over every suit a bare card could take, the library's
typed exceptions, and the command line's one line."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.cli.app import main
from exact.cli.settle import parse_wagers, round_cards, round_json, round_text
from exact.core.cards import SUITS, Card, Shoe
from exact.errors import SettlementError, WrongTypeError
from exact.games import get_game
from exact.games.century21.rules import DEFAULT_RULES
from exact.games.century21.settle import hand_from_mapping, read_table_file
from exact.games.century21.table import CircleWager, settle_table
from exact.model.settlement import (
    Settlement,
    Wager,
    check_in_shoe,
    check_wagers,
    positive_amount,
    settle_round,
    settlement_json,
)

from tests.support.shipped import data_file

PUNTO = get_game("punto-banco")


def holds_brute_force(cards: list[Card], shoe: Shoe) -> bool:
    """Whether some choice of suits for the bare cards leaves every card within the shoe."""
    bare = [card for card in cards if card.suit is None and not card.is_joker]
    fixed = [card for card in cards if card.suit is not None or card.is_joker]
    for suits in itertools.product(SUITS, repeat=len(bare)):
        suited = [Card(card.rank, suit) for card, suit in zip(bare, suits, strict=True)]
        used = Counter(fixed + suited)
        if all(count <= shoe.count(card) for card, count in used.items()):
            return True
    return False


CARDS = st.sampled_from([Card("9", "H"), Card("9", "S"), Card("K", "D"), Card("9"),
                         Card("K"), Card("X")])


@settings(max_examples=300, deadline=None)
@given(st.lists(CARDS, max_size=6), st.lists(st.integers(0, 2), min_size=9, max_size=9))
def test_the_shoe_check_agrees_with_the_brute_force(cards, counts) -> None:
    names = ("9H", "9S", "9D", "9C", "KH", "KS", "KD", "KC", "X")
    shoe = Shoe.parse(",".join(f"{name}:{count}" for name, count in zip(names, counts, strict=True)
                               if count) or "AH:1")
    try:
        check_in_shoe(cards, shoe)
        held = True
    except SettlementError as error:
        held = False
        assert "; the shoe (" in str(error)
    assert held == holds_brute_force(cards, shoe), (cards, shoe.describe())


def test_settle_round_refuses_a_card_the_shoe_has_not() -> None:
    with pytest.raises(SettlementError, match=r"2 of 9H; the shoe \(1 deck\) holds 1"):
        settle_round(PUNTO, "9H 5C 9H 2S", [Wager("tie", 1)], shoe=Shoe.standard(1))
    # eight decks (the default) hold eight of each card
    assert settle_round(PUNTO, "9H 5C 9H 2S", [Wager("tie", 1)]).cards[0] == Card("9", "H")


def test_settle_table_counts_every_hand_against_the_shoe() -> None:
    """Ten jokers from eight, ten 9S from eight decks, a joker under rules without jokers:
    each card is counted over the dealer's hand and every seat's."""
    wagers = [CircleWager(1, 1, 10)]
    seats = {seat: "X X" for seat in range(1, 6)}
    with pytest.raises(SettlementError, match=r"10 of X \(joker\); the shoe \(8 decks \+ 8 "
                                              r"jokers\) holds 8"):
        settle_table(DEFAULT_RULES, "9H 7C", seats, wagers, 100)
    seats = {seat: "9S 9S" for seat in range(1, 5)}
    with pytest.raises(SettlementError, match=r"10 of 9S; .* holds 8"):
        settle_table(DEFAULT_RULES, "9S 9S", seats, wagers, 100)
    with pytest.raises(SettlementError, match="1 of X"):
        settle_table(DEFAULT_RULES.replace(jokers=0), "9H 7C", {1: "X 2S"}, wagers, 100)
    # eight jokers and eight 9S fit
    settle_table(DEFAULT_RULES, "9S 9S", {1: "9S 9S", 2: "9S 9S", 3: "9S 9S", 4: "X X"},
                 wagers, 100)


@pytest.mark.parametrize("call", [
    lambda: settle_round("punto-banco", "9H 5C 9D 2S", []),
    lambda: settle_round(PUNTO, None, []),
    lambda: settle_round(PUNTO, "9H 5C 9D 2S", None),
    lambda: settle_round(PUNTO, "9H 5C 9D 2S", ["tie=1"]),
    lambda: settle_round(PUNTO, "9H 5C 9D 2S", [Wager("tie", 1)], bets=["tie"]),
    lambda: settle_round(PUNTO, "9H 5C 9D 2S", [Wager("tie", 1)], bets={"tie": "tie"}),
    lambda: settle_round(PUNTO, ["9H", "5C", "9D", "2S"], []),
    lambda: settle_round(PUNTO, "9H 5C 9D 2S", [], shoe="8 decks"),
    lambda: Wager(1, 1),
    lambda: Wager("tie", 1, paytable=9),
    lambda: check_wagers(PUNTO, None, {}),
    lambda: check_wagers(None, [], {}),
    lambda: check_wagers(PUNTO, [Wager("tie", 1)], None),
    lambda: settlement_json(None),
    lambda: settlement_json(Settlement(Wager("tie", 1), "Tie", Fraction(8), Fraction(8),
                                       "why"), collection="1"),
    lambda: positive_amount(None, "1"),
    lambda: parse_wagers(["tie=1"]),
    lambda: parse_wagers([("tie", 1, 2)]),
    lambda: parse_wagers([(1, 1)]),
    lambda: round_cards("punto-banco", "9H 5C 9D 2S"),
    lambda: round_cards(PUNTO, None),
    lambda: round_json(PUNTO, None),
    lambda: round_text(None),
    lambda: read_table_file(None),
    lambda: hand_from_mapping(None, "x"),
    lambda: settle_table(None, "9H 7C", {1: "9S KD"}, [CircleWager(1, 1, 10)], 100),
    lambda: settle_table(DEFAULT_RULES, None, {1: "9S KD"}, [CircleWager(1, 1, 10)], 100),
    lambda: settle_table(DEFAULT_RULES, "9H 7C", None, [CircleWager(1, 1, 10)], 100),
    lambda: settle_table(DEFAULT_RULES, "9H 7C", {"1": "9S KD"}, [CircleWager(1, 1, 10)], 100),
    lambda: settle_table(DEFAULT_RULES, "9H 7C", {1: "9S KD"}, [(1, 1, 10)], 100),
    lambda: settle_table(DEFAULT_RULES, "9H 7C", {1: "9S KD"}, [CircleWager(1, 1, 10)], 100,
                         shoe=8),
])
def test_wrong_types_are_wrong_type_errors(call) -> None:
    """Each public settle function says which argument has the wrong type (it raised
    AttributeError or TypeError from deep inside)."""
    with pytest.raises(WrongTypeError, match=r"must (be|map)"):
        call()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _no_joker_rules(tmp_path: Path) -> str:
    text = data_file("century21", "rules.toml").read_text()
    path = tmp_path / "rules.toml"
    path.write_text(text.replace("jokers = 8", "jokers = 0", 1))
    return str(path)


@pytest.mark.parametrize("argv, message", [
    (["century21", "--dealer", "KH 7C", *[f"--seat={seat}=X X" for seat in range(1, 6)],
      "--wager", "1.1=10", "--dealer-wager", "100"], "10 of X (joker); the shoe (8 decks + 8"),
    (["century21", "--dealer", "9S 9S", *[f"--seat={seat}=9S 9S" for seat in range(1, 5)],
      "--wager", "1.1=10", "--dealer-wager", "100"], "10 of 9S; the shoe (8 decks + 8 jokers)"),
    (["century21", "--dealer", "9S 7C", "--seat", "1=9S KD", "--wager", "1.1=10",
      "--dealer-wager", "100", "--decks", "1"], "2 of 9S; the shoe (1 deck + 1 joker) holds 1"),
    (["century21", "--dealer", "9S 7C", "--seat", "1=X KD", "--wager", "1.1=10",
      "--dealer-wager", "100", "--jokers", "0"], "1 of X (joker); the shoe (8 decks) holds 0"),
    (["punto-banco", "--cards", "9H 5C 9H 2S", "--wager", "tie=1", "--decks", "1"],
     "2 of 9H; the shoe (1 deck) holds 1"),
    (["punto-banco", "--cards", "9H 5C 9D 2S", "--wager", "tie=1", "--shoe", "9H:1,5C:1,2S:1"],
     "1 of 9D; the shoe (3 cards) holds 0"),
    (["punto-banco", "--cards", "X 5C 9D 2S", "--wager", "tie=1"], "no jokers"),
    (["nine-and-nines", "--cards", "9H 5C 9H 2S", "--wager", "tie=1", "--decks", "1"],
     "2 of 9H"),
])
def test_settle_refuses_cards_the_shoe_cannot_hold(capsys, argv, message) -> None:
    code, out, err = run(capsys, "settle", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_settle_century21_refuses_a_joker_under_rules_without_jokers(capsys, tmp_path) -> None:
    rules = _no_joker_rules(tmp_path)
    code, _out, err = run(capsys, "settle", "century21", "--rules", rules, "--dealer", "9S 7C",
                         "--seat", "1=X KD", "--wager", "1.1=10", "--dealer-wager", "100")
    assert code == 2 and err.count("\n") == 1 and "1 of X (joker); the shoe (8 decks) holds 0" \
        in err, err
    code, _out, err = run(capsys, "settle", "century21", "--rules", rules, "--dealer", "9S 7C",
                         "--seat", "1=9D KD", "--wager", "1.1=10", "--dealer-wager", "100")
    assert code == 0, err


@pytest.mark.parametrize("text, value", [
    ("2.5e-3", Fraction(1, 400)), ("1e12", Fraction(10**12)), ("25/2", Fraction(25, 2)),
    ("\u0663", None), ("\u00b2", None), ("\uff11", None), ("1_000", None), ("0x10", None),
    ("nan", None), ("inf", None), ("1e13", None)])
def test_the_settle_api_reads_amounts_by_the_grammar(text, value) -> None:
    """Wager, CircleWager, settle_table's dealer wager and parse_wagers take what the grammar
    takes and raise its typed InputError (a SettlementInputError) for the rest."""
    from exact.errors import InputError, SettlementInputError

    calls = (lambda: Wager("tie", text).amount,
             lambda: CircleWager(1, 1, text).amount,
             lambda: parse_wagers([("tie", text)])[0].amount,
             lambda: positive_amount("amount", text))
    for call in calls:
        if value is None:
            with pytest.raises(SettlementInputError) as refused:
                call()
            assert isinstance(refused.value, InputError)
        else:
            assert call() == value
    if value is None:
        with pytest.raises(SettlementInputError):
            settle_table(DEFAULT_RULES, "9H 7C", {1: "9S KD"}, [CircleWager(1, 1, 10)], text)


@pytest.mark.parametrize("text", ["\u0663%", "\u0660.\u0660\u0665", "\uff15%", "1_0%", "nan"])
def test_a_rule_files_commission_is_read_by_the_grammar(text) -> None:
    from exact.errors import RuleInputError
    from exact.games.chemin_de_fer.rules import parse_commission

    with pytest.raises(RuleInputError):
        parse_commission(text)
    assert parse_commission("2.5e-2") == Fraction(1, 40)


@pytest.mark.parametrize("key", ["seat", "wager"])
@pytest.mark.parametrize("bad", [{"seat": 1}, [1, 2], "x", [{"seat": 1}, 3]])
def test_a_table_files_entries_must_be_a_list_of_tables(key, bad) -> None:
    """[[seat]] and [[wager]] that are not lists of tables are refused in one line naming
    the key (one check serves both)."""
    data = {"dealer": "9H 7C", "dealer_wager": 100, key: bad}
    with pytest.raises(SettlementError, match=rf"^t\.toml: \[\[{key}\]\] must be a list of "
                                              r"tables$"):
        hand_from_mapping(data, "t.toml")
