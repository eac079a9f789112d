"""Issue 26: a literal no feature can take, a comparison that never holds, a paytable named like
the default and ids of look-alike characters are refused when a bet file is read; the values
each feature declares (``Feature.domain``) are the values its game deals, brute force."""

from __future__ import annotations

import itertools
import json
import operator
import random
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.cli.app import main
from exact.core.cards import RANKS, SUITS, Card
from exact.errors import BetFileError, ExpressionError, InputError
from exact.games import get_game
from exact.games.baccarat.coup import Rules
from exact.model.bets import ID_CHARACTERS, game_bets, load_bets
from exact.model.expressions import Expression
from exact.model.literals import check_literals

ROOT = Path(__file__).resolve().parents[2]
PUNTO = get_game("punto-banco")
NINES = get_game("nine-and-nines")


def toml(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def bet_text(condition: str, extra: str = "", bet_id: str = "mine") -> str:
    return (f"[[bet]]\nid = {toml(bet_id)}\n{extra}[[bet.event]]\nname = 'Yes'\n"
            f"when = {toml(condition)}\npays = 1\n")


def refusal(tmp_path: Path, capsys, text: str, game: str = "punto-banco") -> str:
    """The one line of a refused ``--bets`` file (list-bets and analyze alike)."""
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    lines = []
    for argv in (["list-bets", game, "--bets", str(path)],
                 ["analyze", game, "--decks", "1", "--bets", str(path), "--bet", "mine"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert len(captured.err.splitlines()) == 1, captured.err
        lines.append(captured.err.strip())
    assert lines[0] == lines[1]
    return lines[0]


# --- each literal of the issue --------------------------------------------------------------------
@pytest.mark.parametrize(("condition", "shown"), [
    ("winner == 'Player'", r"'Player' is not a value of winner \(\"player\", \"banker\" or "
                           r"\"tie\"\): did you mean 'player'\?"),
    ("player_card1_rank == '10'", r"'10' is not a value of player_card1_rank \(\"A\", "
                                  r"\"2\"-\"9\", \"T\", .*did you mean 'T'\?"),
    ("player_card1_suit == 'h'", r"'h' is not a value of player_card1_suit .*\"H\".*"
                                 r"did you mean 'H'\?"),
    ("player_card1_colour == 'Red'", r"'Red' is not a value of player_card1_colour \(\"red\" or "
                                     r"\"black\"\): did you mean 'red'\?"),
    ("player_total == 10", r"10 is not a value of player_total \(0-9\)"),
    ("winner == 'pl\u0430yer'", r"is not a value of winner .*U\+0430 CYRILLIC SMALL LETTER A\), "
                                r"not an ASCII character \(did you mean 'player'\?\)"),
    # either side, in chains, in tuples, lists and sets, under and/or/not
    ("'Player' != winner", r"'Player' is not a value of winner"),
    ("winner in ('player', 'Banker')", r"'Banker' is not a value of winner.*'banker'"),
    ("winner not in ['tie', 'Tie']", r"'Tie' is not a value of winner"),
    ("player_card1_suit in {'H', 's'}", r"'s' is not a value of player_card1_suit.*'S'"),
    ("winner == 'tie' and not (player_total == 10)", r"10 is not a value of player_total"),
    ("player_total == banker_total == 10", r"10 is not a value of banker_total"),
    ("player_total == None", r"None is not a value of player_total"),
    ("player_natural == 2", r"2 is not a value of player_natural"),
    ("player_initial_ranks == '109'", r"'109' is not a value of player_initial_ranks.*'9T'"),
    # comparisons that never hold, and conditions their comparisons never decide
    ("player_total > 9", r"'player_total > 9' never holds: player_total is 0-9"),
    ("winner == 'tie' or player_total >= 10", r"'player_total >= 10' never holds"),
    ("player_total + banker_total == 19", r"never holds: player_total is 0-9, banker_total is "
                                          r"0-9"),
    ("-player_total == 3", r"never holds: player_total is 0-9"),
    ("player_total < 10", r"'player_total < 10' always holds: player_total is 0-9"),
    ("0 <= player_total <= 9", r"always holds"),
    ("not (cards_dealt in (4, 5, 6))", r"never holds: cards_dealt is 4, 5 or 6"),
    ("player_third > 9", r"never holds: player_third is 0-9 or None"),
])
def test_a_literal_no_feature_can_take_is_refused_in_one_line(tmp_path, capsys, condition,
                                                               shown):
    line = refusal(tmp_path, capsys, bet_text(condition))
    assert line.startswith(f"exact: error: {tmp_path / 'mine.toml'}: bet 'mine', event 'Yes': ")
    assert re.search(shown, line), line


def test_a_table_file_is_checked_as_a_bet_file(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text(bet_text("winner == 'Tie'", bet_id="tie"), encoding="utf-8")
    for command in (["analyze", "punto-banco", "--decks", "1", "--bet", "tie"],
                    ["design", "punto-banco", "--decks", "1", "--bet", "tie", "--solve-for",
                     "Yes", "--target-edge", "5%"]):
        assert main([*command, "--table", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'Tie' is not a value of winner" in err, err
        assert "did you mean 'tie'?" in err


def test_the_library_refuses_with_a_typed_error():
    for condition in ("winner == 'Player'", "player_total + banker_total == 19"):
        with pytest.raises(BetFileError, match="bet 'mine', event 'Yes'"):
            load_bets("mine.toml", PUNTO.features, text=bet_text(condition))
        with pytest.raises(ExpressionError):
            check_literals(Expression.parse(condition), PUNTO.features)
    # names alone (no values known): only the names are checked, as before
    assert load_bets("mine.toml", list(PUNTO.features), text=bet_text("winner == 'Player'"))


@pytest.mark.parametrize("condition", [
    "winner == 'tie'", "'banker' == winner", "winner != 'banker'", "winner in ('player', 'tie')",
    "player_card1_rank == 'T'", "banker_card3_rank in ('A', None)",
    "player_initial_ranks == '8a'", "player_initial_ranks in {'A8', '9K'}",
    "player_total + banker_total == 18", "player_total - banker_total == -9",
    "player_third == None", "player_third != None and player_third > 4",
    "player_total >= 0 and winner == 'tie'",  # always true, but it does not decide alone
    "player_paired", "winner", "player_natural == 1", "0 < player_total < 9",
    "player_total * banker_total == 81", "player_total / 2 == 9/2", "player_total % 7 == 6",
])
def test_what_can_be_true_and_false_is_not_refused(condition):
    assert load_bets("mine.toml", PUNTO.features, text=bet_text(condition))


def test_nine_and_nines_card_pairs_are_checked_by_their_own_equality():
    for fine in ("player_initial_cards == 'kd 9d'", "player_initial_cards == '10D 9D'",
                 "banker_suited_nine in ('9D KD', None)"):
        assert load_bets("mine.toml", NINES.features, text=bet_text(fine))
    for wrong, value in (("player_suited_nine == '9D KH'", "'9D KH' is not a value"),
                         ("player_initial_cards == '9D 1Z'", "'9D 1Z' is not a value"),
                         ("two_card_nines == 3", "3 is not a value of two_card_nines")):
        with pytest.raises(BetFileError, match=re.escape(value)):
            load_bets("mine.toml", NINES.features, text=bet_text(wrong))


def test_every_shipped_bet_file_documented_bet_and_test_data_file_still_loads():
    for game in (PUNTO, NINES):
        assert game_bets(game)
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    blocks = [block for page in pages
              for block in re.findall(r"```toml\n(.*?)```", page.read_text(), re.S)]
    documented = [b for b in blocks if "[[bet]]" in b and "dragon" not in b]
    documented += [path.read_text() for path in sorted((ROOT / "examples").rglob("*.toml"))
                   if "[[bet]]" in path.read_text()]
    assert documented
    for block in documented:
        load_bets("documented.toml", NINES.features, text=block)
    for path in sorted((ROOT / "tests" / "data").rglob("*.toml")):
        for game in (PUNTO, NINES):
            try:
                load_bets(path, game.features)
            except BetFileError as error:  # a file made to be refused for another reason
                assert not re.search(r"is not a value of|never holds|always holds",
                                     str(error)), error


# --- the property: the checker against a brute force ----------------------------------------------
OPERATORS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge, "in": lambda a, b: a in b,
             "not in": lambda a, b: a not in b}
CHECKED = ("winner", "cards_dealt", "player_total", "banker_cards", "player_third",
           "player_natural", "player_card1_rank", "player_card2_suit", "banker_card3_colour",
           "banker_card3_value", "first_four_aces", "player_pair", "player_initial_ranks")
LITERALS = (*range(-2, 12), None, True, False, "player", "Player", "tie", "T", "10", "t", "h",
            "H", "red", "Red", "black", "none", "perfect", "A8", "8a", "", "pl\u0430yer")


def _holds(op: str, value: object, literal: object, swapped: bool) -> bool | None:
    left, right = (literal, value) if swapped else (value, literal)
    if op in ("in", "not in"):
        left, right = value, (literal,)
    try:
        return bool(OPERATORS[op](left, right))
    except TypeError:
        return None  # an error on such a round, not a truth value


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(CHECKED), op=st.sampled_from(sorted(OPERATORS)),
       literal=st.sampled_from(LITERALS), swapped=st.booleans())
def test_the_checker_refuses_exactly_what_never_holds_or_always_holds(name, op, literal, swapped):
    """Over every value the feature takes on some round (its domain; equal to the values a
    brute-force deal reaches, below), the checker refuses a comparison with one literal
    exactly when it is never true or never false (or a literal ==, in... never matches)."""
    text = repr(literal)
    condition = (f"{name} {op} ({text},)" if op in ("in", "not in") else
                 f"{text} {op} {name}" if swapped else f"{name} {op} {text}")
    try:
        parsed = Expression.parse(condition, types={name: PUNTO.features[name].types})
    except ExpressionError:
        return  # refused by the grammar's kinds already (winner == 1, winner < 1)
    outcomes = {_holds(op, value, literal, swapped and op not in ("in", "not in"))
                for value in PUNTO.features[name].domain} - {None}
    try:
        check_literals(parsed, PUNTO.features)
    except ExpressionError as error:
        assert name in str(error)
        assert len(outcomes) < 2, (condition, str(error))
    else:
        assert outcomes == {True, False}, condition


def _every_round(cards: list[str]):
    """Every round a shoe of these few cards deals, brute force (each ordered draw)."""
    shoe = [Card.parse(card) for card in cards]
    seen = set()
    for order in itertools.permutations(range(len(shoe)), min(6, len(shoe))):
        sequence = tuple(str(shoe[i]) for i in order)
        if sequence in seen:
            continue
        seen.add(sequence)
        try:
            yield PUNTO.record_from_cards([shoe[i] for i in order])
        except InputError:
            continue


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(CHECKED), op=st.sampled_from(sorted(OPERATORS)),
       literal=st.sampled_from(LITERALS),
       cards=st.lists(st.sampled_from(["AH", "8S", "9D", "KC", "TH", "5C", "2D", "3S", "9H"]),
                      min_size=6, max_size=7))
def test_a_refused_comparison_never_holds_on_any_round_a_small_shoe_deals(name, op, literal,
                                                                          cards):
    """Soundness, brute force over every ordered deal of a small shoe: what is refused as
    never holding holds on no round, what always holds fails on none."""
    text = repr(literal)
    condition = f"{name} {op} ({text},)" if op in ("in", "not in") else f"{name} {op} {text}"
    try:
        parsed = Expression.parse(condition, types={name: PUNTO.features[name].types})
    except ExpressionError:
        return  # refused by the grammar's kinds already
    try:
        check_literals(parsed, PUNTO.features)
    except ExpressionError as error:
        outcomes = {_holds(op, PUNTO.read(record, name), literal, False)
                    for record in _every_round(cards)} - {None}
        # a literal never taken: == and in never hold, != and not in always do
        if "always holds" in str(error) or (op in ("!=", "not in") and "not a value" in str(
                error)):
            assert False not in outcomes, condition
        else:
            assert True not in outcomes, condition


# --- the declared values are the dealt values -----------------------------------------------------
def _dealt_values(game, rounds: int = 3_000) -> dict[str, set]:
    """The values of every feature over brute-force rounds: seeded random rounds of an 8-deck
    shoe, rounds of one rank (every count up to 6), and every two first cards of each hand."""
    rng = random.Random(26)
    cards = [Card.parse(r + s) for r in RANKS for s in SUITS]
    deals = [rng.choices(cards, k=6) for _ in range(rounds)]
    for _ in range(6):  # k cards of one rank (of one suit) and 6 - k others: every count
        for rank, suit, k in itertools.product(RANKS, SUITS, range(7)):
            others = [c for c in cards if c.rank != rank and c.suit != suit]
            deal = [Card.parse(rank + suit)] * k + rng.choices(others, k=6 - k)
            rng.shuffle(deal)
            deals.append(deal)
    deals += [[a, b, c, d, c, d] for a, c in itertools.product(cards, repeat=2)
              for b, d in ((Card.parse("KS"), Card.parse("QH")),)]
    deals += [[b, a, d, c, b, d] for a, c in itertools.product(cards, repeat=2)
              for b, d in ((Card.parse("KS"), Card.parse("QH")),)]
    # a tableau that always draws as well: a feature's values are those of any rules of its
    # game (e.g. three threes for the Player, who stands on 3 + 3 by the standard tableau)
    always = Rules("always", "Always draw", frozenset(), frozenset(range(10)),
                   frozenset(range(10)), {total: frozenset(range(10)) for total in range(10)})
    values: dict[str, set] = {name: set() for name in game.features}
    for rules_game in (game, replace(game, rules=always)):
        for deal in deals:
            record = rules_game.record_from_cards(deal)
            for name, feature in game.features.items():
                values[name].add(feature.read(record))
    return values


@pytest.mark.parametrize("game", [NINES], ids=["nine-and-nines (and punto-banco's features)"])
def test_each_feature_declares_exactly_the_values_its_game_deals(game):
    dealt = _dealt_values(game)
    for name, feature in game.features.items():
        declared = feature.domain
        assert declared is not None, name
        assert len(set(map(repr, declared))) == len(declared), f"{name}: a value twice"
        assert dealt[name] <= set(declared), (name, dealt[name] - set(declared))
        assert set(declared) <= dealt[name], (name, set(declared) - dealt[name])


# --- paytables and ids ----------------------------------------------------------------------------
@pytest.mark.parametrize("extra", ["", "paytable = 'eight'\n"])
def test_an_alternative_paytable_named_like_the_default_is_refused(tmp_path, capsys, extra):
    default = "eight" if extra else "standard"
    text = bet_text("winner == 'tie'", extra) + f"[bet.paytables.{default}]\nYes = 9\n"
    line = refusal(tmp_path, capsys, text)
    assert f"paytable '{default}' is both the default" in line
    with pytest.raises(BetFileError, match="both the default"):
        load_bets("mine.toml", PUNTO.features, text=text)


@pytest.mark.parametrize(("field", "value"), [
    ("id", "pl\u0430yer"), ("id", "mi\u200bne"), ("id", "ｍine"), ("id", "mine "),
    ("id", "mine\u0301"), ("group", "s\u0456de"), ("paytable", "8\u2011to\u20111"),
])
def test_ids_are_plain_visible_ascii(tmp_path, capsys, field, value):
    extra = f"{field} = {toml(value)}\n" if field != "id" else ""
    text = bet_text("winner == 'tie'", extra, bet_id=value if field == "id" else "mine")
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["list-bets", "punto-banco", "--bets", str(path)]) == 2
    line = capsys.readouterr().err
    strange = next(c for c in value if c not in ID_CHARACTERS)
    assert len(line.splitlines()) == 1 and f"U+{ord(strange):04X}" in line, line
    text = bet_text("winner == 'tie'") + f"[bet.paytables.{toml(value)}]\nYes = 9\n"
    with pytest.raises(BetFileError, match="ids are ASCII letters"):
        load_bets("mine.toml", PUNTO.features, text=text)


def test_shipped_ids_groups_and_paytables_are_plain():
    for bet in game_bets(NINES) + game_bets(PUNTO):
        for text in (bet.id, bet.group, *bet.paytables):
            assert set(text) <= ID_CHARACTERS, text


# --- --table: one rule, with and without --bet ----------------------------------------------------
def test_a_table_bet_of_a_new_id_is_one_bet_among_the_others(tmp_path, capsys):
    """--table bets join the bets before --bet or --group choose: --bet may name a new one,
    and --bet of another bet does not get it added; --group gets it as a bet of your own."""
    table = tmp_path / "table.toml"
    table.write_text(bet_text("winner == 'tie'", bet_id="newbet").replace("pays = 1", "pays = 8"))

    def analysed(*options: str) -> list[str]:
        assert main(["analyze", "punto-banco", "--decks", "1", "--json", "--table", str(table),
                     *options]) == 0
        return list(json.loads(capsys.readouterr().out)["bets"])

    assert analysed("--bet", "newbet") == ["newbet"]
    assert analysed("--bet", "tie") == ["tie"]
    assert analysed("--bet", "tie", "--bet", "newbet") == ["tie", "newbet"]
    assert "newbet" in analysed("--group", "main") and "big" not in analysed("--group", "main")
    assert analysed()[-1] == "newbet"
    # a table bet replacing a shipped one is chosen by the group of the bet it replaces
    table.write_text(bet_text("winner == 'tie'", bet_id="tie").replace("pays = 1", "pays = 9"))
    assert analysed("--group", "main").count("tie") == 1
    assert "tie" not in analysed("--group", "side")
    assert Fraction(9) == Fraction(_pays_of_tie(table, capsys))


def _pays_of_tie(table: Path, capsys) -> str:
    assert main(["analyze", "punto-banco", "--decks", "1", "--json", "--table", str(table),
                 "--bet", "tie"]) == 0
    bet = json.loads(capsys.readouterr().out)["bets"]["tie"]
    return next(tier["pays"] for tier in bet["tiers"] if tier["event"] == "Yes")


def test_conditions_are_checked_within_a_bounded_number_of_evaluations(monkeypatch):
    """A long condition: the check tries at most MOST_TRIALS combinations in all (each
    comparison here has 1,000), and takes well under a second."""
    import time

    from exact.model import literals

    calls = []
    original = Expression.evaluate

    def counting(self, features):
        calls.append(1)
        return original(self, features)

    monkeypatch.setattr(Expression, "evaluate", counting)
    condition = " or ".join(["player_total + banker_total + margin == 18"] * 30)
    start = time.perf_counter()
    check_literals(Expression.parse(condition), PUNTO.features)
    assert time.perf_counter() - start < 2
    assert 0 < len(calls) <= literals.MOST_TRIALS
