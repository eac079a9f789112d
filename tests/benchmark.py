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

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parent.parent)]

from exact.analysis import analyze, game_bets
from exact.cards import Shoe
from exact.games import get_game

from reference import brute_force


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
    def full(shoe: Shoe, engine: str = "compiled") -> list[object]:
        """Counts, return tables and every statistic of the three bets."""
        bets = analyze(game, shoe, main_bets, engine=engine).bets.values()
        return [(t.house_edge, t.variance, t.house_edge_per_resolved_bet)
                for b in bets for t in b.tables.values()]

    cold = timed(lambda: full(shoe))
    line("first analysis (compile + bind + evaluate)", cold)
    warm = timed(lambda: full(shoe), repeat=50)
    line("warm analysis (evaluate exact counts and statistics)", warm, 0.030)
    depleted = [shoe.remove(cards) for cards in ("5", "9H KD", "A 2 3 4", "T J Q K 9 9")]
    per_shoe = timed(lambda: [full(s) for s in depleted], repeat=10) / 4
    line("warm analysis of a depleted shoe", per_shoe, 0.030,
         f"= {1 / per_shoe:,.0f} shoes/s")
    direct = timed(lambda: full(shoe, "direct"))
    line("direct recursive enumerator (no compilation)", direct)
    brute = timed(lambda: brute_force(shoe, ("winner",), by="value"))
    line("reference brute force, card by card (tests/reference.py)", brute)
    print(f"speed-up of the warm engine over the brute force: {brute / warm:,.0f}x; "
          f"direct enumerator over brute force: {brute / direct:,.1f}x")


if __name__ == "__main__":
    main()
