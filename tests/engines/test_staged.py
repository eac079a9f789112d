"""The staged evaluator (bets settled on the first cards, fine views on both hands) against
the direct recursive enumerator and the card-by-card brute force."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from hypothesis import given

from exact.analysis.bet_analysis import analyze
from exact.core.cards import Shoe
from exact.core.enumerator import falling
from exact.games.baccarat.coup import FEATURES, PuntoBanco
from exact.games.baccarat.reference import brute_force
from exact.model.bets import load_bets
from exact.model.features import Feature, Needs

from tests.support.published import PUNTO_BANCO
from tests.support.shoes import card_shoes

BETS = """
[[bet]]
id = "perfect-pairs"
  [[bet.event]]
  name = "Both"
  when = "player_pair == 'perfect' and banker_pair == 'perfect'"
  pays = 250
  [[bet.event]]
  name = "One"
  when = "player_pair == 'perfect' or banker_pair == 'perfect'"
  pays = 25
[[bet]]
id = "suited-nines"
  [[bet.event]]
  name = "Both suited nines"
  when = "player_suited and banker_suited and player_initial_total == banker_initial_total == 9"
  pays = 100
  [[bet.event]]
  name = "Same ranks"
  when = "player_initial_ranks == banker_initial_ranks"
  pays = 3
[[bet]]
id = "player-tiers"
  [[bet.event]]
  name = "Perfect"
  when = "player_pair == 'perfect'"
  pays = 25
  [[bet.event]]
  name = "Mixed"
  when = "player_pair in ('mixed', 'colored')"
  pays = 6
[[bet]]
id = "identical-hands"
  [[bet.event]]
  name = "Same two cards"
  when = "same_two_cards"
  pays = 500
"""


@dataclass(frozen=True)
class WithCrossFeature(PuntoBanco):
    """Punto Banco plus a feature that reads both hands at once."""

    @cached_property
    def features(self) -> dict[str, Feature]:
        return {**FEATURES, "same_two_cards": Feature(
            "same_two_cards", "both hands hold the same two cards",
            Needs.of(player=["rank", "suit"], banker=["rank", "suit"]),
            lambda record: sorted(record[0]) == sorted(record[1]))}


GAME = WithCrossFeature()
PARSED = load_bets("staged.toml", GAME.features, text=BETS)


@given(card_shoes(copies=3, kinds=(3, 9)))
def test_staged_equals_direct(shoe):
    staged = analyze(GAME, shoe, PARSED)
    direct = analyze(GAME, shoe, PARSED, engine="direct")
    for bet in PARSED:
        assert staged.bets[bet.id].counts == direct.bets[bet.id].counts
        assert sum(staged.bets[bet.id].counts) == falling(shoe.size, 6)


def test_staged_equals_brute_force_on_a_small_odd_shoe():
    shoe = Shoe.from_counts({"AS": 2, "AH": 1, "9D": 2, "9S": 1, "KD": 2, "5C": 1})
    counts = brute_force(shoe, ("player_pair", "banker_pair"))
    both = sum(c for (p, b), c in counts.items() if p == b == "perfect")
    one = sum(c for (p, b), c in counts.items() if "perfect" in (p, b)) - both
    assert analyze(GAME, shoe, PARSED[:1]).bets["perfect-pairs"].counts[:2] == (both, one)


def test_eight_deck_perfect_pairs_published():
    result = analyze(GAME, Shoe.standard(8), PARSED[:1]).bets["perfect-pairs"]
    # Published over C(416,2)·C(414,2) unordered hands (the figures' `per`); this module's
    # own bet has the shipped bet's events in the same order
    events = ("Both hands", "One hand", "No perfect pair")
    for event, count in zip(events, result.counts, strict=True):
        figure = PUNTO_BANCO.find("count", bet="perfect-pairs", event=event)
        assert figure.expressed(figure.in_unit(count, result.total)) == figure.value
    edge = PUNTO_BANCO.find("house_edge", bet="perfect-pairs", paytable="25-250")
    assert edge.expressed(result.table().house_edge) == edge.value


def test_staged_beyond_int64_equals_direct():
    # 100,000 cards: N**4 > 2**63, so the staged weights are Python integers (the gathers,
    # not the int64 sparse product); three classes keep both engines cheap
    shoe = Shoe.from_counts({"AS": 40_000, "AH": 30_000, "9D": 20_000, "KD": 10_000})
    staged = analyze(GAME, shoe, PARSED)
    direct = analyze(GAME, shoe, PARSED, engine="direct")
    for bet in PARSED:
        assert staged.bets[bet.id].counts == direct.bets[bet.id].counts
    assert sum(staged.bets["perfect-pairs"].counts) == falling(shoe.size, 6) > 2**63


def test_gathered_and_sparse_excess_agree(monkeypatch):
    """A batch of at most ``_GATHERED_SHOES`` shoes gathers the shared pairs' excess pair by
    pair, a larger one takes one sparse product: both give the direct enumerator's counts."""
    import numpy as np

    from exact.engines import staged

    shoes = [Shoe.from_counts(counts) for counts in (
        {"AS": 2, "AH": 1, "9D": 2, "9S": 1, "KD": 2, "5C": 1},
        {"AS": 3, "9D": 1, "9S": 2, "KD": 1, "KC": 1, "2H": 2},
        {"AH": 1, "9D": 3, "KD": 2, "5C": 2, "5S": 1})]
    deal = GAME.deal(GAME.needs(sorted({name for bet in PARSED for name in bet.features})))
    direct = [analyze(GAME, shoe, PARSED, engine="direct").bets for shoe in shoes]
    expected = [[bets[bet.id].counts for bet in PARSED] for bets in direct]
    # only the classes the shoes hold, as a one-shoe analysis does: every hand is cheap
    present = tuple(tuple(i for i, n in enumerate(sum(np.array(draw.view.class_counts(shoe))
                                                      for shoe in shoes)) if n)
                    for _, draw in staged.fixed_stages(deal) or ())
    for gathered in (len(shoes), 0):
        monkeypatch.setattr(staged, "_GATHERED_SHOES", gathered)
        counts = staged.StagedDeal(GAME, deal, present).counts(
            PARSED, np.array([shoe.counts for shoe in shoes]))
        assert [[tuple(map(int, per_bet[row])) for per_bet in counts]
                for row in range(len(shoes))] == expected
