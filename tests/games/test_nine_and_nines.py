"""NINE & NINES: published edge, the engines against independent references (card-by-card
brute force on small shoes, a plain combinatorial count on 8 decks) and a seeded simulation."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.games import get_game
from exact.games.nine_and_nines.reference import (
    NINE_EVENTS,
    NINE_PAYS,
    NINES_EVENTS,
    NINES_PAYS,
    brute_force_first_four,
    nines_by_counting,
    simulate_first_four,
)

from tests.support.published import NINE_AND_NINES

GAME = get_game("nine-and-nines")
BETS = {bet.id: bet for bet in game_bets(GAME)}
# small shoes where every NINES tier can happen (twins need two of each card)
SMALL_SHOES = {
    "sixteen cards": Shoe.from_counts({"9D": 2, "KD": 2, "9S": 2, "QS": 2, "4H": 1, "5H": 1,
                                       "AC": 1, "8C": 1, "3S": 1, "6D": 1, "7D": 1, "2C": 1}),
    "fourteen odd cards": Shoe.from_counts({"9D": 2, "KD": 2, "4H": 2, "5H": 2, "9C": 1,
                                            "TC": 1, "8S": 1, "AS": 1, "5D": 1, "6S": 1}),
}


def by_event(analysis, bet_id):
    bet = analysis.bets[bet_id]
    return dict(zip((e.name for e in bet.bet.events), bet.counts, strict=True))


def expected_events(reference: Counter, position: int, names: dict[str, str],
                    otherwise: str) -> dict[str, int]:
    out = dict.fromkeys([*names.values(), otherwise], 0)
    for key, count in reference.items():
        tier = key[position] if isinstance(key, tuple) else key
        out[names.get(tier, otherwise)] += count
    return out


def test_nine_house_edge_is_259_over_5395_at_8_decks():
    analysis = analyze(GAME, Shoe.standard(8), [BETS["nine-player"], BETS["nine-banker"]])
    for bet_id in ("nine-player", "nine-banker"):
        published = NINE_AND_NINES.value("house_edge_exact", bet=bet_id)  # "259/5395"
        assert analysis.bets[bet_id].table().house_edge == Fraction(published)


@pytest.mark.parametrize("shoe_name", sorted(SMALL_SHOES))
def test_nine_and_nines_match_card_by_card_brute_force(shoe_name):
    shoe = SMALL_SHOES[shoe_name]
    reference = brute_force_first_four(shoe)
    assert sum(reference.values()) == falling(shoe.size, 6)
    bets = [BETS["nine-player"], BETS["nine-banker"], BETS["nines"]]
    analysis = analyze(GAME, shoe, bets, engine="direct")
    assert by_event(analysis, "nine-player") == expected_events(
        reference, 0, NINE_EVENTS, "No Player two-card 9")
    assert by_event(analysis, "nine-banker") == expected_events(
        reference, 1, NINE_EVENTS, "No Banker two-card 9")
    assert by_event(analysis, "nines") == expected_events(
        reference, 2, NINES_EVENTS, "No two-card 9")


def test_plain_counting_agrees_with_brute_force_on_small_shoes():
    for shoe in SMALL_SHOES.values():
        reference = Counter()
        for key, count in brute_force_first_four(shoe).items():
            reference[key[2]] += count
        counted = nines_by_counting(shoe)
        assert {k: v for k, v in counted.items() if v} == reference


def nines_edge(counts: Counter) -> Fraction:
    total = sum(counts.values())
    return -sum((Fraction(NINES_PAYS[t] * c, total) for t, c in counts.items()), Fraction(0))


NINES_8_DECKS = nines_by_counting(Shoe.standard(8))


def test_nines_8_deck_figures_by_plain_counting():
    counts = NINES_8_DECKS
    assert sum(counts.values()) == falling(416, 6)
    fill = 412 * 411
    # first-principles checks of the rarest tiers: 9♦K♦ twice: 2·8·8 then 2·7·7 orders
    assert counts["diamond twins"] == 2 * 8 * 8 * 2 * 7 * 7 * fill
    # the same suited two-card 9 on both hands, other than 9♦K♦: per suit 9 with T, J, Q, K
    # and A-8, 2-7, 3-6, 4-5, so 8 · 4 - 1 card pairs
    assert counts["suited twins"] == (8 * 4 - 1) * 2 * 8 * 8 * 2 * 7 * 7 * fill
    # Player 9 on ordered pairs: 16,384 of 416 · 415; exactly one 9 is twice (Player 9,
    # Banker not 9), and the Banker's 9s in the rest are counted card by card below
    assert counts["single"] + counts["double"] + counts["double without tens"] + counts[
        "suited twins"] + counts["diamond twins"] == 2 * 16384 * 414 * 413 * fill - (
        counts["double"] + counts["double without tens"] + counts["suited twins"]
        + counts["diamond twins"])
    # the figure analyze() must reproduce once it can run NINES at 8 decks (12.9494%)
    assert nines_edge(counts) == Fraction(19908611, 153741315)


def test_nines_8_decks_through_analyze_matches_plain_counting():
    analysis = analyze(GAME, Shoe.standard(8), [BETS["nines"]])
    assert by_event(analysis, "nines") == expected_events(NINES_8_DECKS, 0, NINES_EVENTS,
                                                          "No two-card 9")
    assert analysis.bets["nines"].table().house_edge == nines_edge(NINES_8_DECKS)


ROUNDS = 200_000
Z = 4.0  # two-sided 99.994% normal quantile per check; about 15 checks


def test_seeded_simulation_of_the_first_four_cards_agrees_with_exact_figures():
    shoe = Shoe.standard(8)
    seen = simulate_first_four(shoe, ROUNDS, seed=20261130)
    nine = analyze(GAME, shoe, [BETS["nine-player"]]).bets["nine-player"].table()
    total = sum(NINES_8_DECKS.values())
    checks = {("nines", tier): Fraction(count, total) for tier, count in NINES_8_DECKS.items()}
    for outcome in nine.outcomes:
        checks["nine", outcome.event] = outcome.probability
    simulated: Counter = Counter()
    returns = {"nine-player": 0, "nine-banker": 0}
    for (player, banker, nines), count in seen.items():
        simulated["nines", NINES_EVENTS.get(nines, nines)] += count
        simulated["nine", NINE_EVENTS.get(player, "No Player two-card 9")] += count
        returns["nine-player"] += NINE_PAYS[player] * count
        returns["nine-banker"] += NINE_PAYS[banker] * count
    for (bet, tier), probability in checks.items():
        tier_name = NINES_EVENTS.get(tier, tier) if bet == "nines" else tier
        if tier == "lose":
            tier_name = "lose"
        p = float(probability)
        if p * ROUNDS < 5:  # too rare to test by frequency; must then be rare in the sample
            assert simulated[bet, tier_name] <= max(5, 10 * p * ROUNDS)
            continue
        sigma = math.sqrt(p * (1 - p) / ROUNDS)
        assert abs(simulated[bet, tier_name] / ROUNDS - p) <= Z * sigma, (bet, tier)
    # mean return of NINE on either party within Z standard errors of the exact edge
    error = Z * nine.standard_deviation / math.sqrt(ROUNDS)
    for bet_id, total_return in returns.items():
        assert abs(total_return / ROUNDS + float(nine.house_edge)) <= error, bet_id


def test_features_declare_only_what_they_read():
    needs = GAME.needs
    assert needs(BETS["nine-player"].features) == needs(["player_initial_cards"])
    assert needs(BETS["nine-player"].features).stages == {"player"}
    assert needs(BETS["nine-banker"].features).stages == {"banker"}
    nines = needs(BETS["nines"].features)
    assert nines.stages == {"player", "banker"}
    assert nines.attributes("player") == nines.attributes("banker") == ("rank", "suit")
    for name in ("player_two_card_nine", "player_has_ten_value", "two_card_nines",
                 "both_two_card_nines"):
        assert all(needs([name]).attributes(stage) == () for stage in needs([name]).stages)
    # the main bets of the game are Punto Banco's, with the same figures
    main = analyze(GAME, Shoe.standard(8), [BETS["banker"]]).bets["banker"]
    assert main.counts == analyze(get_game("punto-banco"), Shoe.standard(8)).bets[
        "banker"].counts
