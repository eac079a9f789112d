from __future__ import annotations

import pytest

from exact.core.cards import Card, Shoe, View
from exact.errors import CardError, ShoeError


@pytest.mark.parametrize(("text", "card"), [
    ("9H", Card("9", "H")), ("10h", Card("T", "H")), ("k♦", Card("K", "D")), ("x", Card("X")),
    ("A", Card("A")), ("joker", Card("X")),
])
def test_parse(text, card):
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["", "1X", "11", "ZH", "9Z9", "H"])
def test_unknown_cards(text):
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(text)


def test_standard_and_depleted_shoes():
    shoe = Shoe.standard(8, jokers=8)
    assert shoe.size == 424 and shoe.jokers == 8 and shoe.count("9") == 32
    depleted = shoe.remove("9H 9H X")
    assert depleted.count("9H") == 6 and depleted.jokers == 7 and depleted.size == 421
    assert shoe.size == 424  # immutable


def test_suitless_removal_takes_the_most_plentiful_suit():
    shoe = Shoe.standard(1).remove("5C 5")
    assert shoe.count("5") == 2 and shoe.count("5C") == 0 and shoe.count("5D") == 0


def test_from_counts_spreads_bare_ranks():
    shoe = Shoe.from_counts({"A": 6, "9H": 2})
    assert [shoe.count(f"A{s}") for s in "CDHS"] == [2, 2, 1, 1] and shoe.count("9H") == 2


@pytest.mark.parametrize("counts", [(-1,) * 53, (1,) * 52, (1.5,) * 53])
def test_invalid_counts(counts):
    with pytest.raises(ShoeError):
        Shoe(counts)


def test_views_partition_the_cards():
    for attributes in [(), ("rank",), ("colour",), ("suit",), ("rank", "suit")]:
        view = View(attributes)
        assert sorted(set(view.card_class)) == list(range(len(view.labels)))
    assert View(("suit",)).attributes == ("colour", "suit")
    assert View(("rank", "suit")).refines(View(("rank",)))
    assert not View(("rank",)).refines(View(("colour",)))
