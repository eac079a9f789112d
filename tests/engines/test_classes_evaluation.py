"""The batch side of class-by-class counting (exact/engines/classes_evaluation.py): batches of
shoes split into several blocks, every count exact against the card-by-card brute force on
small odd shoes; its three number types (float64, int64, Python integers) giving the same
counts; the 8-deck batch of depleted shoes agreeing with factorised counting shoe by shoe."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from exact.core import work
from exact.core.cards import CARDS, Shoe
from exact.engines import classes, classes_evaluation
from exact.engines.batch import BetEvaluator
from exact.engines.batch_numbers import counts_matrix, shoe_sizes
from exact.engines.factorised import batch_cards
from exact.engines.plan import choose
from exact.model.bets import load_bets

from tests.engines.test_classes import (
    BETS,
    ISSUE_BETS,
    SHOES,
    attribute_conditions,
    random_bet,
)
from tests.engines.test_factorised import _reference_counts

# odd shoes of one batch: the issue's shoes, each less a card, and two more of few cards (a
# lone suit, third cards of one colour)
BATCH = [Shoe.parse(text) for text in SHOES] + \
    [Shoe.parse(SHOES[0]).remove("9S"), Shoe.parse(SHOES[1]).remove("QH"),
     Shoe.parse("AH:2,2H:2,KH:2,9H:1,5H:1,7H:1"),
     Shoe.parse("KS:3,QC:2,8S:1,9C:1,6S:1,AC:1,4S:1")]


@pytest.fixture(params=["slots", "edges"])
def small_blocks(monkeypatch, request):
    """Blocks of two shoes: a batch of six runs through three of them (and a last one part
    full when odd), so that every block boundary is crossed; the dense form's trie walked by
    its reached slots (``DenseArrays.walk``, which one shoe takes), then as edges between
    them (``DenseArrays.edge_form``, which many shoes take)."""
    monkeypatch.setattr(classes_evaluation, "_FEWEST_SHOES", 2)
    monkeypatch.setattr(classes_evaluation, "_MOST_SHOES", 2)
    monkeypatch.setattr(classes_evaluation, "_WALK_SHOES", 2)
    monkeypatch.setattr(classes_evaluation, "_EDGE_SHOES",
                        1 if request.param == "edges" else 10**9)


@pytest.fixture(scope="module")
def attribute_bets(punto_banco):
    return {bet.id: bet for bet in load_bets(BETS, punto_banco.features)}


@pytest.mark.parametrize("bet_id", ISSUE_BETS)
def test_a_batch_of_odd_shoes_in_blocks_matches_the_brute_force(punto_banco, attribute_bets,
                                                                small_blocks, bet_id):
    """Each bet of the issue on a batch of odd shoes split into blocks of two (and one of
    one): every shoe's counts are the brute force's, and its exact EV their pays."""
    bet = attribute_bets[bet_id]
    assert choose(punto_banco, bet, "batch").engine == "classes"
    evaluator = BetEvaluator(punto_banco, [bet])
    shoes = BATCH[:-1]  # an odd number of shoes: the last block holds one
    counts = evaluator.counts(shoes)[bet_id]
    expected = [_reference_counts(bet, shoe) for shoe in shoes]
    assert [[int(c) for c in row] for row in counts] == expected
    pays = [event.pays for event in bet.events]
    for value, row in zip(evaluator.expected_values(shoes)[bet_id], expected, strict=True):
        assert value == sum(p * c for p, c in zip(pays, row, strict=True)) / sum(row)


@pytest.mark.parametrize("bet_id", ISSUE_BETS)
def test_the_number_types_give_the_same_counts(punto_banco, attribute_bets, bet_id):
    """float64 (below 2**53), int64 (below 2**63) and Python integers (beyond), each chosen
    by the size of the shoes: the same compiled arrays give the same counts in all three, so
    the large shoes' types count as the small shoes' (checked against the brute force)."""
    matrix = counts_matrix(BATCH)
    compiled = classes._cached(punto_banco, (attribute_bets[bet_id],), batch_cards(matrix))
    sizes = shoe_sizes(matrix)
    results = [compiled.arrays.counts(matrix, sizes, dtype)
               for dtype in (np.float64, np.int64, object)]
    exact = [[int(c) for c in row] for row in results[2]]
    for result in results[:2]:
        assert [[int(c) for c in row] for row in result] == exact


@pytest.mark.parametrize(("bet_id", "removed"), [("super-tie", (8, 12, 15)),
                                                 ("nine-of-spades", (8, 12, 15)),
                                                 ("four-hearts", (20, 24))])
def test_a_batch_of_depleted_decks_matches_factorised_counting(punto_banco, attribute_bets,
                                                              bet_id, removed):
    """Depleted single decks (28 to 44 cards, every card class present or not): the batch
    agrees shoe by shoe with factorised counting, which walks patterns of card classes (an
    independent method), on shoes too large for the brute force (four-hearts on the smaller
    ones, where factorised counting's patterns stay within its bound)."""
    from exact.engines import factorised

    rng = np.random.default_rng(30)
    deck = Shoe.standard(1)
    shoes = [deck.remove([str(CARDS[int(i)]) for i in rng.choice(52, size=n, replace=False)])
             for n in removed]
    bet = attribute_bets[bet_id]
    batch = BetEvaluator(punto_banco, [bet]).counts(shoes)[bet_id]
    assert [[int(c) for c in row] for row in batch] == \
        [factorised.evaluate(punto_banco, [bet], shoe)[0] for shoe in shoes]


# each example compiles a bet anew (seconds); the one-shoe twin of the same generator
# (tests/engines/test_classes.py) and the property tests of tests/engines/test_vocabulary_twins.py
# draw more: four here check the blocks
@settings(max_examples=4, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(condition=attribute_conditions())
def test_random_bets_on_a_batch_in_blocks_match_the_brute_force(punto_banco, small_blocks,
                                                                 condition):
    """Random bets on tallies, cards by position and values: a batch of odd shoes in blocks
    of two, every shoe exact against the brute force."""
    bet = random_bet(punto_banco, condition)
    if choose(punto_banco, bet, "batch").engine != "classes":  # a bet on the first cards
        return
    shoes = BATCH[:5]
    batch = classes.batch(punto_banco, [bet])(counts_matrix(shoes))[0]
    assert [[int(c) for c in row] for row in batch] == \
        [_reference_counts(bet, shoe) for shoe in shoes]


@pytest.mark.parametrize(("condition", "by_restrictions"), [
    ("(player_reds == 0 or banker_blacks == banker_cards) and not (dealt_hearts == 0)", True),
    ("winner == 'banker' and player_spades < 1 and banker_hearts >= banker_cards", True),
    ("dealt_reds == 2 or banker_hearts == 0", False),  # two red cards of four to six: a count
    # one card's colour: a tally of one position, counted by ratios over the value-level trie
    ("winner == 'player' and player_card3_colour == 'red' and banker_card3_colour != 'red'",
     True),
    ("player_card3_colour == banker_card3_colour and not (banker_reds == 0)", True),
])
def test_bets_counted_by_restrictions_match_the_brute_force(punto_banco, small_blocks,
                                                            condition, by_restrictions):
    """Tallies read only as none, all or some of their cards (three at once, with a value
    feature) are counted by signed sums of restricted counts; a tally read by its count is
    not. Either way a batch in blocks is exact against the brute force."""
    bet = random_bet(punto_banco, condition)
    shoes = BATCH[:5]
    compiled = classes._cached(punto_banco, (bet,), batch_cards(counts_matrix(shoes)))
    assert (compiled.form == classes.RESTRICTED) == by_restrictions
    batch = BetEvaluator(punto_banco, [bet]).counts(shoes)[bet.id]
    assert [[int(c) for c in row] for row in batch] == \
        [_reference_counts(bet, shoe) for shoe in shoes]


def test_the_dense_form_keeps_its_moves_by_dimension_and_reached_settlements_only(
        punto_banco, monkeypatch):
    """The dense form of two third cards' suits compared with tallies (the family the
    compile's memory refused at 8 decks): its states' moves are kept a table per dimension,
    not (states x outcomes), and give every state's target under every outcome as the
    states do; its settlements only the (group, state) slots a leaf reaches; and, its trie
    walked one node of a depth at a time, its counts are the brute force's on a small odd
    shoe (more in :func:`test_the_walk_by_reached_slots_is_the_edge_forms`)."""
    # on this shoe the twos, queens and jacks are each one value's cards (no tally): hearts
    # and spades are not
    bet = random_bet(punto_banco, "banker_card3_suit != player_card3_suit and dealt_twos != 0 "
                                  "and dealt_hearts >= dealt_spades")
    shoe = Shoe.parse(SHOES[0])
    compiled = classes._compiled(punto_banco, (bet,), batch_cards(counts_matrix([shoe])))
    arrays = compiled.arrays
    assert isinstance(arrays, classes_evaluation.DenseArrays)
    states, outcomes = arrays.states, len(arrays.moves)
    assert arrays.tables.size + arrays.moves.size < states * outcomes
    state, outcome = np.divmod(np.arange(states * outcomes), outcomes)
    assert arrays.targets(state, outcome).tolist() == [
        compiled.states.combine(s, tuple(arrays.moves[o].tolist()))
        for s, o in zip(state.tolist(), outcome.tolist(), strict=True)]
    settles = arrays.settles
    assert settles is not None and len(settles) < len(arrays.fills) * states
    monkeypatch.setattr(classes_evaluation, "_SCRATCH", states)  # a node a range
    assert compiled.counts(shoe) == [_reference_counts(bet, shoe)]


def test_the_walk_by_reached_slots_is_the_edge_forms(punto_banco, monkeypatch):
    """The dense form walked by its reached (node, state) slots only (``DenseArrays.walk``,
    small ranges, of ten nodes at most: range boundaries crossed) reaches, depth by
    depth, the slots its edge form reaches (found there by whole rows of every node's states,
    ``edge_form``), with one product per edge; and its counts, in each number type, are the
    brute force's on small odd shoes (a shoe, then a block of them), as the edges' are."""
    bet = random_bet(punto_banco, "banker_card3_suit != player_card3_suit and dealt_twos != 0 "
                                  "and dealt_queens >= dealt_jacks")
    shoes = [Shoe.parse(SHOES[0]), Shoe.parse(SHOES[0]).remove("9S")]
    matrix = counts_matrix(shoes)
    arrays = classes._compiled(punto_banco, (bet,), batch_cards(matrix)).arrays
    assert isinstance(arrays, classes_evaluation.DenseArrays)
    edges = arrays.edge_form
    assert edges is not None
    monkeypatch.setattr(classes_evaluation, "_SCRATCH", 10 * arrays.states)
    monkeypatch.setattr(classes_evaluation, "_RANGE_PRODUCTS", 1_000)
    paid: list[int] = []
    slots = np.zeros(len(edges.slots), dtype=np.int64)
    for depth, _, walked in arrays.walk(None, lambda products, _: paid.append(products)):
        slots[depth] += len(walked.states)
    assert slots.tolist() == edges.slots.tolist()
    assert sum(paid) == len(edges.edges) and len(paid) > 10 * len(slots)
    sizes = shoe_sizes(matrix)
    expected = [_reference_counts(bet, shoe) for shoe in shoes]
    assert arrays.counts(matrix[1:], sizes[1:], np.float64).tolist() == expected[1:]
    for dtype in (np.float64, np.int64, object):
        assert arrays.counts(matrix, sizes, dtype).tolist() == expected
    assert edges.counts(matrix, sizes, np.int64).tolist() == expected


def test_the_compile_draws_the_work_of_the_slots_its_trie_reaches(punto_banco):
    """The compile draws from the run's budget its trie's nodes, then the products of the
    slots they reach, before it takes them, not every node's every state: a bet of 635
    states on 26,192 nodes (a small odd shoe) is served within a budget of a million units
    (800,084 drawn), where every state at a tenth of a unit, as drawn before, charged its
    nodes alone 26,192 x 68 = 1.78 million; its counts are the brute force's (the tallies
    are suits and colours: no value decides them on this shoe)."""
    bet = random_bet(punto_banco, "banker_card3_suit != player_card3_suit and dealt_hearts < 2 "
                                  "and dealt_spades >= dealt_clubs and banker_reds != 1 "
                                  "and player_blacks != 2")
    shoe = Shoe.parse(SHOES[0])
    with work.budget(1_000_000):
        compiled = classes._compiled(punto_banco, (bet,), batch_cards(counts_matrix([shoe])))
        assert compiled.states.size == 635
        assert compiled.counts(shoe) == [_reference_counts(bet, shoe)]
