"""Effects of removal, count systems, live edges with known cards, Monte Carlo cross-checks."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.montecarlo import simulate_rounds, within_interval
from exact.analysis.removal import (
    CountError,
    balanced,
    betting_correlation,
    derive_tags,
    effects_of_removal,
    parse_tags,
)
from exact.cli.app import main
from exact.core.cards import CARDS, RANKS, Card, Shoe
from exact.engines.live import KnownCardError, next_round
from exact.games.baccarat.reference import FEATURES, _cards_needed, play

from tests.support.batch_helpers import TRACKED
from tests.support.engines import without_engine


def expected_value(game, shoe, bet) -> Fraction:
    return analyze(game, shoe, [bet]).bets[bet.id].table().expected_value


def test_effects_of_removal_are_exact_differences(punto_banco, tracked_bets):
    shoe = Shoe.standard(8)
    table = effects_of_removal(punto_banco, shoe, tracked_bets, removal_sets=["5 5 9"])
    dragon = next(b for b in tracked_bets if b.id == "dragon-7")
    base = expected_value(punto_banco, shoe, dragon)
    assert table.base["dragon-7"] == base
    for rank in ("A", "4", "9", "K"):
        assert table.effects["dragon-7"][rank] == \
            expected_value(punto_banco, shoe.remove(rank), dragon) - base
    # value-level bets cannot tell a ten from a king
    assert len({table.effects["banker"][rank] for rank in "TJQK"}) == 1
    exact, linear = table.removals["dragon-7"]["5 5 9"]
    assert exact == expected_value(punto_banco, shoe.remove("5 5 9"), dragon) - base
    assert linear == 2 * table.effects["dragon-7"]["5"] + table.effects["dragon-7"]["9"]
    deeper = effects_of_removal(punto_banco, shoe, [dragon], depth=2)
    assert deeper.effects["dragon-7"]["8"] == \
        (expected_value(punto_banco, shoe.remove("8 8"), dragon) - base) / 2


def test_dragon_seven_is_countable(punto_banco, tracked_bets):
    # Dragon 7 needs a Banker three-card 7: removing 8s and 9s (naturals) helps it, removing
    # the small cards that make it hurts; the derived count tracks the effects closely.
    dragon = [b for b in tracked_bets if b.id == "dragon-7"]
    effects = effects_of_removal(punto_banco, Shoe.standard(8), dragon).effects["dragon-7"]
    assert effects["8"] > 0 and effects["9"] > 0 and effects["4"] < 0
    tags = derive_tags(effects, level=2)
    assert balanced(tags) and betting_correlation(tags, effects) > 0.9


@given(st.lists(st.fractions(-1, 1), min_size=13, max_size=13), st.integers(1, 4))
def test_derived_tags_are_balanced_bounded_integers(values, level):
    effects = dict(zip(RANKS, values, strict=True))
    tags = derive_tags(effects, level)
    assert balanced(tags)
    assert all(isinstance(t, int) and abs(t) <= level for t in tags.values())


def test_betting_correlation_and_user_tags():
    effects = {rank: Fraction(i - 6) for i, rank in enumerate(RANKS)}
    assert betting_correlation({r: 2 * (i - 6) for i, r in enumerate(RANKS)}, effects) == \
        pytest.approx(1.0)
    assert betting_correlation({r: 6 - i for i, r in enumerate(RANKS)}, effects) == \
        pytest.approx(-1.0)
    assert parse_tags("A=1, 10=-1, k=+2") == {**{r: 0 for r in RANKS}, "A": 1, "T": -1, "K": 2}
    for bad in ("A:1", "A=x", "9H=1"):
        with pytest.raises(CountError):
            parse_tags(bad)


@pytest.mark.parametrize(("position", "card"), [(1, "9H"), (2, "TS"), (5, "4C"), (6, "7D")])
def test_known_card_at_a_position_matches_brute_force(punto_banco, tracked_bets, position, card):
    shoe = Shoe.parse("A:1,4:2,6:1,7:1,9:2,T:2,8:1")
    shoe = Shoe(tuple(c + (i == CARDS.index(Card.parse(card))) for i, c in
                      enumerate(shoe.counts)))
    main_bets = [b for b in tracked_bets if b.id in ("banker", "player", "tie")]
    result = next_round(punto_banco, shoe, main_bets, known={position: Card.parse(card)})
    brute = forced_brute_force_bets(shoe, {position: Card.parse(card)}, main_bets)
    assert result["banker"].total == sum(brute["banker"])
    assert {bet.id: list(result[bet.id].counts) for bet in main_bets} == brute


def test_known_first_card_averages_to_the_unconditional_round(punto_banco, tracked_bets):
    shoe = Shoe.parse("A:1,3:2,5:2,8:2,9:1,T:2")
    main_bets = [b for b in tracked_bets if b.id == "tie"]
    overall = next_round(punto_banco, shoe, main_bets)["tie"].counts
    summed = [0, 0]
    for index, count in enumerate(shoe.counts):
        if count:
            forced = next_round(punto_banco, shoe, main_bets, known={1: CARDS[index]})["tie"]
            summed = [s + count * c for s, c in zip(summed, forced.counts, strict=True)]
    assert summed == list(overall)


def test_known_card_errors(punto_banco, tracked_bets):
    with pytest.raises(KnownCardError):
        next_round(punto_banco, Shoe.standard(1), tracked_bets[:1], known={7: Card.parse("9H")})
    with pytest.raises(KnownCardError):
        next_round(punto_banco, Shoe.standard(1), tracked_bets[:1], known={1: Card.parse("9")})


def test_monte_carlo_agrees_with_exact_results(punto_banco, tracked_bets):
    shoe = Shoe.standard(8).remove("8 8 8 9 9 9 9 5")
    seen = simulate_rounds(punto_banco, shoe, tracked_bets, rounds=4000, seed=20261130)
    exact = analyze(punto_banco, shoe, tracked_bets)
    for bet in tracked_bets:
        # z = 4.5: about one false alarm in 150,000 checks
        assert within_interval(seen[bet.id], exact.bets[bet.id].counts, z=4.5), bet.id


def test_cli_eor_and_edge(tmp_path, capsys, monkeypatch):
    tracked = [option for bet in ("banker", "player", "tie", *TRACKED) for option in ("--bet", bet)]
    assert main(["eor", "punto-banco", "--decks", "8", "--json", *tracked,
                 "--tags", "4=-1,8=1", "--removal-set", "9 9"]) == 0
    report = json.loads(capsys.readouterr().out, parse_constant=pytest.fail)  # strict JSON
    dragon = report["bets"]["dragon-7"]
    assert Fraction(dragon["house_edge"]["exact"]) > 0
    assert dragon["derived_count"]["balanced"] and dragon["user_count"]["balanced"]
    assert set(dragon["eor_house_edge"]) == set(RANKS)
    seen = tmp_path / "seen.txt"
    seen.write_text("9H 9D 8C\n8S 9S\n")
    assert main(["edge", "punto-banco", "--seen", str(seen), "--json", "--bet", "tie"]) == 0
    edge = json.loads(capsys.readouterr().out)
    assert edge["cards_unseen"] == 411
    assert -Fraction(edge["bets"]["tie"]["house_edge"]["exact"]) == expected_value(
        __import__("exact.games", fromlist=["get_game"]).get_game("punto-banco"),
        Shoe.standard(8).remove("9H 9D 8C 8S 9S"),
        next(b for b in game_bets(
            __import__("exact.games", fromlist=["get_game"]).get_game("punto-banco"))
            if b.id == "tie"))
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("5 5\n"))
    assert main(["edge", "punto-banco", "--decks", "1", "--known", "1=9H", "--bet", "tie"]) == 0
    assert "card 1 is 9H" in capsys.readouterr().out
    for bad in (["eor", "punto-banco", "--tags", "A:1"],
                ["edge", "punto-banco", "--seen", str(seen), "--known", "x=9H"],
                ["edge", "punto-banco", "--seen", str(tmp_path / "missing.txt")],
                ["eor", "punto-banco", "--depth", "0"]):
        assert main(bad) == 2, bad
        assert capsys.readouterr().err.count("\n") == 1


def test_known_cards_evaluate_the_bets_on_suits_of_third_cards_in_the_default_set(
        capsys, monkeypatch):
    """With --known, the bets on colours or suits read with the third cards are counted by
    factorised counting with the known cards forced: the default bet set (shipped bets and
    a --bets file) evaluates them, names none as not evaluated, and gives each the edge it
    gets when asked for alone."""
    from pathlib import Path

    from exact.engines.live import slow_with_known

    game = __import__("exact.games", fromlist=["get_game"]).get_game("punto-banco")
    bet_file = str(Path(__file__).parents[1] / "data" / "card_level_bets.toml")
    assert not any(slow_with_known(game, b) for b in game_bets(game, [bet_file]))
    shoe = "AS:2,AH:2,9S:2,9D:2,KC:2,5H:2"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert main(["edge", "punto-banco", "--shoe", shoe, "--known", "1=9S", "--json",
                 "--bets", bet_file]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["not_evaluated"] == {}
    assert {"tie", "player-pair", "dragon-7", "perfect-pairs", "four-nines", "one-colour-tie",
            "suited-third-cards"} <= set(report["bets"])
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert main(["edge", "punto-banco", "--shoe", shoe, "--known", "1=9S", "--json",
                 "--bets", bet_file, "--bet", "one-colour-tie"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["bets"] == {"one-colour-tie": report["bets"]["one-colour-tie"]}


def forced_brute_force_bets(shoe: Shoe, known: dict[int, Card], bets) -> dict[str, list[int]]:
    """Per bet, its event counts over every ordered deal of ``shoe`` with the ``known`` cards
    at their positions, card by card in the real order (exact/games/baccarat/reference.py's
    tableau and features), the other positions weighted by the cards left."""
    counts = list(shoe.remove(list(known.values())).counts)
    size = sum(counts)
    free_total = 6 - len(known)
    out = {bet.id: [0] * len(bet.events) for bet in bets}

    def deal(dealt: list, weight: int, free: int) -> None:
        if len(dealt) >= max(_cards_needed(dealt), *known):
            player, banker = play(dealt + [None] * (6 - len(dealt)))
            fill = 1
            for i in range(free, free_total):
                fill *= size - i
            for bet in bets:
                features = {name: FEATURES[name](player, banker) for name in bet.features}
                out[bet.id][bet.settle(features)] += weight * fill
            return
        if len(dealt) + 1 in known:
            deal([*dealt, known[len(dealt) + 1]], weight, free)
            return
        for index, left in enumerate(counts):
            if left:
                counts[index] -= 1
                deal([*dealt, CARDS[index]], weight * left, free + 1)
                counts[index] += 1

    deal([], 1, 0)
    return out


_ODD_SHOE = "9H:3,9D:1,5S:2,KD:2,KC:1,2C:1,4H:1,3S:1"
_OTHER_SHOE = "8S:2,8H:1,AD:2,6C:1,QH:2,3D:1,7S:1"


def _card_level_bets(game, ids):
    from pathlib import Path

    every = game_bets(game, [Path(__file__).parents[1] / "data" / "card_level_bets.toml"])
    return [b for b in every if b.id in ids]


@pytest.mark.parametrize(("shoe_text", "known"), [
    (_ODD_SHOE, "1=9H"), (_ODD_SHOE, "2=9H 3=KD"), (_ODD_SHOE, "4=KD 6=2C"),
    (_ODD_SHOE, "5=5S 6=9D"),
    (_ODD_SHOE, "1=9H 3=KD"),  # the Player's natural
    (_OTHER_SHOE, "2=8H 4=QH"),  # the Banker's natural
    (_OTHER_SHOE, "5=AD"),  # a Player's third card
    (_OTHER_SHOE, "4=3D"),  # a Banker's card
])
def test_known_cards_with_bets_on_suits_match_brute_force(punto_banco, shoe_text, known):
    """Bets on suits and colours with cards known at positions, on small odd shoes, against
    the card-by-card brute force: Perfect Pairs on the walk of its deal with the cards forced,
    the six-card one-colour tie, the suited third cards and the red first card on factorised
    counting with the cards forced; positions in an unordered pair, third cards, two known
    cards, cards that make a natural."""
    from exact.engines.plan import plan

    shoe = Shoe.parse(shoe_text)
    forced = {int(p): Card.parse(c) for p, c in (item.split("=") for item in known.split())}
    bets = _card_level_bets(punto_banco, ("perfect-pairs", "one-colour-tie",
                                          "suited-third-cards", "red-first-card"))
    engines = {c.bet.id: c.engine for c in plan(punto_banco, bets, "known").choices}
    assert engines == {"perfect-pairs": "forced", "one-colour-tie": "classes",
                       "suited-third-cards": "classes", "red-first-card": "factorised"}
    brute = forced_brute_force_bets(shoe, forced, bets)
    result = next_round(punto_banco, shoe, bets, known=forced)
    assert {bet_id: list(r.counts) for bet_id, r in result.items()} == brute
    with without_engine("classes"):  # the one-colour tie on factorised counting, forced
        engines = {c.bet.id: c.engine for c in plan(punto_banco, bets, "known").choices}
        assert engines["one-colour-tie"] == "factorised"
        result = next_round(punto_banco, shoe, bets, known=forced)
    assert {bet_id: list(r.counts) for bet_id, r in result.items()} == brute
    assert all(sum(counts) > 0 for counts in brute.values())


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(["9H", "9D", "KC", "QH", "5S", "4H", "AD", "2C"]),
                min_size=8, max_size=11),
       st.dictionaries(st.integers(1, 6), st.integers(0, 7), min_size=1, max_size=2))
def test_known_cards_factorised_agrees_with_the_forced_walk(cards, known_indices):
    """Any small shoe, one or two known positions (each holding a card of the shoe):
    factorised counting with the cards forced gives the counts of the walk of the bets' deal
    with the cards forced (itself checked against the brute force above)."""
    from exact.engines import forced as forced_engine
    from exact.games import get_game

    game = get_game("punto-banco")
    shoe = Shoe.parse(",".join(f"{card}:{cards.count(card)}" for card in set(cards)))
    forced, left = {}, list(cards)
    for position, index in sorted(known_indices.items()):
        card = left.pop(index % len(left))
        forced[position] = Card.parse(card)
    bets = _card_level_bets(game, ("one-colour-tie", "suited-third-cards"))
    with without_engine("classes"):  # class-by-class counting has its own twins
        counted = next_round(game, shoe, bets, known=forced)
    walked = forced_engine._walked(game, shoe, bets, forced)
    assert {b: r.counts for b, r in counted.items()} == {b: r.counts for b, r in walked.items()}
