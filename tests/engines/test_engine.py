"""The enumerator (direct and compiled) against the card-by-card brute force, and its
invariants on random shoes."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.core.cards import CARDS, SUITS, Shoe
from exact.core.enumerator import enumerate_rounds, falling
from exact.engines.compiled_store import compiled_for
from exact.errors import ShoeError
from exact.games.baccarat.reference import brute_force

from tests.support.batch_helpers import engine_counts
from tests.support.shoes import card_shoes, value_shoes

MAIN = ("winner", "player_total", "banker_total", "player_cards", "banker_cards",
        "player_third", "banker_third", "player_initial_total", "banker_initial_total",
        "highest_value", "margin")
FINE = ("player_pair", "banker_pair", "player_suited", "banker_suited", "winner",
        "all_same_color")

TWELVE = Shoe.from_counts({"AS": 1, "2H": 1, "3D": 1, "4C": 1, "5S": 1, "6H": 1, "7D": 1,
                           "8C": 1, "9S": 1, "TH": 1, "KD": 1, "5C": 1})
VALUE_SHOES = {
    "twelve cards": TWELVE,
    "one deck without fives": Shoe.standard(1).remove([f"5{s}" for s in SUITS]),
    "one deck, ranks 3-8 removed and five more": Shoe.standard(1).remove(
        [f"{r}{s}" for r in "345678" for s in SUITS] + ["JH", "QS", "KC", "KD", "TC"]),
    "two decks of three ranks": Shoe.from_counts({"A": 8, "9": 8, "5": 8}),
    "six cards": Shoe.from_counts({"9H": 2, "KS": 2, "4D": 1, "4C": 1}),
}


# The 48-card shoe is the same check at a bigger size (its value walk alone costs 15 s of CPU):
# the twelve-card shoe holds every point value, so every branch of the tableau; the two decks
# of three ranks hold 8 of a value; full shoes are checked against the published figures
# (tests/system/test_published.py). `-m slow` runs it.
SLOW_SHOES = {"one deck without fives"}


def _key(names):
    return lambda features: tuple(features[n] for n in names)


@pytest.mark.parametrize("shoe_name", [
    pytest.param(name, marks=pytest.mark.slow) if name in SLOW_SHOES else name
    for name in sorted(VALUE_SHOES)])
@pytest.mark.parametrize("engine", ["direct", "compiled"])
def test_value_features_match_brute_force(punto_banco, shoe_name, engine):
    shoe = VALUE_SHOES[shoe_name]
    expected = _cached_brute_force(shoe_name, "value")
    assert sum(expected.values()) == falling(shoe.size, 6)
    assert engine_counts(punto_banco, shoe, MAIN, _key(MAIN), engine) == expected


_CACHE: dict = {}


def _cached_brute_force(shoe_name, by, names=MAIN):
    if (shoe_name, by, names) not in _CACHE:
        _CACHE[shoe_name, by, names] = brute_force(VALUE_SHOES[shoe_name], names, by=by)
    return _CACHE[shoe_name, by, names]


# The card-by-card walk of the twelve-card shoe (665,280 sequences) is made once, over the
# features of both tests below, and each test counts by its own features.
CARD_NAMES = (*FINE, "player_initial_ranks")


def _card_by_card(names) -> Counter:
    out: Counter = Counter()
    for key, count in _cached_brute_force("twelve cards", "card", CARD_NAMES).items():
        out[tuple(key[CARD_NAMES.index(name)] for name in names)] += count
    return out


def test_suit_rank_and_colour_features_match_card_by_card(punto_banco):
    expected = _card_by_card(FINE)
    assert engine_counts(punto_banco, TWELVE, FINE, _key(FINE), "direct") == expected


def test_compiled_suit_features_match_card_by_card(punto_banco):
    names = ("player_pair", "player_suited", "player_initial_ranks")
    expected = _card_by_card(names)
    assert engine_counts(punto_banco, TWELVE, names, _key(names), "compiled") == expected


small_shoes = card_shoes(copies=2, kinds=(3, 8), largest=9)


@given(small_shoes)
def test_random_tiny_shoes_match_brute_force(punto_banco, shoe):
    names = ("winner", "player_pair", "banker_suited", "cards_dealt", "player_third")
    expected = brute_force(shoe, names)
    assert engine_counts(punto_banco, shoe, names, _key(names)) == expected


# Five examples: each direct walk of a ten-class shoe takes about a second, and the batch tests
# compare the compiled form with the direct enumerator on 250 more shoes.
@settings(max_examples=5)
@given(value_shoes())
def test_compiled_equals_direct_and_counts_sum_to_denominator(punto_banco, shoe):
    needs = punto_banco.needs(MAIN)
    direct = punto_banco.enumerate(needs, shoe)
    compiled = compiled_for(punto_banco, needs).distribution(shoe)
    assert direct.counts == compiled.counts
    assert sum(direct.counts.values()) == direct.total == falling(shoe.size, 6)


colour_preserving = st.permutations(SUITS).filter(  # C, S black; D, H red
    lambda order: {order[0], order[3]} in ({"C", "S"}, {"D", "H"}))


@given(card_shoes(copies=2, kinds=(4, 7)), colour_preserving)
def test_relabelling_suits_changes_nothing(punto_banco, shoe, order):
    """Suits are symmetric, up to colours: a colour-preserving relabelling is a symmetry."""
    relabel = dict(zip(SUITS, order, strict=True))
    counts = list(shoe.counts)
    moved = [0] * len(CARDS)
    for index, card in enumerate(CARDS):
        target = card if card.suit is None else type(card)(card.rank, relabel[card.suit])
        moved[CARDS.index(target)] += counts[index]
    names = ("winner", "player_pair", "banker_pair")
    assert (engine_counts(punto_banco, shoe, names, _key(names))
            == engine_counts(punto_banco, Shoe(tuple(moved)), names, _key(names)))


def test_smallest_shoe_and_too_small(punto_banco):
    shoe = Shoe.from_counts({"AS": 6})  # A-A vs A-A: both draw an ace, 3 against 3
    assert engine_counts(punto_banco, shoe, ["winner"], _key(["winner"])) == {("tie",): 720}
    for engine in ("direct", "compiled"):
        with pytest.raises(ShoeError, match="cannot deal a round"):
            engine_counts(punto_banco, Shoe.from_counts({"AS": 5}), ["winner"],
                          _key(["winner"]), engine)


def test_jokers_are_refused_by_punto_banco(punto_banco):
    with pytest.raises(ShoeError, match="no jokers"):
        engine_counts(punto_banco, Shoe.standard(1, jokers=1), ["winner"], _key(["winner"]))


CARD_LEVEL = ("player_card1_colour", "banker_card3_suit", "player_card3_rank",
              "first_four_nines", "first_four_hearts", "banker_reds", "dealt_blacks",
              "player_card2_value")


@settings(max_examples=5, deadline=None)
@given(small_shoes)
def test_card_level_vocabulary_matches_brute_force(punto_banco, shoe):
    """Each card by position and counts over groups, read by the direct engine, against the
    card-by-card reference reading the physical cards."""
    expected = brute_force(shoe, CARD_LEVEL)
    assert engine_counts(punto_banco, shoe, CARD_LEVEL, _key(CARD_LEVEL), "direct") == expected


def test_the_benchmarks_naive_enumerator_agrees_with_the_engine(punto_banco):
    """tests/support/naive_enumerator.py, the yardstick of `make bench` for a fresh analysis, counts
    what the engine counts (so the benchmark compares like with like)."""
    from exact.analysis.bet_analysis import analyze, game_bets

    from tests.support.naive_enumerator import count

    main = [bet for bet in game_bets(punto_banco) if bet.id in ("banker", "player", "tie")]
    result = analyze(punto_banco, Shoe.standard(1), main).bets["banker"]
    names = [event.name for event in result.bet.events]
    assert names == ["Banker wins", "Tie", "Player wins"]
    assert list(result.counts) == [count(1)[side] for side in ("banker", "tie", "player")]


def test_compiled_records_share_their_equal_hands(punto_banco):
    """The compile walk makes equal hands of different records one object (a Banker hand beside
    many Player hands), which keeps memory down and lets the disk cache encode each part once;
    every record the direct walk meets is there, part for part of the same types."""
    from exact.engines.compiled import CompiledDeal

    deal = punto_banco.deal(punto_banco.needs(["winner"]))
    compiled = CompiledDeal.compile(deal)
    parts = [part for record in compiled.records for part in record]
    assert len(set(compiled.records)) == len(compiled.records)
    assert len({id(part) for part in parts}) == len(set(parts)) < len(parts) // 10
    index = {record: record for record in compiled.records}
    small = Shoe.from_counts({"AS": 2, "AH": 1, "9D": 2, "KD": 2, "5C": 2, "5S": 1, "2H": 1})
    for record in enumerate_rounds(deal, small).counts:
        assert _types(index[record]) == _types(record)


def _types(value: object) -> object:
    """The types of a record's parts, all the way down (``True == 1``: equality cannot tell)."""
    if isinstance(value, tuple):
        return type(value), tuple(_types(part) for part in value)
    return type(value)


def test_compiled_records_keep_parts_that_compare_equal_across_types():
    """Only hands are shared: a record's flag and another record's number compare equal
    (``True == 1``) and must each keep their type."""
    from dataclasses import dataclass

    from exact.core.cards import Label, View
    from exact.core.enumerator import Draw
    from exact.engines.compiled import CompiledDeal

    @dataclass(frozen=True)
    class FlagAndNumber:
        """One card, recorded as (is it a ten?, its value's parity)."""

        round_cards: int = 1
        accepts_jokers: bool = False

        def start(self) -> tuple[Label, ...]:
            return ()

        def next_draw(self, state: tuple[Label, ...]) -> Draw | None:
            return None if state else Draw(View(()))  # values only

        def advance(self, state: object, labels: tuple[Label, ...]) -> tuple[Label, ...]:
            return labels

        def record(self, state: tuple[Label, ...]) -> tuple[object, ...]:
            value = state[0].value
            return (value == 0, value % 2)

    deal = FlagAndNumber()
    compiled = {record: record for record in CompiledDeal.compile(deal).records}
    direct = enumerate_rounds(deal, Shoe.standard(1)).counts
    assert len(compiled) == len(direct) == 3
    for record in direct:
        assert _types(compiled[record]) == _types(record) == (tuple, (bool, int))
