"""Baccara chemin de fer: the generic strategy-game algorithms against the literature, against
hand derivations and against an independent twin.

What could be read of the literature, and where (searched again for issue 16, 2026-12-01). This
machine reaches no web site (curl cannot resolve arxiv.org or mdpi.com), so only stored copies
were searchable, and each of these holds the opening of the page only: title, abstract and
introduction, never the sections with the solutions or the tables.
* S. N. Ethier and C. Gámez, "A game-theoretic analysis of baccara chemin de fer", Games 4 (2013)
  711-737, arXiv 1305.5468 (ar5iv.labs.arxiv.org/html/1305.5468, mdpi.com/2073-4336/4/4/711,
  oalib.com/downloadEndnote/3090940: abstract and section 1): with replacement and totals only
  (Model A1) baccara "is a 2 x 2^88 matrix game", of which Kemeny and Snell (1957) "found the
  unique solution"; without replacement from d decks with the Banker seeing its composition
  (Model B2) "a 2 x 2^484 matrix game", of which Downton and Lockwood (1975) found "the unique
  solution" for d = 1, ..., 8 by "an algorithm of Foster" (1964); both seeing their compositions
  (Model B3) "a 2^5 x 2^484 matrix game", whose solution they "suspect" unique without proof.
* S. N. Ethier and J. Lee, "A game-theoretic analysis of baccara chemin de fer, II", Games 14
  (2023) 63, arXiv 2308.00118 (ar5iv.labs.arxiv.org/html/2308.00118, mdpi.com/2073-4336/14/5/63:
  abstract and section 1): Model B2 "was solved in part by Downton and Lockwood and in full by
  Ethier and Gámez"; with the commission, Model B2, "with rare exceptions, the Nash equilibrium is
  unique".
* Kemeny and Snell's Player draws on 5 with probability 9/11: issue 16 states it; no reachable
  text prints the number, so it is pinned (exact/data/chemin_de_fer/published.toml) and derived
  by hand (below).
* Punto Banco, 8 decks (wizardofodds.com, read from exact/data/punto_banco/published.toml):
  Player 1.2351%, Banker (pays 0.95) 1.0579%, to 4 decimals. House Way against House Way is
  that coup.
Tried and not found (the search tool's pages, docs, code and issues corpora, its exact-string
index of GitHub files, and its repository names): the papers' tables (queries on "Model B2" with
d = 1..8, "Foster's algorithm", the figures this solver gives, e.g. 253/342, -0.012799, -0.01294,
859/2288), Kemeny and Snell's Monthly paper (only its first paragraph, on paperexplained.cn),
Foster (1964), Downton and Lockwood (1975), Deloche and Oguer, Ethier's The Doctrine of Chances
(Springer 2010; only its front matter and appendix A turned up), R. A. Epstein's The Theory of
Gambling and Statistical Logic (only its front matter), Wikipedia's chemin de fer section, the
Wizard of Odds, and a Wizard of Vegas blog that solved the infinite-deck game
(wizardofvegas.com/member/kubikulann/blog/: stored up to, not including, its results). The
exact-string look-ups ("Kemeny and Snell", "Downton and Lockwood", "Foster's algorithm",
"baccara chemin de fer", "859/2288") found no GitHub file about baccarat.

So pinned to publications: the game sizes, the uniqueness for Models A1 and B2 (d = 1..8) and
with a commission (by the exact enumeration of supports), the Player's 9/11, and Punto Banco;
each typed once, with its source quoted, in exact/data/chemin_de_fer/published.toml (Punto
Banco's in exact/data/punto_banco/published.toml), read here through tests/support/published.py
and checked again, each on its own, by tests/system/test_published.py.
Not pinned to any publication, because no source giving them was reachable: the Kemeny-Snell
value and Banker mixing, and Model B2's values, Player mixing and Banker mixing for d = 1..8. In
their place, three independent checks of those figures:
* by hand (Model A1): 9/11 is exactly the Player mixing that leaves the Banker indifferent with 6
  against a standing Player, so the published figure puts the Banker's only mixing there; the
  Banker's 87 other sets and the solver's choices at them follow by hand; and the 2 x 2 kernel's
  closed form gives the value -679568/(11 * 13**6) and the Banker's 859/2288;
* by counting cards (Model B2, d = 1..8): the Player's mixing is the Banker's indifference at
  0+6 against a standing Player, the solver's one mixed set;
* by an independent twin: the payoffs written again from scratch (no code of the module) and
  solved by Foster's algorithm, the method the papers used, which must give the generic LP path's
  value, Player mixing and every one of the Banker's 88 or 484 decisions, exactly, for Model A1
  and for Model B2 with d = 1..8; for Model A1 also a plain matrix game over the Banker's
  undominated pure strategies. With a commission, the twin's equilibria found by Ethier and Lee's
  generalisation of Foster's algorithm (written from scratch) are exactly the generic support
  enumeration's (Model B2: d = 1 and 6 at 5%, d = 8 at 10%).
"""
from __future__ import annotations

import io
import json
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, pairwise, product
from math import perm
from typing import NamedTuple

import pytest

from exact.cli.app import main
from exact.core.cards import Shoe
from exact.engines import decisions
from exact.engines.decisions import decision_table
from exact.engines.strategy_games import best_response, deviation_gains, evaluate
from exact.errors import StrategyError
from exact.games import get_game
from exact.games.baccarat.tree import INFORMATION, Coup
from exact.games.chemin_de_fer import reference
from exact.games.chemin_de_fer.game import (
    PLAYER_FIVE,
    RULES,
    analyze,
    counted_form,
    describe_set,
    equilibrium,
    house_way,
    nash_equilibria,
    sequence_form,
    shoe_sequence_form,
)

from tests.support.published import CHEMIN_DE_FER, PUNTO_BANCO

KEMENY_SNELL_DRAW_ON_FIVE = Fraction(CHEMIN_DE_FER.value(
    "draw_probability", decks=None, replacement=True, information="totals", at="Player 5"))


def _published_unique(decks, information, commission=0):
    """Whether the sources say the model's solution is unique (always so, where they speak)."""
    return CHEMIN_DE_FER.value("unique", decks=decks, replacement=decks is None,
                               information=information, commission=commission)


@lru_cache(maxsize=32)
def _solved(decks, information):
    """The generic solver's equilibrium, solved once for the whole module (tests only read it)."""
    return equilibrium(RULES, decks, information)


def _mixed(strategy):
    return {h: p["draw"] for h, p in strategy.items() if 0 < p["draw"] < 1}


# small and odd shoes (seven cards; an uneven one of six values), then full shoes
REFERENCE_SHOES = ("AS:1,5H:2,9C:1,KD:1,3C:1,7H:1", "A:3,4:5,5:2,T:7,9:1,6:3",
                   "decks:1", "decks:6")
CHOOSING = replace(RULES, player_draws_on=frozenset({0, 1, 2}),
                   player_stands_on=frozenset({7}), player_chooses_on=frozenset({3, 4, 5, 6}),
                   house_player_draws_on=frozenset({3, 4}), commission=Fraction(1, 20))


def _shoe(text: str) -> Shoe:
    return Shoe.standard(int(text[6:])) if text.startswith("decks:") else Shoe.parse(text)


@pytest.mark.parametrize("rules", [RULES, CHOOSING], ids=["shipped", "choosing-on-3-6"])
@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("information", INFORMATION)
@pytest.mark.parametrize("shoe", REFERENCE_SHOES)
def test_the_generic_walk_is_the_direct_loops_of_the_reference(shoe, information, replacement,
                                                               rules):
    """The coup walked by the generic walker (its rests shared by totals and renamed) counts
    what the plain loops over the four cards of the reference count, pair by pair and
    outcome by outcome, with the same sets and parents: the same sequence form."""
    coup = Coup(rules.naturals, rules.player_draws_on, rules.player_chooses_on, information)
    table = decision_table(coup, _shoe(shoe), replacement)
    total, sets, parents, entries = reference.sequence_table(
        rules.naturals, rules.player_draws_on, rules.player_chooses_on, information, _shoe(shoe),
        replacement)
    assert (table.total, table.sets, table.parents) == (total, sets, parents)
    assert table.entries == entries
    walked = shoe_sequence_form(rules, _shoe(shoe), information, replacement)
    direct = counted_form(rules, total, sets, parents, entries)
    assert (walked.total, walked.sets, walked.parents) == (direct.total, direct.sets,
                                                           direct.parents)
    assert list(walked.sets[1]) == list(direct.sets[1])  # the order the reports list
    assert Counter(walked.leaves) == Counter(direct.leaves)


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("information", INFORMATION)
@pytest.mark.parametrize("shoe", REFERENCE_SHOES)
def test_rests_shared_by_totals_and_renamed_give_the_unshared_sequence_form(
        monkeypatch, shoe, information, replacement):
    """The rests after the Player's third card built once per pair of totals and renamed for
    the Banker's values: the very sequence form (leaves in the same order) of each rest built
    apart."""
    shared = shoe_sequence_form(CHOOSING, _shoe(shoe), information, replacement)
    monkeypatch.setattr(decisions, "_SHARE", False)
    assert shoe_sequence_form(CHOOSING, _shoe(shoe), information, replacement) == shared


@pytest.mark.parametrize("information", INFORMATION)
@pytest.mark.parametrize("shoe", REFERENCE_SHOES)
def test_with_replacement_rests_summed_once_give_each_weighing_summed(monkeypatch, shoe,
                                                                      information):
    """With replacement each rest (shared and renamed ones, of one card and of two) summed
    once and its weighings after the same sequences added up: the table of every weighing
    summed as it comes, every mapping in the same order."""
    coup = Coup(CHOOSING.naturals, CHOOSING.player_draws_on, CHOOSING.player_chooses_on,
                information)

    def in_order(table):
        return (table.total, [list(s.items()) for s in table.sets],
                [list(p.items()) for p in table.parents],
                [(pair, list(entry.items())) for pair, entry in table.entries.items()],
                table.outcomes)

    once = decision_table(coup, _shoe(shoe), True)
    monkeypatch.setattr(decisions, "_CONSTANT", False)
    assert in_order(decision_table(coup, _shoe(shoe), True)) == in_order(once)


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("shoe", REFERENCE_SHOES[:3])
def test_two_card_hands_dealt_inline_give_the_dealt_groups(monkeypatch, shoe, replacement):
    """The walk deals each two-card hand inline: the same sequence form, in the same order, as
    the groups of dealt_groups (a pair of one class of one card never dealt)."""
    inline = shoe_sequence_form(CHOOSING, _shoe(shoe), "cards", replacement)
    monkeypatch.setattr(decisions, "_ONE_CARD", False)
    assert shoe_sequence_form(CHOOSING, _shoe(shoe), "cards", replacement) == inline


def test_kemeny_snell_model_player_draws_on_five_with_probability_nine_elevenths():
    found = _solved(None, "totals")
    assert found.verified  # exact best responses gain nothing, on either side
    assert found.strategies[0][PLAYER_FIVE]["draw"] == KEMENY_SNELL_DRAW_ON_FIVE
    # one mixed Banker set only: the solution is a 2 x 2 kernel (confirmed by the twin below)
    assert list(_mixed(found.strategies[1])) == [("banker", 6, None)]
    assert found.values[0] == -found.values[1] < 0


@pytest.mark.parametrize("figure", CHEMIN_DE_FER.of_kind("game_size"),
                         ids=lambda figure: figure.id)
def test_game_sizes_are_the_published_ones(figure):
    """Ethier and Gámez (2013), abstract: Model A1 is a 2 x 2^88 matrix game, Model B2 a
    2 x 2^484 one (d = 1..8) and Model B3 a 2^5 x 2^484 one (each information set a binary
    choice)."""
    # a figure on no count of decks is dealt with replacement, as sequence_form's decks None
    game = sequence_form(RULES, figure.decks, figure.own_value("information"))
    assert figure.agrees((2 ** len(game.sets[0]), 2 ** len(game.sets[1])))
    assert all(actions == ("draw", "stand") for side in game.sets for actions in side.values())


def test_documented_results_table_is_what_the_solver_gives():
    """The site's table of Model B2 solutions (d = 1..8) is checked, not copied by hand."""
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "research" / "chemin-de-fer.md"
    readme = page.read_text()
    section = readme[readme.index("## Results (Model 2"):]
    rows = [line.split("|")[1:-1] for line in section.splitlines()
            if line.startswith("| ") and "deck" in line.split("|")[1]]
    assert [row[0].strip() for row in rows] == ["1 deck", *(f"{d} decks" for d in range(2, 9))]
    for decks, row in enumerate(rows, start=1):
        found = _solved(decks, "banker-cards")
        assert Fraction(row[1].strip()) == found.values[0]
        assert row[2].strip() == f"{float(found.values[0]):.4%}"
        assert Fraction(row[3].strip()) == found.strategies[0][PLAYER_FIVE]["draw"]
        where, probability = row[4].strip().rsplit(": ", 1)
        (mixed, draw), = _mixed(found.strategies[1]).items()
        assert (where, Fraction(probability)) == (describe_set(mixed), draw)


# --- the independent twin: the game's payoffs written again from scratch, solved two more ways ---
class _Twin(NamedTuple):
    """For each Player pure strategy (True: draw on 5), as a constant plus, per Banker information
    set (own total or two cards, the Player's third card or None), a part for each Banker action:
    the Player's payoff (``constant``, ``parts``) and the Banker's wins (``banker_wins``, the
    commission's base), all numerators over ``total``."""

    constant: dict[bool, int]
    parts: dict[bool, dict[tuple, dict[str, int]]]
    total: int
    constant_banker_wins: dict[bool, int]
    banker_wins: dict[bool, dict[tuple, dict[str, int]]]


@lru_cache(maxsize=16)
def _twin(decks, banker_sees_cards):
    """Models A1/A2 (decks None: one deck's proportions, with replacement) and B1/B2 (a full
    ``decks``-deck shoe), enumerated over unordered two-card hands; nothing of the module used."""
    counts = [4] + [1] * 9 if decks is None else [16 * decks] + [4 * decks] * 9
    size = sum(counts)

    def fill(dealt):  # ways to deal the rest of the six-card unit, so all share one denominator
        return size ** (6 - dealt) if decks is None else perm(size - dealt, 6 - dealt)

    def take(pool, card):
        return pool if decks is None else [n - (c == card) for c, n in enumerate(pool)]

    def hands(pool):
        for a in range(10):
            for b in range(a, 10):
                ways = (pool[a] * (pool[a] - (decks is not None)) if a == b
                        else 2 * pool[a] * pool[b])
                if ways > 0:
                    yield a, b, ways, take(take(pool, a), b)

    def outcome(player, banker, ways):  # (the Player's payoff, the Banker's wins)
        return ways * ((player > banker) - (player < banker)), ways * (banker > player)

    def banker_draws(player, banker, pool, ways):
        results = [outcome(player, (banker + x) % 10, ways * n) for x, n in enumerate(pool)]
        return sum(r[0] for r in results), sum(r[1] for r in results)

    constant, constant_wins = {True: 0, False: 0}, {True: 0, False: 0}
    parts, wins = {True: {}, False: {}}, {True: {}, False: {}}

    def add(strategies, infoset, stand, draw):
        for strategy in strategies:
            for table, index in ((parts, 0), (wins, 1)):
                part = table[strategy].setdefault(infoset, {"draw": 0, "stand": 0})
                part["draw"] += draw[index]
                part["stand"] += stand[index]

    for a, b, player_ways, after_player in hands(counts):
        player = (a + b) % 10
        for c, e, banker_ways, pool in hands(after_player):
            weight = player_ways * banker_ways
            banker = (c + e) % 10
            if player >= 8 or banker >= 8:  # a natural ends the coup
                pay, won = outcome(player, banker, weight * fill(4))
                for strategy in (True, False):
                    constant[strategy] += pay
                    constant_wins[strategy] += won
                continue
            own = (c, e) if banker_sees_cards else banker
            standing = [s for s in (True, False) if player in (6, 7) or (player == 5 and not s)]
            drawing = [s for s in (True, False) if player <= 4 or (player == 5 and s)]
            if standing:
                add(standing, (own, None), outcome(player, banker, weight * fill(4)),
                    banker_draws(player, banker, pool, weight * fill(5)))
            for third, count in enumerate(pool if drawing else ()):
                if count:
                    final, rest = (player + third) % 10, take(pool, third)
                    add(drawing, (own, third), outcome(final, banker, weight * count * fill(5)),
                        banker_draws(final, banker, rest, weight * count * fill(6)))
    return _Twin(constant, parts, fill(0), constant_wins, wins)


def _mix(twin, p, infoset, action):
    """The Player's payoff part at a set when it draws on 5 with probability ``p``."""
    return p * twin.parts[True][infoset][action] + (1 - p) * twin.parts[False][infoset][action]


def _foster(twin):
    """Foster's algorithm for an additive 2 x 2**n game (the method Downton and Lockwood and
    Ethier and Gámez used): against a Player drawing on 5 with probability p the Banker's best
    reply takes the smaller action at every set on its own, so the Player's guaranteed payoff is
    a concave piecewise-linear function of p whose maximum lies at 0, 1 or where some set's two
    actions cross. The Banker's optimal strategy: the better action wherever one is strictly
    better at that p, and at the one set where they tie, the mixture that leaves the Player
    indifferent between drawing and standing. Returns (p, value, Banker's drawing probabilities
    at the sets where its choice matters)."""
    sets = sorted(twin.parts[True], key=repr)

    def guaranteed(p):
        return (p * twin.constant[True] + (1 - p) * twin.constant[False]
                + sum(min(_mix(twin, p, h, "draw"), _mix(twin, p, h, "stand")) for h in sets))

    candidates = {Fraction(0), Fraction(1)}
    for h in sets:
        slope = (_mix(twin, 1, h, "draw") - _mix(twin, 1, h, "stand")
                 - _mix(twin, 0, h, "draw") + _mix(twin, 0, h, "stand"))
        if slope:
            crossing = Fraction(_mix(twin, 0, h, "stand") - _mix(twin, 0, h, "draw"), slope)
            if 0 < crossing < 1:
                candidates.add(crossing)
    p = max(candidates, key=guaranteed)
    matters = [h for h in sets if any(twin.parts[s][h]["draw"] != twin.parts[s][h]["stand"]
                                      for s in (True, False))]
    banker = {h: Fraction(_mix(twin, p, h, "draw") < _mix(twin, p, h, "stand")) for h in matters}
    tied = [h for h in matters if _mix(twin, p, h, "draw") == _mix(twin, p, h, "stand")]
    assert len(tied) == (0 < p < 1)  # one kernel set, as the papers' 2 x 2 kernels

    def advantage_of_drawing(q):  # the Player's gain from drawing over standing on 5
        chosen = {**banker, **{h: q for h in tied}}
        return (twin.constant[True] - twin.constant[False]
                + sum(chosen[h] * (twin.parts[True][h]["draw"] - twin.parts[False][h]["draw"])
                      + (1 - chosen[h]) * (twin.parts[True][h]["stand"]
                                           - twin.parts[False][h]["stand"]) for h in matters))

    for h in tied:  # linear in q: solve advantage(q) = 0 from its values at 0 and 1
        at_zero, at_one = advantage_of_drawing(Fraction(0)), advantage_of_drawing(Fraction(1))
        banker[h] = Fraction(at_zero, at_zero - at_one)
        assert 0 < banker[h] < 1
    return p, Fraction(guaranteed(p), twin.total), banker


def _banker_key(infoset):
    """The module's Banker set as the twin names it."""
    _kind, own, third = infoset
    return own, third


@pytest.mark.parametrize("decks", [None, *range(1, 9)])
def test_fosters_algorithm_on_the_twin_agrees_with_the_generic_solver(decks):
    """Models A1 (with replacement, totals) and B2 (d decks, the Banker sees its two cards): an
    independent payoff computation solved by Foster's algorithm gives the generic LP path's value,
    Player mixing and every Banker decision, exactly."""
    cards = decks is not None
    p, value, banker = _foster(_twin(decks, cards))
    found = _solved(decks, "banker-cards" if cards else "totals")
    assert found.values[0] == value
    assert found.strategies[0][PLAYER_FIVE]["draw"] == p
    generic = {_banker_key(h): found.strategies[1][h]["draw"] for h in found.strategies[1]}
    assert {h: generic[h] for h in banker} == banker
    assert {h for h, q in generic.items() if 0 < q < 1} == {h for h, q in banker.items()
                                                           if 0 < q < 1}


def _nash_with_commission(twin, commission):
    """Every Nash equilibrium of the additive 2 x 2**n bimatrix game with a commission on Banker
    wins (Ethier and Lee's generalisation of Foster's algorithm, written from scratch): against a
    Player drawing on 5 with probability p the Banker's best reply is set by set, so an
    equilibrium has p at 0, at 1 (each side's pure best reply to the other), or inside where the
    Banker is indifferent at one set and mixes there to make the Player indifferent; an interval
    of p with no Banker tie would need the Player indifferent against a pure Banker (a continuum,
    reported as None). Returns [(p, Banker's drawing probabilities, Player's value)]."""
    sets = sorted(twin.parts[True], key=repr)
    parts, wins = twin.parts, twin.banker_wins
    # the Banker's gain from drawing over standing at each set, against each Player pure
    # strategy, in integers (times the commission's denominator): minus the Player's gain, less
    # the commission on the extra wins
    scale, cut = commission.denominator, commission.numerator
    banker_gain = {s: {h: -scale * (parts[s][h]["draw"] - parts[s][h]["stand"])
                       - cut * (wins[s][h]["draw"] - wins[s][h]["stand"]) for h in sets}
                   for s in (True, False)}
    # the Player's gain from drawing over standing on 5, per Banker action at each set
    player_gain = {action: {h: parts[True][h][action] - parts[False][h][action] for h in sets}
                   for action in ("draw", "stand")}

    def drawing_gain(banker):
        return twin.constant[True] - twin.constant[False] + sum(
            banker[h] * player_gain["draw"][h] + (1 - banker[h]) * player_gain["stand"][h]
            for h in sets)

    def value(p, banker):
        return Fraction(p * twin.constant[True] + (1 - p) * twin.constant[False] + sum(
            banker[h] * _mix(twin, p, h, "draw") + (1 - banker[h]) * _mix(twin, p, h, "stand")
            for h in sets), twin.total)

    crossings = {Fraction(banker_gain[False][h], banker_gain[False][h] - banker_gain[True][h])
                 for h in sets if banker_gain[False][h] != banker_gain[True][h]}
    points = sorted({Fraction(0), Fraction(1), *(p for p in crossings if 0 < p < 1)})
    found = []
    for p in [*points, *((x + y) / 2 for x, y in pairwise(points))]:
        difference = {h: p.numerator * banker_gain[True][h]
                      + (p.denominator - p.numerator) * banker_gain[False][h] for h in sets}
        banker = {h: int(d > 0) for h, d in difference.items()}
        tied = [h for h, d in difference.items() if d == 0]
        assert len(tied) <= 1  # generic: at most one Banker tie at a time
        if tied:  # the Banker mixes where it is indifferent, so that the Player is too
            at_zero = drawing_gain({**banker, tied[0]: 0})
            at_one = drawing_gain({**banker, tied[0]: 1})
            if at_zero == at_one:
                continue
            banker[tied[0]] = Fraction(at_zero, at_zero - at_one)
            if not 0 <= banker[tied[0]] <= 1 or (p in (0, 1) and banker[tied[0]] in (0, 1)):
                continue  # no mixing that works, or a pure case already handled below
        gain = drawing_gain(banker)
        if (p == 0 and gain <= 0) or (p == 1 and gain >= 0) or (0 < p < 1 and gain == 0):
            found.append((p, {h: Fraction(q) for h, q in banker.items()}, value(p, banker))
                         if tied or p in (0, 1) else None)
    return found


@pytest.mark.parametrize(("decks", "commission"), [(1, Fraction(1, 20)), (6, Fraction(1, 20)),
                                                   (8, Fraction(1, 10))])
def test_generalised_foster_on_the_twin_agrees_with_the_bimatrix_enumeration(decks, commission):
    """Model B2 with a commission: the independent twin's equilibria are exactly the generic
    support enumeration's, one each (Ethier and Lee: unique with rare exceptions)."""
    twin = _twin(decks, True)
    every = _nash_with_commission(twin, commission)
    generic = nash_equilibria(RULES.with_commission(commission), decks, "banker-cards")
    assert len(every) == len(generic.found) == 1 and generic.unique
    (p, banker, value), found = every[0], generic.found[0]
    assert found.strategies[0][PLAYER_FIVE]["draw"] == p
    assert {_banker_key(h): s["draw"] for h, s in found.strategies[1].items()} == banker
    assert found.values[0] == value


def _solve_two_row_game(rows):
    """max over p of min over columns of p*rows[0][j] + (1-p)*rows[1][j], exactly: the best
    point of the lower envelope is at p = 0, p = 1 or where two columns cross."""
    columns = list(zip(*rows, strict=True))
    candidates = {Fraction(0), Fraction(1)}
    for (a1, b1), (a2, b2) in combinations(columns, 2):
        slope = (a1 - b1) - (a2 - b2)
        if slope:
            p = Fraction(b2 - b1, slope)
            if 0 <= p <= 1:
                candidates.add(p)
    return max((min(p * a + (1 - p) * b for a, b in columns), p) for p in candidates)


def test_brute_force_matrix_game_agrees_with_the_generic_solver():
    """Model A1 as a plain matrix game: the Player's 2 pure strategies against every Banker pure
    strategy on the sets not settled by strict dominance, solved by the lower envelope."""
    twin = _twin(None, False)
    sets = sorted(twin.parts[True], key=repr)
    # the Banker's choices are additive: a set where the same action is best against both Player
    # pure strategies is fixed (strict dominance); the rest are enumerated in full
    fixed, open_sets = {}, []
    for h in sets:
        best = {s: min(("draw", "stand"), key=lambda a: twin.parts[s][h][a]) for s in (True, False)}
        differs = [twin.parts[s][h]["draw"] != twin.parts[s][h]["stand"] for s in (True, False)]
        if best[True] == best[False] and all(differs):
            fixed[h] = best[True]
        else:
            open_sets.append(h)
    assert 1 <= len(open_sets) <= 4
    banker_pure = [dict(zip(open_sets, choice, strict=True))
                   for choice in product(("draw", "stand"), repeat=len(open_sets))]
    rows = [[Fraction(twin.constant[s] + sum(twin.parts[s][h][{**fixed, **b}[h]] for h in sets),
                      twin.total) for b in banker_pure] for s in (True, False)]
    value, p = _solve_two_row_game(rows)
    found = _solved(None, "totals")
    assert value == found.values[0]
    assert p == found.strategies[0][PLAYER_FIVE]["draw"] == KEMENY_SNELL_DRAW_ON_FIVE
    mixed_sets = {("banker", b, third) for b, third in open_sets}
    assert set(_mixed(found.strategies[1])) <= mixed_sets


@pytest.mark.parametrize(("decks", "information"), [(None, "totals"), (1, "banker-cards")])
def test_twin_payoffs_match_the_sequence_form_evaluation(decks, information):
    """Evaluation: the twin's additive parts give the generic evaluation's value, for both Player
    pure strategies against the casino tableau and against its mirror image."""
    twin = _twin(decks, information == "banker-cards")
    game = sequence_form(RULES, decks, information)
    _player, house = house_way(RULES, game)
    mirror = {h: {"draw": p["stand"], "stand": p["draw"]} for h, p in house.items()}
    for banker in (house, mirror):
        for draws in (True, False):
            chosen = {PLAYER_FIVE: {"draw": Fraction(int(draws)),
                                    "stand": Fraction(int(not draws))}}
            expected = twin.constant[draws] + sum(
                twin.parts[draws][_banker_key(h)]["draw" if banker[h]["draw"] else "stand"]
                for h in game.sets[1])
            assert evaluate(game, chosen, banker)[0] == Fraction(expected, twin.total)


# --- Kemeny and Snell's 9/11 by hand, and Model A1's 2 x 2 kernel in closed form ---------------
# With replacement (Model A1) a card is 0-valued with probability 4/13 and each of 1..9 with 1/13,
# the two hands are independent, and a two-card total t has probability 25/169 if t = 0 and 16/169
# otherwise (t != 0: 2 * 4 * 1 ways with one 0-valued card, 8 * 1 * 1 from the other pairs).
_WITH_REPLACEMENT = {0: Fraction(4, 13), **{x: Fraction(1, 13) for x in range(1, 10)}}
_TWO_CARD_TOTAL = {t: sum(_WITH_REPLACEMENT[a] * _WITH_REPLACEMENT[(t - a) % 10] for a in range(10))
                   for t in range(10)}


def _sign(first, second):
    return (first > second) - (first < second)


def _banker_expects(banker, player, draws):
    """The Banker's expectation with two-card total ``banker`` against a Player's final total,
    standing or drawing one card (Model A1)."""
    if not draws:
        return _sign(banker, player)
    return sum(chance * _sign((banker + x) % 10, player) for x, chance in _WITH_REPLACEMENT.items())


def _banker_gain_from_drawing(banker, third, p):
    """The Banker's gain from drawing over standing at (own total, the Player's third card or None
    for a standing Player) against a Player drawing on 5 with probability ``p``, up to a positive
    factor: the Player's final totals there, weighted by their chances."""
    if third is None:  # the Player stood: 5 (if not drawing), 6 or 7
        weights = {5: (1 - p) * _TWO_CARD_TOTAL[5], 6: _TWO_CARD_TOTAL[6], 7: _TWO_CARD_TOTAL[7]}
    else:  # the Player drew on 0-4, and on 5 with probability p
        weights = {}
        for total in range(6):
            final = (total + third) % 10
            chance = _TWO_CARD_TOTAL[total] * (p if total == 5 else 1)
            weights[final] = weights.get(final, 0) + chance
    return sum(weight * (_banker_expects(banker, final, True)
                         - _banker_expects(banker, final, False))
               for final, weight in weights.items())


def test_kemeny_snell_nine_elevenths_by_hand_and_where_the_banker_mixes():
    """Model A1. The Player's 9/11 is published (Kemeny and Snell, 1957). With 6 against a
    standing Player (5 with probability 1 - p, or 6 or 7, each two-card total 16/169), the Banker
    drawing gains over standing, per unit of chance: against 5, 2/13 - 1 = -11/13 (drawing makes
    6, 7, 8 or 9 with 4/13 + 3/13, 5 with 1/13, 0..4 with 5/13); against 6, -3/13 - 0; against 7,
    -8/13 + 1 = 5/13. So the Banker is indifferent there exactly when 11 (1 - p) = 5 - 3, that is
    p = 9/11: the published figure forces the Banker's mixing onto (6, Player stood). Against
    p = 9/11 every other one of the 88 Banker sets has a strictly better action, and the solver
    plays it there and mixes only at (6, Player stood)."""
    assert _TWO_CARD_TOTAL[0] == Fraction(25, 169)
    assert all(_TWO_CARD_TOTAL[t] == Fraction(16, 169) for t in range(1, 10))
    per_total = [_banker_expects(6, t, True) - _banker_expects(6, t, False) for t in (5, 6, 7)]
    assert per_total == [Fraction(-11, 13), Fraction(-3, 13), Fraction(5, 13)]
    p = 1 + (per_total[1] + per_total[2]) / per_total[0]  # (1 - p) * (-11) - 3 + 5 = 0
    assert p == KEMENY_SNELL_DRAW_ON_FIVE
    found = _solved(None, "totals")
    assert found.strategies[0][PLAYER_FIVE]["draw"] == p
    tied = []
    for banker in range(8):
        for third in (None, *range(10)):
            gain = _banker_gain_from_drawing(banker, third, p)
            played = found.strategies[1][("banker", banker, third)]["draw"]
            if gain == 0:
                tied.append((banker, third))
            else:
                assert played == (gain > 0)  # the strict best reply to 9/11, by hand
    assert tied == [(6, None)]
    assert list(_mixed(found.strategies[1])) == [("banker", 6, None)]


def test_kemeny_snell_value_is_the_closed_form_of_its_two_by_two_kernel():
    """Model A1 reduces to a 2 x 2 kernel: the Player draws or stands on 5 (rows), the Banker draws
    or stands with 6 against a standing Player (columns), every other Banker set at its strict best
    reply to 9/11 (previous test). With the kernel's Player payoffs a (draw, draw), b (draw,
    stand), c (stand, draw), d (stand, stand), each summed by hand over the two independent
    two-card totals and the one or two third cards, the solution is the textbook closed form
    p = (d - c) / D, q = (d - b) / D, value = (a d - b c) / D, D = a - b - c + d. The kernel gives
    back the published p = 9/11 and the solver's value and Banker mixing, exactly: value
    -679568/53094899 = -679568 / (11 * 13**6), q = 859/2288 = 859 / (16 * 11 * 13)."""
    nine_elevenths = KEMENY_SNELL_DRAW_ON_FIVE
    replies = {(banker, third): _banker_gain_from_drawing(banker, third, nine_elevenths) > 0
               for banker in range(8) for third in (None, *range(10))}

    def player_payoff(draws_on_five, banker_draws_with_six_against_stand):
        chosen = {**replies, (6, None): banker_draws_with_six_against_stand}
        total = Fraction(0)
        for player, player_chance in _TWO_CARD_TOTAL.items():
            for banker, banker_chance in _TWO_CARD_TOTAL.items():
                if player >= 8 or banker >= 8:  # a natural ends the coup
                    result = Fraction(_sign(player, banker))
                elif player >= 6 or (player == 5 and not draws_on_five):
                    result = -_banker_expects(banker, player, chosen[(banker, None)])
                else:
                    result = -sum(chance * _banker_expects(banker, (player + x) % 10,
                                                           chosen[(banker, x)])
                                  for x, chance in _WITH_REPLACEMENT.items())
                total += player_chance * banker_chance * result
        return total

    a, b = player_payoff(True, True), player_payoff(True, False)
    c, d = player_payoff(False, True), player_payoff(False, False)
    denominator = a - b - c + d
    p, q, value = (d - c) / denominator, (d - b) / denominator, (a * d - b * c) / denominator
    assert p == KEMENY_SNELL_DRAW_ON_FIVE
    found = _solved(None, "totals")
    assert found.values[0] == value and (value * 11 * 13**6).denominator == 1
    assert found.strategies[1][("banker", 6, None)]["draw"] == q
    assert value == Fraction(-679568, 53094899) and q == Fraction(859, 2288)


@pytest.mark.parametrize("decks", range(1, 9))
def test_model_b2_player_mixing_is_the_banker_indifference_at_ten_six_against_a_stand(decks):
    """Model B2, d decks. The solver's one mixed Banker set is 0+6 (a 0-valued card and a 6)
    against a standing Player, so the Player's probability p of drawing on 5 must leave the Banker
    indifferent there; that indifference alone gives p by counting cards: for each Player two-card
    hand with total 5, 6 or 7 left in the shoe after the Banker's 0 and 6, the Banker's gain from
    drawing over standing with the cards then left, (1 - p) * G5 + G6 + G7 = 0. The count agrees
    with the solver's p for every d = 1..8 (d = 1: 253/342)."""
    counts = [16 * decks] + [4 * decks] * 9
    counts[0] -= 1
    counts[6] -= 1
    gains = {5: 0, 6: 0, 7: 0}
    for first, second in product(range(10), repeat=2):
        total = (first + second) % 10
        ways = counts[first] * (counts[second] - (first == second))
        if total in gains and ways > 0:
            left = list(counts)
            left[first] -= 1
            left[second] -= 1
            # every hand leaves the same number of cards, so counts stand in for chances
            gains[total] += ways * (sum(n * _sign((6 + x) % 10, total) for x, n in enumerate(left))
                                    - sum(left) * _sign(6, total))
    p = 1 + Fraction(gains[6] + gains[7], gains[5])
    found = _solved(decks, "banker-cards")
    assert list(_mixed(found.strategies[1])) == [("banker", (0, 6), None)]
    assert found.strategies[0][PLAYER_FIVE]["draw"] == p
    if decks == 1:
        assert p == Fraction(253, 342)


# --- the published uniqueness claims, by the exact enumeration of the supports ----------------
def test_kemeny_snell_solution_is_unique_and_the_enumeration_agrees_with_the_lp():
    every = nash_equilibria(RULES, None, "totals")
    assert every.unique == _published_unique(None, "totals") is True
    lp = _solved(None, "totals")
    assert every.found[0].strategies == lp.strategies
    assert every.found[0].values == lp.values


@pytest.mark.parametrize("decks", range(2, 9))
def test_banker_composition_model_solution_is_unique_for_every_deck_count(decks):
    every = nash_equilibria(RULES, decks, "banker-cards")
    # Downton and Lockwood: the unique solution, d = 1..8
    assert every.unique == _published_unique(decks, "banker-cards") is True
    found = every.found[0]
    assert found.verified and 0 < found.strategies[0][PLAYER_FIVE]["draw"] < 1


@pytest.mark.parametrize("decks", [1, 6])
def test_banker_composition_model_has_a_unique_verified_solution(decks):
    lp = _solved(decks, "banker-cards")
    assert lp.verified
    every = nash_equilibria(RULES, decks, "banker-cards")
    # Downton and Lockwood: the unique solution, d = 1..8
    assert every.unique == _published_unique(decks, "banker-cards") is True
    assert every.found[0].strategies == lp.strategies
    # the Player mixes on 5 and the Banker seeing its cards does at least as well as seeing
    # only its total (more information cannot hurt the side that has it, nothing else changes)
    assert 0 < lp.strategies[0][PLAYER_FIVE]["draw"] < 1
    assert lp.values[0] <= _solved(decks, "totals").values[0]


def test_commission_game_has_a_unique_nash_equilibrium_and_player_indifference_survives():
    rules = RULES.with_commission(Fraction(1, 20))
    every = nash_equilibria(rules, 6, "banker-cards")
    # Ethier and Lee: unique but for rare cases
    assert every.unique == _published_unique(6, "banker-cards", "1/20") is True
    assert every.found[0].verified
    parlor = _solved(6, "banker-cards")
    found = every.found[0]
    # the Banker's mixing makes the Player indifferent, which the commission does not touch
    assert found.strategies[1] == parlor.strategies[1]
    assert found.values[0] == parlor.values[0]
    assert found.values[1] < parlor.values[1]  # the casino's cut
    assert found.strategies[0][PLAYER_FIVE]["draw"] != parlor.strategies[0][PLAYER_FIVE]["draw"]


# --- House Way is the Punto Banco coup --------------------------------------------------------
def test_house_way_against_house_way_is_the_punto_banco_coup():
    from exact.core.cards import Shoe

    punto_banco = get_game("punto-banco")
    rounds = punto_banco.round_distribution(Shoe.standard(8), ["winner"])
    wins = {side: sum(c for r, c in rounds.counts.items()
                      if punto_banco.read(r, "winner") == side) for side in ("player", "banker")}
    total = sum(rounds.counts.values())
    for commission in (Fraction(0), Fraction(1, 20)):
        found = analyze(RULES.with_commission(commission), 8, "totals", "house")
        assert found.values[0] == Fraction(wins["player"] - wins["banker"], total)
        assert found.values[1] == Fraction((1 - commission) * wins["banker"] - wins["player"],
                                           total)
    # published: Player 1.2351%, Banker paying 0.95 1.0579% (8 decks)
    assert PUNTO_BANCO.find("house_edge", bet="player").agrees(-found.values[0])
    assert PUNTO_BANCO.find("house_edge", bet="banker").agrees(-found.values[1])


def test_best_responses_never_lose_and_equilibrium_lies_between():
    game = sequence_form(RULES, 2, "banker-cards")
    player, banker = house_way(RULES, game)
    house = evaluate(game, player, banker)[0]
    best = evaluate(game, best_response(game, 0, banker), banker)[0]
    dealer_best = evaluate(game, player, best_response(game, 1, player))[0]
    value = _solved(2, "banker-cards").values[0]
    assert dealer_best <= value and dealer_best <= house <= best
    values, gains = deviation_gains(game, player, banker)
    assert values[0] == house and gains[0] == best - house and gains[1] == house - dealer_best


def test_cards_model_equilibrium_is_verified_with_five_player_sets():
    found = _solved(6, "cards")
    assert found.verified
    assert len(found.strategies[0]) == 5  # the two-card compositions of 5
    assert found.values[0] >= _solved(6, "banker-cards").values[0]


def test_a_player_choosing_on_several_totals_decides_at_each_total_apart():
    """A rule file may let the Player choose on several totals; under the totals model it
    knows which, so each total is an information set of its own (fuzz17: every choice total
    was the one set 'Player 5', so the Player had to play alike on 4 and on 7). Brute force:
    the best response by total against House Way is the best of the 2**4 pure policies by
    total, each played in the cards model (where a policy by total is one by cards)."""
    from exact.engines.strategy_games import pure

    rules = replace(RULES, player_draws_on=frozenset({0, 1, 2, 3}),
                    player_stands_on=frozenset(), player_chooses_on=frozenset({4, 5, 6, 7}))
    totals, cards = sequence_form(rules, 1, "totals"), sequence_form(rules, 1, "cards")
    assert sorted(totals.sets[0]) == [("player", total) for total in (4, 5, 6, 7)]
    banker = house_way(rules, totals)[1]
    best = evaluate(totals, best_response(totals, 0, banker), banker)[0]
    cards_banker = house_way(rules, cards)[1]
    policies = []
    for choice in product(("draw", "stand"), repeat=4):
        by_total = dict(zip((4, 5, 6, 7), choice, strict=True))
        player = pure(cards, 0, lambda infoset, _actions, by_total=by_total:
                      by_total[sum(infoset[1]) % 10])
        policies.append(evaluate(cards, player, cards_banker)[0])
    assert best == max(policies)
    assert max(policies) > max(policies[0], policies[-1])  # (all draw, all stand: not enough)


def test_nash_enumeration_of_a_game_with_many_choices_is_bounded(monkeypatch):
    """The support enumeration stops after ``max_work`` terms of gains, not only after
    ``max_candidates`` supports (fuzz17: a rule file letting the Player choose on every
    total, banker-cards, a commission: each support cost 12 ms, 5,000 of them a minute); the
    answer then says it is not exhaustive. The shipped games never reach the bound (their
    results are unchanged: the tests above)."""
    import exact.engines.strategy_games as strategy_games

    rules = replace(RULES, player_draws_on=frozenset(), player_stands_on=frozenset(),
                    player_chooses_on=frozenset(range(8)), commission=Fraction(1, 20))
    game = sequence_form(rules, 1, "banker-cards")
    evaluated = []
    gain = strategy_games._Bilinear.gain

    def counted(self, side, infoset, other):
        evaluated.append(len(self.slope[side][infoset]) + 1)
        return gain(self, side, infoset, other)

    monkeypatch.setattr(strategy_games._Bilinear, "gain", counted)
    found = strategy_games.bimatrix_equilibria(game, max_work=200_000)
    assert not found.exhaustive
    # past the bound by at most one support's gains: every set of both sides, once or twice
    one_try = 2 * sum(len(row) + 1 for side in (0, 1) for row in _slopes(game, side))
    assert 200_000 < sum(evaluated) <= 200_000 + one_try


def _slopes(game, side):
    from exact.engines.strategy_games import _bilinear

    return _bilinear(game).slope[side].values()


def test_rule_files_refuse_unknown_keys_and_non_boolean_flags(tmp_path):
    """A misspelt rule or a House Way flag written as text is refused, not silently read as
    the default (``comission``) or as true (``bool("false")``)."""
    from exact.errors import RuleError
    from exact.games.chemin_de_fer.rules import DATA, Rules

    good = (DATA / "rules.toml").read_text()
    path = tmp_path / "rules.toml"
    for broken, message in (
            (good.replace('commission = "0"', 'comission = "5%"'), "unknown rule(s) 'comission'"),
            (good.replace("player_draws_on_five = true", 'player_draws_on_five = "false"'),
             "true or false"),
            (good.replace("player_draws_on_five = true", "player_draws_on_five = 0"),
             "true or false"),
            (good.replace("7 = []", "7 = []\n10 = [1]"), "'10'"),
            (good.replace("[house_way]", "[house_way]\nbanker_draws_on_six = true"),
             "'banker_draws_on_six'")):
        path.write_text(broken)
        with pytest.raises(RuleError, match=re.escape(message)):
            Rules.load(path)
    path.write_text(good)
    assert Rules.load(path) == RULES


def test_the_rules_pickle_and_copy_whole():
    """The rules (House Way's tableau inside them included) go to worker processes and
    deep copies as they did before the tableau record held them: equal, with one hash."""
    import copy
    import pickle

    for rules in (RULES, RULES.with_commission(Fraction(1, 20))):
        for twin in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules)):
            assert twin == rules and hash(twin) == hash(rules)
            assert twin.house_way.banker_draws(3, 8) == rules.house_way.banker_draws(3, 8)


def test_describe_and_bad_input():
    assert describe_set(PLAYER_FIVE) == "Player 5"
    with pytest.raises(StrategyError):
        sequence_form(RULES, 2, "everything")
    with pytest.raises(StrategyError):
        analyze(RULES, 2, "totals", "cheat")


# --- command line --------------------------------------------------------------------------------
def test_cli_json_gives_exact_edge_tables_and_check(capsys):
    assert main(["analyze", "chemin-de-fer", "--with-replacement", "--information", "totals",
                 "--strategy", "equilibrium", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["player_edge"]) == _solved(None, "totals").values[0]
    assert data["strategy_tables"]["player"] == [{"information": "Player 5", "draw": "9/11"}]
    assert len(data["strategy_tables"]["banker"]) == 88
    assert data["deviation_check"] == {"player_gain": "0", "banker_gain": "0",
                                       "equilibrium": True}
    assert data["equilibria_found"] == 1 and data["unique"] is True
    # with replacement the Banker's composition informs nothing: a continuum, said so
    assert main(["analyze", "chemin-de-fer", "--with-replacement", "--information",
                 "banker-cards", "--strategy", "equilibrium", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unique"] is False and data["deviation_check"]["equilibrium"] is True


def test_cli_csv_gives_each_information_sets_exact_draw_and_the_pairs_edges(capsys):
    """The strategies reach a spreadsheet: a row per side and information set, exact cells
    as spreadsheet text (read back to the analysis' fractions), the float beside each."""
    import csv

    assert main(["analyze", "chemin-de-fer", "--with-replacement", "--information", "totals",
                 "--strategy", "equilibrium", "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    solved = analyze(RULES, None, "totals", "equilibrium")

    def exact(cell: str) -> Fraction:
        assert cell.startswith('="') and cell.endswith('"')
        return Fraction(cell[2:-1])

    assert [row["side"] for row in rows] == ["player"] + ["banker"] * 88
    assert rows[0]["information_set"] == "Player 5" and exact(rows[0]["draw_probability"]) \
        == Fraction(9, 11) and float(rows[0]["draw_probability_float"]) == pytest.approx(9 / 11)
    for row in rows:
        assert (exact(row["player_edge"]), exact(row["banker_edge"])) == solved.values
        assert (exact(row["player_gain"]), exact(row["banker_gain"])) == (0, 0)
        assert float(row["banker_edge_float"]) == pytest.approx(float(solved.values[1]))
    draws = {row["information_set"]: exact(row["draw_probability"]) for row in rows[1:]}
    assert draws == {describe_set(h): solved.strategies[1][h]["draw"]
                     for h in solved.game.sets[1]}
    assert main(["analyze", "chemin-de-fer", "--csv", "--json"]) == 2  # one format


def test_bad_rule_files_and_commissions_are_one_line_errors(tmp_path, capsys):
    from exact.errors import RuleError
    from exact.games.chemin_de_fer.rules import DATA, Rules, parse_commission

    for text in ("1e999999", "-1%", "0.2", "1/0", "x"):
        with pytest.raises(RuleError):
            parse_commission(text)
    good = (DATA / "rules.toml").read_text()
    for broken in (good.replace("player_chooses_on = [5]", "player_chooses_on = [5, 6]"),
                   good.replace("decks = 6", 'decks = "six"'),
                   good.replace('commission = "0"', 'commission = "1e99999999"'),
                   good.replace("[house_way]", "[house_rules]"), "naturals = [8, 9\n"):
        path = tmp_path / "rules.toml"
        path.write_text(broken)
        with pytest.raises(RuleError):
            Rules.load(path)
        assert main(["analyze", "chemin-de-fer", "--rules", str(path)]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_cli_text_and_errors(capsys):
    assert main(["analyze", "chemin-de-fer", "--decks", "1", "--commission", "5%",
                 "--strategy", "equilibrium"]) == 0
    text = capsys.readouterr().out
    assert "Nash equilibria found: 1; unique" in text and "commission 1/20" in text
    for bad in (["--commission", "1/5"], ["--decks", "0"], ["--strategy", "x"],
                ["--decks", "2", "--with-replacement"], ["--shoe", "A:8"]):
        assert main(["analyze", "chemin-de-fer", *bad]) == 2
        error = capsys.readouterr().err
        # a number the grammar refuses (--commission 1/5) is refused as the line is parsed
        assert error.startswith(("exact: error:", "exact: usage error:"))
        assert error.count("\n") == 1


# --- House Way in a rule file: every row the rules consult, said explicitly (issue 26) ----------
def _rule_file(tmp_path, text: str):
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("row", ["0", "3", "5", "7"])
def test_a_house_way_row_left_out_is_refused_not_read_as_never_draw(tmp_path, capsys, row):
    """Issue 26: rows of the Banker's tableau left out were read as "never draw" (a file
    without rows 3-7 gave the Player +4.03%, exit 0). Each row the Banker decides on must be
    given; the one line names the missing row."""
    from exact.errors import RuleError
    from exact.games.chemin_de_fer.rules import DATA, Rules

    good = (DATA / "rules.toml").read_text()
    line = next(line for line in good.splitlines() if line.startswith(f"{row} = ["))
    path = _rule_file(tmp_path, good.replace(line + "\n", ""))
    with pytest.raises(RuleError, match=rf"missing row\(s\) {row}:"):
        Rules.load(path)
    assert main(["analyze", "chemin-de-fer", "--rules", str(path), "--strategy", "house"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"missing row(s) {row}" in error


def test_the_four_percent_file_is_refused(tmp_path, capsys):
    """The shape of the audit's file: the tableau cut to rows 0-2 (the Banker would never draw
    on 3-7 against a third card: the Player's House Way edge became positive)."""
    from exact.games.chemin_de_fer.rules import DATA

    good = (DATA / "rules.toml").read_text()
    cut = good[:good.index("3 = [")]
    assert main(["analyze", "chemin-de-fer", "--rules", str(_rule_file(tmp_path, cut)),
                 "--strategy", "house"]) == 2
    assert "missing row(s) 3, 4, 5, 6, 7:" in capsys.readouterr().err


def test_rows_the_rules_never_consult_are_refused(tmp_path):
    from exact.errors import RuleError
    from exact.games.chemin_de_fer.rules import DATA, Rules

    good = (DATA / "rules.toml").read_text()
    with pytest.raises(RuleError, match=r"row\(s\) 8 are never consulted"):
        Rules.load(_rule_file(tmp_path, good.replace("7 = []", "7 = []\n8 = [1]")))
    # the same of rules made in code: a natural of 7 leaves House Way's row 7 unread
    with pytest.raises(RuleError, match=r"row\(s\) 7 are never consulted"):
        replace(Rules.load(), naturals=frozenset({7, 8, 9}), player_stands_on=frozenset({6}))
    # a Player who never draws: the reader's empty rows stand, a row saying something does not
    text = good[:good.index("[house_way.banker_draws_on")].replace(
        "player_draws_on = [0, 1, 2, 3, 4]", "player_draws_on = []").replace(
        "player_stands_on = [6, 7]", "player_stands_on = [0, 1, 2, 3, 4, 5, 6, 7]").replace(
        "player_chooses_on = [5]", "player_chooses_on = []").replace(
        "player_draws_on_five = true\n", "")
    never = Rules.load(_rule_file(tmp_path, text))
    assert not never.house_player_draws_on and not any(
        never.house_banker_draws_on_player_third.values())
    with pytest.raises(RuleError, match=r"row\(s\) 3 are never consulted"):
        replace(never, house_banker_draws_on_player_third={
            **never.house_banker_draws_on_player_third, 3: frozenset({1})})


def test_the_five_flag_speaks_of_a_five_only(tmp_path, capsys):
    """Issue 26: ``player_draws_on_five`` applied to every total the Player chose on. It is the
    Player's option on 5 (the published game's only one); another choice total needs its own
    explicit House Way row, and the flag is refused where the Player does not choose on 5."""
    from exact.errors import RuleError
    from exact.games.chemin_de_fer.rules import DATA, Rules

    good = (DATA / "rules.toml").read_text()
    four = good.replace("player_draws_on = [0, 1, 2, 3, 4]", "player_draws_on = [0, 1, 2, 3]"
                        ).replace("player_chooses_on = [5]", "player_chooses_on = [4, 5]")
    with pytest.raises(RuleError, match=r"House Way for the Player's choice on 4 is missing"):
        Rules.load(_rule_file(tmp_path, four))
    assert main(["analyze", "chemin-de-fer", "--rules", str(tmp_path / "rules.toml")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    for stands in (True, False):
        text = four + f"\n[house_way.player_draws_on_choice]\n4 = {str(not stands).lower()}\n"
        rules = Rules.load(_rule_file(tmp_path, text))
        assert rules.house_player_draws_on == ({5} if stands else {4, 5})
        game = sequence_form(rules, None, "totals")
        player = house_way(rules, game)[0]
        assert player[("player", 5)]["draw"] == 1
        assert player[("player", 4)]["draw"] == (0 if stands else 1)
    # a choice row for 5 (the flag's), for a total the Player does not choose on, and the
    # flag without a choice on 5: each refused
    for text, message in (
            (four + "\n[house_way.player_draws_on_choice]\n4 = true\n5 = true\n", "'5'"),
            (four + "\n[house_way.player_draws_on_choice]\n4 = true\n6 = true\n", "'6'"),
            (good.replace("player_stands_on = [6, 7]", "player_stands_on = [5, 6, 7]")
             .replace("player_chooses_on = [5]", "player_chooses_on = []"),
             "player_draws_on_five is given but the Player does not choose on 5")):
        with pytest.raises(RuleError, match=re.escape(message)):
            Rules.load(_rule_file(tmp_path, text))


def test_house_way_with_the_flag_on_five_only_matches_the_twin_choice(tmp_path):
    """The audit's other shape: the Player choosing on 4 and 5 with the flag true used to draw
    on both. Now House Way draws on 4 only if the file says so, and its value equals the
    game's own evaluation of that pure policy."""
    from exact.engines.strategy_games import evaluate, pure
    from exact.games.chemin_de_fer.rules import DATA, Rules

    good = (DATA / "rules.toml").read_text()
    text = (good.replace("player_draws_on = [0, 1, 2, 3, 4]", "player_draws_on = [0, 1, 2, 3]")
            .replace("player_chooses_on = [5]", "player_chooses_on = [4, 5]")
            + "\n[house_way.player_draws_on_choice]\n4 = false\n")
    rules = Rules.load(_rule_file(tmp_path, text))
    game = sequence_form(rules, None, "totals")
    banker = house_way(rules, game)[1]
    stands_on_four = pure(game, 0, lambda infoset, _a: "stand" if infoset[1] == 4 else "draw")
    assert evaluate(game, house_way(rules, game)[0], banker) == evaluate(
        game, stands_on_four, banker)
