"""Cards known at positions of the next round (exact/engines/live.py) against a plain
enumeration of every ordered sequence of six physical cards with the known cards at their
positions, for every shipped bet of Punto Banco and NINE & NINES and the card-level examples:
single and paired known positions 1-6, small and odd shoes. A known card at a position the
round does not deal (position 5 of a four-card round) is the card there in the shoe's order:
it is not dealt, and it is not among the cards dealt either.

Every path is compared: the shoe without a known card the bets' deal never fills (Perfect Pairs
or NINES with card 5 or 6 known), the staged event grids with the known cards in their groups,
the walk of the bets' deal, factorised counting with the cards forced; and at 8 decks the bets
on fixed groups take the fast paths (the walk of 1,378 x 1,378 pairs of hands took half a
minute to a minute)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import game_bets
from exact.core.cards import CARDS, Card, Shoe
from exact.engines import forced, staged
from exact.engines.live import next_round
from exact.errors import KnownCardError, ShoeError
from exact.games import get_game
from exact.games.baccarat.reference import FEATURES, play
from exact.games.nine_and_nines.reference import NINE_EVENTS, NINES_EVENTS, nine_tier, nines_tier
from exact.model.settling import values_only

PUNTO = get_game("punto-banco")
NINES = get_game("nine-and-nines")
DATA = Path(__file__).parents[1] / "data"
# the card-level examples, and bets on both first pairs that tell the Player's hand from the
# Banker's (the shipped ones read both alike: a known card in the wrong group would not show)
BETS = {"punto-banco": game_bets(PUNTO, [DATA / "card_level_bets.toml",
                                         DATA / "two_group_bets.toml",
                                         DATA / "value_level_bets.toml"]),
        "nine-and-nines": game_bets(NINES)}
GAMES = {"punto-banco": PUNTO, "nine-and-nines": NINES}
# a few ranks in several suits: pairs, perfect pairs, suited nines, ten-value cards, naturals
POOL = ["9H", "9D", "9S", "KD", "KC", "QH", "TD", "5S", "5H", "4H", "AD", "2C", "3C", "6D"]


def _reference_event(bet, player: list[Card], banker: list[Card]) -> int:
    """The bet's event for a round played by the reference tableau: NINE and NINES by the
    reference tiers of the first two cards of each hand, any other bet by the reference
    features."""
    names = [event.name for event in bet.events]
    if bet.id in ("nine-player", "nine-banker", "nines"):
        if bet.id == "nines":
            name = NINES_EVENTS.get(nines_tier(player[:2], banker[:2]))
        else:
            name = NINE_EVENTS.get(nine_tier((player if bet.id == "nine-player" else banker)[:2]))
        return names.index(name) if name else len(names) - 1
    return bet.settle({name: FEATURES[name](player, banker) for name in bet.features})


def plain_counts(cards: list[Card], known: dict[int, Card], bets) -> dict[str, list[int]]:
    """Per bet, its event counts over every ordered sequence of six physical cards of
    ``cards`` with each known card (one physical card) at its position: the other positions
    are the permutations of the other physical cards (equal cards told apart), the round
    played by the reference tableau from the sequence's top, what it does not deal unread."""
    rest = list(cards)
    for card in known.values():
        rest.remove(card)
    free = [position for position in range(1, 7) if position not in known]
    settled: dict[tuple[tuple[Card, ...], tuple[Card, ...]], tuple[int, ...]] = {}
    out = {bet.id: Counter() for bet in bets}
    for chosen in permutations(rest, len(free)):
        at = {**dict(zip(free, chosen, strict=True)), **known}
        player, banker = play([at[position] for position in range(1, 7)])
        key = (tuple(player), tuple(banker))
        if key not in settled:
            settled[key] = tuple(_reference_event(bet, player, banker) for bet in bets)
        for bet, event in zip(bets, settled[key], strict=True):
            out[bet.id][event] += 1
    return {bet.id: [out[bet.id][event] for event in range(len(bet.events))] for bet in bets}


def _shoe(cards: list[Card]) -> Shoe:
    return Shoe(tuple(cards.count(card) for card in CARDS))


def _check(game_id: str, cards: list[Card], known: dict[int, Card]) -> None:
    bets = BETS[game_id]
    result = next_round(GAMES[game_id], _shoe(cards), bets, known)
    expected = plain_counts(cards, known, bets)
    assert {bet.id: list(result[bet.id].counts) for bet in bets} == expected
    assert all(result[bet.id].total == sum(expected[bet.id]) for bet in bets)


@settings(max_examples=20, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)),
       cards=st.lists(st.sampled_from(POOL), min_size=7, max_size=9),
       positions=st.lists(st.integers(1, 6), min_size=1, max_size=2, unique=True),
       picks=st.lists(st.integers(0, 8), min_size=2, max_size=2))
def test_known_cards_match_the_plain_enumeration(game_id, cards, positions, picks):
    """Any small shoe (7-9 physical cards, some repeated), one or two known positions among
    1-6 (each holding one of the shoe's physical cards)."""
    physical = [Card.parse(text) for text in cards]
    left = list(physical)
    known = {}
    for position, pick in zip(positions, picks, strict=False):
        known[position] = left.pop(pick % len(left))
    _check(game_id, physical, known)


ODD = "9H 9H 9D KD KD KC 5S 2C"  # two identical nines and kings: perfect pairs, suited twins


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("known", ["1=9H", "2=KD", "3=9D", "4=KC", "5=9H", "6=KD", "5=9H 6=KD",
                                   "1=9H 5=KD", "2=KD 4=9D", "3=9H 6=2C"])
def test_every_position_on_an_odd_shoe(game_id, known):
    """Every single position and pairs of them on one odd shoe: the known card at 5 or 6 is
    beyond the four cards of Perfect Pairs and NINES (their counts are those of the shoe
    without it), and within the third cards of the main bets."""
    cards = [Card.parse(text) for text in ODD.split()]
    forced = {int(p): Card.parse(c) for p, c in (item.split("=") for item in known.split())}
    _check(game_id, cards, forced)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_shoe_of_exactly_one_round(game_id):
    """Six cards and a card known beyond the first four: the shoe without it cannot deal a
    whole round, so the known card is counted in place (the staged grids), still exactly."""
    cards = [Card.parse(text) for text in ("9H", "9D", "KD", "KC", "5S", "2C")]
    _check(game_id, cards, {5: cards[0]})
    _check(game_id, cards, {6: cards[3], 5: cards[4]})


@pytest.fixture
def walked(monkeypatch) -> list[str]:
    """The ids of the bets sent to the walk of their deal (``forced._forced_on_deal``)."""
    sent: list[str] = []
    original = forced._forced_on_deal

    def spy(game, rest, bets, known):
        sent.extend(bet.id for bet in bets)
        return original(game, rest, bets, known)

    monkeypatch.setattr(forced, "_forced_on_deal", spy)
    return sent


def test_the_bets_on_fixed_groups_take_the_fast_paths_at_eight_decks(walked):
    """Perfect Pairs and NINES at 8 decks, a card known at every position 1-6 and at 5 and 6
    together: never the walk of their deal; each answer checked by the identity below."""
    shoe = Shoe.standard(8)
    for game, bet_id in ((PUNTO, "perfect-pairs"), (NINES, "nines")):
        bet = next(b for b in game_bets(game) if b.id == bet_id)
        for known in ({1: Card.parse("9D")}, {3: Card.parse("KD")}, {4: Card.parse("9D")},
                      {5: Card.parse("9D")}, {6: Card.parse("2C")},
                      {5: Card.parse("9D"), 6: Card.parse("9D")}):
            result = next_round(game, shoe, [bet], known)[bet_id]
            assert sum(result.counts) == result.total
    assert walked == []


@pytest.mark.parametrize("position", [1, 4, 5, 6])
def test_known_cards_at_a_position_average_to_the_round(position):
    """Whatever position is known, the counts for each card there, weighted by how many the
    shoe holds, add up to the counts of the round with nothing known (every ordered round
    counted once, by the card at that position): one deck, Perfect Pairs, NINES and NINE on
    their fast paths (the bets the walk serves are left to the plain enumeration: a walk per
    card of a deck takes minutes)."""
    shoe = Shoe.standard(1).remove("9D 9S KC 5H 2S 2D")
    for game in (PUNTO, NINES):
        bets = [b for b in game_bets(game)
                if b.id in ("perfect-pairs", "player-pair", "nines", "nine-player")]
        overall = next_round(game, shoe, bets)
        summed = {bet.id: Counter() for bet in bets}
        for index, count in enumerate(shoe.counts):
            if count:
                forced = next_round(game, shoe, bets, {position: CARDS[index]})
                for bet in bets:
                    for event, value in enumerate(forced[bet.id].counts):
                        summed[bet.id][event] += count * value
        for bet in bets:
            assert [summed[bet.id][e] for e in range(len(bet.events))] == \
                list(overall[bet.id].counts), bet.id


def test_a_grid_too_costly_to_read_is_left_to_the_walk():
    """The nines-by-suit bet reads both hands' suits: its event grid would read 2.7 million
    pairs of hands, so a card known in its groups is walked (about a second at 8 decks)."""
    bet = next(b for b in BETS["punto-banco"] if b.id == "four-nines")
    evaluator = staged.staged_deal(PUNTO, PUNTO.deal(PUNTO.needs(bet.features)))
    assert evaluator.cross_reads(bet) > forced.GRID_READS
    nines = next(b for b in BETS["nine-and-nines"] if b.id == "nines")
    deal = NINES.deal(NINES.needs(nines.features))
    assert staged.staged_deal(NINES, deal).cross_reads(nines) <= forced.GRID_READS


def test_the_costly_grid_is_walked_and_the_cheap_one_read(walked):
    """The cut-off acts: with the first card known (one deck, where the walk is quick) the
    nines-by-suit bet goes to the walk of its deal and NINES does not."""
    known = {1: Card.parse("9H")}
    four_nines = next(b for b in BETS["punto-banco"] if b.id == "four-nines")
    next_round(PUNTO, Shoe.standard(1), [four_nines], known)
    nines = next(b for b in BETS["nine-and-nines"] if b.id == "nines")
    next_round(NINES, Shoe.standard(1), [nines], known)
    assert walked == ["four-nines"]


def test_the_bets_on_values_share_one_walk(monkeypatch):
    """The value-level bets (the shipped ones and a file's, their pairs ordered or not: several
    deals) are walked once, on the deal serving them all, and count as each walked alone on
    its own deal."""
    bets = [b for b in BETS["punto-banco"] if values_only(PUNTO, b)]
    assert len({PUNTO.deal(PUNTO.needs(b.features)) for b in bets}) >= 5
    shoe, known = Shoe.standard(1), {1: Card.parse("9H"), 3: Card.parse("KD")}
    original = forced._forced_on_deal
    calls = []
    monkeypatch.setattr(forced, "_forced_on_deal", lambda *args: calls.append(args) or
                        original(*args))
    shared = next_round(PUNTO, shoe, bets, known)
    # one walk (the bets on one hand's first two cards are read off their event grids)
    assert len(calls) == 1
    assert len({PUNTO.deal(PUNTO.needs(b.features)) for b in calls[0][2]}) >= 4
    rest = shoe.remove(list(known.values()))
    for bet in bets:
        alone = original(PUNTO, rest, [bet], known)[bet.id]
        assert (shared[bet.id].counts, shared[bet.id].total) == (alone.counts, alone.total)


@pytest.mark.parametrize(("game", "bet_id", "known", "decks"), [
    (NINES, "nines", {3: Card.parse("KD")}, 8),
    # 10**20 decks: every class count is past int64's limit, so the grid read uses exact ints
    (PUNTO, "perfect-pairs", {1: Card.parse("9H")}, 10**20),
], ids=["nines-8-decks", "perfect-pairs-1e20-decks"])
def test_the_grid_read_agrees_with_the_walk_of_the_deal(game, bet_id, known, decks):
    """The fast path (the bet's event grid read over the hands holding the known card) and the
    walk of the deal with the card forced (slow, every round visited) give the same counts."""
    bet = next(b for b in game_bets(game) if b.id == bet_id)
    shoe = Shoe.standard(decks)
    fast = next_round(game, shoe, [bet], known)[bet_id]
    walked = forced._forced_on_deal(game, shoe.remove(list(known.values())), [bet], known)[bet_id]
    assert (fast.counts, fast.total) == (walked.counts, walked.total)



@pytest.mark.parametrize("bet_id", ["tie", "perfect-pairs"])  # the walk and the grid read
@pytest.mark.parametrize(("known", "shoe", "error", "message"), [
    ({5: "X"}, "AH:4,KS:4,X:1", KnownCardError, "known card X at position 5: this game has no"),
    ({1: "X"}, "AH:4,KS:4,X:1", KnownCardError, "known card X at position 1: this game has no"),
    ({5: "9H"}, "9H:1,K:4", ShoeError, "5 unseen cards (1 known) cannot fill a round of 6"),
    ({1: "9H", 2: "KD"}, "9H:1,KD:1,A:3", ShoeError,
     "5 unseen cards (2 known) cannot fill a round of 6"),
])
def test_known_cards_the_round_cannot_hold_are_refused(bet_id, known, shoe, error, message):
    """A joker known in a game without jokers would be dealt as some card's value; a shoe too
    small is refused counting the known cards among the unseen, as the user counts them."""
    bet = next(b for b in game_bets(PUNTO) if b.id == bet_id)
    with pytest.raises(error, match=re.escape(message)):
        next_round(PUNTO, Shoe.parse(shoe), [bet], {p: Card.parse(c) for p, c in known.items()})
