"""Factorised counting (exact.engines.factorised) against the card-by-card brute force, on small and
odd shoes: bets on single cards by position, counts of ranks and suits over groups, third
cards' suits and colours of all six cards."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.engines import factorised
from exact.engines.plan import factorised_serves
from exact.games.baccarat.reference import brute_force
from exact.model.bets import Bet, load_bets

from tests.support.shoes import card_shoes

BET_FILE = Path(__file__).parents[1] / "data" / "card_level_bets.toml"


@pytest.fixture(scope="module")
def card_bets(punto_banco):
    return load_bets(BET_FILE, punto_banco.features)


def _reference_counts(bet: Bet, shoe: Shoe) -> list[int]:
    """Event counts read off the brute force's per-round feature values."""
    names = sorted(bet.features)
    counts = [0] * len(bet.events)
    for values, count in brute_force(shoe, names).items():
        counts[bet.settle(dict(zip(names, values, strict=True)))] += count
    return counts


# odd shoes: few ranks, many nines, one suit, a lone colour
ODD = {
    "nines and tens, two suits": Shoe.from_counts({"9H": 2, "9S": 2, "TH": 1, "KD": 1, "4C": 1}),
    "one suit": Shoe.from_counts({"9H": 2, "3H": 1, "5H": 1, "KH": 2, "7H": 1}),
    "mixed values": Shoe.from_counts({"AS": 1, "2H": 1, "6D": 1, "4C": 1, "9S": 1, "QH": 1,
                                      "3D": 1}),
}


@pytest.mark.parametrize("shoe_name", sorted(ODD))
def test_card_level_bets_match_brute_force_on_odd_shoes(punto_banco, card_bets, shoe_name):
    shoe = ODD[shoe_name]
    for bet in card_bets:
        counts = factorised.evaluate(punto_banco, [bet], shoe)[0]
        assert sum(counts) == falling(shoe.size, 6)
        assert counts == _reference_counts(bet, shoe), bet.id


small_shoes = card_shoes(copies=3, kinds=(3, 7), largest=8)


@settings(max_examples=8, deadline=None)
@given(small_shoes, st.integers(0, 3))
def test_card_level_bets_match_brute_force_on_random_shoes(punto_banco, card_bets, shoe, which):
    bet = card_bets[which]
    assert factorised.evaluate(punto_banco, [bet], shoe)[0] == _reference_counts(bet, shoe)


FINE_WITH_DRAWS = [
    ("pair-tie", "player_pair == 'perfect' and winner == 'tie'"),
    ("reds-and-total", "player_reds == 3 and banker_total > 5"),
    ("suited-and-colour", "all_same_color and player_suited and banker_suited"),
    ("third-colour", "player_card3_colour == 'red' or banker_card2_rank == 'K'"),
]


@pytest.mark.parametrize("bet_id,condition", FINE_WITH_DRAWS)
def test_mixed_value_and_card_features_match_brute_force(punto_banco, bet_id, condition):
    text = (f'[[bet]]\nid = "{bet_id}"\n[[bet.event]]\nname = "Win"\n'
            f'when = "{condition}"\npays = 5\n')
    bet, = load_bets("inline.toml", punto_banco.features, text=text)
    for shoe in ODD.values():
        assert factorised.evaluate(punto_banco, [bet], shoe)[0] == _reference_counts(bet, shoe)


def test_analyze_serves_card_level_bets_with_third_cards_by_factorised_counting(
        punto_banco, card_bets):
    """`analyze` (and so bet validation) picks the factorised engine for such bets."""
    shoe = ODD["one suit"]
    bet = card_bets[2]
    assert factorised_serves(punto_banco, punto_banco.needs(bet.features))
    assert not factorised_serves(punto_banco, punto_banco.needs(["winner"]))
    assert list(analyze(punto_banco, shoe, [bet]).bets[bet.id].counts) == \
        _reference_counts(bet, shoe)


def test_the_plan_weighs_factorised_counting_against_the_staged_evaluator(punto_banco,
                                                                        card_bets):
    """A bet on the first cards read in unordered pairs goes to factorised counting when a
    feature reads both hands and its patterns are fewer than the pairs of hands the staged
    evaluator settles (the nines-by-suit bet), else to the staged evaluator (Perfect Pairs:
    per-hand features; NINES: more patterns than pairs of hands), in `analyze` and in
    batches alike; the pattern count the rule reads without a walk is the walk's own."""
    from exact.analysis.bet_analysis import game_bets
    from exact.engines.plan import choose
    from exact.games import get_game

    nine_game = get_game("nine-and-nines")
    four_nines = next(bet for bet in card_bets if bet.id == "four-nines")
    pairs = next(bet for bet in game_bets(punto_banco) if bet.id == "perfect-pairs")
    nines = next(bet for bet in game_bets(nine_game) if bet.id == "nines")
    for scope in ("shoe", "batch"):
        assert choose(punto_banco, four_nines, scope).engine == "factorised"
        assert choose(punto_banco, pairs, scope).engine == "staged"
        assert choose(nine_game, nines, scope).engine == "staged"
    assert "341,055 patterns" in choose(punto_banco, four_nines).reason
    for game, bet in ((punto_banco, four_nines), (punto_banco, pairs), (nine_game, nines)):
        compiled = factorised.FactorisedBet(game, (bet,), factorised.DECK, compile=False)
        walked = compiled._patterns(compiled._keys(game), compiled._by_value())
        assert compiled.patterns(game) == walked


def test_value_walk_counts_every_round_once(punto_banco):
    """The backbone: ordered and unordered value walks stand for the same rounds."""
    values = frozenset({0, 4, 9})
    ordered = factorised.value_sequences(punto_banco, True, values)
    unordered = factorised.value_sequences(punto_banco, False, values)
    assert sum(m for _, m in ordered) == sum(m for _, m in unordered)
    assert len(ordered) > len(unordered)
    assert Counter(m for _, m in ordered) == Counter({1: len(ordered)})


def test_a_bet_past_the_pattern_limit_is_refused_before_its_walk(punto_banco, monkeypatch,
                                                                 tmp_path, capsys):
    """Bounded compilation: past PATTERN_LIMIT the engine refuses, naming the bet and the
    measured count against the limit (TooFine, an EngineError), before walking any pattern;
    `analyze` passes the refusal on (no compiled walk of minutes and gigabytes), and the
    command line prints it on one line with exit status 2."""
    from exact.cli.app import main
    from exact.errors import EngineError

    monkeypatch.setattr(factorised, "PATTERN_LIMIT", 10)
    factorised._compiled_bet.cache_clear()
    text = ('[[bet]]\nid = "hearts"\n[[bet.event]]\nname = "Win"\n'
            'when = "dealt_hearts >= 2 and winner == \'tie\'"\npays = 5\n')
    bet, = load_bets("inline.toml", punto_banco.features, text=text)
    shoe = ODD["nines and tens, two suits"]
    try:
        with pytest.raises(factorised.TooFine, match=r"bet hearts .* patterns of card classes "
                                                     r"\(at most 10\)"):
            factorised.evaluate(punto_banco, [bet], shoe)
        # (auto serves this bet by class-by-class counting: factorised asked by name)
        with pytest.raises(EngineError, match="bet hearts"):
            analyze(punto_banco, shoe, [bet], engine="factorised")
        bet_file = tmp_path / "hearts.toml"
        bet_file.write_text(text)
        assert main(["analyze", "punto-banco", "--shoe", "9H:2,9S:2,TH:1,KD:1,4C:1", "--bets",
                     str(bet_file), "--bet", "hearts", "--engine", "factorised"]) == 2
        error = capsys.readouterr().err.strip()
        assert len(error.splitlines()) == 1 and "hearts" in error and "at most 10" in error
    finally:
        factorised._compiled_bet.cache_clear()


def test_batch_evaluator_serves_card_level_bets_exactly(punto_banco, card_bets):
    """`eor`, `simulate` and `edge` (the batch evaluator) count bets by position and with the
    third cards through the same plan as `analyze`: factorised counting, exact against the
    brute force on the odd shoes (compiled for the cards each batch holds, as `analyze` of the
    shoe is: the tests above leave those compiled forms in memory)."""
    from exact.engines.batch import BetEvaluator, batch_path
    from exact.engines.plan import plan

    inline = "".join(f'[[bet]]\nid = "{bet_id}"\n[[bet.event]]\nname = "Win"\n'
                     f'when = "{condition}"\npays = 5\n' for bet_id, condition in FINE_WITH_DRAWS)
    bets = list(card_bets)  # the nines-by-suit bet too: the plan's cost rule below
    bets += load_bets("inline.toml", punto_banco.features, text=inline)
    # the bets with the third cards that read tallies or cards by position: class by class
    assert {batch_path(punto_banco, bet) for bet in bets} <= {"factorised", "classes"}
    assert [choice.engine for choice in plan(punto_banco, bets, "batch").choices] == [
        choice.engine for choice in plan(punto_banco, bets, "shoe").choices]
    for bet in bets:
        evaluator = BetEvaluator(punto_banco, [bet])
        for name, shoe in ODD.items():
            counts = evaluator.counts([shoe])[bet.id]
            assert [int(c) for c in counts[0]] == _reference_counts(bet, shoe), (bet.id, name)


def test_edge_command_on_a_card_level_bet(punto_banco, card_bets, tmp_path, capsys):
    """The `edge` command (the batch evaluator) on a bet by position, small shoe: its exact
    counts and edge equal the brute force's."""
    import json
    from fractions import Fraction

    from exact.cli.app import main

    seen = tmp_path / "seen.txt"
    seen.write_text("")
    assert main(["edge", "punto-banco", "--shoe", "9H:2,9S:2,TH:1,KD:1,4C:1", "--seen",
                 str(seen), "--bets", str(BET_FILE), "--bet", "suited-third-cards",
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)["bets"]["suited-third-cards"]
    bet = next(b for b in card_bets if b.id == "suited-third-cards")
    counts = _reference_counts(bet, ODD["nines and tens, two suits"])
    assert [int(c) for c in printed["counts"]] == counts and any(counts[:-1])
    edge = sum(e.pays * c for e, c in zip(bet.events, counts, strict=True)) / sum(counts)
    assert -Fraction(printed["house_edge"]["exact"]) == edge


def test_design_command_on_a_card_level_bet(card_bets, capsys):
    """The designer solves a card-level bet (third cards' suits) through the same plan: its
    probabilities are the brute force's, and the solved pay gives the target edge exactly."""
    import json
    from fractions import Fraction

    from exact.cli.app import main

    assert main(["design", "punto-banco", "--shoe", "9H:2,9S:2,TH:1,KD:1,4C:1", "--bets",
                 str(BET_FILE), "--bet", "suited-third-cards", "--solve-for", "suited",
                 "--target-edge", "5%", "--json"]) == 0
    design = json.loads(capsys.readouterr().out)
    bet = next(b for b in card_bets if b.id == "suited-third-cards")
    counts = _reference_counts(bet, ODD["nines and tens, two suits"])
    probabilities = [Fraction(c, sum(counts)) for c in counts]
    assert [Fraction(design["probabilities"][e.name]) for e in bet.events] == probabilities
    pays = [e.pays for e in bet.events]
    pays[1] = Fraction(design["exact_pays"]["Suited"])
    assert -sum(p * q for p, q in zip(pays, probabilities, strict=True)) == Fraction(1, 20)


def test_batch_beyond_int64_uses_python_integers(punto_banco, card_bets):
    """A batch holding a shoe of 2**20 cards (N**6 past 2**63) counts in Python integers,
    equal to the shoe-by-shoe counts, beside a small shoe of the same batch."""
    from exact.engines.batch import BetEvaluator

    bet = next(b for b in card_bets if b.id == "suited-third-cards")
    huge = Shoe.from_counts({"9H": 2**19, "3H": 2**18, "KD": 2**18 - 3, "4C": 3})
    shoes = [huge, Shoe.from_counts({"9H": 2, "3H": 1, "KD": 2, "4C": 2})]
    counts = BetEvaluator(punto_banco, [bet]).counts(shoes)[bet.id]
    assert counts.dtype == object and sum(counts[0]) == falling(huge.size, 6) > 2**63
    assert [[int(c) for c in row] for row in counts] == \
        [factorised.evaluate(punto_banco, [bet], shoe)[0] for shoe in shoes]
