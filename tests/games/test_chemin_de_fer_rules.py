"""Chemin de fer's rules record: House Way is read from the rules' own fields, so that a
``dataclasses.replace`` never leaves it stale, and it cannot be given beside them."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from exact.errors import RuleError
from exact.games.chemin_de_fer.rules import RULES, Rules


def test_house_way_follows_a_replaced_field():
    """The Player's drawing totals, the naturals and the Banker's House Way rows all reach
    House Way's tableau after a replace (it used to keep the loaded tableau's)."""
    rules = dataclasses.replace(RULES, player_draws_on=frozenset({0, 1, 2, 3}),
                                player_stands_on=frozenset({4, 6, 7}))
    assert rules.house_way.player_draws_on == {0, 1, 2, 3, 5}
    assert rules.house_way.player_draws(4) is False
    stands = dataclasses.replace(RULES, house_banker_draws_when_player_stands=frozenset(range(5)))
    assert stands.house_way.banker_draws(5, None) is False
    assert RULES.house_way.banker_draws(5, None) is True
    rows = {**RULES.house_banker_draws_on_player_third, 8: frozenset({1})}
    eight = dataclasses.replace(RULES, naturals=frozenset({9}),
                                player_stands_on=frozenset({6, 7, 8}),
                                house_banker_draws_on_player_third=rows)
    assert eight.house_way.naturals == {9} and eight.house_way.banker_draws(8, 1)


def test_a_replace_that_leaves_house_way_without_a_row_is_refused():
    """8 is no natural any more, and House Way has no row for a Banker's 8: a typed error at
    once, not a KeyError when the Banker first decides on 8."""
    with pytest.raises(RuleError, match="no entry for banker total"):
        dataclasses.replace(RULES, naturals=frozenset({9}),
                            player_stands_on=frozenset({6, 7, 8}))


def test_house_way_is_not_given_beside_the_fields_that_make_it():
    fields = {f.name: getattr(RULES, f.name) for f in dataclasses.fields(RULES)}
    assert "house_way" not in fields
    with pytest.raises(TypeError, match="house_way"):
        Rules(**fields, house_way=RULES.house_way)
    assert Rules(**fields) == RULES and Rules(**fields).house_way == RULES.house_way


def test_the_rules_survive_pickling_with_their_house_way():
    again = pickle.loads(pickle.dumps(RULES))
    assert again == RULES and hash(again) == hash(RULES)
    assert again.house_way == RULES.house_way
