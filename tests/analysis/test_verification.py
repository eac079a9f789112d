"""The verification simulation (issue 27): its dealer against the card-by-card reference, its
frequencies against the exact probabilities, a planted wrong pay seen, determinism."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.analysis.verification import (
    ROUNDS,
    Z_LIMIT,
    ShoeSpec,
    simulate_wagers,
    through_the_shoe,
    verdicts,
)
from exact.core.cards import CARDS, Shoe
from exact.errors import SimulationError
from exact.games import get_game
from exact.games.baccarat import dealer as dealer
from exact.games.baccarat import reference as reference
from exact.games.baccarat.dealer import ABSENT, PuntoBancoDealer

# A small shoe of the reports' brute force (pairs, suits and colours all occur)
TINY = "AS:2,5H:2,5D:1,9C:2,KH:2,KS:1"
Z = 4.42  # two-sided 99.999% normal quantile: a false alarm over ~40 cells is ~1 in 2,500 seeds


def _hands(cards: np.ndarray, index: int) -> tuple[list, list]:
    ids = cards[:, index]
    return ([CARDS[c] for c in ids[:3] if c != ABSENT], [CARDS[c] for c in ids[3:] if c != ABSENT])


def test_the_dealer_plays_every_round_as_the_reference(punto_banco):
    """Every dealt round: the reference's tableau (exact/games/baccarat/reference.py), given the
    same cards in dealing order and then cards it must not use, makes the same two hands, and
    every feature both read has the same value, and the game's own features agree too."""
    game = get_game("nine-and-nines")
    rounds = dealer.deal(ShoeSpec.standard(8), np.random.SeedSequence(11), 40)
    reader = dealer.Reader(rounds.cards)
    names = sorted(dealer.FEATURES)
    assert set(names) <= set(game.features)
    codes = {n: dealer.FEATURES[n].read(reader) for n in names}
    filler = [CARDS[0]] * 6  # never read: the reference stops where the round does
    for index in range(rounds.cards.shape[1]):
        player, banker = _hands(rounds.cards, index)
        dealt = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
        assert reference.play(dealt + filler) == (player, banker)
        record = game.record_from_cards(dealt)
        for name in names:
            mine = dealer.FEATURES[name].values[int(codes[name][index])]
            assert mine == game.features[name].read(record), (name, dealt)
            if name in reference.FEATURES:
                assert mine == reference.FEATURES[name](player, banker), (name, dealt)
    # a shoe's rounds follow each other: each starts where the last one ended
    first = rounds.shoe == 0
    depths = rounds.depth[first]
    used = (rounds.cards[:, first] != ABSENT).sum(axis=0)
    assert list(depths[1:]) == list((depths + used)[:-1])
    assert 2 <= depths[0] <= 11  # the shown card and its burn
    assert 416 - (depths[-1] + used[-1]) <= 14 < 416 - depths[-1]  # stopped by the cut card


def test_frequencies_on_a_tiny_shoe_converge_to_the_exact_probabilities():
    """One round per shuffle of a 10-card shoe (no burn, the cut card behind its first card:
    no second round can start): each outcome (winner, totals, pair kinds,
    cards) is seen as often as the card-by-card brute force says, within Z standard errors."""
    shoe = Shoe.parse(TINY)
    spec = ShoeSpec(tuple(shoe.counts), cut_cards=shoe.size - 1, burn="none")
    names = ["winner", "player_total", "banker_total", "player_pair", "cards_dealt"]
    exact = reference.brute_force(shoe, names)
    total = sum(exact.values())
    rounds = 0
    seen: Counter = Counter()
    for job in range(4):
        dealt = dealer.deal(spec, np.random.SeedSequence(20261203, spawn_key=(job,)),
                                 50_000)
        assert (dealt.depth == 0).all()  # the first round of every shuffle, and only it
        codes = dealer.codes(dealt, names)
        keys = np.stack(codes).T
        values = [dealer.FEATURES[n].values for n in names]
        for key, count in Counter(map(tuple, keys.tolist())).items():
            seen[tuple(v[k] for v, k in zip(values, key, strict=True))] += count
        rounds += dealt.depth.size
    assert set(seen) <= set(exact)
    for key, count in exact.items():
        probability = count / total
        sigma = math.sqrt(probability * (1 - probability) / rounds)
        assert abs(seen[key] / rounds - probability) <= Z * sigma, key


@pytest.fixture(scope="module")
def six_decks():
    """Punto Banco's main bets and a few side bets, exact on 6 decks, and 400,000 rounds."""
    game = get_game("punto-banco")
    bets = [b for b in game_bets(game) if b.id in ("banker", "player", "tie", "perfect-pairs",
                                                 "dragon-7", "either-pair")]
    analysis = analyze(game, Shoe.standard(6), bets)
    simulation = simulate_wagers(PuntoBancoDealer, bets, ShoeSpec.standard(6), 400_000, seed=5)
    return bets, analysis, simulation


def _tables(analysis):
    return {b: list(a.tables.values()) for b, a in analysis.bets.items()}


def test_every_wager_agrees_with_its_exact_edge(six_decks):
    bets, analysis, simulation = six_decks
    assert simulation.rounds >= 400_000
    found = verdicts(simulation, _tables(analysis))
    assert {(v.bet_id, v.paytable) for v in found} == {
        (b.id, p) for b in bets for p in b.paytables}
    assert all(v.agrees for v in found), [(v.name, v.z) for v in found if not v.agrees]
    for verdict in found:  # the counts are the simulation's, the edge exact from them
        pays = [e.pays for e in next(b for b in bets if b.id == verdict.bet_id)
                .with_paytable(verdict.paytable).events]
        net = sum(n * p for n, p in zip(simulation.event_counts(verdict.bet_id), pays,
                                        strict=True))
        assert verdict.simulated == -Fraction(net, simulation.rounds)
        assert verdict.error >= math.sqrt(float(analysis.bets[verdict.bet_id]
                                                .table(verdict.paytable).variance)
                                          / simulation.rounds)


def test_a_planted_wrong_pay_disagrees(six_decks):
    """The simulation settles the Tie at 9 to 1 where the exact table says 8 to 1 (and the
    other way round): the difference, 1 unit on every tie, is far beyond |z| = 4."""
    bets, analysis, _ = six_decks
    tie = next(b for b in bets if b.id == "tie")
    events = list(tie.events)
    events[0] = dataclasses.replace(events[0], pays=Fraction(9))
    wrong = dataclasses.replace(tie, events=tuple(events), alternatives={})
    assert wrong.events[0].pays == 9
    simulation = simulate_wagers(PuntoBancoDealer, [wrong], ShoeSpec.standard(6), 200_000, seed=5)
    right = analysis.bets["tie"].table("8-to-1")
    (verdict,) = verdicts(simulation, {"tie": [right]})
    assert not verdict.agrees and verdict.z < -Z_LIMIT
    # the other way: the simulation settles the shipped bet, the exact table has a wrong pay
    _, _, honest = six_decks
    planted = dataclasses.replace(right, outcomes=(
        dataclasses.replace(right.outcomes[0], pays=Fraction(9)), *right.outcomes[1:]))
    (verdict,) = [v for v in verdicts(honest, {"tie": [planted]}) if v.bet_id == "tie"]
    assert not verdict.agrees and verdict.z > Z_LIMIT


def test_the_same_seed_gives_the_same_counts_on_any_number_of_workers():
    bets = [b for b in game_bets(get_game("punto-banco")) if b.id in ("banker", "tie",
                                                                      "player-pair")]
    spec = ShoeSpec.standard(8)
    inline = simulate_wagers(PuntoBancoDealer, bets, spec, 60_000, seed=9)
    pooled = simulate_wagers(PuntoBancoDealer, bets, spec, 60_000, seed=9, workers=2)
    again = simulate_wagers(PuntoBancoDealer, bets, spec, 60_000, seed=9)
    for other in (pooled, again):
        assert other.rounds_by_job.tobytes() == inline.rounds_by_job.tobytes()
        for bet in bets:
            assert other.counts[bet.id].tobytes() == inline.counts[bet.id].tobytes()
    different = simulate_wagers(PuntoBancoDealer, bets, spec, 60_000, seed=10)
    assert different.counts["banker"].tobytes() != inline.counts["banker"].tobytes()


def test_the_same_seed_gives_the_same_counts_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    bets = [b for b in game_bets(get_game("punto-banco")) if b.id in ("banker", "tie")]
    spec = ShoeSpec.standard(8)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  host="127.0.0.1", protocol="tcp", dashboard_address=None) \
            as cluster:
        on_dask = simulate_wagers(PuntoBancoDealer, bets, spec, 30_000, seed=9,
                                  scheduler=cluster.scheduler_address)
    inline = simulate_wagers(PuntoBancoDealer, bets, spec, 30_000, seed=9)
    assert on_dask.rounds_by_job.tobytes() == inline.rounds_by_job.tobytes()
    assert on_dask.counts["tie"].tobytes() == inline.counts["tie"].tobytes()


def test_the_edge_through_the_shoe_covers_every_round(six_decks):
    _, _, simulation = six_decks
    rows = list(through_the_shoe(simulation, "banker"))
    assert sum(r[4] for r in rows) == simulation.rounds
    assert rows[0][0] == 0 and rows[-1][1] < 6 * 52
    assert all(r[3] > 0 for r in rows)
    whole = simulation.edge("banker", [e.pays for e in simulation.bets["banker"].events])[0]
    weighted = sum(r[2] * r[4] for r in rows) / simulation.rounds
    assert weighted == whole  # exact: the buckets split the same rounds


def test_the_default_is_a_labs_number_of_rounds_and_bad_settings_are_refused():
    assert ROUNDS == 10**8
    bets = game_bets(get_game("punto-banco"))[:1]
    with pytest.raises(SimulationError, match="rounds must be"):
        simulate_wagers(PuntoBancoDealer, bets, ShoeSpec.standard(8), 0)
    with pytest.raises(SimulationError, match="cut_cards"):
        simulate_wagers(PuntoBancoDealer, bets, ShoeSpec.standard(8, cut_cards=2), 10)
    with pytest.raises(SimulationError, match="no joker"):
        simulate_wagers(PuntoBancoDealer, bets, ShoeSpec(tuple(Shoe.standard(8, jokers=1).counts)),
                        10)
    with pytest.raises(SimulationError, match="burn"):
        ShoeSpec.standard(8, burn="3")


# A tableau far from the seed's: the Player draws on 0-6, the Banker stands on 5 when the
# Player stood, and after a Player's third card draws on 0-4 whatever it was, on 5 never.
def _other_rules():
    from exact.games.baccarat.coup import STANDARD_RULES

    return dataclasses.replace(
        STANDARD_RULES, id="other", name="Other", player_draws_on=frozenset(range(7)),
        banker_draws_when_player_stands=frozenset(range(5)),
        banker_draws_on_player_third={t: frozenset(range(10) if t < 5 else ())
                                      for t in range(8)})


def test_the_dealer_for_a_rule_set_deals_its_own_tableau():
    """dealer_for: the seed's dealer for the standard tableau (whatever the rule set's name),
    else one whose every round is the game's own round on those rules, feature by feature."""
    from exact.games.baccarat.coup import STANDARD_RULES, PuntoBanco

    assert dealer.dealer_for(STANDARD_RULES) is PuntoBancoDealer
    renamed = dataclasses.replace(STANDARD_RULES, id="mine", name="Mine")
    assert dealer.dealer_for(renamed) is PuntoBancoDealer
    rules = _other_rules()
    game = PuntoBanco(rules=rules)
    other = dealer.dealer_for(rules)
    assert other is not PuntoBancoDealer
    rounds = other.deal(ShoeSpec.standard(8), np.random.SeedSequence(11), 10)
    names = sorted(set(dealer.FEATURES) & set(game.features))
    codes = dealer.codes(rounds, names, other.reader(rounds))
    for index in range(rounds.cards.shape[1]):
        player, banker = _hands(rounds.cards, index)
        record = game.record_from_cards(
            [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]])
        for name, code in zip(names, codes, strict=True):
            assert dealer.FEATURES[name].values[int(code[index])] == \
                game.features[name].read(record), (name, index)
    # the standard dealer would deal some of these rounds otherwise: a Player drawing on 6
    assert any(reference.total(_hands(rounds.cards, i)[0][:2]) == 6
               and rounds.cards[2, i] != ABSENT for i in range(rounds.cards.shape[1]))


def test_a_simulation_on_another_tableau_agrees_with_its_exact_edges():
    """The game's own dealer agrees with its exact edges, where the seed's does not."""
    from exact.games.baccarat.coup import PuntoBanco

    game = PuntoBanco(rules=_other_rules())
    bets = [b for b in game_bets(game) if b.id in ("banker", "player", "tie")]
    exact = _tables(analyze(game, Shoe.standard(6), bets))
    own = simulate_wagers(dealer.dealer_for(game.rules), bets, ShoeSpec.standard(6), 400_000,
                          seed=5)
    assert all(v.agrees for v in verdicts(own, exact))
    seeds = simulate_wagers(PuntoBancoDealer, bets, ShoeSpec.standard(6), 400_000, seed=5)
    assert not all(v.agrees for v in verdicts(seeds, exact))
