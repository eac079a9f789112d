"""The one baccarat coup on the decision protocol (exact.games.baccarat.tree): its sequence form
against a card-by-card walk of physical cards (with and without replacement, with and without
templates), and Punto Banco's compiled tableau deal against the generic fixed-strategy deal of
the same coup, on random tableaux and dealing plans."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.core.cards import CARDS, Card, Shoe, View
from exact.core.enumerator import enumerate_rounds
from exact.engines.decisions import decision_table
from exact.engines.fixed_strategy import StrategyDeal
from exact.games.baccarat.coup import Rules, house_way, plan_deal, tableau_coup
from exact.games.baccarat.tree import ACTIONS, Coup, hand_total, house_choices
from exact.model.features import Needs

SMALL = "AS:1,5H:2,9C:1,KD:1,3C:1,7H:1"  # seven cards: naturals, draws and stands all occur


def _cards(text: str) -> list[Card]:
    shoe = Shoe.parse(text)
    return [card for card, count in zip(CARDS, shoe.counts, strict=True) for _ in range(count)]


def _walk(coup: Coup, dealt: tuple[Card, ...]) -> list[tuple[tuple, str]]:
    """Every (sequence pair, winner) of the coup on six physical cards in dealing order,
    branching on every choice; the sets written out from the rules of the game."""
    points = [card.points for card in dealt]
    player, banker = [points[0], points[2]], [points[1], points[3]]
    found = []

    def tag(hand: list[int], cards: bool) -> object:
        return tuple(sorted(hand[:2])) if cards else sum(hand[:2]) % 10

    def end(player: list[int], banker: list[int], sequences: tuple) -> None:
        p, b = sum(player) % 10, sum(banker) % 10
        found.append((sequences, "player" if p > b else "banker" if b > p else "tie"))

    def banker_turn(player: list[int], drew: bool, own: tuple) -> None:
        third = player[2] if drew else None
        infoset = ("banker", tag(banker, coup.information != "totals"), third)
        end(player, banker, (own, ((infoset, "stand"),)))
        end(player, banker + [points[5 if drew else 4]], (own, ((infoset, "draw"),)))

    total = sum(player) % 10
    if total in coup.naturals or sum(banker) % 10 in coup.naturals:
        end(player, banker, ((), ()))
        return found
    if total in coup.player_chooses_on:
        infoset = ("player", tag(player, coup.information == "cards"))
        choices = [(((infoset, action),), action == "draw") for action in ACTIONS]
    else:
        choices = [((), total in coup.player_draws_on)]
    for own, draws in choices:
        banker_turn(player + [points[4]] if draws else player, draws, own)
    return found


def _brute_force(coup: Coup, text: str, replacement: bool) -> dict:
    cards = _cards(text)
    sequences = product(cards, repeat=6) if replacement else permutations(cards, 6)
    out: dict = {}
    for dealt in sequences:
        for pair, winner in _walk(coup, dealt):
            out.setdefault(pair, Counter())[winner] += 1
    return {pair: dict(counts) for pair, counts in out.items()}


@dataclass(frozen=True)
class Untemplated(Coup):
    def future(self, state: object) -> None:
        return None


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("information", ["totals", "banker-cards", "cards"])
def test_the_sequence_form_counts_every_card_sequence_of_physical_cards(replacement,
                                                                        information) -> None:
    """Every ordered six-card sequence of a small shoe (every one of the 7**6 with
    replacement), dealt card by card and played out on every choice: the walk's counts,
    with its templates and without."""
    coup = Coup(frozenset({8, 9}), frozenset({0, 1, 2, 3, 4}), frozenset({5}), information)
    shoe = Shoe.parse(SMALL)
    table = decision_table(coup, shoe, replacement)
    assert table.total == (7**6 if replacement else 7 * 6 * 5 * 4 * 3 * 2)
    assert table.entries == _brute_force(coup, SMALL, replacement)
    plain = decision_table(Untemplated(coup.naturals, coup.player_draws_on,
                                       coup.player_chooses_on, information), shoe, replacement)
    assert plain == table


def test_the_sequence_form_with_replacement_is_the_limit_of_ever_more_decks() -> None:
    """With replacement each card is one of the shoe's proportions: ``13**6`` sequences from
    one card of each rank, and counts that scale with the shoe (a shoe of twice every card has
    every count times ``2**6``)."""
    coup = Coup(frozenset({8, 9}), frozenset(range(5)), frozenset({5}), "banker-cards")
    ranks = Shoe.parse(",".join(f"{rank}:1" for rank in "A23456789TJQK"))
    doubled = Shoe.parse(",".join(f"{rank}:2" for rank in "A23456789TJQK"))
    once, twice = (decision_table(coup, shoe, replacement=True) for shoe in (ranks, doubled))
    assert once.total == 13**6 and twice.total == 26**6
    assert twice.entries == {pair: {o: c * 2**6 for o, c in counts.items()}
                             for pair, counts in once.entries.items()}


_TOTALS = st.frozensets(st.integers(0, 9))


@st.composite
def tableaux(draw: st.DrawFn) -> Rules:
    naturals = draw(st.frozensets(st.integers(6, 9), min_size=1))
    return Rules("random", "random", naturals,
                 draw(_TOTALS).difference(naturals), draw(_TOTALS),
                 {total: draw(_TOTALS) for total in range(10) if total not in naturals})


PLANS = [Needs.of(draws=[]), Needs.of(player=["rank"], draws=[]),
         Needs.of(player=["suit", "order"], banker=["rank"], draws=["colour"]),
         Needs.of(banker=["rank", "suit"]), Needs.of(player=[], banker=[])]


@settings(max_examples=25, deadline=None)
@given(tableaux(), st.sampled_from(PLANS))
def test_the_compiled_tableau_deal_is_the_coup_under_the_tableau(rules, needs) -> None:
    """Punto Banco's deal (the tableau compiled into the coup's steps) against the generic
    fixed-strategy deal of the same coup under the same strategies: the same rounds, counted
    alike, whatever the tableau and the dealing plan."""
    fast = plan_deal(rules, needs)
    coup = Coup(fast.naturals, fast.player_draws_on, fast.player_chooses_on, fast.information,
                fast.order, fast.views, fast.draws, fast.ordered)
    generic = StrategyDeal(coup, house_choices(tableau_coup(rules), house_way(rules)))
    shoe = Shoe.parse("AS:2,5H:2,9C:1,KD:2,3C:1,7H:1,6D:1")
    assert enumerate_rounds(fast, shoe).counts == enumerate_rounds(generic, shoe).counts
    assert fast.fixed_stages == coup.fixed_stages


def _played_by_the_rules(rules: Rules, dealt: tuple[Card, ...]) -> tuple[int, int, int, int]:
    """(Player's total, Banker's total, cards each) of six physical cards in dealing order,
    played from the rule record's own fields: no coup, no strategies, no House Way."""
    points = [card.points for card in dealt]
    player, banker = [points[0], points[2]], [points[1], points[3]]
    rest = iter(points[4:])
    if sum(player) % 10 not in rules.naturals and sum(banker) % 10 not in rules.naturals:
        third = None
        if sum(player) % 10 in rules.player_draws_on:
            third = next(rest)
            player.append(third)
        total = sum(banker) % 10
        if (total in rules.banker_draws_when_player_stands if third is None
                else third in rules.banker_draws_on_player_third[total]):
            banker.append(next(rest))
    return sum(player) % 10, sum(banker) % 10, len(player), len(banker)


@settings(max_examples=20, deadline=None)
@given(tableaux())
def test_the_tableau_deal_plays_every_tableau_as_a_card_by_card_brute_force(rules) -> None:
    """Punto Banco's deal on a random tableau against every ordered six cards of a small shoe
    played from the rule record directly: the test above holds the deal equal to the generic
    fixed-strategy deal under House Way's strategies, this one holds those strategies (the
    Player's choice on 5, the Banker's at every point) to be the tableau itself."""
    expected = Counter(_played_by_the_rules(rules, dealt)
                       for dealt in permutations(_cards(SMALL), 6))
    found: Counter = Counter()
    for (player, banker), count in enumerate_rounds(plan_deal(rules, Needs.of(draws=[])),
                                                    Shoe.parse(SMALL)).counts.items():
        found[hand_total(player), hand_total(banker), len(player), len(banker)] += count
    assert found == expected


def test_the_tableau_is_the_player_choosing_on_five_and_the_banker_at_every_point() -> None:
    rules = Rules.load()
    coup = tableau_coup(rules, views={stage: View() for stage in ("player", "banker", "draws")})
    assert coup.player_chooses_on == {5} and coup.player_draws_on == {0, 1, 2, 3, 4}
    player, banker = house_choices(coup, house_way(rules))
    assert player == ((("player", 5), "draw"),)
    assert dict(banker)[("banker", 3, 8)] == "stand" and dict(banker)[("banker", 3, 9)] == "draw"
    assert dict(banker)[("banker", 6, None)] == "stand" and ("banker", 8, None) not in dict(banker)
