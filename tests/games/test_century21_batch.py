"""21st Century Baccarat's compiled evaluator equals the direct enumerator and the game table
exactly on random depleted shoes; the number tiers agree; effects of removal and `eor`."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from exact.cli.app import main
from exact.core.cards import Shoe
from exact.core.enumerator import enumerate_rounds
from exact.engines.batch_numbers import counts_matrix
from exact.errors import ExactError
from exact.games.century21.batch import (
    CLASS_KEYS,
    PLAYER,
    Century21Evaluator,
    class_removal_table,
    class_weights,
    evaluator_for,
    fixed_pair,
    remove_class,
)
from exact.games.century21.game import (
    DEFAULT_RULES,
    StrategyError,
    game_table,
    record_outcome,
    shoe_for,
)

from tests.support.published import CENTURY21

FULL = shoe_for(DEFAULT_RULES)
# the README's figure (exact/data/century21/published.toml: no outside source gives one)
HOUSE_WAY_EDGE = Fraction(CENTURY21.value("value_exact", strategy="house"))
NAMES = ("K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "X")  # value classes 0-9, joker


@pytest.fixture(scope="module")
def evaluator():
    return evaluator_for(DEFAULT_RULES)


@pytest.fixture(scope="module")
def house_pair():
    return fixed_pair(DEFAULT_RULES)


def small_joker_shoes(seed: int, number: int) -> list[Shoe]:
    """Shoes of 6-11 cards over 2-5 classes, a joker class in most, so that the direct
    enumerator and the game table stay cheap while every kind of hand occurs."""
    generator = np.random.default_rng(seed)
    shoes = []
    for _ in range(number):
        classes = generator.choice(len(NAMES), size=generator.integers(2, 6), replace=False)
        if generator.random() < 0.7 and 10 not in classes:
            classes[0] = 10
        cards = generator.choice(classes, size=generator.integers(6, 12))
        counts = np.bincount(cards, minlength=len(NAMES))
        shoes.append(Shoe.parse(",".join(f"{name}:{count}" for name, count
                                         in zip(NAMES, counts, strict=True) if count)))
    return shoes


def depleted_full_shoes(seed: int, number: int, keep: int) -> list[Shoe]:
    """``keep`` cards drawn at random from the 424-card shoe."""
    generator = np.random.default_rng(seed)
    deck = np.repeat(np.arange(len(FULL.counts)), FULL.counts)
    return [Shoe(tuple(int(c) for c in np.bincount(generator.choice(deck, keep, replace=False),
                                                     minlength=len(FULL.counts))))
            for _ in range(number)]


_OUTCOME_OF_RECORD: dict[object, tuple[str, Fraction]] = {}


def direct_outcomes(evaluator, shoe: Shoe) -> Counter:
    """Outcome counts by the recursive enumerator over the same fixed-strategy deal."""
    tally: Counter = Counter()
    for record, count in enumerate_rounds(evaluator.deal, shoe).counts.items():
        if record not in _OUTCOME_OF_RECORD:  # records recur from shoe to shoe
            _OUTCOME_OF_RECORD[record] = record_outcome(DEFAULT_RULES, record)
        tally[_OUTCOME_OF_RECORD[record]] += count
    return tally


# 250 shoes in `make test` (the direct enumerator and the game table cost ~35 ms a shoe); the
# thousand of the first campaign run under `-m slow`.
@pytest.mark.parametrize("number", [250, pytest.param(1000, marks=pytest.mark.slow)])
def test_compiled_equals_enumerator_and_game_table_on_small_shoes(evaluator, house_pair,
                                                                  number) -> None:
    shoes = small_joker_shoes(seed=2024, number=number)
    batch = evaluator.counts(shoes)[PLAYER]
    values = evaluator.expected_values(shoes)[PLAYER]
    assert len({shoe.counts for shoe in shoes}) > 0.9 * number
    assert sum(s.jokers > 0 for s in shoes) > 0.6 * number
    for shoe, row, value in zip(shoes, batch, values, strict=True):
        compiled = Counter({o: int(c) for o, c in zip(evaluator.outcomes, row, strict=True) if c})
        assert compiled == direct_outcomes(evaluator, shoe), shoe.describe()
        result = game_table(DEFAULT_RULES, shoe).evaluate(*house_pair)
        assert compiled == Counter(dict(result.counts)), shoe.describe()
        assert value == result.edge


def test_full_shoe_house_way_edge_is_the_published_figure(evaluator) -> None:
    assert evaluator.expected_values([FULL]) == {PLAYER: [HOUSE_WAY_EDGE]}
    table = game_table(DEFAULT_RULES, FULL)
    assert evaluator.results(FULL) == dict(table.evaluate(*table.house_way()).counts)


def test_compiled_equals_game_table_on_depleted_full_shoes(evaluator, house_pair) -> None:
    shoes = depleted_full_shoes(seed=11, number=4, keep=300)
    for shoe, row in zip(shoes, evaluator.counts(shoes)[PLAYER], strict=True):
        table = game_table(DEFAULT_RULES, shoe)
        expected = dict(table.evaluate(*house_pair).counts)
        assert {o: int(c) for o, c in zip(evaluator.outcomes, row, strict=True) if c} == expected
        # on these shoes the House Way searched afresh chooses as on the full shoe
        assert table.evaluate(*table.house_way()).counts == expected


def test_house_way_depends_on_the_shoe_so_the_evaluator_fixes_the_full_shoe_pair() -> None:
    # With the default rules every joker hand is a 9 whatever the shoe; with jokers that can
    # only be 0 the searched joker choices turn on a depleted shoe, and the fixed pair is not
    # that shoe's House Way.
    narrow = DEFAULT_RULES.replace(joker_values=(0,))
    player, dealer = fixed_pair(narrow)
    table = game_table(narrow, Shoe.parse("K:4,A:2,2:2,3:2,4:2,5:2,6:2,7:2,8:2,9:2,X:4"))
    searched = table.house_way()
    assert any(searched[0][h] != player[h] for h in searched[0])
    assert table.evaluate(*searched).edge != table.evaluate(player, dealer).edge


def test_best_response_pair_is_compiled_too() -> None:
    best = evaluator_for(DEFAULT_RULES, "best")
    table = game_table(DEFAULT_RULES, FULL)
    dealer = table.house_way()[1]
    assert best.expected_values([FULL])[PLAYER][0] == table.value(
        table.player_best_response(dealer), dealer) > HOUSE_WAY_EDGE
    shoe = small_joker_shoes(seed=5, number=1)[0]
    assert Counter(best.results(shoe)) == direct_outcomes(best, shoe)
    with pytest.raises(StrategyError):
        evaluator_for(DEFAULT_RULES, "equilibrium")


def test_number_tiers_agree(evaluator) -> None:
    shoes = [FULL, *depleted_full_shoes(seed=3, number=3, keep=250),
             *small_joker_shoes(seed=4, number=20)]
    matrix = counts_matrix(shoes)
    narrow = evaluator.counts(matrix)[PLAYER]  # float64 tier: 424**6 < 2**53
    wide = evaluator.counts(matrix, wider=np.int64)[PLAYER]
    python = evaluator.counts(matrix, wider=object)[PLAYER]
    assert wide.dtype == np.int64 and python.dtype == object
    assert np.array_equal(narrow, wide) and all(
        int(a) == int(b) for a, b in zip(wide.ravel(), python.ravel(), strict=True))
    assert (evaluator.expected_values(matrix) == evaluator.expected_values(matrix, np.int64)
            == evaluator.expected_values(matrix, object))


def test_effect_of_removal_equals_a_direct_game_table_difference(evaluator) -> None:
    table = class_removal_table(evaluator, FULL, removal_sets=["X X 9"])
    effects = table.effects["player"]
    assert list(effects) == list(CLASS_KEYS) and table.base["player"] == HOUSE_WAY_EDGE
    for key in ("X", "T"):
        depleted = game_table(DEFAULT_RULES, remove_class(FULL, key))
        assert effects[key] == depleted.evaluate(*depleted.house_way()).edge - HOUSE_WAY_EDGE
    # the effects weighed by the shoe's cards sum to about zero (exactly so to first order)
    weights = class_weights(FULL)
    assert abs(sum(w * float(effects[k]) for k, w in weights.items())) < 1e-5
    assert weights == {**{k: 4 for k in CLASS_KEYS[:9]}, "T": 16, "X": 1}
    exact, linear = table.removals["player"]["X X 9"]
    assert exact != linear and abs(float(exact - linear)) < abs(float(exact)) / 10


def test_eor_cli_json_equals_the_evaluator(evaluator, capsys) -> None:
    assert main(["eor", "century21", "--json", "--removal-set", "X 5",
                 "--tags", "A=-1,9=1,K=1,X=4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data)[:6] == ["game", "strategy", "information", "held_fixed", "classes",
                              "count_weights"]
    player = data["bets"]["player"]
    assert -Fraction(player["house_edge"]["exact"]) == HOUSE_WAY_EDGE
    effects = {k: -Fraction(v["exact"]) for k, v in player["eor_house_edge"].items()}
    values = evaluator.expected_values([remove_class(FULL, key) for key in CLASS_KEYS])[PLAYER]
    assert effects == {key: value - HOUSE_WAY_EDGE
                       for key, value in zip(CLASS_KEYS, values, strict=True)}
    assert player["eor_house_edge"]["X"]["float"] == -float(effects["X"])
    assert player["derived_count"]["balanced"] is True
    assert player["user_count"]["tags"]["T"] == 1 and player["user_count"]["balanced"] is False
    assert main(["eor", "century21", "--decks", "8"]) == 0
    text = capsys.readouterr().out
    assert "T = every ten-value card" in text and " X" in text


@pytest.mark.parametrize("argv", [
    ["eor", "century21", "--decks", "0"],
    ["eor", "century21", "--decks", "8", "--shoe", "A:10"],
    ["eor", "century21", "--strategy", "equilibrium"],
    ["eor", "century21", "--bet", "player"],
    ["eor", "century21", "--tags", "9H=1"],
    ["eor", "century21", "--remove", "Z"],
    ["eor", "punto-banco", "--strategy", "house"],
    ["edge", "century21", "--seen", "/no/such/file"],
    ["edge", "century21", "--seen", "/dev/null", "--known", "1=9H"],
    ["edge", "century21", "--seen", "/dev/null", "--bet", "player"],
    ["edge", "century21", "--seen", "/dev/null", "--shoe", "A:3,X:2"],
    ["edge", "punto-banco", "--seen", "/dev/null", "--rules", "r.toml"],
])
def test_eor_cli_bad_input_is_one_line_and_exit_2(argv, capsys) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith("exact:") and error.count("\n") == 1


def test_errors_are_typed() -> None:
    assert issubclass(StrategyError, ExactError)


def test_settled_outcomes_round_trip_through_the_disk_cache(evaluator, monkeypatch) -> None:
    # a second evaluator reads the settlement from the cache (settling would fail here), and
    # what it reads equals settling afresh
    evaluator.outcomes  # noqa: B018 (settles, or reads, and stores)
    import exact.games.century21.batch as module

    def refuse(*_):
        raise AssertionError("settled again instead of read from the disk cache")

    monkeypatch.setattr(module, "record_outcome", refuse)
    again = Century21Evaluator(evaluator.deal, evaluator.strategy)
    outcomes, of_record = again._settled
    monkeypatch.undo()
    assert [outcomes[i] for i in of_record] == [record_outcome(DEFAULT_RULES, record)
                                                for record in again.compiled.records]


def test_settling_by_two_card_state_equals_settling_every_record() -> None:
    # the fast settlement (one per distinct pair of hand states) against its slow twin,
    # record_outcome record by record, on the best-response pair's 275,000 records
    best = evaluator_for(DEFAULT_RULES, "best")
    outcomes, of_record = best._settle()
    assert len(set(outcomes)) == len(outcomes)
    assert [outcomes[i] for i in of_record] == [record_outcome(DEFAULT_RULES, record)
                                                for record in best.compiled.records]


def test_edge_cli_gives_the_next_hand_from_the_cards_seen(tmp_path, capsys) -> None:
    seen = tmp_path / "seen.txt"
    seen.write_text("X 9H 9D\nKS 5C X X")
    assert main(["edge", "century21", "--seen", str(seen), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    unseen = FULL.remove("X 9H 9D KS 5C X X")
    assert data["cards_seen"] == 7 and data["cards_unseen"] == unseen.size == 417
    table = game_table(DEFAULT_RULES, unseen)
    house = table.evaluate(*table.house_way())
    best = table.value(table.player_best_response(table.house_way()[1]), table.house_way()[1])
    entries = data["strategies"]
    assert -Fraction(entries["house"]["house_edge"]["exact"]) == house.edge
    assert -Fraction(entries["best"]["house_edge"]["exact"]) == best >= house.edge
    # the default table: a 1 collection on a 10 bet
    assert -Fraction(entries["house"]["house_edge_with_collection"]["exact"]) == \
        house.edge - Fraction(1, 10)
    assert entries["house"]["player_advantage"] is False
    assert entries["house"]["break_even_bet"] is None
    # an explicit small shoe, as text: the exact value of the game table on what is unseen
    fives = tmp_path / "fives.txt"
    fives.write_text(" ".join(["5"] * 8))
    assert main(["edge", "century21", "--shoe", "X:8,9:8,5:8,K:8", "--seen", str(fives)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Next hand of 21st Century Baccarat: 8 cards seen, 24 unseen")
    small = game_table(DEFAULT_RULES, Shoe.parse("X:8,9:8,K:8"))
    assert f"exact {-small.evaluate(*small.house_way()).edge}" in text  # the house edge
