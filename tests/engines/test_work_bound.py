"""The work bound of a run (issue 26, exact/core/work.py): every engine, the ``--engine``
overrides included, draws its work from one budget, checked before each step, so a bet or a
file within the documented input limits finishes within the README's time and memory or is
refused with one line; the walk estimate that refuses a direct enumeration up front is
checked against the walk itself."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from exact.analysis.bet_analysis import analyze, game_bets
from exact.cli.app import main
from exact.core import work
from exact.core.cards import Shoe, View
from exact.core.enumerator import estimated_leaves
from exact.errors import TooFine
from exact.games import get_game
from exact.model.bets import load_bets

GAME = get_game("punto-banco")
CARD_LEVEL = Path(__file__).parents[1] / "data" / "card_level_bets.toml"
RANKS = "A23456789TJQK"


def _leaves(deal, shoe: Shoe) -> Iterator[object]:
    """Every leaf of the direct walk, written again without weights (the brute force the
    estimate is checked against)."""
    def walk(state, view, counts):
        draw = deal.next_draw(state)
        if draw is None:
            yield deal.record(state)
            return
        if draw.view != view:
            counts, view = view.regroup(counts, draw.view), draw.view
        present = [i for i, c in enumerate(counts) if c]
        for group in combinations_with_replacement(present, draw.count):
            remaining = counts.copy()
            for index in group:
                remaining[index] -= 1
            if min(remaining) >= 0:
                yield from walk(deal.advance(state, tuple(view.labels[i] for i in group)), view,
                                remaining)

    start = View(("rank", "suit"))
    yield from walk(deal.start(), start, start.class_counts(shoe))


@pytest.mark.parametrize(("features", "shoe"), [
    (["winner"], Shoe.standard(1)),
    (["winner"], Shoe.parse("A:4,5:4,9:4,K:8")),
    (["player_card3_suit", "banker_card3_suit"], Shoe.parse("AH:2,5S:3,9D:2,KC:3,4H:2")),
    (["all_same_color", "winner"], Shoe.parse("AH:2,5S:2,9D:2,KC:2,QH:1,3S:2")),
])
def test_the_walk_estimate_is_near_the_walk(features, shoe) -> None:
    """Knuth's estimator over 256 seeded paths: within a factor of two of the leaves walked
    (it only has to tell thousands from hundreds of millions), and the same every run."""
    deal = GAME.deal(GAME.needs(features))
    walked = sum(1 for _ in _leaves(deal, shoe))
    estimate = estimated_leaves(deal, shoe)
    assert walked / 2 < estimate < walked * 2
    assert estimated_leaves(deal, shoe) == estimate


def test_a_budget_is_one_per_run_and_refuses_before_the_step() -> None:
    with work.budget(100) as outer:
        work.spend(60, "one")
        with work.budget(10**9) as inner:  # a nested run draws from the same budget
            assert inner is outer
            with pytest.raises(TooFine, match="two: about 50 units of work, with the 60 spent"):
                work.spend(50, "two")
            work.check(40, "three")  # a check draws nothing
        assert outer.spent == 60
    with pytest.raises(TooFine):  # outside a run, a step alone is held to the bound
        work.spend(work.WORK_LIMIT + 1, "alone")


def _heavy_when(cards: list[str], terms: int = 30) -> str:
    """A condition of some 120 operators, 1.8 KB: ranks and suits of ``cards`` compared."""
    pairs = itertools.cycle(itertools.permutations(cards, 2))
    return " or ".join(f"({a}_rank == '{RANKS[k % 13]}' and {b}_rank != '{RANKS[k * 7 % 13]}')"
                       for k, (a, b) in zip(range(terms), pairs, strict=False))


def _bet_file(path: Path, bets: int, events: int, when: str) -> Path:
    lines = []
    for b in range(bets):
        lines.append(f'[[bet]]\nid = "b{b}"\nname = "B{b}"')
        lines += [f'  [[bet.event]]\n  name = "E{e}"\n  when = "{when} or {e} == {b}"\n  pays = 1'
                  for e in range(events)]
    path.write_text("\n".join(lines) + "\n")
    return path


SIX = [f"{side}_card{i}" for side in ("player", "banker") for i in (1, 2, 3)]
FOUR = ["player_card1", "player_card2", "banker_card1", "banker_card2"]


@pytest.mark.slow  # counting its patterns walks the values (10-30 s); the next test is quick
def test_the_one_and_a_half_kilobyte_bet_is_past_the_bound() -> None:
    """The audit's bet: one condition near the operator bound over the ranks of all six
    cards (1.66 million patterns) took 88 s and 1.25 GB here. Its factorised work, the
    patterns times the settlement's units at worst, is far past the bound, so the run is
    refused as its settlements draw the budget (docs: Input limits gives the time of that
    refusal); the quick tests below refuse the same condition on fewer cards."""
    from exact.engines.factorised import DECK, PATTERN_UNITS, FactorisedBet
    from exact.model.settling import settlement_units

    text = f'[[bet]]\nid = "heavy"\nname = "Heavy"\n[[bet.event]]\nname = "Hit"\n' \
           f'when = "{_heavy_when(SIX)}"\npays = 1\n'
    assert 1_500 < len(text) < 2_100
    bet, = load_bets("heavy.toml", GAME.features, text=text)
    patterns = FactorisedBet(GAME, (bet,), DECK, compile=False).patterns(GAME)
    assert patterns < 3_000_000  # within the pattern limit: only the work bound refuses it
    assert patterns * (PATTERN_UNITS + settlement_units(bet)) > 10 * work.WORK_LIMIT


def test_a_heavy_condition_is_refused_before_any_settlement(monkeypatch, tmp_path) -> None:
    """The same condition over fewer cards, under a budget its work passes: refused by the
    compilation's check, no condition evaluated (a cold cache: a compiled form read back is
    no work)."""
    from exact.model.bets import Bet

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))
    text = f'[[bet]]\nid = "heavy"\nname = "Heavy"\n[[bet.event]]\nname = "Hit"\n' \
           f'when = "{_heavy_when(["player_card1", "banker_card1"])}"\npays = 1\n'
    bet, = load_bets("heavy4.toml", GAME.features, text=text)
    settled = []
    monkeypatch.setattr(Bet, "settle", lambda self, env: settled.append(1) or 0)
    with work.budget(10_000), pytest.raises(TooFine, match="units of work"):
        analyze(GAME, Shoe.standard(8), [bet], engine="factorised")
    assert settled == []


@pytest.mark.parametrize("events", [
    10, pytest.param(100, marks=pytest.mark.slow)])  # 2,000 such conditions load in 20 s
def test_a_file_at_the_bounds_is_refused_up_front(tmp_path: Path, monkeypatch,
                                                  events) -> None:
    """20 bets of 100 events (the file bound of events), each a heavy condition on the first
    four cards' ranks (28,561 patterns, each its own reading of the features): each
    settlement runs every bet's conditions, and the settlements are drawn as they are met, so
    the run is refused in one line within its first thousand of them (a second), not after
    minutes or a MemoryError (10 events a bet: the same shape, quick to load)."""
    from exact.model.bets import Bet
    from exact.model.settling import settlement_units

    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path))  # cold: a compiled form is no work
    path = _bet_file(tmp_path / "bound.toml", 20, events, _heavy_when(FOUR, 20))
    bets = load_bets(path, GAME.features)
    settled = []
    monkeypatch.setattr(Bet, "settle", lambda self, env: settled.append(1) or 0)
    with pytest.raises(TooFine, match=r"the settlements of bets b0, .* units of work") as caught:
        analyze(GAME, Shoe.standard(8), bets)
    assert "\n" not in str(caught.value) and "Input limits" in str(caught.value)
    # each settlement is drawn before its conditions run: the budget, never past it
    units = sum(settlement_units(bet) for bet in bets)
    assert 0 < len(settled) <= len(bets) * work.WORK_LIMIT // units


def _card_level(bet_id: str):
    return next(b for b in load_bets(CARD_LEVEL, GAME.features) if b.id == bet_id)


@pytest.mark.parametrize(("engine", "bet_id"), [
    ("direct", "four-nines"), ("direct", "suited-third-cards"), ("direct", "one-colour-tie"),
    ("compiled", "four-nines"), ("compiled", "suited-third-cards"),
    ("compiled", "one-colour-tie")])
def test_readme_bets_past_the_bound_under_an_engine_override_are_refused(engine, bet_id,
                                                                        capsys) -> None:
    """The README's card-level bets with ``--engine direct|compiled``: 53 s / 1.76 GB and
    past 60 s / 2.2 GB before; now refused before the walk, one line naming the reason."""
    assert main(["analyze", "punto-banco", "--bets", str(CARD_LEVEL), "--bet", bet_id,
                 "--engine", engine]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and ("work bound" in error or "units of work" in error
                                       or "compile limit" in error), error


@pytest.mark.parametrize("engine", ["direct", "compiled"])
def test_a_readme_bet_within_the_bound_runs_and_agrees_with_auto(engine) -> None:
    """The red-first-card bet stays within the bound under either override (seconds) and
    gives factorised counting's exact counts."""
    bet = _card_level("red-first-card")
    shoe = Shoe.standard(8)
    assert (analyze(GAME, shoe, [bet], engine=engine).bets[bet.id].counts
            == analyze(GAME, shoe, [bet]).bets[bet.id].counts)


def test_direct_stays_open_to_small_shoes() -> None:
    """The bound is on the walk, not on the bet: a bet the direct walk cannot serve on 8
    decks is served on a small shoe, as the brute-force comparisons need."""
    bet = _card_level("one-colour-tie")
    shoe = Shoe.parse("AH:2,5S:2,9D:2,KC:2,QH:1,3S:2")
    assert (analyze(GAME, shoe, [bet], engine="direct").bets[bet.id].counts
            == analyze(GAME, shoe, [bet]).bets[bet.id].counts)


def test_a_memory_error_at_the_top_is_one_line(monkeypatch, capsys) -> None:
    import exact.analysis.bet_analysis as bet_analysis

    def exhausted(*_args, **_kwargs):
        raise MemoryError

    monkeypatch.setattr(bet_analysis, "_analyze", exhausted)
    assert main(["analyze", "punto-banco", "--bet", "tie"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "out of memory" in error


def test_a_direct_analysis_estimates_its_walk_once(monkeypatch) -> None:
    """The run's work check, the walk's own check and the words of its refusal read one
    estimate of the walk on the shoe (they made three, each its 256 probes), and another
    analysis of the same shoe makes none; the estimate is the same as worked out afresh."""
    import exact.core.enumerator as enumerator

    made: list[int] = []

    class Counted(enumerator.Random):
        def __init__(self, seed: int) -> None:
            made.append(seed)
            super().__init__(seed)

    monkeypatch.setattr(enumerator, "Random", Counted)
    bet = next(b for b in game_bets(GAME) if b.id == "dragon-7")
    shoe = Shoe.parse("A:7,4:5,7:6,9:7,K:9,QD:3")  # a shoe no other test estimates
    analyze(GAME, shoe, [bet], engine="direct")
    assert len(made) <= 2  # the shoe's, and the plan's yardstick unless an earlier run's
    before = len(made)
    analyze(GAME, shoe, [bet], engine="direct")
    assert len(made) == before
    deal = GAME.deal(GAME.needs(bet.features))
    assert estimated_leaves(deal, shoe) == enumerator._estimated_leaves.__wrapped__(deal, shoe,
                                                                                    256)
