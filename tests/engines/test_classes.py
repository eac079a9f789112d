"""Class-by-class counting (exact/engines/classes.py, issue 30): the bets on counts of card
attributes and on attributes by position with the third cards, exact against the card-by-card
brute force (exact/reference/punto_banco.py) on small odd shoes, one shoe, batches and known
cards alike; the plan serves them on 1 to 8 decks."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze
from exact.core.cards import CARDS, Card, Shoe
from exact.engines import cache, classes
from exact.engines.batch import BetEvaluator
from exact.engines.batch_numbers import counts_matrix
from exact.engines.classes_evaluation import ClassArrays
from exact.engines.live import next_round
from exact.engines.plan import choose
from exact.errors import BetFileError, CacheWarning
from exact.model.bets import Bet, load_bets

from tests.analysis.test_counting import forced_brute_force_bets
from tests.engines.test_factorised import _reference_counts

BETS = Path(__file__).parents[1] / "data" / "attribute_bets.toml"
ISSUE_BETS = ("four-hearts", "all-hearts", "one-colour-tie-by-reds", "super-tie", "nine-of-spades")
# odd shoes: few distinct cards (the brute force branches on each), hearts, spades, a nine of
# spades, ties and third cards of both colours
SHOES = ("9S:2,9H:1,KH:2,5D:1,2C:2,AH:1,3H:1,6S:1",
         "QH:3,4H:2,4S:1,7D:2,8C:1,9S:1,AH:1,2H:1")


@pytest.fixture(scope="module")
def attribute_bets(punto_banco) -> dict[str, Bet]:
    return {bet.id: bet for bet in load_bets(BETS, punto_banco.features)}


@pytest.mark.parametrize("shoe_text", SHOES)
def test_the_issue_bets_match_the_brute_force(punto_banco, attribute_bets, shoe_text):
    """Four or more hearts, all hearts, the one-colour tie by reds, Super Tie and the
    Player's nine of spades: served by this engine, one shoe and a batch of that shoe and of
    it less a card, every count equal to the brute force's."""
    shoe = Shoe.parse(shoe_text)
    smaller = shoe.remove("9S" if "9S" in shoe_text else "AH")
    for bet_id in ISSUE_BETS:
        bet = attribute_bets[bet_id]
        assert choose(punto_banco, bet).engine == "classes"
        assert choose(punto_banco, bet, "batch").engine == "classes"
        expected = _reference_counts(bet, shoe)
        assert list(analyze(punto_banco, shoe, [bet]).bets[bet_id].counts) == expected
        batch = BetEvaluator(punto_banco, [bet]).counts([shoe, smaller])[bet_id]
        assert [list(row) for row in batch] == [expected, _reference_counts(bet, smaller)]


# Each set costs some 10 s of CPU (the engine compiles the five bets for its known positions,
# whatever the shoe): `5=KH` alone is `slow`, as `3=AH 5=9H` forces the Player's third card too.
@pytest.mark.parametrize("known", ["1=9S", pytest.param("5=KH", marks=pytest.mark.slow), "6=2C",
                                   "3=AH 5=9H"])
def test_known_cards_match_the_forced_brute_force(punto_banco, attribute_bets, known):
    """`edge --known`: the cards forced at their positions (first cards, third cards, two
    known), against the card-by-card brute force with the same cards forced."""
    shoe = Shoe.parse(SHOES[0])
    forced = {int(p): Card.parse(c) for p, c in (item.split("=") for item in known.split())}
    bets = [attribute_bets[bet_id] for bet_id in ISSUE_BETS]
    assert {choose(punto_banco, bet, "known").engine for bet in bets} == {"classes"}
    result = next_round(punto_banco, shoe, bets, known=forced)
    assert {bet_id: list(r.counts) for bet_id, r in result.items()} == \
        forced_brute_force_bets(shoe, forced, bets)


def test_a_full_shoe_matches_the_factorised_engine_where_both_serve(punto_banco,
                                                                    attribute_bets):
    """On 1 deck, where factorised counting walks its patterns in seconds: the same counts
    (two independent methods), and the batch form of 8 decks agrees with its one-shoe form."""
    from exact.engines import factorised

    shoe = Shoe.standard(1)
    for bet_id in ("super-tie", "nine-of-spades"):
        bet = attribute_bets[bet_id]
        assert classes.evaluate(punto_banco, [bet], shoe) == \
            factorised.evaluate(punto_banco, [bet], shoe)
    eight = Shoe.standard(8)
    bet = attribute_bets["four-hearts"]
    depleted = [eight, eight.remove("AH 2H 3H 4H 5H"), eight.remove("9S KD")]
    batch = classes.batch(punto_banco, [bet])(counts_matrix(depleted))[0]
    assert [list(row) for row in batch] == \
        [classes.evaluate(punto_banco, [bet], shoe)[0] for shoe in depleted]


@pytest.mark.parametrize("decks", [1, 8])
def test_no_refusal_of_the_issue_bets(punto_banco, attribute_bets, decks):
    """Every scope is served on 1 and 8 decks (the counts of 8 decks sum to the rounds, as the
    engine checks); the state reduction leaves four-hearts a cap of 3 misses or 4 hits, and
    all-hearts is counted by restrictions."""
    bets = [attribute_bets[bet_id] for bet_id in ISSUE_BETS]
    for scope in ("shoe", "batch", "known"):
        assert {choose(punto_banco, bet, scope).engine for bet in bets} == {"classes"}
    if decks == 8:  # the 1-deck counts are checked above against the factorised engine
        result = analyze(punto_banco, Shoe.standard(8), bets[:1])
        assert result.bets["four-hearts"].counts[0] == 87_836_633_562_432
    cards = _cards(Shoe.parse(SHOES[0]))
    compiled = classes._compiled(punto_banco, (attribute_bets["four-hearts"],), cards)
    assert compiled.states.tally_mode == [(True, 3)]  # 4 hearts or more: 3 misses or fewer
    assert compiled.form == classes.DENSE  # a trie of states: no signed sums
    # each hand all hearts or not: signed sums of restricted counts
    # (exact/engines/classes_restricted.py), no trie of states
    compiled = classes._compiled(punto_banco, (attribute_bets["all-hearts"],), cards)
    assert not hasattr(compiled, "states") and compiled.form == classes.RESTRICTED
    assert cast(ClassArrays, compiled.arrays).spread > 1


def _cards(shoe: Shoe) -> frozenset[Card]:
    return frozenset(CARDS[i] for i, count in enumerate(shoe.counts) if count)


def test_a_damaged_cache_entry_is_rebuilt(punto_banco, attribute_bets, tmp_path, monkeypatch):
    """An entry whose arrays index out of range is refused and rebuilt (one warning), the
    counts unchanged."""
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    classes._cached.cache_clear()
    bet = attribute_bets["nine-of-spades"]
    shoe = Shoe.parse(SHOES[1])
    first = classes.evaluate(punto_banco, [bet], shoe)
    key = classes.entry_key(punto_banco, (bet,), _cards(shoe))
    fields, arrays = cache.read_entry(cache.entry_path(key), key)
    cache.store(key, fields, {**arrays, "nodes": arrays["nodes"] + 10**6})
    classes._cached.cache_clear()
    with pytest.warns(CacheWarning, match="classes node out of range"):
        assert classes.evaluate(punto_banco, [bet], shoe) == first
    classes._cached.cache_clear()


TALLIES = ["dealt_hearts", "dealt_reds", "player_reds", "banker_blacks", "dealt_nines",
           "player_spades", "banker_hearts", "dealt_kings"]
POSITIONAL = ["player_card3_colour", "banker_card3_suit", "player_card1_suit",
              "banker_card2_rank", "player_card3_rank"]
VALUE = ["winner", "player_cards", "banker_cards", "cards_dealt", "player_total"]
LITERALS = {"colour": ["'red'", "'black'"], "suit": ["'H'", "'S'", "'D'", "'C'"],
            "rank": ["'9'", "'K'", "'A'"]}


@st.composite
def attribute_conditions(draw) -> str:
    """A random condition on tallies, cards by position and value features, combined with
    and/or/not (the twins branch generates the whole vocabulary: these are this engine's)."""
    def atom() -> str:
        kind = draw(st.sampled_from(("tally", "position", "value")))
        if kind == "tally":
            name = draw(st.sampled_from(TALLIES))
            op = draw(st.sampled_from(("==", ">=", "<")))
            other = draw(st.sampled_from([str(n) for n in range(4)] + ["player_cards"]))
            return f"{name} {op} {other}"
        if kind == "position":
            name = draw(st.sampled_from(POSITIONAL))
            literal = draw(st.sampled_from(LITERALS[name.rsplit("_", 1)[1]]))
            return f"{name} {draw(st.sampled_from(('==', '!=')))} {literal}"
        name = draw(st.sampled_from(VALUE))
        return {"winner": "winner == 'tie'", "player_cards": "player_cards == 3",
                "banker_cards": "banker_cards == 2", "cards_dealt": "cards_dealt >= 5",
                "player_total": "player_total > 4"}[name]

    condition = atom()
    for _ in range(draw(st.integers(0, 2))):
        joiner = draw(st.sampled_from(("and", "or")))
        negate = draw(st.booleans())
        condition = f"({condition}) {joiner} {'not ' if negate else ''}({atom()})"
    return condition


def random_bet(game, condition: str) -> Bet:
    """The bet paying 5 when ``condition`` holds (hypothesis passes over a condition that
    always or never holds: it is refused when loaded)."""
    text = (f'[[bet]]\nid = "random"\n[[bet.event]]\nname = "Win"\nwhen = "{condition}"\n'
            'pays = 5\n')
    try:
        bet, = load_bets("random.toml", game.features, text=text)
    except BetFileError:
        assume(False)
    return bet


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(condition=attribute_conditions(), shoe_text=st.sampled_from(SHOES))
def test_random_bets_on_attributes_match_the_brute_force(punto_banco, condition, shoe_text):
    """Random bets on tallies and cards by position with the third cards: one shoe and a
    batch, exact against the brute force."""
    bet = random_bet(punto_banco, condition)
    shoe = Shoe.parse(shoe_text)
    expected = _reference_counts(bet, shoe)
    # a bet on the first cards alone too (the plan sends it here past factorised counting's
    # pattern bound); not a bet on values alone
    if classes.refusal(punto_banco, [bet]) is not None:
        return
    assert classes.evaluate(punto_banco, [bet], shoe) == [expected]
    batch = classes.batch(punto_banco, [bet])(np.array(counts_matrix([shoe])))[0]
    assert [list(row) for row in batch] == [expected]
