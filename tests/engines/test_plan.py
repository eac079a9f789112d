"""The engine plan (exact/engines/plan.py): every engine it can choose agrees with the reference
twin, every command runs the same engine for the same bet, and a forced engine that cannot serve a
bet is refused by name."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.cli.app import main
from exact.core.cards import CARDS, Shoe, parse_cards
from exact.engines import batch, plan, staged
from exact.engines.batch import BetEvaluator
from exact.engines.batch_numbers import counts_matrix
from exact.engines.live import next_round
from exact.games import game_ids, get_game
from exact.games.baccarat.reference import brute_force
from exact.games.simple import StagesGame
from exact.model.bets import LOSE, Bet, Event
from exact.model.expressions import Expression
from exact.model.features import Feature, Needs

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


def serves(engine: str, bet, scope: plan.Scope, game=GAME) -> tuple[bool, str]:
    """Whether ``engine``'s estimate serves ``bet`` in ``scope``, and its reason."""
    answer = dict((known.name, estimate) for known, estimate in plan.estimates(game, bet, scope))
    return answer[engine].serves, answer[engine].reason


def served(engine: str, scope: plan.Scope) -> list:
    bets = CARD_LEVEL if engine in ("factorised", "classes") else [*BETS, *VALUE_LEVEL]
    return [bet for bet in bets if serves(engine, bet, scope)[0]]


def engine_counts(engine: str, scope: plan.Scope, bets: list, shoe: Shoe) -> dict[str, list[int]]:
    """Counts of ``bets`` by ``engine`` alone, in the unit of the reference (6-card sequences)."""
    if scope == "shoe":
        return {bet_id: list(result.counts)
                for bet_id, result in analyze(GAME, shoe, bets, engine).bets.items()}
    if scope == "batch":
        out = {}
        groups = plan.plan(GAME, bets, scope, engine).groups(GAME)
        for (name, deal), (needs, group) in groups.items():
            blocks = plan.engine(name).batch(GAME, deal, needs, group)(counts_matrix([shoe]))
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

    def spy(entry: str, scope: str) -> None:
        for engine in plan.ENGINES:
            if not engine.serves_scope(scope):
                continue
            runner = getattr(type(engine), entry)

            def recording(self, game, deal, needs, bets, *rest, runner=runner):
                ran[scope].update({bet.id: self.name for bet in bets})
                return runner(self, game, deal, needs, bets, *rest)
            monkeypatch.setattr(type(engine), entry, recording)

    spy("count", "shoe")
    spy("batch", "batch")
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
        serves_it, reason = serves("staged", bet, scope, game)
        assert serves_it == staged.applicable(demand.deal), (game.id, bet.id, reason)
        if not serves_it:
            refused.append((bet, reason))
            with pytest.raises(ValueError, match=re.escape(reason)):
                staged.StagedDeal(game, demand.deal)
    assert 0 < len(refused) < len(bets)  # each case has bets on both sides of the rule
    groups = plan.plan(game, bets, scope).groups(game)
    assert all(staged.applicable(deal) for name, deal in groups if name == "staged")
    bet, reason = refused[0]
    with pytest.raises(plan.EngineError, match=re.escape(f"bet {bet.id}: {reason}")):
        plan.plan(game, bets, scope, "staged")


class BruteForce(plan.Engine):
    """A toy engine: every ordered sequence of the shoe's physical cards, read with the game's
    ``record_from_cards``, for deals of at most two groups (beyond, its estimate refuses); its
    estimate is the ``units`` it is given, to be the cheapest or not."""

    name = "brute"

    def __init__(self, units: int) -> None:
        self.units = units

    def estimate(self, demand: plan.Demand) -> plan.Estimate:
        if demand.stages is None or len(demand.stages) > 2:
            return plan.Estimate.refused("it walks deals of at most two groups")
        return plan.Estimate(self.units, "every ordered sequence of physical cards")

    @staticmethod
    def _counts(game, bets, cards: list, unit: int, known: dict) -> list[list[int]]:
        counts = [[0] * len(bet.events) for bet in bets]
        free = [p for p in range(1, unit + 1) if p not in known]
        for chosen in permutations(range(len(cards)), len(free)):
            sequence = dict(zip(free, (cards[i] for i in chosen), strict=True)) | known
            record = game.record_from_cards([sequence[p] for p in range(1, unit + 1)])
            for bet, row in zip(bets, counts, strict=True):
                row[bet.settle({name: game.read(record, name) for name in bet.features})] += 1
        return counts

    @staticmethod
    def _cards(shoe: Shoe) -> list:
        return [card for card, count in zip(CARDS, shoe.counts, strict=True)
                for _ in range(count)]

    def count(self, game, deal, needs, bets, shoe):
        return self._counts(game, bets, self._cards(shoe), deal.round_cards, {})

    def batch(self, game, deal, needs, bets):
        def counts(matrix):
            rows = [self.count(game, deal, needs, bets, Shoe(tuple(int(c) for c in row)))
                    for row in matrix]
            return [np.array([row[i] for row in rows], dtype=object) for i in range(len(bets))]
        return counts

    def known(self, game, shoe, bets, known):
        unit = max(game.deal(game.needs(bet.features)).round_cards for bet in bets)
        rest = shoe.remove(list(known.values()))
        return self._counts(game, bets, self._cards(rest), unit, dict(known))


TINY = Shoe.parse("AS:2,5H:1,9D:2,KC:1")


def _three_cards_counts(bets: list) -> dict:
    """Every scope's counts of ``bets`` on the toy game of three one-card stages."""
    game = ThreeCards()
    known = {1: CARDS[CARDS.index(parse_cards("AS")[0])]}
    return {"shoe": {b.id: r.counts for b, r in zip(bets, analyze(game, TINY, bets).bets.values(),
                                                      strict=True)},
            "batch": {bet_id: block[0].tolist() for bet_id, block in
                      BetEvaluator(game, bets).counts([TINY]).items()},
            "known": {bet_id: result.counts for bet_id, result in
                      next_round(game, TINY, bets, known=known).items()}}


@pytest.mark.parametrize("units", [0, 10**12], ids=["cheapest", "dearest"])
def test_one_registration_adds_an_engine_to_every_scope(monkeypatch, units: int) -> None:
    """A toy engine registered once is planned in every scope whose entry it defines and
    chosen there when its estimate is the cheapest (and named in the reason with it), not
    when it is dearer; analyze, the batch evaluator and the known-cards question then run it,
    and its counts agree with the shipped engines'."""
    bets = [_aces(1), _aces(2)]
    expected = _three_cards_counts(bets)  # by the shipped engines
    ran: list[str] = []
    toy = BruteForce(units)
    for entry in ("count", "batch", "known"):
        runner = getattr(BruteForce, entry)

        def recording(self, *args, entry=entry, runner=runner):
            ran.append(entry)
            return runner(self, *args)
        monkeypatch.setattr(BruteForce, entry, recording)
    monkeypatch.setattr(plan, "ENGINES", list(plan.ENGINES))
    plan.register(toy)
    assert "brute" in plan.command_engines()
    for scope in ("shoe", "batch", "known"):
        choice = plan.choose(ThreeCards(), bets[0], scope)
        assert (choice.engine == "brute") == (units == 0), (scope, choice.reason)
        if units == 0:
            assert choice.reason.startswith("brute: est. 0 units (every ordered sequence")
        else:
            assert "brute est. 1.0e12" in choice.reason
    refused = plan.choose(ThreeCards(), _aces(3), "shoe")
    assert refused.engine != "brute"
    assert "brute refused: it walks deals of at most two groups" in refused.reason
    assert _three_cards_counts(bets) == expected
    assert sorted(set(ran)) == (["batch", "count", "known"] if units == 0 else [])
    with pytest.raises(ValueError, match="a name of its own"):
        plan.register(BruteForce(1))


def test_the_plan_takes_the_cheapest_estimate_and_says_so() -> None:
    """The chosen engine's estimate is the least of those that serve (the first registered
    among equals), and its reason names it and every other engine's estimate or refusal."""
    for bet in [*BETS, *VALUE_LEVEL, *CARD_LEVEL]:
        for scope in ("shoe", "batch", "known"):
            answers = plan.estimates(GAME, bet, scope)
            served_units = [a.units for _, a in answers if a.units is not None]
            try:
                choice = plan.choose(GAME, bet, scope)
            except plan.EngineError:
                assert not served_units
                continue
            assert choice.units == min(served_units)
            first = next(e for e, a in answers if a.units == choice.units)
            assert choice.engine == first.name
            assert choice.reason.startswith(
                f"{choice.engine}: est. {plan.units_text(choice.units)} units (")
            for engine, answer in answers:
                if engine.name != choice.engine:
                    assert (f"{engine.name} refused: {answer.reason}" in choice.reason
                            if answer.units is None else
                            f"{engine.name} est. {plan.units_text(answer.units)}"
                            in choice.reason)


def test_analyze_with_engine_auto_prints_the_plan_and_its_estimates(capsys) -> None:
    """``--engine auto`` (or a name) adds the engine plan to the output: per bet the engine,
    the estimate that chose it and the others (text and JSON ``engines``); without
    ``--engine`` the output is as it was (the goldens hold its bytes)."""
    import json

    argv = ["analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--bet", "perfect-pairs"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert "Engines" not in plain
    assert main([*argv, "--engine", "auto"]) == 0
    explained = capsys.readouterr().out
    chosen = {bet.id: plan.choose(GAME, bet) for bet in BETS if bet.id in ("tie", "perfect-pairs")}
    block = "Engines (the cheapest estimate per bet, in work units):\n" + "".join(
        f"  {bet_id}: {choice.reason}\n" for bet_id, choice in chosen.items())
    assert block in explained
    assert explained.replace("\n" + block, "", 1) == plain  # the rest byte for byte
    assert main([*argv, "--engine", "auto", "--json"]) == 0
    engines = json.loads(capsys.readouterr().out)["engines"]
    assert engines == [{"bet": bet_id, "engine": choice.engine, "units": choice.units,
                        "reason": choice.reason} for bet_id, choice in chosen.items()]
    assert [entry["engine"] for entry in engines] == ["compiled", "staged"]
