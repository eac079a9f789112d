"""`make bench`: throughput of the exact engine, and its speed-up over the brute force.

Timings are wall-clock medians on this machine; targets come from the issues and are printed
beside each figure (PASS/FAIL), so a regression is visible at a glance.

The benchmark is the list of sections ``SECTIONS`` at the end of this file, walked in order;
each prints its figures, then a line ``[section NAME] done``. ``--quick`` (or BENCH_QUICK=1)
walks the same list at tiny sizes (1 deck, one repetition, one run, a few shoes) with no
targets: the figures mean nothing, but every line of every section runs, so a renamed function
or option breaks tests/system/test_benchmark_quick.py (part of `make test`), not `make bench`.
``--only NAME`` runs the one section of that name (``--only attribute_batch_benchmark``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout

from exact.analysis.bet_analysis import analyze, game_bets
from exact.core.cards import Shoe
from exact.games import get_game
from exact.games.baccarat.reference import brute_force
from exact.games.century21.rules import Rules
from exact.model.bets import Bet

from tests.support.batch_helpers import tracked_bets

DATA = Path(__file__).parent / "data"  # the example bet files

# Set by ``main``: the quick mode (see the module docstring) and the shoes' number of decks.
QUICK = False
DECKS = 8


def small_shoe() -> Shoe:
    """The shoe of the slow references (brute force, direct enumerator, walks of a deal): 8
    decks, or in the quick mode 24 cards of six ranks, where they take a fraction of a second."""
    return Shoe.parse("A:4,2:4,5:4,8:4,9:4,K:4") if QUICK else Shoe.standard(DECKS)


def size(full: int, quick: int) -> int:
    """A count of the full benchmark, or its tiny stand-in in the quick mode."""
    return quick if QUICK else full


def verdict(passed: bool, goal: str) -> str:
    """``(GOAL) PASS`` or ``FAIL``; nothing in the quick mode, whose figures mean nothing."""
    return "" if QUICK else f"({goal}) {'PASS' if passed else 'FAIL'}"


def timed(function: Callable[[], object], repeat: int = 1) -> float:
    """Median seconds of ``repeat`` calls."""
    samples = []
    for _ in range(size(repeat, 1)):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def line(label: str, seconds: float, target: float | None = None, extra: str = "") -> None:
    goal = "" if target is None else verdict(seconds <= target,
                                             f"target <= {target * 1000:,.0f} ms")
    print(f"{label:58} {seconds * 1000:12,.2f} ms  {goal} {extra}".rstrip())


def main(arguments: list[str]) -> None:
    global QUICK, DECKS
    QUICK = "--quick" in arguments or os.environ.get("BENCH_QUICK", "") not in ("", "0")
    DECKS = size(8, 1)
    rest, only = list(arguments), None
    if "--only" in rest:  # one section, by its name
        at = rest.index("--only")
        only = rest[at + 1] if at + 1 < len(rest) else ""
        del rest[at:at + 2]
    if set(rest) - {"--quick"} or only not in {None, *(s.__name__ for s in SECTIONS)}:
        raise SystemExit("usage: tests/benchmark.py [--quick] [--only SECTION]")
    for section in SECTIONS:
        if only is not None and section.__name__ != only:
            continue
        started, cpu = time.perf_counter(), _cpu_seconds()
        section()
        print(f"[section {section.__name__}] done in {time.perf_counter() - started:,.1f} s, "
              f"CPU {_cpu_seconds() - cpu:,.1f} s", flush=True)


def _cpu_seconds() -> float:
    """CPU seconds of this process and of the processes it started and waited for."""
    import resource

    return sum(usage.ru_utime + usage.ru_stime for usage in (
        resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def main_bets_in_process() -> None:
    """The main bets in this process: first and warm analyses, depleted shoes, the direct
    enumerator and the brute force."""
    game = get_game("punto-banco")
    shoe = Shoe.standard(DECKS)
    main_bets = [b for b in game_bets(game) if b.group == "main"]
    print(f"Punto Banco, {DECKS} decks, Banker/Player/Tie")

    def full(shoe: Shoe, engine: str = "compiled") -> list[object]:
        """Counts, return tables and every statistic of the three bets."""
        bets = analyze(game, shoe, main_bets, engine=engine).bets.values()
        return [(t.house_edge, t.variance, t.house_edge_per_resolved_bet)
                for b in bets for t in b.tables.values()]

    cold = timed(lambda: full(shoe))
    line("first analysis (read or compile, bind, evaluate)", cold)
    warm = timed(lambda: full(shoe), repeat=50)
    line("warm analysis (evaluate exact counts and statistics)", warm, 0.030)
    depleted = [shoe.remove(cards) for cards in ("5", "9H KD", "A 2 3 4", "T J Q K 9 9")]
    per_shoe = timed(lambda: [full(s) for s in depleted], repeat=10) / 4
    line("warm analysis of a depleted shoe", per_shoe, 0.030,
         f"= {1 / per_shoe:,.0f} shoes/s")
    reference = small_shoe()
    if reference != shoe:
        warm = timed(lambda: full(reference), repeat=50)
        line(f"warm analysis of {reference.size} cards (the references' shoe)", warm)
    direct = timed(lambda: full(reference, "direct"))
    line("direct recursive enumerator (no compilation)", direct)
    brute = timed(lambda: brute_force(reference, ("winner",), by="value"))
    line("reference brute force, card by card (exact/games/baccarat/reference.py)", brute)
    print(f"speed-up of the warm engine over the brute force: {brute / warm:,.0f}x; "
          f"direct enumerator over brute force: {brute / direct:,.1f}x")


def verification_benchmark() -> None:
    """Issue 27: the reports' verification simulation (shoes shuffled and dealt to the cut
    card, every Punto Banco wager settled), in rounds per second: per core on one process,
    and on every core. Target: 5 million rounds/s per core, so that the reports' 10^8 rounds
    take well under a minute on two cores."""
    from exact.analysis.verification import ShoeSpec, simulate_wagers
    from exact.games.baccarat.dealer import PuntoBancoDealer

    rounds = size(10_000_000, 100_000)
    bets = game_bets(get_game("punto-banco"))
    spec = ShoeSpec.standard(DECKS)
    print(f"Verification simulation, Punto Banco, {DECKS} decks, all {len(bets)} wagers")
    # a first run settles what it meets, once per process: the timed run is the dealing
    simulate_wagers(PuntoBancoDealer, bets, spec, size(200_000, 20_000), seed=1)

    def run(workers: int) -> tuple[int, float]:
        done = simulate_wagers(PuntoBancoDealer, bets, spec, rounds, seed=2, workers=workers)
        return done.rounds, done.seconds

    simulation_rates("rounds", run, 5e6)


def simulation_rates(unit: str, run: Callable[[int], tuple[int, float]], target: float
                     ) -> None:
    """The lines of a verification simulation's speed: ``run(workers)`` deals and gives the
    (count, seconds) of its ``unit``; per CPU second on one process (against ``target``), and
    on every core."""
    started = time.process_time()
    count, seconds = run(1)
    cpu = time.process_time() - started
    goal = verdict(count / cpu >= target, f"target {target / 1e6:g} per CPU second")
    line(f"{count:,} {unit} on 1 process", seconds, None,
         f"= {count / seconds / 1e6:.2f} million {unit}/s ({count / cpu / 1e6:.2f} million "
         f"per CPU second) {goal}")
    cores = os.cpu_count() or 1
    if cores > 1:
        count, seconds = run(cores)
        line(f"{count:,} {unit} on {cores} processes", seconds, None,
             f"= {count / seconds / 1e6:.2f} million {unit}/s; 10^8 {unit} in "
             f"{1e8 / (count / seconds):.0f} s")


def century21_verification_benchmark() -> None:
    """Issue 27: the 21st Century Baccarat report's verification simulation (House Way hands,
    each from a freshly shuffled shoe), in hands per second: per CPU second on one process,
    and on every core. Target: 1 million hands per CPU second (the report's 10^8 hands in
    under two minutes on one core)."""
    from exact.games.century21.dealer import HouseWayRules, simulate

    hands = size(10_000_000, 20_000)
    rules = HouseWayRules(decks=DECKS, jokers=DECKS)
    print(f"Verification simulation, 21st Century Baccarat House Way, {DECKS} decks + "
          f"{DECKS} jokers")
    simulate(rules, size(100_000, 1_000), seed=1)  # the rules' table, once per process

    def run(workers: int) -> tuple[int, float]:
        done = simulate(rules, hands, seed=2, workers=workers)
        return done.hands, done.seconds

    simulation_rates("hands", run, 1e6)


def bench_nine_and_nines(limit_seconds: int = 60) -> None:
    """NINE and NINES (issue 4), 8 decks, target <= 2 s each. The NINES line is a command in a
    fresh process on an empty disk cache, timed from process start (interpreter, imports,
    counting, output), as a user meets it."""
    game = get_game("nine-and-nines")
    shoe = Shoe.standard(DECKS)
    nine = [b for b in game_bets(game) if b.id in ("nine-player", "nine-banker")]
    print(f"Baccarat with NINE & NINES, {DECKS} decks")
    line("NINE (Player and Banker), first analysis (compile + evaluate)",
         timed(lambda: analyze(game, shoe, nine)), 2.0)
    line("NINE (Player and Banker), warm analysis", timed(lambda: analyze(game, shoe, nine), 10),
         2.0)
    label = "NINES, first analysis (fresh process, empty cache)"
    run = fresh_process_within(["analyze", "nine-and-nines", "--decks", str(DECKS), "--bet",
                                "nines"], limit_seconds)
    if run is None:
        print(f"{label:58} FAIL: over {limit_seconds} s or 4 GB, or failed")
    else:
        line(label, run[0], 2.0, f"peak {run[1] / 2**20:,.0f} MB")


def century21_rules() -> Rules:
    """The default rules of 21st Century Baccarat, on DECKS decks and as many jokers."""
    import dataclasses

    from exact.games.century21.game import DEFAULT_RULES

    return DEFAULT_RULES if DEFAULT_RULES.decks == DECKS else dataclasses.replace(
        DEFAULT_RULES, decks=DECKS, jokers=DECKS)


def century21_benchmarks() -> None:
    """21st Century Baccarat heads-up on the 424-card shoe, each timing from a cold table."""
    import scipy.optimize  # noqa: F401  (the LP's solver loads on first use: not timed as a solve)

    from exact.games.century21 import game as century21
    from exact.games.century21.solve import equilibrium

    rules = century21_rules()
    shoe = century21.shoe_for(rules)

    def cold(work: Callable[[century21.GameTable], object]) -> Callable[[], object]:
        def run() -> object:
            century21._game_table.cache_clear()
            century21.settle_declared.cache_clear()
            return work(century21.game_table(rules, shoe))
        return run

    print(f"21st Century Baccarat heads-up, {DECKS} decks + {DECKS} jokers "
          f"({shoe.size} cards), cold game table")
    line("House Way both sides (table, joker search, exact counts)",
         timed(cold(lambda t: t.evaluate(*t.house_way())), repeat=3), 1.0)
    line("player's exact best response to the dealer's House Way",
         timed(cold(lambda t: t.player_best_response(t.house_way()[1])), repeat=3), 5.0)
    line("dealer's exact best response to the player's House Way",
         timed(cold(lambda t: t.dealer_best_response(t.house_way()[0])), repeat=3), 5.0)
    line("equilibrium (LP, exact strategies, exact deviation check)",
         timed(cold(equilibrium)), 60.0)
    line("equilibrium, player decides by its two cards",
         timed(lambda: equilibrium(century21.game_table(rules, shoe, "cards"))), 60.0)


def strategy_walks_benchmark() -> None:
    """Chemin de fer's sequence form per information model, built by the generic decision
    walker (the coup, its rests shared by totals) and by the direct loops over the four cards
    of its reference twin, in the same run: CPU time, best of a few, and their ratio."""
    from exact.games.chemin_de_fer import reference
    from exact.games.chemin_de_fer.game import (
        INFORMATION,
        RULES,
        WITH_REPLACEMENT_SHOE,
        counted_form,
        shoe_sequence_form,
    )

    def best(work: Callable[[], object]) -> float:
        samples = []
        for _ in range(size(7, 1)):
            start = time.process_time()
            work()
            samples.append(time.process_time() - start)
        return min(samples)

    decks = size(RULES.decks, 1)
    print(f"chemin de fer's sequence form, CPU best of {size(7, 1)}: the generic walk against "
          "the direct loops of the reference twin")
    for shoe, replacement, shown in ((Shoe.standard(decks), False, f"{decks} decks"),
                                     (WITH_REPLACEMENT_SHOE, True, "with replacement")):
        for information in INFORMATION:
            walk = best(lambda information=information, shoe=shoe, replacement=replacement:
                        shoe_sequence_form(RULES, shoe, information, replacement))
            loops = best(lambda information=information, shoe=shoe, replacement=replacement:
                         counted_form(RULES, *reference.sequence_table(
                             RULES.naturals, RULES.player_draws_on, RULES.player_chooses_on,
                             information, shoe, replacement)))
            line(f"{information}, {shown}: generic walk", walk,
                 extra=f"direct loops {loops * 1000:,.2f} ms, ratio {walk / loops:.2f}")


def century21_table_benchmark() -> None:
    """21st Century Baccarat at a full table (issue 29): the figures of 1 to 7 seats of 100
    against a 300 Player/Dealer. House Way is exact at every size (each seat's heads-up value,
    the dice count); the Player/Dealer's best response to the table is the full-table game,
    exact to 3 seats, each from a cold game, and estimated from a seeded sample beyond
    (exact.games.century21.table_sample)."""
    from exact.games.century21.full_table import MAX_EXACT_SEATS
    from exact.games.century21.table_economics import table_figures

    rules = century21_rules()
    # quick: 26 cards, enough for seven seats and the Player/Dealer; of five classes, as the
    # three seats' exact joint grows with the classes (5 s of CPU on seven, 2 s on five)
    shoe = (Shoe.parse("A:6,5:6,9:6,K:6,X:2") if QUICK
            else Shoe.standard(DECKS, jokers=DECKS))
    print(f"21st Century Baccarat at a table, {shoe.size} cards, seats of 100 v 300")
    for seats in range(1, 8):
        how = "exact" if seats <= 3 else "simulated"  # table_figures: exact to 3 seats
        line(f"{seats} seat(s): House Way, dice shares, {how} distribution",
             timed(lambda n=seats: table_figures(rules, shoe, [100] * n, "house", 300,
                                                simulate_hands=size(20_000, 500))))
    for seats in range(1, size(MAX_EXACT_SEATS, 2) + 1):
        line(f"{seats} seat(s): the Player/Dealer's best response to the table",
             timed(lambda n=seats: table_figures(rules, shoe, [100] * n, "dealer-best")))
    for seats in range(MAX_EXACT_SEATS + 1, size(7, 4) + 1):
        line(f"{seats} seat(s): the Player/Dealer's best response, estimated (seeded sample)",
             timed(lambda n=seats: table_figures(rules, shoe, [100] * n, "dealer-best",
                                                exact_pairs=False)))


def cold(bets: list[Bet], limit: float = 120.0) -> tuple[float, int] | None:
    """Seconds and bet count of the 8-deck Punto Banco analysis of ``bets`` in a fresh process
    on an empty disk cache, from process start (so every import and compilation is included);
    None when it exceeds ``limit`` seconds or 4 GB."""
    options = [word for bet in bets for word in ("--bet", bet.id)]
    run = fresh_process_within(["analyze", "punto-banco", "--decks", str(DECKS), *options], limit)
    return None if run is None else (run[0], len(bets))


def side_bets() -> None:
    """Issue 3: all seed side bets at 8 decks within 10 s; value-only bets at most 2x the
    main game. Cold figures run in a fresh process, so every compilation is included."""
    from exact.analysis.bet_analysis import value_only

    game = get_game("punto-banco")
    shoe = Shoe.standard(DECKS)
    print(f"Punto Banco side bets, {DECKS} decks (first analysis in a fresh process)")
    bets = game_bets(game)
    side = [b for b in bets if b.group != "main"]
    every = cold(side, limit=60.0)
    if every is None:
        print(f"{'all seed side bets (incl. perfect-pairs)':58} {'> 60 s or > 4 GB':>15}  "
              "(target <= 10,000 ms) FAIL")
    else:
        line(f"all {every[1]} seed side bets and variants", every[0], 10.0)
    # the same run less one bet: left out of the quick mode
    fast = None if QUICK else cold([b for b in side if b.id != "perfect-pairs"])
    if fast is not None:
        line(f"all {fast[1]} side bets and variants except perfect-pairs", fast[0], 10.0)
    main_cold = cold([b for b in bets if b.group == "main"])
    value_cold = cold([b for b in bets if b.group == "main" or value_only(game, b)])
    if main_cold is not None and value_cold is not None:
        line("main bets", main_cold[0])
        ratio = value_cold[0] / main_cold[0]
        line(f"main + value-only bets ({value_cold[1]} bets)", value_cold[0], None,
             f"ratio {ratio:.2f}x {verdict(ratio <= 2, 'target <= 2x')}")
    main_bets = [b for b in bets if b.group == "main"]
    value_bets = [b for b in bets if b.group == "main" or value_only(game, b)]
    analyze(game, shoe, value_bets)
    main_warm = timed(lambda: analyze(game, shoe, main_bets), repeat=50)
    value_warm = timed(lambda: analyze(game, shoe, value_bets), repeat=50)
    line("warm: main bets", main_warm)
    per_bet = (value_warm - main_warm) / (len(value_bets) - len(main_bets))
    line(f"warm: main + value-only bets ({len(value_bets)} bets)", value_warm, None,
         f"ratio {value_warm / main_warm:.1f}x; {per_bet * 1e6:,.0f} us per extra bet")


def remaining_shoe_benchmark() -> None:
    """Issue 7: batch evaluation of depleted shoes, effects of removal, shoe simulation."""

    from exact.analysis.removal import effects_of_removal
    from exact.analysis.simulation import ShoeRules, SimulationConfig, simulate
    from exact.engines.batch import BetEvaluator

    game = get_game("punto-banco")
    bets = tracked_bets(game)
    print(f"\nRemaining-shoe analysis: {', '.join(b.id for b in bets)}")
    cold = timed(lambda: BetEvaluator(game, bets))
    line("bet evaluator from the disk cache (load + bind)", cold)
    evaluator = BetEvaluator(game, bets)
    shoes = depleted_shoes(size(4000, 16), seed=1)
    evaluator.numerators(shoes[:256])
    batch = timed(lambda: evaluator.numerators(shoes), repeat=3)
    rate = len(shoes) / batch
    one = small_shoe() if QUICK else Shoe(tuple(int(c) for c in shoes[0]))
    direct = timed(lambda: analyze(game, one, bets, engine="direct"))
    print(f"{f'batch: exact EV of every bet, depleted {DECKS}-deck shoes':58} "
          f"{rate:12,.0f} shoes/s "
          f"{verdict(rate >= 20_000, 'target >= 20,000')}; plain enumerator "
          f"{direct * 1000:,.0f} ms a shoe "
          f"= {rate * direct:,.0f}x slower")
    staged_batch_benchmark(shoes[:size(400, 4)], rate)
    factorised_batch_benchmark(shoes[:size(64, 2)], rate)
    full = Shoe.standard(DECKS)
    warm = timed(lambda: effects_of_removal(game, full, bets, evaluator=evaluator), repeat=5)
    line("effects of removal, every bet, 13 ranks (warm)", warm, 1.0)
    line("effects of removal, every bet (new evaluator, compiled form cached)",
         timed(lambda: effects_of_removal(game, full, bets)), 1.0)
    config = SimulationConfig(game="punto-banco", bet_ids=("dragon-7", "panda-8"),
                              shoe=ShoeRules())
    # a fixed cost (starting the workers, loading the evaluator) plus a cost per shoe
    shoes_run = size(200, 3)
    startup = timed(lambda: simulate(config, 2, seed=1, workers=2))
    seconds = timed(lambda: simulate(config, shoes_run, seed=20261130, workers=2))
    projected = startup + (seconds - startup) * (10_000 - 2) / (shoes_run - 2)
    line("simulation, 2 shoes, 2 workers (mostly starting them)", startup)
    line(f"simulation, {shoes_run} shoes, Dragon 7 + Panda 8, 2 workers", seconds)
    print(f"{'  extrapolated to 10,000 shoes':58} {projected:12,.0f} s   "
          f"{verdict(projected <= 300, 'target <= 300 s')}; the full run: make simulate-10k")


def depleted_shoes(count: int, seed: int) -> object:
    """``count`` shoes of DECKS decks, each with a random 30 cards or more left (seeded): a
    (shoes x 53) count matrix."""
    import numpy as np

    from exact.core.cards import CARDS

    generator = np.random.default_rng(seed)
    deck = np.repeat(np.arange(52), DECKS)
    shoes = np.zeros((count, len(CARDS)), dtype=np.int64)
    for row in shoes:
        kept = generator.choice(deck, size=int(generator.integers(30, len(deck))), replace=False)
        row[:] = np.bincount(kept, minlength=len(CARDS))
    return shoes


def staged_batch_benchmark(shoes: object, main_rate: float) -> None:
    """Bets reading ranks and suits of both hands, through the batch evaluator's staged path:
    the cost per depleted 8-deck shoe, beside that of the bets above (issue 13: at least 2,000
    shoes/s)."""
    from exact.engines.batch import BetEvaluator

    for game_id, bet_id in (("nine-and-nines", "nines"), ("punto-banco", "perfect-pairs")):
        game = get_game(game_id)
        evaluator = BetEvaluator(game, [b for b in game_bets(game) if b.id == bet_id])
        evaluator.numerators(shoes[:16])
        seconds = timed(partial(evaluator.numerators, shoes), repeat=3) / len(shoes)
        print(f"{'batch: exact EV of ' + bet_id + ' (staged), per shoe':58} "
              f"{seconds * 1000:12,.2f} ms  = {1 / seconds:,.0f} shoes/s "
              f"{verdict(1 / seconds >= 2_000, 'target >= 2,000')}, "
              f"{seconds * main_rate:,.0f}x the bets above")


def factorised_batch_benchmark(shoes: object, main_rate: float) -> None:
    """Card-level bets (a card by position, third cards' suits, colours of all six cards,
    nines by suit among the first four cards) through the batch evaluator's factorised path
    (issue 13): the cost per depleted 8-deck shoe, once compiled for every card of a deck (the
    first ever run compiles: seconds)."""
    from exact.engines.batch import BetEvaluator
    from exact.model.bets import load_bets

    game = get_game("punto-banco")
    bets = load_bets(Path(__file__).parent / "data" / "card_level_bets.toml", game.features)
    for bet in bets:  # the nines-by-suit bet too: the plan's cost rule gives it this engine
        evaluator = BetEvaluator(game, [bet])
        evaluator.numerators(shoes[:2])
        seconds = timed(partial(evaluator.numerators, shoes), repeat=3) / len(shoes)
        print(f"{'batch: exact EV of ' + bet.id + ' (factorised), per shoe':58} "
              f"{seconds * 1000:12,.2f} ms  = {1 / seconds:,.0f} shoes/s, "
              f"{seconds * main_rate:,.0f}x the bets above")


def removal_every_game() -> None:
    """Issue 7: effects of removal of every shipped bet of each game at 8 decks. "First" clears
    the in-memory caches, so it is what a fresh `eor` command costs once the compiled forms are
    on disk (the first run ever compiles them: seconds, once)."""
    from exact.analysis.removal import effects_of_removal
    from exact.engines import staged
    from exact.engines.batch import BetEvaluator
    from exact.engines.compiled_store import compiled_for
    from exact.games.century21 import game as century21
    from exact.games.century21.batch import class_removal_table, evaluator_for
    from exact.games.century21.game import shoe_for

    def fresh() -> None:
        for cached in (compiled_for, staged.staged_deal, evaluator_for,
                       century21._game_table):
            cached.cache_clear()

    print(f"\nEffects of removal of every shipped bet, {DECKS} decks")
    for game_id in ("punto-banco", "nine-and-nines"):
        game, shoe = get_game(game_id), Shoe.standard(DECKS)
        bets = game_bets(game)
        BetEvaluator(game, bets)  # the compiled forms, into the disk cache
        fresh()
        first = timed(lambda: effects_of_removal(game, shoe, bets))  # noqa: B023
        evaluator = BetEvaluator(game, bets)
        warm = timed(lambda: effects_of_removal(game, shoe, bets, evaluator=evaluator),  # noqa: B023
                     repeat=3)
        line(f"{game_id}: {len(bets)} bets, 13 ranks, first", first, 1.0)
        line(f"{game_id}: {len(bets)} bets, 13 ranks, warm", warm, 1.0)
    rules = century21_rules()
    evaluator_for(rules).projection  # noqa: B018 (compiles into the disk cache)
    fresh()
    shoe = shoe_for(rules)
    first = timed(lambda: class_removal_table(evaluator_for(rules), shoe))
    warm = timed(lambda: class_removal_table(evaluator_for(rules), shoe), repeat=3)
    line("century21: House Way pair, 11 card classes, first", first, 1.0)
    line("century21: House Way pair, 11 card classes, warm", warm, 1.0)
    century21_first_eor()


def century21_first_eor() -> None:
    """The first `eor century21 --strategy best` ever (fresh process, empty disk cache: the
    pair's deal compiled, its 275,000 records settled) against the same command reading them
    from the disk cache, timed in this run (medians of 3); then the settlement alone, one
    per distinct pair of hand states, against its slow twin, every record settled."""
    from exact.games.century21.batch import evaluator_for
    from exact.games.century21.game import record_outcome

    rules = century21_rules()
    arguments = ["eor", "century21", "--strategy", "best",
                 *(["--decks", str(DECKS)] if QUICK else [])]
    fresh_process(arguments)  # the disk cache the warm runs read
    runs = [fresh_process_within(arguments, 600) for _ in range(size(3, 1))]
    if any(run is None for run in runs):
        print(f"{'eor century21 --strategy best, empty cache':58} FAIL: over 600 s or failed")
        return
    first = (statistics.median(r[0] for r in runs if r), max(r[1] for r in runs if r),
             statistics.median(r[2] for r in runs if r))
    warm = _median_run(arguments)
    line("eor century21 --strategy best, empty cache", first[0], None,
         f"CPU {first[2] * 1000:,.0f} ms, {first[1] / 2**20:,.0f} MB; {first[0] / warm[0]:.1f}x "
         f"the run with the cache on disk ({warm[0] * 1000:,.0f} ms, CPU "
         f"{warm[2] * 1000:,.0f} ms)")
    evaluator = evaluator_for(rules, "best")
    records = list(evaluator.compiled.records)
    label = f"century21 best pair: settling its {len(records):,} records"
    fast = timed(evaluator._settle, repeat=3)
    records = records[:size(len(records), 5_000)]
    slow = timed(lambda: [record_outcome(rules, record) for record in records]) * \
        len(evaluator.compiled.records) / len(records)
    line(label, fast, None,
         f"record by record {slow * 1000:,.0f} ms: {slow / fast:,.1f}x faster")


def _fresh_environment() -> dict[str, str]:
    """The environment of every fresh process timed here: bytecode caches allowed (in a
    directory of their own, as an installed package has them), whatever the caller's
    PYTHONDONTWRITEBYTECODE; the same for the toolkit and for the naive enumerator."""
    import os
    import tempfile

    environment = {name: value for name, value in os.environ.items()
                   if name != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "exact-bench-pycache")
    return environment


# A small launcher: it starts the timed process and reports its wall time, CPU time and peak
# memory. Started from the launcher (some 10 MB) rather than from this benchmark (hundreds of
# MB by then), the child's peak is its own: Linux counts the forking parent's resident pages
# in the peak of a child that forks and then runs another program. Its first two arguments
# bound the child's wall seconds and address space; a child over either fails. It waits in
# one blocking wait, a timer killing the child at the bound: a wait with a timeout polls,
# sleeping up to 50 ms between looks, so that every wall time came out a multiple of 50 ms
# (the main bets and the naive enumerator both 165 ms, 20 ms of CPU apart).
_LAUNCHER = """
import resource, subprocess, sys, threading, time
seconds, memory = float(sys.argv[1]), int(sys.argv[2])
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
start = time.perf_counter()
child = subprocess.Popen(sys.argv[3:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, preexec_fn=limit)
timer = threading.Timer(seconds, child.kill)
timer.start()
code = child.wait()
seconds = time.perf_counter() - start
if not timer.is_alive():  # killed at the bound
    code = -1
timer.cancel()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def warm_bytecode() -> None:
    """The fresh processes timed here start with their bytecode cached, as an installed
    package's do: an untimed run of each kind of command compiles it first."""
    for arguments in (["analyze", "punto-banco", "--decks", "1"],
                      ["analyze", "nine-and-nines", "--decks", "1", "--bet", "nines"]):
        fresh_process_within(arguments, 600)


def _launch(arguments: list[str], module: bool, empty_cache: bool, limit_seconds: float
            ) -> tuple[int, float, int, float]:
    """Exit status, wall seconds, peak memory (bytes) and CPU seconds of ``python -m exact
    ARGUMENTS`` (or ``python ARGUMENTS`` when not ``module``) in a fresh process, from its
    start; the peak and the CPU time are the child's own (getrusage of the child, from a small
    launcher). ``empty_cache`` runs it on an empty disk cache, so every compilation is
    included."""
    import subprocess
    import tempfile

    command = [sys.executable, *(["-m", "exact"] if module else []), *arguments]
    with tempfile.TemporaryDirectory() as cache:
        environment = _fresh_environment()
        if empty_cache:
            environment["EXACT_CACHE_DIR"] = cache
        done = subprocess.run([sys.executable, "-c", _LAUNCHER, str(limit_seconds),
                               str(4 << 30), *command], capture_output=True, text=True,
                              cwd=Path(__file__).parent.parent, env=environment)
    code, seconds, peak, cpu = done.stdout.split()
    return int(code), float(seconds), int(peak) * 1024, float(cpu)  # ru_maxrss: kilobytes


def fresh_process(arguments: list[str], module: bool = True) -> tuple[float, int, float]:
    """Wall seconds, peak bytes and CPU seconds of a fresh process (see ``_launch``), whose
    failure stops the benchmark. The quick mode runs each command once and repeats its
    figures (they mean nothing there: the command must only run)."""
    key = (module, *arguments)
    if QUICK and key in _QUICK_RUNS:
        return _QUICK_RUNS[key]
    code, seconds, peak, cpu = _launch(arguments, module, empty_cache=False, limit_seconds=3600)
    if code:
        raise SystemExit(f"python {' '.join(arguments)} failed ({code})")
    _QUICK_RUNS[key] = seconds, peak, cpu
    return seconds, peak, cpu


_QUICK_RUNS: dict[tuple[object, ...], tuple[float, int, float]] = {}


def fresh_process_within(arguments: list[str], limit_seconds: float
                         ) -> tuple[float, int, float] | None:
    """``fresh_process`` of a command on an empty disk cache, or None when it fails, takes
    over ``limit_seconds`` or needs more than 4 GB."""
    code, seconds, peak, cpu = _launch(arguments, True, empty_cache=True,
                                       limit_seconds=limit_seconds)
    if code and QUICK:  # no limit is tight at 1 deck: the command is broken
        raise SystemExit(f"python -m exact {' '.join(arguments)} failed ({code})")
    return None if code else (seconds, peak, cpu)


def _median_run(arguments: list[str], module: bool = True, runs: int = 3
                ) -> tuple[float, int, float]:
    """Median wall and CPU seconds and the largest peak of ``runs`` fresh processes."""
    results = [fresh_process(arguments, module) for _ in range(size(runs, 1))]
    return (statistics.median(r[0] for r in results), max(r[1] for r in results),
            statistics.median(r[2] for r in results))


def _ratio_line(label: str, measured: tuple[float, int, float], base: tuple[float, int, float],
                target: float, extra: str = "") -> None:
    ratio = measured[0] / base[0]
    print(f"{label:58} {measured[0] * 1000:12,.0f} ms  ratio {ratio:5.2f}x "
          f"{verdict(ratio <= target, f'target <= {target:g}x')}; CPU "
          f"{measured[2] * 1000:,.0f} ms = "
          f"{measured[2] / base[2]:.2f}x{extra}")


def card_level_benchmark() -> None:
    """Issue 13, fresh processes (compiled forms on disk; the first run ever, which compiles
    them, is printed too): the main-bet analysis against a naive value-level enumerator
    (tests/support/naive_enumerator.py, also a fresh process: both pay their interpreter start,
    imports and work), `edge --known 1=9H --bet perfect-pairs` against the main-bet
    analysis (at most 10x), `edge --known 1=9H` of the bets on colours and suits read with
    the third cards (suited third cards, six-card one-colour tie: factorised counting with
    the card forced, compiled for the question, at most 10x), the six-card one-colour tie
    against it (at most 3x, under 1 GB) and the nines-by-suit bet (factorised counting by the
    plan's cost rule, at most 3x). Ratios of wall-clock medians of 3 runs,
    CPU-time ratios beside them (the machine may be shared)."""
    main = ["analyze", "punto-banco", "--decks", str(DECKS), "--bet", "banker", "--bet",
            "player", "--bet", "tie"]
    known = ["edge", "punto-banco", "--decks", str(DECKS), "--known", "1=9H", "--bet",
             "perfect-pairs"]
    card_level = str(Path(__file__).parent / "data" / "card_level_bets.toml")
    tie = ["analyze", "punto-banco", "--decks", str(DECKS), "--bets", card_level, "--bet",
           "one-colour-tie"]
    four_nines = [*tie[:-1], "four-nines"]
    main_json = [*main, "--json"]
    known_card_level = {bet: [*known[:-1], bet, "--bets", card_level]
                        for bet in ("suited-third-cards", "one-colour-tie")}
    naive = [str(Path(__file__).parent / "support" / "naive_enumerator.py"), str(DECKS)]
    print(f"\nFresh processes, {DECKS} decks (issue 13; bytecode cached, compiled forms on "
          "disk)")
    firsts = {name: fresh_process(arguments) for name, arguments in
              (("main", main), ("json", main_json), ("known", known), ("tie", tie),
               ("four", four_nines))}
    fresh_process(naive, module=False)
    naive_run = _median_run(naive, module=False)
    main_run = _median_run(main)
    main_json_run = _median_run(main_json)
    known_run = _median_run(known)
    tie_run = _median_run(tie)
    four_nines_run = _median_run(four_nines)
    known_card_level_runs = {bet: _median_run(arguments)
                             for bet, arguments in known_card_level.items()}
    for name, label in (("main", "main bets"), ("json", "main bets --json"),
                        ("known", "edge --known 1=9H perfect-pairs"),
                        ("tie", "six-card one-colour tie"), ("four", "nines-by-suit bet")):
        seconds, peak, _ = firsts[name]
        line(f"first run of {label} (compiles if the cache is empty)", seconds, None,
             f"{peak / 2**20:,.0f} MB")
    line("naive value-level enumerator (tests/support/naive_enumerator.py)", naive_run[0], None,
         f"CPU {naive_run[2] * 1000:,.0f} ms")
    _ratio_line("main bets (banker, player, tie) / naive enumerator", main_run, naive_run, 1.0)
    _ratio_line("main bets --json / naive enumerator", main_json_run, naive_run, 1.0)
    _ratio_line("edge --known 1=9H --bet perfect-pairs / main bets", known_run, main_run, 10.0,
                f", peak {known_run[1] / 2**20:,.0f} MB")
    for bet, run in known_card_level_runs.items():
        _ratio_line(f"edge --known 1=9H --bet {bet} / main bets", run, main_run, 10.0,
                    f", peak {run[1] / 2**20:,.0f} MB")
    memory = max(firsts["tie"][1], tie_run[1])
    _ratio_line("six-card one-colour tie / main bets", tie_run, main_run, 3.0,
                f", peak {memory / 2**20:,.0f} MB "
                f"{verdict(memory < 2**30, 'target < 1,024 MB')}")
    _ratio_line("nines-by-suit bet (four-nines) / main bets", four_nines_run, main_run, 3.0,
                f", peak {max(firsts['four'][1], four_nines_run[1]) / 2**20:,.0f} MB")


def known_positions_benchmark() -> None:
    """`edge --known` with the card at any position (issue: card 5 or 6 known took 28 s for
    Punto Banco and 63 s for NINE & NINES at 8 decks): every default bet of both games, fresh
    processes (median of 3, compiled forms on disk), target 3 s each; then Perfect Pairs and
    NINES with card 5 known, in this process: at 8 decks, and against the walk of their deal
    that the shoe without the card replaces. That walk takes half a minute to a minute at 8
    decks (1,378 x 1,378 pairs of hands of the 52 rank-and-suit classes), so the ratio is
    measured on 8 decks of six ranks (24 classes, 300 x 300 pairs), both ways on that shoe in
    this run."""
    from exact.core.cards import Card
    from exact.engines import forced as forced_engine
    from exact.engines import live
    from exact.model.settling import values_only

    known_sets = (["1=9D"], ["4=9D"], ["5=9D"], ["6=9D"], ["5=9D", "6=9H"])
    print(f"\nedge --known, {DECKS} decks, every default bet (fresh processes, target <= 3 s "
          "each)")
    for game_id in ("punto-banco", "nine-and-nines"):
        for known in known_sets[::size(1, 4)]:  # the first card and cards 5 and 6 when quick
            options = [part for item in known for part in ("--known", item)]
            seconds, peak, cpu = _median_run(["edge", game_id, "--decks", str(DECKS), *options])
            line(f"edge {game_id} --known {' '.join(known)}", seconds, 3.0,
                 f"CPU {cpu * 1000:,.0f} ms, {peak / 2**20:,.0f} MB")
    forced = {5: Card.parse("9D")}
    few = Shoe.parse(",".join(f"{rank}:{4 * DECKS}" for rank in ("A", "2", "5", "8", "9", "K")))
    for game_id, bet_id in (("punto-banco", "perfect-pairs"), ("nine-and-nines", "nines")):
        game = get_game(game_id)
        bet = next(b for b in game_bets(game) if b.id == bet_id)
        for shoe in (Shoe.standard(DECKS), few):
            live.next_round(game, shoe, [bet], forced)  # the staged grids built once
            fast = timed(lambda game=game, bet=bet, shoe=shoe:
                         live.next_round(game, shoe, [bet], forced), repeat=5)
            if shoe is not few:
                line(f"{bet_id} --known 5=9D, {DECKS} decks: the shoe without the card", fast)
                continue
            start = time.perf_counter()
            walked = forced_engine._forced_on_deal(game, shoe.remove("9D"), [bet], forced)
            walk = time.perf_counter() - start
            if walked[bet_id].counts != live.next_round(game, shoe, [bet], forced)[bet_id].counts:
                raise SystemExit(f"{bet_id}: the walk and the shoe without card 5 disagree")
            line(f"{bet_id} --known 5=9D, {DECKS} decks of 6 ranks: the same", fast, None,
                 f"the walk of its deal {walk:,.2f} s: {walk / fast:,.0f}x faster")
    # the bets on card values alone share one walk of the deal serving them all: against a
    # walk per deal, in this run
    game, known = get_game("punto-banco"), {1: Card.parse("9H")}
    rest = small_shoe().remove("9H")
    bets = [bet for bet in game_bets(game, [DATA / "value_level_bets.toml"])
            if values_only(game, bet)]
    by_deal: dict[object, list[Bet]] = {}
    for bet in bets:
        by_deal.setdefault(game.deal(game.needs(bet.features)), []).append(bet)
    shared = timed(lambda: forced_engine._forced_on_deal(game, rest, bets, known), repeat=3)
    apart = timed(lambda: [forced_engine._forced_on_deal(game, rest, group, known)
                           for group in by_deal.values()], repeat=3)
    line(f"{len(bets)} bets on values ({len(by_deal)} deals) --known 1=9H: one walk", shared,
         None, f"a walk per deal {apart * 1000:,.0f} ms: {apart / shared:.1f}x faster")


ATTRIBUTE_BETS = ("four-hearts", "all-hearts", "one-colour-tie-by-reds", "super-tie",
                  "nine-of-spades")


def attribute_benchmark() -> None:
    """Issue 30: bets on counts of card attributes and on attributes by position with the
    third cards (tests/data/attribute_bets.toml), served by class-by-class counting: each
    `analyze` against the main-bet analysis (fresh processes, compiled forms on disk; at most
    3x, under 1 GB) and `edge --known 1=9H` of each against it (at most 10x); their batches
    of depleted shoes are :func:`attribute_batch_benchmark`'s. The first run of each (which
    compiles when the disk cache is empty) is printed too."""
    bet_file = str(DATA / "attribute_bets.toml")
    main = ["analyze", "punto-banco", "--decks", str(DECKS), "--bet", "banker", "--bet",
            "player", "--bet", "tie"]
    print(f"\nBets on card attributes, {DECKS} decks (issue 30; fresh processes, compiled "
          "forms on disk)")
    main_run = _median_run(main)
    line("main bets (banker, player, tie)", main_run[0], None,
         f"CPU {main_run[2] * 1000:,.0f} ms")
    for bet_id in ATTRIBUTE_BETS[:size(len(ATTRIBUTE_BETS), 2)]:
        analysis = ["analyze", "punto-banco", "--decks", str(DECKS), "--bets", bet_file,
                    "--bet", bet_id]
        known = ["edge", "punto-banco", "--decks", str(DECKS), "--known", "1=9H", "--bets",
                 bet_file, "--bet", bet_id]
        first = fresh_process(analysis)
        line(f"first run of {bet_id} (compiles if the cache is empty)", first[0], None,
             f"{first[1] / 2**20:,.0f} MB")
        run = _median_run(analysis)
        memory = max(first[1], run[1])
        _ratio_line(f"{bet_id} / main bets", run, main_run, 3.0,
                    f", peak {memory / 2**20:,.0f} MB "
                    f"{verdict(memory < 2**30, 'target < 1,024 MB')}")
        fresh_process(known)
        _ratio_line(f"edge --known 1=9H --bet {bet_id} / main bets", _median_run(known),
                    main_run, 10.0)


def attribute_batch_benchmark() -> None:
    """Issue 30: batches of depleted shoes (at least 2,000 shoes/s each, wall clock) with the
    bets on card attributes (tests/data/attribute_bets.toml), each bet alone through the
    batch evaluator (class-by-class counting, exact/engines/classes_evaluation.py), compiled
    once (or read from the disk cache) before the timed batch. The rate per CPU second is
    printed beside it: on a shared machine the wall clock also counts the others' work."""
    from exact.engines.batch import BetEvaluator
    from exact.engines.plan import choose
    from exact.model.bets import load_bets

    game = get_game("punto-banco")
    bets = {bet.id: bet for bet in load_bets(DATA / "attribute_bets.toml", game.features)}
    shoes = depleted_shoes(size(1000, 8), seed=30)
    print(f"\nBatches of {len(shoes):,} depleted {DECKS}-deck shoes, bets on card attributes "
          "(issue 30)")
    for bet_id in ATTRIBUTE_BETS[:size(len(ATTRIBUTE_BETS), 2)]:
        evaluator = BetEvaluator(game, [bets[bet_id]])
        evaluator.numerators(shoes[:2])  # compiled (or read from the disk cache) once
        cpu = time.process_time()
        seconds = timed(partial(evaluator.numerators, shoes))
        cpu = time.process_time() - cpu
        rate = len(shoes) / seconds
        engine = choose(game, bets[bet_id], "batch").engine
        judged = verdict(rate >= 2_000, "target >= 2,000")
        print(f"{f'batch: exact EV of {bet_id} ({engine})':58} {rate:12,.0f} shoes/s "
              f"{judged + '; ' if judged else ''}"
              f"{len(shoes) / max(cpu, 1e-9):,.0f} per CPU second", flush=True)


# The benchmark, section by section: `make bench` and its quick mode walk this one list.
SECTIONS: tuple[Callable[[], None], ...] = (
    main_bets_in_process,
    warm_bytecode,
    bench_nine_and_nines,
    century21_benchmarks,
    strategy_walks_benchmark,
    century21_table_benchmark,
    side_bets,
    remaining_shoe_benchmark,
    removal_every_game,
    card_level_benchmark,
    attribute_benchmark,
    attribute_batch_benchmark,
    known_positions_benchmark,
    verification_benchmark,
    century21_verification_benchmark,
)


if __name__ == "__main__":
    main(sys.argv[1:])
