"""`make bench`: throughput of the exact engine, and its speed-up over the brute force.

Timings are wall-clock medians on this machine; targets come from the issues and are printed
beside each figure (PASS/FAIL), so a regression is visible at a glance.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference import brute_force

from exact.analysis import analyze, game_bets
from exact.cards import Shoe
from exact.games import get_game


def timed(function: Callable[[], object], repeat: int = 1) -> float:
    """Median seconds of ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def line(label: str, seconds: float, target: float | None = None, extra: str = "") -> None:
    verdict = "" if target is None else ("PASS" if seconds <= target else "FAIL")
    goal = "" if target is None else f"(target <= {target * 1000:,.0f} ms) {verdict}"
    print(f"{label:58} {seconds * 1000:12,.2f} ms  {goal} {extra}".rstrip())


def main() -> None:
    game = get_game("punto-banco")
    shoe = Shoe.standard(8)
    main_bets = [b for b in game_bets(game) if b.group == "main"]
    print("Punto Banco, 8 decks, Banker/Player/Tie")
    cold = timed(lambda: analyze(game, shoe, main_bets))
    line("first analysis (compile + bind + evaluate)", cold)
    warm = timed(lambda: analyze(game, shoe, main_bets), repeat=50)
    line("warm analysis (evaluate exact counts and statistics)", warm, 0.030)
    depleted = [shoe.remove(cards) for cards in ("5", "9H KD", "A 2 3 4", "T J Q K 9 9")]
    per_shoe = timed(lambda: [analyze(game, s, main_bets) for s in depleted], repeat=10) / 4
    line("warm analysis of a depleted shoe", per_shoe, 0.030,
         f"= {1 / per_shoe:,.0f} shoes/s")
    direct = timed(lambda: analyze(game, shoe, main_bets, engine="direct"))
    line("direct recursive enumerator (no compilation)", direct)
    brute = timed(lambda: brute_force(shoe, ("winner",), by="value"))
    line("reference brute force, card by card (tests/reference.py)", brute)
    print(f"speed-up of the warm engine over the brute force: {brute / warm:,.0f}x; "
          f"direct enumerator over brute force: {brute / direct:,.1f}x")
    remaining_shoe_benchmark()


def remaining_shoe_benchmark() -> None:
    """Issue 7: batch evaluation of depleted shoes, effects of removal, shoe simulation."""
    import numpy as np

    from exact.batch import BetEvaluator
    from exact.bets import load_bets
    from exact.cards import CARDS
    from exact.removal import effects_of_removal
    from exact.simulation import ShoeRules, SimulationConfig, simulate

    game = get_game("punto-banco")
    side = Path(__file__).parent / "data" / "ez_side_bets.toml"
    bets = game_bets(game) + load_bets(side, game.features)
    print(f"\nRemaining-shoe analysis: {', '.join(b.id for b in bets)}")
    cold = timed(lambda: BetEvaluator(game, bets))
    line("bet evaluator from the disk cache (load + bind)", cold)
    evaluator = BetEvaluator(game, bets)
    generator = np.random.default_rng(1)
    deck = np.repeat(np.arange(52), 8)
    shoes = np.zeros((4000, len(CARDS)), dtype=np.int64)
    for row in shoes:
        kept = generator.choice(deck, size=int(generator.integers(30, 400)), replace=False)
        row[:] = np.bincount(kept, minlength=len(CARDS))
    evaluator.numerators(shoes[:256])
    batch = timed(lambda: evaluator.numerators(shoes), repeat=3)
    rate = len(shoes) / batch
    one = Shoe(tuple(int(c) for c in shoes[0]))
    direct = timed(lambda: analyze(game, one, bets, engine="direct"))
    verdict = "PASS" if rate >= 5000 else "FAIL"
    print(f"{'batch: exact EV of every bet, depleted 8-deck shoes':58} {rate:12,.0f} shoes/s "
          f"(target >= 5,000) {verdict}; plain enumerator {direct * 1000:,.0f} ms a shoe "
          f"= {rate * direct:,.0f}x slower")
    full = Shoe.standard(8)
    warm = timed(lambda: effects_of_removal(game, full, bets, evaluator=evaluator), repeat=5)
    line("effects of removal, every bet, 13 ranks (warm)", warm, 1.0)
    line("effects of removal, every bet (new evaluator, compiled form cached)",
         timed(lambda: effects_of_removal(game, full, bets)), 1.0)
    config = SimulationConfig(bet_texts=((str(side), side.read_text()),),
                              bet_ids=("dragon-7", "panda-8"), shoe=ShoeRules())
    # a fixed cost (starting the workers, loading the evaluator) plus a cost per shoe
    shoes_run = 200
    startup = timed(lambda: simulate(config, 2, seed=1, workers=2))
    seconds = timed(lambda: simulate(config, shoes_run, seed=20261130, workers=2))
    projected = startup + (seconds - startup) * (10_000 - 2) / (shoes_run - 2)
    line("simulation, 2 shoes, 2 workers (mostly starting them)", startup)
    line(f"simulation, {shoes_run} shoes, Dragon 7 + Panda 8, 2 workers", seconds)
    verdict = "PASS" if projected <= 300 else "FAIL"
    print(f"{'  extrapolated to 10,000 shoes':58} {projected:12,.0f} s   (target <= 300 s) "
          f"{verdict}; the full run: make simulate-10k")


if __name__ == "__main__":
    main()
