"""Baccara chemin de fer: the generic strategy-game algorithms against the literature and against
an independent brute-force twin.

Sources (what the retrieved texts state; the papers' tables of numbers could not be retrieved
here, so no value or strategy is pinned from them beyond what is quoted):
* S. N. Ethier and C. Gámez, "A game-theoretic analysis of baccara chemin de fer", Games 4 (2013)
  711, arXiv 1305.5468, introduction: Kemeny and Snell (1957), with replacement and totals only,
  "found the unique solution" of the 2 x 2^88 matrix game; Downton and Lockwood (1975), without
  replacement and the Banker seeing its composition, "found the unique solution" of the
  2 x 2^484 game for d = 1, ..., 8.
* Kemeny and Snell's Player draws on 5 with probability 9/11 (as issue 16 quotes it).
* S. N. Ethier and J. Lee, Games 14 (2023) 63, arXiv 2308.00118, abstract: with the commission
  "with rare exceptions, the Nash equilibrium is unique" (Model B2).
* Punto Banco, 8 decks (wizardofodds.com, /work/shared/reference/published-figures.md): Player
  1.2351%, Banker (pays 0.95) 1.0579%. With both sides on the tableau, chemin de fer is the
  Punto Banco coup.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations, product

import pytest

from exact.cli import main
from exact.games import get_game
from exact.games.chemin_de_fer import (
    PLAYER_FIVE,
    RULES,
    StrategyError,
    analyze,
    describe_set,
    equilibrium,
    house_way,
    nash_equilibria,
    sequence_form,
)
from exact.strategy_games import best_response, deviation_gains, evaluate

KEMENY_SNELL_DRAW_ON_FIVE = Fraction(9, 11)


def _mixed(strategy):
    return {h: p["draw"] for h, p in strategy.items() if 0 < p["draw"] < 1}


def test_kemeny_snell_model_player_draws_on_five_with_probability_nine_elevenths():
    found = equilibrium(RULES, None, "totals")
    assert found.verified  # exact best responses gain nothing, on either side
    assert found.strategies[0][PLAYER_FIVE]["draw"] == KEMENY_SNELL_DRAW_ON_FIVE
    # one mixed Banker set only: the solution is a 2 x 2 kernel (confirmed by the twin below)
    assert list(_mixed(found.strategies[1])) == [("banker", 6, None)]
    assert found.values[0] == -found.values[1] < 0


# --- the brute-force twin: a plain matrix game, written from scratch over totals ---------------
def _twin_contributions():
    """For each Player pure strategy at 5 (draw?), the Player's payoff (numerators over 13**6)
    as a constant plus, per Banker (total, third card or None) and action, an additive part."""
    weight = [4] + [1] * 9  # one deck's proportions over 13, with replacement
    two_card = [0] * 10
    for a, b in product(range(10), repeat=2):
        two_card[(a + b) % 10] += weight[a] * weight[b]

    def sign(player, banker):
        return (player > banker) - (player < banker)

    result = {}
    for draws_on_five in (True, False):
        constant = 0
        parts = {}
        for p, b in product(range(10), repeat=2):
            w = two_card[p] * two_card[b]
            if p >= 8 or b >= 8:
                constant += w * sign(p, b) * 13**2
                continue
            drawing = p <= 4 or (p == 5 and draws_on_five)
            thirds = [(c, weight[c]) for c in range(10)] if drawing else [(None, 1)]
            for third, w3 in thirds:
                final = p if third is None else (p + third) % 10
                fill = 13 if third is None else 1  # cards of the six-card unit left undealt
                stand = w * w3 * sign(final, b) * 13 * fill
                draw = w * w3 * fill * sum(weight[x] * sign(final, (b + x) % 10)
                                           for x in range(10))
                part = parts.setdefault((b, third), {"stand": 0, "draw": 0})
                part["stand"] += stand
                part["draw"] += draw
        result[draws_on_five] = (constant, parts)
    return result


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
    contributions = _twin_contributions()
    sets = sorted(contributions[True][1], key=repr)
    # the Banker's choices are additive: a set where the same action is best against both Player
    # pure strategies is fixed (strict dominance); the rest are enumerated in full
    fixed, open_sets = {}, []
    for h in sets:
        best = {s: max(("draw", "stand"), key=lambda a: -contributions[s][1][h][a])
                for s in (True, False)}
        differs = [contributions[s][1][h]["draw"] != contributions[s][1][h]["stand"]
                   for s in (True, False)]
        if best[True] == best[False] and all(differs):
            fixed[h] = best[True]
        else:
            open_sets.append(h)
    assert 1 <= len(open_sets) <= 4
    banker_pure = [dict(zip(open_sets, choice, strict=True))
                   for choice in product(("draw", "stand"), repeat=len(open_sets))]
    rows = []
    for s in (True, False):
        constant, parts = contributions[s]
        rows.append([Fraction(constant + sum(parts[h][{**fixed, **b}[h]] for h in sets), 13**6)
                     for b in banker_pure])
    value, p = _solve_two_row_game(rows)
    found = equilibrium(RULES, None, "totals")
    assert value == found.values[0]
    assert p == found.strategies[0][PLAYER_FIVE]["draw"] == KEMENY_SNELL_DRAW_ON_FIVE
    mixed_sets = {("banker", b, third) for b, third in open_sets}
    assert set(_mixed(found.strategies[1])) <= mixed_sets


def test_twin_payoffs_match_the_sequence_form_evaluation():
    """Evaluation: the twin's additive parts give the same value as the generic evaluation."""
    contributions = _twin_contributions()
    game = sequence_form(RULES, None, "totals")
    _player, banker = house_way(RULES, game)
    for draws in (True, False):
        chosen = {PLAYER_FIVE: {"draw": Fraction(int(draws)), "stand": Fraction(int(not draws))}}
        constant, parts = contributions[draws]
        twin = constant + sum(parts[h[1], h[2]]["draw" if banker[h]["draw"] else "stand"]
                              for h in game.sets[1])
        assert evaluate(game, chosen, banker)[0] == Fraction(twin, 13**6)


# --- the published uniqueness claims, by the exact enumeration of the supports ----------------
def test_kemeny_snell_solution_is_unique_and_the_enumeration_agrees_with_the_lp():
    every = nash_equilibria(RULES, None, "totals")
    assert every.unique
    lp = equilibrium(RULES, None, "totals")
    assert every.found[0].strategies == lp.strategies
    assert every.found[0].values == lp.values


@pytest.mark.parametrize("decks", range(2, 9))
def test_banker_composition_model_solution_is_unique_for_every_deck_count(decks):
    every = nash_equilibria(RULES, decks, "banker-cards")
    assert every.unique  # Downton and Lockwood: the unique solution, d = 1..8
    found = every.found[0]
    assert found.verified and 0 < found.strategies[0][PLAYER_FIVE]["draw"] < 1


@pytest.mark.parametrize("decks", [1, 6])
def test_banker_composition_model_has_a_unique_verified_solution(decks):
    lp = equilibrium(RULES, decks, "banker-cards")
    assert lp.verified
    every = nash_equilibria(RULES, decks, "banker-cards")
    assert every.unique  # Downton and Lockwood: the unique solution, d = 1..8
    assert every.found[0].strategies == lp.strategies
    # the Player mixes on 5 and the Banker seeing its cards does at least as well as seeing
    # only its total (more information cannot hurt the side that has it, nothing else changes)
    assert 0 < lp.strategies[0][PLAYER_FIVE]["draw"] < 1
    assert lp.values[0] <= equilibrium(RULES, decks, "totals").values[0]


def test_commission_game_has_a_unique_nash_equilibrium_and_player_indifference_survives():
    rules = RULES.with_commission(Fraction(1, 20))
    every = nash_equilibria(rules, 6, "banker-cards")
    assert every.unique and every.found[0].verified  # Ethier and Lee: unique but for rare cases
    parlor = equilibrium(RULES, 6, "banker-cards")
    found = every.found[0]
    # the Banker's mixing makes the Player indifferent, which the commission does not touch
    assert found.strategies[1] == parlor.strategies[1]
    assert found.values[0] == parlor.values[0]
    assert found.values[1] < parlor.values[1]  # the casino's cut
    assert found.strategies[0][PLAYER_FIVE]["draw"] != parlor.strategies[0][PLAYER_FIVE]["draw"]


# --- House Way is the Punto Banco coup --------------------------------------------------------
def test_house_way_against_house_way_is_the_punto_banco_coup():
    from exact.cards import Shoe

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
    assert round(float(-found.values[0]) * 100, 4) == 1.2351
    assert round(float(-found.values[1]) * 100, 4) == 1.0579


def test_best_responses_never_lose_and_equilibrium_lies_between():
    game = sequence_form(RULES, 2, "banker-cards")
    player, banker = house_way(RULES, game)
    house = evaluate(game, player, banker)[0]
    best = evaluate(game, best_response(game, 0, banker), banker)[0]
    dealer_best = evaluate(game, player, best_response(game, 1, player))[0]
    value = equilibrium(RULES, 2, "banker-cards").values[0]
    assert dealer_best <= value and dealer_best <= house <= best
    values, gains = deviation_gains(game, player, banker)
    assert values[0] == house and gains[0] == best - house and gains[1] == house - dealer_best


def test_cards_model_equilibrium_is_verified_with_five_player_sets():
    found = equilibrium(RULES, 6, "cards")
    assert found.verified
    assert len(found.strategies[0]) == 5  # the two-card compositions of 5
    assert found.values[0] >= equilibrium(RULES, 6, "banker-cards").values[0]


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
    assert Fraction(data["player_edge"]) == equilibrium(RULES, None, "totals").values[0]
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


def test_bad_rule_files_and_commissions_are_one_line_errors(tmp_path, capsys):
    from exact.errors import RuleError
    from exact.games.chemin_de_fer import DATA, Rules, parse_commission

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
        assert error.startswith("exact: error:") and error.count("\n") == 1
