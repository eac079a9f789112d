"""The engine plan (exact/engines/plan.py): every engine it can choose agrees with the reference
twin, every command runs the same engine for the same bet, and a forced engine that cannot serve a
bet is refused by name."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import ClassVar

import pytest

from exact.analysis import bet_analysis as analysis
from exact.analysis.bet_analysis import analyze, game_bets
from exact.cli.app import main
from exact.core.cards import CARDS, Shoe
from exact.engines import batch, plan, staged
from exact.engines.batch import BetEvaluator
from exact.engines.compiled import counts_matrix
from exact.engines.live import next_round
from exact.games import game_ids, get_game
from exact.games.simple import StagesGame
from exact.model.bets import LOSE, Bet, Event
from exact.model.expressions import Expression
from exact.model.features import Feature, Needs
from exact.reference.punto_banco import brute_force

SHOES = {  # a small shoe of ranks and suits, and an odd one (identical cards, for perfects)
    "small": Shoe.parse("AS:2,5H:2,9D:2,KC:2,2D:1,7C:1"),
    "odd": Shoe.parse("7S:3,7H:1,JD:2,JC:1,8C:2,2H:1,3S:1"),
}
GAME = get_game("punto-banco")
BETS = game_bets(GAME)
# the card-level examples of the README: the factorised engine's bets (the other engines would
# compile them over every rank-and-suit class, minutes each; tests/engines/test_factorised.py has
# them)
CARD_LEVEL = [bet for bet in game_bets(GAME, [Path(__file__).parents[1] / "data" /
                                              "card_level_bets.toml"]) if bet not in BETS]
# bets on card values, some by position (a hand's first card): the compiled engine's in batches
VALUE_LEVEL = [bet for bet in game_bets(GAME, [Path(__file__).parents[1] / "data" /
                                               "value_level_bets.toml"]) if bet not in BETS]
NAMES = sorted(set().union(*(bet.features for bet in [*BETS, *CARD_LEVEL, *VALUE_LEVEL])))


@cache
def _brute_force(shoe: Shoe) -> Counter:
    """The reference's rounds by every feature the shipped bets read (one walk per shoe)."""
    return brute_force(shoe, NAMES)


def reference_counts(bets: list, shoe: Shoe) -> dict[str, list[int]]:
    names = NAMES
    out = {bet.id: [0] * len(bet.events) for bet in bets}
    for values, count in _brute_force(shoe).items():
        features = dict(zip(names, values, strict=True))
        for bet in bets:
            out[bet.id][bet.settle(features)] += count
    return out


def served(engine: str, scope: plan.Scope) -> list:
    bets = CARD_LEVEL if engine in ("factorised", "classes") else [*BETS, *VALUE_LEVEL]
    return [bet for bet in bets
            if plan._engine(engine).judge(plan.Demand(GAME, bet, scope))[0]]


def engine_counts(engine: str, scope: plan.Scope, bets: list, shoe: Shoe) -> dict[str, list[int]]:
    """Counts of ``bets`` by ``engine`` alone, in the unit of the reference (6-card sequences)."""
    if scope == "shoe":
        return {bet_id: list(result.counts)
                for bet_id, result in analyze(GAME, shoe, bets, engine).bets.items()}
    if scope == "batch":
        out = {}
        groups = plan.plan(GAME, bets, scope, engine).groups(GAME)
        for (name, deal), (needs, group) in groups.items():
            blocks = batch.BATCH_RUNNERS[name](GAME, deal, needs, group)(counts_matrix([shoe]))
            out.update({bet.id: [int(count) for count in block[0]]
                        for bet, block in zip(group, blocks, strict=True)})
        return out
    # known: the card at position 1 forced, summed over every physical card of the shoe
    total: dict[str, Counter] = {bet.id: Counter() for bet in bets}
    for index, count in enumerate(shoe.counts):
        if count:
            rounds = next_round(GAME, shoe, bets, known={1: CARDS[index]})
            for bet in bets:
                for event, value in enumerate(rounds[bet.id].counts):
                    total[bet.id][event] += count * value
    return {bet.id: [total[bet.id][event] for event in range(len(bet.events))] for bet in bets}


CASES = [(engine, scope) for engine in plan.engine_names()
         for scope in ("shoe", "batch", "known") if served(engine, scope)]


def test_every_engine_serves_some_scope() -> None:
    assert {engine for engine, _ in CASES} == set(plan.engine_names())


@pytest.mark.parametrize("shoe", SHOES.values(), ids=SHOES.keys())
@pytest.mark.parametrize(("engine", "scope"), CASES, ids=[f"{e}-{s}" for e, s in CASES])
def test_every_engine_agrees_with_the_reference(engine: str, scope: plan.Scope,
                                                shoe: Shoe) -> None:
    bets = served(engine, scope)
    if scope == "known":  # two bets: the walk is card by card (values, ranks)
        bets = [bet for bet in bets if bet.id in {"tie", "player-pair"}]
    assert engine_counts(engine, scope, bets, shoe) == reference_counts(bets, shoe)


@pytest.mark.parametrize("game_id", ["punto-banco", "nine-and-nines"])
def test_every_example_bet_is_served_in_batches(game_id: str) -> None:
    """eor, edge and simulate evaluate their default set in batches: in a game dealing card
    positions no bet of the shipped or example files may be left out of it (the bets on a
    card's value by position were, silently, until the compiled engine served them)."""
    game = get_game(game_id)
    files = sorted((Path(__file__).parents[1] / "data").glob("*_bets.toml"))
    bets = game_bets(game, [path for path in files if _loads(game, path)])
    assert len(bets) > len(game_bets(game))
    assert batch.supported_bets(game, bets)[1] == []


def _loads(game, path: Path) -> bool:
    try:
        game_bets(game, [path])
    except Exception:  # a file of another game's bets
        return False
    return True


def test_every_command_runs_the_same_engine_for_the_same_bet(monkeypatch) -> None:
    ran: dict[str, dict[str, str]] = {"shoe": {}, "batch": {}}

    def spy(table: dict, scope: str) -> None:
        for name, runner in list(table.items()):
            def recording(game, deal, needs, bets, *rest, name=name, runner=runner):
                ran[scope].update({bet.id: name for bet in bets})
                return runner(game, deal, needs, bets, *rest)
            monkeypatch.setitem(table, name, recording)

    spy(analysis.RUNNERS, "shoe")
    spy(batch.BATCH_RUNNERS, "batch")
    for game_id in ("punto-banco", "nine-and-nines"):
        game = get_game(game_id)
        bets = game_bets(game)
        analyze(game, SHOES["small"], bets)
        BetEvaluator(game, batch.supported_bets(game, bets)[0])
    assert ran["batch"] and ran["shoe"]
    assert {bet: ran["shoe"][bet] for bet in ran["batch"]} == ran["batch"]
    # the seven bets that once took the staged engine in analyze and the compiled one in batches
    assert ran["shoe"]["either-pair"] == ran["batch"]["either-pair"] == "compiled"
    assert ran["shoe"]["perfect-pairs"] == ran["batch"]["perfect-pairs"] == "staged"


def test_a_named_engine_that_cannot_serve_is_refused_by_name(capsys) -> None:
    status = main(["analyze", "punto-banco", "--decks", "1", "--bet", "perfect-pairs",
                   "--engine", "compiled"])
    error = capsys.readouterr().err
    assert status == 2 and error.count("\n") == 1
    assert "engine compiled cannot serve bet perfect-pairs" in error
    perfect = [bet for bet in BETS if bet.id == "perfect-pairs"]
    with pytest.raises(plan.EngineError, match="staged cannot serve bet tie"):
        analyze(GAME, SHOES["small"], [*perfect, BETS[2]], engine="staged")
    with pytest.raises(plan.EngineError, match="direct cannot serve bet banker: it counts one"):
        plan.plan(GAME, BETS[:1], "batch", "direct")


def test_an_engine_registers_with_one_entry(monkeypatch) -> None:
    class TieOnly:
        name = "toy"

        def judge(self, demand: plan.Demand) -> tuple[bool, str]:
            return demand.bet.id == "tie", "a toy engine for the tie only"

    monkeypatch.setattr(plan, "ENGINES", list(plan.ENGINES))
    plan.register(TieOnly(), before="compiled")
    assert plan.engine_names().index("toy") == plan.engine_names().index("compiled") - 1
    chosen = plan.plan(GAME, BETS[:3])  # banker, player, tie: value bets
    assert [choice.engine for choice in chosen.choices] == ["compiled", "compiled", "toy"]
    assert chosen.choices[2].reason == "a toy engine for the tie only"


class ThreeCards(StagesGame):
    """A toy of three one-card stages (not registered): a bet reading one, two or three of
    them has a deal of as many fixed stages, which the shipped games never reach beyond two."""

    id, name, stages = "three-cards", "Three cards", {"first": 1, "second": 1, "third": 1}
    features: ClassVar = {f"{stage}_ace": Feature(f"{stage}_ace", "an ace",
                                                  Needs.of(**{stage: ["rank"]}),
                                                  lambda record, i=i: record[i][0].rank == "A")
                          for i, stage in enumerate(("first", "second", "third"))}


def _aces(count: int) -> Bet:
    condition = " and ".join(f"{stage}_ace" for stage in ("first", "second", "third")[:count])
    return Bet(f"aces-{count}", f"{count} aces", (Event("Aces", Expression.parse(condition),
                                                        Fraction(1)), Event("No", None, LOSE)))


# every shipped game with bets (the strategy games have none), and the toy
STAGED_CASES = [(game, game_bets(game)) for game in map(get_game, game_ids())
                if game_bets(game)] + [(ThreeCards(), [_aces(count) for count in (1, 2, 3)])]


@pytest.mark.parametrize("scope", ["shoe", "batch"])
@pytest.mark.parametrize(("game", "bets"), STAGED_CASES,
                         ids=[game.id for game, _ in STAGED_CASES])
def test_the_plan_and_the_staged_evaluator_apply_one_rule(game, bets, scope) -> None:
    """The plan's judgement of the staged engine and the evaluator's own test
    (``staged.applicable``; its StagedDeal refuses the same deals, for the plan's reason) agree
    on every bet's deal, one bet at a time and several (the plan's staged groups; ``--engine
    staged`` on all of them, refused naming the first bet it cannot serve and why)."""
    refused = []
    for bet in bets:
        demand = plan.Demand(game, bet, scope)
        serves, reason = plan._engine("staged").judge(demand)
        assert serves == staged.applicable(demand.deal), (game.id, bet.id, reason)
        if not serves:
            refused.append((bet, reason))
            with pytest.raises(ValueError, match=re.escape(reason)):
                staged.StagedDeal(game, demand.deal)
    assert 0 < len(refused) < len(bets)  # each case has bets on both sides of the rule
    groups = plan.plan(game, bets, scope).groups(game)
    assert all(staged.applicable(deal) for name, deal in groups if name == "staged")
    bet, reason = refused[0]
    with pytest.raises(plan.EngineError, match=re.escape(f"bet {bet.id}: {reason}")):
        plan.plan(game, bets, scope, "staged")
