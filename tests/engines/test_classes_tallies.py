"""The tallies as one dimension of class-by-class counting's state
(exact/engines/classes_states.py, :class:`~exact.engines.classes_states.Tallies`): bets
comparing two tallies (their difference kept) or summing them, exact against the card-by-card
brute force on small odd shoes in every scope (one shoe, a batch, a card known), and the
reduction a congruence: merged vectors of counts settle alike in every reading and step alike.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import prod
from typing import Any

import numpy as np
import pytest

from exact.core.cards import Card, Shoe
from exact.engines import classes, classes_states
from exact.engines.batch_numbers import counts_matrix
from exact.engines.classes_states import Shape, States, Tallies
from exact.model.bets import Bet, load_bets

from tests.analysis.test_counting import forced_brute_force_bets
from tests.engines.test_classes import SHOES, _cards
from tests.engines.test_factorised import _reference_counts
from tests.support.vocabulary import bet_text

# two events each; the shapes of the generated bets refused before (tallies compared with
# each other, with a card read by position), on small shoes
COMPARED = {
    "difference": ["dealt_hearts >= dealt_spades", "dealt_reds < player_blacks"],
    "difference-and-position": ["(dealt_reds > banker_blacks) and (banker_card2_suit != 'C')",
                                "player_card3_colour == 'red'"],
    "sum": ["player_hearts + banker_spades >= 2", "first_four_hearts > dealt_reds"],
    "generated": ["not (((dealt_sixes >= dealt_spades) and (player_card2_suit not in ['C'])) "
                  "and (not (banker_natural)))",
                  "not (not ((first_four_kings > banker_blacks) and "
                  "(player_card2_value in {5, 9, 4})))"],  # refused on 8 decks before
    "two-differences": ["(dealt_nines < dealt_kings) or (player_reds >= banker_blacks)",
                        "player_cards <= 2"],
}


# a shoe whose value 0 holds a king and a queen: on one whose only value-0 cards are kings,
# ``first_four_kings`` is decided by the cards' values (a value name, no tally to compare)
OWN_SHOE = {"generated": "9S:2,9H:1,KH:2,QS:1,5D:1,2C:2,AH:1,6S:1"}


def compared(game, name: str) -> Bet:
    bet, = load_bets("compared.toml", game.features, text=bet_text(
        [(text, 10 - n) for n, text in enumerate(COMPARED[name])], name))
    return bet


@lru_cache(maxsize=8)
def compiled_on(game, name: str) -> tuple[Bet, Shoe, Any]:
    """The bet ``name``, its odd shoe and the bet compiled for that shoe's cards (once: the
    compile is most of a test's time)."""
    bet = compared(game, name)
    shoe = Shoe.parse(OWN_SHOE.get(name, SHOES[sorted(COMPARED).index(name) % len(SHOES)]))
    return bet, shoe, classes._compiled(game, (bet,), _cards(shoe))


@pytest.mark.parametrize("name", sorted(COMPARED))
def test_tallies_compared_match_the_brute_force(punto_banco, name):
    """One shoe and a batch (the shoe and it less a card) of an odd shoe, exact against the
    brute force; the tallies compared are one coordinate of the state (a difference or a
    sum), so the reduction is what is tested."""
    bet, shoe, compiled = compiled_on(punto_banco, name)
    assert any(len(tallies) == 2 for tallies, _ in compiled.states.tallies.coordinates)
    expected = _reference_counts(bet, shoe)
    assert compiled.counts(shoe) == [expected]
    smaller = shoe.remove("AH")  # the batch form (by edges from eight shoes: not here)
    batch, = compiled.batch_counts(np.array(counts_matrix([shoe, smaller])))
    assert [list(row) for row in batch] == [expected, _reference_counts(bet, smaller)]


@pytest.mark.parametrize("name", ["difference-and-position", "sum"])
def test_tallies_compared_with_a_card_known_match_the_forced_brute_force(punto_banco, name):
    """A first card and a third card known: the known cards' counts start the tallies'
    dimension (an increment like a piece's)."""
    bet = compared(punto_banco, name)
    shoe = Shoe.parse(SHOES[1])
    for known in ({1: Card.parse("QH")}, {5: Card.parse("4S")}):
        left = shoe.remove(list(known.values()))
        assert classes.evaluate(punto_banco, [bet], left, known=known) == \
            [forced_brute_force_bets(shoe, known, [bet])[bet.id]]


def test_the_plans_estimate_counts_the_tallies_blocks(punto_banco):
    """The plan's estimate reduces the tallies as the compile does (settled on every value of
    the other features): two comparisons of three tallies and a value name (``dealt_sixes``,
    the cards of value 6), fewer than their counts' product, and no fewer than the compile's
    blocks on a small shoe."""
    bet, _, compiled = compiled_on(punto_banco, "generated")
    shape = Shape.of(punto_banco, sorted(bet.features))
    assert "dealt_sixes" in shape.value_names
    tallies = tuple((name, len(cards)) for name, cards, _ in shape.tallies)
    blocks = classes._tally_blocks(punto_banco, (bet,), tallies)
    assert 2 * blocks < prod(most + 1 for _, most in tallies)
    assert compiled.states.tallies.size <= blocks


def congruence_faults(states: States, tallies: Tallies, every: int = 1) -> list[str]:
    """Where ``tallies`` is not a congruence of the bet's counts (every vector of capped
    counts, or each ``every``-th, every reading, every class at the positions and value of
    the pairs, settled anew): merged vectors that settle apart in a reading where both are
    dealt, or that one piece's counts take to blocks apart, or an increment's column that
    disagrees."""
    bet = states.bet
    caps = [cap for _, cap in states.tally_mode]
    most = [max(reading[1][t] for reading, _ in states.readings) for t in range(len(caps))]
    vectors = Tallies.vectors(caps)
    faults: list[str] = []

    def settled(record, reading, counts, placed, pairs) -> tuple[int, ...]:
        hits = [reading[1][t] - c if misses else c
                for t, ((misses, _), c) in enumerate(zip(states.tally_mode, counts, strict=True))]
        read = bet.read(record, reading, hits, placed, pairs)
        return tuple(one.settle(read) for one in bet.bets)

    for record, reading, _, positions, values in states._combos(None, None):
        for chosen, pairs in product(product(*positions), values):
            placed = {p: c for p, c in zip(states.positions, chosen, strict=True) if c >= 0}
            for counts in vectors[::every]:
                if any(c > n for c, n in zip(counts, reading[1], strict=True)):
                    continue  # past the reading's dealt positions: never on its rounds
                block = tallies.counts(tallies.number(counts))
                if settled(record, reading, counts, placed, pairs) != \
                        settled(record, reading, block, placed, pairs):
                    faults.append(f"{counts} settles apart from its block's {block}")
    blocks: dict[int, list[tuple[int, ...]]] = {}
    for counts in vectors:
        blocks.setdefault(tallies.number(counts), []).append(counts)
    # a piece's counts: a few hits of its value's positions (two hits of each tally, or one
    # of each of two tallies, stand for any: each is hits one after the other)
    for increment in (k for k in vectors if sum(k) <= 2):
        column = tallies.increment(increment)
        for block, members in blocks.items():
            after = set()
            for counts in members[::every]:
                if any(c + k > m for c, k, m, cap in zip(counts, increment, most, caps, strict=True)
                       if cap == m):
                    continue  # a count past its most positions: never on a round
                moved = tallies.number([min(c + k, cap) for c, k, cap
                                        in zip(counts, increment, caps, strict=True)])
                after.add(moved)
                if int(tallies.table[block, column]) != moved:
                    faults.append(f"{increment} takes {counts} to {moved}, its column not")
            if len(after) > 1:
                faults.append(f"{increment} takes block {block} to blocks {after}")
    return faults


def test_the_tallies_reduction_is_a_congruence(punto_banco):
    """Every merged vector settles as its block and steps as it: checked anew on every
    vector; a partition merging too much (all counts one block) and one whose blocks are
    swapped are caught, so the check can fail."""
    bet = compared(punto_banco, "two-differences")
    compiled: Any = classes._compiled(punto_banco, (bet,), _cards(Shoe.parse(SHOES[0])))
    states = compiled.states
    tallies = states.tallies
    vectors = Tallies.vectors(tallies.caps)
    assert len(vectors) > 2 * tallies.size  # merged: two differences of four tallies
    assert congruence_faults(states, tallies) == []
    additive = [cap == max(reading[1][t] for reading, _ in states.readings)
                for t, cap in enumerate(tallies.caps)]
    merged = Tallies(tallies.caps, [()] * len(vectors), additive)
    assert merged.size == 1 and congruence_faults(states, merged)
    # every vector a block of its own (settled apart), then two blocks swapped
    swapped = Tallies(tallies.caps, list(range(len(vectors))))
    assert swapped.block is not None and swapped.size == len(vectors)
    swapped.block[[1, 2]] = swapped.block[[2, 1]]
    assert congruence_faults(states, swapped)


# the family of generated bets (seed 11) whose tallies are past every settlement bound on 8
# decks: six tallies and two third cards compared by suit
FAMILY = ["((banker_card3_suit != player_card3_suit) and (dealt_twos != 0)) and "
          "(not ((dealt_queens >= dealt_jacks) and (dealt_blacks + first_four_clubs <= 5)))",
          "not ((banker_jacks == 2) or (banker_twos != 0))"]
FAMILY_SHOE = "2C:2,QH:2,JS:2,2H:1,9D:1,KC:1,3S:1,AH:1"  # 11 cards: twos, queens, jacks


def family_bet(game) -> Bet:
    bet, = load_bets("family.toml", game.features, text=bet_text(
        [(text, 10 - n) for n, text in enumerate(FAMILY)], "family"))
    return bet


@pytest.fixture(scope="module")
def read_past_the_bounds(punto_banco):
    """The family's bet on a small odd shoe compiled with every settlement bound at 0, so
    the tallies are reduced by what the conditions read of their counts alone."""
    bet, shoe = family_bet(punto_banco), Shoe.parse(FAMILY_SHOE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(classes_states, "_CHECK_LIMIT", 0)
        patch.setattr(classes_states, "_JOINT_LIMIT", 0)
        compiled: Any = classes._compiled(punto_banco, (bet,), _cards(shoe))
    return bet, shoe, compiled


def test_past_the_settlement_bounds_the_tallies_are_reduced_by_their_reading(
        punto_banco, read_past_the_bounds):
    """Past the bounds the reading caps ``dealt_twos != 0`` at one hit and keeps the rest
    (``banker_jacks == 2``: 0 to 3), and the tallies' blocks are far fewer than their counts'
    product; the counts are the brute force's in one shoe and a batch, as are the settled
    compile's (the bounds as they are)."""
    bet, shoe, compiled = read_past_the_bounds
    states = compiled.states
    names = [name for name, _, _ in states.bet.shape.tallies]
    modes = dict(zip(names, states.tally_mode, strict=True))
    # the twos are value 2's cards: read off the value walk's records, no tally
    assert {"dealt_twos", "banker_twos"} <= set(compiled.shape.value_names) - set(names)
    assert modes["banker_jacks"] == (False, 3)
    most = [max(reading[1][t] for reading, _ in states.readings) for t in range(len(names))]
    assert 20 * states.tallies.size < prod(m + 1 for m in most)
    assert any(len(tallies) == 2 for tallies, _ in states.tallies.coordinates)
    expected = _reference_counts(bet, shoe)
    smaller = shoe.remove("2C")
    settled: Any = classes._compiled(punto_banco, (bet,), _cards(shoe))
    for one in (compiled, settled):
        assert one.counts(shoe) == [expected]
        batch, = one.batch_counts(np.array(counts_matrix([shoe, smaller])))
        assert [list(row) for row in batch] == [expected, _reference_counts(bet, smaller)]


def test_the_tallies_read_past_the_bounds_are_a_congruence(read_past_the_bounds):
    """The partition found from the reading alone, checked anew by settling each fifth
    vector in every reading (every vector: the slow test below, a minute)."""
    _, _, compiled = read_past_the_bounds
    states = compiled.states
    assert states.tallies.block is not None
    assert congruence_faults(states, states.tallies, every=5) == []


@pytest.mark.slow
def test_the_tallies_read_past_the_bounds_are_a_congruence_on_every_vector(
        read_past_the_bounds):
    _, _, compiled = read_past_the_bounds
    assert congruence_faults(compiled.states, compiled.states.tallies) == []


def test_the_plans_estimate_reads_the_tallies_past_its_bound(punto_banco, read_past_the_bounds,
                                                            monkeypatch):
    """Past its own bound the estimate reduces the tallies by their reading as the compile
    does: far fewer than the product of their counts, no fewer than the compile's blocks."""
    bet, _, compiled = read_past_the_bounds
    shape = Shape.of(punto_banco, sorted(bet.features))
    tallies = tuple((name, len(cards)) for name, cards, _ in shape.tallies)
    whole = prod(most + 1 for _, most in tallies)
    monkeypatch.setattr(classes, "_ESTIMATE_CELLS", 0)
    classes._tally_blocks.cache_clear()
    try:
        blocks = classes._tally_blocks(punto_banco, (bet,), tallies)
    finally:
        classes._tally_blocks.cache_clear()
    assert compiled.states.tallies.size <= blocks and 20 * blocks < whole


def test_a_dozen_tallies_are_counted_not_enumerated(punto_banco, monkeypatch,
                                                   tmp_path) -> None:
    """Twelve tallies of 0 to 6 and 0 to 4 are 7,061,881,225 vectors of counts: the plan's
    estimate and the compile's joint reduction see that from the caps, before enumerating any
    (the plan hung for minutes, gigabytes deep, when it built the vectors first); the command
    is refused in one line."""
    import subprocess
    import sys

    # none decided by the cards' values (``dealt_twos`` is: read off the value walk)
    ranks = ["tens", "jacks", "queens", "kings", "hearts", "spades", "clubs", "diamonds",
             "reds", "blacks"]
    condition = " + ".join([f"dealt_{rank}" for rank in ranks] +
                           ["first_four_hearts", "first_four_spades"]) + \
        " >= 3 and player_card3_suit == 'H'"
    bet, = load_bets("many.toml", punto_banco.features,
                     text=bet_text([(condition, 5)], "many"))

    def refuse(caps):
        raise AssertionError(f"{prod(cap + 1 for cap in caps):,} vectors enumerated")

    monkeypatch.setattr(Tallies, "vectors", staticmethod(refuse))
    classes._tally_blocks.cache_clear()
    assert classes.estimate(punto_banco, [bet]) is not None
    monkeypatch.undo()
    classes._tally_blocks.cache_clear()
    bets = tmp_path / "many.toml"
    bets.write_text(bet_text([(condition, 5)], "many"))
    done = subprocess.run([sys.executable, "-m", "exact", "analyze", "punto-banco", "--decks",
                           "8", "--bets", str(bets), "--bet", "many"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.slow
def test_tallies_counted_by_their_misses_are_tried_by_their_hits(punto_banco, monkeypatch):
    """The family's bet with ``dealt_twos`` in both events: with the third cards one joint,
    ``banker_jacks`` and ``dealt_blacks`` are few enough to settle alone, and are capped on
    their misses, which takes no sum, no difference and no reading past the bounds (1,352
    blocks on this shoe); counted by their hits in full, the tallies take a sum, a
    difference and 395 blocks, whose counts are the brute force's. 25 s of CPU (the
    settlements of each tally alone, in Python): slow."""
    bet, = load_bets("family.toml", punto_banco.features, text=bet_text(
        [(FAMILY[0], 10), (FAMILY[1].replace("banker_twos", "dealt_twos"), 9)], "hits"))
    shoe = Shoe.parse(FAMILY_SHOE)
    tried: list[tuple[list[int], list[tuple[bool, int]], Any]] = []
    outputs = States._tally_outputs

    def spy(self, caps, modes=None):
        found = outputs(self, caps, modes)
        tried.append((list(caps), list(self.tally_mode if modes is None else modes), found))
        return found

    monkeypatch.setattr(States, "_tally_outputs", spy)
    compiled: Any = classes._compiled(punto_banco, (bet,), _cards(shoe))
    states = compiled.states
    assert [pair.optional for pair in states.pairs] == [(True, True)]
    caps, alone, first = tried[0]  # each tally's own reduction
    assert any(misses for misses, _ in alone)
    most = [max(reading[1][t] for reading, _ in states.readings) for t in range(len(caps))]
    by_misses = Tallies(caps, first, [cap == m for cap, m in zip(caps, most, strict=True)])
    assert not any(misses for misses, _ in states.tally_mode)
    assert states.tallies.size < by_misses.size
    assert len(states.tallies.coordinates) < len(states.tally_mode)  # a sum, a difference
    assert compiled.counts(shoe) == [_reference_counts(bet, shoe)]


# seed 2's family (tests/refusal_sample.py): the third cards' colours compared as a set, each
# a tally of one position read through its group ('red' at one hit; 'black' or None at none as
# its card is dealt or not), with tallies of ranks and clubs; past the settlement bounds on 8
# decks, where a group's tallies were counted in full (6,860 vectors of counts)
GROUPED_SHOE = "QH:2,QC:1,AS:1,5C:1,3H:1,JS:1,9D:1,KC:1"  # 9 cards: both colours, a club


def test_tallies_read_through_a_group_are_reduced_by_their_reading(punto_banco, monkeypatch):
    """Past the bounds the groups' tallies are read by what the conditions read of the
    group's value at each count, in every table of values a reading holds (a third card
    dealt or not): the blocks fewer than the counts' product (the queens and the clubs read
    in full, the two colours merged where the set reads them alike), a congruence, and the
    counts the brute force's in one shoe and a batch."""
    from tests.engines.test_vocabulary_twins import NAMED_PAIRS

    bet, = load_bets("grouped.toml", punto_banco.features, text=bet_text(
        [(text, 10 - n) for n, text in enumerate(NAMED_PAIRS["three-queen"])], "grouped"))
    shoe = Shoe.parse(GROUPED_SHOE)
    monkeypatch.setattr(classes_states, "_CHECK_LIMIT", 0)
    monkeypatch.setattr(classes_states, "_JOINT_LIMIT", 0)
    compiled: Any = classes._compiled(punto_banco, (bet,), _cards(shoe))
    states = compiled.states
    assert dict(states.bet.shape.groups)  # the colours: tallies read through their groups
    assert states.tallies.block is not None
    assert states.tallies.size < prod(cap + 1 for cap in states.tallies.caps)
    assert congruence_faults(states, states.tallies, every=11) == []
    smaller = shoe.remove("QH")
    assert compiled.counts(shoe) == [_reference_counts(bet, shoe)]
    batch, = compiled.batch_counts(np.array(counts_matrix([shoe, smaller])))
    assert [list(row) for row in batch] == [_reference_counts(bet, shoe),
                                            _reference_counts(bet, smaller)]
