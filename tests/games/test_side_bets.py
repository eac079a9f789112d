"""Punto Banco side bets and rule variants (exact/data/punto_banco/side_bets.toml).

The relations between the published figures (exact/data/punto_banco/published.toml) are
asserted exactly; every
shipped bet is compared with the card-by-card brute force of exact/games/baccarat/reference.py
on small
odd shoes; hypothesis checks invariants between bets on random small shoes.

Counting units. The engine counts ordered sequences of 6 cards, denominator N!/(N-6)!.
Pair figures are published per *unordered* two-card hand: a hand's first two cards, out of
C(416, 2) = 86,320. An unordered hand {x, y} is 2 ordered deals of those two places, and the
other 4 places of the 6-card unit are filled in (N-2)(N-3)(N-4)(N-5) ways whatever the hand,
so a published count h becomes h * 2 * falling(N - 2, 4) (and h / C(N, 2) is the same
probability). Perfect Pairs on either hand is published over C(416,2) * C(414,2): an unordered
Player hand, then an unordered Banker hand; each is 2 orderings and the last 2 places fill in
falling(N - 4, 2) ways, so a published count h becomes h * 2 * 2 * falling(N - 4, 2).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import CARDS, Shoe
from exact.core.enumerator import falling
from exact.games.baccarat.coup import DATA
from exact.games.baccarat.reference import brute_force
from exact.model.bets import Bet, load_bets
from exact.reference.published import game_figures

from tests.support.readme_commands import example_bets
from tests.support.shoes import pool_shoes

ROOT = Path(__file__).resolve().parents[2]
EIGHT = Shoe.standard(8)
TOTAL_8 = falling(416, 6)
PUBLISHED = game_figures("punto-banco")

SEED_BETS = {  # id: group; every side bet and rule variant of the seed, defined as data
    "player-pair": "side", "banker-pair": "side", "either-pair": "side", "big": "side",
    "small": "side", "perfect-pairs": "side", "player-perfect-pair": "side",
    "banker-perfect-pair": "side", **{f"egalite-{t}": "side" for t in range(10)},
    "egalite-group-0": "side", "egalite-group-1-3": "side", "egalite-group-4-5": "side",
    "egalite-group-6-7": "side", "egalite-group-8-9": "side", "super-6": "side",
    "banker-no-commission": "variant", "ez-banker": "variant", "dragon-7": "side",
    "panda-8": "side", "dragon-bonus-player": "side", "dragon-bonus-banker": "side",
}
# Bets that need rank and suit of both hands' first two cards: the generic engine enumerates
# 1378**2 initial deals for them, so they run on small shoes only until the lead's fast path.
BOTH_HANDS_FINE = {"perfect-pairs"}


@pytest.fixture(scope="module")
def shipped(punto_banco) -> dict[str, Bet]:
    return {bet.id: bet for bet in game_bets(punto_banco)}


@pytest.fixture(scope="module")
def eight(punto_banco, shipped):
    """8-deck analysis of every shipped bet the generic engine does fast."""
    bets = [bet for bet in shipped.values() if bet.id not in BOTH_HANDS_FINE]
    return analyze(punto_banco, EIGHT, bets).bets


def test_every_seed_bet_ships_as_data(punto_banco, shipped):
    side = load_bets(DATA / "side_bets.toml", punto_banco.features)
    assert {bet.id: bet.group for bet in side} == SEED_BETS
    assert all(bet.description and bet.name for bet in side)
    assert {b.id for b in shipped.values() if b.group == "main"} == {"banker", "player", "tie"}
    assert shipped["tie"].paytables == ["8-to-1", "9-to-1"]  # Tie at 8:1 and 9:1
    assert shipped["player-pair"].paytables == ["11-to-1", "12-to-1"]
    assert shipped["super-6"].paytables == ["12-20", "12-23", "flat-15"]
    assert shipped["perfect-pairs"].paytables == ["25-250", "25-either"]
    assert shipped["big"].events[0].pays == Fraction(27, 50)
    assert shipped["small"].events[0].pays == Fraction(3, 2)


# --- published figures, 8 decks ------------------------------------------------------------------
# Each figure of exact/data/punto_banco/published.toml is compared with the library by
# tests/system/test_published.py; here, the relations between the bets that the published
# figures imply, with the figures read from that file.

def test_ez_baccarat(eight):
    dragon, ez = eight["dragon-7"], eight["ez-banker"]
    assert dragon.counts[0] == PUBLISHED.value("count", bet="dragon-7", event="Dragon 7")
    assert ez.counts[0] == dragon.counts[0]  # the EZ Banker pushes exactly on a Dragon 7
    assert ez.counts[0] + ez.counts[1] == eight["banker"].counts[0]


def test_banker_wins_with_six(eight):
    two_card, three_card = (PUBLISHED.value("count", bet="super-6", event=event)
                            for event in ("Two-card 6", "Three-card 6"))
    on_six = PUBLISHED.value("count", bet="banker-no-commission", event="Banker wins on 6")
    assert two_card + three_card == on_six
    assert on_six == PUBLISHED.value("feature_count", winner="banker", banker_total=6)
    super_6 = eight["super-6"]
    assert super_6.counts[:2] == (two_card, three_card)
    assert eight["banker-no-commission"].counts[0] == on_six
    flat = super_6.table("flat-15")
    assert flat.expected_value == Fraction(16 * on_six, TOTAL_8) - 1


def tie_count(total: int) -> int:
    """The published count of ties on ``total`` (the Egalité table)."""
    return PUBLISHED.value("feature_count", winner="tie", player_total=total)


@pytest.mark.parametrize("tie_total", range(10))
def test_egalite(eight, tie_total):
    table = eight[f"egalite-{tie_total}"].table()
    assert table.outcomes[0].combinations == tie_count(tie_total)
    assert table.expected_value == Fraction(tie_count(tie_total) * (table.outcomes[0].pays + 1),
                                            TOTAL_8) - 1


def test_grouped_egalite_adds_up_the_single_totals(eight):
    groups = {"egalite-group-0": (0,), "egalite-group-1-3": (1, 2, 3),
              "egalite-group-4-5": (4, 5), "egalite-group-6-7": (6, 7),
              "egalite-group-8-9": (8, 9)}
    for bet_id, totals in groups.items():
        assert eight[bet_id].counts[0] == sum(tie_count(t) for t in totals)
    every_tie = PUBLISHED.value("count", bet="tie", event="Tie")
    assert sum(eight[b].counts[0] for b in groups) == every_tie


def test_pairs(eight):
    unit = 2 * falling(414, 4)  # one unordered two-card hand -> ordered 6-card sequences
    hands = PUBLISHED.find("count", bet="player-pair", event="Pair").per
    assert hands == comb(416, 2) and hands * unit == TOTAL_8
    pairs = PUBLISHED.value("count", bet="player-pair", event="Pair")
    tiers = [PUBLISHED.value("count", bet="player-perfect-pair", event=event)
             for event in ("Perfect pair", "Colored pair", "Mixed pair")]
    assert sum(tiers) == pairs
    for bet_id in ("player-pair", "banker-pair"):
        pair = eight[bet_id]
        assert pair.counts[0] == pairs * unit
        assert pair.table().expected_value == Fraction(pairs * 12, hands) - 1
    for bet_id in ("player-perfect-pair", "banker-perfect-pair"):
        counted = eight[bet_id]
        assert list(counted.counts[:3]) == [tier * unit for tier in tiers]
        assert counted.counts[3] == (hands - pairs) * unit
        pays = [outcome.pays for outcome in counted.table().outcomes[:3]]
        assert counted.table().expected_value == Fraction(
            sum((pay + 1) * tier for pay, tier in zip(pays, tiers, strict=True)), hands) - 1


def test_perfect_pairs_either_hand(punto_banco, shipped):
    both, one, none = (PUBLISHED.find("count", bet="perfect-pairs", event=event)
                       for event in ("Both hands", "One hand", "No perfect pair"))
    assert both.per == comb(416, 2) * comb(414, 2) == both.value + one.value + none.value
    unit = 2 * 2 * falling(412, 2)  # unordered Player hand, unordered Banker hand -> 6 cards
    result = analyze(punto_banco, EIGHT, [shipped["perfect-pairs"]]).bets["perfect-pairs"]
    assert result.counts == (both.value * unit, one.value * unit, none.value * unit)
    table = result.table()
    assert table.expected_value == Fraction(251 * both.value + 26 * one.value, both.per) - 1
    assert result.table("25-either").expected_value == Fraction(
        26 * (both.value + one.value), both.per) - 1


# --- every bet against the card-by-card brute force ----------------------------------------------

ODD_SHOES = [  # few distinct cards so the brute force stays quick; identical cards for perfects
    "9H:2,9D:1,9S:1,KC:2,5H:2,3D:1,7C:2,6H:1",
    "AS:2,AH:1,8D:2,TC:1,QC:1,4H:2,2S:1,6D:1",
    "7S:3,7H:1,JD:2,JC:1,8C:2,2H:1,3S:1",
]


def brute_force_counts(bets: list[Bet], shoe: Shoe) -> dict[str, list[int]]:
    """Event counts of each bet, settling the reference's rounds by the bets' conditions."""
    names = sorted(set().union(*(bet.features for bet in bets)))
    rounds = brute_force(shoe, names)
    out = {bet.id: [0] * len(bet.events) for bet in bets}
    for values, count in rounds.items():
        features = dict(zip(names, values, strict=True))
        for bet in bets:
            out[bet.id][bet.settle(features)] += count
    return out


@pytest.mark.parametrize("spec", ODD_SHOES)
def test_every_shipped_bet_matches_the_brute_force(punto_banco, shipped, spec):
    shoe = Shoe.parse(spec)
    bets = list(shipped.values())
    expected = brute_force_counts(bets, shoe)
    direct = analyze(punto_banco, shoe, bets, engine="direct").bets
    compiled = analyze(punto_banco, shoe, [b for b in bets if b.id not in BOTH_HANDS_FINE]).bets
    for bet in bets:
        assert list(direct[bet.id].counts) == expected[bet.id], bet.id
        if bet.id in compiled:
            assert list(compiled[bet.id].counts) == expected[bet.id], bet.id
    assert sum(sum(c) for c in expected.values()) == len(bets) * falling(shoe.size, 6)


# --- invariants on random small shoes ------------------------------------------------------------

POOL = [CARDS.index(c) for c in CARDS[:52] if c.rank in "A3589TK" and c.suit in "HDS"]
BOTH_PAIRED = """
[[bet]]
id = "both-paired"
[[bet.event]]
name = "Both"
when = "player_paired and banker_paired"
pays = 1
[[bet]]
id = "any-natural"
[[bet.event]]
name = "Natural"
when = "player_natural or banker_natural"
pays = 1
"""


# 10 shoes, not the profile's 25: each analysis of the 32 bets costs 0.8 s of CPU whatever the
# shoe (the direct engine's work estimate), and the identities below hold on every shoe
@settings(max_examples=10)
@given(pool_shoes(POOL))
def test_invariants_between_bets(punto_banco, shipped, shoe):
    extra = load_bets("invariants.toml", punto_banco.features, text=BOTH_PAIRED)
    result = analyze(punto_banco, shoe, [*shipped.values(), *extra], engine="direct").bets
    counts = {bet_id: analysis.counts for bet_id, analysis in result.items()}
    total = falling(shoe.size, 6)
    assert all(sum(c) == total for c in counts.values())
    # Player and Banker receive their first two cards from the same exchangeable shoe
    assert counts["player-pair"] == counts["banker-pair"]
    assert counts["player-perfect-pair"] == counts["banker-perfect-pair"]
    assert counts["player-pair"][0] == sum(counts["player-perfect-pair"][:3])
    assert counts["either-pair"][0] == (counts["player-pair"][0] + counts["banker-pair"][0]
                                        - counts["both-paired"][0])
    # "One hand" is exactly one perfect pair, so the hands' perfect pairs add up to one + 2 both
    both, one = counts["perfect-pairs"][:2]
    assert one + 2 * both == counts["player-perfect-pair"][0] + counts["banker-perfect-pair"][0]
    # Dragon Bonus: not symmetric, but its naturals split the rounds with any natural
    player_bonus, banker_bonus = counts["dragon-bonus-player"], counts["dragon-bonus-banker"]
    assert player_bonus[1] == banker_bonus[1]  # natural ties
    assert player_bonus[0] + banker_bonus[0] + player_bonus[1] == counts["any-natural"][0]
    assert sum(player_bonus[:-1]) - player_bonus[1] <= counts["player"][0]
    assert sum(banker_bonus[:-1]) - banker_bonus[1] <= counts["banker"][0]
    # the same events seen by different bets
    assert counts["big"][0] == counts["small"][1] and counts["small"][0] == counts["big"][1]
    assert sum(counts[f"egalite-{t}"][0] for t in range(10)) == counts["tie"][0]
    assert counts["banker-no-commission"][0] == sum(counts["super-6"][:2])
    assert counts["ez-banker"][0] == counts["dragon-7"][0]
    assert counts["ez-banker"][0] + counts["ez-banker"][1] == counts["banker"][0]


@given(pool_shoes(POOL, largest=9))
def test_random_shoes_match_the_brute_force(punto_banco, shipped, shoe):
    bets = [shipped[b] for b in ("perfect-pairs", "either-pair", "dragon-bonus-banker",
                                 "super-6", "big")]
    expected = brute_force_counts(bets, shoe)
    result = analyze(punto_banco, shoe, bets, engine="direct").bets
    assert {b.id: list(result[b.id].counts) for b in bets} == expected


# --- your own bets, the shipped example -----------------------------------------------------------

def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exact", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_bets_written_only_in_toml_are_analysed_exactly(punto_banco, tmp_path):
    path = tmp_path / "my_bets.toml"
    path.write_text(example_bets())
    mine = load_bets(path, punto_banco.features)
    assert {bet.id for bet in mine} == {"both-natural-9", "combined-total"}
    spec = ODD_SHOES[1]
    result = run("analyze", "punto-banco", "--shoe", spec, "--bets", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    expected = brute_force_counts(mine, Shoe.parse(spec))
    for bet in mine:
        outcomes = data["bets"][bet.id]["outcomes"]
        assert [o["combinations"] for o in outcomes] == expected[bet.id]
        value = sum(Fraction(o["pays"]) * o["combinations"] for o in outcomes) / data["total"]
        assert data["bets"][bet.id]["house_edge"] == str(-value)


def test_cli_selection_and_listing(capsys):
    """Run in this process (`python -m exact` itself is run by test_cli and the fuzz suite):
    the listing, and the bets that --group and --bet select."""
    from exact.cli.app import main

    def output(*args: str) -> str:
        assert main(list(args)) == 0
        return capsys.readouterr().out

    text = output("list-bets", "punto-banco")
    assert text.index("[main]") < text.index("[variant]") < text.index("[side]")
    assert "paytable 12-23: Two-card 6 = 12, Three-card 6 = 23" in text
    assert "  dragon-7 " in text and "  perfect-pairs " in text
    every = json.loads(output("analyze", "punto-banco", "--decks", "1", "--json"))["bets"]
    assert {"dragon-7", "perfect-pairs", "banker", "egalite-7"} <= set(every)
    result = output("analyze", "punto-banco", "--decks", "1", "--group", "variant", "--json")
    assert set(json.loads(result)["bets"]) == {"banker-no-commission", "ez-banker"}
    result = output("analyze", "punto-banco", "--decks", "1", "--bet", "player-pair",
                    "--paytable", "player-pair=12-to-1", "--json")
    pair = json.loads(result)["bets"]["player-pair"]
    assert pair["paytable"] == "12-to-1" and pair["outcomes"][0]["pays"] == "12"


# --- malformed bet files -------------------------------------------------------------------------

GOOD = """
[[bet]]
id = "{id}"
name = "Mine"
  [[bet.event]]
  name = "Win"
  when = "{when}"
  pays = {pays}
"""


@pytest.mark.parametrize(("text", "problem"), [
    (GOOD.format(id="x", when="colour == 'red'", pays=1), "unknown feature(s) 'colour'"),
    (GOOD.format(id="x", when="winner == ", pays=1), "syntax error"),
    (GOOD.format(id="x", when="winner == 'tie'", pays=-5), "is negative"),
    (GOOD.format(id="x", when="winner == 'tie'", pays='"lots"'), "is not a number"),
    (GOOD.format(id="x", when="winner == 'tie'", pays="[1, 2]"), "is not a number"),
    (GOOD.format(id="x", when="winner == 'tie'", pays="nan"), "is not a number"),
    (GOOD.format(id="x", when="winner == 'tie'", pays="") + "\n", "not valid TOML"),
    (GOOD.format(id="x", when="winner == 'tie'", pays=1) * 2, "duplicate id"),
    (GOOD.format(id="dragon-7", when="winner == 'tie'", pays=1), "duplicate id"),
    (GOOD.format(id="x", when="player_third + 1 > 3", pays=1), "cannot evaluate"),
])
def test_malformed_bet_file_one_line_status_2(tmp_path, text, problem):
    path = tmp_path / "broken.toml"
    path.write_text(text)
    result = run("analyze", "punto-banco", "--decks", "1", "--bets", str(path))
    assert result.returncode == 2
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0] and problem in lines[0], lines[0]
    bet_id = "dragon-7" if "dragon-7" in text else "x"
    assert f"bet {bet_id!r}" in lines[0], lines[0]


def test_duplicate_id_across_files_names_both_files(tmp_path):
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    first.write_text(GOOD.format(id="same", when="winner == 'tie'", pays=1))
    second.write_text(GOOD.format(id="same", when="winner == 'player'", pays=1))
    result = run("list-bets", "punto-banco", "--bets", str(first), "--bets", str(second))
    assert result.returncode == 2
    line = result.stderr.strip()
    assert line.count("\n") == 0 and str(second) in line and str(first) in line
    assert "bet 'same': duplicate id" in line


# --- settled rounds and a seeded simulation ----------------------------------------------------

@pytest.mark.parametrize(("cards", "expected"), [
    # Player 2C KD = 2 draws 4H -> 6; Banker 3H 2S = 5 draws on a 4 -> 2D = 7: three-card 7 win
    ("2C 3H KD 2S 4H 2D", {"dragon-7": 40, "ez-banker": 0, "banker-no-commission": 1,
                           "dragon-bonus-banker": -1, "panda-8": -1, "big": Fraction(27, 50)}),
    # Player 2C 3D = 5 draws 3H -> 8; Banker 7H KS = 7 stands: Player wins with a three-card 8
    ("2C 7H 3D KS 3H", {"panda-8": 25, "dragon-bonus-player": -1, "dragon-7": -1,
                        "small": -1, "big": Fraction(27, 50)}),
    # identical pairs on both hands: Player 9H 9H = 8 (natural), Banker 5C 5C = 0
    ("9H 5C 9H 5C", {"perfect-pairs": 250, "player-perfect-pair": 25, "banker-pair": 11,
                     "either-pair": 5, "dragon-bonus-player": 1, "small": Fraction(3, 2),
                     "egalite-8": -1}),
    # colored pairs: Player 6D 6H (both red, different suits), Banker QS QC (both black)
    ("6D QS 6H QC 5S 9D", {"player-perfect-pair": 12, "banker-perfect-pair": 12,
                           "perfect-pairs": -1}),
])
def test_settled_rounds(punto_banco, cards, expected):
    from exact.model.settlement import Wager, settle_round

    settled = settle_round(punto_banco, cards, [Wager(bet, 1) for bet in expected])
    assert {s.wager.bet: s.net for s in settled.settlements} == expected


def test_seeded_simulation_agrees_with_the_side_bets(punto_banco, shipped, eight):
    from exact.games.baccarat.reference import simulate

    rounds, z = 20_000, 3.89  # two-sided 99.99% normal quantile
    bets = [shipped[b] for b in ("dragon-7", "panda-8", "super-6", "player-perfect-pair",
                                 "dragon-bonus-banker", "big", "egalite-7")]
    names = sorted(set().union(*(bet.features for bet in bets)))
    seen = simulate(EIGHT, rounds, seed=20261130, names=names)
    for bet in bets:
        hits = [0] * len(bet.events)
        for values, count in seen.items():
            hits[bet.settle(dict(zip(names, values, strict=True)))] += count
        for outcome, hit in zip(eight[bet.id].table().outcomes, hits, strict=True):
            p = float(outcome.probability)
            assert abs(hit / rounds - p) <= z * (p * (1 - p) / rounds) ** 0.5, (bet.id, outcome)
