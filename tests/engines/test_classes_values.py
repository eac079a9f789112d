"""Features decided by the values of the cards they read, in class-by-class counting
(exact/engines/classes_states.py :func:`~exact.engines.classes_states.by_value`): read off the
value walk's records (a card of each value in place), not counted by the states. On a deck
``dealt_twos`` is the count of value-2 cards and ``banker_card1_rank in ('2', '3')`` is
``banker_card1_value in (2, 3)``; ``dealt_kings`` is not (value 0 holds tens, jacks and
queens), but is on a shoe whose cards of value 0 are kings only. Exact against the card-by-card
brute force on small odd shoes (a value class missing ranks, a value class absent), one shoe, a
batch and a card known."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

import numpy as np
import pytest

from exact.core.cards import Card, Shoe
from exact.engines import classes, classes_states
from exact.engines.batch_numbers import counts_matrix
from exact.engines.classes_states import Shape, by_value
from exact.model.bets import Bet, load_bets

from tests.analysis.test_counting import forced_brute_force_bets
from tests.engines.test_classes import _cards
from tests.engines.test_factorised import _reference_counts
from tests.support.vocabulary import bet_text

# two events each: tallies, cards by position and a pair whose reading the values decide on a
# deck, with tallies and third cards compared that they do not
BETS = {
    "twos": ["(banker_card3_suit != player_card3_suit) and (dealt_twos != 0)",
             "not ((dealt_hearts >= 2) or (banker_twos not in (1, 2)))"],
    "ranks": ["(banker_card1_rank in ('2', '3')) and (dealt_hearts >= 1)",
              "(player_initial_ranks == '99') or (player_card3_rank not in ('A', '9'))"],
    "kings": ["(dealt_kings >= 1) and (player_card2_rank == 'K')",
              "(dealt_aces + dealt_spades >= 2) and (banker_card3_colour == 'red')"],
    # on a shoe of one suit every feature here: no dimension of the states at all
    "one-suit": ["(player_card1_suit == 'H') and (dealt_hearts >= 3) and banker_pair",
                 "all_same_color or (player_card3_colour == 'red')"],
}
# value 0 of kings and queens; value 0 of kings only (``dealt_kings`` a value's count); no
# card of value 0 or 2 (no round deals one)
SHOES = {
    "kings-and-queens": "KH:2,QS:1,9S:1,9H:1,2C:2,3D:1,5S:1,AH:1",
    "kings-only": "KH:2,KS:1,9S:1,9H:1,2C:1,3D:2,AH:1,6S:1",
    "no-tens-no-twos": "9S:2,9H:1,3D:2,5S:1,AH:2,7C:1,4H:1",
    "hearts": "9H:2,3H:1,5H:1,KH:2,7H:1,4H:1",
}


def bet_of(game, name: str) -> Bet:
    bet, = load_bets("values.toml", game.features, text=bet_text(
        [(text, 10 - n) for n, text in enumerate(BETS[name])], name))
    return bet


@cache
def compiled_on(game, name: str, shoe_name: str) -> tuple[Bet, Shoe, Any]:
    bet, shoe = bet_of(game, name), Shoe.parse(SHOES[shoe_name])
    return bet, shoe, classes._compiled(game, (bet,), _cards(shoe))


def test_what_the_values_decide_is_read_by_value(punto_banco):
    """On a deck: the twos' and aces' tallies and the ranks read only as values are value
    names; the kings, hearts, suits and ranks told apart within value 0 are not. On
    a shoe of kings only for value 0, the kings' tally and rank are (the cards decide, not
    the ranks' names); on one of kings and queens, not."""
    features = punto_banco.features
    deck = Shape.of(punto_banco, sorted(set().union(*(bet_of(punto_banco, name).features
                                                      for name in BETS))),
                    [bet_of(punto_banco, name) for name in BETS])
    assert {"dealt_twos", "banker_twos", "dealt_aces", "banker_card1_rank",
            "player_initial_ranks", "player_card3_rank"} <= set(deck.value_names)
    assert {"dealt_kings", "dealt_hearts", "dealt_spades"} <= {name for name, _, _
                                                               in deck.tallies}
    assert {"player_card2_rank", "banker_card3_suit"} <= {name for name, _ in deck.positional}
    kings = _cards(Shoe.parse(SHOES["kings-only"]))
    bet = bet_of(punto_banco, "kings")
    assert by_value(features["dealt_kings"], kings)
    assert by_value(features["player_card2_rank"], kings, (bet,))
    mixed = _cards(Shoe.parse(SHOES["kings-and-queens"]))
    assert not by_value(features["dealt_kings"], mixed)
    assert not by_value(features["player_card2_rank"], mixed, (bet,))
    # a rank compared with another card's is read as such
    compared, = load_bets("compared.toml", features, text=bet_text(
        [("player_card3_rank == banker_card3_rank", 5)], "compared"))
    assert by_value(features["player_card3_rank"], mixed, (bet_of(punto_banco, "ranks"),))
    assert not by_value(features["player_card3_rank"], mixed, (compared,))


def test_a_tally_decided_by_the_values_costs_no_state(punto_banco):
    """``dealt_twos != 0`` with the third cards compared and a tally of hearts: the same
    states as without it (it was a dimension of 0 to 6 twos capped at 1: twice the states),
    and the plan's estimate the same."""
    plain = "(banker_card3_suit != player_card3_suit) and (dealt_hearts >= 2)"
    bets = [load_bets("twos.toml", punto_banco.features, text=bet_text(
        [(text, 5)], "twos"))[0] for text in (plain, plain + " and (dealt_twos != 0)")]
    shoe = Shoe.parse(SHOES["kings-and-queens"])
    compiled = [classes._compiled(punto_banco, (bet,), _cards(shoe)) for bet in bets]
    assert compiled[0].states.size == compiled[1].states.size
    assert classes.estimate(punto_banco, bets[:1]) == classes.estimate(punto_banco, bets[1:])
    assert compiled[1].counts(shoe) == [_reference_counts(bets[1], shoe)]


@pytest.mark.parametrize(("name", "shoe_name"), [
    ("twos", "kings-and-queens"), ("twos", "no-tens-no-twos"),
    ("ranks", "kings-only"), ("ranks", "no-tens-no-twos"),
    ("kings", "kings-only"), ("kings", "kings-and-queens"), ("one-suit", "hearts"),
    ("one-suit", "kings-and-queens")])
def test_features_decided_by_the_values_count_as_the_twin(punto_banco, name, shoe_name):
    """One shoe and a batch (the shoe and it less a card) against the brute force."""
    bet, shoe, compiled = compiled_on(punto_banco, name, shoe_name)
    if shoe_name == "hearts":
        assert compiled.states.size == 1 and not compiled.shape.tallies
    expected = _reference_counts(bet, shoe)
    assert compiled.counts(shoe) == [expected]
    smaller = shoe.remove("9")  # a nine of the suit most left
    batch, = compiled.batch_counts(np.array(counts_matrix([shoe, smaller])))
    assert [list(row) for row in batch] == [expected, _reference_counts(bet, smaller)]


@pytest.mark.parametrize(("name", "shoe_name", "known"), [
    ("twos", "kings-and-queens", {1: "2C"}), ("ranks", "kings-only", {2: "3D", 5: "9H"}),
    ("kings", "kings-only", {3: "KS"}), ("one-suit", "hearts", {1: "KH", 5: "3H"})])
def test_features_decided_by_the_values_with_cards_known_count_as_the_twin(
        punto_banco, name, shoe_name, known):
    """Cards known at first and third positions (their values forced in the value walk,
    their cards among those that decide)."""
    bet, shoe = bet_of(punto_banco, name), Shoe.parse(SHOES[shoe_name])
    forced = {position: Card.parse(text) for position, text in known.items()}
    left = shoe.remove(list(forced.values()))
    assert classes.evaluate(punto_banco, [bet], left, known=forced) == \
        [forced_brute_force_bets(shoe, forced, [bet])[bet.id]]


# a third card's rank and a pair of first ranks read by a condition that tells value 0's
# ranks apart (not decided by the values), with a tally and a value feature
READ = ["(player_card3_rank in ('J', 'T', 'A')) and (dealt_hearts >= 1)",
        "(player_initial_ranks in ('AJ', 'AT', 'AA')) or (winner == 'tie')"]
READ_SHOE = "JH:2,TS:1,KD:1,QS:1,AH:2,9S:1,5D:1,3C:1"


def test_classes_read_alike_are_merged_without_settling(punto_banco, monkeypatch):
    """Past the settlement bounds (set to 0 here) a position's classes and a pair's values
    that the conditions read alike are one (``player_card3_rank in ('J', 'T', 'A')``: the
    jacks and tens, and the queens and kings, of value 0), and the counts are the brute
    force's, one shoe, a batch and a card known; the plan's estimate counts so too."""
    bet, = load_bets("read.toml", punto_banco.features, text=bet_text(
        [(text, 10 - n) for n, text in enumerate(READ)], "read"))
    shoe = Shoe.parse(READ_SHOE)
    monkeypatch.setattr(classes_states, "_CHECK_LIMIT", 0)
    monkeypatch.setattr(classes_states, "_JOINT_LIMIT", 0)
    compiled: Any = classes._compiled(punto_banco, (bet,), _cards(shoe))
    states = compiled.states
    assert states.positions == [(0, 2)] and len(states.pairs) == 1
    by_class = states.position_class[0]
    assert len({by_class[n] for n in compiled.by_value[0]}) == 2  # J, T | Q, K
    assert states.pairs[0].size <= 6  # of 103 digits, each value of ranks apart
    expected = _reference_counts(bet, shoe)
    assert compiled.counts(shoe) == [expected]
    smaller = shoe.remove("JH")
    batch, = compiled.batch_counts(np.array(counts_matrix([shoe, smaller])))
    assert [list(row) for row in batch] == [expected, _reference_counts(bet, smaller)]
    known = {2: Card.parse("TS")}
    assert classes.evaluate(punto_banco, [bet], shoe.remove(["TS"]), known=known) == \
        [forced_brute_force_bets(shoe, known, [bet])[bet.id]]
    # the estimate: 3 digits for the third card (5 by its rank), no fewer than the compile
    assert classes._read_digits(punto_banco, ("player_card3_rank",), (0, 2), (bet,)) == 3
    assert states.size <= cast(int, classes.estimate(punto_banco, [bet]))
